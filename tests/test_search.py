"""Determinization (consistent with the view, leaking nothing), the search bot, and hints."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
from splendor.bots import decide, decision_for, make_bot
from splendor.bots.hint import hint
from splendor.bots.search import SearchBot
from splendor.search.levels import LEVEL_NAMES, LEVELS, level_iterations
from tests.playouts import playout, random_game

GAMES = sorted(splendor.GAMES)


def _options(name: str) -> dict[str, object]:
    return {"mysteries": True} if name == "kids" else {}


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**40), n=st.integers(min_value=2, max_value=4))
def test_determinize_is_consistent_with_the_view_of_the_seat(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed, **_options(name))
    rng = random.Random(seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 9:
            continue
        for seat in range(n):
            d = g.determinize(seat, rng)
            assert d.view(seat) == g.view(seat)
            assert d.history == g.history
            if seat == g.current_player:
                assert d.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**40), n=st.integers(min_value=2, max_value=4))
def test_determinize_leaks_nothing_states_alike_to_a_seat_deal_alike(name: str, seed: int, n: int) -> None:
    """Two states that look the same to a seat but differ in what it cannot see give the same determinization:
    so what a determinization holds depends on the seat's information only."""
    game = random_game(name, n, seed, **_options(name))
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 11:
            continue
        for seat in range(n):
            other = g.determinize(seat, random.Random(step))  # same view, other hidden parts
            assert other.view(seat) == g.view(seat)
            a = g.determinize(seat, random.Random(99))
            b = other.determinize(seat, random.Random(99))
            assert a.to_json() == b.to_json()


def test_determinize_deals_the_hidden_cards_anew() -> None:
    g = splendor.new_game("classic", players=2, seed=3)
    g.apply("reserve deck 3")
    decks = {g.determinize(1, random.Random(i)).to_json() for i in range(5)}
    assert len(decks) == 5
    secret = g.reserved[0][0]  # type: ignore[attr-defined]
    assert any(d.reserved[0][0] != secret for d in (g.determinize(1, random.Random(i)) for i in range(10)))  # type: ignore[attr-defined]
    assert all(g.determinize(0, random.Random(i)).reserved[0][0] == secret for i in range(5))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_the_search_bot_plays_legal_moves_to_the_end_of_every_game(name: str) -> None:
    g = splendor.new_game(name, players=2, seed=5, max_turns=200, **_options(name))
    bots = [make_bot("ismcts:easy", seed=1), make_bot("greedy", seed=2)]
    while not g.is_over:
        g.apply(decide(bots[g.current_player], g))  # type: ignore[index]
    assert g.is_over


def test_the_search_is_reproducible_with_a_seed_and_an_iteration_budget() -> None:
    g = splendor.new_game("pokemon", players=3, seed=8)
    for _ in range(9):
        g.apply(g.legal_actions()[0])
    a = SearchBot(seed=4, iterations=120).search(decision_for(g))
    b = SearchBot(seed=4, iterations=120).search(decision_for(g))
    assert [(x.text, v, q) for x, v, q in a.actions] == [(x.text, v, q) for x, v, q in b.actions]
    assert a.iterations == 120 and sum(v for _, v, _ in a.actions) == 120


def test_the_search_sees_only_what_its_seat_may_see() -> None:
    """Two games alike to seat 1 but with different hidden cards get the same search result."""
    g = splendor.new_game("classic", players=2, seed=2)
    g.apply("reserve deck 2")
    twin = g.determinize(1, random.Random(7))
    assert twin.to_json() != g.to_json()
    a = SearchBot(seed=1, iterations=150).search(decision_for(g))
    b = SearchBot(seed=1, iterations=150).search(decision_for(twin))
    assert [(x.text, v) for x, v, _ in a.actions] == [(x.text, v) for x, v, _ in b.actions]


def test_levels_and_specs() -> None:
    assert level_iterations("easy") < level_iterations("medium") < level_iterations("hard")
    assert make_bot("ismcts:hard").iterations == level_iterations("hard")  # type: ignore[attr-defined]
    assert make_bot("ismcts:64").iterations == 64  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown level 'godlike'"):
        make_bot("ismcts:godlike")


