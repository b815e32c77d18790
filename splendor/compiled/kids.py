"""Splendor Kids in compiled code (Numba), as ``splendor.games.kids`` states it, over one flat integer array.

The reference engine is the statement of the rules; this is the same rules written for speed, proven equal to it
by ``tests/test_compiled.py``. The board is part of the state (its roads, their banners, the kinds of its spaces,
the villages of section A2), so a game is still one array and a copy one array copy. Kids' action index is large
(about 439,000: every road times every payment), so the kernel lists the legal actions as sorted indices
(``legal_into``) rather than as a mask; the face builds a mask from them when asked.

The steps an action sets off are a small queue, as in the reference (``pending``): each waits for one seat's
decision (returning tokens over the purse's 8, a Drought's discards, the Thief's gift, a City tile, a Medal) or
happens by itself (an extra turn, the end of the turn).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from numba import njit

from splendor.compiled.rng import below, shuffle
from splendor.games.kids.board import SECTIONS, SHIPPED_SIDES, SIDES, Board, assemble
from splendor.games.kids.game import CITY_TILES_PER_COLOUR, DROUGHT_LIMIT, PURSE_LIMIT, VILLAGE_TILES, KidsGame
from splendor.games.kids.notation import (
    FIXED_INDEX,
    GOLD,
    MARKET_SLOTS,
    MAX_ROADS,
    MEDALS,
    MOVE_BASE,
    P_COUNT,
    PAYMENTS,
    RESOURCE_COUNT,
    TREASURE,
)

MAX_SEATS, TOKENS, MAX_SPACES, MAX_COST = 4, 7, 128, 5
STACK_ROOM = RESOURCE_COUNT * CITY_TILES_PER_COLOUR
VILLAGE_ROOM = len(VILLAGE_TILES)  # the A2 villages that can hold a tile, the tiles set aside
PENDING_ROOM = 12
MAX_LEGAL = 4096  # room for the legal actions of any position (a few hundred at most)
PER_COLOUR = np.array([0, 0, 3, 5, 7], dtype=np.int64)  # KidsGame.tokens_per_colour by players
GOLD_COINS = KidsGame.gold_coins
EFFECTS = ("tornado", "treasure", "drought", "thief", "queens_gem")
TORNADO, TREASURE_TILE, DROUGHT_TILE, THIEF_TILE, QUEENS_GEM = range(5)
VILLAGE_TILE_IDS = np.array([EFFECTS.index(t) for t in VILLAGE_TILES], dtype=np.int64)
KIND_NAMES = ("port", "city", "village", "palace")
PORT, CITY, VILLAGE, PALACE = range(4)

# Steps of the queue, as the reference names them; an argument (a seat) or -1.
STEP_NAMES = ("return", "drought", "thief", "city", "medal", "extra_turn", "end_turn", "over")
RETURN, DROUGHT, THIEF, CITY_STEP, MEDAL, EXTRA_TURN, END_TURN, OVER = range(8)
ACTION = -1  # the phase when nothing waits: a main action

# Fixed action indices (notation.FIXED).
TAKE3_FIRST = FIXED_INDEX[("take", (0, 1, 2))]
TAKE_PAIR_FIRST = FIXED_INDEX[("take", (0, 1))]
TAKE_ONE_FIRST = FIXED_INDEX[("take", (0,))]
TAKE2 = FIXED_INDEX[("take2", (0,))]
TAKE_GOLD = FIXED_INDEX[("take_gold", ())]
RETURN_A = FIXED_INDEX[("return", (0,))]
DISCARD_A = FIXED_INDEX[("discard", (0,))]
GIVE_A = FIXED_INDEX[("give", (0, 0))]  # + colour * 4 + seat
CITY_STACK_A = FIXED_INDEX[("city_stack", ())]
CITY_MARKET_A = FIXED_INDEX[("city_market", (0,))]
MEDAL_A = FIXED_INDEX[("medal", (0,))]
PASS_A = FIXED_INDEX[("pass", ())]
assert FIXED_INDEX[("give", (1, 0))] == GIVE_A + MAX_SEATS and FIXED_INDEX[("give", (0, 1))] == GIVE_A + 1
TAKE_COLOURS = np.full((TAKE_GOLD, 3), -1, dtype=np.int64)  # the colours of each take (two of one: one colour)
for (_kind, _args), _i in FIXED_INDEX.items():
    if _kind in ("take", "take2"):
        TAKE_COLOURS[_i, : len(_args)] = _args

# The payments (notation.PAYMENTS): each code's 12 counts, and a sorted key table to find a code from counts.
PAY = np.array(PAYMENTS, dtype=np.int64)
_BASE = 6 ** np.arange(12, dtype=np.int64)
_KEYS = PAY @ _BASE
PAY_ORDER = np.argsort(_KEYS)
PAY_KEYS = _KEYS[PAY_ORDER]
PAY_BASE = _BASE

# ----------------------------------------------------------------------------- the state's layout

ROADS_N = 0
ROAD_START = ROADS_N + 1  # road number - 1
ROAD_END = ROAD_START + MAX_ROADS
ROAD_COST_N = ROAD_END + MAX_ROADS
ROAD_COST = ROAD_COST_N + MAX_ROADS  # road * 5 + i: colours, sorted
SPACES_N = ROAD_COST + MAX_ROADS * MAX_COST
SPACE_KIND = SPACES_N + 1
PORT_AT = SPACE_KIND + MAX_SPACES
PALACE_AT = PORT_AT + 1
A2_N = PALACE_AT + 1
A2_VILLAGES = A2_N + 1  # the spaces of the A2 villages, in the board's order
SIDE_AT = A2_VILLAGES + VILLAGE_ROOM  # each section's shipped side (index in SHIPPED_SIDES) or -1
SECTIONS_N = SIDE_AT + 3
BOARD_END = SECTIONS_N + 1

SEAT, TURNS, FIRST, GATES, CAPPED, GEM, MARKET_OPEN, BOXED_TREASURES, PLAYERS, MAX_TURNS, MYSTERIES, SHORT = range(
    BOARD_END, BOARD_END + 12
)
SUPPLY = SHORT + 1
PURSE = SUPPLY + 6  # seat * 7 + token (5 resources, gold, the Treasure)
ACTIVE = PURSE + MAX_SEATS * TOKENS  # seat * 5 + colour
USED = ACTIVE + MAX_SEATS * RESOURCE_COUNT
SPACE = USED + MAX_SEATS * RESOURCE_COUNT  # seat
STACK_N = SPACE + MAX_SEATS
STACK = STACK_N + 1  # the top is the last
MARKET_N = STACK + STACK_ROOM
MARKET = MARKET_N + 1
ASIDE_N = MARKET + MARKET_SLOTS
ASIDE = ASIDE_N + 1
BOXED_N = ASIDE + VILLAGE_ROOM
BOXED = BOXED_N + 1
MEDALS_N = BOXED + STACK_ROOM
MEDALS_LEFT = MEDALS_N + 1
MEDAL_OF = MEDALS_LEFT + MEDALS  # seat: its medal or -1
PENDING_N = MEDAL_OF + MAX_SEATS
PENDING = PENDING_N + 1  # i * 2: the step, its seat (or -1)
WINNERS_N = PENDING + PENDING_ROOM * 2
WINNERS = WINNERS_N + 1
VILLAGE_TILE = WINNERS + MAX_SEATS  # A2 village i: its face-down tile, or -1
FLIPS_N = VILLAGE_TILE + VILLAGE_ROOM
FLIP_VILLAGE = FLIPS_N + 1  # in the order flipped: the village (A2 index) and its tile
FLIP_TILE = FLIP_VILLAGE + VILLAGE_ROOM
STATE_SIZE = FLIP_TILE + VILLAGE_ROOM

# ----------------------------------------------------------------------------- the board


class BoardTables:
    """A board as the compiled state holds it, and the names to turn it back into the reference's words."""

    def __init__(self, board: Board, side_refs: list[Any]) -> None:
        ids = list(board.spaces)
        if len(ids) > MAX_SPACES:
            raise ValueError(f"the compiled engine holds boards of at most {MAX_SPACES} spaces, not {len(ids)}")
        villages = board.villages("A2")
        if len(villages) > VILLAGE_ROOM:
            raise ValueError(f"section A2 has {len(villages)} villages; there are only {VILLAGE_ROOM} village tiles")
        self.space_ids = ids
        self.village_ids = villages
        self.side_refs = side_refs
        block = np.zeros(BOARD_END, dtype=np.int64)
        block[ROADS_N] = len(board.roads)
        for r in board.roads:
            i = r.number - 1
            block[ROAD_START + i], block[ROAD_END + i] = ids.index(r.start), ids.index(r.end)
            block[ROAD_COST_N + i] = len(r.cost)
            block[ROAD_COST + i * MAX_COST : ROAD_COST + i * MAX_COST + len(r.cost)] = r.cost
        block[SPACES_N] = len(ids)
        for k, sid in enumerate(ids):
            block[SPACE_KIND + k] = KIND_NAMES.index(board.spaces[sid].kind)
        block[PORT_AT], block[PALACE_AT] = ids.index(board.port), ids.index(board.palace)
        block[A2_N] = len(villages)
        for k, v in enumerate(villages):
            block[A2_VILLAGES + k] = ids.index(v)
        block[SIDE_AT : SIDE_AT + 3] = -1
        for k, ref in enumerate(side_refs):
            block[SIDE_AT + k] = SHIPPED_SIDES.index(ref) if isinstance(ref, str) else -1
        block[SECTIONS_N] = len(side_refs)
        self.block = block


