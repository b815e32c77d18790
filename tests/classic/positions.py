"""Classic positions for rule tests: the shared market helpers plus nobles and bonus colours."""

from __future__ import annotations

from typing import Any

import splendor
from splendor.games.classic.cards import CARDS, NOBLES, PALETTE
from splendor.games.classic.game import ClassicGame
from tests.market_positions import all_card_ids, give_card, give_reserved, give_tokens, place, pull_card, total_tokens

__all__ = ["all_card_ids", "give_card", "give_reserved", "give_tokens", "place", "pull_card", "total_tokens"]

W, B, G, R, K, Y = range(6)


def new(players: int = 2, seed: int = 1, **options: Any) -> ClassicGame:
    game = splendor.new_game("classic", players=players, seed=seed, **options)
    assert isinstance(game, ClassicGame)
    return game


def cards_with(tier: int, bonus: int | None = None, points: int | None = None) -> list[int]:
    """Ids of cards of a tier, optionally with a bonus colour and points."""
    return [
        c.id
        for c in CARDS
        if c.row == tier - 1 and (bonus is None or c.bonus == bonus) and (points is None or c.points == points)
    ]


def give_bonuses(game: ClassicGame, seat: int, **by_colour: int) -> None:
    """Give a seat bought cards (0-point tier-1 where possible) until it has these bonuses."""
    for name, n in by_colour.items():
        c = PALETTE.index(name)
        pool = [
            cid
            for cid in cards_with(1, c, 0) + cards_with(2, c) + cards_with(3, c)
            if not any(cid in b for b in game.bought) and not any(cid in r for r in game.reserved)
        ]
        for cid in pool[:n]:
            give_card(game, seat, cid)
        assert game.bonuses[seat][c] >= n


def set_nobles(game: ClassicGame, ids: list[int]) -> None:
    game.nobles = list(ids)


def noble_requiring(**req: int) -> int:
    want = tuple(req.get(g, 0) for g in PALETTE.names[:5])
    for n in NOBLES:
        if n.requires == want:
            return n.id
    raise AssertionError(f"no noble requires {req}")
