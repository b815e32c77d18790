"""Classic Splendor in compiled code (Numba): the rules of ``splendor.games.classic`` over one flat integer array.

The reference engine (``games/classic``, ``games/market.py``) is the statement of the rules; this is the same rules
written for speed, and proven equal to it by ``tests/test_compiled.py``: the same action indices, the same legal
actions, the same deals from the same seed, the same state after every action. A game's whole state is one
``int64`` array (its layout below), so a copy is one array copy; playouts run many games without returning to
Python between decisions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from splendor.compiled.rng import below, new_rng, shuffle
from splendor.games.classic.cards import CARDS, NOBLES
from splendor.games.classic.notation import ACTIONS

# ----------------------------------------------------------------------------- the card and action tables

COLOURS = 6                       # white, blue, green, red, black; gold (wild) last
GOLD = 5
CARD_COUNT = len(CARDS)
NOBLE_COUNT = len(NOBLES)
ACTION_COUNT = len(ACTIONS)
TOKEN_LIMIT, RESERVE_LIMIT, WIN_POINTS = 10, 3, 15

CARD_ROW = np.array([c.row for c in CARDS], dtype=np.int64)
CARD_POINTS = np.array([c.points for c in CARDS], dtype=np.int64)
CARD_BONUS = np.array([c.bonus for c in CARDS], dtype=np.int64)
CARD_COST = np.array([c.cost[:5] for c in CARDS], dtype=np.int64)
NOBLE_POINTS = np.array([n.points for n in NOBLES], dtype=np.int64)
NOBLE_REQUIRES = np.array([n.requires for n in NOBLES], dtype=np.int64)

# Action indices, read from the reference table so that the two can never disagree.
TAKE_COLOURS = np.full((ACTION_COUNT, 3), -1, dtype=np.int64)    # the colours of each take action
for _a in ACTIONS:
    if _a.kind == "take":
        TAKE_COLOURS[_a.index, : len(_a.args)] = _a.args
TAKE3_FIRST = ACTIONS.get("take", 0, 1, 2).index                   # 0-9: three colours
TAKE_SMALL_FIRST, TAKE_SMALL_LAST = ACTIONS.get("take", 0, 1).index, ACTIONS.get("take", 4).index  # 10-24
TAKE2 = ACTIONS.get("take2", 0).index                              # 25 + colour
RESERVE = ACTIONS.get("reserve", 0, 0).index                       # 30 + tier * 5 + slot; + 4: the deck
BUY = ACTIONS.get("buy", 0, 0).index                               # 45 + tier * 4 + slot
BUY_RESERVED = ACTIONS.get("buy_reserved", 0).index                # 57 + i
RETURN = ACTIONS.get("return", 0).index                            # 60 + colour
NOBLE = ACTIONS.get("noble", 0).index                              # 66 + noble
PASS = ACTIONS.get("pass").index                                   # 76
assert ACTIONS.get("reserve_deck", 1).index == RESERVE + 9 and ACTIONS.get("buy", 2, 3).index == BUY + 11
assert PASS == ACTION_COUNT - 1 and NOBLE + NOBLE_COUNT == PASS

# Decision phases, as in ``games/market.py`` and ``games/classic/game.py``.
MAIN, RETURN_PHASE, OVER, NOBLE_PHASE = 0, 1, 2, 3

# ----------------------------------------------------------------------------- the state's layout

MAX_SEATS, DECK_ROOM, BOUGHT_ROOM = 4, 40, CARD_COUNT
SUPPLY = 0                                   # 6
TOKENS = SUPPLY + COLOURS                    # seat * 6 + colour
BONUS = TOKENS + MAX_SEATS * COLOURS         # seat * 5 + colour
POINTS = BONUS + MAX_SEATS * 5               # seat
BOUGHT_N = POINTS + MAX_SEATS                # seat
BOUGHT = BOUGHT_N + MAX_SEATS                # seat * 90 + i: card ids in the order bought
RESERVED_N = BOUGHT + MAX_SEATS * BOUGHT_ROOM
RESERVED = RESERVED_N + MAX_SEATS            # seat * 3 + i
SECRET = RESERVED + MAX_SEATS * RESERVE_LIMIT  # 1 where the reserved card came from a deck (hidden)
ROWS = SECRET + MAX_SEATS * RESERVE_LIMIT    # tier * 4 + slot: a card id, or -1
DECK_N = ROWS + 12                           # tier
DECKS = DECK_N + 3                           # tier * 40 + i: the top of a deck is its last card
NOBLES_N = DECKS + 3 * DECK_ROOM
NOBLES_AT = NOBLES_N + 1                     # the display, in order
SEAT_NOBLES_N = NOBLES_AT + 5
SEAT_NOBLES = SEAT_NOBLES_N + MAX_SEATS      # seat * 5 + i
WINNERS_N = SEAT_NOBLES + MAX_SEATS * 5
WINNERS = WINNERS_N + 1
SEAT = WINNERS + MAX_SEATS
PHASE, TURNS, FINAL, FIRST, PASSES, CAPPED, STALLED, PLAYERS, MAX_TURNS = range(SEAT + 1, SEAT + 10)
SIZE = MAX_TURNS + 1

# ----------------------------------------------------------------------------- setting up


@njit(cache=True)
def setup(players: int, seed: int, first_player: int, max_turns: int) -> np.ndarray:
    """A new game dealt from ``seed`` exactly as the reference deals it; ``first_player`` -1 means random,
    ``max_turns`` -1 none."""
    s = np.zeros(SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    per = 4 if players == 2 else (5 if players == 3 else 7)
    for c in range(5):
        s[SUPPLY + c] = per
    s[SUPPLY + GOLD] = 5
    deck = np.empty(DECK_ROOM, dtype=np.int64)
    for r in range(3):
        n = 0
        for cid in range(CARD_COUNT):
            if CARD_ROW[cid] == r:
                deck[n] = cid
                n += 1
        shuffle(rng, deck, n)
        for slot in range(4):
            if n > 0:
                n -= 1
                s[ROWS + r * 4 + slot] = deck[n]
            else:
                s[ROWS + r * 4 + slot] = -1
        s[DECK_N + r] = n
        for i in range(n):
            s[DECKS + r * DECK_ROOM + i] = deck[i]
    s[FIRST] = below(rng, players) if first_player < 0 else first_player
    ids = np.arange(NOBLE_COUNT, dtype=np.int64)
    shuffle(rng, ids, NOBLE_COUNT)
    s[NOBLES_N] = players + 1
    for i in range(players + 1):
        s[NOBLES_AT + i] = ids[i]
    s[SEAT] = s[FIRST]
    s[PHASE] = MAIN
    s[PLAYERS] = players
    s[MAX_TURNS] = max_turns
    return s


# ----------------------------------------------------------------------------- legal actions


@njit(cache=True)
def _affordable(s: np.ndarray, seat: int, cid: int) -> bool:
    need = 0
    for c in range(5):
        d = CARD_COST[cid, c] - s[BONUS + seat * 5 + c] - s[TOKENS + seat * COLOURS + c]
        if d > 0:
            need += d
    return need <= s[TOKENS + seat * COLOURS + GOLD]


@njit(cache=True)
def _eligible(s: np.ndarray, seat: int, noble: int) -> bool:
    for c in range(5):
        if s[BONUS + seat * 5 + c] < NOBLE_REQUIRES[noble, c]:
            return False
    return True


@njit(cache=True)
def legal_mask_into(s: np.ndarray, mask: np.ndarray) -> int:
    """Set ``mask`` (a bool array over the 77 actions) to the legal actions; returns how many there are."""
    mask[:] = False
    phase = s[PHASE]
    seat = s[SEAT]
    count = 0
    if phase == MAIN:
        avail = 0
        for c in range(5):
            if s[SUPPLY + c] > 0:
                avail += 1
        first, last = (TAKE3_FIRST, TAKE_SMALL_FIRST - 1) if avail >= 3 else (TAKE_SMALL_FIRST, TAKE_SMALL_LAST)
        for a in range(first, last + 1):
            ok = True
            for k in range(3):
                c = TAKE_COLOURS[a, k]
                if c >= 0 and s[SUPPLY + c] == 0:
                    ok = False
            if ok:
                mask[a] = True
                count += 1
        for c in range(5):
            if s[SUPPLY + c] >= 4:
                mask[TAKE2 + c] = True
                count += 1
        if s[RESERVED_N + seat] < RESERVE_LIMIT:
            for r in range(3):
                for slot in range(4):
                    if s[ROWS + r * 4 + slot] >= 0:
                        mask[RESERVE + r * 5 + slot] = True
                        count += 1
                if s[DECK_N + r] > 0:
                    mask[RESERVE + r * 5 + 4] = True
                    count += 1
        for r in range(3):
            for slot in range(4):
                cid = s[ROWS + r * 4 + slot]
                if cid >= 0 and _affordable(s, seat, cid):
                    mask[BUY + r * 4 + slot] = True
                    count += 1
        for i in range(s[RESERVED_N + seat]):
            if _affordable(s, seat, s[RESERVED + seat * RESERVE_LIMIT + i]):
                mask[BUY_RESERVED + i] = True
                count += 1
        if count == 0:
            mask[PASS] = True
            count = 1
    elif phase == RETURN_PHASE:
        for c in range(COLOURS):
            if s[TOKENS + seat * COLOURS + c] > 0:
                mask[RETURN + c] = True
                count += 1
    elif phase == NOBLE_PHASE:
        for i in range(s[NOBLES_N]):
            n = s[NOBLES_AT + i]
            if _eligible(s, seat, n):
                mask[NOBLE + n] = True
                count += 1
    return count


# ----------------------------------------------------------------------------- carrying out


@njit(cache=True)
def _held(s: np.ndarray, seat: int) -> int:
    total = 0
    for c in range(COLOURS):
        total += s[TOKENS + seat * COLOURS + c]
    return total


@njit(cache=True)
def _take_from_row(s: np.ndarray, r: int, slot: int) -> int:
    cid = s[ROWS + r * 4 + slot]
    n = s[DECK_N + r]
    if n > 0:
        s[ROWS + r * 4 + slot] = s[DECKS + r * DECK_ROOM + n - 1]
        s[DECK_N + r] = n - 1
    else:
        s[ROWS + r * 4 + slot] = -1
    return cid


@njit(cache=True)
def _reserve(s: np.ndarray, seat: int, cid: int, secret: int) -> None:
    i = s[RESERVED_N + seat]
    s[RESERVED + seat * RESERVE_LIMIT + i] = cid
    s[SECRET + seat * RESERVE_LIMIT + i] = secret
    s[RESERVED_N + seat] = i + 1
    if s[SUPPLY + GOLD] > 0:
        s[SUPPLY + GOLD] -= 1
        s[TOKENS + seat * COLOURS + GOLD] += 1


@njit(cache=True)
def _pay_for(s: np.ndarray, seat: int, cid: int) -> None:
    gold_needed = 0
    for c in range(5):
        due = CARD_COST[cid, c] - s[BONUS + seat * 5 + c]
        if due > 0:
            held = s[TOKENS + seat * COLOURS + c]
            paid = due if held >= due else held
            gold_needed += due - paid
            s[TOKENS + seat * COLOURS + c] -= paid
            s[SUPPLY + c] += paid
    s[TOKENS + seat * COLOURS + GOLD] -= gold_needed
    s[SUPPLY + GOLD] += gold_needed
    n = s[BOUGHT_N + seat]
    s[BOUGHT + seat * BOUGHT_ROOM + n] = cid
    s[BOUGHT_N + seat] = n + 1
    s[BONUS + seat * 5 + CARD_BONUS[cid]] += 1
    s[POINTS + seat] += CARD_POINTS[cid]


@njit(cache=True)
def _visit(s: np.ndarray, seat: int, noble: int) -> None:
    n = s[NOBLES_N]
    j = 0
    for i in range(n):
        if s[NOBLES_AT + i] != noble:
            s[NOBLES_AT + j] = s[NOBLES_AT + i]
            j += 1
    s[NOBLES_N] = n - 1
    k = s[SEAT_NOBLES_N + seat]
    s[SEAT_NOBLES + seat * 5 + k] = noble
    s[SEAT_NOBLES_N + seat] = k + 1
    s[POINTS + seat] += NOBLE_POINTS[noble]


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    seat = s[SEAT]
    players = s[PLAYERS]
    if s[POINTS + seat] >= WIN_POINTS:
        s[FINAL] = 1
    s[TURNS] += 1
    nxt = (seat + 1) % players
    if s[FINAL] == 1 and nxt == s[FIRST]:
        s[PHASE] = OVER
        best_points, best_cards = -1, 0
        for p in range(players):                       # most points, then fewest cards; ties shared
            if s[POINTS + p] > best_points or (s[POINTS + p] == best_points and s[BOUGHT_N + p] < best_cards):
                best_points, best_cards = s[POINTS + p], s[BOUGHT_N + p]
        w = 0
        for p in range(players):
            if s[POINTS + p] == best_points and s[BOUGHT_N + p] == best_cards:
                s[WINNERS + w] = p
                w += 1
        s[WINNERS_N] = w
        return
    if s[PASSES] >= players:                           # ruling 4: stalled, no winner
        s[STALLED] = 1
        s[PHASE] = OVER
        s[WINNERS_N] = 0
        return
    if s[MAX_TURNS] >= 0 and s[TURNS] >= s[MAX_TURNS]:
        s[CAPPED] = 1
        s[PHASE] = OVER
        s[WINNERS_N] = 0
        return
    s[SEAT] = nxt
    s[PHASE] = MAIN


@njit(cache=True)
def _after_returns(s: np.ndarray) -> None:
    seat = s[SEAT]
    eligible, found = 0, -1
    for i in range(s[NOBLES_N]):
        n = s[NOBLES_AT + i]
        if _eligible(s, seat, n):
            eligible += 1
            if found < 0:
                found = n
    if eligible > 1:
        s[PHASE] = NOBLE_PHASE
        return
    if eligible == 1:
        _visit(s, seat, found)
    _end_turn(s)


@njit(cache=True)
def _after_main(s: np.ndarray) -> None:
    s[PASSES] = 0
    if _held(s, s[SEAT]) > TOKEN_LIMIT:
        s[PHASE] = RETURN_PHASE
    else:
        _after_returns(s)


@njit(cache=True)
def step(s: np.ndarray, a: int) -> None:
    """Carry out the legal action ``a`` (unchecked: the caller took it from the mask)."""
    seat = s[SEAT]
    if a < TAKE2:
        for k in range(3):
            c = TAKE_COLOURS[a, k]
            if c >= 0:
                s[SUPPLY + c] -= 1
                s[TOKENS + seat * COLOURS + c] += 1
        _after_main(s)
    elif a < RESERVE:
        c = a - TAKE2
        s[SUPPLY + c] -= 2
        s[TOKENS + seat * COLOURS + c] += 2
        _after_main(s)
    elif a < BUY:
        r, slot = (a - RESERVE) // 5, (a - RESERVE) % 5
        if slot == 4:
            n = s[DECK_N + r] - 1
            s[DECK_N + r] = n
            _reserve(s, seat, s[DECKS + r * DECK_ROOM + n], 1)
        else:
            _reserve(s, seat, _take_from_row(s, r, slot), 0)
        _after_main(s)
    elif a < BUY_RESERVED:
        _pay_for(s, seat, _take_from_row(s, (a - BUY) // 4, (a - BUY) % 4))
        _after_main(s)
    elif a < RETURN:
        i = a - BUY_RESERVED
        base = seat * RESERVE_LIMIT
        cid = s[RESERVED + base + i]
        n = s[RESERVED_N + seat]
        for j in range(i, n - 1):
            s[RESERVED + base + j] = s[RESERVED + base + j + 1]
            s[SECRET + base + j] = s[SECRET + base + j + 1]
        s[RESERVED + base + n - 1] = 0
        s[SECRET + base + n - 1] = 0
        s[RESERVED_N + seat] = n - 1
        _pay_for(s, seat, cid)
        _after_main(s)
    elif a < NOBLE:
        c = a - RETURN
        s[TOKENS + seat * COLOURS + c] -= 1
        s[SUPPLY + c] += 1
        if _held(s, seat) <= TOKEN_LIMIT:
            _after_returns(s)
    elif a < PASS:
        _visit(s, seat, a - NOBLE)
        _end_turn(s)
    else:
        s[PASSES] += 1
        _after_returns(s)


# ----------------------------------------------------------------------------- playouts


@njit(cache=True)
def choose(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray, buy_first: bool) -> int:
    """A legal action: uniformly at random, or (``buy_first``) uniformly among the buys when there are any."""
    if buy_first and s[PHASE] == MAIN:
        buys = 0
        for a in range(BUY, RETURN):
            if mask[a]:
                buys += 1
        if buys > 0:
            k = below(rng, buys)
            for a in range(BUY, RETURN):
                if mask[a]:
                    if k == 0:
                        return a
                    k -= 1
    k = below(rng, count)
    for a in range(ACTION_COUNT):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def playouts(players: int, games: int, seed: int, buy_first: bool, max_turns: int) -> int:
    """Play ``games`` whole games from seeds ``seed``, ``seed + 1``, …; returns the decisions played."""
    mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    decisions = 0
    for g in range(games):
        s = setup(players, seed + g, 0, max_turns)
        while s[PHASE] != OVER:
            count = legal_mask_into(s, mask)
            step(s, choose(s, mask, count, rng, buy_first))
            decisions += 1
    return decisions


@njit(cache=True)
def playout_from(s: np.ndarray, rng: np.ndarray, buy_first: bool, limit: int) -> int:
    """Play on from state ``s`` (in place) until the game ends or ``limit`` decisions; returns the decisions."""
    mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
    n = 0
    while s[PHASE] != OVER and n < limit:
        count = legal_mask_into(s, mask)
        step(s, choose(s, mask, count, rng, buy_first))
        n += 1
    return n


# ----------------------------------------------------------------------------- many games at once


@njit(cache=True)
def batch_reset(states: np.ndarray, players: int, seeds: np.ndarray, first_player: int, max_turns: int) -> None:
    """Deal game ``i`` of ``states`` (one row a game) anew from ``seeds[i]``."""
    for i in range(states.shape[0]):
        states[i, :] = setup(players, seeds[i], first_player, max_turns)


@njit(cache=True)
def batch_masks(states: np.ndarray, masks: np.ndarray) -> None:
    """Set ``masks[i]`` to the legal actions of game ``i`` (all false once it is over)."""
    for i in range(states.shape[0]):
        legal_mask_into(states[i], masks[i])


@njit(cache=True)
def batch_step(states: np.ndarray, actions: np.ndarray) -> None:
    """Play ``actions[i]`` in game ``i`` (the caller checked them against the masks); -1 leaves a game as it is."""
    for i in range(states.shape[0]):
        if actions[i] >= 0:
            step(states[i], actions[i])


# ----------------------------------------------------------------------------- to and from the reference


def from_state(players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
    """The array of a reference game's ``_state()``."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[SUPPLY:SUPPLY + COLOURS] = state["supply"]
    for p in range(players):
        s[TOKENS + p * COLOURS: TOKENS + (p + 1) * COLOURS] = state["tokens"][p]
        s[BONUS + p * 5: BONUS + p * 5 + 5] = state["bonuses"][p]
        s[POINTS + p] = state["points"][p]
        s[BOUGHT_N + p] = len(state["bought"][p])
        s[BOUGHT + p * BOUGHT_ROOM: BOUGHT + p * BOUGHT_ROOM + len(state["bought"][p])] = state["bought"][p]
        hand = state["reserved"][p]
        s[RESERVED_N + p] = len(hand)
        for i, cid in enumerate(hand):
            s[RESERVED + p * RESERVE_LIMIT + i] = cid
            s[SECRET + p * RESERVE_LIMIT + i] = int(cid in state["secret"])
        s[SEAT_NOBLES_N + p] = len(state["seat_nobles"][p])
        for i, n in enumerate(state["seat_nobles"][p]):
            s[SEAT_NOBLES + p * 5 + i] = n
    for r in range(3):
        s[ROWS + r * 4: ROWS + r * 4 + 4] = state["rows"][r]
        s[DECK_N + r] = len(state["decks"][r])
        s[DECKS + r * DECK_ROOM: DECKS + r * DECK_ROOM + len(state["decks"][r])] = state["decks"][r]
    s[NOBLES_N] = len(state["nobles"])
    s[NOBLES_AT: NOBLES_AT + len(state["nobles"])] = state["nobles"]
    s[WINNERS_N] = len(state["winners"])
    s[WINNERS: WINNERS + len(state["winners"])] = state["winners"]
    for key, at in (("seat", SEAT), ("phase", PHASE), ("turns", TURNS), ("final_round", FINAL), ("first", FIRST),
                    ("passes", PASSES), ("capped", CAPPED), ("stalled", STALLED)):
        s[at] = int(state[key])
    s[PLAYERS] = players
    s[MAX_TURNS] = -1 if options["max_turns"] is None else options["max_turns"]
    return s


