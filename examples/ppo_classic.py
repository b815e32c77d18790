"""PPO learning classic Splendor, 2 players, on the vectorised environment, until it beats the greedy bot.

    .venv/bin/pip install -e '.[learn]' --extra-index-url https://download.pytorch.org/whl/cpu
    .venv/bin/python examples/ppo_classic.py --seed 1

A short PPO of the project's own in PyTorch (no framework): ``--envs`` games of `splendor.envs.vector.VectorGames`
stepped together in compiled code, the learner's seat drawn anew each game, against the greedy bot itself: its
heuristic compiled (`splendor.search.greedy_compiled`, the opponent ``greedy``), which plays at every step an
action the reference greedy bot could play, so that the opponent trained against is the one measured against.
Against the random opponent a policy learns to buy cards and little else; against the search's playout policy
(``--opponent playout``) it learned to race but won only 51% against the greedy bot; self-play would spend half
the games on seats that teach nothing about that opponent.

It starts by imitating that opponent (``--imitate`` steps of every game played by it on both sides,
`VectorGames.policy_actions` giving its choices): the actor learns to choose what it chose, the critic what those
games earned, so that PPO starts from a policy that already plays (45% against greedy) rather than from random
play. ``--teacher search:N`` imitates the compiled search instead (``N`` iterations a decision, its games against
greedy spread over ``--threads`` processes, the actor trained towards its share of visits).

The policy is a masked categorical over the 77 actions (the illegal logits set to -inf). Each action's logit is
the sum of two parts: an MLP's, reading the 469-value observation, the legal mask, and what each card still needs
(``--inputs``), and the scorer's (``--scorer``): one small MLP applied to every action alike, reading what that
action would do (`splendor.bots.learned_inputs.action_features`: the card a buy or reserve is of, its points, its
worth towards the nobles, what it still needs; how far a take brings the best cards; the tokens above ten), so
that what it learns of buying one slot or of one take holds for every other. All of it is arithmetic on the
observation. The scorer is what made the difference: without it the same PPO matched 62% of the greedy bot's
choices when imitating it and never passed it (51% of 400 games, over three runs of 50 minutes); with it, it
matches 79%, and PPO passes greedy within minutes (docs/rl.md). A separate MLP estimates the value. Each update
collects ``--rollout`` steps of every game, computes advantages by GAE, and takes ``--epochs`` passes of Adam over
minibatches on the clipped objective, the value loss and an entropy bonus; the learning rate falls linearly to
zero. The reward is the environment's result (+1 sole winner, 0 shared or no winner, -1 loss) plus ``--shaping``
× the learner's points gained on each step / 15, which makes the first buys and the race to 15 easier to find (a
game's shaping adds up to its final score / 15 at most, so the result stays the larger part of the goal).

Every ``--eval-every`` updates the policy, as the NumPy bot plays it (`splendor.bots.learned.Policy`: the most
likely legal action), plays ``--eval-games`` games against the reference greedy bot (`make_bot("greedy")` in the
single environment `splendor.envs.gymnasium_env.SplendorEnv`, the learner's seat alternating) and the curve is
written. At the end it plays ``--final-games`` more on seeds no training game was dealt from (checked), writes
wins, shared victories, losses and the 95% Wilson interval to ``summary.json``, checks that the NumPy policy plays
the same actions as the PyTorch one, and saves the policy file the ``learned`` bot plays. ``--max-minutes``
stops the training early on a machine busier than the one measured, so the hour is kept.

torch, NumPy and the environment are seeded from ``--seed``; the curve's and the final games are dealt from fixed
seeds of their own.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import re
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from torch import nn
except ModuleNotFoundError as missing:  # the learn extra, as every command that needs one says
    raise SystemExit(
        f"examples/ppo_classic.py needs the learn extra ({missing.name} is not installed): "
        "pip install 'splendor[learn]' --extra-index-url https://download.pytorch.org/whl/cpu"
    ) from None

from splendor.arena.standings import wilson
from splendor.bots.base import make_bot
from splendor.bots.learned import Policy, save_policy
from splendor.bots.learned_inputs import ACTION_FEATURES, INPUTS, action_features, features
from splendor.envs.gymnasium_env import SplendorEnv
from splendor.envs.vector import VectorGames

GAME = "classic"
EVAL_SEEDS = 1_000_000_000
"""The curve's games are dealt from seeds EVAL_SEEDS + i, the final games' from FINAL_SEEDS + i."""
FINAL_SEEDS = 2_000_000_000
FIELDS = ["update", "steps", "seconds", "train_games", "train_wins", "vs_greedy_wins", "vs_greedy_shared", "games"]


def mlp(sizes: list[int], out: int, out_gain: float) -> nn.Sequential:
    """Linear layers with ReLU between them (orthogonal initialisation, the last layer's scaled by out_gain)."""
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:] + [out]):
        linear = nn.Linear(a, b)
        nn.init.orthogonal_(linear.weight, gain=np.sqrt(2) if b != out else out_gain)
        nn.init.zeros_(linear.bias)
        layers += [linear, nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class ActorCritic(nn.Module):
    """The policy (logits over the actions) and the value estimate, two MLPs over the observation; the policy's
    logits plus, with a scorer, one small MLP's score of each action from what it would do."""

    def __init__(self, inputs: str, width: int, actions: int, hidden: list[int], scorer: list[int]) -> None:
        super().__init__()
        self.inputs = inputs
        self.actor = mlp([width, *hidden], actions, 0.01)
        self.critic = mlp([width, *hidden], 1, 1.0)
        self.scorer = mlp([len(ACTION_FEATURES), *scorer], 1, 0.01) if scorer else None

    def masked_logits(self, x: torch.Tensor, acts: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The policy's logits from what it reads (`splendor.bots.learned_inputs.features`) and what each action
        would do (``acts``, `splendor.bots.learned_inputs.action_features`), -inf on the illegal actions."""
        logits = self.actor(x)
        if self.scorer is not None:
            logits = logits + self.scorer(acts).squeeze(-1)
        return logits.masked_fill(~mask, float("-inf"))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        """The estimated worth of each position (shape (n,))."""
        return self.critic(x).squeeze(-1)

    def numpy_policy(self) -> Policy:
        """The actor as the NumPy policy the ``learned`` bot plays."""
        linears = [m for m in self.actor if isinstance(m, nn.Linear)]
        scorer = [m for m in self.scorer if isinstance(m, nn.Linear)] if self.scorer is not None else []
        return Policy(
            GAME,
            "relu",
            [m.weight.detach().numpy().T.copy() for m in linears],
            [m.bias.detach().numpy().copy() for m in linears],
            self.inputs,
            [m.weight.detach().numpy().T.copy() for m in scorer] if scorer else None,
            [m.bias.detach().numpy().copy() for m in scorer] if scorer else None,
        )


def log_probs_and_entropy(logits: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities of the masked categorical, and its entropy (the illegal actions count for nothing: their
    -inf is replaced before the product, as 0 × -inf would make the gradients NaN)."""
    log_p = torch.log_softmax(logits, dim=-1)
    return log_p, -(log_p.exp() * log_p.masked_fill(~mask, 0.0)).sum(-1)


def against_greedy(policy: Policy, games: int, first_seed: int) -> tuple[int, int, int]:
    """Wins, shared victories and losses of ``policy`` (its most likely legal action) over ``games`` games
    against the reference greedy bot, the learner's seat alternating, game i dealt from ``first_seed + i``."""
    wins = shared = losses = 0
    for g in range(games):
        env = SplendorEnv(GAME, players=2, seat=g % 2, opponents=[make_bot("greedy", seed=g)], max_turns=200)
        obs, info = env.reset(seed=first_seed + g)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy.act(obs, info["action_mask"]))
            done = terminated or truncated
        wins += reward == 1.0
        shared += reward == 0.0 and g % 2 in env.game.winners
        losses += reward == -1.0
    return wins, shared, losses


def discounted_returns(rewards: np.ndarray, ended: np.ndarray, gamma: float) -> np.ndarray:
    """Each step's discounted return within its game (rewards and ended: shape (steps, games)); a game still
    going at the last step counts its tail as 0."""
    returns = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[1], dtype=rewards.dtype)
    for t in reversed(range(rewards.shape[0])):
        running = rewards[t] + gamma * running * (1.0 - ended[t])
        returns[t] = running
    return returns


