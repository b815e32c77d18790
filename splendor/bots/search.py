"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012).

Each iteration deals a full state consistent with what the bot's seat sees (``Decision.sample``: the engine's
``determinize``), walks a tree of actions with PUCT using availability counts (an action is only a candidate in
the determinizations where it is legal), adds one node, plays out with the game's playout policy for at most
``depth`` decisions, and scores the end with the game's ``progress`` estimate (or the real result when the game
ended). Every seat's decisions are in the tree, each node scored for the seat that chose it. What the search
knows of each game (the playout policy, its depth, the progress estimate) is in ``splendor.bots.playout``.

The evaluation is a plug-in (`Evaluator`): the default gives priors from the kinds of the actions and values from
playouts; a learned policy-and-value network can replace both, as AlphaZero does.

The same search runs in compiled code (``splendor.bots.compiled_search``: about 35 times the iterations a second
in classic and Pokémon, 15 in Kids), and the hard level spends that speed on more iterations
(``COMPILED_LEVELS``). Without Numba, or with another evaluator, this module's Python
search on the reference engine plays instead.
"""

from __future__ import annotations

import importlib
import math
import random
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from splendor.bots.base import Decision
from splendor.bots.playout import playout_for
from splendor.core.actions import Action
from splendor.core.game import Game

LEVELS: dict[str, int] = {"easy": 40, "medium": 250, "hard": 2500, "expert": 2500}
"""Iterations per decision for each level (hard stays under one second a move on one core of this machine).
These are the budgets of the search in Python; expert's learned evaluation needs the compiled search, so
without Numba expert searches as hard does (with a warning)."""

GAME_LEVELS: dict[str, dict[str, int]] = {"kids": {"easy": 10, "medium": 60, "hard": 2000}}
"""A game's own budgets where the common ones do not fit it. Kids: its playouts run to the Palace, so hard
spends fewer iterations to keep to one second a move; and two good travelers often reach the Palace in the
same round and share the win, so the lower levels are set further apart (with 40 and 250, medium beat easy
outright in 31 of 60 games and hard beat medium in 27, the rest mostly shared)."""


COMPILED_LEVELS: dict[str, int] = {"easy": 40, "medium": 250, "hard": 60000, "expert": 110000}
"""Iterations per decision when the search runs in compiled code: hard spends the compiled engine's speed on 24
times the iterations, still under one second a move (docs/bots.md); easy and medium keep their budgets, so
they stay the gentle opponents they were."""

COMPILED_GAME_LEVELS: dict[str, dict[str, int]] = {
    "kids": {"easy": 10, "medium": 60, "hard": 20000, "expert": 60000},
    "pokemon": {"expert": 75000},
}
"""A game's own compiled budgets: Kids' playouts are longer (to the Palace), so hard spends ten times its Python
budget rather than 24; a Pokémon iteration costs about a fifth more than a classic one (and its expert also
evaluates each new leaf), so expert spends fewer there to stay under a second a move."""


@dataclass(frozen=True)
class ExpertSearch:
    """How the expert level searches a game, where it differs from the other levels: its playout depth (None:
    the game's own, ``splendor.bots.playout``), its exploration constant, whether it scores positions with
    the evaluation learned by self-play (``splendor.bots.training``) instead of the hand-made ``progress``,
    whether it plays out and scores Kids by the plan of each traveler's turns to the Palace
    (``compiled_kids_turns``), the scale of the logistic that turns a lead into a win chance (None: the
    evaluator's), and how much of an iteration's value is the new leaf's own evaluation rather than the
    playout's end (``mix``, ``compiled_search.iterate``; 0: the playout's end alone)."""

    depth: int | None = None
    exploration: float = 3.0
    learned: bool = False
    plan: bool = False
    scale: float | None = None
    mix: float = 0.0


EXPERT: dict[str, ExpertSearch] = {
    "classic": ExpertSearch(exploration=1.5, learned=True),
    "pokemon": ExpertSearch(exploration=1.5, learned=True, mix=0.5),
    "kids": ExpertSearch(depth=8, exploration=1.5, plan=True, scale=0.7),
}
"""The expert level's search by game (docs/bots.md: what each choice won in matches at equal time). Pokémon
values a leaf half by its own learned evaluation, half by the playout's end (classic was matched against the
anchor without it). Kids has no learned evaluation: it plans each traveler's race exactly, and a lead of one
round is worth a win chance of about four in five."""

ENGINES = ("auto", "compiled", "reference")
"""Where the search runs: ``compiled`` when it can (``auto``), or by force either way (for comparisons)."""


def level_iterations(level: str, game: str | None = None, compiled: bool = False) -> int:
    """The iterations a level spends on one decision of ``game`` (on the compiled engine if ``compiled``).

    >>> level_iterations("hard", "classic"), level_iterations("hard", "kids")
    (2500, 2000)
    >>> level_iterations("hard", "classic", compiled=True)
    60000
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if compiled:
        return COMPILED_GAME_LEVELS.get(game or "", {}).get(level, COMPILED_LEVELS[level])
    return GAME_LEVELS.get(game or "", {}).get(level, LEVELS[level])


