"""The floor: a uniformly random legal action."""

from __future__ import annotations

import random

from splendor.bots.base import Decision
from splendor.core.actions import Action


class RandomBot:
    """Picks uniformly among the legal actions, reproducibly for a seed."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, decision: Decision) -> Action:
        return decision.legal[self._rng.randrange(len(decision.legal))]
