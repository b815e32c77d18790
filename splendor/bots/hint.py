"""A hint: the move the strongest bot would make for a seat, with its estimated chance of winning.

Asked of the bots (never of the rules): the search sees only what that seat may see, so a hint leaks nothing
hidden. The terminal's ``splendor hint`` and the server's hint for a seat both come here.

    >>> import splendor
    >>> advice = hint(splendor.new_game("classic", players=2, seed=1), iterations=50)
    >>> sorted(advice)
    ['action', 'alternatives', 'iterations', 'level', 'seat', 'win_chance']
"""

from __future__ import annotations

from typing import Any

from splendor.bots.base import decision_for
from splendor.bots.search import SearchBot
from splendor.core.game import Game

HINT_LEVEL = "expert"
"""The level that hints: the strongest there is."""


def judge(seed: int, iterations: int | None = None) -> SearchBot:
    """The search that hints and reviews: the expert's, valuing a game of three or four by each seat's share of the
    win (``shares``), so that its chances are win chances at every count, about one in four at the start of a
    game of four, where the lead over the best other seat the expert plays by gives every seat about a half
    (with two players the two are the same, to the last bit)."""
    bot = SearchBot(seed=seed, level=HINT_LEVEL, iterations=iterations)
    bot.shares = True
    return bot


def hint(game: Game, seat: int | None = None, iterations: int | None = None, seed: int = 0) -> dict[str, Any]:
    """The move the search prefers for ``seat`` (default: the seat to decide), its estimated win chance and
    the runners-up, searched at the strongest level (or for ``iterations`` iterations with the expert's
    evaluation). `ValueError` when the game is over or it is another seat's decision."""
    seat = game.current_player if seat is None else seat
    if seat is None or game.is_over:
        raise ValueError("the game is over: there is nothing to hint")
    if seat != game.current_player:
        raise ValueError(f"it is seat {game.current_player}'s decision, not seat {seat}'s")
    result = judge(seed, iterations).search(decision_for(game))
    return {
        "seat": seat,
        "action": result.best.text,
        "win_chance": round(result.win_chance, 3),
        "alternatives": [{"action": a.text, "visits": v, "win_chance": round(q, 3)} for a, v, q in result.actions[:5]],
        "iterations": result.iterations,
        "level": HINT_LEVEL,
    }
