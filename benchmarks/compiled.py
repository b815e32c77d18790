"""The compiled engine against the reference engine: decisions per CPU-second, and (``--compare``) a long run of
the differential test.

Speed, for each covered game and 2-4 players, all measured in this one run so that the ratios are fair:

- reference: ``legal_actions()`` plus ``apply`` of a uniformly chosen action (``splendor.sim.bench``);
- compiled, stepped from Python: ``legal_indices()`` plus ``step(index)`` of a uniformly chosen legal index;
- compiled playouts: whole games inside compiled code (``splendor.compiled.playouts``), random and buy-first.

``--compare N`` plays N games per player count side by side in both engines (random and buy-first choices),
comparing the legal actions and the whole state after every action, and reports the games and steps compared and
the differences found. ``--first-start`` times the first start with Numba's cache emptied (the compile cost).

Run: ``.venv/bin/python benchmarks/compiled.py [--seconds 3] [--compare 0] [--first-start]``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import splendor
import splendor.compiled as compiled
from splendor.sim import bench

KIDS_VARIANTS: list[dict[str, bool]] = [{}, {"mysteries": True}, {"short": True}]


def stepped(name: str, players: int, seconds: float) -> float:
    """Decisions per CPU-second of the compiled engine stepped from Python."""
    rng = random.Random(0)
    warm = compiled.new_game(name, players=players, seed=0)  # compile before timing
    warm.step(int(warm.legal_indices()[0]))
    decisions, start = 0, time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        game = compiled.new_game(name, players=players, seed=seed)
        seed += 1
        while not game.is_over:
            legal = game.legal_indices()
            game.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
    return decisions / (time.process_time() - start)


def in_playouts(name: str, players: int, seconds: float, policy: str) -> float:
    """Decisions per CPU-second of whole games played inside compiled code."""
    compiled.playouts(name, players=players, games=5, seed=0, policy=policy)  # compiled already
    games, decisions, start = 200, 0, time.process_time()
    seed = 1
    while time.process_time() - start < seconds:
        decisions += compiled.playouts(name, players=players, games=games, seed=seed, policy=policy)
        seed += games
    return decisions / (time.process_time() - start)


def compare(name: str, games: int) -> tuple[int, int, int]:
    """Games and steps compared side by side, and the differences found."""
    played = steps = differences = 0
    for players in (2, 3, 4):
        for seed in range(games):
            options = KIDS_VARIANTS[seed % 3] if name == "kids" else {}
            reference = splendor.new_game(name, players=players, seed=seed, **options)
            fast = compiled.from_reference(reference)
            rng = random.Random(seed)
            buy_first = seed % 2 == 1
            progress = ("buy", "buy_reserved", "evolve", "move")
            while not reference.is_over:
                legal = reference.legal_actions()
                if fast.legal_indices().tolist() != [a.index for a in legal]:
                    differences += 1
                    break
                buys = [a for a in legal if a.kind in progress] if buy_first else []
                pool = buys or legal
                action = pool[rng.randrange(len(pool))]
                reference.apply(action)
                fast.step(action.index)
                steps += 1
                if fast._kernel.to_state(fast.state, fast.options) != reference._state():  # faster than to_json()
                    differences += 1
                    break
            played += 1
    return played, steps, differences


def first_start() -> list[tuple[str, float, float]]:
    """Seconds for a fresh interpreter to load the compiled engine and play a game of each kind, and to load the
    compiled search (``warm_compiled_search``): with Numba's caches emptied, and again with the caches written."""
    empty = tempfile.mkdtemp(prefix="numba-cache-")  # the children's cache: empty, then written by the first
    env = {**os.environ, "NUMBA_CACHE_DIR": empty}
    steps = [
        (
            "the engine (classic and Kids games)",
            "import splendor.compiled as c; c.playouts('classic', games=1); c.playouts('kids', games=1)",
        ),
        (
            "the search (a search of each game)",
            "from splendor.search.searcher import warm_compiled_search; warm_compiled_search()",
        ),
    ]
    out = []
    for what, code in steps:
        times = []
        for _ in range(2):  # CPU seconds of the child: a busy machine does not count
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        out.append((what, times[0], times[1]))
    shutil.rmtree(empty, ignore_errors=True)
    return out


def speed_table(seconds: float) -> None:
    print(
        "| game | players | reference | compiled, stepped from Python | compiled playouts, random | "
        "compiled playouts, buy-first | playouts ÷ reference |\n|---|---|---|---|---|---|---|"
    )
    for name in compiled.COVERED:
        for players in (2, 3, 4):
            ref = bench(name, players, seconds)["decisions_per_second"]
            step = stepped(name, players, seconds)
            rand = in_playouts(name, players, seconds, "random")
            buy = in_playouts(name, players, seconds, "buyfirst")
            print(
                f"| {name} | {players} | {ref:,.0f} | {step:,.0f} | {rand:,.0f} | {buy:,.0f} | {rand / ref:,.0f}× |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per speed figure (0: no speed table)")
    parser.add_argument("--compare", type=int, default=0, help="games per player count to compare side by side")
    parser.add_argument("--first-start", action="store_true")
    args = parser.parse_args()
    print(
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"{datetime.date.today()}, one core\n"
    )
    if args.seconds > 0:
        speed_table(args.seconds)
    if args.compare:
        for name in compiled.COVERED:
            start = time.perf_counter()
            games, steps, differences = compare(name, args.compare)
            print(
                f"\n{name}: {games:,} games, {steps:,} steps compared, {differences} differences "
                f"({time.perf_counter() - start:.0f} s)"
            )
    if args.first_start:
        for what, cold, warm in first_start():
            print(f"\nfirst start of {what} with empty caches: {cold:.1f} CPU-s; next start: {warm:.1f} CPU-s")


if __name__ == "__main__":
    main()
