"""What the search knows of Splendor Kids, in compiled code: dealing the City stack and the face-down Village tiles
anew, the playout policy (move toward the Palace, else take what the next road needs), the progress estimate and
the priors of the actions, as ``splendor.search.kids`` and ``splendor.search.priors`` state them for the
reference search (with their constants).

The board's route knowledge (each space's cheapest cost to the Palace, the moves it takes, the next road of the
cheapest route) is ``kids.Routes``, passed in as ``Route`` arrays.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from splendor.compiled import kids as k
from splendor.compiled.rng import below, shuffle, uniform
from splendor.games.kids.notation import GOLD, PAYMENT_CODE, RESOURCE_COUNT, TREASURE
from splendor.search.kids import ARRIVED, LATE, TAKE_YIELD, TURN_WEIGHT, Routes
from splendor.search.priors import OTHER_WEIGHT, TAKE3_WEIGHT, TAKE_WEIGHT, kind_weight
from splendor.search.values import result_into, win_shares_into

MOVE_WEIGHT, TAKE2_WEIGHT = kind_weight("move"), kind_weight("take2")
"""A road's weight (shared among its payments) and a take of two of one resource, as ``priors.KIND_WEIGHT``."""


class Route:
    """A board's route tables by the compiled state's space numbers: cheapest cost to the Palace, moves to it,
    and the next road (its index, or -1 at the Palace)."""

    def __init__(self, game: Any, tables: k.BoardTables) -> None:
        ids = tables.space_ids
        routes = Routes.of(game.board)
        self.distance = np.array([routes.distance[sid] for sid in ids], dtype=np.float64)
        self.moves = np.array([routes.moves[sid] for sid in ids], dtype=np.int64)
        self.next_road = np.array(
            [routes.next_road[sid].number - 1 if sid in routes.next_road else -1 for sid in ids], dtype=np.int64
        )


# ----------------------------------------------------------------------------- determinization


@njit(cache=True)
def determinize_into(root: np.ndarray, rng: np.ndarray, out: np.ndarray, pool: np.ndarray) -> None:
    """``out`` := ``root`` with the City stack and the unseen Village tiles (face down and set aside) dealt anew;
    every seat sees the same. Both are sorted before the shuffle, so the deal never depends on the hidden order."""
    out[:] = root
    n = root[k.STACK_N]
    stack = out[k.STACK : k.STACK + n]
    stack.sort()
    shuffle(rng, stack, n)
    t = 0
    for i in range(root[k.A2_N]):
        if root[k.VILLAGE_TILE + i] >= 0:
            pool[t] = root[k.VILLAGE_TILE + i]
            t += 1
    for i in range(root[k.ASIDE_N]):
        pool[t] = root[k.ASIDE + i]
        t += 1
    pool[:t].sort()
    shuffle(rng, pool, t)
    for i in range(root[k.A2_N]):
        if root[k.VILLAGE_TILE + i] >= 0:
            t -= 1
            out[k.VILLAGE_TILE + i] = pool[t]
    for i in range(t):
        out[k.ASIDE + i] = pool[i]


# ----------------------------------------------------------------------------- the playout policy


@njit(cache=True)
def _needs(s: np.ndarray, seat: int, next_road: np.ndarray, need: np.ndarray) -> None:
    """What the next road of the cheapest route still asks of this traveler, per resource colour."""
    need[:] = 0
    road = next_road[s[k.SPACE + seat]]
    if road < 0:
        return
    for i in range(s[k.ROAD_COST_N + road]):
        need[s[k.ROAD_COST + road * k.MAX_COST + i]] += 1
    for c in range(RESOURCE_COUNT):
        need[c] = max(0, need[c] - s[k.PURSE + seat * k.TOKENS + c] - s[k.ACTIVE + seat * RESOURCE_COUNT + c])


@njit(cache=True)
def plain_payment(s: np.ndarray, seat: int, road: int, pay: np.ndarray) -> int:
    """The move index of paying a road with tokens of each colour first, then City tiles, gold, the Treasure."""
    pay[:] = 0
    wild = 0
    for i in range(s[k.ROAD_COST_N + road]):
        c = s[k.ROAD_COST + road * k.MAX_COST + i]
        if pay[c] < s[k.PURSE + seat * k.TOKENS + c]:
            pay[c] += 1
        elif pay[5 + c] < s[k.ACTIVE + seat * RESOURCE_COUNT + c]:
            pay[5 + c] += 1
        else:
            wild += 1
    pay[10] = min(wild, s[k.PURSE + seat * k.TOKENS + GOLD])
    pay[11] = wild - pay[10]
    return k.MOVE_BASE + road * k.P_COUNT + k._payment_code(pay)


@njit(cache=True)
def _nearest_affordable_road(s: np.ndarray, seat: int, rng: np.ndarray, distance: np.ndarray) -> int:
    """Of the roads this traveler can pay now, one whose end is nearest the Palace (ties at random); -1: none."""
    wild = s[k.PURSE + seat * k.TOKENS + GOLD] + s[k.PURSE + seat * k.TOKENS + TREASURE]
    here = s[k.SPACE + seat]
    colours = np.zeros(RESOURCE_COUNT, dtype=np.int64)
    best, best_distance, best_tie = -1, math.inf, 0.0
    for road in range(s[k.ROADS_N]):
        if s[k.ROAD_START + road] != here:
            continue
        colours[:] = 0
        for i in range(s[k.ROAD_COST_N + road]):
            colours[s[k.ROAD_COST + road * k.MAX_COST + i]] += 1
        short = 0
        for c in range(RESOURCE_COUNT):
            short += max(0, colours[c] - s[k.PURSE + seat * k.TOKENS + c] - s[k.ACTIVE + seat * RESOURCE_COUNT + c])
        if short <= wild:
            d, tie = distance[s[k.ROAD_END + road]], uniform(rng)
            if d < best_distance or (d == best_distance and tie < best_tie):
                best, best_distance, best_tie = road, d, tie
    return best


