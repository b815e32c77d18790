"""Many compiled games at once (``Batch``: one row of a 2-D array a game, for vectorised RL environments), and
whole games played inside compiled code (``playouts``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.compiled.game import CompiledGame
from splendor.compiled.kernels import POLICIES
from splendor.compiled.kernels import kernel as _kernel_of
from splendor.core.errors import IllegalAction


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
        self._kernel = _kernel_of(name)
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
    kernel = _kernel_of(name)
    if policy not in POLICIES:
        raise ValueError(f"policy is one of {', '.join(POLICIES)}, not {policy!r}")
    if not 2 <= players <= 4:
        raise ValueError("players must be from 2 to 4")
    from splendor.games import new_game as reference_game

    checked = reference_game(name, players=players, max_turns=max_turns, **options).options
    if checked.get("board") is not None:
        raise ValueError("playouts draw each game's board from its seed: give no board")
    return kernel.playouts(players, games, seed, policy == "buyfirst", -1 if max_turns is None else max_turns, checked)