def label_games(
    env: VectorGames,
    seed: int,
    steps: int,
    teacher: Callable[[dict[str, Any]], np.ndarray],
    shaping: float,
    gamma: float,
) -> dict[str, Any]:
    """``steps`` decisions of each of ``env``'s games (dealt from ``seed``) played by a teacher: ``teacher(info)``
    gives its share of each action at every game's decision, and the most shared one is played. Returns the
    observations, the legal masks, those shares (the actor's target), the discounted, shaped return that followed
    (the critic's), the seeds of the games dealt and how many ended."""
    n = env.num_envs
    observations = np.zeros((steps, n, env.observation_size), dtype=np.float32)
    masks = np.zeros((steps, n, env.num_actions), dtype=bool)
    targets = np.zeros((steps, n, env.num_actions), dtype=np.float32)
    rewards = np.zeros((steps, n), dtype=np.float32)
    ended = np.zeros((steps, n), dtype=np.float32)
    obs, info = env.reset(seed=seed)
    seeds = [info["game_seed"].copy()]
    for t in range(steps):
        observations[t], masks[t] = obs, info["action_mask"]
        targets[t] = teacher(info)
        obs, reward, terminated, truncated, info = env.step(targets[t].argmax(axis=1))
        done = terminated | truncated
        rewards[t] = reward + shaping * info["points_gained"] / 15
        ended[t] = done
        if done.any():
            seeds.append(info["game_seed"][done].copy())
    return {
        "observations": observations.reshape(steps * n, -1),
        "masks": masks.reshape(steps * n, -1),
        "targets": targets.reshape(steps * n, -1),
        "returns": discounted_returns(rewards, ended, gamma).reshape(-1),
        "seeds": np.concatenate(seeds),
        "games_ended": int(ended.sum()),
    }