@njit(cache=True)
def playout_action(
    s: np.ndarray,
    legal: np.ndarray,
    count: int,
    rng: np.ndarray,
    distance: np.ndarray,
    next_road: np.ndarray,
    need: np.ndarray,
    pay: np.ndarray,
) -> int:
    """``kids.playout_action``: move along the road that gets closest to the Palace when it can be paid
    (nine times in ten), else take the tokens the next road of the cheapest route needs; return or discard what
    that road needs least; any other choice at random."""
    p = k.phase(s)
    seat = s[k.SEAT]
    if p == k.ACTION and s[k.SPACE + seat] != s[k.PALACE_AT]:
        if uniform(rng) < 0.9:
            road = _nearest_affordable_road(s, seat, rng, distance)
            if road >= 0:
                return plain_payment(s, seat, road, pay)
        _needs(s, seat, next_road, need)
        wanted = 0
        for c in range(RESOURCE_COUNT):
            if need[c] > 0:
                wanted += 1
        best, best_value = -1, -math.inf
        for i in range(count):
            a = legal[i]
            if a > k.TAKE_GOLD:
                break  # the takes come first
            if a == k.TAKE_GOLD:
                value = 0.9 if wanted else 0.1
            elif a >= k.TAKE2:
                value = min(2, need[a - k.TAKE2]) + 0.2
            else:
                value = 0.0
                for j in range(3):
                    c = k.TAKE_COLOURS[a, j]
                    if c >= 0:
                        value += (1.0 if need[c] else 0.0) + 0.1
            value += uniform(rng) * 0.3
            if value > best_value:
                best, best_value = a, value
        if best >= 0:
            return best
    if p == k.RETURN or p == k.DROUGHT:
        _needs(s, s[k.PENDING + 1], next_road, need)
        first = k.RETURN_A if p == k.RETURN else k.DISCARD_A
        best, best_value = -1, math.inf
        for i in range(count):
            c = legal[i] - first
            value = (need[c] if c < RESOURCE_COUNT else 5) + uniform(rng) * 0.3
            if value < best_value:
                best, best_value = legal[i], value
        return best
    drawn: int = legal[below(rng, count)]
    return drawn


# ----------------------------------------------------------------------------- evaluation and priors


@njit(cache=True)
def progress(s: np.ndarray, seat: int, distance: np.ndarray, moves: np.ndarray) -> float:
    """``kids.progress``: minus the estimated turns to the Palace, times ``TURN_WEIGHT``."""
    space = s[k.SPACE + seat]
    if space == s[k.PALACE_AT]:
        arrived: float = TURN_WEIGHT * (ARRIVED - LATE * s[k.TURNS])
        return arrived
    held = 0
    for t in range(k.TOKENS):
        held += s[k.PURSE + seat * k.TOKENS + t]
    for c in range(RESOURCE_COUNT):
        held += s[k.ACTIVE + seat * RESOURCE_COUNT + c]
    turns: float = moves[space] + max(0.0, distance[space] - held) / TAKE_YIELD
    return -TURN_WEIGHT * turns


@njit(cache=True)
def values_into(
    s: np.ndarray, out: np.ndarray, scale: float, distance: np.ndarray, moves: np.ndarray, shares: bool = False
) -> None:
    """Each seat's share of the win: the result when the game is over, else from the seats' progress (a logistic
    of its lead, or with ``shares`` its share of everyone's: ``values.win_shares_into``)."""
    players = s[k.PLAYERS]
    if k.phase(s) == k.OVER:
        result_into(s[k.WINNERS : k.WINNERS + s[k.WINNERS_N]], players, out)
        return
    estimate = np.empty(players, dtype=np.float64)
    for p in range(players):
        estimate[p] = progress(s, p, distance, moves)
    win_shares_into(estimate, players, scale, shares, out)


@njit(cache=True)
def priors_into(legal: np.ndarray, count: int, out: np.ndarray) -> None:
    """``priors.kind_priors`` for Kids (unnormalised): three tokens, fewer, two of one, a move its road's weight
    shared among the road's payments, anything else (a gold coin, a return, a tile) ``OTHER_WEIGHT``."""
    for i in range(count):
        a = legal[i]
        if a >= k.MOVE_BASE:
            road = (a - k.MOVE_BASE) // k.P_COUNT
            same = 0
            for j in range(count):
                if legal[j] >= k.MOVE_BASE and (legal[j] - k.MOVE_BASE) // k.P_COUNT == road:
                    same += 1
            out[i] = MOVE_WEIGHT / same
        elif a < k.TAKE_PAIR_FIRST:
            out[i] = TAKE3_WEIGHT
        elif a < k.TAKE2:
            out[i] = TAKE_WEIGHT
        elif a < k.TAKE_GOLD:
            out[i] = TAKE2_WEIGHT
        else:
            out[i] = OTHER_WEIGHT


assert len(PAYMENT_CODE) == k.P_COUNT
