"""The card-market games played many times inside compiled code: a playout policy, whole playouts, and batches of
games (one row a game) reset, masked and stepped in one call each."""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.market.actions import ACTION_COUNT, BUY, MAX_ACTIONS, RETURN
from splendor.compiled.market.layout import KIND, PHASE
from splendor.compiled.market.rules import legal_mask_into, nth_legal, setup, step
from splendor.compiled.rng import below
from splendor.games.market import MAIN, OVER

# ----------------------------------------------------------------------------- playouts


@njit(cache=True)
def choose(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray, buy_first: bool) -> int:
    """A legal action: uniformly at random, or (``buy_first``) uniformly among the buys when there are any."""
    kind = s[KIND]
    if buy_first and s[PHASE] == MAIN:
        buys = 0
        for a in range(BUY, RETURN[kind]):
            if mask[a]:
                buys += 1
        if buys > 0:
            k = below(rng, buys)
            for a in range(BUY, RETURN[kind]):
                if mask[a]:
                    if k == 0:
                        return a
                    k -= 1
    return nth_legal(mask, ACTION_COUNT[kind], below(rng, count))


@njit(cache=True)
def playouts(kind: int, players: int, games: int, seed: int, buy_first: bool, max_turns: int) -> int:
    """Play ``games`` whole games from seeds ``seed``, ``seed + 1``, …; returns the decisions played."""
    mask = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    scratch = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    decisions = 0
    for g in range(games):
        s = setup(kind, players, seed + g, 0, max_turns)
        while s[PHASE] != OVER:
            count = legal_mask_into(s, mask)
            step(s, choose(s, mask, count, rng, buy_first), scratch)
            decisions += 1
    return decisions


# ----------------------------------------------------------------------------- many games at once


@njit(cache=True)
def batch_reset(
    states: np.ndarray, kind: int, players: int, seeds: np.ndarray, first_player: int, max_turns: int
) -> None:
    """Deal game ``i`` of ``states`` (one row a game) anew from ``seeds[i]``."""
    for i in range(states.shape[0]):
        states[i, :] = setup(kind, players, seeds[i], first_player, max_turns)


@njit(cache=True)
def batch_masks(states: np.ndarray, masks: np.ndarray) -> None:
    """Set ``masks[i]`` to the legal actions of game ``i`` (all false once it is over)."""
    for i in range(states.shape[0]):
        legal_mask_into(states[i], masks[i])


@njit(cache=True)
def batch_step(states: np.ndarray, actions: np.ndarray) -> None:
    """Play ``actions[i]`` in game ``i`` (the caller checked them against the masks); -1 leaves a game as it is."""
    scratch = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    for i in range(states.shape[0]):
        if actions[i] >= 0:
            step(states[i], actions[i], scratch)