_compiled_module: Any = None


def compiled_search() -> Any:
    """The compiled search module, or None (with a warning, once) when Numba cannot be imported."""
    global _compiled_module
    if _compiled_module is None:
        try:
            module = importlib.import_module("splendor.bots.compiled_search")
        except ImportError as exc:  # Numba missing or broken: the Python search still plays
            warnings.warn(
                f"the compiled search is unavailable ({exc}); searching on the reference engine, "
                "about 35 times fewer iterations a second",
                RuntimeWarning,
                stacklevel=2,
            )
            module = False
        _compiled_module = module
    return _compiled_module or None


_learned: dict[str, Any] = {}


def learned_weights(game: str) -> Any:
    """The expert level's learned evaluation weights for ``game`` (``splendor/bots/weights/``), or the compiled
    search's ``NO_WEIGHTS`` for a game that has none (Kids: the expert searches with its plan instead)."""
    if game not in _learned:
        from splendor.bots import compiled_search as cs
        from splendor.bots.training import load_weights

        found = load_weights(game)
        _learned[game] = cs.NO_WEIGHTS if found is None else found
    return _learned[game]


def warm_compiled_search() -> None:
    """Load the compiled search now (compiling it, the first time on a machine, about ten seconds), by a short
    search of each game it plays; nothing when Numba is missing."""
    module = compiled_search()
    if module is None:
        return
    from splendor.bots.base import decision_for
    from splendor.games import new_game

    for name in module.GAMES:
        SearchBot(iterations=2, engine="compiled").search(decision_for(new_game(name, players=2)))


# How promising each kind of action is before any search: progress first, three tokens next, reserving least.
KIND_WEIGHT = {
    "buy": 4.0,
    "buy_reserved": 4.0,
    "evolve": 4.0,
    "move": 6.0,
    "take2": 1.5,
    "reserve": 0.6,
    "reserve_deck": 0.3,
    "evolve_none": 0.5,
}


def kind_priors(legal: Sequence[Action]) -> list[float]:
    """Priors from the kinds of the actions alone (three different tokens weigh more than fewer). The ways of
    paying one road share that road's weight, so a road with many payments is not favoured over one with few."""
    per_road: dict[int, int] = {}
    for a in legal:
        if a.kind == "move":
            per_road[a.args[0]] = per_road.get(a.args[0], 0) + 1
    weights = []
    for a in legal:
        if a.kind == "take":
            weights.append(2.0 if len(a.args) == 3 else 1.0)
        elif a.kind == "move":
            weights.append(KIND_WEIGHT["move"] / per_road[a.args[0]])
        else:
            weights.append(KIND_WEIGHT.get(a.kind, 1.0))
    total = sum(weights)
    return [w / total for w in weights]


def outcome(game: Game) -> list[float]:
    """Each seat's share of a finished game: 1 for a sole winner, 1/k for a shared victory, 1/n when truncated."""
    winners = game.winners
    n = game.players
    if not winners:
        return [1.0 / n] * n
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]


