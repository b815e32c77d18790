"""The Game protocol every game implements, and the machinery they share.

A game is one mutable object. Its public face (see ``docs/architecture.md``)::

    game = splendor.new_game("classic", players=2, seed=42)
    game.current_player, game.legal_actions(), game.apply("take w b g")
    game.is_over, game.winners, game.scores, game.result
    game.view(seat), game.to_json(), splendor.load(text), game.record

A concrete game supplies the rules (``legal_actions``, ``why_illegal``, ``_do``), the views, and its state
as JSON-ready data (``_state`` / ``_restore``); this base class makes ``apply`` safe (every action is checked
before anything changes, so an `IllegalAction` leaves the state untouched), keeps the history, and builds
records, results and serialisation the same way for every game.
"""

from __future__ import annotations

import json
import random
import secrets
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from splendor.core.actions import Action, ActionTable
from splendor.core.errors import IllegalAction
from splendor.core.record import Record
from splendor.i18n import Message, _

SEED_BITS = 53
"""A seed drawn for a game that was given none has this many bits: exact as a JSON number in every reader
(JavaScript's included), so a published deal is dealt again from its record, by the API too (whose seeds go up to
2**53 - 1)."""
STATE_FORMAT = "splendor-state/2"
STATE_FORMATS = ("splendor-state/1", STATE_FORMAT)
"""Every format a saved state may be read in, oldest first; version N keeps the rules of record format N
(``record.UPGRADES``)."""

ONGOING, WON, SHARED, TRUNCATED, STALLED = "ongoing", "won", "shared", "truncated", "stalled"


