"""Splendor Kids invariants over random games on every combination of sides, with and without Mysteries:
tokens, City tiles and Village tiles conserved, hidden things never shown, replay and load exact."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
from splendor.games.kids.game import KidsGame
from tests.kids.positions import tiles_total, tokens_total
from tests.playouts import playout

COMBINATIONS = [list(c) for c in product(("A1-front", "A1-back"), ("A2-front", "A2-back"), ("A3-front", "A3-back"))]
SHORT = [list(c) for c in product(("A1-front", "A1-back"), ("A3-front", "A3-back"))]
BOARDS = [(c, False) for c in COMBINATIONS] + [(c, True) for c in COMBINATIONS] + [(c, False) for c in SHORT]


@pytest.mark.parametrize(("sides", "mysteries"), BOARDS, ids=lambda x: ",".join(x) if isinstance(x, list) else str(x))
@settings(max_examples=6)
@given(seed=st.integers(min_value=0, max_value=2**40), n=st.integers(min_value=2, max_value=4))
def test_conservation_hidden_information_and_exact_replay(sides: list[str], mysteries: bool, seed: int, n: int) -> None:
    game = splendor.new_game(
        "kids", players=n, seed=seed, board=sides, short=len(sides) == 2, mysteries=mysteries, max_turns=300
    )
    assert isinstance(game, KidsGame)
    setup = tokens_total(game)
    for step, g in enumerate(playout(game, random.Random(seed))):
        assert isinstance(g, KidsGame)
        assert tokens_total(g) == setup
        assert min(g.supply) >= 0 and all(min(p) >= 0 for p in g.purse)
        assert tiles_total(g) == [4] * 5
        flipped = list(g.flipped.values())
        assert len(g.village_tiles) + len(g.aside) + len(flipped) == (8 if mysteries else 0)
        held_treasure = sum(p[6] for p in g.purse)
        assert held_treasure + g.boxed_treasures == flipped.count("treasure")
        if g.view(None)["decision"] == "action":
            assert all(sum(p) <= 8 for p in g.purse)
        if step % 5 == 0:
            for seat in [None, *range(n)]:
                v = g.view(seat)
                assert set(v["village_tiles"]) == set(g.village_tiles) | set(g.flipped)
                assert all(v["village_tiles"][k] == "face down" for k in g.village_tiles)
                assert v["city_stack"] == len(g.stack)
                text = json.dumps(v)
                assert '"stack"' not in text and '"aside"' not in text
    assert game.is_over
    final = game.to_json()
    assert splendor.replay(game.record.to_text()).to_json() == final
    assert splendor.load(final).to_json() == final


def test_every_side_combination_ends_with_travelers_in_the_palace_under_greedy_play() -> None:
    from splendor.sim import simulate

    for sides in COMBINATIONS + SHORT:
        report = simulate(
            "kids", 2, ["greedy", "greedy"], games=2, seed=1, options={"board": sides, "short": len(sides) == 2}
        )
        assert report.truncated == 0 and sum(report.wins) + sum(report.shared_wins) >= 2