def test_a_level_spends_its_games_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for game, name in LEVELS:
        assert game in splendor.GAMES and name in LEVEL_NAMES
    assert level_iterations("hard", "kids") < level_iterations("hard", "classic") == level_iterations("hard")
    monkeypatch.setitem(LEVELS, ("kids", "easy"), dataclasses.replace(LEVELS["kids", "easy"], iterations=7))
    for game, spent in (("kids", 7), ("classic", level_iterations("easy"))):
        g = splendor.new_game(game, players=2, seed=1)
        assert SearchBot(seed=1, level="easy", engine="reference").search(decision_for(g)).iterations == spent


def test_hint_names_a_legal_move_and_a_win_chance() -> None:
    g = splendor.new_game("classic", players=2, seed=1)
    advice = hint(g, iterations=100)
    assert advice["action"] in [a.text for a in g.legal_actions()]
    assert 0.0 <= advice["win_chance"] <= 1.0  # type: ignore[operator]
    with pytest.raises(ValueError, match="seat 0's decision"):
        hint(g, seat=1)


def test_a_hint_of_three_or_four_says_a_share_of_the_win_and_of_two_the_experts_own_value() -> None:
    """The expert values a game of four by the lead over the best other seat, about a half for every seat at the
    start: a hint said "a 50% chance of winning" there, and a review of three players listed 52% beside a graph that
    began them at a third. The hint and the review value it by each seat's share of the win."""
    from splendor.bots.hint import judge

    for players, most in ((3, 0.45), (4, 0.36)):
        advice = hint(splendor.new_game("classic", players=players, seed=2), iterations=2000)
        assert advice["win_chance"] < most, (players, advice)
    two = decision_for(splendor.new_game("classic", players=2, seed=2))
    judged = judge(seed=3, iterations=500).search(two)
    played = SearchBot(seed=3, level="expert", iterations=500).search(two)
    assert judged.actions == played.actions  # with two players the share is the lead's logistic, to the last bit


def test_the_search_bot_finds_the_only_winning_purchase() -> None:
    """Last turn of the final round: seat 1 has 15 points; seat 0 has 14 and wins only by buying 2 points."""
    from tests.classic.positions import give_tokens, place

    g = splendor.new_game("classic", players=2, seed=4, first_player=1)
    g.apply("take w b g")  # seat 1 (first)
    cid = next(c.id for c in g.cards if c.row == 1 and c.points == 2 and max(c.cost) <= 4)  # type: ignore[attr-defined]
    place(g, cid, 0)  # type: ignore[arg-type]
    cost = g.cards[cid].cost  # type: ignore[attr-defined]
    give_tokens(g, 0, **{n: v for n, v in zip(("white", "blue", "green", "red", "black"), cost) if v})  # type: ignore[arg-type]
    g.points[0], g.points[1], g.final_round = 14, 15, True  # type: ignore[attr-defined]
    choice = SearchBot(seed=0, iterations=300).choose(decision_for(g))
    g.apply(choice)
    assert g.is_over and g.winners == [0], choice


def test_a_level_bounded_by_time_searches_as_that_level_for_that_long() -> None:
    g = splendor.new_game("classic", players=2, seed=1)
    bot = make_bot("ismcts:expert/0.2@reference", seed=1)
    assert bot.name == "ismcts:expert/0.2" and bot.seconds == 0.2 and bot.level == "expert"  # type: ignore[attr-defined]
    with pytest.warns(RuntimeWarning, match="compiled search"):
        result = bot.search(decision_for(g))  # type: ignore[attr-defined]
    assert result.iterations > 1
    for bad in ("ismcts:hard/", "ismcts:hard/soon", "ismcts:300/1"):
        with pytest.raises(ValueError, match="unknown bot"):
            make_bot(bad)
    for bad in ("ismcts:hard/0", "ismcts:hard/1e9"):  # a time out of bounds is said as such
        with pytest.raises(ValueError, match="0.001 to 600 seconds"):
            make_bot(bad)
