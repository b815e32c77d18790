"""How the compiled search scores the end of an iteration, for every game: a finished game by its result, an
unfinished one from each seat's progress estimate (as ``reference.PlayoutEvaluator`` does): by its lead over the
best other seat, or, with ``shares``, by its share of every seat's (which in two-player games is the same)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def result_into(winners: np.ndarray, players: int, out: np.ndarray) -> None:
    """Each seat's share of a finished game: a sole winner 1, a shared victory 1/k each, no winner 1/n each."""
    n = winners.shape[0]
    for p in range(players):
        out[p] = 1.0 / players if n == 0 else 0.0
    for i in range(n):
        out[winners[i]] = 1.0 / n


@njit(cache=True)
def leads_into(progress: np.ndarray, players: int, scale: float, out: np.ndarray) -> None:
    """Each seat's share of the win from its progress: a logistic of its lead over the best other seat."""
    for p in range(players):
        best = -math.inf
        for q in range(players):
            if q != p:
                best = max(best, progress[q])
        out[p] = 1.0 / (1.0 + math.exp(-(progress[p] - best) / scale))


@njit(cache=True)
def shares_into(progress: np.ndarray, players: int, scale: float, out: np.ndarray) -> None:
    """Each seat's share of the win from everyone's progress: ``exp(progress / scale)`` over the sum of every
    seat's (a softmax, as the Plackett–Luce model rates a game of many). The shares add up to one, and every
    other seat counts, not only the best: a seat gains by gaining on any of them. With two seats this is the
    logistic of the lead (`leads_into`), computed as that so that two-player searches are unchanged."""
    if players == 2:
        leads_into(progress, players, scale, out)
        return
    top = -math.inf
    for p in range(players):
        top = max(top, progress[p])
    total = 0.0
    for p in range(players):
        out[p] = math.exp((progress[p] - top) / scale)
        total += out[p]
    for p in range(players):
        out[p] /= total


@njit(cache=True)
def win_shares_into(progress: np.ndarray, players: int, scale: float, shares: bool, out: np.ndarray) -> None:
    """Each seat's share of the win from its progress: `shares_into` if ``shares``, else `leads_into`."""
    if shares:
        shares_into(progress, players, scale, out)
    else:
        leads_into(progress, players, scale, out)
