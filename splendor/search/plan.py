"""The turns a Splendor Kids traveler still needs to reach the Palace, planned exactly for one traveler alone.

For every space of a board and every purse (five resources and gold, at most 8 tokens), the table holds the
fewest turns that bring a traveler from there to the Palace from a supply that never runs short: each turn
either takes (three different resources, two of one, or a gold coin, returning what goes over 8) or moves along
a road paid with the purse (a village gives the turn back). It is the exact answer to the race each traveler
would run alone with plenty; the search adds what it leaves out: the supply's limits and the other travelers
taking from it (the playouts take only what the supply holds), the City tiles still to come (where they will be
drawn is not known; those in hand count as tokens of their colour) and the Village tiles of the Mysteries.

One table a board, filled once by dynamic programming from the Palace back to the Port (``turn_table``: about
10 ms); a lookup is a few operations (``turns``). The search scores a position by who arrives first
(``values_into``) and plays out with the move that saves most turns (``playout_action``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from splendor.compiled import kids as k
from splendor.compiled.rng import below, uniform
from splendor.games.kids.game import PURSE_LIMIT
from splendor.games.kids.notation import GOLD, RESOURCE_COUNT, TREASURE
from splendor.search.kids_compiled import plain_payment
from splendor.search.values import result_into, win_shares_into

TYPES = RESOURCE_COUNT + 1
"""A purse as the plan sees it: the five resources and gold (the Treasure pays as gold)."""

MOST = PURSE_LIMIT + 3
"""The most tokens a purse holds for a moment: 8 and a take of three, before the excess goes back."""

UNREACHABLE = 99
"""The turns of a purse and space from which the Palace cannot be reached (no such space on a real board)."""

PLAYOUT_NOISE = 0.5
"""How far apart two actions' turns must be for a playout to always take the better: below a turn, so it
takes the best, with ties at random (a little variety that the search's averages need)."""


def _purses() -> np.ndarray:
    """Every purse of at most ``MOST`` tokens, in the order of ``rank``."""
    return np.array([p for p in itertools.product(range(MOST + 1), repeat=TYPES) if sum(p) <= MOST], dtype=np.int64)


def _completions() -> np.ndarray:
    """``COMPLETIONS[n, left]``: the purses of ``n`` token kinds holding at most ``left`` tokens."""
    out = np.zeros((TYPES + 1, MOST + 1), dtype=np.int64)
    out[0, :] = 1
    for n in range(1, TYPES + 1):
        for left in range(MOST + 1):
            out[n, left] = out[n - 1, : left + 1].sum()
    return out


PURSES = _purses()
COMPLETIONS = _completions()
HELD = PURSES.sum(axis=1)


@njit(cache=True)
def rank(p: np.ndarray) -> int:
    """The place of purse ``p`` (``TYPES`` counts, at most ``MOST`` tokens) in ``PURSES``."""
    r, left = 0, MOST
    for i in range(TYPES):
        for v in range(p[i]):
            r += COMPLETIONS[TYPES - 1 - i, left - v]
        left -= p[i]
    return r


def _takes() -> np.ndarray:
    """What each take adds to a purse: three different resources, two of one, one gold coin."""
    out = []
    for three in itertools.combinations(range(RESOURCE_COUNT), 3):
        out.append([1 if c in three else 0 for c in range(TYPES)])
    for c in range(RESOURCE_COUNT):
        out.append([2 if i == c else 0 for i in range(TYPES)])
    out.append([1 if i == GOLD else 0 for i in range(TYPES)])
    return np.array(out, dtype=np.int64)


TAKES = _takes()


def _neighbours() -> tuple[np.ndarray, np.ndarray]:
    """``AFTER_TAKE[r, t]``: the purse after take ``t`` (before returning); ``DROP[r, i]``: the purse less one
    token of kind ``i`` (-1: none to drop). Both by rank; ``AFTER_TAKE`` only for purses the rules allow."""
    index = {tuple(p): i for i, p in enumerate(PURSES.tolist())}
    after = np.full((len(PURSES), len(TAKES)), -1, dtype=np.int64)
    drop = np.full((len(PURSES), TYPES), -1, dtype=np.int64)
    for i, p in enumerate(PURSES.tolist()):
        if sum(p) <= PURSE_LIMIT:
            for t, take in enumerate(TAKES.tolist()):
                after[i, t] = index[tuple(a + b for a, b in zip(p, take))]
        for c in range(TYPES):
            if p[c]:
                q = list(p)
                q[c] -= 1
                drop[i, c] = index[tuple(q)]
    return after, drop


AFTER_TAKE, DROP = _neighbours()
BY_HELD = np.argsort(HELD, kind="stable")


@njit(cache=True)
def _pay(p: np.ndarray, cost: np.ndarray, out: np.ndarray) -> bool:
    """``out`` := purse ``p`` after paying a banner of ``cost`` (per resource) with its resources first, then gold;
    False when it cannot pay."""
    out[:] = p
    short = 0
    for c in range(RESOURCE_COUNT):
        paid = min(cost[c], p[c])
        out[c] -= paid
        short += cost[c] - paid
    if short > p[GOLD]:
        return False
    out[GOLD] -= short
    return True


@njit(cache=True)
def _fill(
    table: np.ndarray,
    order: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    cost: np.ndarray,
    kind: np.ndarray,
    roads: int,
    purses_of: np.ndarray,
    held: np.ndarray,
    by_held: np.ndarray,
    after_take: np.ndarray,
    drop: np.ndarray,
) -> None:
    """Fill ``table[space, purse]`` space by space in ``order`` (every road's end before its start); the
    purse tables are passed in (``PURSES``, ``HELD``, ``BY_HELD``, ``AFTER_TAKE``, ``DROP``) so that the
    compiled code can be cached."""
    paid = np.empty(TYPES, dtype=np.int64)
    purses = purses_of.shape[0]
    for space in order:
        row = table[space]
        if kind[space] == k.PALACE:
            row[:] = 0
            continue
        row[:] = UNREACHABLE
        for r in range(purses):
            if held[r] > PURSE_LIMIT:
                continue
            for road in range(roads):
                if start[road] != space or not _pay(purses_of[r], cost[road], paid):
                    continue
                turn = 0 if kind[end[road]] == k.VILLAGE else 1
                row[r] = min(row[r], turn + table[end[road], rank(paid)])
        for _ in range(UNREACHABLE):  # sweeps until no purse gains a turn
            for i in range(purses):  # more than 8: the best purse of 8 they leave
                r = by_held[i]
                if held[r] > PURSE_LIMIT:
                    best = UNREACHABLE
                    for c in range(TYPES):
                        if drop[r, c] >= 0:
                            best = min(best, row[drop[r, c]])
                    row[r] = best
            changed = False
            for r in range(purses):
                if held[r] > PURSE_LIMIT:
                    continue
                for t in range(after_take.shape[1]):
                    turns = 1 + row[after_take[r, t]]
                    if turns < row[r]:
                        row[r] = turns
                        changed = True
            if not changed:
                break


def turn_table(state: np.ndarray) -> np.ndarray:
    """The table of the board in compiled Kids ``state``: ``table[space, rank(purse)]``, the fewest turns from
    that space with that purse to the Palace (``UNREACHABLE`` where there is no way)."""
    spaces, roads = int(state[k.SPACES_N]), int(state[k.ROADS_N])
    start = state[k.ROAD_START : k.ROAD_START + roads].copy()
    end = state[k.ROAD_END : k.ROAD_END + roads].copy()
    kind = state[k.SPACE_KIND : k.SPACE_KIND + spaces].copy()
    cost = np.zeros((roads, RESOURCE_COUNT), dtype=np.int64)
    for road in range(roads):
        for i in range(int(state[k.ROAD_COST_N + road])):
            cost[road, state[k.ROAD_COST + road * k.MAX_COST + i]] += 1
    order, done = [], set()

    def visit(space: int) -> None:  # every road's end first: roads lead one way
        done.add(space)
        for road in range(roads):
            if start[road] == space and int(end[road]) not in done:
                visit(int(end[road]))
        order.append(space)

    for space in range(spaces):
        if space not in done:
            visit(space)
    table = np.zeros((spaces, len(PURSES)), dtype=np.int8)
    _fill(
        table, np.array(order, dtype=np.int64), start, end, cost, kind, roads, PURSES, HELD, BY_HELD, AFTER_TAKE, DROP
    )
    return table


@njit(cache=True)
def seat_purse(s: np.ndarray, seat: int, out: np.ndarray) -> None:
    """``out`` := the purse the plan sees for ``seat``: its tokens (the Treasure as gold) and its active City
    tiles as tokens of their colour, at most ``MOST`` (``_trim``)."""
    base = k.PURSE + seat * k.TOKENS
    for c in range(RESOURCE_COUNT):
        out[c] = s[base + c] + s[k.ACTIVE + seat * RESOURCE_COUNT + c]
    out[GOLD] = s[base + GOLD] + s[base + TREASURE]
    _trim(out)


@njit(cache=True)
def _trim(purse: np.ndarray) -> None:
    """Bring ``purse`` within ``MOST`` tokens (only a purse with many City tiles goes over), its largest
    resource counts giving way first and gold last."""
    held = 0
    for c in range(TYPES):
        held += purse[c]
    while held > MOST:
        most = 0
        for c in range(RESOURCE_COUNT):
            if purse[c] > purse[most]:
                most = c
        if purse[most] == 0:
            most = GOLD
        purse[most] -= 1
        held -= 1


@njit(cache=True)
def turns(s: np.ndarray, seat: int, table: np.ndarray, purse: np.ndarray) -> int:
    """The fewest turns ``seat`` needs from this position to the Palace, planned alone (0: in the Palace)."""
    seat_purse(s, seat, purse)
    left: int = table[s[k.SPACE + seat], rank(purse)]
    return left


@njit(cache=True)
def values_into(s: np.ndarray, out: np.ndarray, scale: float, table: np.ndarray, shares: bool = False) -> None:
    """Each seat's share of the win: the result when the game is over, else a logistic of how many rounds
    sooner than the others it would reach the Palace, each traveler planning alone (or with ``shares``, its share
    of every seat's: ``values.win_shares_into``). A seat still to play this
    round arrives a round sooner with the same turns: the round in progress is completed before the gates
    close (so a seat already in the Palace arrived in this round)."""
    players = s[k.PLAYERS]
    if k.phase(s) == k.OVER:
        result_into(s[k.WINNERS : k.WINNERS + s[k.WINNERS_N]], players, out)
        return
    purse = np.empty(TYPES, dtype=np.int64)
    estimate = np.empty(players, dtype=np.float64)
    mover = (s[k.SEAT] - s[k.FIRST]) % players
    for p in range(players):
        place = (p - s[k.FIRST]) % players
        to_play = place > mover or (place == mover and k.phase(s) == k.ACTION)
        left = turns(s, p, table, purse)
        estimate[p] = 0.0 if left == 0 else -(left - (1 if to_play else 0))
    win_shares_into(estimate, players, scale, shares, out)


@njit(cache=True)
def _after_move(s: np.ndarray, seat: int, road: int, pay: np.ndarray, table: np.ndarray, purse: np.ndarray) -> float:
    """The turns left after moving along ``road`` with payment ``pay`` (``plain_payment``'s counts)."""
    base = k.PURSE + seat * k.TOKENS
    for c in range(RESOURCE_COUNT):
        purse[c] = s[base + c] - pay[c] + s[k.ACTIVE + seat * RESOURCE_COUNT + c] - pay[5 + c]
    purse[GOLD] = s[base + GOLD] - pay[10] + s[base + TREASURE] - pay[11]
    end = s[k.ROAD_END + road]
    turn = 0 if s[k.SPACE_KIND + end] == k.VILLAGE else 1
    return turn + _best_of(purse, end, table)


@njit(cache=True)
def playout_action(
    s: np.ndarray, legal: np.ndarray, count: int, rng: np.ndarray, table: np.ndarray, pay: np.ndarray
) -> int:
    """The main action that leaves the mover fewest turns to the Palace (ties at random, ``PLAYOUT_NOISE``):
    every take, and each road it can pay along its plain payment. The tokens to return
    are the ones whose loss costs least; any other choice at random."""
    p = k.phase(s)
    seat = k.current_player(s)
    purse = np.empty(TYPES, dtype=np.int64)
    if p == k.ACTION and s[k.SPACE + seat] != s[k.PALACE_AT]:
        seat_purse(s, seat, purse)
        best, best_value = -1, math.inf
        for i in range(count):
            a = legal[i]
            if a > k.TAKE_GOLD:
                break  # the takes come first
            if a == k.TAKE_GOLD:
                purse[GOLD] += 1
            elif a >= k.TAKE2:
                purse[k.TAKE_COLOURS[a, 0]] += 2
            else:
                for j in range(3):
                    if k.TAKE_COLOURS[a, j] >= 0:
                        purse[k.TAKE_COLOURS[a, j]] += 1
            value = 1.0 + _best_of(purse, s[k.SPACE + seat], table)
            seat_purse(s, seat, purse)
            value += uniform(rng) * PLAYOUT_NOISE
            if value < best_value:
                best, best_value = a, value
        here = s[k.SPACE + seat]
        for road in range(s[k.ROADS_N]):
            if s[k.ROAD_START + road] != here:
                continue
            index = plain_payment(s, seat, road, pay)
            at = np.searchsorted(legal[:count], index)
            if at >= count or legal[at] != index:
                continue
            value = _after_move(s, seat, road, pay, table, purse) + uniform(rng) * PLAYOUT_NOISE
            if value < best_value:
                best, best_value = index, value
        if best >= 0:
            return best
    if p == k.RETURN or p == k.DROUGHT:
        first = k.RETURN_A if p == k.RETURN else k.DISCARD_A
        space = s[k.SPACE + seat]
        best, best_value = -1, math.inf
        for i in range(count):
            c = legal[i] - first
            seat_purse(s, seat, purse)
            purse[min(c, GOLD)] = max(0, purse[min(c, GOLD)] - 1)
            value = _best_of(purse, space, table) + uniform(rng) * PLAYOUT_NOISE
            if value < best_value:
                best, best_value = legal[i], value
        return best
    drawn: int = legal[below(rng, count)]
    return drawn


@njit(cache=True)
def _best_of(purse: np.ndarray, space: int, table: np.ndarray) -> float:
    """The turns of ``purse`` at ``space`` (``_trim`` first)."""
    _trim(purse)
    return float(table[space, rank(purse)])
