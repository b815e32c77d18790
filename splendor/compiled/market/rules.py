"""The card-market games' rules in compiled code: the deal, the legal actions (a mask over the action index) and
carrying out an action, over the state of ``layout``. What the two games share is written once; where they differ
(classic's nobles, Pokémon's evolution, master-ball costs, double bonuses, rare and legendary rows, tie-breaks)
the code branches on the state's kind."""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.market.actions import (
    BUY,
    BUY_RESERVED,
    EVOLVE_AT,
    EVOLVE_NONE,
    EVOLVE_SOURCE,
    EXTRA,
    PASS,
    RESERVE,
    RETURN,
    ROW_BUY,
    TAKE2,
    TAKE3_FIRST,
    TAKE_COLOURS,
    TAKE_SMALL_FIRST,
    TAKE_SMALL_LAST,
)
from splendor.compiled.market.cards import (
    CARD_BONUS,
    CARD_BONUS_COUNT,
    CARD_COST,
    CARD_COUNT,
    CARD_POINTS,
    CARD_ROW,
    EVOLVE_BONUS,
    EVOLVE_COUNT,
    EVOLVES_TO,
    NOBLE_COUNT,
    NOBLE_POINTS,
    NOBLE_REQUIRES,
    POKEMON_NAME,
)
from splendor.compiled.market.layout import (
    BONUS,
    BOUGHT,
    BOUGHT_N,
    CAPPED,
    CARD_ROOM,
    CHOICE,
    CLASSIC,
    COLOURS,
    DECK_N,
    DECK_ROOM,
    DECKS,
    FINAL,
    FIRST,
    KIND,
    MAX_SEATS,
    MAX_TURNS,
    NOBLE_ROOM,
    NOBLES_AT,
    NOBLES_N,
    PASSES,
    PHASE,
    PLAIN,
    PLAYERS,
    POINTS,
    POKEMON,
    RESERVED,
    RESERVED_N,
    RETURN_PHASE,
    ROW_COUNT,
    ROW_SIZE,
    ROWS,
    SEAT,
    SEAT_NOBLES,
    SEAT_NOBLES_N,
    SECRET,
    SIZE,
    SLOTS,
    STALLED,
    SUPPLY,
    TOKENS,
    TURNS,
    UNDER,
    UNDER_N,
    WILD,
    WINNERS,
    WINNERS_N,
)
from splendor.compiled.rng import below, shuffle
from splendor.games.classic.game import ClassicGame
from splendor.games.market import MAIN, OVER, RESERVE_LIMIT, TAKE2_MINIMUM, TOKEN_LIMIT
from splendor.games.pokemon.game import PokemonGame
from splendor.games.pokemon.notation import SLOTS_PER_ROW, TARGETS

GAMES = (ClassicGame, PokemonGame)  # [kind]
WIN_POINTS = np.array([g.win_points for g in GAMES], dtype=np.int64)
PER_COLOUR = np.array(  # plain tokens per colour, [kind, players]
    [[g.tokens_per_colour.get(p, 0) for p in range(MAX_SEATS + 1)] for g in GAMES], dtype=np.int64
)
WILD_TOKENS = np.array([g.wild_tokens for g in GAMES], dtype=np.int64)

# ----------------------------------------------------------------------------- setting up


