"""Splendor Kids played many times inside compiled code: a playout policy, whole playouts, and batches of games
(one row a game) reset, masked and stepped in one call each."""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.kids.actions import MAX_LEGAL
from splendor.compiled.kids.layout import OVER
from splendor.compiled.kids.rules import legal_into, phase, setup, step
from splendor.compiled.rng import below
from splendor.games.kids.notation import MOVE_BASE


@njit(cache=True)
def choose(s: np.ndarray, legal: np.ndarray, count: int, rng: np.ndarray, move_first: bool) -> int:
    """A legal action: uniformly at random, or (``move_first``) uniformly among the moves when there are any."""
    if move_first:
        moves = 0
        for i in range(count):
            if legal[i] >= MOVE_BASE:
                moves += 1
        if moves > 0:
            return int(legal[count - moves + below(rng, moves)])  # the moves come last, being the largest
    return int(legal[below(rng, count)])


@njit(cache=True)
def playouts(
    players: int,
    games: int,
    seed: int,
    move_first: bool,
    max_turns: int,
    mysteries: bool,
    short: bool,
    blocks: np.ndarray,
) -> int:
    """Play ``games`` whole games from seeds ``seed``, ``seed + 1``, …; returns the decisions played."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    decisions = 0
    for g in range(games):
        s = setup(players, seed + g, 0, max_turns, mysteries, short, blocks, True)
        while phase(s) != OVER:
            count = legal_into(s, legal)
            step(s, choose(s, legal, count, rng, move_first))
            decisions += 1
    return decisions


@njit(cache=True)
def batch_reset(
    states: np.ndarray,
    players: int,
    seeds: np.ndarray,
    max_turns: int,
    mysteries: bool,
    short: bool,
    blocks: np.ndarray,
    draw_sides: bool,
) -> None:
    """Deal game ``i`` of ``states`` (one row a game) anew from ``seeds[i]``, on the board its options make."""
    for i in range(states.shape[0]):
        states[i, :] = setup(players, seeds[i], 0, max_turns, mysteries, short, blocks, draw_sides)


@njit(cache=True)
def batch_masks(states: np.ndarray, masks: np.ndarray) -> None:
    """Set ``masks[i]`` to the legal actions of game ``i`` (all false once it is over)."""
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    for i in range(states.shape[0]):
        masks[i, :] = False
        if phase(states[i]) != OVER:
            for k in range(legal_into(states[i], legal)):
                masks[i, legal[k]] = True


@njit(cache=True)
def batch_step(states: np.ndarray, actions: np.ndarray) -> None:
    """Play ``actions[i]`` in game ``i`` (the caller checked them against the masks); -1 leaves a game as it is."""
    for i in range(states.shape[0]):
        if actions[i] >= 0:
            step(states[i], actions[i])


# ----------------------------------------------------------------------------- to and from the reference
