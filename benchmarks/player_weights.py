"""The expert's evaluation learned from games of three or four, against the two-player one the levels use there.

One seat searches as the expert level does but with weights fitted on games of ``--players`` (a file written by
``splendor train --players``), valued as they were fitted: each seat's share of every seat's progress. The others
search as the expert does: the two-player weights, each seat valued by its lead over the best other seat. Equal
iterations, every deal played with the lone seat in every place (``training.match``); par is one game in
``--players``. Both sides compute the same features at the same leaves, so equal iterations are equal time.
Figures go into docs/bots.md; nothing here is a test.

    .venv/bin/splendor train --game classic --players 4 --generations 1 --games 320 --seed 1 --workers 2
    .venv/bin/python benchmarks/player_weights.py --players 4 --games 400 --iterations 2000 --seed 31 \\
        --weights runs/classic-4p.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from splendor.arena.standings import wilson
from splendor.core.workers import Workers
from splendor.search.learning.policy import NO_POLICY
from splendor.search.learning.policy_training import expert_searcher
from splendor.search.learning.training import match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400, help="games (each deal from every seat: a multiple)")
    parser.add_argument("--iterations", type=int, default=4000, help="iterations a decision, both sides")
    parser.add_argument("--weights", type=Path, required=True, help="weights of many (`splendor train --players`)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    kept = json.loads(args.weights.read_text(encoding="utf-8"))
    if (kept.get("game"), kept.get("players")) != (args.game, args.players):
        raise SystemExit(f"{args.weights} holds weights of {kept.get('game')} at {kept.get('players')} players")
    two = expert_searcher(args.game, args.iterations, NO_POLICY)
    own = {**two, "weights": np.array(kept["weights"], dtype=np.float64), "shares": True}
    start = time.perf_counter()
    score = match(args.game, own, two, args.games, args.seed, Workers(args.workers), args.players)
    low, high = wilson(score * args.games, args.games)
    print(
        f"{args.game}, {args.players} players, the expert at {args.iterations} iterations a decision: the weights of "
        f"{args.players} in one seat, the two-player weights in the others, {args.games} games: {score:.1%} "
        f"(95% {low:.1%}–{high:.1%}; par {1 / args.players:.1%}), {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