class Game(ABC):
    """Base of every game. Subclasses set ``name``, ``title`` and ``actions`` and implement the rules."""

    name: ClassVar[str]
    title: ClassVar[str]
    notation_help: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    actions: ActionTable

    players: int
    seed: int
    options: dict[str, Any]
    history: list[Action]
    turns: int
    """Turns completed so far; each seat's turn counts one (a Kids extra turn belongs to its turn)."""
    stalled: bool = False
    """True when the game ended because every seat had to pass for a whole round (ruling 4): no winner."""

    def __init__(self, players: int = 2, seed: int | None = None, **options: Any) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number from {self.min_players} to {self.max_players}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, not {players}"
            )
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError("seed must be a whole number of zero or more")
        self.players = players
        self.seed = seed
        self.options = self._check_options(dict(options))
        self.history = []
        self._setup()

    # ----------------------------------------------------------------- what each game supplies

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Validate and complete the game's options (``ValueError`` on a bad one); the result is recorded."""
        if options:
            raise ValueError(f"{self.title} has no option {', '.join(sorted(options))}")
        return options

    def _turn_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Take out and check the options every game has: ``max_turns`` (ruling 4: a cap that ends the game as
        truncated; None for none) and ``first_player`` (ruling 1: a seat, or ``"random"``)."""
        max_turns = options.pop("max_turns", None)
        first = options.pop("first_player", 0)
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1):
            raise ValueError("max_turns must be a whole number of 1 or more, or None for no cap")
        if first != "random" and (
            isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < self.players
        ):
            raise ValueError(f"first_player must be a seat from 0 to {self.players - 1}, or 'random'")
        return {"max_turns": max_turns, "first_player": first}

    @abstractmethod
    def _setup(self) -> None:
        """Lay out a new game from ``self.seed``, ``self.players`` and ``self.options``."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must decide now (None once the game is over)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the current player, in a stable order (empty once the game is over)."""

    @abstractmethod
    def why_illegal(self, action: Action) -> Message | None:
        """None when ``action`` is legal now; otherwise the rule that forbids it, in the players' words."""

    @abstractmethod
    def _do(self, action: Action) -> None:
        """Carry out a legal action (already checked: it must not fail)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended, by its rules or by the turn cap."""

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat, now."""

    @property
    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats once the game is over (several when shared, none when truncated)."""

    @property
    @abstractmethod
    def truncated(self) -> bool:
        """True when the game ended at its turn cap, with no winner."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-ready data; ``None`` is a spectator."""

    @abstractmethod
    def _state(self) -> dict[str, Any]:
        """The whole state, hidden parts included, as JSON-ready data."""

    @abstractmethod
    def _restore(self, state: dict[str, Any]) -> None:
        """Set the state from ``_state()`` output."""

    @abstractmethod
    def _copy_state(self, other: Game) -> None:
        """Copy the mutable state into ``other`` (a bare instance), sharing nothing mutable."""

    @abstractmethod
    def determinize(self, seat: int | None, rng: random.Random) -> Game:
        """A full state consistent with what ``seat`` sees, its hidden parts dealt at random from what that seat
        cannot see (for search). The deal starts from a canonical order, so it depends only on the seat's
        information and ``rng``: two states that look the same to the seat give the same result."""

    def public_details(self, action: Action, after: Game) -> dict[str, Any]:
        """What every seat may see of ``action``, taken in this state and giving ``after``, beyond its text: the
        card it bought or reserved, the noble that visited, the tile taken (for the log). Nothing hidden: a card
        reserved from a deck stays unnamed until it is played.

        >>> import splendor
        >>> g = splendor.new_game("classic", players=2, seed=1)
        >>> a = g.parse("reserve 1.1"); after = g.clone(); after.apply(a)
        >>> g.public_details(a, after)["card"]["tier"]
        1
        """
        return {}

    def _result_details(self) -> dict[str, Any]:
        """Game-specific facts for ``result`` (tie-breaks, Pokédex marks)."""
        return {}

    # ----------------------------------------------------------------- shared machinery

    def parse(self, text: str) -> Action:
        """The action a text names (`IllegalAction` if it names none)."""
        return self.actions.parse(text)

    def own_action(self, action: Action | str) -> Action:
        """This game's own action for ``action`` (its text, or an `Action` of this game's table).

        Only this game's own actions are carried out: a hand-built `Action`, or one that another game parsed,
        would otherwise be done as whatever its kind and arguments say and recorded under its text. Raises
        `IllegalAction` for anything else.
        """
        if not isinstance(action, Action):
            return self.parse(action)
        own = self.actions.own(action)
        if own is None:
            raise IllegalAction(
                _(
                    "{action} is not an action of {game}: play an action from legal_actions(), or its text",
                    action=repr(action),
                    game=Message(self.title),
                )
            )
        return own

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (or its text) for the current player.

        Raises `IllegalAction` naming the rule when it is not legal now; the state is then unchanged.
        """
        self.apply_legal(self._judged(action))

    def after(self, action: Action | str) -> Game:
        """The game after ``action`` (or its text), as a new game: this one is left as it is.

        The action is judged once, as `apply` judges it: `IllegalAction` names the rule when it is not legal now
        (or what is malformed in the text), and nothing is copied then. What the server does with every action it
        accepts, catches up on or replays, so that it can write the action before the game it holds moves on.

        >>> import splendor
        >>> g = splendor.new_game("classic", players=2, seed=1)
        >>> later = g.after("take w b g")
        >>> len(g.history), len(later.history)
        (0, 1)
        """
        action = self._judged(action)
        later = self.clone()
        later.apply_legal(action)
        return later

    def _judged(self, action: Action | str) -> Action:
        """This game's own action for ``action``, once the rules allow it now (else `IllegalAction`)."""
        action = self.own_action(action)
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason)
        return action

    def apply_legal(self, action: Action) -> None:
        """Play an action taken from ``legal_actions()`` of this very state, skipping the check (for playouts).

        Anything else must go through ``apply``: an unchecked illegal action corrupts the state.
        """
        self._do(action)
        self.history.append(action)

    def is_legal(self, action: Action | str) -> bool:
        """True when ``action`` could be applied now."""
        try:
            action = self.own_action(action)
        except IllegalAction:
            return False
        return self.why_illegal(action) is None

    def clone(self) -> Game:
        """An independent copy of this game (cheap: for search)."""
        other = object.__new__(type(self))
        other.players = self.players
        other.seed = self.seed
        other.options = self.options
        other.history = self.history[:]
        self._copy_state(other)
        return other

    @property
    def num_actions(self) -> int:
        """The size of this game's fixed action space (for this player count)."""
        return len(self.actions)

    def action_index(self, action: Action | str) -> int:
        """The fixed integer index of an action."""
        if not isinstance(action, Action):
            action = self.actions.parse(action)
        return self.actions.get(action.kind, *action.args).index

    def action_from_index(self, index: int) -> Action:
        """The action with that index (``IndexError`` outside ``range(num_actions)``)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.actions):
            raise IndexError(f"action index must be from 0 to {len(self.actions) - 1}, not {index!r}")
        return self.actions[index]

    @property
    def status(self) -> str:
        """``ongoing``, ``won`` (one winner), ``shared`` (several), ``truncated`` (turn cap, no winner) or
        ``stalled`` (a whole round of forced passes, no winner: ruling 4)."""
        if not self.is_over:
            return ONGOING
        if self.truncated:
            return TRUNCATED
        if self.stalled:
            return STALLED
        return WON if len(self.winners) == 1 else SHARED

    @property
    def result(self) -> dict[str, Any]:
        """The outcome as JSON-ready data: status, winners, scores and game-specific details."""
        out: dict[str, Any] = {
            "status": self.status,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "actions": len(self.history),
        }
        out.update(self._result_details())
        return out

    @property
    def record(self) -> Record:
        """The record of the game so far: header plus every action applied, replayable exactly."""
        return Record(
            game=self.name,
            players=self.players,
            seed=self.seed,
            options=dict(self.options),
            actions=[a.text for a in self.history],
        )

    def to_json(self) -> str:
        """The whole state as JSON text, hidden parts included; ``splendor.load`` reads it back exactly."""
        return json.dumps(
            {
                "format": STATE_FORMAT,
                "game": self.name,
                "players": self.players,
                "seed": self.seed,
                "options": self.options,
                "history": [a.text for a in self.history],
                "state": self._state(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from the parsed output of ``to_json``, proven: the game is replayed from its header
        (players, seed, options) and history, and the result must be exactly the saved state.

        So a loaded game is always one the rules can reach: a damaged, edited or impossible state (fifty gold
        tokens, a history that does not lead to the state) raises ``ValueError`` naming what is wrong.
        """
        for key, kind in (("players", int), ("seed", int), ("options", dict), ("history", list), ("state", dict)):
            if key not in data:
                raise ValueError(f"the saved game has no {key!r}")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise ValueError(f"the saved game's {key!r} must be a JSON {kind.__name__}")
        try:
            game = cls(players=data["players"], seed=data["seed"], **data["options"])
        except TypeError as e:
            raise ValueError(f"the saved game's options are not {cls.title}'s: {e}") from None
        if game.options != data["options"]:
            raise ValueError("the saved game's options are not in the form the game records them")
        for n, text in enumerate(data["history"], 1):
            if not isinstance(text, str):
                raise ValueError(f"action {n} of the saved history is not text")
            try:
                game.apply(text)
            except IllegalAction as e:
                raise ValueError(f"action {n} of the saved history, {text!r}, is illegal: {e}") from None
        replayed = json.loads(json.dumps(game._state()))
        saved = data["state"]
        if replayed != saved:
            differ = sorted(k for k in set(replayed) | set(saved) if replayed.get(k) != saved.get(k))
            raise ValueError(f"the saved state is not where its history leads: {', '.join(map(repr, differ))} differ")
        return game

    @classmethod
    def trusted(
        cls, players: int, seed: int, options: dict[str, Any], state: dict[str, Any], history: list[int]
    ) -> Game:
        """A game set to exactly ``state`` (``_state()`` output) after the actions numbered ``history``, taken as
        it is, without the replay `from_state` proves a state by: only for copies the program made itself (a
        pickled game, a compiled engine's state, a determinized one). Text from outside goes through
        `splendor.load`."""
        game = object.__new__(cls)
        game.players, game.seed, game.options = players, seed, dict(options)
        game._restore(state)
        game.history = [cls.actions[i] for i in history]
        return game

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its state and history (so it crosses processes: Ray, OpenSpiel's serialisation)."""
        return (
            type(self).trusted,
            (self.players, self.seed, dict(self.options), self._state(), [a.index for a in self.history]),
        )

    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, or None for a spectator")

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} seed={self.seed} "
            f"actions={len(self.history)} status={self.status}>"
        )
