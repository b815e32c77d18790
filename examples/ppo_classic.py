"""Masked PPO learning classic Splendor, 2 players: first against the random bot, then against the greedy bot.

    .venv/bin/pip install -e '.[learn]'
    .venv/bin/python examples/ppo_classic.py --random-steps 300000 --greedy-steps 300000

The learner is sb3-contrib's MaskablePPO on `splendor/Classic-v0` (it only ever picks a legal action, from the
environment's mask). The environment's reward is the result at the end (+1 win, 0 shared or no winner, -1 loss);
this example adds the learner's points as they come (points gained / 15 on each step), which makes the first
steps easier to find, and keeps the result as the goal. Every ``--eval-every`` steps it plays ``--eval-games``
games against each bot (the policy's most likely legal action, no shaping) and writes the curve; at the end it
plays ``--final-games`` against each, saves the model (``ppo:MODEL.zip`` seats it in the arena), the curve as
CSV and as a picture, and a summary with the time it took.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import splendor.envs  # noqa: F401 (registers the environments)
from splendor.envs.gymnasium_env import SplendorEnv


class PointsAsTheyCome(gymnasium.Wrapper):
    """Adds the learner's points gained on each step, / 15, to the environment's reward."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.points = info["view"]["seats"][self.env.unwrapped.seat]["points"]
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        points = info["view"]["seats"][self.env.unwrapped.seat]["points"]
        reward += (points - self.points) / 15
        self.points = points
        return obs, reward, terminated, truncated, info


def training_env(opponent: str, seed: int) -> gymnasium.Env:
    env = SplendorEnv("classic", players=2, opponents=[opponent], max_turns=100)
    env.reset(seed=seed)
    return ActionMasker(PointsAsTheyCome(env), lambda e: e.unwrapped.action_masks())


def win_rate(model: MaskablePPO, opponent: str, games: int, seed: int) -> tuple[float, float]:
    """Wins and shared victories over ``games`` games against ``opponent`` (the learner's seat alternates)."""
    wins = shared = 0
    for g in range(games):
        seat = g % 2
        env = SplendorEnv("classic", players=2, seat=seat, opponents=[opponent], max_turns=100)
        obs, info = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins += reward == 1.0
        shared += reward == 0.0 and seat in env.game.winners
    return wins / games, shared / games


class Curve(BaseCallback):
    """Plays the evaluation games every ``every`` steps and keeps the rows of the learning curve."""

    def __init__(self, every: int, games: int, phase: str, offset: int, rows: list[dict]) -> None:
        super().__init__()
        self.every, self.games, self.phase, self.offset, self.rows = every, games, phase, offset, rows
        self.next = every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            row = {
                "steps": self.offset + self.num_timesteps,
                "phase": self.phase,
                "vs_random": win_rate(self.model, "random", self.games, 10_000)[0],
                "vs_greedy": win_rate(self.model, "greedy", self.games, 20_000)[0],
                "seconds": round(time.perf_counter() - START, 1),
            }
            self.rows.append(row)
            print(json.dumps(row), flush=True)
        return True


START = time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--random-steps", type=int, default=300_000)
    parser.add_argument("--greedy-steps", type=int, default=300_000)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--final-games", type=int, default=200)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("examples/runs/ppo_classic"))
    parser.add_argument("--picture", type=Path, default=Path("docs/rl-ppo-classic.png"))
    parser.add_argument("--plot-only", action="store_true", help="draw the picture again from --out's curve.csv")
    args = parser.parse_args()
    if args.plot_only:
        with open(args.out / "curve.csv", newline="") as f:
            plot(list(csv.DictReader(f)), args)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    model = None
    offset = 0
    for phase, opponent, steps in (("random", "random", args.random_steps), ("greedy", "greedy", args.greedy_steps)):
        if steps <= 0:
            continue
        envs = DummyVecEnv([lambda i=i, o=opponent: training_env(o, args.seed * 100 + i) for i in range(args.envs)])
        if model is None:
            model = MaskablePPO(
                "MlpPolicy",
                envs,
                seed=args.seed,
                verbose=0,
                n_steps=1024,
                batch_size=256,
                learning_rate=3e-4,
                gamma=0.995,
                ent_coef=0.01,
                device="cpu",
            )
        else:
            model.set_env(envs)
        model.learn(
            steps, callback=Curve(args.eval_every, args.eval_games, phase, offset, rows), reset_num_timesteps=True
        )
        offset += steps
    assert model is not None
    model.save(args.out / "model.zip")
    final = {opponent: win_rate(model, opponent, args.final_games, 90_000) for opponent in ("random", "greedy")}
    summary = {
        "steps": offset,
        "seconds": round(time.perf_counter() - START, 1),
        "final_games": args.final_games,
        "wins_vs_random": final["random"][0],
        "shared_vs_random": final["random"][1],
        "wins_vs_greedy": final["greedy"][0],
        "shared_vs_greedy": final["greedy"][1],
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["steps", "phase", "vs_random", "vs_greedy", "seconds"])
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, args)
    print(json.dumps(summary), flush=True)


def plot(rows: list[dict], args: argparse.Namespace) -> None:
    """The learning curve as a picture."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = np.array([int(r["steps"]) for r in rows])
    ax.plot(steps, [float(r["vs_random"]) for r in rows], marker="o", label="wins against the random bot")
    ax.plot(steps, [float(r["vs_greedy"]) for r in rows], marker="s", label="wins against the greedy bot")
    if args.random_steps > 0 and args.greedy_steps > 0:
        ax.axvline(args.random_steps, color="grey", linestyle="--", label="training switches to greedy")
    ax.set_xlabel("training steps (learner's decisions)")
    ax.set_ylabel(f"win rate over {args.eval_games} games")
    ax.set_ylim(0, 1)
    ax.set_title("Masked PPO on classic Splendor, 2 players")
    ax.legend(loc="center right")
    fig.tight_layout()
    args.picture.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.picture, dpi=110)


if __name__ == "__main__":
    main()
