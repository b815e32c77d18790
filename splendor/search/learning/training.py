"""Learning the expert level's evaluation from self-play (classic and Pokémon): ``splendor train``.

Expert iteration, small: the search plays itself on the compiled engine; every position of those games is
described by each seat's features (``features.FEATURES``) and labelled with who won; a logistic regression
fits the weights of the learned progress; the next generation plays with those weights, and its games are
added to the data. Generation 0 plays with the hand-made progress. After each generation a short match
between the search with the new weights and the search with the hand-made progress (equal iterations, seats
alternated) measures what was learned; those figures and the held-out log-loss make the learning curve.

Everything is seeded: the same command gives the same weights (the matches and the games are played by
iteration budgets, never by the clock).

    splendor train --game classic --generations 3 --games 300 --seed 1
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
from splendor.search import compiled as cs
from splendor.search.learning.features import FEATURE_COUNT, FEATURES, features_into, stage
from splendor.search.learning.network import NO_NETWORK, Network
from splendor.search.learning.policy import NO_POLICY
from splendor.search.levels import EXPLORATION
from splendor.search.market import DEPTH

GAMES = ("classic", "pokemon")
"""The games whose evaluation is learned here (the Kids expert plans its race instead: ``splendor.search.plan``)."""

WEIGHTS_DIR = Path(__file__).with_name("weights")
"""Where the shipped weights live: ``weights/<game>.json``."""


@dataclass
class Positions:
    """Positions of two-player games: each seat's features, the stage, and seat 0's share of the win."""

    first: list[np.ndarray] = field(default_factory=list)
    second: list[np.ndarray] = field(default_factory=list)
    stages: list[float] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)

    def extend(self, other: Positions) -> None:
        self.first += other.first
        self.second += other.second
        self.stages += other.stages
        self.labels += other.labels

    def design(self) -> tuple[np.ndarray, np.ndarray]:
        """The regression's inputs (feature differences, early and late) and its soft labels."""
        diff = np.array(self.first) - np.array(self.second)
        t = np.array(self.stages)[:, None]
        return np.hstack([diff, diff * t]), np.array(self.labels)

    def __len__(self) -> int:
        return len(self.labels)


def choose(found: dict[int, tuple[int, float]], rng: np.random.Generator, sample: bool) -> int:
    """The most visited root action, or one drawn in proportion to the visits (the opening's variety)."""
    actions = sorted(found)
    visits = np.array([found[a][0] for a in actions], dtype=np.float64)
    if sample and visits.sum() > 0:
        return actions[int(rng.choice(len(actions), p=visits / visits.sum()))]
    return max(actions, key=lambda a: (found[a][0], found[a][1], -a))


def play(
    game: str,
    seed: int,
    searchers: tuple[dict[str, Any], dict[str, Any]],
    sampled_moves: int = 0,
    record: Positions | None = None,
) -> list[float]:
    """Play one two-player game dealt from ``seed``, seat ``i`` searching with ``searchers[i]`` (keyword
    arguments of ``searched``: iterations, depth, weights); the first ``sampled_moves``
    main decisions of each seat are drawn in proportion to the visits. Each main-phase position is added to
    ``record``. Returns each seat's share of the win."""
    fast = new_game(game, players=2, seed=seed)
    rng = np.random.default_rng(seed)
    state = fast.state
    features = [np.zeros(FEATURE_COUNT), np.zeros(FEATURE_COUNT)]
    taken: list[tuple[np.ndarray, np.ndarray, float]] = []
    main_moves = [0, 0]
    while not fast.is_over:
        legal = fast.legal_indices()
        seat = int(state[m.SEAT])
        main = state[m.PHASE] == m.MAIN
        if main:
            for p in (0, 1):
                features_into(state, p, features[p])
            taken.append((features[0].copy(), features[1].copy(), stage(state)))
        if len(legal) == 1:
            fast.step(int(legal[0]))
            continue
        found, _ = searched(state, seat, int(rng.integers(1 << 62)), **searchers[seat])
        action = choose(found, rng, main and main_moves[seat] < sampled_moves)
        main_moves[seat] += main
        fast.step(action)
    winners = fast.winners
    shares = [1.0 / len(winners) if s in winners else 0.0 for s in (0, 1)] if winners else [0.5, 0.5]
    if record is not None:
        for f0, f1, t in taken:
            record.first.append(f0)
            record.second.append(f1)
            record.stages.append(t)
            record.labels.append(shares[0])
    return shares


def searched(
    state: np.ndarray,
    seat: int,
    seed: int,
    iterations: int,
    depth: int = DEPTH,
    weights: np.ndarray = cs.NO_WEIGHTS,
    exploration: float = EXPLORATION,
    policy: np.ndarray = NO_POLICY,
    mix: float = 0.0,
    network: Network = NO_NETWORK,
    shares: bool = False,
) -> tuple[dict[int, tuple[int, float]], int]:
    """The compiled search of a market game's ``state`` for ``seat``, scored by the learned ``weights`` (or the
    hand-made progress), exploring by the learned ``policy`` (or the kinds' priors) with ``exploration``,
    playouts of ``depth``, ``mix`` of each value the new leaf's own, guided by ``network`` when given, valuing
    a game of three or four by each seat's share of every seat's progress if ``shares``."""
    know = cs.market_knowledge(weights, policy, network)
    settings = cs.settings(exploration, depth, mix=mix, shares=shares)
    return cs.search_state(state, seat, know, seed, iterations, None, settings)


