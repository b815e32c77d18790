"""The search in compiled code is the Python search's algorithm on the compiled engine: its determinizations are
consistent with the seat's view and leak nothing, its playout policy and evaluation are the market games' own,
and the bot built on it plays and finds what the Python search finds."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
import splendor.compiled as compiled
from splendor.bots import decision_for, make_bot
from splendor.bots.hint import hint
from splendor.bots.search import SearchBot
from splendor.compiled import kids as kids_kernel
from splendor.compiled import market as m
from splendor.core.game import Game
from splendor.search import kids as kids_playout
from splendor.search import kids_compiled as ck
from splendor.search import market as market_playout
from splendor.search import market_compiled as cs
from splendor.search.levels import LEVELS
from tests.playouts import playout, random_game

MARKET_GAMES = ("classic", "pokemon")
ALL_GAMES = ("classic", "pokemon", "kids")


def _cards(game: Game) -> Counter[int]:
    """Every card of the game wherever it is (display, decks, hands, bought, under the trainer tile)."""
    state = game._state()
    held: Counter[int] = Counter()
    for key in ("rows", "decks", "reserved", "bought", "under"):
        for part in state.get(key, []):
            held.update(c for c in part if c >= 0)
    return held


def _determinized(game: Game, seat: int, seed: int) -> Game:
    root = compiled.from_reference(game)
    out = np.empty_like(root.state)
    pool = np.empty(m.DECK_ROOM + m.MAX_SEATS * m.RESERVE_LIMIT, dtype=np.int64)
    cs.determinize_into(root.state, seat, np.array([seed], dtype=np.uint64), out, pool)
    root.state = out
    return root.to_reference()


@pytest.mark.parametrize("name", MARKET_GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), n=st.integers(min_value=2, max_value=4))
def test_compiled_determinization_keeps_the_seats_view_and_every_card(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 13:
            continue
        for seat in range(n):
            d = _determinized(g, seat, step)
            assert d.view(seat) == g.view(seat)
            assert _cards(d) == _cards(g)
            if seat == g.current_player:
                assert d.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("name", MARKET_GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), n=st.integers(min_value=2, max_value=4))
def test_compiled_determinization_leaks_nothing(name: str, seed: int, n: int) -> None:
    """Two states alike to a seat, different in what it cannot see, are dealt alike from the same seed."""
    game = random_game(name, n, seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 17:
            continue
        for seat in range(n):
            twin = g.determinize(seat, random.Random(step))
            assert _determinized(g, seat, 5).to_json() == _determinized(twin, seat, 5).to_json()


def test_compiled_determinization_deals_a_face_down_reserve_anew() -> None:
    g = splendor.new_game("classic", players=2, seed=3)
    g.apply("reserve deck 3")
    secret = g.reserved[0][0]  # type: ignore[attr-defined]
    assert len({_determinized(g, 1, i).reserved[0][0] for i in range(12)}) > 1  # type: ignore[attr-defined]
    assert {_determinized(g, 0, i).reserved[0][0] for i in range(5)} == {secret}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", MARKET_GAMES)
def test_the_compiled_playout_policy_is_the_market_games_own(name: str) -> None:
    """The wanted colours and progress equal the reference's; the action is legal; a buy is taken whenever
    there is one, the most valuable by points then bonuses (the random part is below 1); else the take that
    brings the most wanted colours, two of one colour counting twice (the random part is below 0.5)."""
    rng = np.array([7], dtype=np.uint64)
    want = np.zeros(m.COLOURS)
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    twos = 0
    for seed in range(6):
        for g in playout(random_game(name, 2 + seed % 3, seed), random.Random(seed)):
            fast = compiled.from_reference(g)
            s = fast.state
            if g.phase != m.OVER:  # type: ignore[attr-defined]
                cs.wanted_colours(s, want)
                assert want.tolist() == pytest.approx(market_playout.wanted_colours(g))
            assert [cs.progress(s, p, 1.2, 0.05) for p in range(g.players)] == pytest.approx(market_playout.progress(g))
            count = m.legal_mask_into(s, mask)
            legal = g.legal_actions()
            a = cs.playout_action(s, mask, count, rng, want)
            assert a in [x.index for x in legal]
            buys = [x for x in legal if x.kind in ("buy", "buy_reserved")]
            if g.phase == m.MAIN and buys:  # type: ignore[attr-defined]

                def worth(x: object, g: Any = g, s: Any = s) -> int:
                    card = g.cards[cs.card_of_buy(s, x.index)]
                    return int(card.points * 3 + card.bonus_count)

                assert worth(g.actions[a]) >= max(worth(x) for x in buys)
                assert {cs.card_of_buy(s, x.index) for x in buys} <= _cards(g).keys()
            takes = [x for x in legal if x.kind in ("take", "take2")]
            if g.phase == m.MAIN and takes and not buys:  # type: ignore[attr-defined]

                def wanted(x: Any, want: Any = want) -> float:  # the reference's score: two of one count twice
                    return float(sum(want[c] for c in x.args) * (2 if x.kind == "take2" else 1))

                assert wanted(g.actions[a]) >= max(wanted(x) for x in takes) - 0.5  # the random part is below 0.5
                twos += any(x.kind == "take2" and wanted(x) > 0 for x in takes)
    assert twos > 0  # some take of two of one colour was wanted


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_both_engines_find_the_only_winning_purchase(engine: str) -> None:
    """Last turn of the final round: seat 1 has 15 points; seat 0 has 14 and wins only by buying 2 points."""
    from tests.classic.positions import give_tokens, place

    g = splendor.new_game("classic", players=2, seed=4, first_player=1)
    g.apply("take w b g")
    cid = next(c.id for c in g.cards if c.row == 1 and c.points == 2 and max(c.cost) <= 4)  # type: ignore[attr-defined]
    place(g, cid, 0)  # type: ignore[arg-type]
    cost = g.cards[cid].cost  # type: ignore[attr-defined]
    give_tokens(g, 0, **{n: v for n, v in zip(("white", "blue", "green", "red", "black"), cost) if v})  # type: ignore[arg-type]
    g.points[0], g.points[1], g.final_round = 14, 15, True  # type: ignore[attr-defined]
    g.apply(SearchBot(seed=0, iterations=300, engine=engine).choose(decision_for(g)))
    assert g.is_over and g.winners == [0]


@pytest.mark.parametrize("name", MARKET_GAMES)
def test_the_compiled_search_is_reproducible_and_sees_only_its_seat(name: str) -> None:
    g = splendor.new_game(name, players=3, seed=8)
    g.apply(g.actions.get("reserve_deck", 1))
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    twin = g.determinize(g.current_player, random.Random(3))  # type: ignore[arg-type]
    assert twin.to_json() != g.to_json()
    results = [SearchBot(seed=4, iterations=500, engine="compiled").search(decision_for(x)) for x in (g, g, twin)]
    seen = [[(a.text, v, round(q, 12)) for a, v, q in r.actions] for r in results]
    assert seen[0] == seen[1] == seen[2]
    assert results[0].iterations == 500 and sum(v for _, v, _ in results[0].actions) == 500


def test_the_levels_spend_the_compiled_budget_there(monkeypatch: pytest.MonkeyPatch) -> None:
    for game, name in [(g, n) for g, n in LEVELS if n in ("hard", "expert")]:
        monkeypatch.setitem(LEVELS, (game, name), dataclasses.replace(LEVELS[game, name], compiled_iterations=700))
    g = splendor.new_game("pokemon", players=2, seed=1)
    assert SearchBot(seed=1, level="hard").search(decision_for(g)).iterations == 700
    assert SearchBot(seed=1, level="hard", engine="reference").search(decision_for(g)).iterations == 2500
    assert hint(g)["iterations"] == 700
    kids = splendor.new_game("kids", players=2, seed=1)
    assert SearchBot(seed=1, level="easy").search(decision_for(kids)).iterations == 10


def test_the_compiled_engine_asked_for_where_it_cannot_serve_is_a_clear_error() -> None:
    class Fixed:
        def value(self, game: Game, rng: random.Random) -> list[float]:
            return [0.5] * game.players

        def priors(self, game: Game, legal: list[object]) -> None:
            return None

    g = splendor.new_game("kids", players=2, seed=1)
    with pytest.raises(ValueError, match="evaluates by playouts only"):
        SearchBot(engine="compiled", evaluator=Fixed()).search(decision_for(g))  # type: ignore[arg-type]
    assert SearchBot(iterations=30, evaluator=Fixed()).search(decision_for(g)).iterations == 30  # in Python
    with pytest.raises(ValueError, match="engine is one of"):
        SearchBot(engine="gpu")


def _kids_states(seeds: range):  # type: ignore[no-untyped-def]
    for seed in seeds:
        g = random_game("kids", 2 + seed % 3, seed, mysteries=seed % 2 == 0)
        for step, state in enumerate(playout(g, random.Random(seed))):
            if step % 3 == 0:
                yield state


def test_the_compiled_kids_policy_and_progress_are_the_games_own() -> None:
    """Progress, the next road's needs and the plain payment equal the reference's; a move chosen goes along a
    payable road nearest the Palace; a take brings what the next road needs."""
    need = np.zeros(5, dtype=np.int64)
    pay = np.zeros(12, dtype=np.int64)
    legal = np.empty(4096, dtype=np.int64)
    rng = np.array([3], dtype=np.uint64)
    moves = takes = 0
    for g in _kids_states(range(8)):
        fast = compiled.from_reference(g)
        route = ck.Route(g, fast._kernel.tables(fast.state, fast.options))
        s, seat = fast.state, g.seat  # type: ignore[attr-defined]
        assert [ck.progress(s, p, route.distance, route.moves) for p in range(g.players)] == pytest.approx(
            kids_playout.progress(g)
        )
        ck._needs(s, seat, route.next_road, need)
        assert need.tolist() == kids_playout.needs(g, seat)
        count = kids_kernel.legal_into(s, legal)
        a = ck.playout_action(s, legal, count, rng, route.distance, route.next_road, need, pay)
        action = g.actions[int(a)]
        assert action in g.legal_actions()
        if action.kind == "move":
            moves += 1
            road = g._road_by_number[action.args[0]]  # type: ignore[attr-defined]
            payable = [
                r
                for r in g.roads_from(g.space[seat])  # type: ignore[attr-defined]
                if any(x.kind == "move" and x.args[0] == r.number for x in g.legal_actions())
            ]
            distance = kids_playout.Routes.of(g.board).distance  # type: ignore[attr-defined]
            assert distance[road.end] == min(distance[r.end] for r in payable)
            purse, active = g.purse[seat], g.active[seat]  # type: ignore[attr-defined]
            assert action.args[1] == kids_playout.plain_payment(road, purse, active)
        elif action.kind in ("take", "take2") and any(kids_playout.needs(g, seat)):
            takes += 1
            assert any(kids_playout.needs(g, seat)[c] for c in action.args)
    assert moves > 20 and takes > 20


def test_the_compiled_kids_determinization_deals_the_stack_and_the_tiles_anew_and_leaks_nothing() -> None:
    pool = np.empty(64, dtype=np.int64)
    for g in _kids_states(range(4)):
        fast = compiled.from_reference(g)
        twin = compiled.from_reference(g.determinize(0, random.Random(1)))
        outs = []
        for root in (fast, twin):
            out = np.empty_like(root.state)
            ck.determinize_into(root.state, np.array([9], dtype=np.uint64), out, pool)
            dealt = root.clone()
            dealt.state = out
            outs.append(dealt.to_reference())
        assert outs[0].to_json() == outs[1].to_json()
        for seat in range(g.players):
            assert outs[0].view(seat) == g.view(seat)
        assert sorted(outs[0].stack) == sorted(g.stack)  # type: ignore[attr-defined]


def test_a_time_bound_compiled_search_stops_by_the_clock() -> None:
    """With no iteration bound only the clock can stop it (this test would never end otherwise)."""
    from splendor.search import compiled as compiled_search

    g = splendor.new_game("classic", players=2, seed=2)
    SearchBot(seed=1, iterations=2).search(decision_for(g))  # load the compiled code first
    result = SearchBot(seed=1, seconds=0.2).search(decision_for(g))
    assert result.iterations >= compiled_search.CHUNK and result.iterations % compiled_search.CHUNK == 0
    assert sum(v for _, v, _ in result.actions) == result.iterations


@pytest.mark.parametrize("name", ALL_GAMES)
def test_the_bot_plays_a_whole_game_on_the_compiled_engine(name: str) -> None:
    g = splendor.new_game(name, players=2, seed=11, max_turns=300, **({"mysteries": True} if name == "kids" else {}))
    bots = [SearchBot(seed=1, iterations=3000), make_bot("greedy", seed=2)]
    while not g.is_over:
        seat = g.current_player
        assert seat is not None
        g.apply(bots[seat].choose(decision_for(g)))
    assert g.is_over


def test_without_numba_the_python_search_plays_with_its_own_budgets_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from splendor.search import searcher as search

    monkeypatch.setitem(sys.modules, "splendor.search.compiled", None)  # as if it could not be imported
    monkeypatch.setattr(search, "_compiled_module", None)
    monkeypatch.setitem(LEVELS, ("classic", "hard"), dataclasses.replace(LEVELS["classic", "hard"], iterations=150))
    g = splendor.new_game("classic", players=2, seed=1)
    with pytest.warns(RuntimeWarning, match="the compiled search is unavailable"):
        result = SearchBot(seed=1, level="hard").search(decision_for(g))
    assert result.iterations == 150
    with pytest.raises(ValueError, match="Numba cannot be imported"):
        SearchBot(engine="compiled").search(decision_for(g))


def test_a_search_tree_grows_and_keeps_what_it_holds() -> None:
    from splendor.search.compiled import Tree

    tree = Tree.empty(seat=1, room=4)
    tree.visits[0], tree.nodes[0] = 7, 3
    tree.room_for(10)
    assert tree.visits.shape[0] >= 13 and tree.visits[0] == 7 and tree.node_seat[0] == 1
    assert all(
        getattr(tree, name).shape == tree.visits.shape
        for name in ("node_seat", "totals", "avail", "first_child", "next_sibling", "node_action")
    )


def test_a_search_mixing_in_its_leaves_values_them_by_their_own_evaluation() -> None:
    """With the leaf's evaluation mixed in fully, a playout's end no longer counts: one iteration values its
    action the same whatever the playout depth; with none of it mixed in, the depth matters."""
    from splendor.search.compiled import search, settings
    from splendor.search.learning.training import learned_weights

    g = splendor.new_game("pokemon", players=2, seed=2)
    weights = learned_weights("pokemon")

    def valued(mix: float, depth: int) -> dict[int, tuple[int, float]]:
        return search(g, 0, seed=5, iterations=1, settings=settings(depth=depth, mix=mix), weights=weights)[0]

    assert valued(1.0, 0) == valued(1.0, 30)
    assert valued(0.0, 0) != valued(0.0, 30)
    [(visits, mixed)] = valued(0.5, 30).values()
    [(_, leaf)], [(_, end)] = valued(1.0, 30).values(), valued(0.0, 30).values()
    assert visits == 1 and leaf != end and mixed == pytest.approx((leaf + end) / 2)
    for wrong in (-0.1, 1.5):
        with pytest.raises(ValueError, match="from 0 to 1"):
            valued(wrong, 8)
