"""The card-market games' action indices as the compiled kernel reads them, from the reference's action tables:
where each kind of action starts, by ``[kind]`` where the two games differ, and the colours of each take."""

from __future__ import annotations

import numpy as np

from splendor.compiled.market.layout import MAX_ROWS, POKEMON, ROW_COUNT
from splendor.games.classic.notation import ACTIONS as CLASSIC_ACTIONS
from splendor.games.pokemon.cards import CARDS as POKEMON_CARDS
from splendor.games.pokemon.notation import ACTIONS as POKEMON_ACTIONS
from splendor.games.pokemon.notation import TARGETS

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
ROW_BUY = np.zeros((len(TABLES), MAX_ROWS), dtype=np.int64)  # a row's first buy, after BUY
for _kind, _t in enumerate(TABLES):
    for _r in range(ROW_COUNT[_kind]):
        ROW_BUY[_kind, _r] = _t.get("buy", _r, 0).index - BUY
BUY_RESERVED = np.array([t.get("buy_reserved", 0).index for t in TABLES], dtype=np.int64)
RETURN = np.array([t.get("return", 0).index for t in TABLES], dtype=np.int64)
EXTRA = np.array(
    [CLASSIC_ACTIONS.get("noble", 0).index, POKEMON_ACTIONS.get("evolve", 0, 0).index],
    dtype=np.int64,
)
EVOLVE_NONE = POKEMON_ACTIONS.get("evolve_none").index
PASS = np.array([t.get("pass").index for t in TABLES], dtype=np.int64)
for _t in TABLES:
    assert _t.get("take", 0, 1, 2).index == TAKE3_FIRST and _t.get("take2", 0).index == TAKE2
    assert _t.get("reserve_deck", 2).index == RESERVE + 14 and _t.get("buy", 0, 0).index == BUY
assert POKEMON_ACTIONS.get("buy", 4, 0).index == BUY + ROW_BUY[POKEMON, 4]

# Pokémon's evolutions: a card's first evolve action (+ target), and the card each block of TARGETS evolves.
EVOLVE_AT = np.full(len(POKEMON_CARDS), -1, dtype=np.int64)
EVOLVE_SOURCE = np.zeros(len(POKEMON_CARDS), dtype=np.int64)
for _a in POKEMON_ACTIONS:
    if _a.kind == "evolve" and _a.args[1] == 0:
        EVOLVE_AT[_a.args[0]] = _a.index
        EVOLVE_SOURCE[(_a.index - POKEMON_ACTIONS.get("evolve", 0, 0).index) // TARGETS] = _a.args[0]
