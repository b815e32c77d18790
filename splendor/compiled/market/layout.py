"""The layout of a compiled card-market state (classic Splendor or Splendor: Pokémon): one flat ``int64`` array,
its ``KIND`` entry saying which game, and the sizes its parts are given room for."""

from __future__ import annotations

import numpy as np

from splendor.games.classic.cards import PALETTE as CLASSIC_PALETTE
from splendor.games.classic.game import ClassicGame
from splendor.games.classic.notation import LAYOUT as CLASSIC_LAYOUT
from splendor.games.market import EXTRA_PHASE, RESERVE_LIMIT, RETURN
from splendor.games.pokemon.cards import PALETTE as POKEMON_PALETTE
from splendor.games.pokemon.game import PokemonGame
from splendor.games.pokemon.notation import LAYOUT as POKEMON_LAYOUT

CLASSIC, POKEMON = 0, 1
KINDS = {"classic": CLASSIC, "pokemon": POKEMON}
LAYOUTS = (CLASSIC_LAYOUT, POKEMON_LAYOUT)  # [kind]

# Decision phases beside ``games/market.py``'s MAIN and OVER, under the names the kernel gives them (its RETURN is
# the return actions' first index).
RETURN_PHASE = RETURN
CHOICE = EXTRA_PHASE  # classic's noble choice or Pokémon's evolution

COLOURS = len(CLASSIC_PALETTE.names)  # five plain colours, the wild one (gold, master ball) last
WILD = CLASSIC_PALETTE.wild
PLAIN = WILD  # the plain colours, those before the wild one: a bonus is of one of them
assert len(POKEMON_PALETTE.names) == COLOURS and POKEMON_PALETTE.wild == WILD == COLOURS - 1
MAX_SEATS = max(ClassicGame.max_players, PokemonGame.max_players)
MAX_ROWS = max(len(layout.sizes) for layout in LAYOUTS)
SLOTS = max(max(layout.sizes) for layout in LAYOUTS)
DECK_ROOM, CARD_ROOM = 40, 90
NOBLE_ROOM = MAX_SEATS + 1  # classic lays out one noble more than the players
ROW_COUNT = np.array([len(layout.sizes) for layout in LAYOUTS], dtype=np.int64)
ROW_SIZE = np.array(
    [layout.sizes + (0,) * (MAX_ROWS - len(layout.sizes)) for layout in LAYOUTS],
    dtype=np.int64,
)

SUPPLY = 0  # colour
TOKENS = SUPPLY + COLOURS  # seat * 6 + colour
BONUS = TOKENS + MAX_SEATS * COLOURS  # seat * 5 + colour
POINTS = BONUS + MAX_SEATS * PLAIN  # seat
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
SEAT_NOBLES_N = NOBLES_AT + NOBLE_ROOM
SEAT_NOBLES = SEAT_NOBLES_N + MAX_SEATS  # seat * 5 + i
WINNERS_N = SEAT_NOBLES + MAX_SEATS * NOBLE_ROOM
WINNERS = WINNERS_N + 1
SEAT = WINNERS + MAX_SEATS
PHASE, TURNS, FINAL, FIRST, PASSES, CAPPED, STALLED, PLAYERS, MAX_TURNS, KIND = range(SEAT + 1, SEAT + 11)
SIZE = KIND + 1
