"""Engine speed: random playouts of each game on one core, and the cost of each protocol call.

Run: ``.venv/bin/python benchmarks/engine.py [--seconds 5]``. Figures go into the README and
``docs/benchmarks.md``; nothing here is a test (machines are noisy: compare ratios within one run).
"""

from __future__ import annotations

import argparse
import random
import timeit

import splendor
from splendor.sim import bench


def per_call(game_name: str) -> dict[str, float]:
    """Microseconds per legal_actions(), apply(), clone(), view(), to_json() at a mid-game position."""
    g = splendor.new_game(game_name, players=2, seed=1)
    rng = random.Random(1)
    for _ in range(30):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    action = g.legal_actions()[0]

    def apply_once() -> None:
        c = g.clone()
        c.apply(action)

    out = {}
    for label, fn in (
        ("legal_actions", g.legal_actions),
        ("clone", g.clone),
        ("clone+apply", apply_once),
        ("view", lambda: g.view(0)),
        ("to_json", g.to_json),
    ):
        n, total = timeit.Timer(fn).autorange()
        out[label] = round(total / n * 1e6, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for name in sorted(splendor.GAMES):
        for players in (2, 4):
            print(bench(name, players=players, seconds=args.seconds))
        print(name, "µs per call:", per_call(name))


if __name__ == "__main__":
    main()
