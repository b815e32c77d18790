"""A Splendor Kids board as the compiled state holds it: the block of the state before the game (roads, banners,
kinds of space, the A2 villages, the sides), made once per board, and the names that turn it back into the
reference's words."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from splendor.compiled.kids.layout import (
    A2_N,
    A2_VILLAGES,
    BOARD_END,
    KIND_NAMES,
    MAX_SPACES,
    PALACE_AT,
    PORT_AT,
    ROAD_COST,
    ROAD_COST_N,
    ROAD_END,
    ROAD_START,
    ROADS_N,
    SECTIONS_N,
    SIDE_AT,
    SPACE_KIND,
    SPACES_N,
    VILLAGE_ROOM,
)
from splendor.games.kids.board import (
    MAX_COST,
    SECTIONS,
    SHIPPED_SIDES,
    SIDES,
    Board,
    assemble,
)


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
