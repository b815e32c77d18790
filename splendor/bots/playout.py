"""The search's knowledge of each game, on the reference engine: how to play a position out quickly, how far
to play it, and how to score where the playout stops (``compiled_market`` and ``compiled_kids`` hold the same
in compiled code). The rules classes keep only the rules; this is the bots' judgement.

    >>> playout_for("kids").depth
    30
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from splendor.bots import kids_playout, market_playout
from splendor.core.actions import Action
from splendor.core.game import Game


@dataclass(frozen=True)
class Playout:
    """A game's playout policy (a quick, plausible action for the seat to move; it reads the whole state, so
    it runs only on determinizations), the decisions a playout plays, and the progress estimate that scores
    where it stops (per seat, bigger is better, about one unit per turn of advantage; never shown to
    players)."""

    action: Callable[[Game, random.Random], Action]
    progress: Callable[[Game], list[float]]
    depth: int


MARKET = Playout(market_playout.playout_action, market_playout.progress, market_playout.DEPTH)
PLAYOUTS: dict[str, Playout] = {
    "classic": MARKET,
    "pokemon": MARKET,
    "kids": Playout(kids_playout.playout_action, kids_playout.progress, kids_playout.DEPTH),
}


def playout_for(game: str) -> Playout:
    """The playout knowledge of ``game`` (by its name); `ValueError` for a game the search does not know."""
    try:
        return PLAYOUTS[game]
    except KeyError:
        raise ValueError(f"the search knows no playout for {game!r}; it knows {', '.join(PLAYOUTS)}") from None
