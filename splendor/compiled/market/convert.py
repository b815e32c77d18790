"""A compiled card-market state to and from the reference game's ``_state()``: how ``splendor.compiled`` turns a
game both ways, which is how the tests prove the engines equal."""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.compiled.market.layout import (
    BONUS,
    BOUGHT,
    BOUGHT_N,
    CAPPED,
    CARD_ROOM,
    CLASSIC,
    COLOURS,
    DECK_N,
    DECK_ROOM,
    DECKS,
    FINAL,
    FIRST,
    KIND,
    MAX_TURNS,
    NOBLE_ROOM,
    NOBLES_AT,
    NOBLES_N,
    PASSES,
    PHASE,
    PLAIN,
    PLAYERS,
    POINTS,
    RESERVED,
    RESERVED_N,
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
    WINNERS,
    WINNERS_N,
)
from splendor.games.market import RESERVE_LIMIT

# ----------------------------------------------------------------------------- to and from the reference


def _put(s: np.ndarray, at: int, values: list[int]) -> None:
    s[at : at + len(values)] = values


def from_state(kind: int, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
    """The array of a reference game's ``_state()``."""
    s = np.zeros(SIZE, dtype=np.int64)
    _put(s, SUPPLY, state["supply"])
    for p in range(players):
        _put(s, TOKENS + p * COLOURS, state["tokens"][p])
        _put(s, BONUS + p * PLAIN, state["bonuses"][p])
        s[POINTS + p] = state["points"][p]
        s[BOUGHT_N + p] = len(state["bought"][p])
        _put(s, BOUGHT + p * CARD_ROOM, state["bought"][p])
        hand = state["reserved"][p]
        s[RESERVED_N + p] = len(hand)
        _put(s, RESERVED + p * RESERVE_LIMIT, hand)
        _put(s, SECRET + p * RESERVE_LIMIT, [int(cid in state["secret"]) for cid in hand])
        if kind == CLASSIC:
            s[SEAT_NOBLES_N + p] = len(state["seat_nobles"][p])
            _put(s, SEAT_NOBLES + p * NOBLE_ROOM, state["seat_nobles"][p])
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
        "bonuses": [_list(s, BONUS + p * PLAIN, PLAIN) for p in seats],
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
        state["seat_nobles"] = [_list(s, SEAT_NOBLES + p * NOBLE_ROOM, s[SEAT_NOBLES_N + p]) for p in seats]
    else:
        state["under_tile"] = [_list(s, UNDER + p * CARD_ROOM, s[UNDER_N + p]) for p in seats]
    return state
