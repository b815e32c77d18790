"""A learned evaluation of classic and Pokémon positions, in compiled code: the expert level's ``progress``.

The hand-made ``progress`` (``splendor.search.market.progress``) counts points, 1.2 points a card bonus and a little
a token. Played against the strongest public AI, that evaluation showed its price: the search bought cheap
tier-1 cards for their bonus, reserved for the gold and rarely bought its reserves back (docs/bots.md). This
one is learned from self-play games (``training``): each seat's position is described by the
features below, and its progress is a weighted sum of them, the weights depending on the stage of the game
(how near the leader is to winning), so that a bonus can be worth much early and little late:

    progress(seat) = Σ_i (early_i + late_i · stage) · feature_i(seat)

A seat's win chance is then the logistic of its progress lead over the best other seat (``leads_into``,
scale 1: the weights carry the scale). The weights were fitted by logistic regression on who won the
self-play games, from positions of every stage; they ship as JSON beside this module (``weights/``).

    >>> FEATURES[:3]
    ('points', 'bonuses', 'bonus_breadth')
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled import market as m

FEATURES = (
    "points",
    "bonuses",
    "bonus_breadth",
    "tokens",
    "wild",
    "reserved",
    "ready_points",
    "near_market",
    "near_reserved",
    "engine",
    "goals",
    "to_move",
)
"""What the evaluation sees of a seat, in this order:

- ``points``: its points; ``bonuses``: its card bonuses (a double bonus counts two); ``bonus_breadth``: the
  bonuses of each colour counted up to three (breadth buys more cards than depth);
- ``tokens``: its plain tokens; ``wild``: its gold (master balls); ``reserved``: its reserved cards;
- ``ready_points``: the most points of a card it can buy now (the display and its reserve);
- ``near_market``, ``near_reserved``: for the three most promising cards of the display, and for each card
  in its reserve, the card's points plus one over one plus what the seat still lacks to buy it;
- ``engine``: how near its bonuses alone come to the display's cards of three points or more;
- ``goals``: what its bonuses alone are on the way to. Classic: for each noble on display, its points over one
  plus the bonuses the seat still lacks. Pokémon: for each Pokémon in its play area whose next evolution is on
  display or in its reserve, the points evolving gains over one plus the bonuses the evolution still lacks;
