"""A search by level or by budget: on the compiled engine where it can (``compiled``: about 35 times the
iterations a second in classic and Pokémon, 15 in Kids), else on the reference one (``reference``).

The compiled search plays wherever Numba can be imported, the game is one it plays and the evaluator is the
playouts; a level then spends its compiled budget and searches as its ``Level`` says (the expert: less
exploration, the learned evaluation or the plan). Otherwise the reference search plays, with its own budgets,
every level as hard does (the expert's evaluation needs the compiled search: it says so once).
"""

from __future__ import annotations

import importlib
import math
import random
import time
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.search.knowledge import knowledge_for
from splendor.search.levels import EXPLORATION, level, level_iterations
from splendor.search.reference import Evaluator, PlayoutEvaluator, ReferenceSearch, SearchResult

ENGINES = ("auto", "compiled", "reference")
"""Where the search runs: ``compiled`` when it can (``auto``), or by force either way (for comparisons)."""

_compiled_module: ModuleType | bool | None = None


def compiled_module() -> ModuleType | None:
    """The compiled search module (``splendor.search.compiled``), or None (with a warning, once) when Numba
    cannot be imported."""
    global _compiled_module
    if _compiled_module is None:
        try:
            module: ModuleType | bool = importlib.import_module("splendor.search.compiled")
        except ImportError as exc:  # Numba missing or broken: the reference search still plays
            warnings.warn(
                f"the compiled search is unavailable ({exc}); searching on the reference engine, "
                "about 35 times fewer iterations a second",
                RuntimeWarning,
                stacklevel=2,
            )
            module = False
        _compiled_module = module
    return _compiled_module if isinstance(_compiled_module, ModuleType) else None


def warm_compiled_search() -> None:
    """Load the compiled search now (compiling it, the first time on a machine, up to a minute on one core), by a short
    search of each game it plays; nothing when Numba is missing."""
    module = compiled_module()
    if module is not None:
        module.warm()


class Position(Protocol):
    """What a search is asked about: the game's name, the seat to decide, its legal actions, and a sampler of
    full states consistent with what the seat sees (a bot's ``Decision`` is one)."""

    @property
    def game(self) -> str: ...

    @property
    def seat(self) -> int: ...

    @property
    def legal(self) -> list[Action]: ...

    @property
    def sample(self) -> Callable[[random.Random], Game] | None: ...


class Searcher:
    """The search. ``iterations`` (reproducible with a seed) or ``seconds`` bound each decision; a ``level``
    spends that level's iterations for the game being played and the engine searched on (``level_iterations``)
    and searches as the level says. ``engine`` is one of ``ENGINES``: by default the compiled search wherever it
    applies (the default evaluator, a game the compiled engine plays, Numba importable). ``exploration``, when
    given, is the exploration constant at every level."""

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
        self._level_budget = level is not None and iterations is None and seconds is None
        if level is not None:
            budget = level_iterations(level)  # an unknown level is refused all the same
            iterations = budget if self._level_budget else iterations
        if iterations is None and seconds is None:
            iterations = level_iterations("medium")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be 1 or more")
        if engine not in ENGINES:
            raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
        self.engine = engine
        self.level = level
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.shares: bool | None = None
        """Whether the compiled search values an unfinished game of three or four by each seat's share of every
        seat's progress (`Level.shares`); None: as the level says (by the lead, without a level)."""
        self.evaluator: Evaluator = evaluator or PlayoutEvaluator()
        self._rng = random.Random(seed)
        self._warned = False

    def search(self, position: Position) -> SearchResult:
        """Run the search for this position and report every root action's statistics."""
        if position.sample is None:
            raise ValueError("the search needs a position that can sample states (a Decision made by decide())")
        rng = self._rng
        start = time.perf_counter()
        fast = self.compiled_for(position.game)
        if self.level is not None and self._level_budget:
            limit = level_iterations(self.level, position.game, compiled=fast is not None)
        else:
            limit = self.iterations if self.iterations is not None else 1 << 60
        if fast is not None:
            return self._search_compiled(fast, position, position.sample, limit, start)
        if self.level is not None and level(position.game, self.level).evaluation != "playouts" and not self._warned:
            warnings.warn(
                f"the {self.level} level's evaluation needs the compiled search; searching with playouts alone, "
                "on the reference engine",
                RuntimeWarning,
                stacklevel=2,
            )
            self._warned = True
        deadline = start + self.seconds if self.seconds is not None else math.inf
        exploration = EXPLORATION if self.exploration is None else self.exploration
        search = ReferenceSearch(exploration, self.evaluator)
        return search.run(position.sample, position.seat, position.legal, rng, limit, deadline, start)

    def compiled_for(self, game: str) -> ModuleType | None:
        """The compiled search module if this search runs on ``game`` there, else None; `ValueError` when the
        compiled engine was asked for and cannot serve."""
        if self.engine == "reference":
            return None
        reason = None
        module = compiled_module()
        if module is None:
            reason = "Numba cannot be imported"
        elif game not in module.GAMES:
            reason = f"the compiled search does not play {game!r} yet"
        elif type(self.evaluator) is not PlayoutEvaluator:
            reason = "the compiled search evaluates by playouts only"
        if reason is not None and self.engine == "compiled":
            raise ValueError(f"cannot search on the compiled engine: {reason}")
        return None if reason is not None else module

    def _search_compiled(
        self,
        module: ModuleType,
        position: Position,
        sample: Callable[[random.Random], Game],
        limit: int,
        start: float,
    ) -> SearchResult:
        """The search in compiled code from one determinization of the position (the compiled search deals the
        hidden cards anew every iteration, from what the seat sees only)."""
        rng = self._rng
        game = sample(rng)
        evaluator = self.evaluator
        assert isinstance(evaluator, PlayoutEvaluator)
        depth = knowledge_for(game.name).depth if evaluator.depth is None else evaluator.depth
        weights, scale, exploration, mix, plan = module.NO_WEIGHTS, evaluator.scale, EXPLORATION, 0.0, False
        shares, policy, network = False, module.NO_POLICY, module.NO_NETWORK
        if self.level is not None:
            found = level(game.name, self.level)
            depth = found.depth if found.depth is not None else depth
            scale = found.scale if found.scale is not None else scale
            exploration, mix, plan, shares = found.exploration, found.mix, found.plan, found.shares
            if found.learned:
                from splendor.search.learning.training import learned_weights

                weights = learned_weights(game.name)
            if found.policy:
                from splendor.search.learning.policy_training import learned_policy

                policy = learned_policy(game.name)
            if found.network:
                from splendor.search.learning.network import shipped_network

                network = shipped_network(game.name)
        exploration = exploration if self.exploration is None else self.exploration
        left = None if self.seconds is None else max(0.0, start + self.seconds - time.perf_counter())
        shares = shares if self.shares is None else self.shares
        settings = module.settings(exploration=exploration, depth=depth, scale=scale, mix=mix, shares=shares)
        found_stats, done = module.search(
            game,
            position.seat,
            rng.getrandbits(63),
            limit,
            left,
            settings=settings,
            weights=weights,
            plan=plan,
            policy=policy,
            network=network,
        )
        return SearchResult.ranked(position.legal, found_stats, done, start)
