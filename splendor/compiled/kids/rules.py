"""Splendor Kids' rules in compiled code: the deal, the legal actions (as sorted indices) and carrying out an
action with the steps it sets off, over the state of ``layout``.

The steps an action sets off are a small queue, as in the reference (``pending``): each waits for one seat's
decision (returning tokens over the purse's 8, a Drought's discards, the Thief's gift, a City tile, a Medal) or
happens by itself (an extra turn, the end of the turn).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.kids.actions import (
    CITY_MARKET_A,
    CITY_STACK_A,
    DISCARD_A,
    GIVE_A,
    MEDAL_A,
    PASS_A,
    PAY,
    PAY_BASE,
    PAY_COUNTS,
    PAY_KEYS,
    PAY_ORDER,
    RETURN_A,
    TAKE2,
    TAKE3_FIRST,
    TAKE_COLOURS,
    TAKE_GOLD,
    TAKE_ONE_FIRST,
    TAKE_PAIR_FIRST,
)
from splendor.compiled.kids.layout import (
    A2_N,
    A2_VILLAGES,
    ACTION,
    ACTIVE,
    ASIDE,
    ASIDE_N,
    BOARD_END,
    BOXED,
    BOXED_N,
    BOXED_TREASURES,
    CAPPED,
    CITY,
    CITY_STEP,
    COINS,
    DROUGHT,
    DROUGHT_TILE,
    END_TURN,
    EXTRA_TURN,
    FIRST,
    FLIP_TILE,
    FLIP_VILLAGE,
    FLIPS_N,
    GATES,
    GEM,
    MARKET,
    MARKET_N,
    MARKET_OPEN,
    MAX_TURNS,
    MEDAL,
    MEDAL_OF,
    MEDALS_LEFT,
    MEDALS_N,
    MYSTERIES,
    OVER,
    PALACE,
    PALACE_AT,
    PENDING,
    PENDING_N,
    PLAYERS,
    PORT_AT,
    PURSE,
    RETURN,
    ROAD_COST,
    ROAD_COST_N,
    ROAD_END,
    ROAD_START,
    ROADS_N,
    SEAT,
    SHORT,
    SPACE,
    SPACE_KIND,
    STACK,
    STACK_N,
    STACK_ROOM,
    STATE_SIZE,
    SUPPLY,
    THIEF,
    THIEF_TILE,
    TOKENS,
    TORNADO,
    TREASURE_TILE,
    TURNS,
    USED,
    VILLAGE_TILE,
    VILLAGE_TILE_IDS,
    WINNERS,
    WINNERS_N,
)
from splendor.compiled.rng import below, shuffle
from splendor.games.kids.board import MAX_COST
from splendor.games.kids.game import (
    CITY_TILES_PER_COLOUR,
    DROUGHT_LIMIT,
    PURSE_LIMIT,
    KidsGame,
)
from splendor.games.kids.notation import (
    GOLD,
    MARKET_SLOTS,
    MAX_SEATS,
    MAX_TREASURES,
    MEDALS,
    MOVE_BASE,
    P_COUNT,
    RESOURCE_COUNT,
    TREASURE,
)

# each resource's tokens in the supply, by players
PER_COLOUR = np.array([KidsGame.tokens_per_colour.get(p, 0) for p in range(MAX_SEATS + 1)], dtype=np.int64)
GOLD_COINS = KidsGame.gold_coins

# ----------------------------------------------------------------------------- setting up


@njit(cache=True)
def setup(
    players: int,
    seed: int,
    first_player: int,
    max_turns: int,
    mysteries: bool,
    short: bool,
    blocks: np.ndarray,
    draw_sides: bool,
) -> np.ndarray:
    """A new game dealt from ``seed`` exactly as the reference deals it. With ``draw_sides`` the board is the row
    of ``blocks`` that the seed's side draws pick (``shipped_blocks``); else ``blocks[0]``, the chosen board.
    ``first_player`` -1 means random, ``max_turns`` -1 none."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    row = 0
    if draw_sides:
        for i in range(2 if short else 3):
            row += below(rng, 2) << i
    s[:BOARD_END] = blocks[row]
    for c in range(RESOURCE_COUNT):
        s[SUPPLY + c] = PER_COLOUR[players]
    s[SUPPLY + GOLD] = GOLD_COINS
    for p in range(players):
        s[SPACE + p] = s[PORT_AT]
        s[MEDAL_OF + p] = -1
    n = 0
    for c in range(RESOURCE_COUNT):
        for _ in range(CITY_TILES_PER_COLOUR):
            s[STACK + n] = c
            n += 1
    stack = s[STACK : STACK + STACK_ROOM]
    shuffle(rng, stack, n)
    for i in range(s[A2_N]):
        s[VILLAGE_TILE + i] = -1
    if mysteries:
        for i in range(MARKET_SLOTS):
            n -= 1
            s[MARKET + i] = s[STACK + n]
        s[MARKET_N] = MARKET_SLOTS
        s[MARKET_OPEN] = 1
        tiles = VILLAGE_TILE_IDS.copy()
        shuffle(rng, tiles, tiles.shape[0])
        left = tiles.shape[0]
        for i in range(s[A2_N]):
            left -= 1
            s[VILLAGE_TILE + i] = tiles[left]
        s[ASIDE_N] = left
        for i in range(left):
            s[ASIDE + i] = tiles[i]
    s[STACK_N] = n
    s[MEDALS_N] = MEDALS
    for m in range(MEDALS):
        s[MEDALS_LEFT + m] = m
    s[GEM] = -1
    s[FIRST] = below(rng, players) if first_player < 0 else first_player
    s[SEAT] = s[FIRST]
    s[PLAYERS], s[MAX_TURNS] = players, max_turns
    s[MYSTERIES] = 1 if mysteries else 0
    s[SHORT] = 1 if short else 0
    return s


