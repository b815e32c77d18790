"""The search bot: the front door of ``splendor.search`` for the bot protocol (``make_bot("ismcts:hard")``).

The search itself, its levels and what it knows of each game are the search layer's (``splendor.search``: the
readable algorithm in ``reference``, the compiled one in ``compiled``, the levels in ``levels``); this module
only names the bot and answers a ``Decision`` with the search's best action.
"""

from __future__ import annotations

from splendor.bots.base import Decision
from splendor.core.actions import Action
from splendor.search.reference import Evaluator
from splendor.search.searcher import Searcher, warm_compiled_search

__all__ = ["SearchBot", "warm_compiled_search"]


class SearchBot(Searcher):
    """The ISMCTS bot (``splendor.search.searcher.Searcher``, which takes the same arguments), named by its
    level (``ismcts:hard``, ``ismcts:hard/0.5`` when bound by the clock) or ``ismcts``."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        level: str | None = None,
        exploration: float | None = None,
        evaluator: Evaluator | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__(seed, iterations, seconds, level, exploration, evaluator, engine)
        self.name = (f"ismcts:{level}" if level else "ismcts") + (f"/{seconds:g}" if level and seconds else "")

    def choose(self, decision: Decision) -> Action:
        """The search's best action (the only one, unsearched, when there is one; but a question whether to evolve
        is searched whatever its choices: answered at once when 'evolve none' is all a seat may say, it would tell
        by its speed that the card the seat reserved from a deck is no evolution, ruling 5)."""
        if len(decision.legal) == 1 and decision.view.get("decision") != "evolve":
            return decision.legal[0]
        return self.search(decision).best
