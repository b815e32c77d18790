"""The environments' speed: learner steps per CPU-second, observations and masks included, for every game, the
environments of before (``splendor/Classic-v0``: the reference engine, observations from ``game.view``) beside the
vectorised ones (`splendor.envs.vector.VectorGames`) at batch sizes 1, 64 and 1,024, all in this one run so that
the ratios are fair.

A learner step is everything between two of the learner's decisions: its action, the opponents' turns (one
uniformly random opponent here: ``random`` in both), a finished game dealt anew, and the next mask and
observation. The learner picks a uniformly random legal action; that choice is not timed for the vectorised
environments (a learner's network costs what it costs), and costs next to nothing beside the single environment.
CPU time is this process's (``time.process_time``), on one core: Numba runs single-threaded here.

Run: ``.venv/bin/python benchmarks/vector_env.py [--seconds 3] [--games classic,pokemon,kids] [--players 2]``.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import time

import numpy as np
from numba import njit

from splendor.envs.gymnasium_env import SplendorEnv
from splendor.envs.vector import VectorGames

BATCHES = (1, 64, 1024)
TARGETS = {"classic": 1_000_000, "pokemon": 500_000, "kids": 200_000}
"""The issue's targets at batch 1,024 (steps per CPU-second, one core); batch 1: 100,000 in every game."""


@njit(cache=True)
def _uniform_legal(masks: np.ndarray, out: np.ndarray, seed: int) -> None:
    """A uniformly random legal action in each row of ``masks``."""
    np.random.seed(seed)
    for i in range(masks.shape[0]):
        n = 0
        for a in range(masks.shape[1]):
            n += masks[i, a]
        k = np.random.randint(n)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


@njit(cache=True)
def _uniform_listed(legal: np.ndarray, count: np.ndarray, out: np.ndarray, seed: int) -> None:
    """A uniformly random legal action of each game, from the lists of its legal actions."""
    np.random.seed(seed)
    for i in range(legal.shape[0]):
        out[i] = legal[i, np.random.randint(count[i])]


def single(game: str, players: int, seconds: float) -> float:
    """Steps per CPU-second of the single environment of before (reference engine, random opponents)."""
    env = SplendorEnv(game, players=players, opponents=["random"] * (players - 1), max_turns=200)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        _obs, _reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if terminated or truncated:
            _obs, info = env.reset()
    return steps / (time.process_time() - start)


def vectorised(game: str, players: int, batch: int, seconds: float, dense: bool = True) -> float:
    """Steps per CPU-second of `VectorGames` at ``batch`` games (the learner's random choice not timed); Kids with
    ``dense``: its 42,198-wide masks kept, else only the lists of legal actions."""
    env = VectorGames(
        game, num_envs=batch, players=players, opponents=("random",) * (players - 1), max_turns=200, dense_masks=dense
    )
    _obs, info = env.reset(seed=0)
    actions = np.zeros(batch, dtype=np.int64)

    def choose(call: int) -> None:
        if dense:
            _uniform_legal(info["action_mask"], actions, call)
        else:
            _uniform_listed(info["legal_actions"], info["legal_count"], actions, call)

    choose(0)
    env.step(actions)  # compiled before timing
    steps, timed, call = 0, 0.0, 0
    while timed < seconds:
        call += 1
        choose(call)
        start = time.process_time()
        env.step(actions)
        timed += time.process_time() - start
        steps += batch
    return steps / timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per measurement")
    parser.add_argument("--games", default="classic,pokemon,kids")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    print(
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"{datetime.date.today()}, one core, {args.players} players; learner steps per CPU-second "
        "(kids (lists): without its dense masks)\n"
    )
    header = f"{'game':15} {'before':>9} " + " ".join(f"{'batch ' + str(b):>11}" for b in BATCHES)
    print(header + f" {'x before':>9} {'target':>10}")
    for game in args.games.split(","):
        before = single(game, args.players, args.seconds)
        for dense in (True, False) if game == "kids" else (True,):
            rates = [vectorised(game, args.players, b, args.seconds, dense) for b in BATCHES]
            met = "met" if rates[-1] >= TARGETS[game] and rates[0] >= 100_000 else "NOT met"
            name = game if dense else f"{game} (lists)"
            print(
                f"{name:15} {before:9,.0f} " + " ".join(f"{r:11,.0f}" for r in rates)
                + f" {rates[-1] / before:8,.0f}x {TARGETS[game]:10,} {met}"
            )  # fmt: skip


if __name__ == "__main__":
    main()