# ----------------------------------------------------------------------------- reading the state


@njit(cache=True)
def phase(s: np.ndarray) -> int:
    """The step at the head of the queue, or ``ACTION`` when nothing waits."""
    return s[PENDING] if s[PENDING_N] > 0 else ACTION


@njit(cache=True)
def current_player(s: np.ndarray) -> int:
    """The seat that decides now (-1 once the game is over)."""
    p = phase(s)
    if p == OVER:
        return -1
    if p == RETURN or p == DROUGHT:  # noqa: SIM109  (two comparisons: what Numba compiles most simply)
        return int(s[PENDING + 1])
    return int(s[SEAT])


@njit(cache=True)
def _purse_total(s: np.ndarray, seat: int) -> int:
    total = 0
    for t in range(TOKENS):
        total += s[PURSE + seat * TOKENS + t]
    return total


# ----------------------------------------------------------------------------- legal actions


@njit(cache=True)
def _payment_code(pay: np.ndarray) -> int:
    key = 0
    for i in range(PAY_COUNTS):
        key += pay[i] * PAY_BASE[i]
    return int(PAY_ORDER[np.searchsorted(PAY_KEYS, key)])


@njit(cache=True)
def _road_payments(s: np.ndarray, seat: int, road: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` the move actions of every distinct payment of the road (ruling 8: exactly the banner),
    as ``notation.payments`` lists them; returns the new count (unsorted)."""
    colours = np.zeros(RESOURCE_COUNT, dtype=np.int64)  # the banner's count of each colour
    for i in range(s[ROAD_COST_N + road]):
        colours[s[ROAD_COST + road * MAX_COST + i]] += 1
    banner = np.empty(RESOURCE_COUNT, dtype=np.int64)  # the colours on the banner, in colour order
    k = 0
    for c in range(RESOURCE_COUNT):
        if colours[c]:
            banner[k] = c
            k += 1
    gold = s[PURSE + seat * TOKENS + GOLD]
    treasure = s[PURSE + seat * TOKENS + TREASURE]
    # Each colour: t tokens and a City tiles (t + a <= count), the rest wild; walk every combination.
    t_of = np.zeros(RESOURCE_COUNT, dtype=np.int64)
    a_of = np.zeros(RESOURCE_COUNT, dtype=np.int64)
    pay = np.zeros(PAY_COUNTS, dtype=np.int64)
    base = MOVE_BASE + road * P_COUNT
    while True:
        wild = 0
        for j in range(k):
            c = banner[j]
            wild += colours[c] - t_of[j] - a_of[j]
        if wild <= gold + treasure:
            pay[:] = 0
            for j in range(k):
                pay[banner[j]] = t_of[j]
                pay[5 + banner[j]] = a_of[j]
            for tr in range(min(treasure, wild, MAX_TREASURES) + 1):
                if wild - tr <= gold:
                    pay[10], pay[11] = wild - tr, tr
                    out[n] = base + _payment_code(pay)
                    n += 1
        j = k - 1  # the next combination (the last colour fastest)
        while j >= 0:
            c = banner[j]
            tokens = s[PURSE + seat * TOKENS + c]
            tiles = s[ACTIVE + seat * RESOURCE_COUNT + c]
            if a_of[j] < min(colours[c] - t_of[j], tiles):
                a_of[j] += 1
                break
            if t_of[j] < min(colours[c], tokens):
                t_of[j] += 1
                a_of[j] = 0
                break
            t_of[j] = 0
            a_of[j] = 0
            j -= 1
        if j < 0:
            return n


@njit(cache=True)
def legal_into(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions' indices into ``out``, ascending (as ``legal_actions()``); returns how many."""
    p = phase(s)
    seat = s[SEAT]
    n = 0
    if p == ACTION:
        if s[SPACE + seat] != s[PALACE_AT]:
            avail = 0
            for c in range(RESOURCE_COUNT):
                if s[SUPPLY + c] > 0:
                    avail += 1
            if avail >= 3:
                first, last = TAKE3_FIRST, TAKE_PAIR_FIRST - 1
            elif avail == 2:
                first, last = TAKE_PAIR_FIRST, TAKE2 - 1
            else:
                first, last = TAKE_ONE_FIRST, TAKE2 - 1
            for a in range(first, last + 1):
                ok = True
                for j in range(3):
                    c = TAKE_COLOURS[a, j]
                    if c >= 0 and s[SUPPLY + c] == 0:
                        ok = False
                if ok:
                    out[n] = a
                    n += 1
            for c in range(RESOURCE_COUNT):
                if s[SUPPLY + c] >= 2:
                    out[n] = TAKE2 + c
                    n += 1
            if s[SUPPLY + GOLD] > 0:
                out[n] = TAKE_GOLD
                n += 1
            start = n
            here = s[SPACE + seat]
            for road in range(s[ROADS_N]):
                if s[ROAD_START + road] == here:
                    n = _road_payments(s, seat, road, out, n)
            out[start:n].sort()
        if n == 0:
            out[0] = PASS_A
            n = 1
    elif p == RETURN or p == DROUGHT:  # noqa: SIM109  (as above)
        who = s[PENDING + 1]
        first = RETURN_A if p == RETURN else DISCARD_A
        for t in range(TOKENS):
            if s[PURSE + who * TOKENS + t] > 0:
                out[n] = first + t
                n += 1
    elif p == THIEF:
        for c in range(COINS):
            if s[PURSE + seat * TOKENS + c] > 0:
                for to in range(s[PLAYERS]):
                    if to != seat:
                        out[n] = GIVE_A + c * MAX_SEATS + to
                        n += 1
    elif p == CITY_STEP:
        if s[STACK_N] > 0:
            out[n] = CITY_STACK_A
            n += 1
        for i in range(s[MARKET_N]):
            if s[MARKET + i] >= 0:
                out[n] = CITY_MARKET_A + i
                n += 1
    elif p == MEDAL:
        for i in range(s[MEDALS_N]):
            out[n] = MEDAL_A + s[MEDALS_LEFT + i]
            n += 1
    return n


# ----------------------------------------------------------------------------- carrying out


@njit(cache=True)
def _set_pending(s: np.ndarray, step: int, arg: int) -> None:
    s[PENDING_N] = 1
    s[PENDING], s[PENDING + 1] = step, arg


@njit(cache=True)
def _push(s: np.ndarray, step: int, arg: int) -> None:
    n = s[PENDING_N]
    s[PENDING + 2 * n], s[PENDING + 2 * n + 1] = step, arg
    s[PENDING_N] = n + 1


@njit(cache=True)
def _pop(s: np.ndarray) -> None:
    n = s[PENDING_N]
    for i in range(2, 2 * n):
        s[PENDING + i - 2] = s[PENDING + i]
    s[PENDING_N] = n - 1


@njit(cache=True)
def _take_city_tile(s: np.ndarray, colour: int) -> None:
    seat = s[SEAT]
    if colour >= 0:
        s[ACTIVE + seat * RESOURCE_COUNT + colour] += 1
    for c in range(RESOURCE_COUNT):  # a new tile, or none (ruling 22): the used ones return
        s[ACTIVE + seat * RESOURCE_COUNT + c] += s[USED + seat * RESOURCE_COUNT + c]
        s[USED + seat * RESOURCE_COUNT + c] = 0


@njit(cache=True)
def _pop_stack(s: np.ndarray) -> int:
    n = s[STACK_N] - 1
    s[STACK_N] = n
    return int(s[STACK + n])


@njit(cache=True)
def _village(s: np.ndarray, space: int) -> None:
    """Arriving at a village: flip its tile (Mysteries) and queue what it sets off, then the extra turn."""
    seat = s[SEAT]
    s[PENDING_N] = 0
    for i in range(s[A2_N]):
        if s[A2_VILLAGES + i] != space or s[VILLAGE_TILE + i] < 0:
            continue
        tile = s[VILLAGE_TILE + i]
        s[VILLAGE_TILE + i] = -1
        f = s[FLIPS_N]
        s[FLIP_VILLAGE + f], s[FLIP_TILE + f] = i, tile
        s[FLIPS_N] = f + 1
        if tile == TORNADO:
            for m in range(s[MARKET_N]):
                if s[MARKET + m] >= 0:
                    s[BOXED + s[BOXED_N]] = s[MARKET + m]
                    s[BOXED_N] += 1
                s[MARKET + m] = -1
            s[MARKET_OPEN] = 0
        elif tile == TREASURE_TILE:
            s[PURSE + seat * TOKENS + TREASURE] += 1
            _push(s, RETURN, seat)
        elif tile == DROUGHT_TILE:
            for k in range(s[PLAYERS]):
                _push(s, DROUGHT, (seat + k) % s[PLAYERS])
        elif tile == THIEF_TILE:
            _push(s, THIEF, -1)
        else:
            s[GEM] = seat
    _push(s, EXTRA_TURN, -1)


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    s[TURNS] += 1
    players = s[PLAYERS]
    nxt = (s[SEAT] + 1) % players
    if s[GATES] and nxt == s[FIRST]:
        _set_pending(s, OVER, -1)
        gem_arrived = s[GEM] >= 0 and s[SPACE + s[GEM]] == s[PALACE_AT]
        n = 0
        for p in range(players):
            if s[SPACE + p] == s[PALACE_AT] and (not gem_arrived or p == s[GEM]):
                s[WINNERS + n] = p
                n += 1
        s[WINNERS_N] = n
        return
    if s[MAX_TURNS] >= 0 and s[TURNS] >= s[MAX_TURNS]:
        s[CAPPED] = 1
        _set_pending(s, OVER, -1)
        s[WINNERS_N] = 0
        return
    s[SEAT] = nxt


@njit(cache=True)
def _advance(s: np.ndarray) -> None:
    """Carry out the steps at the head of the queue that need no decision, until one waits for a decision."""
    while s[PENDING_N] > 0:
        step, arg = s[PENDING], s[PENDING + 1]
        if step == RETURN:
            if _purse_total(s, arg) > PURSE_LIMIT:
                return
        elif step == DROUGHT:
            if _purse_total(s, arg) > DROUGHT_LIMIT:
                return
        elif step == THIEF:
            seat = s[SEAT]
            holds = False
            for c in range(COINS):
                if s[PURSE + seat * TOKENS + c] > 0:
                    holds = True
            if holds and s[PLAYERS] > 1:
                return
        elif step == CITY_STEP:
            if s[MARKET_OPEN]:
                for i in range(s[MARKET_N]):
                    if s[MARKET + i] >= 0:
                        return
            _pop(s)
            _take_city_tile(s, _pop_stack(s) if s[STACK_N] > 0 else -1)
            continue
        elif step == MEDAL:
            if s[MEDALS_N] > 1:
                return
            _pop(s)
            if s[MEDALS_N] > 0:
                s[MEDALS_N] -= 1
                s[MEDAL_OF + s[SEAT]] = s[MEDALS_LEFT + s[MEDALS_N]]
            continue
        elif step == EXTRA_TURN:
            _pop(s)
            return
        elif step == END_TURN:
            _pop(s)
            _end_turn(s)
            return
        elif step == OVER:
            return
        _pop(s)


@njit(cache=True)
def _give_back(s: np.ndarray, seat: int, t: int) -> None:
    s[PURSE + seat * TOKENS + t] -= 1
    if t == TREASURE:
        s[BOXED_TREASURES] += 1
    else:
        s[SUPPLY + t] += 1


@njit(cache=True)
def step(s: np.ndarray, a: int) -> None:
    """Carry out the legal action ``a`` (unchecked: the caller took it from ``legal_into``)."""
    seat = s[SEAT]
    if a < TAKE_GOLD:
        for j in range(3):
            c = TAKE_COLOURS[a, j]
            if c >= 0:
                k = 2 if a >= TAKE2 else 1
                s[SUPPLY + c] -= k
                s[PURSE + seat * TOKENS + c] += k
        _set_pending(s, RETURN, seat)
        _push(s, END_TURN, -1)
    elif a == TAKE_GOLD:
        s[SUPPLY + GOLD] -= 1
        s[PURSE + seat * TOKENS + GOLD] += 1
        _set_pending(s, RETURN, seat)
        _push(s, END_TURN, -1)
    elif a < DISCARD_A:
        _give_back(s, s[PENDING + 1], a - RETURN_A)
    elif a < GIVE_A:
        _give_back(s, s[PENDING + 1], a - DISCARD_A)
    elif a < CITY_STACK_A:
        c, to = (a - GIVE_A) // MAX_SEATS, (a - GIVE_A) % MAX_SEATS
        s[PURSE + seat * TOKENS + c] -= 1
        s[PURSE + to * TOKENS + c] += 1
        s[PENDING], s[PENDING + 1] = RETURN, to
    elif a == CITY_STACK_A:
        _pop(s)
        _take_city_tile(s, _pop_stack(s))
    elif a < MEDAL_A:
        _pop(s)
        i = a - CITY_MARKET_A
        colour = s[MARKET + i]
        s[MARKET + i] = _pop_stack(s) if s[STACK_N] > 0 else -1
        _take_city_tile(s, colour)
    elif a < PASS_A:
        _pop(s)
        m = a - MEDAL_A
        n = s[MEDALS_N]
        k = 0
        for i in range(n):
            if s[MEDALS_LEFT + i] != m:
                s[MEDALS_LEFT + k] = s[MEDALS_LEFT + i]
                k += 1
        s[MEDALS_N] = k
        s[MEDAL_OF + seat] = m
    elif a == PASS_A:
        _set_pending(s, END_TURN, -1)
    else:
        road, code = (a - MOVE_BASE) // P_COUNT, (a - MOVE_BASE) % P_COUNT
        for c in range(RESOURCE_COUNT):
            s[PURSE + seat * TOKENS + c] -= PAY[code, c]
            s[SUPPLY + c] += PAY[code, c]
            s[ACTIVE + seat * RESOURCE_COUNT + c] -= PAY[code, 5 + c]
            s[USED + seat * RESOURCE_COUNT + c] += PAY[code, 5 + c]
        s[PURSE + seat * TOKENS + GOLD] -= PAY[code, 10]
        s[SUPPLY + GOLD] += PAY[code, 10]
        s[PURSE + seat * TOKENS + TREASURE] -= PAY[code, 11]
        s[BOXED_TREASURES] += PAY[code, 11]
        end = s[ROAD_END + road]
        s[SPACE + seat] = end
        kind = s[SPACE_KIND + end]
        if kind == CITY:
            _set_pending(s, CITY_STEP, -1)
            _push(s, END_TURN, -1)
        elif kind == PALACE:
            s[GATES] = 1
            _set_pending(s, MEDAL, -1)
            _push(s, END_TURN, -1)
        else:
            _village(s, end)
    _advance(s)
