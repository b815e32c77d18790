"""The compiled engine: the rules of ``splendor.games`` as flat integer arrays and Numba-compiled functions, for
search playouts, self-play and RL, where the reference engine's Python is the bottleneck.

The reference engine stays the one readable statement of the rules; the compiled one is proven equal to it
(``tests/test_compiled.py`` plays both side by side and compares the legal actions and the whole state after every
action). It covers the three games: classic Splendor and Splendor: Pokémon in one kernel (``market.py``), Splendor
Kids in its own (``kids.py``, the board inside the state).

    >>> import splendor, splendor.compiled as compiled
    >>> game = splendor.new_game("classic", players=2, seed=1)
    >>> fast = compiled.from_reference(game)
    >>> fast.step(int(fast.legal_mask().nonzero()[0][0])); fast.to_reference().history
    [Action('take w b g')]

Numba compiles on first use and caches what it compiled beside the module, so only the very first start pays it
(see ``docs/benchmarks.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.compiled import kids as _kids
from splendor.compiled import market as _market
from splendor.core.errors import IllegalAction
from splendor.core.game import Game

COVERED = ("classic", "pokemon", "kids")
"""The games the compiled engine plays."""

POLICIES = ("random", "buyfirst")
"""Playout policies: uniformly random, or uniformly among the buys (in Kids, the moves) when there are any."""


def _check_covered(name: str) -> None:
    if name not in COVERED:
        raise ValueError(f"the compiled engine plays {', '.join(COVERED)}, not {name!r}")


class _Market:
    """The card-market games' kernel, as the face uses it (a legal mask is the kernel's own list)."""

    def __init__(self, name: str) -> None:
        self.kind = _market.KINDS[name]
        self.actions = int(_market.ACTION_COUNT[self.kind])
        self.size = _market.SIZE
        self.mask = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)
        self.scratch = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)

    def fill_mask(self, state: np.ndarray) -> np.ndarray:
        _market.legal_mask_into(state, self.mask)
        return self.mask

    def indices(self, state: np.ndarray) -> np.ndarray:
        return np.flatnonzero(self.fill_mask(state)[: self.actions])

    def step(self, state: np.ndarray, index: int) -> None:
        _market.step(state, index, self.scratch)

    def over(self, state: np.ndarray) -> bool:
        return bool(state[_market.PHASE] == _market.OVER)

    def over_all(self, states: np.ndarray) -> np.ndarray:
        return states[:, _market.PHASE] == _market.OVER

    def current_player(self, state: np.ndarray) -> int | None:
        return None if self.over(state) else int(state[_market.SEAT])

    def winners(self, state: np.ndarray) -> list[int]:
        return [int(x) for x in state[_market.WINNERS : _market.WINNERS + state[_market.WINNERS_N]]]

    def scores(self, state: np.ndarray, players: int) -> list[int]:
        return [int(x) for x in state[_market.POINTS : _market.POINTS + players]]

    def to_state(self, state: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
        return _market.to_state(state)

    def from_state(self, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
        return _market.from_state(self.kind, players, options, state)

    def setup(self, players: int, seed: int, first: int, cap: int, options: dict[str, Any]) -> np.ndarray:
        return _market.setup(self.kind, players, seed, first, cap)

    def playouts(self, players: int, games: int, seed: int, eager: bool, cap: int, options: dict[str, Any]) -> int:
        return int(_market.playouts(self.kind, players, games, seed, eager, cap))

    def batch_reset(
        self, states: np.ndarray, players: int, seeds: np.ndarray, cap: int, options: dict[str, Any]
    ) -> None:
        _market.batch_reset(states, self.kind, players, seeds, 0, cap)

    def batch_masks(self, states: np.ndarray, masks: np.ndarray) -> None:
        _market.batch_masks(states, masks)

    def batch_step(self, states: np.ndarray, actions: np.ndarray) -> None:
        _market.batch_step(states, actions)


class _Kids:
    """Splendor Kids' kernel, as the face uses it: the kernel lists the legal indices; the mask is built from
    them (the action index has about 439,000 entries)."""

    def __init__(self) -> None:
        self.actions = _kids.ACTION_COUNT
        self.size = _kids.STATE_SIZE
        self.mask = np.zeros(self.actions, dtype=np.bool_)
        self.legal = np.empty(_kids.MAX_LEGAL, dtype=np.int64)
        self._marked = np.empty(0, dtype=np.int64)

    def fill_mask(self, state: np.ndarray) -> np.ndarray:
        self.mask[self._marked] = False
        self._marked = np.empty(0, dtype=np.int64)
        if _kids.phase(state) != _kids.OVER:
            self._marked = self.legal[: _kids.legal_into(state, self.legal)].copy()
            self.mask[self._marked] = True
        return self.mask

    def indices(self, state: np.ndarray) -> np.ndarray:
        self.fill_mask(state)
        return self._marked.copy()

    def step(self, state: np.ndarray, index: int) -> None:
        _kids.step(state, index)

    def over(self, state: np.ndarray) -> bool:
        return bool(_kids.phase(state) == _kids.OVER)

    def over_all(self, states: np.ndarray) -> np.ndarray:
        return (states[:, _kids.PENDING_N] > 0) & (states[:, _kids.PENDING] == _kids.OVER)

    def current_player(self, state: np.ndarray) -> int | None:
        seat = int(_kids.current_player(state))
        return None if seat < 0 else seat

    def winners(self, state: np.ndarray) -> list[int]:
        return [int(x) for x in state[_kids.WINNERS : _kids.WINNERS + state[_kids.WINNERS_N]]]

    def scores(self, state: np.ndarray, players: int) -> list[int]:
        palace = state[_kids.PALACE_AT]
        return [int(state[_kids.SPACE + p] == palace) for p in range(players)]

    @staticmethod
    def tables(state: np.ndarray, options: dict[str, Any]) -> _kids.BoardTables:
        """The board of a state: the sides given in the options, or the shipped sides its seed drew."""
        if options.get("board") is not None:
            return _kids.board_tables(list(options["board"]))
        sides = state[_kids.SIDE_AT : _kids.SIDE_AT + state[_kids.SECTIONS_N]]
        return _kids.board_tables([_kids.SHIPPED_SIDES[int(i)] for i in sides])

    def to_state(self, state: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
        return _kids.to_state(state, self.tables(state, options))

    def from_state(self, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
        return _kids.from_state(players, options, state, _kids.board_tables(state["side_refs"]))

    @staticmethod
    def _blocks(options: dict[str, Any]) -> tuple[np.ndarray, bool]:
        """The boards setup chooses from, and whether the seed draws the sides (no board given)."""
        if options.get("board") is None:
            return _kids.shipped_blocks(options["short"]), True
        return _kids.board_tables(list(options["board"])).block[None, :], False

    def setup(self, players: int, seed: int, first: int, cap: int, options: dict[str, Any]) -> np.ndarray:
        blocks, draw = self._blocks(options)
        return _kids.setup(players, seed, first, cap, options["mysteries"], options["short"], blocks, draw)

    def playouts(self, players: int, games: int, seed: int, eager: bool, cap: int, options: dict[str, Any]) -> int:
        blocks, _ = self._blocks({**options, "board": None})
        return int(_kids.playouts(players, games, seed, eager, cap, options["mysteries"], options["short"], blocks))

    def batch_reset(
        self, states: np.ndarray, players: int, seeds: np.ndarray, cap: int, options: dict[str, Any]
    ) -> None:
        blocks, draw = self._blocks(options)
        _kids.batch_reset(states, players, seeds, cap, options["mysteries"], options["short"], blocks, draw)

    def batch_masks(self, states: np.ndarray, masks: np.ndarray) -> None:
        _kids.batch_masks(states, masks)

    def batch_step(self, states: np.ndarray, actions: np.ndarray) -> None:
        _kids.batch_step(states, actions)


def _kernel(name: str) -> Any:
    _check_covered(name)
    return _Kids() if name == "kids" else _Market(name)


class CompiledGame:
    """A game in the compiled engine: its state is one ``int64`` array, its actions the reference's indices.

    ``state`` is for reading: change the game through ``step`` only (the legal mask it last computed is kept for
    the next ``step``)."""

    def __init__(
        self,
        name: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        state: np.ndarray,
        history: list[int],
        kernel: Any = None,
    ) -> None:
        self.name, self.players, self.seed, self.options = name, players, seed, options
        self.state = state
        self.history = history
        self._kernel = kernel or _kernel(name)
        self._actions = int(self._kernel.actions)
        self._mask_fresh = False  # the kernel's mask is of this very state (legal_mask, then step)

    @property
    def num_actions(self) -> int:
        return self._actions

    def legal_mask(self) -> np.ndarray:
        """A bool array over the game's action indices: true exactly at ``legal_actions()``'s indices."""
        mask = self._kernel.fill_mask(self.state)
        self._mask_fresh = True
        return mask[: self._actions].copy()

    def legal_indices(self) -> np.ndarray:
        """The legal actions' indices, ascending (``legal_actions()``'s indices): cheaper than the mask in Kids,
        whose action index is about 439,000 long."""
        found = self._kernel.indices(self.state)
        self._mask_fresh = True
        return found

    def step(self, index: int) -> None:
        """Play the action with this index; `IllegalAction` (nothing changes) unless it is legal now."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self._actions:
            raise IllegalAction(f"an action index is from 0 to {self._actions - 1}, not {index!r}")
        mask = self._kernel.mask if self._mask_fresh else self._kernel.fill_mask(self.state)
        self._mask_fresh = True
        if not mask[index]:
            raise IllegalAction(f"action {int(index)} is not legal now")
        self._kernel.step(self.state, int(index))
        self._mask_fresh = False
        self.history.append(int(index))

    def clone(self) -> CompiledGame:
        """An independent copy (one array copy)."""
        return CompiledGame(self.name, self.players, self.seed, self.options, self.state.copy(), self.history[:])

    @property
    def is_over(self) -> bool:
        return self._kernel.over(self.state)

    @property
    def current_player(self) -> int | None:
        return self._kernel.current_player(self.state)

    @property
    def winners(self) -> list[int]:
        return self._kernel.winners(self.state)

    @property
    def scores(self) -> list[int]:
        return self._kernel.scores(self.state, self.players)

    def to_reference(self) -> Game:
        """The reference game in exactly this state (its ``to_json()`` is what the reference engine would write)."""
        from splendor.games import game_class

        return game_class(self.name).trusted(
            self.players, self.seed, self.options, self._kernel.to_state(self.state, self.options), list(self.history)
        )

    def __repr__(self) -> str:
        return f"<CompiledGame {self.name} players={self.players} seed={self.seed} actions={len(self.history)}>"


