"""The compiled engine: the rules of ``splendor.games`` as flat integer arrays and Numba-compiled functions, for
search playouts, self-play and RL, where the reference engine's Python is the bottleneck.

The reference engine stays the one readable statement of the rules; the compiled one is proven equal to it
(``tests/test_compiled.py`` plays both side by side and compares the legal actions and the whole state after every
action). It covers classic Splendor and Splendor: Pokémon; Splendor Kids is played by the reference engine only,
and asking the compiled engine for it is a clear ``ValueError``.

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

from splendor.compiled import market as _market
from splendor.core.errors import IllegalAction
from splendor.core.game import Game

COVERED = ("classic", "pokemon")
"""The games the compiled engine plays."""

POLICIES = ("random", "buyfirst")


def _check_covered(name: str) -> None:
    if name not in COVERED:
        raise ValueError(f"the compiled engine covers {', '.join(COVERED)} so far, not {name!r}: play it with the "
                         "reference engine (splendor.new_game)")


class CompiledGame:
    """A game in the compiled engine: its state is one ``int64`` array, its actions the reference's indices.

    ``state`` is for reading: change the game through ``step`` only (the legal mask it last computed is kept for
    the next ``step``)."""

    def __init__(self, name: str, players: int, seed: int, options: dict[str, Any], state: np.ndarray,
                 history: list[int]) -> None:
        self.name, self.players, self.seed, self.options = name, players, seed, options
        self.state = state
        self.history = history
        self._actions = int(_market.ACTION_COUNT[_market.KINDS[name]])
        self._mask = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)
        self._mask_fresh = False             # the mask is of this very state (legal_mask, then step: one mask)
        self._scratch = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)

    @property
    def num_actions(self) -> int:
        return self._actions

    def legal_mask(self) -> np.ndarray:
        """A bool array over the game's action indices: true exactly at ``legal_actions()``'s indices."""
        _market.legal_mask_into(self.state, self._mask)
        self._mask_fresh = True
        return self._mask[: self._actions].copy()

    def step(self, index: int) -> None:
        """Play the action with this index; `IllegalAction` (nothing changes) unless it is legal now."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self._actions:
            raise IllegalAction(f"an action index is from 0 to {self._actions - 1}, not {index!r}")
        if not self._mask_fresh:
            _market.legal_mask_into(self.state, self._mask)
            self._mask_fresh = True
        if not self._mask[index]:
            raise IllegalAction(f"action {int(index)} is not legal now")
        _market.step(self.state, int(index), self._scratch)
        self._mask_fresh = False
        self.history.append(int(index))

    def clone(self) -> CompiledGame:
        """An independent copy (one array copy)."""
        return CompiledGame(self.name, self.players, self.seed, self.options, self.state.copy(), self.history[:])

    @property
    def is_over(self) -> bool:
        return bool(self.state[_market.PHASE] == _market.OVER)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else int(self.state[_market.SEAT])

    @property
    def winners(self) -> list[int]:
        s = self.state
        return [int(x) for x in s[_market.WINNERS: _market.WINNERS + s[_market.WINNERS_N]]]

    @property
    def scores(self) -> list[int]:
        return [int(x) for x in self.state[_market.POINTS: _market.POINTS + self.players]]

    def to_reference(self) -> Game:
        """The reference game in exactly this state (its ``to_json()`` is what the reference engine would write)."""
        from splendor.games import game_class

        cls = game_class(self.name)
        game = object.__new__(cls)
        game.players, game.seed, game.options = self.players, self.seed, dict(self.options)
        game._restore(_market.to_state(self.state))
        game.history = [cls.actions[i] for i in self.history]
        return game

    def __repr__(self) -> str:
        return f"<CompiledGame {self.name} players={self.players} seed={self.seed} actions={len(self.history)}>"


def from_reference(game: Game) -> CompiledGame:
    """The compiled game in the same state as the reference ``game`` (hidden parts included)."""
    _check_covered(game.name)
    state = _market.from_state(_market.KINDS[game.name], game.players, game.options, game._state())
    return CompiledGame(game.name, game.players, game.seed, dict(game.options), state,
                        [a.index for a in game.history])


