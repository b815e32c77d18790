"""The cards and nobles of the card-market games as the compiled kernel reads them: tables indexed by
``[kind, card id]`` (classic, Pokémon), Pokémon's evolution lines by name, and classic's nobles."""

from __future__ import annotations

import numpy as np

from splendor.compiled.market.layout import CARD_ROOM, CLASSIC, COLOURS, KINDS, POKEMON
from splendor.games.classic.cards import CARDS as CLASSIC_CARDS
from splendor.games.classic.cards import NOBLES
from splendor.games.pokemon.cards import CARDS as POKEMON_CARDS

CARD_COUNT = np.array([len(CLASSIC_CARDS), len(POKEMON_CARDS)], dtype=np.int64)
CARD_ROW = np.zeros((len(KINDS), CARD_ROOM), dtype=np.int64)
CARD_POINTS = np.zeros((len(KINDS), CARD_ROOM), dtype=np.int64)
CARD_BONUS = np.zeros((len(KINDS), CARD_ROOM), dtype=np.int64)
CARD_BONUS_COUNT = np.zeros((len(KINDS), CARD_ROOM), dtype=np.int64)
CARD_COST = np.zeros((len(KINDS), CARD_ROOM, COLOURS), dtype=np.int64)  # the wild column: paid with wild tokens only
for _kind, _cards in ((CLASSIC, CLASSIC_CARDS), (POKEMON, POKEMON_CARDS)):
    for _c in _cards:
        CARD_ROW[_kind, _c.id], CARD_POINTS[_kind, _c.id] = _c.row, _c.points
        CARD_BONUS[_kind, _c.id], CARD_BONUS_COUNT[_kind, _c.id] = (
            _c.bonus,
            _c.bonus_count,
        )
        CARD_COST[_kind, _c.id, :] = _c.cost

_NAMES = {name: i for i, name in enumerate(sorted({c.name for c in POKEMON_CARDS}))}
POKEMON_NAME = np.array([_NAMES[c.name] for c in POKEMON_CARDS], dtype=np.int64)
EVOLVES_TO = np.array(
    [_NAMES[c.evolves_to] if c.evolves_to else -1 for c in POKEMON_CARDS],
    dtype=np.int64,
)
EVOLVE_BONUS = np.array([c.evolve_bonus for c in POKEMON_CARDS], dtype=np.int64)
EVOLVE_COUNT = np.array([c.evolve_count for c in POKEMON_CARDS], dtype=np.int64)

NOBLE_COUNT = len(NOBLES)
NOBLE_POINTS = np.array([n.points for n in NOBLES], dtype=np.int64)
NOBLE_REQUIRES = np.array([n.requires for n in NOBLES], dtype=np.int64)
