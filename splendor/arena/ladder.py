"""The ladder: the server's bots rated against one another from an arena run, not set by hand.

Each bot plays the next ``reach`` bots above it on the ladder (two-player games, each deal from both seats), and
one strength per bot is fitted to all the games at once (Bradley–Terry, by maximum likelihood) on the scale of
the OpenSkill model that rates the server's games: bot A beats bot B with ``1 / (1 + exp(-(μA - μB) / c))``,
``c = √(2β² + 2σ²)`` for two bots of the fixed uncertainty ``σ`` the server gives them. A shared win counts half
to each. The first bot given (the ladder's weakest) is the floor (μ 0), so that the numbers keep their meaning
from one run to the next.

A pair whose games all went one way says only that the gap is large, not how large: every pair is credited one
extra game shared half and half (a virtual draw), which keeps each gap finite and is written into the file.

>>> pairs = ladder_pairs(["random", "greedy", "ismcts:easy"], reach=2)
>>> pairs
[('random', 'greedy'), ('random', 'ismcts:easy'), ('greedy', 'ismcts:easy')]
>>> fit = fit_ladder(["random", "greedy", "ismcts:easy"], {("random", "greedy"): (2.0, 20), ("greedy",
...     "ismcts:easy"): (10.0, 20)})
>>> fit.mu["random"], fit.mu["greedy"] > 10, abs(fit.mu["ismcts:easy"] - fit.mu["greedy"]) < 0.01
(0.0, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

from splendor.arena.match import Match, MatchResult
from splendor.arena.schedule import schedule

LADDER = (
    "random",
    "greedy",
    "ismcts:easy",
    "ismcts:medium",
    "learned",
    "ismcts:hard",
    "ismcts:advanced",
    "ismcts:expert",
)
"""The server's bots in the order of their expected strength, weakest first (the fit does not assume it: the
order only says which pairs meet)."""

BOT_SIGMA = 1.0
"""The fixed uncertainty σ of a bot's rating on the server: a bot's strength does not change with its games."""

FIT_STEPS = 100
"""Newton's steps the fit may take (it settles in a handful: the likelihood is concave)."""

VIRTUAL_DRAW = 0.5
"""The extra game shared half and half that every pair is credited with (``VIRTUAL_DRAW`` to each side)."""


def ladder_pairs(bots: list[str] | tuple[str, ...], reach: int = 2) -> list[tuple[str, str]]:
    """Each bot with the next ``reach`` bots above it, weakest first."""
    if reach < 1:
        raise ValueError("each bot must meet at least the next one (reach 1 or more)")
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise ValueError("a ladder needs two or more different bots")
    return [(bots[i], bots[j]) for i in range(len(bots)) for j in range(i + 1, min(len(bots), i + 1 + reach))]


def ladder_matches(
    bots: list[str] | tuple[str, ...],
    games: int,
    seed: int,
    reach: int = 2,
    game: str = "classic",
    kept: Collection[tuple[str, str]] = (),
) -> list[Match]:
    """The games of a ladder run: ``games`` two-player games per pair (an even number: each deal from both
    seats), pair ``k`` dealing the seeds from ``seed + 100_000·k`` on, indexed one after another; pairs in
    ``kept`` (their games already played, `kept_pairs`) are not played again, and the others keep the deals a
    whole run would give them."""
    if games < 2 or games % 2:
        raise ValueError("each pair plays an even number of games (each deal from both seats), at least 2")
    matches: list[Match] = []
    for k, (low, high) in enumerate(ladder_pairs(bots, reach)):
        if (low, high) in kept:
            continue
        for m in schedule(game, 2, [low, high], games, seed + 100_000 * k):
            matches.append(Match(**{**m.__dict__, "index": len(matches)}))
    return matches


def tally(results: list[MatchResult], bots: list[str] | tuple[str, ...]) -> dict[tuple[str, str], tuple[float, int]]:
    """Per pair (lower on the ladder ``bots`` first), the lower bot's score (a win 1, a shared win ½) and the
    games played. A game that ended without a winner (truncated, stalled) counts as shared."""
    place = {b: i for i, b in enumerate(bots)}
    scores: dict[tuple[str, str], list[float]] = {}
    for r in results:
        if len(r.bots) != 2:
            raise ValueError(f"game {r.index} has {len(r.bots)} players; a ladder is rated on two-player games")
        low = min((0, 1), key=lambda seat: place[r.bots[seat]])
        line = scores.setdefault((r.bots[low], r.bots[1 - low]), [0.0, 0])
        winners = r.winners or (0, 1)
        line[0] += (1.0 if low in winners else 0.0) / len(winners)
        line[1] += 1
    return {k: (v[0], int(v[1])) for k, v in scores.items()}


