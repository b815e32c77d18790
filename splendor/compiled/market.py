"""The card-market games in compiled code (Numba): classic Splendor and Splendor: Pokémon over one flat integer
array, as ``splendor.games.market`` and its two games state them.

The reference engine is the statement of the rules; this is the same rules written for speed, and proven equal to
it by ``tests/test_compiled.py``: the same action indices, the same legal actions, the same deals from the same
seed, the same state after every action. A game's whole state is one ``int64`` array (its layout below; its
``KIND`` entry says which game), so a copy is one array copy; playouts run many games without returning to Python
between decisions. What the two games share is written once; where they differ (classic's nobles, Pokémon's
evolution, master-ball costs, double bonuses, rare and legendary rows, tie-breaks) the code branches on the kind.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from splendor.compiled.rng import below, shuffle
from splendor.games.classic.cards import CARDS as CLASSIC_CARDS
from splendor.games.classic.cards import NOBLES
from splendor.games.classic.notation import ACTIONS as CLASSIC_ACTIONS
from splendor.games.pokemon.cards import CARDS as POKEMON_CARDS
from splendor.games.pokemon.notation import ACTIONS as POKEMON_ACTIONS
from splendor.games.pokemon.notation import SLOTS_PER_ROW, TARGETS

CLASSIC, POKEMON = 0, 1
KINDS = {"classic": CLASSIC, "pokemon": POKEMON}
COLOURS, WILD = 6, 5  # five plain colours, the wild one (gold, master ball) last
TOKEN_LIMIT, RESERVE_LIMIT = 10, 3
MAX_SEATS, MAX_ROWS, SLOTS, DECK_ROOM, CARD_ROOM = 4, 5, 4, 40, 90
WIN_POINTS = np.array([15, 18], dtype=np.int64)
PER_COLOUR = np.array([0, 0, 4, 5, 7], dtype=np.int64)  # plain tokens per colour by players (both games)
ROW_COUNT = np.array([3, 5], dtype=np.int64)
ROW_SIZE = np.array([[4, 4, 4, 0, 0], [4, 4, 4, 1, 1]], dtype=np.int64)
ROW_BUY = np.array([[0, 4, 8, 0, 0], [0, 4, 8, 12, 13]], dtype=np.int64)  # a row's first buy, after BUY

# ----------------------------------------------------------------------------- card tables, [kind, card]

CARD_COUNT = np.array([len(CLASSIC_CARDS), len(POKEMON_CARDS)], dtype=np.int64)
CARD_ROW = np.zeros((2, CARD_ROOM), dtype=np.int64)
CARD_POINTS = np.zeros((2, CARD_ROOM), dtype=np.int64)
CARD_BONUS = np.zeros((2, CARD_ROOM), dtype=np.int64)
CARD_BONUS_COUNT = np.zeros((2, CARD_ROOM), dtype=np.int64)
CARD_COST = np.zeros((2, CARD_ROOM, COLOURS), dtype=np.int64)  # the wild column: paid with wild tokens only
for _kind, _cards in ((CLASSIC, CLASSIC_CARDS), (POKEMON, POKEMON_CARDS)):
    for _c in _cards:
        CARD_ROW[_kind, _c.id], CARD_POINTS[_kind, _c.id] = _c.row, _c.points
        CARD_BONUS[_kind, _c.id], CARD_BONUS_COUNT[_kind, _c.id] = _c.bonus, _c.bonus_count
        CARD_COST[_kind, _c.id, :] = _c.cost

_NAMES = {name: i for i, name in enumerate(sorted({c.name for c in POKEMON_CARDS}))}
POKEMON_NAME = np.array([_NAMES[c.name] for c in POKEMON_CARDS], dtype=np.int64)
EVOLVES_TO = np.array([_NAMES[c.evolves_to] if c.evolves_to else -1 for c in POKEMON_CARDS], dtype=np.int64)
EVOLVE_BONUS = np.array([c.evolve_bonus for c in POKEMON_CARDS], dtype=np.int64)
EVOLVE_COUNT = np.array([c.evolve_count for c in POKEMON_CARDS], dtype=np.int64)
EVOLVE_AT = np.full(len(POKEMON_CARDS), -1, dtype=np.int64)  # a card's first evolve action (+ target)
EVOLVE_SOURCE = np.zeros(len(POKEMON_CARDS), dtype=np.int64)  # the card that the n-th block of 7 evolves
for _a in POKEMON_ACTIONS:
    if _a.kind == "evolve" and _a.args[1] == 0:
        EVOLVE_AT[_a.args[0]] = _a.index
        EVOLVE_SOURCE[(_a.index - POKEMON_ACTIONS.get("evolve", 0, 0).index) // TARGETS] = _a.args[0]

NOBLE_COUNT = len(NOBLES)
NOBLE_POINTS = np.array([n.points for n in NOBLES], dtype=np.int64)
NOBLE_REQUIRES = np.array([n.requires for n in NOBLES], dtype=np.int64)

# ----------------------------------------------------------------------------- action indices, [kind]

TABLES = (CLASSIC_ACTIONS, POKEMON_ACTIONS)
ACTION_COUNT = np.array([len(t) for t in TABLES], dtype=np.int64)
MAX_ACTIONS = int(ACTION_COUNT.max())
TAKE_COLOURS = np.full((MAX_ACTIONS, 3), -1, dtype=np.int64)  # the colours of each take action (both games)
for _a in CLASSIC_ACTIONS:
    if _a.kind == "take":
        TAKE_COLOURS[_a.index, : len(_a.args)] = _a.args
        assert POKEMON_ACTIONS[_a.index].args == _a.args
TAKE3_FIRST = CLASSIC_ACTIONS.get("take", 0, 1, 2).index  # 0-9: three colours
TAKE_SMALL_FIRST = CLASSIC_ACTIONS.get("take", 0, 1).index  # 10-24: fewer
TAKE_SMALL_LAST = CLASSIC_ACTIONS.get("take", 4).index
TAKE2 = CLASSIC_ACTIONS.get("take2", 0).index  # 25 + colour
RESERVE = CLASSIC_ACTIONS.get("reserve", 0, 0).index  # 30 + row * 5 + slot; + 4: the deck
BUY = CLASSIC_ACTIONS.get("buy", 0, 0).index  # 45 + ROW_BUY[row] + slot
BUY_RESERVED = np.array([t.get("buy_reserved", 0).index for t in TABLES], dtype=np.int64)
RETURN = np.array([t.get("return", 0).index for t in TABLES], dtype=np.int64)
EXTRA = np.array([CLASSIC_ACTIONS.get("noble", 0).index, POKEMON_ACTIONS.get("evolve", 0, 0).index], dtype=np.int64)
EVOLVE_NONE = POKEMON_ACTIONS.get("evolve_none").index
PASS = np.array([t.get("pass").index for t in TABLES], dtype=np.int64)
for _t in TABLES:
    assert _t.get("take", 0, 1, 2).index == TAKE3_FIRST and _t.get("take2", 0).index == TAKE2
    assert _t.get("reserve_deck", 2).index == RESERVE + 14 and _t.get("buy", 0, 0).index == BUY
assert POKEMON_ACTIONS.get("buy", 4, 0).index == BUY + ROW_BUY[POKEMON, 4]

# Decision phases, as in ``games/market.py``; the fourth is classic's noble choice or Pokémon's evolution.
MAIN, RETURN_PHASE, OVER, CHOICE = 0, 1, 2, 3

# ----------------------------------------------------------------------------- the state's layout

SUPPLY = 0  # colour
TOKENS = SUPPLY + COLOURS  # seat * 6 + colour
BONUS = TOKENS + MAX_SEATS * COLOURS  # seat * 5 + colour
POINTS = BONUS + MAX_SEATS * 5  # seat
BOUGHT_N = POINTS + MAX_SEATS  # seat
BOUGHT = BOUGHT_N + MAX_SEATS  # seat * 90 + i: card ids in the order bought
UNDER_N = BOUGHT + MAX_SEATS * CARD_ROOM  # Pokémon: the cards under the trainer tile
UNDER = UNDER_N + MAX_SEATS
RESERVED_N = UNDER + MAX_SEATS * CARD_ROOM
RESERVED = RESERVED_N + MAX_SEATS  # seat * 3 + i
SECRET = RESERVED + MAX_SEATS * RESERVE_LIMIT  # 1 where the reserved card came from a deck (hidden)
ROWS = SECRET + MAX_SEATS * RESERVE_LIMIT  # row * 4 + slot: a card id, or -1
DECK_N = ROWS + MAX_ROWS * SLOTS  # row
DECKS = DECK_N + MAX_ROWS  # row * 40 + i: the top of a deck is its last card
NOBLES_N = DECKS + MAX_ROWS * DECK_ROOM  # classic: the nobles on display, in order
NOBLES_AT = NOBLES_N + 1
SEAT_NOBLES_N = NOBLES_AT + 5
SEAT_NOBLES = SEAT_NOBLES_N + MAX_SEATS  # seat * 5 + i
WINNERS_N = SEAT_NOBLES + MAX_SEATS * 5
WINNERS = WINNERS_N + 1
SEAT = WINNERS + MAX_SEATS
PHASE, TURNS, FINAL, FIRST, PASSES, CAPPED, STALLED, PLAYERS, MAX_TURNS, KIND = range(SEAT + 1, SEAT + 11)
SIZE = KIND + 1

# ----------------------------------------------------------------------------- setting up


@njit(cache=True)
def setup(kind: int, players: int, seed: int, first_player: int, max_turns: int) -> np.ndarray:
    """A new game dealt from ``seed`` exactly as the reference deals it; ``first_player`` -1 means random,
    ``max_turns`` -1 none."""
    s = np.zeros(SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    for c in range(WILD):
        s[SUPPLY + c] = PER_COLOUR[players]
    s[SUPPLY + WILD] = 5
    deck = np.empty(DECK_ROOM, dtype=np.int64)
    for r in range(ROW_COUNT[kind]):
        n = 0
        for cid in range(CARD_COUNT[kind]):
            if CARD_ROW[kind, cid] == r:
                deck[n] = cid
                n += 1
        shuffle(rng, deck, n)
        for slot in range(ROW_SIZE[kind, r]):
            if n > 0:
                n -= 1
                s[ROWS + r * SLOTS + slot] = deck[n]
            else:
                s[ROWS + r * SLOTS + slot] = -1
        s[DECK_N + r] = n
        for i in range(n):
            s[DECKS + r * DECK_ROOM + i] = deck[i]
    s[FIRST] = below(rng, players) if first_player < 0 else first_player
    if kind == CLASSIC:
        ids = np.arange(NOBLE_COUNT, dtype=np.int64)
        shuffle(rng, ids, NOBLE_COUNT)
        s[NOBLES_N] = players + 1
        for i in range(players + 1):
            s[NOBLES_AT + i] = ids[i]
    s[SEAT] = s[FIRST]
    s[PHASE] = MAIN
    s[PLAYERS] = players
    s[MAX_TURNS] = max_turns
    s[KIND] = kind
    return s


# ----------------------------------------------------------------------------- legal actions


@njit(cache=True)
def _affordable(s: np.ndarray, seat: int, cid: int) -> bool:
    kind = s[KIND]
    need = CARD_COST[kind, cid, WILD]
    for c in range(WILD):
        d = CARD_COST[kind, cid, c] - s[BONUS + seat * 5 + c] - s[TOKENS + seat * COLOURS + c]
        if d > 0:
            need += d
    return need <= s[TOKENS + seat * COLOURS + WILD]


@njit(cache=True)
def _noble_visits(s: np.ndarray, seat: int, noble: int) -> bool:
    for c in range(WILD):
        if s[BONUS + seat * 5 + c] < NOBLE_REQUIRES[noble, c]:
            return False
    return True


@njit(cache=True)
def _evolutions_into(s: np.ndarray, mask: np.ndarray) -> int:
    """Mark the evolutions open to the seat (Pokémon); returns how many."""
    seat = s[SEAT]
    count = 0
    for i in range(s[BOUGHT_N + seat]):
        src = s[BOUGHT + seat * CARD_ROOM + i]
        into = EVOLVES_TO[src]
        if into < 0 or s[BONUS + seat * 5 + EVOLVE_BONUS[src]] < EVOLVE_COUNT[src]:
            continue
        row = CARD_ROW[POKEMON, src] + 1
        for slot in range(SLOTS_PER_ROW):
            cid = s[ROWS + row * SLOTS + slot]
            if cid >= 0 and POKEMON_NAME[cid] == into:
                mask[EVOLVE_AT[src] + slot] = True
                count += 1
        for k in range(s[RESERVED_N + seat]):
            if POKEMON_NAME[s[RESERVED + seat * RESERVE_LIMIT + k]] == into:
                mask[EVOLVE_AT[src] + SLOTS_PER_ROW + k] = True
                count += 1
    return count


@njit(cache=True)
def legal_mask_into(s: np.ndarray, mask: np.ndarray) -> int:
    """Set ``mask`` (a bool array over the game's actions) to the legal actions; returns how many there are."""
    mask[:] = False
    kind = s[KIND]
    phase = s[PHASE]
    seat = s[SEAT]
    count = 0
    if phase == MAIN:
        avail = 0
        for c in range(WILD):
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
        for c in range(WILD):
            if s[SUPPLY + c] >= 4:
                mask[TAKE2 + c] = True
                count += 1
        if s[RESERVED_N + seat] < RESERVE_LIMIT:
            for r in range(3):  # levels / tiers 1-3 only: rare and legendary are never
                for slot in range(SLOTS):
                    if s[ROWS + r * SLOTS + slot] >= 0:
                        mask[RESERVE + r * 5 + slot] = True
                        count += 1
                if s[DECK_N + r] > 0:
                    mask[RESERVE + r * 5 + 4] = True
                    count += 1
        for r in range(ROW_COUNT[kind]):
            for slot in range(ROW_SIZE[kind, r]):
                cid = s[ROWS + r * SLOTS + slot]
                if cid >= 0 and _affordable(s, seat, cid):
                    mask[BUY + ROW_BUY[kind, r] + slot] = True
                    count += 1
        for i in range(s[RESERVED_N + seat]):
            if _affordable(s, seat, s[RESERVED + seat * RESERVE_LIMIT + i]):
                mask[BUY_RESERVED[kind] + i] = True
                count += 1
        if count == 0:
            mask[PASS[kind]] = True
            count = 1
    elif phase == RETURN_PHASE:
        for c in range(COLOURS):
            if s[TOKENS + seat * COLOURS + c] > 0:
                mask[RETURN[kind] + c] = True
                count += 1
    elif phase == CHOICE:
        if kind == CLASSIC:
            for i in range(s[NOBLES_N]):
                n = s[NOBLES_AT + i]
                if _noble_visits(s, seat, n):
                    mask[EXTRA[kind] + n] = True
                    count += 1
        else:
            count = _evolutions_into(s, mask) + 1
            mask[EVOLVE_NONE] = True
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
    cid = s[ROWS + r * SLOTS + slot]
    n = s[DECK_N + r]
    if n > 0:
        s[ROWS + r * SLOTS + slot] = s[DECKS + r * DECK_ROOM + n - 1]
        s[DECK_N + r] = n - 1
    else:
        s[ROWS + r * SLOTS + slot] = -1
    return cid


@njit(cache=True)
def _reserve(s: np.ndarray, seat: int, cid: int, secret: int) -> None:
    i = s[RESERVED_N + seat]
    s[RESERVED + seat * RESERVE_LIMIT + i] = cid
    s[SECRET + seat * RESERVE_LIMIT + i] = secret
    s[RESERVED_N + seat] = i + 1
    if s[SUPPLY + WILD] > 0:
        s[SUPPLY + WILD] -= 1
        s[TOKENS + seat * COLOURS + WILD] += 1


@njit(cache=True)
def _unreserve(s: np.ndarray, seat: int, i: int) -> int:
    """Take the seat's reserved card ``i`` out of its hand (the later ones move up)."""
    base = seat * RESERVE_LIMIT
    cid = s[RESERVED + base + i]
    n = s[RESERVED_N + seat]
    for j in range(i, n - 1):
        s[RESERVED + base + j] = s[RESERVED + base + j + 1]
        s[SECRET + base + j] = s[SECRET + base + j + 1]
    s[RESERVED + base + n - 1] = 0
    s[SECRET + base + n - 1] = 0
    s[RESERVED_N + seat] = n - 1
    return cid


@njit(cache=True)
def _pay_for(s: np.ndarray, seat: int, cid: int) -> None:
    kind = s[KIND]
    wild_needed = CARD_COST[kind, cid, WILD]
    for c in range(WILD):
        due = CARD_COST[kind, cid, c] - s[BONUS + seat * 5 + c]
        if due > 0:
            held = s[TOKENS + seat * COLOURS + c]
            paid = due if held >= due else held
            wild_needed += due - paid
            s[TOKENS + seat * COLOURS + c] -= paid
            s[SUPPLY + c] += paid
    s[TOKENS + seat * COLOURS + WILD] -= wild_needed
    s[SUPPLY + WILD] += wild_needed
    n = s[BOUGHT_N + seat]
    s[BOUGHT + seat * CARD_ROOM + n] = cid
    s[BOUGHT_N + seat] = n + 1
    s[BONUS + seat * 5 + CARD_BONUS[kind, cid]] += CARD_BONUS_COUNT[kind, cid]
    s[POINTS + seat] += CARD_POINTS[kind, cid]


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
def _evolve(s: np.ndarray, seat: int, src: int, target: int) -> None:
    if target < SLOTS_PER_ROW:
        new = _take_from_row(s, CARD_ROW[POKEMON, src] + 1, target)
    else:
        new = _unreserve(s, seat, target - SLOTS_PER_ROW)
    n = s[BOUGHT_N + seat]
    j = 0
    for i in range(n):  # the old card leaves the play area, the new one joins last
        if s[BOUGHT + seat * CARD_ROOM + i] != src:
            s[BOUGHT + seat * CARD_ROOM + j] = s[BOUGHT + seat * CARD_ROOM + i]
            j += 1
    s[BOUGHT + seat * CARD_ROOM + j] = new
    k = s[UNDER_N + seat]
    s[UNDER + seat * CARD_ROOM + k] = src
    s[UNDER_N + seat] = k + 1
    s[BONUS + seat * 5 + CARD_BONUS[POKEMON, src]] -= CARD_BONUS_COUNT[POKEMON, src]
    s[BONUS + seat * 5 + CARD_BONUS[POKEMON, new]] += CARD_BONUS_COUNT[POKEMON, new]
    s[POINTS + seat] += CARD_POINTS[POKEMON, new] - CARD_POINTS[POKEMON, src]
    s[PASSES] = 0


@njit(cache=True)
def _tie_key(s: np.ndarray, p: int) -> int:
    """The tie-break after points, bigger better: classic fewer cards; Pokémon more cards under the trainer tile,
    then more in the play area."""
    if s[KIND] == CLASSIC:
        return -s[BOUGHT_N + p]
    return s[UNDER_N + p] * 1000 + s[BOUGHT_N + p]


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    seat = s[SEAT]
    players = s[PLAYERS]
    if s[POINTS + seat] >= WIN_POINTS[s[KIND]]:
        s[FINAL] = 1
    s[TURNS] += 1
    nxt = (seat + 1) % players
    if s[FINAL] == 1 and nxt == s[FIRST]:
        s[PHASE] = OVER
        best_points, best_tie = -1, 0
        for p in range(players):
            tie = _tie_key(s, p)
            if s[POINTS + p] > best_points or (s[POINTS + p] == best_points and tie > best_tie):
                best_points, best_tie = s[POINTS + p], tie
        w = 0
        for p in range(players):
            if s[POINTS + p] == best_points and _tie_key(s, p) == best_tie:
                s[WINNERS + w] = p
                w += 1
        s[WINNERS_N] = w
        return
    if s[PASSES] >= players:  # ruling 4: stalled, no winner
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
def _after_returns(s: np.ndarray, scratch: np.ndarray) -> None:
    seat = s[SEAT]
    if s[KIND] == POKEMON:
        if _evolutions_into(s, scratch) > 0:
            s[PHASE] = CHOICE
        else:
            _end_turn(s)
        return
    eligible, found = 0, -1
    for i in range(s[NOBLES_N]):
        n = s[NOBLES_AT + i]
        if _noble_visits(s, seat, n):
            eligible += 1
            if found < 0:
                found = n
    if eligible > 1:
        s[PHASE] = CHOICE
        return
    if eligible == 1:
        _visit(s, seat, found)
    _end_turn(s)


@njit(cache=True)
def _after_main(s: np.ndarray, scratch: np.ndarray) -> None:
    s[PASSES] = 0
    if _held(s, s[SEAT]) > TOKEN_LIMIT:
        s[PHASE] = RETURN_PHASE
    else:
        _after_returns(s, scratch)


@njit(cache=True)
def step(s: np.ndarray, a: int, scratch: np.ndarray) -> None:
    """Carry out the legal action ``a`` (unchecked: the caller took it from the mask); ``scratch`` is a spare
    bool array of the game's action count."""
    kind = s[KIND]
    seat = s[SEAT]
    if a < TAKE2:
        for k in range(3):
            c = TAKE_COLOURS[a, k]
            if c >= 0:
                s[SUPPLY + c] -= 1
                s[TOKENS + seat * COLOURS + c] += 1
        _after_main(s, scratch)
    elif a < RESERVE:
        c = a - TAKE2
        s[SUPPLY + c] -= 2
        s[TOKENS + seat * COLOURS + c] += 2
        _after_main(s, scratch)
    elif a < BUY:
        r, slot = (a - RESERVE) // 5, (a - RESERVE) % 5
        if slot == 4:
            n = s[DECK_N + r] - 1
            s[DECK_N + r] = n
            _reserve(s, seat, s[DECKS + r * DECK_ROOM + n], 1)
        else:
            _reserve(s, seat, _take_from_row(s, r, slot), 0)
        _after_main(s, scratch)
    elif a < BUY_RESERVED[kind]:
        at = a - BUY
        r = ROW_COUNT[kind] - 1
        while ROW_BUY[kind, r] > at:
            r -= 1
        _pay_for(s, seat, _take_from_row(s, r, at - ROW_BUY[kind, r]))
        _after_main(s, scratch)
    elif a < RETURN[kind]:
        _pay_for(s, seat, _unreserve(s, seat, a - BUY_RESERVED[kind]))
        _after_main(s, scratch)
    elif a < EXTRA[kind]:
        c = a - RETURN[kind]
        s[TOKENS + seat * COLOURS + c] -= 1
        s[SUPPLY + c] += 1
        if _held(s, seat) <= TOKEN_LIMIT:
            _after_returns(s, scratch)
    elif a == PASS[kind]:
        s[PASSES] += 1
        _after_returns(s, scratch)
    elif kind == CLASSIC:
        _visit(s, seat, a - EXTRA[kind])
        _end_turn(s)
    elif a == EVOLVE_NONE:
        _end_turn(s)
    else:
        _evolve(s, seat, EVOLVE_SOURCE[(a - EXTRA[kind]) // TARGETS], (a - EXTRA[kind]) % TARGETS)
        _end_turn(s)


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
def nth_legal(mask: np.ndarray, actions: int, n: int) -> int:
    """The ``n``-th legal action (from 0) of a mask, in index order; -1 if there are fewer."""
    for a in range(actions):
        if mask[a]:
            if n == 0:
                return a
            n -= 1
    return -1


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


# ----------------------------------------------------------------------------- to and from the reference


def _put(s: np.ndarray, at: int, values: list[int]) -> None:
    s[at : at + len(values)] = values


def from_state(kind: int, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
    """The array of a reference game's ``_state()``."""
    s = np.zeros(SIZE, dtype=np.int64)
    _put(s, SUPPLY, state["supply"])
    for p in range(players):
        _put(s, TOKENS + p * COLOURS, state["tokens"][p])
        _put(s, BONUS + p * 5, state["bonuses"][p])
        s[POINTS + p] = state["points"][p]
        s[BOUGHT_N + p] = len(state["bought"][p])
        _put(s, BOUGHT + p * CARD_ROOM, state["bought"][p])
        hand = state["reserved"][p]
        s[RESERVED_N + p] = len(hand)
        _put(s, RESERVED + p * RESERVE_LIMIT, hand)
        _put(s, SECRET + p * RESERVE_LIMIT, [int(cid in state["secret"]) for cid in hand])
        if kind == CLASSIC:
            s[SEAT_NOBLES_N + p] = len(state["seat_nobles"][p])
            _put(s, SEAT_NOBLES + p * 5, state["seat_nobles"][p])
        else:
            s[UNDER_N + p] = len(state["under_tile"][p])
            _put(s, UNDER + p * CARD_ROOM, state["under_tile"][p])
    for r in range(ROW_COUNT[kind]):
        _put(s, ROWS + r * SLOTS, state["rows"][r])
        s[DECK_N + r] = len(state["decks"][r])
        _put(s, DECKS + r * DECK_ROOM, state["decks"][r])
    if kind == CLASSIC:
        s[NOBLES_N] = len(state["nobles"])
        _put(s, NOBLES_AT, state["nobles"])
    s[WINNERS_N] = len(state["winners"])
    _put(s, WINNERS, state["winners"])
    for key, at in (
        ("seat", SEAT),
        ("phase", PHASE),
        ("turns", TURNS),
        ("final_round", FINAL),
        ("first", FIRST),
        ("passes", PASSES),
        ("capped", CAPPED),
        ("stalled", STALLED),
    ):
        s[at] = int(state[key])
    s[PLAYERS] = players
    s[MAX_TURNS] = -1 if options["max_turns"] is None else options["max_turns"]
    s[KIND] = kind
    return s


def _list(s: np.ndarray, at: int, n: int) -> list[int]:
    return [int(x) for x in s[at : at + int(n)]]


def to_state(s: np.ndarray) -> dict[str, Any]:
    """The reference game's ``_state()`` of an array."""
    kind, seats = int(s[KIND]), range(int(s[PLAYERS]))
    hand = [_list(s, RESERVED + p * RESERVE_LIMIT, s[RESERVED_N + p]) for p in seats]
    state: dict[str, Any] = {
        "seat": int(s[SEAT]),
        "phase": int(s[PHASE]),
        "turns": int(s[TURNS]),
        "final_round": bool(s[FINAL]),
        "first": int(s[FIRST]),
        "passes": int(s[PASSES]),
        "capped": bool(s[CAPPED]),
        "stalled": bool(s[STALLED]),
        "supply": _list(s, SUPPLY, COLOURS),
        "tokens": [_list(s, TOKENS + p * COLOURS, COLOURS) for p in seats],
        "bonuses": [_list(s, BONUS + p * 5, 5) for p in seats],
        "points": [int(s[POINTS + p]) for p in seats],
        "bought": [_list(s, BOUGHT + p * CARD_ROOM, s[BOUGHT_N + p]) for p in seats],
        "reserved": hand,
        "rows": [_list(s, ROWS + r * SLOTS, ROW_SIZE[kind, r]) for r in range(ROW_COUNT[kind])],
        "decks": [_list(s, DECKS + r * DECK_ROOM, s[DECK_N + r]) for r in range(ROW_COUNT[kind])],
        "winners": _list(s, WINNERS, s[WINNERS_N]),
        "secret": sorted(hand[p][i] for p in seats for i in range(len(hand[p])) if s[SECRET + p * RESERVE_LIMIT + i]),
    }
    if kind == CLASSIC:
        state["nobles"] = _list(s, NOBLES_AT, s[NOBLES_N])
        state["seat_nobles"] = [_list(s, SEAT_NOBLES + p * 5, s[SEAT_NOBLES_N + p]) for p in seats]
    else:
        state["under_tile"] = [_list(s, UNDER + p * CARD_ROOM, s[UNDER_N + p]) for p in seats]
    return state
