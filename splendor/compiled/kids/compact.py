"""Splendor Kids' compact action index in compiled code, for learners stepping many games at once: the legal
actions as compact indices, and a compact index turned back into the game's own.

The compact index (``splendor.games.kids.compact``, what ``splendor.envs.actions.ActionIndex`` plays) keeps the
game's own fixed actions (0-77) and gives each road ``WAYS_PER_ROAD`` places: ``78 + road * 585 + k`` (road
counted from 0 here) is moving along it with the ``k``-th way of paying its banner (``banner_ways``, in code
order). The kernel's own move is ``MOVE_BASE + road * P_COUNT + code``, so turning one into the other needs only
the rank of a payment code among its banner's ways, which the tables below hold for every banner there can be.

Both directions keep order (a banner's ways are in code order, roads in number order), so the kernel's sorted
legal actions become the sorted compact ones in place, at little more than the cost of ``legal_into``.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from splendor.compiled.kids.layout import ROAD_COST, ROAD_COST_N, ROADS_N
from splendor.compiled.kids.rules import legal_into
from splendor.games.kids.board import MAX_COST
from splendor.games.kids.compact import COMPACT_COUNT, WAYS_PER_ROAD, banner_ways
from splendor.games.kids.notation import MOVE_BASE, P_COUNT, RESOURCE_COUNT

BANNER_BASE = MAX_COST + 1
"""A banner's key: its count of each resource as a digit in this base (resource ``c`` the ``c``-th digit)."""
BANNER_DIGIT = BANNER_BASE ** np.arange(RESOURCE_COUNT, dtype=np.int64)


def _banner_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every banner there can be (1 to ``MAX_COST`` resources): its row by key, where each row's ways begin in the
    flat list of ways and how many they are, and that list (each banner's payment codes in code order, one banner
    after another: flat, so that Numba can keep it in the cached code, which it does only for arrays under 1 MB)."""
    banners = [b for n in range(1, MAX_COST + 1) for b in combinations_with_replacement(range(RESOURCE_COUNT), n)]
    row_of_key = np.full(BANNER_BASE**RESOURCE_COUNT, -1, dtype=np.int64)
    ways_at = np.zeros(len(banners), dtype=np.int64)
    ways_n = np.zeros(len(banners), dtype=np.int64)
    ways: list[int] = []
    for row, banner in enumerate(banners):
        codes = banner_ways(banner)
        if len(codes) > WAYS_PER_ROAD:
            raise AssertionError(f"banner {banner} has {len(codes)} ways to pay, over {WAYS_PER_ROAD}")
        row_of_key[sum(BANNER_BASE**c for c in banner)] = row
        ways_at[row], ways_n[row] = len(ways), len(codes)
        ways += codes
    return row_of_key, ways_at, ways_n, np.array(ways, dtype=np.int64)


BANNER_ROW, WAYS_AT, WAYS_N, WAYS = _banner_tables()
"""``BANNER_ROW[key]``: the row of the banner with that key; its ``k``-th way of paying is payment code
``WAYS[WAYS_AT[row] + k]``, for ``k`` below ``WAYS_N[row]``."""


@njit(cache=True)
def _banner_row(s: np.ndarray, road: int) -> int:
    """The row in the tables of the banner of ``road`` (counted from 0) on this state's board."""
    key = 0
    for i in range(s[ROAD_COST_N + road]):
        key += BANNER_DIGIT[s[ROAD_COST + road * MAX_COST + i]]
    return int(BANNER_ROW[key])


@njit(cache=True)
def _rank(row: int, code: int) -> int:
    """The place of payment ``code`` among the ways of the banner in ``row`` (binary search: they are sorted)."""
    first = WAYS_AT[row]
    lo, hi = first, first + WAYS_N[row]
    while lo < hi:
        mid = (lo + hi) >> 1
        if WAYS[mid] < code:
            lo = mid + 1
        else:
            hi = mid
    return int(lo - first)


@njit(cache=True)
def compact_legal_into(s: np.ndarray, out: np.ndarray) -> int:
    """Write the compact indices of the legal actions into ``out``, ascending; returns how many (0 once the game
    is over). ``out`` needs room for ``MAX_LEGAL`` entries, as for ``legal_into``."""
    n = legal_into(s, out)
    road, row = -1, -1
    for i in range(n):
        a = out[i]
        if a < MOVE_BASE:
            continue
        r, code = (a - MOVE_BASE) // P_COUNT, (a - MOVE_BASE) % P_COUNT
        if r != road:  # a road's moves come together: find its banner once
            road, row = r, _banner_row(s, r)
        out[i] = MOVE_BASE + r * WAYS_PER_ROAD + _rank(row, code)
    return n


@njit(cache=True)
def own_index(s: np.ndarray, compact: int) -> int:
    """The game's own action index (what ``step`` takes) of a compact index, or -1 when it names no action on this
    state's board: out of range, a road the board lacks, or a way beyond its banner's. Legality is not checked."""
    if compact < 0 or compact >= COMPACT_COUNT:
        return -1
    if compact < MOVE_BASE:
        return compact
    road, k = (compact - MOVE_BASE) // WAYS_PER_ROAD, (compact - MOVE_BASE) % WAYS_PER_ROAD
    if road >= s[ROADS_N]:
        return -1
    row = _banner_row(s, road)
    if row < 0 or k >= WAYS_N[row]:
        return -1
    return int(MOVE_BASE + road * P_COUNT + WAYS[WAYS_AT[row] + k])
