"""One game of a tournament: what is played (`Match`), and what came of it (`MatchResult`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from splendor.bots.base import Forfeit, decide, ending, finish_bots, make_bot
from splendor.bots.external import ExternalBot
from splendor.games import new_game


@dataclass(frozen=True)
class Match:
    """Everything that decides a game: it is played the same wherever it runs."""

    index: int
    game: str
    players: int
    seed: int
    bots: tuple[str, ...]  # bot spec per seat
    bot_seeds: tuple[int, ...]
    names: tuple[str, ...] = ()  # per seat, the name in the standings (default: the spec)
    options: dict[str, Any] = field(default_factory=dict)
    move_time: float = 5.0  # outside bots' time per decision


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one game."""

    index: int
    bots: tuple[str, ...]  # per seat, the name in the standings
    status: str  # won | shared | truncated | stalled | forfeit
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    decisions: int
    seconds: float
    record: str
    forfeit: dict[str, Any] | None = None

    def ranks(self) -> list[int]:
        """Rank per seat for ratings: winners 1, everyone else 2 (a truncated or stalled game: all 1)."""
        if not self.winners:
            return [1] * len(self.bots)
        return [1 if s in self.winners else 2 for s in range(len(self.bots))]


def play_match(match: Match) -> MatchResult:
    """Play one game between the match's bots. A forfeit ends the game: the others share the win."""
    start = time.perf_counter()
    game = new_game(match.game, players=match.players, seed=match.seed, **match.options)
    bots = [make_bot(spec, seed=s) for spec, s in zip(match.bots, match.bot_seeds)]
    for bot in bots:
        if hasattr(bot, "time_limit"):
            bot.time_limit = match.move_time
    names = match.names or match.bots
    forfeit: dict[str, Any] | None = None
    try:
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            game.apply(decide(bots[seat], game))
    except Forfeit as f:
        forfeit = {"seat": f.seat, "bot": names[f.seat], "reason": f.reason}
    finally:
        result = ending(game, forfeit)
        finish_bots(bots, result)
    record = game.record
    record.notes = {"bots": list(names), "match": match.index}
    outside = [bot.seed if isinstance(bot, ExternalBot) and bot.started else None for bot in bots]
    if any(seed is not None for seed in outside):  # drawn afresh, to tell nothing of the deal: kept, by seat
        record.notes["outside_seeds"] = outside
    if forfeit is not None:
        record.notes["forfeit"] = forfeit
    winners, status = tuple(result["winners"]), str(result["status"])
    return MatchResult(
        index=match.index,
        bots=tuple(names),
        status=status,
        winners=winners,
        scores=tuple(game.scores),
        turns=game.turns,
        decisions=len(game.history),
        seconds=time.perf_counter() - start,
        record=record.to_text(),
        forfeit=forfeit,
    )
