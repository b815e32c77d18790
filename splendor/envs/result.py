"""A finished game's result as each seat's reward, the same in every environment."""

from __future__ import annotations

from splendor.core.game import Game


def outcome(game: Game, seat: int) -> float:
    """+1 for the sole winner, 0 for a shared victory or a game with no winner (stalled, at its turn cap), -1 for
    a seat that lost; 0 while the game goes on."""
    if not game.is_over:
        return 0.0
    winners = list(game.winners)
    if seat in winners:
        return 1.0 if len(winners) == 1 else 0.0
    return -1.0 if winners else 0.0
