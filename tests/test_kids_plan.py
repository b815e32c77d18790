"""The expert's plan of Splendor Kids: the fewest turns a lone traveler needs to reach the Palace
(``compiled_kids_turns``), checked against a plain search of the board, and how the search uses it (who
arrives first wins, the same round shares; playouts take the road that saves turns)."""

from __future__ import annotations

import functools
import heapq
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
import splendor.compiled as compiled
from splendor.bots import decision_for
from splendor.bots.search import SearchBot
from splendor.compiled import kids as k
from splendor.games.kids.notation import GOLD
from splendor.search import kids as kids_playout
from splendor.search import plan as kt
from splendor.search.levels import LEVELS

LIMIT = 8


def _board(seed: int, short: bool) -> tuple[splendor.Game, np.ndarray, list[str]]:
    g = splendor.new_game("kids", players=2, seed=seed, short=short)
    fast = compiled.from_reference(g)
    return g, fast.state, fast._kernel.tables(fast.state, fast.options).space_ids


def _lone_turns(g: splendor.Game, space: str, purse: tuple[int, ...]) -> int:
    """The fewest turns from ``space`` with ``purse`` to the Palace, by a search over every take, every way
    to return what goes over 8 and every way to pay a banner (each resource by its token or by gold)."""
    board = g.board  # type: ignore[attr-defined]
    takes = [tuple(1 if c in three else 0 for c in range(6)) for three in itertools.combinations(range(5), 3)]
    takes += [tuple(2 if c == one else 0 for c in range(6)) for one in range(5)]
    takes += [tuple(1 if c == GOLD else 0 for c in range(6))]

    @functools.cache
    def within_limit(p: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        if sum(p) <= LIMIT:
            return frozenset({p})
        return frozenset(q for c in range(6) if p[c] for q in within_limit(p[:c] + (p[c] - 1,) + p[c + 1 :]))

    @functools.cache
    def payments(p: tuple[int, ...], cost: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        out = {p}
        for c in cost:
            step = set()
            for q in out:
                if q[c]:
                    step.add(q[:c] + (q[c] - 1,) + q[c + 1 :])
                if q[GOLD]:
                    step.add(q[:GOLD] + (q[GOLD] - 1,) + q[GOLD + 1 :])
            out = step
        return frozenset(out)

    best: dict[tuple[str, tuple[int, ...]], int] = {(space, purse): 0}
    frontier = [(0, space, purse)]

    def reach(turns: int, at: str, p: tuple[int, ...]) -> None:
        if best.get((at, p), 99) > turns:
            best[(at, p)] = turns
            heapq.heappush(frontier, (turns, at, p))

    while frontier:
        turns, at, p = heapq.heappop(frontier)
        if at == board.palace:
            return turns
        if best[(at, p)] < turns:
            continue
        for take in takes:
            for q in within_limit(tuple(a + b for a, b in zip(p, take))):
                reach(turns + 1, at, q)
        for road in board.roads_from(at):
            extra = 0 if board.spaces[road.end].kind == "village" else 1
            for q in payments(p, tuple(road.cost)):
                reach(turns + extra, road.end, q)
    raise AssertionError("the Palace cannot be reached")


def test_the_plan_counts_a_lone_travelers_turns_exactly() -> None:
    g, state, ids = _board(seed=5, short=False)
    table = kt.turn_table(state)
    rng = np.random.default_rng(1)
    starts = [(g.board.port, (0,) * 6)]  # type: ignore[attr-defined]
    for _ in range(2):  # each start is a search of the whole board: three keep the test to ~30 s
        purse = [0] * 6
        for c in rng.integers(0, 6, size=int(rng.integers(0, 9))):
            purse[int(c)] += 1
        starts.append((ids[int(rng.integers(0, len(ids)))], tuple(purse)))
    for space, purse in starts:
        planned = table[ids.index(space), kt.rank(np.array(purse, dtype=np.int64))]
        assert planned == _lone_turns(g, space, purse), (space, purse)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=7), st.integers(0, 5), st.integers(0, 40))
def test_a_token_more_never_costs_a_turn(tokens: list[int], more: int, place: int) -> None:
    _, state, ids = _board(seed=3, short=False)
    table = kt.turn_table(state)
    purse = np.zeros(6, dtype=np.int64)
    for c in tokens:
        purse[c] += 1
    richer = purse.copy()
    richer[more] += 1
    space = place % len(ids)
    assert table[space, kt.rank(richer)] <= table[space, kt.rank(purse)]