def from_reference(game: Game) -> CompiledGame:
    """The compiled game in the same state as the reference ``game`` (hidden parts included)."""
    kernel = _kernel(game.name)
    state = kernel.from_state(game.players, game.options, game._state())
    return CompiledGame(
        game.name, game.players, game.seed, dict(game.options), state, [a.index for a in game.history], kernel
    )


def new_game(
    name: str,
    players: int = 2,
    seed: int = 0,
    max_turns: int | None = None,
    first_player: int | str = 0,
    **options: Any,
) -> CompiledGame:
    """A new compiled game dealt from ``seed`` exactly as ``splendor.new_game`` deals it (with the same options:
    Kids' ``short``, ``mysteries`` and ``board``)."""
    kernel = _kernel(name)
    from splendor.games import new_game as reference_game

    checked = reference_game(
        name, players=players, seed=seed, max_turns=max_turns, first_player=first_player, **options
    ).options  # checks players and options
    state = kernel.setup(
        players,
        seed,
        -1 if first_player == "random" else int(first_player),
        -1 if max_turns is None else max_turns,
        checked,
    )
    return CompiledGame(name, players, seed, checked, state, [], kernel)


class Batch:
    """Many games of one kind at once, one row of ``states`` each, for vectorised RL environments: reset, the
    legal masks and a step of every game, each one call into compiled code. ``states`` is for reading: change
    the games through ``reset`` and ``step``. (Kids' masks are as wide as its whole action index, about 439,000.)

    >>> batch = Batch("classic", games=4, players=2)
    >>> batch.reset(seeds=[1, 2, 3, 4]); masks = batch.masks(); masks.shape
    (4, 77)
    >>> batch.step(masks.argmax(axis=1)); batch.over().tolist()
    [False, False, False, False]
    """

    def __init__(self, name: str, games: int, players: int = 2, max_turns: int | None = None, **options: Any) -> None:
        self._kernel = _kernel(name)
        if not 2 <= players <= 4 or games < 1:
            raise ValueError("a batch holds one or more games of 2 to 4 players")
        from splendor.games import new_game as reference_game

        self.options = reference_game(name, players=players, max_turns=max_turns, **options).options
        self.name, self.players, self.max_turns = name, players, max_turns
        self._actions = int(self._kernel.actions)
        self.states = np.zeros((games, self._kernel.size), dtype=np.int64)
        self._masks = np.zeros((games, self._actions), dtype=np.bool_)
        self._masks_fresh = False

    def reset(self, seeds: Any) -> None:
        """Deal every game anew, game ``i`` from ``seeds[i]`` (as ``splendor.new_game`` deals that seed)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        if seeds.shape != (self.states.shape[0],) or (seeds < 0).any():
            raise ValueError(f"give {self.states.shape[0]} seeds of zero or more")
        self._kernel.batch_reset(
            self.states, self.players, seeds, -1 if self.max_turns is None else self.max_turns, self.options
        )
        self._masks_fresh = False

    def masks(self) -> np.ndarray:
        """The legal masks, one row a game (a copy: it stays as it is when the games move on)."""
        self._kernel.batch_masks(self.states, self._masks)
        self._masks_fresh = True
        return self._masks[:, : self._actions].copy()

    def step(self, actions: Any) -> None:
        """Play ``actions[i]`` in game ``i`` (-1: leave that game as it is). `IllegalAction` names the first game
        whose action is not legal; then no game moves."""
        actions = np.asarray(actions, dtype=np.int64)
        games = self.states.shape[0]
        if actions.shape != (games,) or ((actions < -1) | (actions >= self._actions)).any():
            raise IllegalAction(f"give one action index (or -1) for each of the {games} games")
        if not self._masks_fresh:
            self._kernel.batch_masks(self.states, self._masks)
            self._masks_fresh = True
        moving = actions >= 0
        legal = self._masks[np.arange(games), np.where(moving, actions, 0)] | ~moving
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(f"action {int(actions[i])} is not legal now in game {i}")
        self._kernel.batch_step(self.states, actions)
        self._masks_fresh = False

    def over(self) -> np.ndarray:
        """Which games have ended."""
        return self._kernel.over_all(self.states)

    def game(self, i: int) -> CompiledGame:
        """Game ``i`` as a `CompiledGame` (a copy; its history is not kept by the batch)."""
        return CompiledGame(self.name, self.players, 0, dict(self.options), self.states[i].copy(), [])


def playouts(
    name: str,
    players: int = 2,
    games: int = 1,
    seed: int = 0,
    policy: str = "random",
    max_turns: int | None = None,
    **options: Any,
) -> int:
    """Play ``games`` whole games inside compiled code (seeds ``seed``, ``seed + 1``, …), every decision by
    ``policy`` (``random``: uniform over the legal actions; ``buyfirst``: uniform over the buys, in Kids the
    moves, when there are any); returns how many decisions were played. Kids takes ``short`` and ``mysteries``
    (its boards drawn from the seeds)."""
    kernel = _kernel(name)
    if policy not in POLICIES:
        raise ValueError(f"policy is one of {', '.join(POLICIES)}, not {policy!r}")
    if not 2 <= players <= 4:
        raise ValueError("players must be from 2 to 4")
    from splendor.games import new_game as reference_game

    checked = reference_game(name, players=players, max_turns=max_turns, **options).options
    if checked.get("board") is not None:
        raise ValueError("playouts draw each game's board from its seed: give no board")
    return kernel.playouts(players, games, seed, policy == "buyfirst", -1 if max_turns is None else max_turns, checked)


__all__ = ["COVERED", "Batch", "CompiledGame", "from_reference", "new_game", "playouts"]