class Evaluator(Protocol):
    """What the search asks about a position: a value per seat in [0, 1], and optional priors over actions."""

    def value(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's expected share of the win from here (the game is not necessarily over)."""
        ...

    def priors(self, game: Game, legal: Sequence[Action]) -> list[float] | None:
        """A probability per legal action, or None for plain UCB."""
        ...


@dataclass
class PlayoutEvaluator:
    """Play out with the game's playout policy for at most ``depth`` decisions (by default the game's own
    depth, ``splendor.bots.playout``); score the end with the game's ``progress``."""

    depth: int | None = None
    scale: float = 2.5

    def value(self, game: Game, rng: random.Random) -> list[float]:
        steps = 0
        playout = playout_for(game.name)
        depth = playout.depth if self.depth is None else self.depth
        while not game.is_over and steps < depth:
            game.apply_legal(playout.action(game, rng))
            steps += 1
        if game.is_over:
            return outcome(game)
        p = playout.progress(game)
        out = []
        for s in range(len(p)):
            lead = p[s] - max(p[t] for t in range(len(p)) if t != s)
            out.append(1.0 / (1.0 + math.exp(-lead / self.scale)))
        return out

    def priors(self, game: Game, legal: Sequence[Action]) -> list[float] | None:
        return kind_priors(legal)


class Node:
    """Statistics of one action in the tree, for the seat that chose it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[int, Node] = {}


@dataclass(frozen=True)
class SearchResult:
    """What a search found: each root action's visits and mean value, best first."""

    actions: list[tuple[Action, int, float]]
    iterations: int
    seconds: float

    @property
    def best(self) -> Action:
        return self.actions[0][0]

    @property
    def win_chance(self) -> float:
        """The estimated share of the win after the best action."""
        return self.actions[0][2]


class SearchBot:
    """The ISMCTS bot. ``iterations`` (reproducible with a seed) or ``seconds`` bound each decision; a ``level``
    spends that level's iterations for the game being played and the engine searched on (``level_iterations``).
    ``engine`` is one of ``ENGINES``: by default the compiled search wherever it applies (the default
    evaluator, a game the compiled engine plays, Numba importable)."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        level: str | None = None,
        exploration: float = 3.0,
        evaluator: Evaluator | None = None,
        engine: str = "auto",
    ) -> None:
        self._level_budget = level is not None and iterations is None and seconds is None
        if self._level_budget:
            iterations = level_iterations(level)  # type: ignore[arg-type]
        elif level is not None:
            level_iterations(level)  # an unknown level is refused all the same
        if iterations is None and seconds is None:
            iterations = LEVELS["medium"]
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be 1 or more")
        if engine not in ENGINES:
            raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
        self.engine = engine
        self.level = level
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.evaluator: Evaluator = evaluator or PlayoutEvaluator()
        self.name = (f"ismcts:{level}" if level else "ismcts") + (f"/{seconds:g}" if level and seconds else "")
        self._rng = random.Random(seed)
        self._warned = False

    def choose(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            return decision.legal[0]
        return self.search(decision).best

    def search(self, decision: Decision) -> SearchResult:
        """Run the search for this decision and report every root action's statistics."""
        if decision.sample is None:
            raise ValueError("the search bot needs a Decision that can sample states (made by decide())")
        rng = self._rng
        start = time.perf_counter()
        fast = self.compiled_for(decision.game)
        if self._level_budget:
            limit = level_iterations(self.level, decision.game, compiled=fast is not None)  # type: ignore[arg-type]
        else:
            limit = self.iterations if self.iterations is not None else 1 << 60
        if fast is not None:
            return self._search_compiled(fast, decision, limit, start)
        if self.level == "expert" and not self._warned:
            warnings.warn(
                "the expert level's evaluation needs the compiled search; searching as hard does, on "
                "the reference engine",
                RuntimeWarning,
                stacklevel=2,
            )
            self._warned = True
        root = Node(decision.seat)
        deadline = start + self.seconds if self.seconds is not None else math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            self._iterate(root, decision.sample(rng), rng)
            done += 1
        stats = []
        for action in decision.legal:
            child = root.children.get(action.index)
            if child is not None and child.visits:
                stats.append((action, child.visits, child.total / child.visits))
            else:
                stats.append((action, 0, 0.0))
        stats.sort(key=lambda t: (-t[1], -t[2], t[0].index))
        return SearchResult(actions=stats, iterations=done, seconds=time.perf_counter() - start)

    def compiled_for(self, game: str) -> Any:
        """The compiled search module if this bot searches ``game`` there, else None; `ValueError` when the
        compiled engine was asked for and cannot serve."""
        if self.engine == "reference":
            return None
        reason = None
        module = compiled_search()
        if module is None:
            reason = "Numba cannot be imported"
        elif game not in module.GAMES:
            reason = f"the compiled search does not play {game!r} yet"
        elif type(self.evaluator) is not PlayoutEvaluator:
            reason = "the compiled search evaluates by playouts only"
        if reason is not None and self.engine == "compiled":
            raise ValueError(f"cannot search on the compiled engine: {reason}")
        return None if reason is not None else module

    def _search_compiled(self, module: Any, decision: Decision, limit: int, start: float) -> SearchResult:
        """The search in compiled code from one determinization of the decision (the compiled search deals the
        hidden cards anew every iteration, from what the seat sees only)."""
        rng = self._rng
        game = decision.sample(rng)  # type: ignore[misc]
        evaluator = self.evaluator
        assert isinstance(evaluator, PlayoutEvaluator)
        depth = playout_for(game.name).depth if evaluator.depth is None else evaluator.depth
        weights, exploration, scale = module.NO_WEIGHTS, self.exploration, evaluator.scale
        expert = EXPERT.get(game.name) if self.level == "expert" else None
        if expert is not None:
            depth = expert.depth if expert.depth is not None else depth
            exploration = expert.exploration
            weights = learned_weights(game.name) if expert.learned else weights
            scale = expert.scale if expert.scale is not None else scale
        left = None if self.seconds is None else max(0.0, start + self.seconds - time.perf_counter())
        found, done = module.search(
            game,
            decision.seat,
            rng.getrandbits(63),
            limit,
            left,
            exploration=exploration,
            depth=depth,
            scale=scale,
            weights=weights,
            plan=expert is not None and expert.plan,
            mix=expert.mix if expert is not None else 0.0,
        )
        stats = []
        for action in decision.legal:
            visits, value = found.get(action.index, (0, 0.0))
            stats.append((action, visits, value))
        stats.sort(key=lambda t: (-t[1], -t[2], t[0].index))
        return SearchResult(actions=stats, iterations=done, seconds=time.perf_counter() - start)

    def _iterate(self, root: Node, game: Game, rng: random.Random) -> None:
        """One iteration: select by PUCT with availability counts (plain UCB when the evaluator gives no
        priors), expand one node, evaluate, and back the values up, each node for the seat that chose it."""
        node = root
        root.visits += 1
        path: list[Node] = []
        c = self.exploration
        while not game.is_over:
            legal = game.legal_actions()
            seat = game.current_player
            assert seat is not None
            children = node.children
            priors = self.evaluator.priors(game, legal)
            if priors is None:
                fresh = [a for a in legal if a.index not in children]
                if fresh:
                    action = fresh[rng.randrange(len(fresh))]
                else:
                    action = max(legal, key=lambda a: self._ucb(children[a.index]))
            else:
                explore = c * math.sqrt(node.visits)
                action, best_score = legal[0], -math.inf
                for a, p in zip(legal, priors):
                    child = children.get(a.index)
                    q, n = (child.total / child.visits, child.visits) if child and child.visits else (0.5, 0)
                    score = q + explore * p / (1 + n)
                    if score > best_score:
                        action, best_score = a, score
            for a in legal:
                child = children.get(a.index)
                if child is not None:
                    child.avail += 1
            child = children.get(action.index)
            game.apply_legal(action)
            if child is None:
                child = children[action.index] = Node(seat)
                child.avail = 1
                path.append(child)
                break
            path.append(child)
            node = child
        values = outcome(game) if game.is_over else self.evaluator.value(game, rng)
        for n in path:
            n.visits += 1
            n.total += values[n.seat]

    def _ucb(self, child: Node) -> float:
        return child.total / child.visits + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
