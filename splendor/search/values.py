"""How the compiled search scores the end of an iteration, for every game: a finished game by its result, an
unfinished one by each seat's lead in the game's progress estimate (as ``reference.PlayoutEvaluator`` does)."""

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
