"""Random playouts for property tests: every game in the registry, seeded."""

from __future__ import annotations

import random
from collections.abc import Iterator

import splendor
from splendor.core.game import Game


def random_game(name: str, players: int, seed: int, max_turns: int = 400, **options: object) -> Game:
    return splendor.new_game(name, players=players, seed=seed, max_turns=max_turns, **options)


def playout(game: Game, rng: random.Random) -> Iterator[Game]:
    """Yield the game before every decision, then play a uniformly random legal action."""
    while not game.is_over:
        yield game
        acts = game.legal_actions()
        game.apply(acts[rng.randrange(len(acts))])