def search_labels(seed: int, envs: int, steps: int, iterations: int, shaping: float, gamma: float) -> dict[str, Any]:
    """`label_games` of ``envs`` games against the greedy bot with the learner's seat played by the compiled
    search (`splendor.search.compiled.search_state`: ``iterations`` iterations a decision, from what that seat
    sees, each iteration dealing the hidden cards anew), its target each action's share of the visits. One
    worker's share of the labels; the search runs on one core."""
    from splendor.search.compiled import market_knowledge, search_state

    torch.set_num_threads(1)
    env = VectorGames(GAME, num_envs=envs, players=2, opponents=("greedy",), seat=None, max_turns=200)
    know = market_knowledge()
    draws = np.random.default_rng([seed, 2])

    def visits(info: dict[str, Any]) -> np.ndarray:
        shares = np.zeros((envs, env.num_actions), dtype=np.float32)
        for i in range(envs):
            found, _ = search_state(env.state(i), int(info["seat"][i]), know, int(draws.integers(1 << 62)), iterations)
            for action, (count, _) in found.items():
                assert info["action_mask"][i, action], "the search chose an action the environment's mask calls illegal"
                shares[i, action] = count
        return shares / shares.sum(axis=1, keepdims=True)

    return label_games(env, seed, steps, visits, shaping, gamma)


def greedy_labels(env: VectorGames, args: argparse.Namespace) -> dict[str, Any]:
    """`label_games` of ``--imitate`` steps of all the games played on both sides by the greedy bot
    (`VectorGames.policy_actions`: its own choices, compiled), its target the one action it chose."""

    def chosen(info: dict[str, Any]) -> np.ndarray:
        return np.eye(env.num_actions, dtype=np.float32)[env.policy_actions("greedy")]

    return label_games(env, args.seed, args.imitate, chosen, args.shaping, args.gamma)


def teacher_labels(env: VectorGames, args: argparse.Namespace) -> dict[str, Any]:
    """The teacher's labels (``--teacher``): the greedy bot's, or the search's, its games spread over
    ``--threads`` worker processes (each game's search runs on one core)."""
    if args.teacher == "greedy":
        return greedy_labels(env, args)
    iterations = int(args.teacher.split(":")[1])
    workers = max(1, args.threads)
    shares = [args.envs // workers + (k < args.envs % workers) for k in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(
            pool.map(
                search_labels,
                [args.seed + 1000 * (k + 1) for k in range(workers)],
                shares,
                [args.imitate] * workers,
                [iterations] * workers,
                [args.shaping] * workers,
                [args.gamma] * workers,
            )
        )
    labels = {key: np.concatenate([part[key] for part in parts]) for key in parts[0] if key != "games_ended"}
    labels["games_ended"] = sum(part["games_ended"] for part in parts)
    return labels


