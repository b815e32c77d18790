"""Learning the expert level's evaluation from self-play (classic and Pokémon): ``splendor train``.

Expert iteration, small: the search plays itself on the compiled engine; every position of those games is
described by each seat's features (``features.FEATURES``) and labelled with who won; a logistic regression
fits the weights of the learned progress; the next generation plays with those weights, and its games are
added to the data. Generation 0 plays with the hand-made progress. After each generation a short match
between the search with the new weights and the search with the hand-made progress (equal iterations, seats
alternated) measures what was learned; those figures and the held-out log-loss make the learning curve.

Games of three or four (``--players``) are fitted as each seat's share of the win, the softmax of every seat's
progress, of which the two-player logistic of the lead is the case of two. Those weights are for measuring
(``benchmarks/lone_seat.py``): they searched no better than the two-player ones in games of four, so the
levels score every count with the two-player weights (docs/bots.md).

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
    """Positions of self-play games: each seat's features (row i is seat i's), the stage, and each seat's share of
    the win."""

    seats: list[np.ndarray] = field(default_factory=list)
    stages: list[float] = field(default_factory=list)
    labels: list[np.ndarray] = field(default_factory=list)

    def add(self, seats: np.ndarray, stage_: float, shares: np.ndarray) -> None:
        """One position: ``seats`` of shape (players, FEATURE_COUNT), its stage, and each seat's share of the win."""
        self.seats.append(np.asarray(seats, dtype=np.float64))
        self.stages.append(float(stage_))
        self.labels.append(np.asarray(shares, dtype=np.float64))

    def extend(self, other: Positions) -> None:
        self.seats += other.seats
        self.stages += other.stages
        self.labels += other.labels

    @property
    def players(self) -> int:
        """The seats of every position (all of one count)."""
        counts = {len(seats) for seats in self.seats}
        if not counts:
            raise ValueError("there are no positions to fit")
        if len(counts) != 1:
            raise ValueError(f"positions of one player count are fitted together, not of {sorted(counts)}")
        return counts.pop()

    def design(self) -> tuple[np.ndarray, np.ndarray]:
        """The regression's inputs and soft labels. Two players: seat 0's feature differences (early and late)
        and seat 0's share. More: each seat's features (early and late), shape (positions, players, 2·F), and
        every seat's share."""
        players = self.players
        x = np.array(self.seats)
        t = np.array(self.stages)[:, None]
        if players == 2:
            diff = x[:, 0] - x[:, 1]
            return np.hstack([diff, diff * t]), np.array(self.labels)[:, 0]
        return np.concatenate([x, x * t[:, :, None]], axis=2), np.array(self.labels)

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
    searchers: tuple[dict[str, Any], ...],
    sampled_moves: int = 0,
    record: Positions | None = None,
) -> list[float]:
    """Play one game dealt from ``seed`` with a seat for each searcher, seat ``i`` searching with
    ``searchers[i]`` (keyword arguments of ``searched``: iterations, depth, weights, shares); the first
    ``sampled_moves`` main decisions of each seat are drawn in proportion to the visits. Each main-phase
    position is added to ``record``. Returns each seat's share of the win."""
    players = len(searchers)
    fast = new_game(game, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    state = fast.state
    taken: list[tuple[np.ndarray, float]] = []
    main_moves = [0] * players
    while not fast.is_over:
        legal = fast.legal_indices()
        seat = int(state[m.SEAT])
        main = state[m.PHASE] == m.MAIN
        if main:
            features = np.zeros((players, FEATURE_COUNT))
            for p in range(players):
                features_into(state, p, features[p])
            taken.append((features, stage(state)))
        if len(legal) == 1:
            fast.step(int(legal[0]))
            continue
        found, _ = searched(state, seat, int(rng.integers(1 << 62)), **searchers[seat])
        action = choose(found, rng, main and main_moves[seat] < sampled_moves)
        main_moves[seat] += main
        fast.step(action)
    winners = fast.winners
    seats = range(players)
    shares = [1.0 / len(winners) if s in winners else 0.0 for s in seats] if winners else [1.0 / players] * players
    if record is not None:
        for features, t in taken:
            record.add(features, t, np.array(shares))
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


def search_seconds(game: str, searcher: dict[str, Any], players: int = 2, positions: int = 12, seed: int = 99) -> float:
    """The mean CPU seconds of one search by ``searcher`` (keyword arguments of `searched`) over the main-phase
    positions of a game of ``players`` dealt from ``seed`` and played by random legal moves, after one search of
    another deal not timed (the first pays for loading the compiled code). The benchmarks time two searchers so,
    on the same positions, to set a match at equal time: compare the ratio, machines are noisy."""
    warm = new_game(game, players=players, seed=seed - 1)
    searched(warm.state, int(warm.state[m.SEAT]), 1, **searcher)
    fast = new_game(game, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    spent, done = 0.0, 0
    while not fast.is_over and done < positions:
        legal = fast.legal_indices()
        if len(legal) > 1 and fast.state[m.PHASE] == m.MAIN:
            start = time.process_time()
            searched(fast.state, int(fast.state[m.SEAT]), 1, **searcher)
            spent += time.process_time() - start
            done += 1
        fast.step(int(legal[rng.integers(len(legal))]))
    return spent / max(done, 1)


def fit(positions: Positions, l2: float = 1.0, steps: int = 30) -> np.ndarray:
    """The weights under which each seat's share of the win is most likely: its share is the softmax of the
    seats' learned progress (Newton's method with an L2 penalty; no intercept, so the evaluation treats every
    seat alike). With two seats that is the logistic of seat 0's lead, and it is fitted as that, on the feature
    differences. Returns weights of shape (2, FEATURE_COUNT)."""
    x, y = positions.design()
    if x.ndim == 3:  # three or four seats
        return _fit_shares(x, y, l2, steps)
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


def _softmax(logits: np.ndarray) -> np.ndarray:
    """The softmax over each row's seats."""
    e: np.ndarray = np.exp(logits - logits.max(axis=1, keepdims=True))
    shares: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return shares


def _fit_shares(x: np.ndarray, y: np.ndarray, l2: float, steps: int) -> np.ndarray:
    """`fit` for three or four seats: a multinomial (conditional) logit over the seats, ``x`` of shape
    (positions, seats, 2·F), ``y`` every seat's share."""
    w = np.zeros(x.shape[2])
    for _ in range(steps):
        p = _softmax(x @ w)
        gradient = np.einsum("np,npi->i", p - y, x) + l2 * w
        mean = np.einsum("np,npi->ni", p, x)
        weighted = (x * p[:, :, None]).reshape(-1, x.shape[2])
        hessian = weighted.T @ x.reshape(-1, x.shape[2]) - mean.T @ mean + l2 * np.eye(x.shape[2])
        delta = np.linalg.solve(hessian, gradient)
        w -= delta
        if np.abs(delta).max() < 1e-8:
            break
    return w.reshape(2, FEATURE_COUNT)


def log_loss(positions: Positions, weights: np.ndarray) -> float:
    """The mean log-loss of ``weights`` on ``positions``: a coin toss is log 2 = 0.693 with two players, log 3 =
    1.099 with three, log 4 = 1.386 with four."""
    x, y = positions.design()
    if x.ndim == 3:  # three or four seats
        p = np.clip(_softmax(x @ weights.reshape(-1)), 1e-9, 1.0)
        return float(-np.mean((y * np.log(p)).sum(axis=1)))
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ weights.reshape(-1)))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _self_play_chunk(args: tuple[str, list[int], dict[str, Any], int, int]) -> Positions:
    game, seeds, searcher, sampled, players = args
    out = Positions()
    for seed in seeds:
        play(game, seed, (searcher,) * players, sampled, out)
    return out


