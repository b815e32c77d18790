"""Search speed and strength: iterations per second, seconds per decision at each level, and how the win rate
against greedy grows with the budget.

Run:

    .venv/bin/python benchmarks/search.py speed                  # a few minutes, one core
    .venv/bin/python benchmarks/search.py budget --games 40      # long: a tournament per game and budget

``speed`` plays greedy games and times the search bot's decisions on one core (each level, for the 2-player
game), and measures iterations per second at an early and a middle position. ``budget`` plays ``ismcts:N``
against ``greedy`` (seats rotated, all cores) for each budget N. Figures go into ``docs/bots.md``; nothing here
is a test (machines are noisy: compare ratios within one run).
"""

from __future__ import annotations

import argparse
import statistics
import time

import splendor
from splendor.arena.backends import run_matches
from splendor.arena.schedule import schedule
from splendor.arena.standings import standings
from splendor.bots import decide, make_bot
from splendor.bots.base import decision_for
from splendor.bots.search import LEVELS, SearchBot, level_iterations


def iterations_per_second(game_name: str, after: int, iterations: int = 1000) -> float:
    """The search's speed at the position reached after ``after`` greedy decisions (seed 5)."""
    g = splendor.new_game(game_name, players=2, seed=5)
    greedy = make_bot("greedy", seed=1)
    for _ in range(after):
        g.apply(decide(greedy, g))
    start = time.perf_counter()
    SearchBot(seed=1, iterations=iterations).search(decision_for(g))
    return iterations / (time.perf_counter() - start)


def decision_seconds(game_name: str, level: str, games: int) -> list[float]:
    """Seconds of each decision the ``level`` bot makes (with a choice) in games against greedy."""
    times = []
    for i in range(games):
        g = splendor.new_game(game_name, players=2, seed=300 + i)
        bots = [make_bot(f"ismcts:{level}", seed=i), make_bot("greedy", seed=i)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            choices = len(g.legal_actions())
            start = time.perf_counter()
            action = decide(bots[seat], g)
            if seat == 0 and choices > 1:
                times.append(time.perf_counter() - start)
            g.apply(action)
    return sorted(times)


def speed(games: int) -> None:
    for name in sorted(splendor.GAMES):
        early, middle = iterations_per_second(name, 2), iterations_per_second(name, 12)
        print(f"{name}: {early:,.0f} iterations/s early, {middle:,.0f} mid-game")
        for level in LEVELS:
            t = decision_seconds(name, level, games)
            print(f"  {level} ({level_iterations(level, name):,} iterations): {len(t)} decisions, "
                  f"mean {statistics.mean(t):.3f} s, p90 {t[int(0.9 * len(t))]:.3f} s, max {t[-1]:.3f} s")


def budget(games: int, budgets: list[int], names: list[str], seed: int) -> None:
    for name in names:
        for n in budgets:
            bots = [f"ismcts:{n}", "greedy"]
            results = list(run_matches(schedule(name, 2, bots, games, seed)))
            top = {s.bot: s for s in standings(results, bots)}[bots[0]]
            low, high = top.interval
            print(f"{name} ismcts:{n} vs greedy: {top.wins}/{games} won ({top.win_rate:.0%}, "
                  f"95% {low:.0%}-{high:.0%}), {top.shared} shared", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="iterations per second and seconds per decision")
    s.add_argument("--games", type=int, default=3, help="games per game and level")
    b = sub.add_parser("budget", help="win rate against greedy by budget")
    b.add_argument("--games", type=int, default=40)
    b.add_argument("--budgets", default="40,250,1000,2500")
    b.add_argument("--game", action="append", help="a game (default: every game)")
    b.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.games)
    else:
        budget(args.games, [int(x) for x in args.budgets.split(",")], args.game or sorted(splendor.GAMES),
               args.seed)


if __name__ == "__main__":
    main()
