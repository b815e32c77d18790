"""A seat's observation of a card-market game (classic Splendor or Splendor: Pokémon), written in compiled code
straight from the compiled state: the very vector ``splendor.envs.observe.observe(game.view(seat))`` builds from
the reference game's view (the layout of ``docs/rl.md``), value for value and bit for bit, without a view.

Why: a learner steps a million times a second only if the observation costs about as little as the step. So the
parts that depend on a card or a noble alone (the 12 or 26 values of a card, the 7 of a noble) are worked out
once, at import, into float32 tables, and a count divided by its bound and clipped to [0, 1] is one look-up in a
table of quotients; ``observe_into`` then copies and looks up, allocating nothing.

Exactness: the reference divides in float64 (Python's ``/``), turns the list into float32 (round to nearest) and
then clips; the tables here are made by the same three steps, so the values are the same bits.

What the seat may see, as the view gives it: every face-up card, the count (not the order) of every deck, its own
reserved cards, and of another seat's reserved cards those taken face up; one reserved from a deck is, to the
others, "present, face down, of this tier" and zeros. The seats are written from the viewer's place and padded
to four; viewer ``-1`` is a spectator (``game.view(None)``: the seats from seat 0, every face-down card hidden).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.market.cards import CARD_ROW, NOBLE_COUNT, NOBLE_POINTS, NOBLE_REQUIRES
from splendor.compiled.market.layout import (
    BONUS,
    BOUGHT,
    BOUGHT_N,
    CARD_ROOM,
    CHOICE,
    CLASSIC,
    COLOURS,
    DECK_N,
    FINAL,
    FIRST,
    KIND,
    KINDS,
    LAYOUTS,
    MAX_ROWS,
    MAX_SEATS,
    NOBLE_ROOM,
    NOBLES_AT,
    NOBLES_N,
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
    SEAT_NOBLES_N,
    SECRET,
    SLOTS,
    SUPPLY,
    TOKENS,
    TURNS,
    UNDER_N,
)
from splendor.games.classic.cards import CARDS as CLASSIC_CARDS
from splendor.games.market import MAIN, OVER, RESERVE_LIMIT
from splendor.games.pokemon.cards import CARDS as POKEMON_CARDS
from splendor.games.pokemon.names import POKEMON_NAMES

# ----------------------------------------------------------------------------- quotients

MAX_BOUND = 50  # the greatest bound a count is divided by (the round / 50)


def _clipped(values: list[float]) -> np.ndarray:
    """Values as the reference writes them: float64 quotients cast to float32, then clipped to [0, 1]."""
    return np.clip(np.asarray(values, dtype=np.float32), 0.0, 1.0)


QUOTIENT = np.stack([_clipped([n / max(bound, 1) for n in range(MAX_BOUND + 1)]) for bound in range(MAX_BOUND + 1)])
"""``QUOTIENT[bound, n]``: ``n / bound`` as the observation writes it, for ``0 <= n <= bound``."""


@njit(cache=True, inline="always")
def _quotient(n: int, bound: int) -> np.float32:
    """A count divided by its bound, clipped to [0, 1] (a count at or over the bound is 1)."""
    return np.float32(QUOTIENT[bound, min(max(n, 0), bound)])


# ----------------------------------------------------------------------------- the layout, by kind

HEADER = 9  # players one-hot (3), round, final round, decision one-hot (action, return, noble or evolve), mine
CARD_WIDTH = np.array([12, 26], dtype=np.int64)  # [kind]: the values of a face-up card
CARD_ROOM_WIDTH = int(CARD_WIDTH.max())
NOBLE_SLOTS, NOBLE_WIDTH = NOBLE_ROOM, 7  # classic: present, points / 3, bonuses required / 4 (5 colours)
SEAT_WIDTH = 16  # present, points, tokens (6), bonuses (5), cards in play, nobles or under the tile, reserved
NAMES = len(POKEMON_NAMES)  # Pokémon: the seat's Pokémon in play by name

TOKEN_BOUND, DECK_BOUND, ROUND_BOUND, CARDS_BOUND, RESERVED_BOUND = 7, 40, 50, 20, 3
POINTS_BOUND = np.array([15, 18], dtype=np.int64)  # [kind]
SECOND_BOUND = np.array([3, 10], dtype=np.int64)  # [kind]: classic's nobles / 3, Pokémon's under the tile / 10

RESERVED_WIDTH = 2 + ROW_COUNT + CARD_WIDTH  # [kind]: present, face down, tier or level one-hot, the card
SEAT_ROOM = SEAT_WIDTH + RESERVE_LIMIT * RESERVED_WIDTH + np.array([0, NAMES], dtype=np.int64)  # [kind]
MARKET_AT = HEADER + COLOURS + ROW_COUNT  # [kind]: after the supply and the decks
NOBLES_START = MARKET_AT + CARD_WIDTH * ROW_SIZE.sum(axis=1)  # [kind]
SEATS_AT = NOBLES_START + np.array([NOBLE_SLOTS * NOBLE_WIDTH, 0], dtype=np.int64)  # [kind]
ORDER = MAX_SEATS  # the last field: the first seat written's place in the turn order, one-hot
ORDER_AT = SEATS_AT + MAX_SEATS * SEAT_ROOM  # [kind]
OBSERVATION_SIZE = ORDER_AT + ORDER
"""The length of a seat's observation, by ``[kind]``: 469 in classic, 1,068 in Pokémon."""
assert OBSERVATION_SIZE.tolist() == [469, 1068], OBSERVATION_SIZE

