"""Learning the expert's policy from its own search (classic and Pokémon): ``splendor train-policy``.

Expert iteration, the policy half: the expert plays itself on the compiled engine at a modest budget; at every
decision with a choice in the main turn or in giving tokens back (a noble's or an evolution's choice has only its
kind's prior to learn from), each legal action's features (``policy.ACTION_FEATURES``) are kept with the share of
the search's visits it received. A multinomial logistic regression (``fit_policy``) finds the weights whose softmax
comes nearest those shares; the next generation searches with them and adds its games to the data. Each
generation ends with a match of the expert with the new priors against the expert with the hand-made ones
(equal iterations, each deal from both seats): its score and the held-out cross-entropy make the learning curve.

Everything is seeded: the same command gives the same weights (games and matches are played by iteration
budgets, never by the clock).

    splendor train-policy --game classic --generations 1 --games 120 --iterations 8000 --match-games 100 --seed 1
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from splendor.compiled import market as m
from splendor.compiled import new_game
from splendor.core.workers import ONE_PROCESS, Workers, spread
from splendor.search.learning import training
from splendor.search.learning.policy import (
    ACTION_FEATURE_COUNT,
    ACTION_FEATURES,
    HAND_MADE,
    NO_POLICY,
    legal_features,
)
from splendor.search.learning.training import GAMES, choose, learned_weights, match, searched
from splendor.search.levels import level
from splendor.search.market import DEPTH


def expert_searcher(game: str, iterations: int, policy: np.ndarray) -> dict[str, Any]:
    """The keyword arguments of ``training.searched`` that search as the expert level of ``game`` does (its
    learned evaluation, exploration, playout depth and mix), at ``iterations``, exploring by ``policy``."""
    found = level(game, "expert")
    return {
        "iterations": iterations,
        "depth": found.depth if found.depth is not None else DEPTH,
        "weights": learned_weights(game),
        "exploration": found.exploration,
        "mix": found.mix,
        "policy": policy,
    }


@dataclass
class Decisions:
    """Decisions of self-play: each one's legal actions' features (rows of ``features``, from ``starts[i]`` to
    ``starts[i + 1]``) and the share of the visits each received."""

    features: list[np.ndarray] = field(default_factory=list)
    visits: list[np.ndarray] = field(default_factory=list)

    def extend(self, other: Decisions) -> None:
        self.features += other.features
        self.visits += other.visits

    def __len__(self) -> int:
        return len(self.visits)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All the decisions' rows stacked, their visit shares, and where each decision starts."""
        rows = np.vstack(self.features)
        shares = np.concatenate(self.visits)
        starts = np.cumsum([0] + [len(v) for v in self.visits[:-1]])
        return rows, shares, starts


def play(
    game: str,
    seed: int,
    searcher: dict[str, Any],
    sampled_moves: int,
    record: Decisions,
) -> None:
    """Play one two-player game dealt from ``seed``, both seats searching with ``searcher`` (keyword arguments
    of ``training.searched``), the first ``sampled_moves`` main decisions of each seat drawn in proportion to
    the visits; every decision with a choice, in the main phase or giving tokens back, is added to ``record``."""
    fast = new_game(game, players=2, seed=seed)
    rng = np.random.default_rng(seed)
    state = fast.state
    main_moves = [0, 0]
    while not fast.is_over:
        legal = fast.legal_indices()
        if len(legal) == 1:
            fast.step(int(legal[0]))
            continue
        seat = int(state[m.SEAT])
        phase = state[m.PHASE]
        found, _ = searched(state, seat, int(rng.integers(1 << 62)), **searcher)
        if phase in (m.MAIN, m.RETURN_PHASE):
            visits = np.array([found.get(int(a), (0, 0.0))[0] for a in legal], dtype=np.float64)
            if visits.sum() > 0:
                record.features.append(legal_features(state, legal))
                record.visits.append(visits / visits.sum())
        main = phase == m.MAIN
        action = choose(found, rng, main and main_moves[seat] < sampled_moves)
        main_moves[seat] += main
        fast.step(action)


def _self_play_chunk(args: tuple[str, list[int], dict[str, Any], int]) -> Decisions:
    game, seeds, searcher, sampled = args
    out = Decisions()
    for seed in seeds:
        play(game, seed, searcher, sampled, out)
    return out


def cross_entropy(decisions: Decisions, policy: np.ndarray) -> float:
    """The mean cross-entropy of ``policy``'s softmax against the visit shares, per decision (nats)."""
    rows, shares, starts = decisions.arrays()
    return -float(shares @ _log_softmax(rows @ policy, starts)) / len(starts)


def _log_softmax(logits: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Each row's log-probability within its decision (decisions are the runs of rows from each start)."""
    decision = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(logits))))
    shifted: np.ndarray = logits - np.maximum.reduceat(logits, starts)[decision]
    log_sums: np.ndarray = np.log(np.add.reduceat(np.exp(shifted), starts))
    log_p: np.ndarray = shifted - log_sums[decision]
    return log_p


