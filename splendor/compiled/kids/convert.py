"""A compiled Splendor Kids state to and from the reference game's ``_state()``, on the board of its tables: how
``splendor.compiled`` turns a game both ways, which is how the tests prove the engines equal."""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.compiled.kids.board import BoardTables
from splendor.compiled.kids.layout import (
    ACTIVE,
    ASIDE,
    ASIDE_N,
    BOARD_END,
    BOXED,
    BOXED_N,
    BOXED_TREASURES,
    CAPPED,
    COINS,
    DROUGHT,
    EFFECTS,
    FIRST,
    FLIP_TILE,
    FLIP_VILLAGE,
    FLIPS_N,
    GATES,
    GEM,
    MARKET,
    MARKET_N,
    MARKET_OPEN,
    MAX_TURNS,
    MEDAL_OF,
    MEDALS_LEFT,
    MEDALS_N,
    MYSTERIES,
    PENDING,
    PENDING_N,
    PLAYERS,
    PURSE,
    RETURN,
    SEAT,
    SHORT,
    SPACE,
    STACK,
    STACK_N,
    STATE_SIZE,
    STEP_NAMES,
    SUPPLY,
    TOKENS,
    TURNS,
    USED,
    VILLAGE_TILE,
    WINNERS,
    WINNERS_N,
)
from splendor.games.kids.notation import RESOURCE_COUNT


def _step_names(s: np.ndarray) -> list[list[Any]]:
    out: list[list[Any]] = []
    for i in range(int(s[PENDING_N])):
        step_, arg = int(s[PENDING + 2 * i]), int(s[PENDING + 2 * i + 1])
        out.append([STEP_NAMES[step_], arg] if step_ in (RETURN, DROUGHT) else [STEP_NAMES[step_]])
    return out


def from_state(players: int, options: dict[str, Any], state: dict[str, Any], tables: BoardTables) -> np.ndarray:
    """The array of a reference game's ``_state()`` on the board of ``tables``."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[:BOARD_END] = tables.block
    ids, villages = tables.space_ids, tables.village_ids
    s[SEAT], s[TURNS], s[FIRST] = state["seat"], state["turns"], state["first"]
    s[GATES], s[CAPPED] = state["gates_closed"], state["capped"]
    s[GEM] = -1 if state["gem"] is None else state["gem"]
    s[MARKET_OPEN], s[BOXED_TREASURES] = state["market_open"], state["boxed_treasures"]
    s[PLAYERS] = players
    s[MAX_TURNS] = -1 if options["max_turns"] is None else options["max_turns"]
    s[MYSTERIES], s[SHORT] = options["mysteries"], options["short"]
    s[SUPPLY : SUPPLY + COINS] = state["supply"]
    for p in range(players):
        s[PURSE + p * TOKENS : PURSE + (p + 1) * TOKENS] = state["purse"][p]
        s[ACTIVE + p * RESOURCE_COUNT : ACTIVE + (p + 1) * RESOURCE_COUNT] = state["active"][p]
        s[USED + p * RESOURCE_COUNT : USED + (p + 1) * RESOURCE_COUNT] = state["used"][p]
        s[SPACE + p] = ids.index(state["space"][p])
        s[MEDAL_OF + p] = -1 if state["medal"][p] is None else state["medal"][p]
    for at, n_at, values in (
        (STACK, STACK_N, state["stack"]),
        (MARKET, MARKET_N, state["market"]),
        (ASIDE, ASIDE_N, [EFFECTS.index(t) for t in state["aside"]]),
        (BOXED, BOXED_N, state["boxed_tiles"]),
        (MEDALS_LEFT, MEDALS_N, state["medals_left"]),
        (WINNERS, WINNERS_N, state["winners"]),
    ):
        s[n_at] = len(values)
        s[at : at + len(values)] = values
    s[PENDING_N] = len(state["pending"])
    for i, entry in enumerate(state["pending"]):
        s[PENDING + 2 * i] = STEP_NAMES.index(entry[0])
        s[PENDING + 2 * i + 1] = entry[1] if len(entry) > 1 else -1
    for i, v in enumerate(villages):
        s[VILLAGE_TILE + i] = EFFECTS.index(state["village_tiles"][v]) if v in state["village_tiles"] else -1
    s[FLIPS_N] = len(state["flipped"])
    for i, (v, tile) in enumerate(state["flipped"].items()):
        s[FLIP_VILLAGE + i], s[FLIP_TILE + i] = villages.index(v), EFFECTS.index(tile)
    return s


def _ints(s: np.ndarray, at: int, n: int) -> list[int]:
    return [int(x) for x in s[at : at + n]]


def to_state(s: np.ndarray, tables: BoardTables) -> dict[str, Any]:
    """The reference game's ``_state()`` of an array on the board of ``tables``."""
    players = int(s[PLAYERS])
    ids, villages = tables.space_ids, tables.village_ids
    winners = _ints(s, WINNERS, int(s[WINNERS_N]))
    return {
        "seat": int(s[SEAT]),
        "turns": int(s[TURNS]),
        "first": int(s[FIRST]),
        "gates_closed": bool(s[GATES]),
        "capped": bool(s[CAPPED]),
        "gem": None if s[GEM] < 0 else int(s[GEM]),
        "market_open": bool(s[MARKET_OPEN]),
        "boxed_treasures": int(s[BOXED_TREASURES]),
        "supply": _ints(s, SUPPLY, COINS),
        "purse": [_ints(s, PURSE + p * TOKENS, TOKENS) for p in range(players)],
        "active": [_ints(s, ACTIVE + p * RESOURCE_COUNT, RESOURCE_COUNT) for p in range(players)],
        "used": [_ints(s, USED + p * RESOURCE_COUNT, RESOURCE_COUNT) for p in range(players)],
        "space": [ids[int(s[SPACE + p])] for p in range(players)],
        "stack": _ints(s, STACK, int(s[STACK_N])),
        "market": _ints(s, MARKET, int(s[MARKET_N])),
        "aside": [EFFECTS[t] for t in _ints(s, ASIDE, int(s[ASIDE_N]))],
        "boxed_tiles": _ints(s, BOXED, int(s[BOXED_N])),
        "medals_left": _ints(s, MEDALS_LEFT, int(s[MEDALS_N])),
        "medal": [None if s[MEDAL_OF + p] < 0 else int(s[MEDAL_OF + p]) for p in range(players)],
        "pending": _step_names(s),
        "winners": winners,
        "side_refs": list(tables.side_refs),
        "village_tiles": {
            v: EFFECTS[int(s[VILLAGE_TILE + i])] for i, v in enumerate(villages) if s[VILLAGE_TILE + i] >= 0
        },
        "flipped": {villages[int(s[FLIP_VILLAGE + i])]: EFFECTS[int(s[FLIP_TILE + i])] for i in range(int(s[FLIPS_N]))},
    }