# A hidden reserved card shows its tier as ``tier`` = row + 1, which the level one-hot knows only where a level's
# label is that number (all classic tiers; Pokémon's levels 1-3, the only rows reserved from): else zeros.
HIDDEN_LEVEL = np.full((len(KINDS), MAX_ROWS), -1, dtype=np.int64)
for _kind in range(len(KINDS)):
    for _r, _label in enumerate(LAYOUTS[_kind].labels):
        if _label == str(_r + 1):
            HIDDEN_LEVEL[_kind, _r] = _r

# ----------------------------------------------------------------------------- cards and nobles, once


def _classic_card(cid: int) -> list[float]:
    """A classic card's values before the cast: present, points / 5, bonus one-hot, cost / 7 (5 colours)."""
    c = CLASSIC_CARDS[cid]
    return [
        1.0,
        c.points / 5,
        *(1.0 if c.bonus == b else 0.0 for b in range(PLAIN)),
        *(c.cost[k] / 7 for k in range(PLAIN)),
    ]


def _pokemon_card(cid: int) -> list[float]:
    """A Pokémon card's values before the cast: present, points / 5, bonus one-hot, bonus count / 2, cost / 7
    (6 balls), evolves, evolution bonus one-hot, evolution bonus count / 4, level one-hot."""
    c = POKEMON_CARDS[cid]
    return [
        1.0,
        c.points / 5,
        *(1.0 if c.bonus == b else 0.0 for b in range(PLAIN)),
        c.bonus_count / 2,
        *(c.cost[k] / 7 for k in range(COLOURS)),
        float(bool(c.evolves_to)),
        *(1.0 if c.evolves_to and c.evolve_bonus == b else 0.0 for b in range(PLAIN)),
        (c.evolve_count if c.evolves_to else 0) / 4,
        *(1.0 if c.row == level else 0.0 for level in range(ROW_COUNT[POKEMON])),
    ]


CARD_VALUES = np.zeros((len(KINDS), CARD_ROOM, CARD_ROOM_WIDTH), dtype=np.float32)
"""``CARD_VALUES[kind, card, :CARD_WIDTH[kind]]``: a face-up card's values in the observation."""
for _c in CLASSIC_CARDS:
    CARD_VALUES[CLASSIC, _c.id, : CARD_WIDTH[CLASSIC]] = _clipped(_classic_card(_c.id))