_TABLES: dict[str, BoardTables] = {}


def board_tables(refs: list[Any]) -> BoardTables:
    """The tables of the board of these sides (shipped names or transcribed sides' data), made once per board."""
    key = json.dumps(refs, sort_keys=True)
    if key not in _TABLES:
        _TABLES[key] = BoardTables(assemble(list(refs)), list(refs))
    return _TABLES[key]


def shipped_blocks(short: bool) -> np.ndarray:
    """Every board of shipped sides for the full (8) or short (4) game, row ``k`` the one whose sections take
    the sides of the bits of ``k`` (section i: bit i, 0 front, 1 back), as the reference draws them."""
    sections = ("A1", "A3") if short else SECTIONS
    rows = []
    for k in range(1 << len(sections)):
        refs = tuple(f"{s}-{SIDES[(k >> i) & 1]}" for i, s in enumerate(sections))
        rows.append(board_tables(list(refs)).block)
    return np.array(rows)


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
    if p == RETURN or p == DROUGHT:
        return s[PENDING + 1]
    return s[SEAT]


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
    for i in range(12):
        key += pay[i] * PAY_BASE[i]
    return PAY_ORDER[np.searchsorted(PAY_KEYS, key)]


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
    pay = np.zeros(12, dtype=np.int64)
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
            for tr in range(min(treasure, wild, 2) + 1):
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
    elif p == RETURN or p == DROUGHT:
        who = s[PENDING + 1]
        first = RETURN_A if p == RETURN else DISCARD_A
        for t in range(TOKENS):
            if s[PURSE + who * TOKENS + t] > 0:
                out[n] = first + t
                n += 1
    elif p == THIEF:
        for c in range(6):
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
    return s[STACK + n]


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
            for c in range(6):
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


