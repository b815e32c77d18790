"""Playing many games without people: bot-versus-bot simulation and the engine benchmark."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from splendor.arena.match import Match, play_match
from splendor.bots.base import Bot, decide
from splendor.core.game import Game
from splendor.games import new_game


def play_out(game: Game, bots: list[Bot]) -> Game:
    """Play ``game`` to its end, each seat's decisions made by its bot. Returns the game."""
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game))
    return game


@dataclass
class SimulationReport:
    """What ``simulate`` measured."""

    game: str
    players: int
    seats: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    shared_wins: list[int] = field(default_factory=list)
    truncated: int = 0
    stalled: int = 0
    forfeits: list[int] = field(default_factory=list)
    forfeit_reasons: list[str | None] = field(default_factory=list)  # per seat, why it last forfeited
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "game": self.game,
            "players": self.players,
            "seats": self.seats,
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "truncated": self.truncated,
            "stalled": self.stalled,
            "forfeits": self.forfeits,
            "forfeit_reasons": self.forfeit_reasons,
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0.0,
            "decisions": self.decisions,
            "decisions_per_second": round(self.decisions / self.seconds, 1) if self.seconds else 0.0,
            "seconds": round(self.seconds, 3),
        }


def simulate(
    game: str,
    players: int,
    seats: list[str],
    games: int,
    seed: int,
    max_turns: int | None = 500,
    options: dict[str, Any] | None = None,
    records: Path | None = None,
) -> SimulationReport:
    """Play ``games`` bot games; game ``i`` uses seed ``seed + i``. Seat ``s`` is always played by ``seats[s]``.
    A bot that fails (an outside program: late, illegal, crashed) loses that game by forfeit, as in the arena, the
    other seats sharing the win, and the run goes on.

    With ``records``, each game's record is written there as ``<game>-<seed>.record``, with its bots in its notes.
    """
    if len(seats) != players:
        raise ValueError(f"{players} players need {players} seats, got {len(seats)}")
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)  # before the first game: a folder that cannot be is said at once
    report = SimulationReport(
        game=game,
        players=players,
        seats=list(seats),
        wins=[0] * players,
        shared_wins=[0] * players,
        forfeits=[0] * players,
        forfeit_reasons=[None] * players,
    )
    start = time.perf_counter()
    for i in range(games):
        match = Match(
            index=i,
            game=game,
            players=players,
            seed=seed + i,
            bots=tuple(seats),
            bot_seeds=tuple((seed + i) * 16 + s for s in range(players)),
            options={**(options or {}), "max_turns": max_turns},
        )
        result = play_match(match)
        if records is not None:
            (records / f"{game}-{seed + i}.record").write_text(result.record, encoding="utf-8")
        report.games += 1
        report.decisions += result.decisions
        report.turns += result.turns
        report.truncated += result.status == "truncated"
        report.stalled += result.status == "stalled"
        if result.forfeit is not None:
            report.forfeits[result.forfeit["seat"]] += 1
            report.forfeit_reasons[result.forfeit["seat"]] = result.forfeit["reason"]
        for w in result.winners:
            if len(result.winners) == 1:
                report.wins[w] += 1
            else:
                report.shared_wins[w] += 1
    report.seconds = time.perf_counter() - start
    return report


def bench(
    game: str = "classic", players: int = 2, seconds: float = 5.0, seed: int = 0, max_turns: int = 1000
) -> dict[str, Any]:
    """Random playouts of the reference engine for about ``seconds`` of CPU time: decisions and games per
    CPU-second (CPU time, so that other work on the machine does not count against the engine).

    A decision is one ``legal_actions()`` plus one ``apply`` of a uniformly chosen action, as a search
    rollout does.
    """
    rng = random.Random(seed)
    decisions = games = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        g = new_game(game, players=players, seed=rng.randrange(1 << 62), max_turns=max_turns)
        while not g.is_over:
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            decisions += 1
        games += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {
        "game": game,
        "players": players,
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "decisions_per_second": round(decisions / elapsed, 1),
        "games_per_second": round(games / elapsed, 2),
    }