def fit(positions: Positions, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """Logistic regression of seat 0's share on the feature differences (Newton's method with an L2 penalty;
    no intercept, so the evaluation treats both seats alike). Returns weights of shape (2, FEATURE_COUNT)."""
    x, y = positions.design()
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        delta = np.linalg.solve(hessian, gradient)
        w -= delta
        if np.abs(delta).max() < 1e-8:
            break
    return w.reshape(2, FEATURE_COUNT)


def log_loss(positions: Positions, weights: np.ndarray) -> float:
    """The mean log-loss of ``weights`` on ``positions`` (log 2 = 0.693 is a coin toss)."""
    x, y = positions.design()
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ weights.reshape(-1)))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _self_play_chunk(args: tuple[str, list[int], dict[str, Any], int]) -> Positions:
    game, seeds, searcher, sampled = args
    out = Positions()
    for seed in seeds:
        play(game, seed, (searcher, searcher), sampled, out)
    return out


def _match_chunk(args: tuple[str, list[int], dict[str, Any], dict[str, Any]]) -> float:
    game, seeds, a, b = args
    score = 0.0
    for i, seed in enumerate(seeds):
        seats = (a, b) if i % 2 == 0 else (b, a)
        score += play(game, seed, seats)[i % 2]
    return score


def match(
    game: str, a: dict[str, Any], b: dict[str, Any], games: int, seed: int, workers: Workers = ONE_PROCESS
) -> float:
    """Searcher ``a``'s share of the wins against ``b`` over ``games`` games (each deal played from both seats:
    games 2k and 2k+1 share a deal)."""
    seeds = [seed * 1_000_003 + i // 2 for i in range(games)]
    chunks = [(game, seeds[i : i + 2], a, b) for i in range(0, games, 2)]
    scores: list[float] = spread(_match_chunk, chunks, workers)
    return sum(scores) / games


def train(
    game: str,
    generations: int = 3,
    games: int = 300,
    seed: int = 1,
    iterations: int = 1500,
    depth: int = 8,
    match_games: int = 60,
    workers: Workers = ONE_PROCESS,
    sampled_moves: int = 4,
    report: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Run the self-play loop on ``workers`` (processes here, or Ray); returns the final weights and the learning
    curve (one entry a generation)."""
    if game not in GAMES:
        raise ValueError(f"the learned evaluation is trained for {', '.join(GAMES)}, not {game!r}")
    data = Positions()
    held_out = Positions()
    weights = cs.NO_WEIGHTS
    curve = []
    hand = {"iterations": iterations, "depth": depth}
    started = time.perf_counter()
    for generation in range(generations):
        searcher = {"iterations": iterations, "depth": depth, "weights": weights}
        base = seed * 7_919 + generation * 100_000
        seeds = list(range(base, base + games))
        parts = workers.count * 4
        chunks = [(game, seeds[i::parts], searcher, sampled_moves) for i in range(parts)]
        for part in spread(_self_play_chunk, chunks, workers):
            data.extend(part)
        held = _self_play_chunk((game, [base - 1 - i for i in range(max(4, games // 10))], searcher, sampled_moves))
        held_out.extend(held)
        weights = fit(data)
        score = match(game, {**hand, "weights": weights}, hand, match_games, seed + generation, workers)
        entry = {
            "generation": generation + 1,
            "games": games * (generation + 1),
            "positions": len(data),
            "held_out_log_loss": round(log_loss(held_out, weights), 4),
            "score_vs_hand": round(score, 4),
            "match_games": match_games,
            "minutes": round((time.perf_counter() - started) / 60, 2),
        }
        curve.append(entry)
        report(json.dumps(entry))
    return {
        "game": game,
        "features": list(FEATURES),
        "weights": weights.round(5).tolist(),
        "trained": {
            "generations": generations,
            "games": games,
            "seed": seed,
            "iterations": iterations,
            "depth": depth,
            "sampled_moves": sampled_moves,
            "match_games": match_games,
        },
        "curve": curve,
    }


def load_weights(game: str) -> np.ndarray | None:
    """The shipped weights of ``game``'s learned evaluation, or None when its file is missing (``learned_weights``
    makes that an error)."""
    path = WEIGHTS_DIR / f"{game}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if data["features"] != list(FEATURES):
        raise ValueError(f"{path} was trained on other features ({data['features']}); retrain it")
    weights = np.array(data["weights"], dtype=np.float64)
    if weights.shape != (2, FEATURE_COUNT) or not np.isfinite(weights).all():
        raise ValueError(f"{path} does not hold a (2, {FEATURE_COUNT}) array of numbers")
    return weights


_learned: dict[str, np.ndarray] = {}


def learned_weights(game: str) -> np.ndarray:
    """The expert level's learned evaluation weights for ``game`` (``WEIGHTS_DIR``), loaded once;
    `FileNotFoundError` naming the file when it is missing (an installation without them), `ValueError` for a
    game whose evaluation is not learned."""
    if game not in _learned:
        if game not in GAMES:
            raise ValueError(f"{game!r} has no learned evaluation; the games with one are {', '.join(GAMES)}")
        found = load_weights(game)
        if found is None:
            raise FileNotFoundError(
                f"the learned evaluation of {game} needs its weights, and {WEIGHTS_DIR / (game + '.json')} is missing"
            )
        _learned[game] = found
    return _learned[game]