def new_game(name: str, players: int = 2, seed: int = 0, max_turns: int | None = None,
             first_player: int | str = 0) -> CompiledGame:
    """A new compiled game dealt from ``seed`` exactly as ``splendor.new_game`` deals it."""
    _check_covered(name)
    from splendor.games import new_game as reference_game

    options = reference_game(name, players=players, seed=seed, max_turns=max_turns,
                             first_player=first_player).options          # checks players and options
    state = _market.setup(_market.KINDS[name], players, seed, -1 if first_player == "random" else int(first_player),
                          -1 if max_turns is None else max_turns)
    return CompiledGame(name, players, seed, options, state, [])


class Batch:
    """Many games of one kind at once, one row of ``states`` each, for vectorised RL environments: reset, the
    legal masks and a step of every game, each one call into compiled code. ``states`` is for reading: change
    the games through ``reset`` and ``step``.

    >>> batch = Batch("classic", games=4, players=2)
    >>> batch.reset(seeds=[1, 2, 3, 4]); masks = batch.masks(); masks.shape
    (4, 77)
    >>> batch.step(masks.argmax(axis=1)); batch.over().tolist()
    [False, False, False, False]
    """

    def __init__(self, name: str, games: int, players: int = 2, max_turns: int | None = None) -> None:
        _check_covered(name)
        if not 2 <= players <= 4 or games < 1:
            raise ValueError("a batch holds one or more games of 2 to 4 players")
        self.name, self.players, self.max_turns = name, players, max_turns
        self._kind = _market.KINDS[name]
        self._actions = int(_market.ACTION_COUNT[self._kind])
        self.states = np.zeros((games, _market.SIZE), dtype=np.int64)
        self._masks = np.zeros((games, _market.MAX_ACTIONS), dtype=np.bool_)
        self._masks_fresh = False

    def reset(self, seeds: Any) -> None:
        """Deal every game anew, game ``i`` from ``seeds[i]`` (as ``splendor.new_game`` deals that seed)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        if seeds.shape != (self.states.shape[0],) or (seeds < 0).any():
            raise ValueError(f"give {self.states.shape[0]} seeds of zero or more")
        _market.batch_reset(self.states, self._kind, self.players, seeds, 0,
                            -1 if self.max_turns is None else self.max_turns)
        self._masks_fresh = False

    def masks(self) -> np.ndarray:
        """The legal masks, one row a game (a copy: it stays as it is when the games move on)."""
        _market.batch_masks(self.states, self._masks)
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
            _market.batch_masks(self.states, self._masks)
            self._masks_fresh = True
        moving = actions >= 0
        legal = self._masks[np.arange(games), np.where(moving, actions, 0)] | ~moving
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(f"action {int(actions[i])} is not legal now in game {i}")
        _market.batch_step(self.states, actions)
        self._masks_fresh = False

    def over(self) -> np.ndarray:
        """Which games have ended."""
        return self.states[:, _market.PHASE] == _market.OVER

    def game(self, i: int) -> CompiledGame:
        """Game ``i`` as a `CompiledGame` (a copy; its history is not kept by the batch)."""
        return CompiledGame(self.name, self.players, 0, {"max_turns": self.max_turns, "first_player": 0},
                            self.states[i].copy(), [])


def playouts(name: str, players: int = 2, games: int = 1, seed: int = 0, policy: str = "random",
             max_turns: int | None = None) -> int:
    """Play ``games`` whole games inside compiled code (seeds ``seed``, ``seed + 1``, …), every decision by
    ``policy`` (``random``: uniform over the legal actions; ``buyfirst``: uniform over the buys when there are
    any); returns how many decisions were played."""
    _check_covered(name)
    if policy not in POLICIES:
        raise ValueError(f"policy is one of {', '.join(POLICIES)}, not {policy!r}")
    if not 2 <= players <= 4:
        raise ValueError("players must be from 2 to 4")
    return int(_market.playouts(_market.KINDS[name], players, games, seed, policy == "buyfirst",
                                -1 if max_turns is None else max_turns))


__all__ = ["COVERED", "Batch", "CompiledGame", "from_reference", "new_game", "playouts"]