def imitate(
    model: ActorCritic, env: VectorGames, args: argparse.Namespace, optimiser: torch.optim.Optimizer
) -> tuple[np.ndarray, int, float]:
    """Before PPO: ``--imitate`` steps of every game played by the teacher (`teacher_labels`), the actor trained
    towards the teacher's choices (cross-entropy with its share of each legal action) and the critic to predict
    the discounted, shaped return those games then earned, for ``--imitate-epochs`` passes. The seeds of the
    games dealt, how many ended, and the share of the teacher's first choices that the actor then makes."""
    labels = teacher_labels(env, args)
    x_all = torch.from_numpy(features(args.inputs, labels["observations"], labels["masks"]))
    acts_all = torch.from_numpy(
        action_features(labels["observations"]) if model.scorer is not None else np.zeros((len(x_all), 1, 1))
    )
    mask_all = torch.from_numpy(labels["masks"])
    target_all = torch.from_numpy(labels["targets"])
    ret_all = torch.from_numpy(labels["returns"])
    steps = x_all.shape[0]
    for _ in range(args.imitate_epochs):
        order = torch.randperm(steps)
        for i in range(0, steps, args.minibatch):
            mb = order[i : i + args.minibatch]
            log_p, _ = log_probs_and_entropy(model.masked_logits(x_all[mb], acts_all[mb], mask_all[mb]), mask_all[mb])
            policy_loss = -(target_all[mb] * log_p.masked_fill(~mask_all[mb], 0.0)).sum(-1).mean()
            value_loss = 0.5 * (model.value(x_all[mb]) - ret_all[mb]).pow(2).mean()
            optimiser.zero_grad()
            (policy_loss + args.value * value_loss).backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimiser.step()
    with torch.no_grad():
        chosen = torch.cat(
            [
                model.masked_logits(x_all[i : i + 8192], acts_all[i : i + 8192], mask_all[i : i + 8192]).argmax(-1)
                for i in range(0, steps, 8192)
            ]
        )
    matched = float((chosen == target_all.argmax(-1)).float().mean())
    return labels["seeds"], labels["games_ended"], matched


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--updates", type=int, default=400, help="PPO updates (each --envs × --rollout steps)")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--rollout", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=2048)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument(
        "--scorer", type=int, nargs="*", default=[32, 32], help="the action scorer's hidden layers (none: no scorer)"
    )
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.005)
    parser.add_argument("--value", type=float, default=0.5)
    parser.add_argument("--shaping", type=float, default=1.0, help="× points gained / 15 added to each reward")
    parser.add_argument("--opponent", default="greedy", choices=["random", "buyfirst", "playout", "greedy"])
    parser.add_argument("--teacher", default="greedy", help="whom to imitate first: greedy, or search:ITERATIONS")
    parser.add_argument("--imitate", type=int, default=1200, help="steps of the teacher's play first (0: none)")
    parser.add_argument("--imitate-epochs", type=int, default=8)
    parser.add_argument("--inputs", default="observation+mask+needs", choices=INPUTS, help="what the networks read")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (this machine's 2 cores)")
    parser.add_argument("--eval-every", type=int, default=50)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--final-games", type=int, default=400)
    parser.add_argument("--max-minutes", type=float, default=55.0, help="stop training early past this (0: never)")
    parser.add_argument("--out", type=Path, default=Path("examples/runs/ppo_classic"))
    parser.add_argument(
        "--policy",
        type=Path,
        default=Path("examples/runs/ppo_classic/ppo_classic.npz"),
        help="where the policy goes (the shipped one, the bot 'learned': splendor/bots/weights/ppo_classic.npz)",
    )
    parser.add_argument(
        "--picture",
        type=Path,
        default=Path("examples/runs/ppo_classic/curve.png"),
        help="where the learning curve is drawn (the docs' one: docs/rl-ppo-classic.png)",
    )
    parser.add_argument("--plot-only", action="store_true", help="draw the picture again from --out's curve.csv")
    args = parser.parse_args()
    if args.teacher != "greedy" and not re.fullmatch(r"search:[1-9][0-9]*", args.teacher):
        parser.error(f"--teacher is greedy or search:ITERATIONS (e.g. search:400), not {args.teacher!r}")
    if args.plot_only:
        with open(args.out / "curve.csv", newline="") as f:
            plot(list(csv.DictReader(f)), args)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    np.random.seed(args.seed)  # nothing draws from NumPy's global generator now; seeded should anything do so

    env = VectorGames(GAME, num_envs=args.envs, players=2, opponents=(args.opponent,), seat=None, max_turns=200)
    n, t_len = args.envs, args.rollout
    width = features(args.inputs, np.zeros((1, env.observation_size)), np.zeros((1, env.num_actions))).shape[1]
    model = ActorCritic(args.inputs, width, env.num_actions, args.hidden, args.scorer)
    acts_width = (env.num_actions, len(ACTION_FEATURES)) if args.scorer else (1, 1)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((t_len, n, width))
    mask_buf = torch.zeros((t_len, n, env.num_actions), dtype=torch.bool)
    acts_buf = torch.zeros((t_len, n, *acts_width))
    act_buf = torch.zeros((t_len, n), dtype=torch.int64)
    logp_buf = torch.zeros((t_len, n))
    val_buf = torch.zeros((t_len + 1, n))
    rew_buf = torch.zeros((t_len, n))
    done_buf = torch.zeros((t_len, n))

    rows: list[dict[str, Any]] = []
    seeds_seen: list[np.ndarray] = []
    steps = 0
    if args.imitate:
        imitated, imitated_games, matched = imitate(model, env, args, optimiser)
        seeds_seen.append(imitated)
        steps = args.imitate * n
        wins, shared, _ = against_greedy(model.numpy_policy(), args.eval_games, EVAL_SEEDS)
        rows.append(
            {
                "update": 0,
                "steps": steps,
                "seconds": round(time.perf_counter() - start, 1),
                "train_games": imitated_games,
                "train_wins": round(matched, 4),  # here: the share of the teacher's choices the actor makes
                "vs_greedy_wins": wins / args.eval_games,
                "vs_greedy_shared": shared / args.eval_games,
                "games": args.eval_games,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
        write_curve(rows, args)
    obs, info = env.reset(seed=args.seed + 1 if args.imitate else args.seed)
    seeds_seen.append(info["game_seed"].copy())
    train_games = train_wins = 0
    stopped_early = False
    update = 0
    for update in range(1, args.updates + 1):
        if args.max_minutes and time.perf_counter() - start > 60 * args.max_minutes:
            stopped_early = True  # a busier machine than the one measured: the hour is kept, not the updates
            break
        for group in optimiser.param_groups:
            group["lr"] = args.lr * (1 - (update - 1) / args.updates)
        with torch.no_grad():
            for t in range(t_len):
                obs_buf[t] = torch.from_numpy(features(args.inputs, obs, info["action_mask"]))
                mask_buf[t] = torch.from_numpy(info["action_mask"])
                if args.scorer:
                    acts_buf[t] = torch.from_numpy(action_features(obs))
                logits = model.masked_logits(obs_buf[t], acts_buf[t], mask_buf[t])
                action = torch.multinomial(torch.softmax(logits, dim=-1), 1).squeeze(1)
                act_buf[t] = action
                logp_buf[t] = torch.log_softmax(logits, dim=-1).gather(1, action[:, None]).squeeze(1)
                val_buf[t] = model.value(obs_buf[t])
                obs, reward, terminated, truncated, info = env.step(action.numpy())
                ended = terminated | truncated
                rew_buf[t] = torch.from_numpy(reward + args.shaping * info["points_gained"] / 15)
                done_buf[t] = torch.from_numpy(ended.astype(np.float32))
                if ended.any():
                    seeds_seen.append(info["game_seed"][ended].copy())
                    train_games += int(ended.sum())
                    train_wins += int((reward[ended] == 1.0).sum())
            val_buf[t_len] = model.value(torch.from_numpy(features(args.inputs, obs, info["action_mask"])))
            # GAE: a game that ended at step t does not look past it (a capped game counts as ended too)
            advantages = torch.zeros((t_len, n))
            running = torch.zeros(n)
            for t in reversed(range(t_len)):
                going_on = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * val_buf[t + 1] * going_on - val_buf[t]
                running = delta + args.gamma * args.lam * going_on * running
                advantages[t] = running
            returns = advantages + val_buf[:t_len]
        steps += t_len * n

        b_obs, b_mask = obs_buf.reshape(-1, width), mask_buf.reshape(-1, env.num_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_acts = acts_buf.reshape(-1, *acts_width)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        for _ in range(args.epochs):
            order = torch.randperm(t_len * n)
            for i in range(0, t_len * n, args.minibatch):
                mb = order[i : i + args.minibatch]
                logits = model.masked_logits(b_obs[mb], b_acts[mb], b_mask[mb])
                log_p, entropy = log_probs_and_entropy(logits, b_mask[mb])
                ratio = (log_p.gather(1, b_act[mb, None]).squeeze(1) - b_logp[mb]).exp()
                adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv).mean()
                value_loss = 0.5 * (model.value(b_obs[mb]) - b_ret[mb]).pow(2).mean()
                loss = policy_loss + args.value * value_loss - args.entropy * entropy.mean()
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                optimiser.step()

        if update % args.eval_every == 0 or update == args.updates:
            wins, shared, _ = against_greedy(model.numpy_policy(), args.eval_games, EVAL_SEEDS)
            row = {
                "update": update,
                "steps": steps,
                "seconds": round(time.perf_counter() - start, 1),
                "train_games": train_games,
                "train_wins": round(train_wins / max(train_games, 1), 4),
                "vs_greedy_wins": wins / args.eval_games,
                "vs_greedy_shared": shared / args.eval_games,
                "games": args.eval_games,
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            train_games = train_wins = 0
            write_curve(rows, args)
    trained = time.perf_counter() - start

    policy = model.numpy_policy()
    seen = np.concatenate(seeds_seen)
    final_seeds = np.arange(FINAL_SEEDS, FINAL_SEEDS + args.final_games)
    assert not np.isin(final_seeds, seen).any(), "a final game's seed was dealt in training"
    check_same_actions(model, policy, obs, info["action_mask"].copy())
    wins, shared, losses = against_greedy(policy, args.final_games, FINAL_SEEDS)
    low, high = wilson(wins, args.final_games)
    args.policy.parent.mkdir(parents=True, exist_ok=True)
    save_policy(policy, args.policy)
    summary = {
        "command": "examples/ppo_classic.py " + " ".join(f"--{k}={v}" for k, v in sorted(vars(args).items())),
        "steps": steps,
        "updates": update - stopped_early,
        "stopped_early": stopped_early,
        "training_games": int(seen.size),
        "training_seconds": round(trained, 1),
        "seconds": round(time.perf_counter() - start, 1),
        "final_games": args.final_games,
        "final_seeds": f"{FINAL_SEEDS}..{FINAL_SEEDS + args.final_games - 1}",
        "wins_vs_greedy": wins,
        "shared_vs_greedy": shared,
        "losses_vs_greedy": losses,
        "win_rate_vs_greedy": wins / args.final_games if args.final_games else None,  # None: no final games
        "wilson_95": [round(low, 4), round(high, 4)] if args.final_games else None,
        "policy": str(args.policy),
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    write_curve(rows, args)
    plot(rows, args)
    print(json.dumps(summary), flush=True)


def check_same_actions(model: ActorCritic, policy: Policy, obs: np.ndarray, masks: np.ndarray) -> None:
    """The NumPy policy plays what the PyTorch one would (its most likely legal action) on these positions
    (observations and their legal masks)."""
    with torch.no_grad():
        x = torch.from_numpy(features(model.inputs, obs, masks))
        acts = torch.from_numpy(action_features(obs) if model.scorer is not None else np.zeros((len(obs), 1, 1)))
        logits = model.masked_logits(x, acts, torch.from_numpy(masks)).numpy()
    top = np.sort(logits, axis=1)
    clear = top[:, -1] - top[:, -2] > 1e-4  # a near tie may fall either way in float32
    played = np.array([policy.act(o, m) for o, m in zip(obs, masks)])
    assert (played == logits.argmax(axis=1))[clear].all(), "the NumPy policy plays another action than torch"
    assert np.allclose(np.where(masks, policy.logits(obs, masks), 0), np.where(masks, logits, 0), atol=1e-4)


def write_curve(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The curve so far, as CSV."""
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def plot(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The learning curve as a picture."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = np.array([int(r["steps"]) for r in rows]) / 1e6
    ax.plot(steps, [float(r["vs_greedy_wins"]) for r in rows], marker="o", label="wins against the greedy bot")
    trained = f"wins in training (vs {args.opponent}; at 0: the teacher's choices matched)"
    ax.plot(steps, [float(r["train_wins"]) for r in rows], marker=".", label=trained)
    ax.axhline(0.6, color="grey", linestyle="--", label="the bar: 60% against greedy")
    ax.set_xlabel("training steps (learner's decisions), millions")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title("PPO on classic Splendor, 2 players (vectorised environment)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    args.picture.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.picture, dpi=110)


if __name__ == "__main__":
    main()
