"""Building positions of the card-market games (classic, Pokémon) for rule tests.

Start from a real game, then set what the rule needs; every helper keeps tokens and cards conserved.
"""

from __future__ import annotations

from splendor.games.market import MarketGame


def give_tokens(game: MarketGame, seat: int, **by_colour: int) -> None:
    """Move tokens from the supply to a seat, e.g. ``give_tokens(g, 0, white=2, gold=1)``."""
    for name, n in by_colour.items():
        c = game.palette.index(name)
        assert game.supply[c] >= n, f"the supply has only {game.supply[c]} {name}"
        game.supply[c] -= n
        game.tokens[seat][c] += n


def pull_card(game: MarketGame, cid: int) -> None:
    """Take a card out of its deck or market slot (a market slot is refilled from its deck)."""
    for deck in game.decks:
        if cid in deck:
            deck.remove(cid)
            return
    for r, row in enumerate(game.rows):
        if cid in row:
            s = row.index(cid)
            row[s] = game.decks[r].pop() if game.decks[r] else -1
            return
    raise AssertionError(f"card {cid} is not in a deck or the market")


def place(game: MarketGame, cid: int, slot: int = 0) -> None:
    """Put card ``cid`` face up in ``slot`` of its row; the card there goes to the bottom of the row's deck."""
    pull_card(game, cid)
    r = game.cards[cid].row
    old = game.rows[r][slot]
    if old >= 0:
        game.decks[r].insert(0, old)
    game.rows[r][slot] = cid


def give_card(game: MarketGame, seat: int, cid: int) -> None:
    """Hand a seat a bought (captured) card, with its bonus and points, as if bought earlier."""
    pull_card(game, cid)
    card = game.cards[cid]
    game.bought[seat].append(cid)
    game.bonuses[seat][card.bonus] += card.bonus_count
    game.points[seat] += card.points


def give_reserved(game: MarketGame, seat: int, cid: int, secret: bool = False) -> None:
    """Put a card in a seat's hand as if reserved earlier (``secret``: from a deck)."""
    pull_card(game, cid)
    game.reserved[seat].append(cid)
    if secret:
        game.secret.add(cid)


def total_tokens(game: MarketGame) -> list[int]:
    return [game.supply[c] + sum(t[c] for t in game.tokens) for c in range(len(game.supply))]


def all_card_ids(game: MarketGame) -> list[int]:
    ids = [c for row in game.rows for c in row if c >= 0]
    ids += [c for d in game.decks for c in d]
    ids += [c for r in game.reserved for c in r]
    ids += [c for b in game.bought for c in b]
    ids += [c for u in getattr(game, "under_tile", []) for c in u]
    return ids