- ``to_move``: 1 for the seat whose decision it is.
"""

FEATURE_COUNT = len(FEATURES)


@njit(cache=True)
def _shortfall(s: np.ndarray, seat: int, cid: int, with_tokens: bool) -> int:
    """What the seat still lacks to buy card ``cid``: with its tokens and gold (``with_tokens``), or with its
    bonuses alone."""
    kind = s[m.KIND]
    short = m.CARD_COST[kind, cid, m.WILD]
    for c in range(m.WILD):
        have = s[m.BONUS + seat * 5 + c]
        if with_tokens:
            have += s[m.TOKENS + seat * m.COLOURS + c]
        d = m.CARD_COST[kind, cid, c] - have
        if d > 0:
            short += d
    if with_tokens:
        short -= s[m.TOKENS + seat * m.COLOURS + m.WILD]
    lacking: int = max(short, 0)
    return lacking


@njit(cache=True)
def _seen(s: np.ndarray, seat: int, i: int, viewer: int) -> bool:
    """Whether ``viewer`` sees the ``i``-th card ``seat`` reserved: its own always, another's unless it was
    reserved face down from a deck (ruling 5)."""
    return viewer == seat or s[m.SECRET + seat * m.RESERVE_LIMIT + i] == 0


@njit(cache=True)
def _evolutions(s: np.ndarray, seat: int, viewer: int) -> float:
    """Pokémon: for each of the seat's Pokémon whose next evolution is on display or in its reserve (as ``viewer``
    sees it), the points evolving gains over one plus the bonuses the evolution still lacks (``goals``)."""
    total = 0.0
    for i in range(s[m.BOUGHT_N + seat]):
        src = s[m.BOUGHT + seat * m.CARD_ROOM + i]
        into = m.EVOLVES_TO[src]
        if into < 0:
            continue
        target = -1
        row = m.CARD_ROW[m.POKEMON, src] + 1
        for slot in range(m.SLOTS_PER_ROW):
            cid = s[m.ROWS + row * m.SLOTS + slot]
            if cid >= 0 and m.POKEMON_NAME[cid] == into:
                target = cid
        for k in range(s[m.RESERVED_N + seat]):
            cid = s[m.RESERVED + seat * m.RESERVE_LIMIT + k]
            if _seen(s, seat, k, viewer) and m.POKEMON_NAME[cid] == into:
                target = cid
        if target < 0:
            continue
        lack = max(0, m.EVOLVE_COUNT[src] - s[m.BONUS + seat * 5 + m.EVOLVE_BONUS[src]])
        total += (m.CARD_POINTS[m.POKEMON, target] - m.CARD_POINTS[m.POKEMON, src]) / (1.0 + lack)
    return total


@njit(cache=True)
def features_into(s: np.ndarray, seat: int, out: np.ndarray) -> None:
    """``out`` := the features of ``seat`` in state ``s`` (``FEATURES``, in order), as the seat itself sees them."""
    features_seen_into(s, seat, seat, out)


@njit(cache=True)
def features_seen_into(s: np.ndarray, seat: int, viewer: int, out: np.ndarray) -> None:
    """``out`` := the features of ``seat`` in state ``s`` as ``viewer`` sees them: a card another seat reserved
    face down from a deck counts in ``reserved`` only (its points and cost are hidden), so that what the viewer
    cannot see never reaches a network fed with them (``network.inputs_into``)."""
    kind = s[m.KIND]
    out[:] = 0.0
    out[0] = s[m.POINTS + seat]
    for c in range(m.WILD):
        b = s[m.BONUS + seat * 5 + c]
        out[1] += b
        out[2] += min(b, 3)
        out[3] += s[m.TOKENS + seat * m.COLOURS + c]
    out[4] = s[m.TOKENS + seat * m.COLOURS + m.WILD]
    n_reserved = s[m.RESERVED_N + seat]
    out[5] = n_reserved
    top1, top2, top3 = 0.0, 0.0, 0.0
    for r in range(m.ROW_COUNT[kind]):
        for slot in range(m.ROW_SIZE[kind, r]):
            cid = s[m.ROWS + r * m.SLOTS + slot]
            if cid < 0:
                continue
            points = m.CARD_POINTS[kind, cid]
            short = _shortfall(s, seat, cid, True)
            if short == 0 and points > out[6]:
                out[6] = points
            near = (points + 1.0) / (1.0 + short)
            if near > top1:
                top1, top2, top3 = near, top1, top2
            elif near > top2:
                top2, top3 = near, top2
            elif near > top3:
                top3 = near
            if points >= 3:
                out[9] += 1.0 / (1.0 + _shortfall(s, seat, cid, False))
    out[7] = top1 + top2 + top3
    for i in range(n_reserved):
        if not _seen(s, seat, i, viewer):
            continue
        cid = s[m.RESERVED + seat * m.RESERVE_LIMIT + i]
        points = m.CARD_POINTS[kind, cid]
        short = _shortfall(s, seat, cid, True)
        if short == 0 and points > out[6]:
            out[6] = points
        out[8] += (points + 1.0) / (1.0 + short)
    if kind == m.POKEMON:
        out[10] = _evolutions(s, seat, viewer)
    else:
        for i in range(s[m.NOBLES_N]):
            noble = s[m.NOBLES_AT + i]
            lack = 0
            for c in range(m.WILD):
                d = m.NOBLE_REQUIRES[noble, c] - s[m.BONUS + seat * 5 + c]
                if d > 0:
                    lack += d
            out[10] += m.NOBLE_POINTS[noble] / (1.0 + lack)
    if s[m.PHASE] != m.OVER and s[m.SEAT] == seat:
        out[11] = 1.0


@njit(cache=True)
def stage(s: np.ndarray) -> float:
    """How near the game is to its end: the leader's points over the points that win (capped at 1)."""
    best = 0
    for p in range(s[m.PLAYERS]):
        best = max(best, s[m.POINTS + p])
    near: float = min(1.0, best / m.WIN_POINTS[s[m.KIND]])
    return near


@njit(cache=True)
def learned_progress(s: np.ndarray, seat: int, weights: np.ndarray, scratch: np.ndarray) -> float:
    """The seat's progress under ``weights`` (shape (2, FEATURE_COUNT): the early and the late weights)."""
    features_into(s, seat, scratch)
    t = stage(s)
    total = 0.0
    for i in range(FEATURE_COUNT):
        total += (weights[0, i] + weights[1, i] * t) * scratch[i]
    return total
