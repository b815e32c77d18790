"""A bot of one checkout of the code against the same bot of another: does a change to the engine or the search
make the bot stronger?

Each side runs in its own process with its own ``PYTHONPATH`` (a checkout: ``git worktree add /tmp/before HEAD``,
say) and answers with its move for a game's record; this script deals the games, asks the side whose seat is to
move, and applies its action on its own copy of the rules. Two players, each deal played from both seats, searches
bounded by iterations (so the games are the same from one run to the next), two games at a time. Figures go into
docs/bots.md; nothing here is a test.

    git worktree add /tmp/before HEAD
    .venv/bin/python benchmarks/checkouts.py --new . --old /tmp/before --level expert --iterations 16000 --games 200
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import splendor
from splendor.arena.standings import wilson

SIDE = r"""
import json, sys
from splendor import replay
from splendor.bots import decide
from splendor.bots.search import SearchBot

level, iterations = sys.argv[1], int(sys.argv[2])
for line in sys.stdin:
    asked = json.loads(line)
    bot = SearchBot(seed=asked["seed"], level=level, iterations=iterations)
    print(decide(bot, replay(asked["record"])).text, flush=True)
"""


def side(checkout: Path, level: str, iterations: int) -> subprocess.Popen[str]:
    """A process that plays ``level`` at ``iterations`` a move with the code of ``checkout``."""
    env = {**os.environ, "PYTHONPATH": str(checkout.resolve())}
    env.pop("NUMBA_CACHE_DIR", None)  # each checkout compiles into its own __pycache__
    return subprocess.Popen(
        [sys.executable, "-c", SIDE, level, str(iterations)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def play(indices: list[int], args: argparse.Namespace) -> list[float]:
    """The new checkout's score in each of the games ``indices`` (1 a win, 0.5 a shared win, 0 a loss): game ``i``
    deals seed ``seed + i // 2``, the new side in seat ``i % 2``."""
    sides = [side(args.new, args.level, args.iterations), side(args.old, args.level, args.iterations)]
    scores = []
    try:
        for i in indices:
            deal = args.seed + i // 2
            new_seat = i % 2
            game = splendor.new_game(args.game, players=2, seed=deal)
            while not game.is_over:
                seat = game.current_player
                asked = sides[0 if seat == new_seat else 1]
                assert asked.stdin is not None and asked.stdout is not None
                record = {"record": game.record.to_text(), "seed": deal * 1000 + len(game.history)}
                asked.stdin.write(json.dumps(record) + "\n")
                asked.stdin.flush()
                answer = asked.stdout.readline().strip()
                if not answer:
                    raise RuntimeError(f"the {'new' if asked is sides[0] else 'old'} side stopped answering")
                game.apply(game.parse(answer))
            winners = game.winners
            scores.append(1.0 if winners == [new_seat] else 0.5 if new_seat in winners else 0.0)
    finally:
        for process in sides:
            if process.stdin is not None:
                process.stdin.close()
            process.wait()
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--new", type=Path, required=True, help="the checkout with the change")
    parser.add_argument("--old", type=Path, required=True, help="the checkout without it")
    parser.add_argument("--game", default="classic")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--iterations", type=int, default=16000, help="iterations a move, both sides")
    parser.add_argument("--games", type=int, default=200, help="games (each deal from both seats: even)")
    parser.add_argument("--seed", type=int, default=7000, help="the first deal")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        parser.error("--games must be even and at least 2: each deal is played from both seats")
    start = time.perf_counter()
    halves = [[i for i in range(args.games) if (i // 2) % 2 == k] for k in range(2)]  # whole deals to each
    with ThreadPoolExecutor(2) as pool:
        scores = [s for part in pool.map(lambda part: play(part, args), halves) for s in part]
    low, high = wilson(sum(scores), len(scores))
    seconds = time.perf_counter() - start
    print(
        f"{args.game}, {args.level} at {args.iterations} iterations: the new checkout scored {sum(scores):g} of "
        f"{len(scores)} ({sum(scores) / len(scores):.1%}, 95% {low:.1%}–{high:.1%}) in {seconds:.0f} s"
    )


if __name__ == "__main__":
    main()
