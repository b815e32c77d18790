"""The layout of a compiled Splendor Kids state: one flat ``int64`` array, the board first (its roads, their
banners, the kinds of its spaces, the villages of section A2), then the game; and the codes its entries hold
(village tiles, kinds of space, the steps of the queue)."""

from __future__ import annotations

import numpy as np

from splendor.games.kids.board import KINDS, MAX_COST
from splendor.games.kids.game import CITY_TILES_PER_COLOUR, EFFECT_NAMES, VILLAGE_TILES
from splendor.games.kids.notation import (
    GOLD,
    MARKET_SLOTS,
    MAX_ROADS,
    MAX_SEATS,
    MEDALS,
    RESOURCE_COUNT,
    TOKEN_NAMES,
)

TOKENS = len(TOKEN_NAMES)  # a purse's kinds of token: the five resources, gold, the Treasure
COINS = GOLD + 1  # the supply's kinds of token: the five resources and gold
MAX_SPACES = 128
STACK_ROOM = RESOURCE_COUNT * CITY_TILES_PER_COLOUR
VILLAGE_ROOM = len(VILLAGE_TILES)  # the A2 villages that can hold a tile, the tiles set aside
PENDING_ROOM = 12

# The village tiles, in the reference's order of effects.
EFFECTS = tuple(EFFECT_NAMES)
TORNADO, TREASURE_TILE, DROUGHT_TILE, THIEF_TILE, QUEENS_GEM = range(len(EFFECTS))
VILLAGE_TILE_IDS = np.array([EFFECTS.index(t) for t in VILLAGE_TILES], dtype=np.int64)

# The kinds of space, as the board names them.
KIND_NAMES = KINDS
PORT, CITY, VILLAGE, PALACE = range(len(KIND_NAMES))

# Steps of the queue, as the reference names them; an argument (a seat) or -1.
STEP_NAMES = (
    "return",
    "drought",
    "thief",
    "city",
    "medal",
    "extra_turn",
    "end_turn",
    "over",
)
RETURN, DROUGHT, THIEF, CITY_STEP, MEDAL, EXTRA_TURN, END_TURN, OVER = range(len(STEP_NAMES))
ACTION = -1  # the phase when nothing waits: a main action

# ----------------------------------------------------------------------------- the board

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

# ----------------------------------------------------------------------------- the game

(
    SEAT,
    TURNS,
    FIRST,
    GATES,
    CAPPED,
    GEM,
    MARKET_OPEN,
    BOXED_TREASURES,
    PLAYERS,
    MAX_TURNS,
    MYSTERIES,
    SHORT,
) = range(BOARD_END, BOARD_END + 12)
SUPPLY = SHORT + 1
PURSE = SUPPLY + COINS  # seat * 7 + token (5 resources, gold, the Treasure)
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