# ----------------------------------------------------------------------------- playouts and batches


@njit(cache=True)
def choose(s: np.ndarray, legal: np.ndarray, count: int, rng: np.ndarray, move_first: bool) -> int:
    """A legal action: uniformly at random, or (``move_first``) uniformly among the moves when there are any."""
    if move_first:
        moves = 0
        for i in range(count):
            if legal[i] >= MOVE_BASE:
                moves += 1
        if moves > 0:
            return legal[count - moves + below(rng, moves)]  # the moves come last, being the largest
    return legal[below(rng, count)]


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
    for i in range(states.shape[0]):
        states[i, :] = setup(players, seeds[i], 0, max_turns, mysteries, short, blocks, draw_sides)


@njit(cache=True)
def batch_masks(states: np.ndarray, masks: np.ndarray) -> None:
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    for i in range(states.shape[0]):
        masks[i, :] = False
        if phase(states[i]) != OVER:
            for k in range(legal_into(states[i], legal)):
                masks[i, legal[k]] = True


@njit(cache=True)
def batch_step(states: np.ndarray, actions: np.ndarray) -> None:
    for i in range(states.shape[0]):
        if actions[i] >= 0:
            step(states[i], actions[i])


# ----------------------------------------------------------------------------- to and from the reference


def _step_names(s: np.ndarray) -> list[list[Any]]:
    out: list[list[Any]] = []
    for i in range(int(s[PENDING_N])):
        step_, arg = int(s[PENDING + 2 * i]), int(s[PENDING + 2 * i + 1])
        out.append([STEP_NAMES[step_], arg] if step_ in (RETURN, DROUGHT) else [STEP_NAMES[step_]])
    return out