def test_the_ranks_number_every_purse_once() -> None:
    assert [kt.rank(p) for p in kt.PURSES] == list(range(len(kt.PURSES)))


def _race(turns_left: tuple[int, int], first: int, mover: int) -> np.ndarray:
    """Both travelers one road short of the Palace (``turns_left`` 1) or with nothing (more turns)."""
    g = splendor.new_game("kids", players=2, seed=7, short=True, first_player=first)
    s = compiled.from_reference(g).state.copy()
    table = kt.turn_table(s)
    palace_road = next(r for r in range(s[k.ROADS_N]) if s[k.ROAD_END + r] == s[k.PALACE_AT])
    for seat, left in enumerate(turns_left):
        s[k.SPACE + seat] = s[k.ROAD_START + palace_road]
        s[k.PURSE + seat * k.TOKENS : k.PURSE + seat * k.TOKENS + k.TOKENS] = 0
        if left == 1:
            s[k.PURSE + seat * k.TOKENS + GOLD] = 5  # pays any banner
    s[k.SEAT] = mover
    values = np.zeros(k.MAX_SEATS)
    kt.values_into(s, values, 0.7, table)
    return values[:2]


def test_who_reaches_the_palace_in_an_earlier_round_is_ahead_and_the_same_round_shares() -> None:
    both_ready_first_moves = _race((1, 1), first=0, mover=0)
    assert both_ready_first_moves[0] == both_ready_first_moves[1] == 0.5
    second_arrives_before_first_plays_again = _race((1, 1), first=0, mover=1)
    assert second_arrives_before_first_plays_again[1] > 0.5 > second_arrives_before_first_plays_again[0]
    only_second_ready = _race((3, 1), first=0, mover=0)
    assert only_second_ready[1] > 0.5


def test_a_playout_reaches_the_palace_this_turn_when_the_purse_pays_the_way() -> None:
    g = splendor.new_game("kids", players=2, seed=7, short=True)
    s = compiled.from_reference(g).state.copy()
    table = kt.turn_table(s)
    palace_road = next(r for r in range(s[k.ROADS_N]) if s[k.ROAD_END + r] == s[k.PALACE_AT])
    seat = int(s[k.SEAT])
    s[k.SPACE + seat] = s[k.ROAD_START + palace_road]
    s[k.PURSE + seat * k.TOKENS + GOLD] = 5
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    count = k.legal_into(s, legal)
    rng = np.array([3], dtype=np.uint64)
    pay = np.zeros(12, dtype=np.int64)
    purse = np.zeros(kt.TYPES, dtype=np.int64)
    for _ in range(20):
        a = kt.playout_action(s, legal, count, rng, table, pay)
        after = s.copy()
        k.step(after, a)
        space = after[k.SPACE + seat]
        assert space == s[k.PALACE_AT] or (  # or a village on the way, whose extra turn arrives
            after[k.SPACE_KIND + space] == k.VILLAGE and kt.turns(after, seat, table, purse) == 1
        )


def test_the_expert_searches_kids_by_its_plan_and_hard_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    from splendor.search import compiled as compiled_search

    seen: list[tuple[bool, bool, int]] = []
    real = compiled_search.search_state

    def spy(*args: object) -> object:  # search() passes everything by position
        know, settings = args[2], args[6]
        route = know.distance if know.distance.shape[0] else None  # type: ignore[attr-defined]
        seen.append((bool(know.turns.shape[0]), route is not None, settings.depth))  # type: ignore[attr-defined]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled_search, "search_state", spy)
    g = splendor.new_game("kids", players=2, seed=2)
    SearchBot(seed=1, level="expert", iterations=50).search(decision_for(g))
    SearchBot(seed=1, level="hard", iterations=50).search(decision_for(g))
    assert LEVELS["kids", "expert"].plan  # the plan, and no route tables it would never read
    assert seen == [(True, False, LEVELS["kids", "expert"].depth), (False, True, kids_playout.DEPTH)]


def test_a_kids_search_with_neither_a_plan_nor_route_tables_is_refused() -> None:
    from splendor.compiled import from_reference
    from splendor.search import compiled as compiled_search

    fast = from_reference(splendor.new_game("kids", players=2, seed=2))
    with pytest.raises(ValueError, match="plan .* or its route tables"):
        compiled_search.search_state(fast.state, 0, compiled_search.kids_knowledge(), 1, 10)
