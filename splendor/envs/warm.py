"""Compile everything compiled now, or load it from Numba's cache: the engine's kernels, the search, and the
vectorised environments' loops (`PARTS`).

The first use after an install or an edit compiles (about a minute on one core in all); whoever uses a part
first pays for it. ``make test`` runs this before its test workers start, two parts at once beside the browser's
install, so that the workers load the compiled code instead of each compiling the same functions at once:

    python -m splendor.envs.warm search
    python -m splendor.envs.warm engine environments
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def warm_engine() -> None:
    """A game of each kind played to its end by the compiled engine."""
    from splendor import compiled

    for game in ("classic", "pokemon", "kids"):
        compiled.playouts(game, games=1)


def warm_search() -> None:
    """A short search of each game (`splendor.search.searcher.warm_compiled_search`)."""
    from splendor.search.searcher import warm_compiled_search

    warm_compiled_search()


def warm_environments() -> None:
    """A few steps of each game's vectorised environment (reset, step, the opponents' policies, the teacher's)."""
    from splendor.envs.vector import VectorGames

    for game in ("classic", "pokemon", "kids"):
        env = VectorGames(game, num_envs=2, opponents=("playout",), seat=None)
        _, info = env.reset(seed=0)
        for _ in range(3):
            actions = info["legal_actions"][:, 0] if game == "kids" else info["action_mask"].argmax(axis=1)
            _, _, _, _, info = env.step(actions)
        if game != "kids":
            env.policy_actions("playout")


PARTS: dict[str, Callable[[], None]] = {
    "engine": warm_engine,
    "search": warm_search,
    "environments": warm_environments,
}
"""What can be warmed, by name."""


def main(argv: list[str]) -> int:
    """Warm the parts named (all of them when none is), saying how long each took."""
    names = argv or list(PARTS)
    unknown = [name for name in names if name not in PARTS]
    if unknown:
        print(f"unknown part {', '.join(unknown)}: the parts are {', '.join(PARTS)}", file=sys.stderr)
        return 2
    for name in names:
        start = time.perf_counter()
        PARTS[name]()
        print(f"{name}: ready in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