def fit_policy(decisions: Decisions, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """The weights whose softmax comes nearest the visit shares: the mean cross-entropy, plus an L2 pull of
    ``l2`` toward the hand-made priors (``HAND_MADE``), minimised by Newton's method from them (the loss is
    convex; each step is halved until it lowers the loss)."""
    if not len(decisions):
        raise ValueError("no decisions to fit the policy to")
    rows, shares, starts = decisions.arrays()
    count = len(starts)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        log_p = _log_softmax(rows @ w, starts)
        return -float(shares @ log_p) / count + 0.5 * l2 * float((w - HAND_MADE) @ (w - HAND_MADE)), log_p

    w = HAND_MADE.copy()
    value, log_p = loss(w)
    for _ in range(steps):
        p = np.exp(log_p)
        gradient = rows.T @ (p - shares) / count + l2 * (w - HAND_MADE)
        expected = np.add.reduceat(rows * p[:, None], starts)  # each decision's mean features under the policy
        hessian = ((rows * p[:, None]).T @ rows - expected.T @ expected) / count + l2 * np.eye(len(w))
        delta = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        step = 1.0
        while step > 1e-6:
            tried, (tried_value, tried_log_p) = w - step * delta, loss(w - step * delta)
            if tried_value <= value:
                break
            step /= 2
        else:
            break
        w, value, log_p = tried, tried_value, tried_log_p
        if np.abs(step * delta).max() < 1e-9:
            break
    return w


def train_policy(
    game: str,
    generations: int = 1,
    games: int = 120,
    seed: int = 1,
    iterations: int = 8000,
    match_games: int = 100,
    match_iterations: int | None = None,
    workers: Workers = ONE_PROCESS,
    sampled_moves: int = 4,
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Run the expert-iteration loop for the policy; returns its weights and its learning curve."""
    if game not in GAMES:
        raise ValueError(f"the learned policy is trained for {', '.join(GAMES)}, not {game!r}")
    policy = HAND_MADE.copy()
    data, held_out = Decisions(), Decisions()
    curve = []
    started = time.perf_counter()
    versus = expert_searcher(game, match_iterations or iterations, NO_POLICY)
    for generation in range(generations):
        searcher = expert_searcher(game, iterations, policy)
        base = seed * 7_919 + generation * 100_000
        parts = workers.count * 4
        seeds = list(range(base, base + games))
        chunks = [(game, seeds[i::parts], searcher, sampled_moves) for i in range(parts)]
        for part in spread(_self_play_chunk, chunks, workers):
            data.extend(part)
        held_seeds = [base - 1 - i for i in range(max(2, games // 10))]
        held_chunks = [(game, held_seeds[i::parts], searcher, sampled_moves) for i in range(parts)]
        for part in spread(_self_play_chunk, held_chunks, workers):
            held_out.extend(part)
        policy = fit_policy(data)
        score = match(game, {**versus, "policy": policy}, versus, match_games, seed + generation, workers)
        entry = {
            "generation": generation + 1,
            "games": games * (generation + 1),
            "decisions": len(data),
            "held_out_cross_entropy": round(cross_entropy(held_out, policy), 4),
            "hand_made_cross_entropy": round(cross_entropy(held_out, HAND_MADE), 4),
            "score_vs_hand_made": round(score, 4),
            "match_games": match_games,
            "minutes": round((time.perf_counter() - started) / 60, 2),
        }
        curve.append(entry)
        report(json.dumps(entry))
    return {
        "game": game,
        "action_features": list(ACTION_FEATURES),
        "policy": policy.round(5).tolist(),
        "trained": {
            "generations": generations,
            "games": games,
            "seed": seed,
            "iterations": iterations,
            "match_iterations": match_iterations or iterations,
            "sampled_moves": sampled_moves,
            "match_games": match_games,
        },
        "curve": curve,
    }


def policy_path(game: str) -> Path:
    """Where ``game``'s shipped policy lives."""
    return training.WEIGHTS_DIR / f"{game}_policy.json"


def load_policy(path: Path) -> np.ndarray:
    """The policy weights in ``path``; `ValueError` when they are of other features or not numbers."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("action_features") != list(ACTION_FEATURES):
        raise ValueError(f"{path} was trained on other action features ({data.get('action_features')}); retrain it")
    policy = np.array(data["policy"], dtype=np.float64)
    if policy.shape != (ACTION_FEATURE_COUNT,) or not np.isfinite(policy).all():
        raise ValueError(f"{path} does not hold {ACTION_FEATURE_COUNT} numbers")
    return policy


_learned: dict[str, np.ndarray] = {}


def learned_policy(game: str) -> np.ndarray:
    """The expert level's learned policy for ``game``, loaded once; `FileNotFoundError` naming the file when it
    is missing, `ValueError` for a game without one."""
    if game not in _learned:
        if game not in GAMES:
            raise ValueError(f"{game!r} has no learned policy; the games with one are {', '.join(GAMES)}")
        path = policy_path(game)
        if not path.exists():
            raise FileNotFoundError(f"the learned policy of {game} needs its weights, and {path} is missing")
        _learned[game] = load_policy(path)
    return _learned[game]
