"""Standings: wins, shared wins, win rate with a 95% confidence interval, and an OpenSkill rating per bot."""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

from splendor.arena.match import MatchResult


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Standing:
    """One bot's line in the table."""

    bot: str
    games: int = 0
    wins: int = 0
    shared: int = 0
    forfeits: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def rating(self) -> float:
        """The conservative rating, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared,
            "forfeits": self.forfeits,
            "win_rate": round(self.win_rate, 4),
            "win_rate_95": [round(low, 4), round(high, 4)],
            "rating": round(self.rating, 3),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
        }


def standings(results: list[MatchResult], bots: list[str]) -> list[Standing]:
    """Standings of ``bots`` over ``results`` taken in match order (so every back end gives the same ratings)."""
    table = {b: Standing(b) for b in bots}
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    for r in sorted(results, key=lambda x: x.index):
        for seat, bot in enumerate(r.bots):
            line = table[bot]
            line.games += 1
            if seat in r.winners:
                if len(r.winners) == 1:
                    line.wins += 1
                else:
                    line.shared += 1
            if r.forfeit and r.forfeit["seat"] == seat:
                line.forfeits += 1
        teams = [[ratings[b]] for b in r.bots]
        new = model.rate(teams, ranks=[float(rank) for rank in r.ranks()])
        for b, team in zip(r.bots, new):
            ratings[b] = team[0]
    for b in bots:
        table[b].mu, table[b].sigma = ratings[b].mu, ratings[b].sigma
    return sorted(table.values(), key=lambda s: -s.rating)
