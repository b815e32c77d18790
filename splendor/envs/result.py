"""A finished game's result as each seat's reward, and the turn cap that may end it first, the same in every
environment."""

from __future__ import annotations

import operator

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


def player_count(players: object) -> int:
    """``players`` as an ``int`` from 2 to 4 (a Python or NumPy integer), or `ValueError`: not "2", 2.0 or True.

    >>> player_count(3)
    3
    """
    count = None if isinstance(players, bool) or not hasattr(players, "__index__") else operator.index(players)
    if count is None or not 2 <= count <= 4:
        raise ValueError(f"a game has 2 to 4 players, not {players!r}")
    return count


def check_max_turns(players: int, max_turns: object, uncapped: bool = True) -> None:
    """Refuse (`ValueError`) a turn cap that ends a game before every seat has played: None (no cap, where
    ``uncapped``; an OpenSpiel parameter cannot be None) or at least ``players`` turns. A cap of one had ended a
    Gymnasium episode after the learner's first move, the opponent never playing, where the vectorised games
    refused it."""
    if max_turns is None and uncapped:
        return
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < players:
        allowed = "None or at least" if uncapped else "at least"
        raise ValueError(
            f"max_turns is {allowed} the {players} players' first turns (so every seat plays), not {max_turns!r}"
        )
