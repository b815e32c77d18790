"""Pokémon positions for rule tests: the shared market helpers plus finding cards by name."""

from __future__ import annotations

from typing import Any

import splendor
from splendor.games.pokemon.cards import CARDS
from splendor.games.pokemon.game import PokemonGame

R, B, K, P, Y, M = range(6)


def new(players: int = 2, seed: int = 1, **options: Any) -> PokemonGame:
    game = splendor.new_game("pokemon", players=players, seed=seed, **options)
    assert isinstance(game, PokemonGame)
    return game


def ids(name: str) -> list[int]:
    """The ids of every copy of a Pokémon."""
    found = [c.id for c in CARDS if c.name == name]
    assert found, f"no Pokémon named {name}"
    return found


def card_costing(name: str, **cost: int) -> int:
    """The copy of a Pokémon with exactly this cost (ball colour → count)."""
    from splendor.games.pokemon.cards import PALETTE

    want = tuple(cost.get(n, 0) for n in PALETTE.names)
    for cid in ids(name):
        if CARDS[cid].cost == want:
            return cid
    raise AssertionError(f"no {name} costs {cost}")
