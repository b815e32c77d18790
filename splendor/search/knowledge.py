"""The search's knowledge of each game, on the reference engine, one record a game: how to play a position out
quickly, how far to play it, and how to score where the playout stops. Each game states it once, in its own
module (``market``, ``kids``), and again in compiled code beside it (``market_compiled``, ``kids_compiled``).
The rules classes keep only the rules; this is the search's judgement.

    >>> knowledge_for("kids").depth
    30
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.search import kids, market


@dataclass(frozen=True)
class Knowledge:
    """A game's playout policy (a quick, plausible action for the seat to move; it reads the whole state, so
    it runs only on determinizations), the decisions a playout plays, and the progress estimate that scores
    where it stops (per seat, bigger is better, about one unit per turn of advantage; never shown to
    players)."""

    action: Callable[[Game, random.Random], Action]
    progress: Callable[[Game], list[float]]
    depth: int


MARKET = Knowledge(market.playout_action, market.progress, market.DEPTH)
"""Classic Splendor and Splendor: Pokémon."""

KIDS = Knowledge(kids.playout_action, kids.progress, kids.DEPTH)
"""Splendor Kids."""

KNOWLEDGE: dict[str, Knowledge] = {"classic": MARKET, "pokemon": MARKET, "kids": KIDS}
"""Each game's knowledge, by the game's name."""


def knowledge_for(game: str) -> Knowledge:
    """The knowledge of ``game`` (by its name); `ValueError` for a game the search does not know."""
    try:
        return KNOWLEDGE[game]
    except KeyError:
        raise ValueError(f"the search knows no playout for {game!r}; it knows {', '.join(KNOWLEDGE)}") from None