@njit(cache=True)
def setup(kind: int, players: int, seed: int, first_player: int, max_turns: int) -> np.ndarray:
    """A new game dealt from ``seed`` exactly as the reference deals it; ``first_player`` -1 means random,
    ``max_turns`` -1 none."""
    s = np.zeros(SIZE, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    for c in range(WILD):
        s[SUPPLY + c] = PER_COLOUR[kind, players]
    s[SUPPLY + WILD] = WILD_TOKENS[kind]
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
        d = CARD_COST[kind, cid, c] - s[BONUS + seat * PLAIN + c] - s[TOKENS + seat * COLOURS + c]
        if d > 0:
            need += d
    return bool(need <= s[TOKENS + seat * COLOURS + WILD])


@njit(cache=True)
def _noble_visits(s: np.ndarray, seat: int, noble: int) -> bool:
    for c in range(WILD):  # noqa: SIM110  (a loop, not all() over a generator, in compiled code)
        if s[BONUS + seat * PLAIN + c] < NOBLE_REQUIRES[noble, c]:
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
        if into < 0 or s[BONUS + seat * PLAIN + EVOLVE_BONUS[src]] < EVOLVE_COUNT[src]:
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
def _evolution_may_be_hidden(s: np.ndarray) -> bool:
    """Whether, as far as the other seats can tell, the seat may evolve into a card it reserved from a deck (a
    Pokémon ready to evolve, a hidden card of the level it evolves into): it is asked whether to evolve whatever
    that card is (ruling 5; ``PokemonGame._evolution_may_be_hidden``)."""
    seat = s[SEAT]
    for i in range(s[BOUGHT_N + seat]):
        src = s[BOUGHT + seat * CARD_ROOM + i]
        if EVOLVES_TO[src] < 0 or s[BONUS + seat * PLAIN + EVOLVE_BONUS[src]] < EVOLVE_COUNT[src]:
            continue
        for k in range(s[RESERVED_N + seat]):
            if s[SECRET + seat * RESERVE_LIMIT + k] == 1 and (
                CARD_ROW[POKEMON, s[RESERVED + seat * RESERVE_LIMIT + k]] == CARD_ROW[POKEMON, src] + 1
            ):
                return True
    return False


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
            if s[SUPPLY + c] >= TAKE2_MINIMUM:
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
    cid: int = s[ROWS + r * SLOTS + slot]
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
    cid: int = s[RESERVED + base + i]
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
        due = CARD_COST[kind, cid, c] - s[BONUS + seat * PLAIN + c]
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
    s[BONUS + seat * PLAIN + CARD_BONUS[kind, cid]] += CARD_BONUS_COUNT[kind, cid]
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
    s[SEAT_NOBLES + seat * NOBLE_ROOM + k] = noble
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
    s[BONUS + seat * PLAIN + CARD_BONUS[POKEMON, src]] -= CARD_BONUS_COUNT[POKEMON, src]
    s[BONUS + seat * PLAIN + CARD_BONUS[POKEMON, new]] += CARD_BONUS_COUNT[POKEMON, new]
    s[POINTS + seat] += CARD_POINTS[POKEMON, new] - CARD_POINTS[POKEMON, src]
    s[PASSES] = 0


@njit(cache=True)
def _tie_key(s: np.ndarray, p: int) -> int:
    """The tie-break after points, bigger better: classic fewer cards; Pokémon more cards under the trainer tile,
    then more in the play area."""
    if s[KIND] == CLASSIC:
        return -int(s[BOUGHT_N + p])
    return int(s[UNDER_N + p] * 1000 + s[BOUGHT_N + p])


@njit(cache=True)
def _noble_due(s: np.ndarray) -> bool:
    """Whether a seat's bonuses meet a noble still on display (classic): it visits at that seat's next turn's end,
    so a round of passes does not stall the game (``ClassicGame._still_to_come``)."""
    if s[KIND] != CLASSIC:
        return False
    for p in range(s[PLAYERS]):
        for i in range(s[NOBLES_N]):
            if _noble_visits(s, p, s[NOBLES_AT + i]):
                return True
    return False


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
    if s[PASSES] >= players and s[FINAL] == 0 and not _noble_due(s):  # ruling 4: stalled, no winner
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
        if _evolutions_into(s, scratch) > 0 or _evolution_may_be_hidden(s):
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


@njit(cache=True)
def nth_legal(mask: np.ndarray, actions: int, n: int) -> int:
    """The ``n``-th legal action (from 0) of a mask, in index order; -1 if there are fewer."""
    for a in range(actions):
        if mask[a]:
            if n == 0:
                return a
            n -= 1
    return -1
