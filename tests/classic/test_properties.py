"""Classic Splendor's invariants over many random games: conservation and hidden information."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from splendor.games.classic.game import ClassicGame
from tests.classic.positions import all_card_ids, total_tokens
from tests.playouts import playout, random_game

seeds = st.integers(min_value=0, max_value=2**40)
players = st.integers(min_value=2, max_value=4)


def _card_ids_in(data: object) -> set[int]:
    found: set[int] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "id" in x and "tier" in x and "cost" in x:
                found.add(x["id"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


@given(seed=seeds, n=players)
def test_tokens_cards_and_nobles_are_conserved_in_every_game(seed: int, n: int) -> None:
    game = random_game("classic", n, seed)
    assert isinstance(game, ClassicGame)
    setup = total_tokens(game)
    per = {2: 4, 3: 5, 4: 7}[n]
    assert setup == [per] * 5 + [5]
    for g in playout(game, random.Random(seed)):
        assert isinstance(g, ClassicGame)
        assert total_tokens(g) == setup
        assert all(x >= 0 for x in g.supply) and all(x >= 0 for t in g.tokens for x in t)
        ids = all_card_ids(g)
        assert len(ids) == 90 and set(ids) == set(range(90))
        seen_nobles = g.nobles + [x for s in g.seat_nobles for x in s]
        assert len(seen_nobles) == len(set(seen_nobles)) == n + 1
        assert all(len(r) <= 3 for r in g.reserved)
        if g.view(None)["decision"] == "action":
            assert all(sum(t) <= 10 for t in g.tokens)
        for s in range(n):
            bon = [0] * 5
            for cid in g.bought[s]:
                bon[g.cards[cid].bonus] += 1
            assert bon == g.bonuses[s]
            assert g.points[s] == sum(g.cards[c].points for c in g.bought[s]) + 3 * len(g.seat_nobles[s])


@given(seed=seeds, n=players)
def test_no_view_shows_a_seat_a_card_it_may_not_see(seed: int, n: int) -> None:
    game = random_game("classic", n, seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 3:
            continue
        assert isinstance(g, ClassicGame)
        in_decks = {c for d in g.decks for c in d}
        for seat in [None, *range(n)]:
            seen = _card_ids_in(g.view(seat))
            assert not seen & in_decks
            others_secret = {c for s in range(n) if s != seat for c in g.reserved[s] if c in g.secret}
            assert not seen & others_secret
            own_secret = {c for c in g.reserved[seat] if c in g.secret} if seat is not None else set()
            assert own_secret <= seen
