"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012), in Python over the
reference engine: the readable statement of the algorithm (``compiled`` runs the same in compiled code).

Each iteration deals a full state consistent with what the searching seat sees (the engine's ``determinize``),
walks a tree of actions with PUCT using availability counts (an action is only a candidate in the
determinizations where it is legal), adds one node, plays out with the game's playout policy for at most
``depth`` decisions, and scores the end with the game's ``progress`` estimate (or the real result when the game
ended). Every seat's decisions are in the tree, each node scored for the seat that chose it. What the search
knows of each game (the playout policy, its depth, the progress estimate) is in ``splendor.search.knowledge``.

The evaluation is a plug-in (`Evaluator`): the default gives priors from the kinds of the actions and values from
playouts; a learned policy-and-value network can replace both, as AlphaZero does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.search.knowledge import knowledge_for
from splendor.search.levels import SCALE
from splendor.search.priors import kind_priors


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
    depth, ``splendor.search.knowledge``); score the end with the game's ``progress``."""

    depth: int | None = None
    scale: float = SCALE

    def value(self, game: Game, rng: random.Random) -> list[float]:
        """Each seat's share of the win where the playout stops: its result, or a logistic of the progress lead."""
        steps = 0
        knowledge = knowledge_for(game.name)
        depth = knowledge.depth if self.depth is None else self.depth
        while not game.is_over and steps < depth:
            game.apply_legal(knowledge.action(game, rng))
            steps += 1
        if game.is_over:
            return outcome(game)
        p = knowledge.progress(game)
        out = []
        for s in range(len(p)):
            lead = p[s] - max(p[t] for t in range(len(p)) if t != s)
            out.append(1.0 / (1.0 + math.exp(-lead / self.scale)))
        return out

    def priors(self, game: Game, legal: Sequence[Action]) -> list[float] | None:
        """The priors of the actions' kinds (``priors.kind_priors``)."""
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
        """The action with most visits."""
        return self.actions[0][0]

    @property
    def win_chance(self) -> float:
        """The estimated share of the win after the best action."""
        return self.actions[0][2]

    @classmethod
    def ranked(
        cls, legal: Sequence[Action], found: dict[int, tuple[int, float]], iterations: int, start: float
    ) -> SearchResult:
        """The result of a search that found ``found`` (visits and mean value by action index) after
        ``iterations`` iterations begun at ``start`` (``time.perf_counter``): most visits first, then the best
        value, then the action's index."""
        stats = [(action, *found.get(action.index, (0, 0.0))) for action in legal]
        stats.sort(key=lambda t: (-t[1], -t[2], t[0].index))
        return cls(actions=stats, iterations=iterations, seconds=time.perf_counter() - start)


@dataclass
class ReferenceSearch:
    """The search on the reference engine, with its exploration constant and its evaluator."""

    exploration: float
    evaluator: Evaluator

    def run(
        self,
        sample: Callable[[random.Random], Game],
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
        iterations: int,
        deadline: float,
        start: float,
    ) -> SearchResult:
        """Search for ``seat``, each iteration on a state dealt by ``sample``, for ``iterations`` iterations (at
        least one) or until ``deadline`` (``time.perf_counter``)."""
        root = Node(seat)
        done = 0
        while done < iterations and (done == 0 or time.perf_counter() < deadline):
            self.iterate(root, sample(rng), rng)
            done += 1
        found = {
            index: (child.visits, child.total / child.visits) for index, child in root.children.items() if child.visits
        }
        return SearchResult.ranked(legal, found, done, start)

    def iterate(self, root: Node, game: Game, rng: random.Random) -> None:
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
        for visited in path:
            visited.visits += 1
            visited.total += values[visited.seat]

    def _ucb(self, child: Node) -> float:
        return child.total / child.visits + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