for _p in POKEMON_CARDS:
    CARD_VALUES[POKEMON, _p.id, : CARD_WIDTH[POKEMON]] = _clipped(_pokemon_card(_p.id))

NOBLE_VALUES = np.stack(
    [
        _clipped([1.0, NOBLE_POINTS[n] / 3, *(NOBLE_REQUIRES[n, k] / 4 for k in range(PLAIN))])
        for n in range(NOBLE_COUNT)
    ]
)
"""``NOBLE_VALUES[noble]``: a classic noble's values in the observation."""

NAME_AT = np.array([POKEMON_NAMES.index(c.name) for c in POKEMON_CARDS], dtype=np.int64)
"""``NAME_AT[card]``: a Pokémon card's place in ``splendor.games.pokemon.names.POKEMON_NAMES``."""

# ----------------------------------------------------------------------------- the observation

# Speed: the helpers are inlined into ``observe_into`` by Numba itself (``inline="always"``), so that no call passes
# ``out`` and counts references to it on the way; and the tables are flat, read by unsigned offsets: Numba wraps a
# negative signed index, a test on every read that keeps LLVM from turning the copies into vector moves (with
# unsigned offsets a card is copied some six times faster).
CARD_FLAT = CARD_VALUES.reshape(-1)
NOBLE_FLAT = NOBLE_VALUES.reshape(-1)
ZERO_FLAT = np.zeros(int(SEAT_ROOM.max()), dtype=np.float32)


@njit(cache=True, inline="always")
def _copy(out: np.ndarray, at: int, table: np.ndarray, start: int, n: int) -> None:
    """``out[at:at + n] = table[start:start + n]``, as a loop over unsigned offsets (no slice, no allocation)."""
    to, source = np.uint64(at), np.uint64(start)
    for j in range(np.uint64(n)):
        out[to + j] = table[source + j]


@njit(cache=True, inline="always")
def _zeros(out: np.ndarray, at: int, n: int) -> None:
    """``out[at:at + n] = 0``."""
    _copy(out, at, ZERO_FLAT, 0, n)


@njit(cache=True, inline="always")
def _card(out: np.ndarray, at: int, kind: int, cid: int, width: int) -> None:
    """A face-up card's values at ``out[at:]``, or zeros where there is no card (``cid`` -1)."""
    if cid < 0:
        _zeros(out, at, width)
    else:
        _copy(out, at, CARD_FLAT, (kind * CARD_ROOM + cid) * CARD_ROOM_WIDTH, width)


@njit(cache=True, inline="always")
def _seat(out: np.ndarray, at: int, s: np.ndarray, kind: int, p: int, viewer: int) -> None:
    """Seat ``p``'s part, as ``viewer`` sees it: its counts, its reserved cards, (Pokémon) its Pokémon by name."""
    out[at] = 1.0
    out[at + 1] = _quotient(s[POINTS + p], POINTS_BOUND[kind])
    for c in range(COLOURS):
        out[at + 2 + c] = _quotient(s[TOKENS + p * COLOURS + c], TOKEN_BOUND)
    for c in range(PLAIN):
        out[at + 2 + COLOURS + c] = _quotient(s[BONUS + p * PLAIN + c], TOKEN_BOUND)
    held = s[RESERVED_N + p]
    out[at + 13] = _quotient(s[BOUGHT_N + p], CARDS_BOUND)
    second = s[SEAT_NOBLES_N + p] if kind == CLASSIC else s[UNDER_N + p]
    out[at + 14] = _quotient(second, SECOND_BOUND[kind])
    out[at + 15] = _quotient(held, RESERVED_BOUND)
    at += SEAT_WIDTH
    rows, width, room = ROW_COUNT[kind], CARD_WIDTH[kind], RESERVED_WIDTH[kind]
    for i in range(RESERVE_LIMIT):
        if i >= held:
            _zeros(out, at, room)
        else:
            cid = s[RESERVED + p * RESERVE_LIMIT + i]
            row = CARD_ROW[kind, cid]
            hidden = s[SECRET + p * RESERVE_LIMIT + i] != 0 and viewer != p
            level = HIDDEN_LEVEL[kind, row] if hidden else row
            out[at] = 1.0
            out[at + 1] = 1.0 if hidden else 0.0
            for r in range(rows):
                out[at + 2 + r] = 1.0 if r == level else 0.0
            _card(out, at + 2 + rows, kind, -1 if hidden else cid, width)
        at += room
    if kind == POKEMON:
        _zeros(out, at, NAMES)
        for i in range(s[BOUGHT_N + p]):
            k = at + NAME_AT[s[BOUGHT + p * CARD_ROOM + i]]
            out[k] = min(out[k] + np.float32(0.5), np.float32(1.0))


