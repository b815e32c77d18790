"""One seat searching otherwise against the expert in every other seat, in games of three or four.

The lone seat searches as the expert level does, changed by the options given: weights fitted on games of
``--players`` (a file written by ``splendor train --players``, valued as they were fitted, each seat's share of
every seat's progress), playouts of ``--depth`` decisions, PUCT's ``--exploration``, ``--mix`` of each value the new
leaf's own evaluation, or ``--lone-iterations`` a decision. The others search as the expert does: the two-player
weights, each seat valued by its lead over the best other, playouts of 8. Every deal is played with the lone seat in
every place (``training.match``); par is one game in ``--players``. First both searches are timed on the same
positions of a game of that many (CPU seconds, after one search not timed), so that a match at equal time can be set
up from one run's figures (machines are noisy: compare ratios). Figures go into docs/bots.md; nothing here is a
test.

    .venv/bin/splendor train --game classic --players 4 --generations 1 --games 320 --seed 1 --workers 2
    .venv/bin/python benchmarks/lone_seat.py --players 4 --games 400 --iterations 2000 --seed 31 \\
        --weights runs/classic-4p.json
    .venv/bin/python benchmarks/lone_seat.py --players 4 --games 400 --iterations 2000 --seed 31 --depth 16
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from splendor.arena.standings import wilson
from splendor.core.workers import Workers
from splendor.search.learning.policy import NO_POLICY
from splendor.search.learning.policy_training import expert_searcher
from splendor.search.learning.training import match, search_seconds


def lone_searcher(args: argparse.Namespace, expert: dict[str, Any]) -> dict[str, Any]:
    """The expert's search changed by the options given; `SystemExit` when none is, or the weights do not fit."""
    lone = dict(expert)
    if args.weights is not None:
        kept = json.loads(args.weights.read_text(encoding="utf-8"))
        if (kept.get("game"), kept.get("players")) != (args.game, args.players):
            raise SystemExit(f"{args.weights} holds weights of {kept.get('game')} at {kept.get('players')} players")
        lone.update(weights=np.array(kept["weights"], dtype=np.float64), shares=True)
    for option in ("depth", "mix", "exploration"):
        if getattr(args, option) is not None:
            lone[option] = getattr(args, option)
    if args.lone_iterations is not None:
        lone["iterations"] = args.lone_iterations
    if lone == expert:
        raise SystemExit(
            "name what the lone seat changes: --weights, --depth, --mix, --exploration or --lone-iterations"
        )
    return lone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--games", type=int, default=400, help="games (each deal from every seat: a multiple)")
    parser.add_argument("--iterations", type=int, default=2000, help="iterations a decision, the expert's seats")
    parser.add_argument("--lone-iterations", type=int, default=None, help="the lone seat's (default: the same)")
    parser.add_argument("--weights", type=Path, default=None, help="weights of many (`splendor train --players`)")
    parser.add_argument("--depth", type=int, default=None, help="the lone seat's playouts, in decisions")
    parser.add_argument("--mix", type=float, default=None, help="the lone seat's share of a value from the leaf")
    parser.add_argument("--exploration", type=float, default=None, help="the lone seat's c of PUCT")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if args.games % args.players:
        raise SystemExit(f"--games plays whole deals: {args.games} is not a multiple of {args.players}")
    expert = expert_searcher(args.game, args.iterations, NO_POLICY)
    lone = lone_searcher(args, expert)
    changes = [(k, v) for k, v in lone.items() if k not in expert or not np.array_equal(v, expert[k])]
    changed = ", ".join(f"{k} {args.weights if k == 'weights' else v}" for k, v in changes)
    timed = {"players": args.players, "positions": 20, "seed": 5}
    ratio = search_seconds(args.game, lone, **timed) / search_seconds(args.game, expert, **timed)
    start = time.perf_counter()
    score = match(args.game, lone, expert, args.games, args.seed, Workers(args.workers), args.players)
    low, high = wilson(score * args.games, args.games)
    print(
        f"{args.game}, {args.players} players, the expert at {args.iterations} iterations a decision; the lone seat "
        f"with {changed} (its time a search {ratio:.2f} times the expert's): {score:.1%} of {args.games} games "
        f"(95% {low:.1%}–{high:.1%}; par {1 / args.players:.1%}), {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
