"""Search speed and strength: iterations per second, seconds per decision at each level, and how the win rate
against greedy grows with the budget.

Run:

    .venv/bin/python benchmarks/search.py speed                  # a few minutes, one core
    .venv/bin/python benchmarks/search.py budget --games 40      # long: a tournament per game and budget
    .venv/bin/python benchmarks/search.py engines --games 200    # long: hard on the compiled engine vs on Python

Times are CPU seconds (what a decision takes on an idle core, whatever else the machine runs). ``speed`` plays greedy
games and times the search bot's decisions on one core (each level, for the 2-player game), and measures iterations per
second at an early and a middle position. ``budget`` plays ``ismcts:N`` against ``greedy`` (seats rotated, all cores)
for each budget N. ``engines`` compares the search on the two engines: iterations per second and seconds per decision at
each level on each, then the hard level as it is now (its compiled budget) against the hard level searched on the
reference engine (its old budget), seats alternated, all cores. Figures go into ``docs/bots.md``; nothing here is a test
(machines are noisy: compare ratios within one run)."""

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
from splendor.bots.search import SearchBot
from splendor.search.compiled import GAMES as COVERED
from splendor.search.levels import LEVEL_NAMES as LEVELS
from splendor.search.levels import level_iterations
from splendor.search.searcher import compiled_module as compiled_search
from splendor.search.searcher import warm_compiled_search


def iterations_per_second(game_name: str, after: int, iterations: int = 1000, engine: str = "auto") -> float:
    """The search's speed at the position reached after ``after`` greedy decisions (seed 5)."""
    g = splendor.new_game(game_name, players=2, seed=5)
    greedy = make_bot("greedy", seed=1)
    for _ in range(after):
        g.apply(decide(greedy, g))
    bot = SearchBot(seed=1, iterations=iterations, engine=engine)
    if engine != "reference":
        bot.search(decision_for(g))  # load the compiled code first
    start = time.process_time()
    bot.search(decision_for(g))
    return iterations / (time.process_time() - start)


def decision_seconds(game_name: str, level: str, games: int, engine: str = "auto") -> list[float]:
    """Seconds of each decision the ``level`` bot makes (with a choice) in games against greedy."""
    times = []
    warm_compiled_search()
    suffix = "" if engine == "auto" else f"@{engine}"
    for i in range(games):
        g = splendor.new_game(game_name, players=2, seed=300 + i)
        bots = [make_bot(f"ismcts:{level}{suffix}", seed=i), make_bot("greedy", seed=i)]
        while not g.is_over:
            seat = g.current_player
            assert seat is not None
            choices = len(g.legal_actions())
            start = time.process_time()
            action = decide(bots[seat], g)
            if seat == 0 and choices > 1:
                times.append(time.process_time() - start)
            g.apply(action)
    return sorted(times)


def speed(games: int, levels: list[str]) -> None:
    for name in sorted(splendor.GAMES):
        early, middle = iterations_per_second(name, 2), iterations_per_second(name, 12)
        print(f"{name}: {early:,.0f} iterations/s early, {middle:,.0f} mid-game", flush=True)
        for level in levels:
            t = decision_seconds(name, level, games)
            spent = level_iterations(level, name, compiled=compiled_search() is not None and name in COVERED)
            print(
                f"  {level} ({spent:,} iterations): {len(t)} decisions, "
                f"mean {statistics.mean(t):.3f} s, p90 {t[int(0.9 * len(t))]:.3f} s, max {t[-1]:.3f} s",
                flush=True,
            )


def engines(games: int, speed_games: int, names: list[str], seed: int) -> None:
    """The search on the compiled engine against the search on the reference engine: speed, then strength."""
    for name in names:
        if speed_games <= 0:
            break
        for engine in ("reference", "compiled"):
            early = iterations_per_second(name, 2, 5000 if engine == "compiled" else 1000, engine)
            middle = iterations_per_second(name, 12, 5000 if engine == "compiled" else 1000, engine)
            print(f"{name} on the {engine} engine: {early:,.0f} iterations/s early, {middle:,.0f} mid-game", flush=True)
            for level in LEVELS:
                t = decision_seconds(name, level, speed_games, engine)
                spent = level_iterations(level, name, compiled=engine == "compiled")
                print(
                    f"  {level} ({spent:,} iterations): {len(t)} decisions, mean {statistics.mean(t):.3f} s, "
                    f"p90 {t[int(0.9 * len(t))]:.3f} s, max {t[-1]:.3f} s",
                    flush=True,
                )
    for name in names:
        if games <= 0:
            break
        bots = ["ismcts:hard", "ismcts:hard@reference"]
        results = []
        for result in run_matches(schedule(name, 2, bots, games, seed)):
            results.append(result)
            if len(results) % 25 == 0 and len(results) < games:  # a running tally of a long match
                tally = {s.bot: s for s in standings(results, bots)}
                print(
                    f"  {name}: after {len(results)} games, new hard {tally[bots[0]].wins} wins, old hard "
                    f"{tally[bots[1]].wins}, {tally[bots[0]].shared} shared",
                    flush=True,
                )
        new, old = (({s.bot: s for s in standings(results, bots)})[b] for b in bots)
        low, high = new.interval
        print(
            f"{name}: hard (compiled, {level_iterations('hard', name, compiled=True):,} iterations) won "
            f"{new.wins}/{games} ({new.win_rate:.1%}, 95% {low:.1%}-{high:.1%}), old hard (reference, "
            f"{level_iterations('hard', name):,}) won {old.wins}, {new.shared} shared",
            flush=True,
        )


def budget(games: int, budgets: list[int], names: list[str], seed: int) -> None:
    for name in names:
        for n in budgets:
            bots = [f"ismcts:{n}", "greedy"]
            results = list(run_matches(schedule(name, 2, bots, games, seed)))
            top = {s.bot: s for s in standings(results, bots)}[bots[0]]
            low, high = top.interval
            print(
                f"{name} ismcts:{n} vs greedy: {top.wins}/{games} won ({top.win_rate:.0%}, "
                f"95% {low:.0%}-{high:.0%}), {top.shared} shared",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="iterations per second and seconds per decision")
    s.add_argument("--games", type=int, default=3, help="games per game and level")
    s.add_argument("--level", action="append", choices=LEVELS, help="a level (default: every level)")
    b = sub.add_parser("budget", help="win rate against greedy by budget")
    b.add_argument("--games", type=int, default=40)
    b.add_argument("--budgets", default="40,250,1000,2500")
    b.add_argument("--game", action="append", help="a game (default: every game)")
    b.add_argument("--seed", type=int, default=21)
    e = sub.add_parser("engines", help="the search on the compiled engine against the search on Python")
    e.add_argument("--games", type=int, default=200, help="games of new hard against old hard, per game")
    e.add_argument(
        "--speed-games",
        type=int,
        default=2,
        help="games against greedy timed per level and engine (0: no speed figures)",
    )
    e.add_argument("--game", action="append", choices=COVERED, help="a game (default: every compiled one)")
    e.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.games, args.level or list(LEVELS))
    elif args.what == "engines":
        engines(args.games, args.speed_games, args.game or list(COVERED), args.seed)
    else:
        budget(args.games, [int(x) for x in args.budgets.split(",")], args.game or sorted(splendor.GAMES), args.seed)


if __name__ == "__main__":
    main()
