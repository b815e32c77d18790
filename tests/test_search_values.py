"""How the search values an unfinished game (issue 35, item 2): by each seat's lead over the best other, or by its
share of every seat's progress, which with two players is the same thing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import splendor
from splendor.bots import decide, make_bot
from splendor.search import compiled
from splendor.search.levels import LEVELS
from splendor.search.values import leads_into, shares_into, win_shares_into

progresses = st.lists(st.floats(-30, 30, allow_nan=False), min_size=2, max_size=4)


def _run(fill, progress: list[float], scale: float) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.zeros(4)
    fill(np.array(progress + [0.0] * (4 - len(progress))), len(progress), scale, out)
    return out[: len(progress)]


@given(st.floats(-30, 30), st.floats(-30, 30), st.floats(0.5, 5))
def test_with_two_players_a_share_is_the_logistic_of_the_lead_to_the_last_bit(a: float, b: float, scale: float) -> None:
    assert list(_run(shares_into, [a, b], scale)) == list(_run(leads_into, [a, b], scale))


@given(progresses, st.floats(0.5, 5))
def test_the_shares_are_the_plackett_luce_chances_and_add_up_to_one(progress: list[float], scale: float) -> None:
    got = _run(shares_into, progress, scale)
    weights = np.exp((np.array(progress) - max(progress)) / scale)
    assert got == pytest.approx(weights / weights.sum(), rel=1e-9, abs=1e-12)
    assert got.sum() == pytest.approx(1.0)


def test_by_shares_every_other_seat_counts_by_the_lead_only_the_best() -> None:
    before, after = [5.0, 8.0, 2.0], [5.0, 8.0, 6.0]  # the third seat gains, still behind the second
    assert _run(leads_into, before, 2.5)[0] == _run(leads_into, after, 2.5)[0]
    assert _run(shares_into, after, 2.5)[0] < _run(shares_into, before, 2.5)[0]
    three_alike = _run(leads_into, [4.0, 4.0, 4.0], 2.5)
    assert list(three_alike) == [0.5] * 3  # leads: every seat "half a win", 1.5 wins in all
    assert list(_run(shares_into, [4.0, 4.0, 4.0], 2.5)) == pytest.approx([1 / 3] * 3)


def test_win_shares_into_takes_the_way_it_is_told() -> None:
    progress = np.array([1.0, 3.0, 2.0, 0.0])
    for shares, fill in ((True, shares_into), (False, leads_into)):
        out, expected = np.zeros(4), np.zeros(4)
        win_shares_into(progress, 3, 2.0, shares, out)
        fill(progress, 3, 2.0, expected)
        assert list(out) == list(expected)


def test_a_two_player_search_plays_the_same_whichever_way_it_values() -> None:
    g = splendor.new_game("classic", players=2, seed=4)
    greedy = make_bot("greedy", seed=1)
    for _ in range(6):
        g.apply(decide(greedy, g))
    seat = g.current_player
    assert seat is not None
    found = [
        compiled.search(g, seat, 9, 300, settings=compiled.settings(shares=shares), weights=compiled.NO_WEIGHTS)
        for shares in (False, True)
    ]
    assert found[0] == found[1]


def test_a_three_player_search_valuing_by_shares_finds_other_values() -> None:
    g = splendor.new_game("classic", players=3, seed=4)
    seat = g.current_player
    assert seat is not None
    lead, share = (
        compiled.search(g, seat, 9, 300, settings=compiled.settings(shares=shares), weights=compiled.NO_WEIGHTS)[0]
        for shares in (False, True)
    )
    assert lead != share
    assert all(0.0 <= v <= 1.0 and not math.isnan(v) for _, v in share.values())


def test_every_level_values_by_the_lead_as_measured_shares_won_nothing() -> None:
    assert not any(level.shares for level in LEVELS.values())  # docs/bots.md, "Three and four players"
