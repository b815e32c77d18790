"""Building classic positions for rule tests: start from a real game, then set what the rule needs.

Every helper keeps tokens and cards conserved, so the engine's invariants hold in the positions too.
"""

from __future__ import annotations

from typing import Any

import splendor
from splendor.games.classic.cards import CARDS, NOBLES, PALETTE
from splendor.games.classic.game import ClassicGame

W, B, G, R, K, Y = range(6)


def new(players: int = 2, seed: int = 1, **options: Any) -> ClassicGame:
    game = splendor.new_game("classic", players=players, seed=seed, **options)
    assert isinstance(game, ClassicGame)
    return game


def give_tokens(game: ClassicGame, seat: int, **by_colour: int) -> None:
    """Move tokens from the supply to a seat, e.g. ``give_tokens(g, 0, white=2, gold=1)``."""
    for name, n in by_colour.items():
        c = PALETTE.index(name)
        assert game.supply[c] >= n, f"the supply has only {game.supply[c]} {name}"
        game.supply[c] -= n
        game.tokens[seat][c] += n


def pull_card(game: ClassicGame, cid: int) -> None:
    """Take a card out of wherever it lies in the decks or market (refilling a market slot from its deck)."""
    for r, deck in enumerate(game.decks):
        if cid in deck:
            deck.remove(cid)
            return
    for r, row in enumerate(game.rows):
        if cid in row:
            s = row.index(cid)
            row[s] = game.decks[r].pop() if game.decks[r] else -1
            return
    raise AssertionError(f"card {cid} is not in a deck or the market")


def place(game: ClassicGame, cid: int, slot: int) -> None:
    """Put card ``cid`` face up in ``slot`` of its tier; the card there goes back to the deck's bottom."""
    pull_card(game, cid)
    r = CARDS[cid].row
    old = game.rows[r][slot]
    if old >= 0:
        game.decks[r].insert(0, old)
    game.rows[r][slot] = cid


def give_card(game: ClassicGame, seat: int, cid: int) -> None:
    """Hand a seat a bought card (with its bonus and points) as if bought earlier."""
    pull_card(game, cid)
    card = CARDS[cid]
    game.bought[seat].append(cid)
    game.bonuses[seat][card.bonus] += 1
    game.points[seat] += card.points


def cards_with(tier: int, bonus: int | None = None, points: int | None = None) -> list[int]:
    """Ids of cards of a tier, optionally with a bonus colour and points."""
    return [c.id for c in CARDS if c.row == tier - 1 and (bonus is None or c.bonus == bonus)
            and (points is None or c.points == points)]


def give_bonuses(game: ClassicGame, seat: int, **by_colour: int) -> None:
    """Give a seat bought cards (0-point tier-1 where possible) until it has these bonuses."""
    for name, n in by_colour.items():
        c = PALETTE.index(name)
        pool = [cid for cid in cards_with(1, c, 0) + cards_with(2, c) + cards_with(3, c)
                if not any(cid in b for b in game.bought) and not any(cid in r for r in game.reserved)]
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


def total_tokens(game: ClassicGame) -> list[int]:
    return [game.supply[c] + sum(t[c] for t in game.tokens) for c in range(6)]


def all_card_ids(game: ClassicGame) -> list[int]:
    ids = [c for row in game.rows for c in row if c >= 0]
    ids += [c for d in game.decks for c in d]
    ids += [c for r in game.reserved for c in r]
    ids += [c for b in game.bought for c in b]
    return ids
