"""The expert guided by what it learned from its own search (the learned policy, or with ``--network`` the policy
and value network), against the expert exploring by the priors of the actions' kinds.

Both sides search as the expert level does (its learned evaluation, exploration, playout depth and mix; with the
network, its value is half of each value, ``network_training.NETWORK_MIX``), two players, each deal played from
both seats. The policy or the network costs time, so the sides may be given
different iterations: the script first times both searches on the same positions and prints the ratio, so
that a match at equal time can be set up from one run's figures (machines are noisy: compare ratios). Figures
go into docs/bots.md; nothing here is a test.

    .venv/bin/python benchmarks/policy.py --game classic --games 100 --iterations 16000 --policy-iterations 14500 \\
        --policy /work/runs/classic_policy.json
    .venv/bin/python benchmarks/policy.py --game classic --games 200 --iterations 4000 --network
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from splendor.arena.standings import wilson
from splendor.core.workers import Workers
from splendor.search.learning.network import load_network, network_path
from splendor.search.learning.network_training import NETWORK_MIX
from splendor.search.learning.policy import NO_POLICY
from splendor.search.learning.policy_training import expert_searcher, load_policy, policy_path
from splendor.search.learning.training import match, search_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--games", type=int, default=100, help="games (each deal from both seats: even)")
    parser.add_argument("--iterations", type=int, default=16000, help="the kinds' priors' iterations a move")
    parser.add_argument("--policy-iterations", type=int, default=None, help="the guided side's (default: the same)")
    parser.add_argument("--policy", type=Path, default=None, help="the policy's file (default: the shipped one)")
    parser.add_argument(
        "--network", nargs="?", const="shipped", default=None, help="guide by the network (a file; default: shipped)"
    )
    parser.add_argument("--mix", type=float, default=NETWORK_MIX, help="the network's share of each value")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    kinds = expert_searcher(args.game, args.iterations, NO_POLICY)
    if args.network is not None:
        path = network_path(args.game) if args.network == "shipped" else Path(args.network)
        guided = expert_searcher(args.game, args.policy_iterations or args.iterations, NO_POLICY)
        learned = {**guided, "network": load_network(path, args.game).net, "mix": args.mix}
    else:
        policy = load_policy(args.policy or policy_path(args.game))
        learned = expert_searcher(args.game, args.policy_iterations or args.iterations, policy)
    guide = "the network" if args.network is not None else "the policy"
    seconds_kinds, seconds_learned = search_seconds(args.game, kinds), search_seconds(args.game, learned)
    print(
        f"{args.game}: a search takes {seconds_kinds:.3f} s by the kinds' priors at {kinds['iterations']} "
        f"iterations, {seconds_learned:.3f} s by {guide} at {learned['iterations']} "
        f"(ratio {seconds_learned / seconds_kinds:.2f})"
    )
    start = time.perf_counter()
    score = match(args.game, learned, kinds, args.games, args.seed, Workers(args.workers))
    low, high = wilson(score * args.games, args.games)
    print(
        f"  {guide}'s share of {args.games} games: {score:.1%} (95% {low:.1%}–{high:.1%}), "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
