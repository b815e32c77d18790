"""Invariants of the card-market games (classic, Pokémon) over many random games: tokens and cards conserved,
derived figures consistent, and no view ever showing a seat a card it may not see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor.games.market import MarketGame
from tests.market_positions import all_card_ids, total_tokens
from tests.playouts import playout, random_game

seeds = st.integers(min_value=0, max_value=2**40)
players = st.integers(min_value=2, max_value=4)
MARKET_GAMES = ["classic", "pokemon"]


def _card_ids_in(data: object) -> set[int]:
    found: set[int] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "id" in x and "cost" in x:
                found.add(x["id"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


@pytest.mark.parametrize("name", MARKET_GAMES)
@given(seed=seeds, n=players)
def test_tokens_and_cards_are_conserved_and_points_and_bonuses_follow_the_cards(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    assert isinstance(game, MarketGame)
    setup = total_tokens(game)
    assert setup == [{2: 4, 3: 5, 4: 7}[n]] * 5 + [5]
    noble_points = getattr(game, "seat_nobles", None)
    for g in playout(game, random.Random(seed)):
        assert isinstance(g, MarketGame)
        assert total_tokens(g) == setup
        assert min(g.supply) >= 0 and all(min(t) >= 0 for t in g.tokens)
        ids = all_card_ids(g)
        assert len(ids) == 90 and set(ids) == set(range(90))
        assert all(len(r) <= 3 for r in g.reserved)
        assert g.secret <= {c for r in g.reserved for c in r}
        if g.view(None)["decision"] == "action":
            assert all(sum(t) <= 10 for t in g.tokens)
        for s in range(n):
            bonuses = [0] * 5
            for cid in g.bought[s]:
                bonuses[g.cards[cid].bonus] += g.cards[cid].bonus_count
            assert bonuses == g.bonuses[s]
            nobles = 3 * len(noble_points[s]) if noble_points is not None else 0
            assert g.points[s] == sum(g.cards[c].points for c in g.bought[s]) + nobles


@given(seed=seeds, n=players)
def test_classic_nobles_are_conserved(seed: int, n: int) -> None:
    game = random_game("classic", n, seed)
    for g in playout(game, random.Random(seed)):
        shown = g.nobles + [x for s in g.seat_nobles for x in s]  # type: ignore[attr-defined]
        assert len(shown) == len(set(shown)) == n + 1


@pytest.mark.parametrize("name", MARKET_GAMES)
@given(seed=seeds, n=players)
def test_no_view_shows_a_seat_a_card_it_may_not_see(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 3:
            continue
        assert isinstance(g, MarketGame)
        in_decks = {c for d in g.decks for c in d}
        for seat in [None, *range(n)]:
            seen = _card_ids_in(g.view(seat))
            assert not seen & in_decks
            others_secret = {c for s in range(n) if s != seat for c in g.reserved[s] if c in g.secret}
            assert not seen & others_secret
            if seat is not None:
                assert {c for c in g.reserved[seat] if c in g.secret} <= seen
