"""Splendor Kids' compact action index for learners, as numbers: how many ways each banner can be paid and how many
integers the compact index spans.

The game's own index gives every road 6,096 payment codes (every way of spending 1 to 5 resources), so it is about
439,000 long. A road's banner allows far fewer: the compact index gives each road ``WAYS_PER_ROAD`` places, the
``k``-th being the banner's ``k``-th way of paying (``banner_ways``, in code order). The learners' index
(``splendor.envs.actions``) and the compiled one (``splendor.compiled.kids.compact``) both read these, so the two
can never disagree.

>>> banner_ways((0,))[:3], len(banner_ways((0, 1, 2, 3, 4))), COMPACT_COUNT
((0, 5, 10), 585, 42198)
"""

from __future__ import annotations

from functools import cache

from splendor.games.kids.notation import MAX_ROADS, MOVE_BASE, payments

WAYS_PER_ROAD = 585
"""The most ways any banner can be paid (five different resources): each road's room in the compact index."""

COMPACT_COUNT = MOVE_BASE + MAX_ROADS * WAYS_PER_ROAD
"""How many integers the compact index spans: the game's own fixed actions, then every road's ways of paying."""


@cache
def banner_ways(banner: tuple[int, ...]) -> tuple[int, ...]:
    """Every payment code a banner (sorted resource indices) allows, whatever a traveler holds, in code order."""
    return tuple(sorted(payments(banner, [5] * 6, [5] * 5, 2)))