@njit(cache=True)
def observe_into(s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """Write seat ``viewer``'s observation of the game in state ``s`` into ``out[:OBSERVATION_SIZE[s[KIND]]]``
    (float32; every value written, so ``out`` need not be zeroed): equal, bit for bit, to
    ``splendor.envs.observe.observe(game.view(viewer))`` for the reference game in the same state. ``viewer`` -1
    is a spectator (``game.view(None)``)."""
    kind, players, phase = s[KIND], s[PLAYERS], s[PHASE]
    over = phase == OVER
    for i in range(3):
        out[i] = 1.0 if players == i + 2 else 0.0
    out[3] = _quotient(s[TURNS] // players + (0 if over else 1), ROUND_BOUND)
    out[4] = 1.0 if s[FINAL] != 0 else 0.0
    out[5] = 1.0 if phase == MAIN else 0.0
    out[6] = 1.0 if phase == RETURN_PHASE else 0.0
    out[7] = 1.0 if phase == CHOICE else 0.0
    out[8] = 1.0 if not over and viewer >= 0 and s[SEAT] == viewer else 0.0
    at = HEADER
    for c in range(COLOURS):
        out[at + c] = _quotient(s[SUPPLY + c], TOKEN_BOUND)
    at += COLOURS
    rows, width = ROW_COUNT[kind], CARD_WIDTH[kind]
    for r in range(rows):
        out[at + r] = _quotient(s[DECK_N + r], DECK_BOUND)
    at += rows
    for r in range(rows):
        for slot in range(ROW_SIZE[kind, r]):
            _card(out, at, kind, s[ROWS + r * SLOTS + slot], width)
            at += width
    if kind == CLASSIC:
        shown = s[NOBLES_N]
        for i in range(NOBLE_SLOTS):
            if i < shown:
                _copy(out, at, NOBLE_FLAT, s[NOBLES_AT + i] * NOBLE_WIDTH, NOBLE_WIDTH)
            else:
                _zeros(out, at, NOBLE_WIDTH)
            at += NOBLE_WIDTH
    room = SEAT_ROOM[kind]
    first = viewer if viewer >= 0 else 0
    for k in range(MAX_SEATS):
        if k < players:
            _seat(out, at, s, kind, (first + k) % players, viewer)
        else:
            _zeros(out, at, room)
        at += room
    place = (first - s[FIRST]) % players
    for k in range(ORDER):
        out[at + k] = 1.0 if k == place else 0.0


@njit(cache=True)
def batch_observe(states: np.ndarray, viewers: np.ndarray, out: np.ndarray) -> None:
    """Row ``i`` of ``out`` (N × size, float32) is seat ``viewers[i]``'s observation of game ``states[i]`` (one game
    a row, all of one kind), as ``observe_into`` writes it."""
    for i in range(states.shape[0]):
        observe_into(states[i], viewers[i], out[i])
