"""A seat's Splendor Kids observation written straight from the compiled state, for learners stepping many games at
once: the same 1,317 float32 values that ``splendor.envs.observe.observe(game.view(seat))`` builds in Python (the
layout ``docs/rl.md`` prints), bit for bit, without making a view.

It reads only what the seat may see: the City tiles in the stack and the face-down Village tiles are counted or
marked, never named, so dealing them anew leaves the vector as it was. Every count is divided as a float64 and
cast to float32, and capped at 1, as ``observe`` does with numpy. The parts, in order:

- the header: players one-hot (2, 3, 4), the round / 50, the final round, the decision one-hot (action, return,
  drought, thief, city, medal), the viewer decides;
- the options (Mysteries, short game, gates closed), the supply / 8 (six kinds), the City stack / 20, the three
  Marketplace slots (resource one-hot), the Queen's Medals not yet given;
- each of 40 spaces in the board's order: present, kind one-hot, a face-down Village tile, the turned-up tile;
- each of 72 roads by number: present, its start and end / 40, its banner's count of each resource / 5;
- each of 4 seats from the viewer's place on: its pawn's space one-hot, then present, in the Palace, purse / 8,
  Treasures / 2, active and used City tiles / 4, Queen's Medal one-hot, holds the Queen's Gem;
- the first seat written's place in the turn order, one-hot (0: the first player).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled.kids.layout import (
    A2_N,
    A2_VILLAGES,
    ACTIVE,
    FIRST,
    FLIP_TILE,
    FLIP_VILLAGE,
    FLIPS_N,
    GATES,
    GEM,
    MARKET,
    MARKET_N,
    MARKET_OPEN,
    MEDAL,
    MEDAL_OF,
    MEDALS_LEFT,
    MEDALS_N,
    MYSTERIES,
    OVER,
    PALACE_AT,
    PLAYERS,
    PURSE,
    ROAD_COST,
    ROAD_COST_N,
    ROAD_END,
    ROAD_START,
    ROADS_N,
    SHORT,
    SPACE,
    SPACE_KIND,
    SPACES_N,
    STACK_N,
    SUPPLY,
    TOKENS,
    TURNS,
    USED,
    VILLAGE_TILE,
)
from splendor.compiled.kids.rules import current_player, phase
from splendor.games.kids.board import MAX_COST
from splendor.games.kids.notation import GOLD, MARKET_SLOTS, MAX_ROADS, MAX_SEATS, MEDALS, RESOURCE_COUNT, TREASURE

OBS_SPACES = 40
"""The spaces an observation holds (``splendor.envs.observe.MAX_SPACES``): a board with more has no observation."""
KINDS_OF_SPACE = 4  # port, city, village, palace
TILE_EFFECTS = 5  # Tornado, Treasure, Drought, Kind-Hearted Thief, Queen's Gem
DECISIONS = 6  # action, return, drought, thief, city, medal: the phase's code + 1 (the main action is -1)

# Where each part begins.
PLAYERS_AT = 0
ROUND_AT = PLAYERS_AT + 3
FINAL_ROUND_AT = ROUND_AT + 1
DECISION_AT = FINAL_ROUND_AT + 1
MY_DECISION_AT = DECISION_AT + DECISIONS
OPTIONS_AT = MY_DECISION_AT + 1
SUPPLY_AT = OPTIONS_AT + 3
CITY_STACK_AT = SUPPLY_AT + GOLD + 1
MARKETPLACE_AT = CITY_STACK_AT + 1
MEDALS_LEFT_AT = MARKETPLACE_AT + MARKET_SLOTS * RESOURCE_COUNT
SPACES_AT = MEDALS_LEFT_AT + MEDALS
SPACE_SIZE = 1 + KINDS_OF_SPACE + 1 + TILE_EFFECTS
ROADS_AT = SPACES_AT + OBS_SPACES * SPACE_SIZE
ROAD_SIZE = 3 + RESOURCE_COUNT
SEATS_AT = ROADS_AT + MAX_ROADS * ROAD_SIZE
SEAT_FACTS = 1 + 1 + (GOLD + 1) + 1 + 2 * RESOURCE_COUNT + MEDALS + 1  # after the pawn's one-hot
SEAT_SIZE = OBS_SPACES + SEAT_FACTS
ORDER_AT = SEATS_AT + MAX_SEATS * SEAT_SIZE  # the first seat written's place in the turn order, one-hot
OBSERVATION_SIZE = ORDER_AT + MAX_SEATS
"""How many values a Kids observation holds: 1,317."""

assert OBSERVATION_SIZE == 1317

# Every count an observation divides, divided once here exactly as observe's numpy does it (a Python int divided
# in float64, cast to float32, capped at 1): row ``b`` for the bound ``BOUNDS[b]``, column the count. Every bound
# is under the table's width, so a larger count reads the last column, 1.
BOUNDS = (50, 8, 20, OBS_SPACES, 5, 2, 4)
BY_50, BY_8, BY_20, BY_40, BY_5, BY_2, BY_4 = range(len(BOUNDS))
RATIO_WIDTH = 64
RATIOS = np.array(
    [[np.float32(min(count / bound, 1.0)) for count in range(RATIO_WIDTH)] for bound in BOUNDS], dtype=np.float32
)


@njit(cache=True, inline="always")
def _ratio(count: int, bound: int) -> np.float32:
    """``count`` divided by ``BOUNDS[bound]``, capped at 1, as ``observe`` makes it (read from ``RATIOS``)."""
    return np.float32(RATIOS[bound, min(count, RATIO_WIDTH - 1)])


@njit(cache=True)
def observe_into(s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """Write seat ``viewer``'s observation of the compiled state ``s`` into ``out[:OBSERVATION_SIZE]`` (every value,
    the zeros included), equal to ``observe(game.view(viewer))``; ``viewer`` -1 is a spectator, seen from seat 0.
    Allocates nothing; a board of more than 40 spaces is refused (``ValueError``), as ``observe`` refuses it."""
    if s[SPACES_N] > OBS_SPACES:
        raise ValueError("this board has more spaces than an observation holds (40)")
    out[:OBSERVATION_SIZE] = 0.0
    players = s[PLAYERS]
    step = phase(s)
    over = step == OVER
    # the header
    if 2 <= players <= MAX_SEATS:
        out[PLAYERS_AT + players - 2] = 1.0
    out[ROUND_AT] = _ratio(s[TURNS] // players + (0 if over else 1), BY_50)
    out[FINAL_ROUND_AT] = 1.0 if s[GATES] else 0.0
    if step <= MEDAL:
        out[DECISION_AT + step + 1] = 1.0
    if viewer >= 0 and current_player(s) == viewer:
        out[MY_DECISION_AT] = 1.0
    # the options, the supply, the City tiles, the medals
    out[OPTIONS_AT] = 1.0 if s[MYSTERIES] else 0.0
    out[OPTIONS_AT + 1] = 1.0 if s[SHORT] else 0.0
    out[OPTIONS_AT + 2] = 1.0 if s[GATES] else 0.0
    for c in range(GOLD + 1):
        out[SUPPLY_AT + c] = _ratio(s[SUPPLY + c], BY_8)
    out[CITY_STACK_AT] = _ratio(s[STACK_N], BY_20)
    if s[MARKET_OPEN]:
        for i in range(min(s[MARKET_N], MARKET_SLOTS)):
            if s[MARKET + i] >= 0:
                out[MARKETPLACE_AT + i * RESOURCE_COUNT + s[MARKET + i]] = 1.0
    for i in range(s[MEDALS_N]):
        out[MEDALS_LEFT_AT + s[MEDALS_LEFT + i]] = 1.0
    # the spaces, and the Village tiles on them (face down: marked, never named)
    for i in range(s[SPACES_N]):
        at = SPACES_AT + i * SPACE_SIZE
        out[at] = 1.0
        out[at + 1 + s[SPACE_KIND + i]] = 1.0
    for v in range(s[A2_N]):
        if s[VILLAGE_TILE + v] >= 0:
            out[SPACES_AT + s[A2_VILLAGES + v] * SPACE_SIZE + 1 + KINDS_OF_SPACE] = 1.0
    for f in range(s[FLIPS_N]):
        at = SPACES_AT + s[A2_VILLAGES + s[FLIP_VILLAGE + f]] * SPACE_SIZE + 1 + KINDS_OF_SPACE
        out[at] = 0.0
        out[at + 1 + s[FLIP_TILE + f]] = 1.0
    # the roads
    for r in range(min(s[ROADS_N], MAX_ROADS)):
        at = ROADS_AT + r * ROAD_SIZE
        out[at] = 1.0
        out[at + 1] = _ratio(s[ROAD_START + r], BY_40)
        out[at + 2] = _ratio(s[ROAD_END + r], BY_40)
        cost = ROAD_COST + r * MAX_COST
        n = s[ROAD_COST_N + r]
        i = 0
        while i < n:  # the banner's colours are sorted: count each run
            c = s[cost + i]
            j = i + 1
            while j < n and s[cost + j] == c:
                j += 1
            out[at + 3 + c] = _ratio(j - i, BY_5)
            i = j
    # the seats, from the viewer's place on
    first = viewer if viewer >= 0 else 0
    palace = s[PALACE_AT]
    for k in range(players):
        p = (first + k) % players
        at = SEATS_AT + k * SEAT_SIZE
        out[at + s[SPACE + p]] = 1.0
        at += OBS_SPACES
        out[at] = 1.0
        out[at + 1] = 1.0 if s[SPACE + p] == palace else 0.0
        for t in range(GOLD + 1):
            out[at + 2 + t] = _ratio(s[PURSE + p * TOKENS + t], BY_8)
        out[at + 8] = _ratio(s[PURSE + p * TOKENS + TREASURE], BY_2)
        for c in range(RESOURCE_COUNT):
            out[at + 9 + c] = _ratio(s[ACTIVE + p * RESOURCE_COUNT + c], BY_4)
            out[at + 14 + c] = _ratio(s[USED + p * RESOURCE_COUNT + c], BY_4)
        if s[MEDAL_OF + p] >= 0:
            out[at + 19 + s[MEDAL_OF + p]] = 1.0
        out[at + 23] = 1.0 if s[GEM] == p else 0.0
    out[ORDER_AT + (first - s[FIRST]) % players] = 1.0


@njit(cache=True)
def batch_observe(states: np.ndarray, viewers: np.ndarray, out: np.ndarray) -> None:
    """Row ``i`` of ``out`` := seat ``viewers[i]``'s observation of the game in row ``i`` of ``states``."""
    for i in range(states.shape[0]):
        observe_into(states[i], viewers[i], out[i])
