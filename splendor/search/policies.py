"""The opponents a vectorised environment seats, played inside compiled code: ``random`` (uniform over the legal
actions), ``buyfirst`` (uniform over the buys, in Kids the moves, when there are any, else uniform), ``playout``
(the search's playout policy: ``splendor.search.market_compiled.playout_action`` and
``splendor.search.kids_compiled.playout_action``, which buy the most valuable card or move toward the Palace, else
take what their nearest goal needs) and, in classic Splendor only, ``greedy`` (the greedy bot's heuristic,
`splendor.search.greedy_compiled`: it plays what the reference greedy bot could play). ``splendor.bots.policy``
seats the same four in the arena and on a reference game, so what a learner meets here can be met and measured
there too.

Kids' playout policy needs each board's routes to the Palace; a seed draws one of the shipped boards (8 for the
full game, 4 for the short one), so `kids_routes` tables them all once, a row per board, and `kids_board_row`
finds a state's row from the sides it was dealt.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from splendor.compiled import kids as k
from splendor.compiled import market as m
from splendor.compiled.rng import below
from splendor.search import kids_compiled as kc
from splendor.search import market_compiled as mc
from splendor.search.greedy_compiled import greedy_action

OPPONENTS = ("random", "buyfirst", "playout", "greedy")
"""The opponents' policies by name; their codes are their places here."""
RANDOM, BUYFIRST, PLAYOUT, GREEDY = range(4)
GAMES = {"greedy": ("classic",)}
"""The games a policy plays where it does not play them all."""
SELF = -1
"""The code of a seat the learner plays itself (self-play)."""


def policy_code(name: str, game: str | None = None) -> int:
    """The code of an opponent's policy (a clear `ValueError` for an unknown one, or for one that does not play
    ``game``)."""
    if name not in OPPONENTS:
        raise ValueError(f"an opponent is one of {', '.join(OPPONENTS)}, not {name!r}")
    if game is not None and game not in GAMES.get(name, (game,)):
        raise ValueError(f"the {name} policy plays {' and '.join(GAMES[name])} only, not {game}")
    return OPPONENTS.index(name)


@njit(cache=True)
def market_action(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray, code: int, want: np.ndarray) -> int:
    """The action policy ``code`` plays in a card-market game, ``mask`` holding its ``count`` legal actions."""
    if code == PLAYOUT:
        return int(mc.playout_action(s, mask, count, rng, want))
    if code == GREEDY:
        return int(greedy_action(s, mask, count, rng))
    return int(m.choose(s, mask, count, rng, code == BUYFIRST))


@njit(cache=True)
def kids_action(
    s: np.ndarray,
    legal: np.ndarray,
    count: int,
    rng: np.ndarray,
    code: int,
    distance: np.ndarray,
    next_road: np.ndarray,
    need: np.ndarray,
    pay: np.ndarray,
) -> int:
    """The action (the game's own index) policy ``code`` plays in Splendor Kids, ``legal[:count]`` its legal
    actions; ``distance`` and ``next_road`` are the routes of this game's board (`kids_routes`)."""
    if code == PLAYOUT:
        return int(kc.playout_action(s, legal, count, rng, distance, next_road, need, pay))
    if code == BUYFIRST:
        return int(k.choose(s, legal, count, rng, True))
    return int(legal[below(rng, count)])


@njit(cache=True)
def kids_board_row(s: np.ndarray) -> int:
    """The row of ``shipped_blocks`` a state's board is: section i's side is bit i (0 front, 1 back)."""
    row = 0
    for i in range(s[k.SECTIONS_N]):
        row |= (s[k.SIDE_AT + i] & 1) << i
    return int(row)


@cache
def kids_routes(short: bool) -> tuple[np.ndarray, np.ndarray]:
    """The routes to the Palace of every board a seed can draw (rows as ``shipped_blocks(short)``): each space's
    cheapest cost (``distance``) and the next road of its cheapest route (``next_road``), by the state's space
    numbers, padded to ``MAX_SPACES``."""
    from splendor.games import new_game

    blocks = k.shipped_blocks(short)
    distance = np.zeros((blocks.shape[0], k.MAX_SPACES), dtype=np.float64)
    next_road = np.full((blocks.shape[0], k.MAX_SPACES), -1, dtype=np.int64)
    sections = ("A1", "A3") if short else tuple(k.SECTIONS)
    for row in range(blocks.shape[0]):
        refs = [f"{section}-{('front', 'back')[(row >> i) & 1]}" for i, section in enumerate(sections)]
        tables = k.board_tables(refs)
        if not np.array_equal(tables.block, blocks[row]):
            raise AssertionError(f"board row {row} is not the sides {refs}")
        route = kc.Route(new_game("kids", players=2, short=short, board=refs), tables)
        distance[row, : len(route.distance)] = route.distance
        next_road[row, : len(route.next_road)] = route.next_road
    return distance, next_road