def to_state(s: np.ndarray) -> dict[str, Any]:
    """The reference game's ``_state()`` of an array."""
    players = int(s[PLAYERS])
    seats = range(players)
    hand = [[int(s[RESERVED + p * RESERVE_LIMIT + i]) for i in range(int(s[RESERVED_N + p]))] for p in seats]
    return {
        "seat": int(s[SEAT]), "phase": int(s[PHASE]), "turns": int(s[TURNS]), "final_round": bool(s[FINAL]),
        "first": int(s[FIRST]), "passes": int(s[PASSES]), "capped": bool(s[CAPPED]), "stalled": bool(s[STALLED]),
        "supply": [int(x) for x in s[SUPPLY:SUPPLY + COLOURS]],
        "tokens": [[int(x) for x in s[TOKENS + p * COLOURS: TOKENS + (p + 1) * COLOURS]] for p in seats],
        "bonuses": [[int(x) for x in s[BONUS + p * 5: BONUS + p * 5 + 5]] for p in seats],
        "points": [int(s[POINTS + p]) for p in seats],
        "bought": [[int(x) for x in s[BOUGHT + p * BOUGHT_ROOM: BOUGHT + p * BOUGHT_ROOM + int(s[BOUGHT_N + p])]]
                   for p in seats],
        "reserved": hand,
        "rows": [[int(x) for x in s[ROWS + r * 4: ROWS + r * 4 + 4]] for r in range(3)],
        "decks": [[int(x) for x in s[DECKS + r * DECK_ROOM: DECKS + r * DECK_ROOM + int(s[DECK_N + r])]]
                  for r in range(3)],
        "winners": [int(x) for x in s[WINNERS: WINNERS + int(s[WINNERS_N])]],
        "secret": sorted(hand[p][i] for p in seats for i in range(len(hand[p]))
                         if s[SECRET + p * RESERVE_LIMIT + i]),
        "nobles": [int(x) for x in s[NOBLES_AT: NOBLES_AT + int(s[NOBLES_N])]],
        "seat_nobles": [[int(x) for x in s[SEAT_NOBLES + p * 5: SEAT_NOBLES + p * 5 + int(s[SEAT_NOBLES_N + p])]]
                        for p in seats],
    }


def new_rng_for(seed: int) -> np.ndarray:
    """A policy generator for ``playout_from`` (independent of the deal's)."""
    return new_rng(seed)