def from_state(players: int, options: dict[str, Any], state: dict[str, Any], tables: BoardTables) -> np.ndarray:
    """The array of a reference game's ``_state()`` on the board of ``tables``."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[:BOARD_END] = tables.block
    ids, villages = tables.space_ids, tables.village_ids
    s[SEAT], s[TURNS], s[FIRST] = state["seat"], state["turns"], state["first"]
    s[GATES], s[CAPPED] = state["gates_closed"], state["capped"]
    s[GEM] = -1 if state["gem"] is None else state["gem"]
    s[MARKET_OPEN], s[BOXED_TREASURES] = state["market_open"], state["boxed_treasures"]
    s[PLAYERS] = players
    s[MAX_TURNS] = -1 if options["max_turns"] is None else options["max_turns"]
    s[MYSTERIES], s[SHORT] = options["mysteries"], options["short"]
    s[SUPPLY : SUPPLY + 6] = state["supply"]
    for p in range(players):
        s[PURSE + p * TOKENS : PURSE + (p + 1) * TOKENS] = state["purse"][p]
        s[ACTIVE + p * RESOURCE_COUNT : ACTIVE + (p + 1) * RESOURCE_COUNT] = state["active"][p]
        s[USED + p * RESOURCE_COUNT : USED + (p + 1) * RESOURCE_COUNT] = state["used"][p]
        s[SPACE + p] = ids.index(state["space"][p])
        s[MEDAL_OF + p] = -1 if state["medal"][p] is None else state["medal"][p]
    for at, n_at, values in (
        (STACK, STACK_N, state["stack"]),
        (MARKET, MARKET_N, state["market"]),
        (ASIDE, ASIDE_N, [EFFECTS.index(t) for t in state["aside"]]),
        (BOXED, BOXED_N, state["boxed_tiles"]),
        (MEDALS_LEFT, MEDALS_N, state["medals_left"]),
        (WINNERS, WINNERS_N, state["winners"]),
    ):
        s[n_at] = len(values)
        s[at : at + len(values)] = values
    s[PENDING_N] = len(state["pending"])
    for i, entry in enumerate(state["pending"]):
        s[PENDING + 2 * i] = STEP_NAMES.index(entry[0])
        s[PENDING + 2 * i + 1] = entry[1] if len(entry) > 1 else -1
    for i, v in enumerate(villages):
        s[VILLAGE_TILE + i] = EFFECTS.index(state["village_tiles"][v]) if v in state["village_tiles"] else -1
    s[FLIPS_N] = len(state["flipped"])
    for i, (v, tile) in enumerate(state["flipped"].items()):
        s[FLIP_VILLAGE + i], s[FLIP_TILE + i] = villages.index(v), EFFECTS.index(tile)
    return s


def _ints(s: np.ndarray, at: int, n: int) -> list[int]:
    return [int(x) for x in s[at : at + n]]


def to_state(s: np.ndarray, tables: BoardTables) -> dict[str, Any]:
    """The reference game's ``_state()`` of an array on the board of ``tables``."""
    players = int(s[PLAYERS])
    ids, villages = tables.space_ids, tables.village_ids
    winners = _ints(s, WINNERS, int(s[WINNERS_N]))
    return {
        "seat": int(s[SEAT]),
        "turns": int(s[TURNS]),
        "first": int(s[FIRST]),
        "gates_closed": bool(s[GATES]),
        "capped": bool(s[CAPPED]),
        "gem": None if s[GEM] < 0 else int(s[GEM]),
        "market_open": bool(s[MARKET_OPEN]),
        "boxed_treasures": int(s[BOXED_TREASURES]),
        "supply": _ints(s, SUPPLY, 6),
        "purse": [_ints(s, PURSE + p * TOKENS, TOKENS) for p in range(players)],
        "active": [_ints(s, ACTIVE + p * RESOURCE_COUNT, RESOURCE_COUNT) for p in range(players)],
        "used": [_ints(s, USED + p * RESOURCE_COUNT, RESOURCE_COUNT) for p in range(players)],
        "space": [ids[int(s[SPACE + p])] for p in range(players)],
        "stack": _ints(s, STACK, int(s[STACK_N])),
        "market": _ints(s, MARKET, int(s[MARKET_N])),
        "aside": [EFFECTS[t] for t in _ints(s, ASIDE, int(s[ASIDE_N]))],
        "boxed_tiles": _ints(s, BOXED, int(s[BOXED_N])),
        "medals_left": _ints(s, MEDALS_LEFT, int(s[MEDALS_N])),
        "medal": [None if s[MEDAL_OF + p] < 0 else int(s[MEDAL_OF + p]) for p in range(players)],
        "pending": _step_names(s),
        "winners": winners,
        "side_refs": list(tables.side_refs),
        "village_tiles": {
            v: EFFECTS[int(s[VILLAGE_TILE + i])] for i, v in enumerate(villages) if s[VILLAGE_TILE + i] >= 0
        },
        "flipped": {villages[int(s[FLIP_VILLAGE + i])]: EFFECTS[int(s[FLIP_TILE + i])] for i in range(int(s[FLIPS_N]))},
    }