@dataclass(frozen=True)
class KeptPair:
    """A pair's games kept from an earlier ladder file: the lower bot's score, the games, and the command that
    played them (which plays them again)."""

    score: float
    games: int
    played_by: str


def kept_pairs(
    record: dict[str, Any], bots: list[str] | tuple[str, ...], games: int
) -> dict[tuple[str, str], KeptPair]:
    """The pairs of an earlier ladder file (``record``, as `splendor ladder --out` writes it) that a new ladder of
    ``bots`` can keep rather than play again: both bots on it and the same number of games, with the command
    that played each (a pair kept before keeps the command that first played it). `ValueError` when the file is
    not a two-player classic ladder."""
    if record.get("game") != "classic" or record.get("players") != 2 or not isinstance(record.get("pairs"), list):
        raise ValueError("the file to reuse is not a ladder of two-player classic games (splendor ladder --out)")
    on = set(bots)
    kept: dict[tuple[str, str], KeptPair] = {}
    for line in record["pairs"]:
        low, high = line["bots"]
        if low in on and high in on and int(line["games"]) == games:
            low, high = sorted((low, high), key=list(bots).index)
            score = float(line["score"]) if (low, high) == tuple(line["bots"]) else games - float(line["score"])
            kept[low, high] = KeptPair(score, games, str(line.get("played_by", record["command"])))
    return kept


@dataclass(frozen=True)
class PairFit:
    """One pair's games: the lower bot's score (a win 1, a shared win ½) and the share of the games the fit gives
    it beside the share it scored."""

    bots: tuple[str, str]
    games: int
    score: float
    observed: float
    predicted: float


@dataclass
class LadderFit:
    """The fitted strengths: ``mu`` per bot (the floor 0), ``error`` its standard error (the floor 0), the model's
    ``scale``, and each pair's games beside what the fit says of them."""

    mu: dict[str, float]
    error: dict[str, float]
    scale: float
    pairs: list[PairFit] = field(default_factory=list)


def win_chance(mu_a: float, mu_b: float, scale: float) -> float:
    """The chance the model gives bot A to beat bot B."""
    return 1.0 / (1.0 + math.exp(-(mu_a - mu_b) / scale))


def model_scale(sigma: float = BOT_SIGMA) -> float:
    """``c = √(2β² + 2σ²)``: the scale of the OpenSkill model's win chance between two bots of uncertainty σ."""
    return math.sqrt(2 * PlackettLuce().beta ** 2 + 2 * sigma**2)


def fit_ladder(bots: list[str] | tuple[str, ...], scores: dict[tuple[str, str], tuple[float, int]]) -> LadderFit:
    """The strengths that make the pairs' scores most likely (Newton's method), each pair credited its virtual
    draw, ``bots[0]`` the floor; `ValueError` when the pairs leave a bot unconnected to it."""
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    linked = {bots[0]}
    for _ in range(n):
        for a, b in scores:
            if a in linked or b in linked:
                linked |= {a, b}
    if missing := [b for b in bots if b not in linked]:
        raise ValueError(f"no games link {', '.join(missing)} to {bots[0]}")
    unknown = {b for pair in scores for b in pair} - set(bots)
    if unknown:
        raise ValueError(f"games of bots not on the ladder: {', '.join(sorted(unknown))}")
    c = model_scale()
    won = [(index[a], index[b], s + VIRTUAL_DRAW, g + 2 * VIRTUAL_DRAW) for (a, b), (s, g) in scores.items()]
    mu = np.zeros(n)
    hessian = np.zeros((n, n))
    for _ in range(FIT_STEPS):
        gradient = np.zeros(n)
        hessian = np.zeros((n, n))
        for i, j, s, g in won:
            p = win_chance(mu[i], mu[j], c)
            gradient[i] += (s - g * p) / c
            gradient[j] -= (s - g * p) / c
            w = g * p * (1 - p) / c**2
            hessian[i, i] -= w
            hessian[j, j] -= w
            hessian[i, j] += w
            hessian[j, i] += w
        step = np.linalg.solve(hessian[1:, 1:], -gradient[1:])
        mu[1:] += step
        if np.max(np.abs(step)) < 1e-9:
            break
    else:
        raise ValueError(f"the fit did not settle in {FIT_STEPS} steps")
    covariance = np.linalg.inv(-hessian[1:, 1:])
    error = np.concatenate([[0.0], np.sqrt(np.diag(covariance))])
    fit = LadderFit(
        mu={b: round(float(mu[index[b]]), 3) + 0.0 for b in bots},
        error={b: round(float(error[index[b]]), 3) for b in bots},
        scale=c,
    )
    for (a, b), (s, g) in scores.items():
        predicted = round(win_chance(mu[index[a]], mu[index[b]], c), 4)
        fit.pairs.append(PairFit((a, b), g, s, round(s / g, 4) if g else 0.0, predicted))
    return fit