def _match_chunk(args: tuple[str, list[tuple[int, int]], dict[str, Any], dict[str, Any], int]) -> float:
    game, games, a, b, players = args
    score = 0.0
    for seed, lone in games:
        seats = tuple(a if seat == lone else b for seat in range(players))
        score += play(game, seed, seats)[lone]
    return score


def match(
    game: str,
    a: dict[str, Any],
    b: dict[str, Any],
    games: int,
    seed: int,
    workers: Workers = ONE_PROCESS,
    players: int = 2,
) -> float:
    """Searcher ``a``'s share of the wins in one seat against ``b`` in every other, over ``games`` games (par is
    one in ``players``): each deal is played with ``a`` in every seat in turn (games ``k·players`` to
    ``k·players + players - 1`` share a deal). With three or four players ``games`` must be a whole number of
    deals (`ValueError`), so that no seat is favoured; with two, an odd last game is played from seat 0."""
    if players > 2 and games % players:
        raise ValueError(f"a match of {players} plays whole deals: {games} games is not a multiple of {players}")
    deals = [(seed * 1_000_003 + i // players, i % players) for i in range(games)]
    chunks = [(game, deals[i : i + players], a, b, players) for i in range(0, games, players)]
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
    players: int = 2,
) -> dict[str, Any]:
    """Run the self-play loop on ``workers`` (processes here, or Ray); returns the final weights and the learning
    curve (one entry a generation).

    Two players start from the hand-made progress and each generation's match is against it. Three or four
    start from the evaluation the expert scores every count with, the shipped two-player weights valued by each
    seat's lead over the best other, and are measured against it: the new weights, valued as they were fitted
    (each seat's share of every seat's progress), in one seat against it in the others, every deal from every
    seat (par one in ``players``)."""
    if game not in GAMES:
        raise ValueError(f"the learned evaluation is trained for {', '.join(GAMES)}, not {game!r}")
    if not 2 <= players <= 4:
        raise ValueError(f"a game has 2 to 4 players, not {players}")
    if players > 2 and match_games % players:
        raise ValueError(f"each match plays whole deals: {match_games} games is not a multiple of {players}")
    data = Positions()
    held_out = Positions()
    weights = cs.NO_WEIGHTS if players == 2 else learned_weights(game)
    plain: dict[str, Any] = {"iterations": iterations, "depth": depth}
    versus = plain if players == 2 else {**plain, "weights": weights}
    searcher = versus
    curve = []
    started = time.perf_counter()
    for generation in range(generations):
        base = seed * 7_919 + generation * 100_000
        seeds = list(range(base, base + games))
        parts = workers.count * 4
        chunks = [(game, seeds[i::parts], searcher, sampled_moves, players) for i in range(parts)]
        for part in spread(_self_play_chunk, chunks, workers):
            data.extend(part)
        held_seeds = [base - 1 - i for i in range(max(4, games // 10))]
        held_out.extend(_self_play_chunk((game, held_seeds, searcher, sampled_moves, players)))
        weights = fit(data)
        searcher = {**plain, "weights": weights, "shares": players > 2}
        score = match(game, searcher, versus, match_games, seed + generation, workers, players)
        entry = {
            "generation": generation + 1,
            "games": games * (generation + 1),
            "positions": len(data),
            "held_out_log_loss": round(log_loss(held_out, weights), 4),
            ("score_vs_hand" if players == 2 else "score_vs_two_player_weights"): round(score, 4),
            "match_games": match_games,
            "minutes": round((time.perf_counter() - started) / 60, 2),
        }
        curve.append(entry)
        report(json.dumps(entry))
    return {
        "game": game,
        "players": players,
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
    makes that an error). They are two-player weights: the levels score a game of three or four with them too,
    by each seat's lead over the best other (docs/bots.md: weights fitted on games of four did no better)."""
    path = WEIGHTS_DIR / f"{game}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    if data["features"] != list(FEATURES):
        raise ValueError(f"{path} was trained on other features ({data['features']}); retrain it")
    if data.get("players", 2) != 2:
        raise ValueError(f"{path} was trained on games of {data['players']} players; the levels' weights are of two")
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
