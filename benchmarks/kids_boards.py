"""Do the shipped Kids boards play well? Bot games on every combination of sides.

Each traveler commits to a route drawn at random among all routes from the Port to the Palace and plays it
greedily (collecting toward its next road, moving when it can pay). Both seats play the same policy, so a
route's win rate says how it fares against the others: a board plays well when many routes win and none wins
nearly always. With a hundred or more routes per board, single routes are played too rarely to rate, so the
table rates roads instead: the win rate of the travelers whose route used that road. Also measured: turns per
traveler with plain greedy play.

Run: ``.venv/bin/python benchmarks/kids_boards.py [--games 200]``; the figures go into ``docs/kids.md``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict
from itertools import product
from typing import Any

import splendor
from splendor.bots import Decision, decide
from splendor.bots.greedy import GreedyBot, KidsPlanner
from splendor.core.actions import Action
from splendor.games.kids.game import KidsGame
from splendor.sim import simulate


def all_routes(g: KidsGame) -> list[tuple[int, ...]]:
    """Every route from the Port to the Palace, as road numbers."""
    out: list[tuple[int, ...]] = []

    def walk(space: str, roads: tuple[int, ...]) -> None:
        if space == g.board.palace:
            out.append(roads)
            return
        for r in g.board.roads_from(space):
            walk(r.end, roads + (r.number,))

    walk(g.board.port, ())
    return out


class RouteBot(GreedyBot):
    """Greedy along a fixed route."""

    name = "route"

    def __init__(self, route: tuple[int, ...], seed: int = 0) -> None:
        super().__init__(seed)
        self.route = route

    def choose(self, decision: Decision) -> Action:
        planner = KidsPlanner(decision)
        planner.route = [
            planner.roads[n]
            for n in self.route
            if planner.roads[n]["from"] == decision.view["seats"][decision.seat]["space"]
            or n in self._ahead(planner, decision)
        ]

        def score(a: Action) -> float:
            if a.kind == "move" and a.args[0] not in self.route:
                return -1000.0
            return planner.score(a)

        best = max(decision.legal, key=score)
        ties = [a for a in decision.legal if score(a) == score(best)]
        return ties[self._rng.randrange(len(ties))]

    def _ahead(self, planner: KidsPlanner, decision: Decision) -> set[int]:
        here = decision.view["seats"][decision.seat]["space"]
        for i, n in enumerate(self.route):
            if planner.roads[n]["from"] == here:
                return set(self.route[i:])
        return set()


def measure(sides: list[str], games: int, seed: int) -> dict[str, Any]:
    short = len(sides) == 2
    plays: Counter[tuple[int, ...]] = Counter()
    wins: defaultdict[tuple[int, ...], float] = defaultdict(float)  # a shared win counts 1/k
    rng = random.Random(seed)
    routes: list[tuple[int, ...]] = []
    for i in range(games):
        g = splendor.new_game("kids", players=2, seed=seed + i, board=sides, short=short, max_turns=400)
        assert isinstance(g, KidsGame)
        routes = routes or all_routes(g)
        picks = [routes[rng.randrange(len(routes))] for _ in range(2)]
        bots = [RouteBot(p, seed=seed + 10 * i + s) for s, p in enumerate(picks)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            g.apply(decide(bots[seat], g))
        for s, p in enumerate(picks):
            plays[p] += 1
            if s in g.winners:
                wins[p] += 1 / len(g.winners)
    road_plays: Counter[int] = Counter()
    road_wins: defaultdict[int, float] = defaultdict(float)
    for r, n in plays.items():
        for road in r:
            road_plays[road] += n
            road_wins[road] += wins[r]
    rates = {road: road_wins[road] / road_plays[road] for road in road_plays if road_plays[road] >= 40}
    best_road = max(rates, key=lambda k: rates[k]) if rates else 0
    best = rates.get(best_road, 0.0)
    greedy = simulate("kids", 2, ["greedy", "greedy"], 50, seed, options={"board": sides, "short": short})
    return {
        "sides": ",".join(sides),
        "routes": len(routes),
        "routes_won": sum(1 for r in wins if wins[r] > 0),
        "best_rate": best,
        "best_road": best_road,
        "turns": greedy.turns / greedy.games / 2,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    full = [list(c) for c in product(("A1-front", "A1-back"), ("A2-front", "A2-back"), ("A3-front", "A3-back"))]
    short = [list(c) for c in product(("A1-front", "A1-back"), ("A3-front", "A3-back"))]
    print(
        "| sides | routes Port → Palace | routes that won a game | best road's win rate (road on the routes of"
        " 40+ travelers) | turns per traveler (greedy) |"
    )
    print("|---|---|---|---|---|")
    for sides in full + short:
        m = measure(sides, args.games, seed=1)
        print(
            f"| {m['sides']} | {m['routes']} | {m['routes_won']} | {m['best_rate']:.0%} (road {m['best_road']}) "
            f"| {m['turns']:.1f} |"
        )


if __name__ == "__main__":
    main()
