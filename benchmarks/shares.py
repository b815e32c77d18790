"""Valuing a game of three or four: each seat's share of every seat's progress, against its lead over the best other.

One seat searches one way, the others the other way, at equal iterations; every deal is played with the lone seat in
each place (seats rotated), and both ways round (the lone seat valuing by shares, then by the lead). Par for the lone
seat is one game in ``players``: whichever way wins more than par as the lone seat, and holds the others below par
when it is the many, is the better. Figures go into docs/bots.md; nothing here is a test.

    .venv/bin/python benchmarks/shares.py --game classic --players 3 --games 120 --iterations 4000
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

import splendor
from splendor.arena.standings import wilson
from splendor.bots import decide
from splendor.bots.search import SearchBot


def play(game: str, players: int, seed: int, lone_seat: int, lone_shares: bool, level: str, iterations: int) -> float:
    """The lone seat's share of one game's win (1 won alone, 1/k shared with k, 0 lost)."""
    g = splendor.new_game(game, players=players, seed=seed)
    bots = []
    for place in range(players):
        bot = SearchBot(seed=seed * 10 + place, iterations=iterations, level=level)
        bot.shares = lone_shares if place == lone_seat else not lone_shares
        bots.append(bot)
    while not g.is_over:
        seat = g.current_player
        assert seat is not None
        g.apply(decide(bots[seat], g))
    winners = list(g.winners)
    return (1.0 / len(winners)) if lone_seat in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=120, help="games each way round (a multiple of players)")
    parser.add_argument("--iterations", type=int, default=4000)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = [
        (args.game, args.players, args.seed + i // args.players, i % args.players, shares, args.level, args.iterations)
        for shares in (True, False)
        for i in range(args.games)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        scores = list(pool.map(play, *zip(*jobs), chunksize=1))
    par = 1 / args.players
    print(
        f"{args.game}, {args.players} players, {args.level} at {args.iterations} iterations a decision, "
        f"{args.games} games each way ({time.perf_counter() - start:.0f} s)"
    )
    for k, name in enumerate(("shares", "lead")):
        got = scores[k * args.games : (k + 1) * args.games]
        low, high = wilson(sum(got), len(got))
        print(f"  the lone seat valuing by {name}: {sum(got):g} of {len(got)} ({sum(got) / len(got):.1%}, "
              f"95% {low:.1%}–{high:.1%}; par {par:.1%})")  # fmt: skip


if __name__ == "__main__":
    main()
