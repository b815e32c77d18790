"""Which games a tournament plays: every deal once per rotation of the bots around the table."""

from __future__ import annotations

from typing import Any

from splendor.arena.match import Match


def schedule(
    game: str,
    players: int,
    bots: list[str],
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    move_time: float = 5.0,
) -> list[Match]:
    """``games`` matches. Game ``i`` deals seed ``seed + i // players`` and seats the bots rotated by
    ``i % players``, so each deal is played from every seat and no bot gains from its seat or from moving
    first (seat 0 always starts)."""
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    names = entry_names(bots)
    if games < 1:
        raise ValueError("a tournament plays at least one game")
    matches = []
    for i in range(games):
        rotation = i % players
        order = [(s + rotation) % players for s in range(players)]
        seated = tuple(bots[k] for k in order)
        matches.append(
            Match(
                index=i,
                game=game,
                players=players,
                seed=seed + i // players,
                bots=seated,
                names=tuple(names[k] for k in order),
                bot_seeds=tuple((seed * 7919 + i * 31 + s) % (1 << 31) for s in range(players)),
                options=dict(options or {}),
                move_time=move_time,
            )
        )
    return matches


def entry_names(bots: list[str]) -> list[str]:
    """A name per entry: the spec, or ``greedy#1``, ``greedy#2`` for a bot entered twice."""
    seen: dict[str, int] = {}
    names = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if bots.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return names
