"""The card-market observations written in compiled code (``splendor.compiled.market.observe``) are the view-based
ones of ``splendor.envs.observe``, bit for bit: at every step of whole games (ended by the points, by the turn cap),
for every seat and for a spectator, one game at a time and in a batch; and they are built only from what the seat
may see (the redeal test). ``benchmarks/same_observations.py`` checks thousands of games the same way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import cast

import numpy as np
import pytest

import splendor
import splendor.compiled as compiled
from splendor.compiled import market as m
from splendor.compiled.game import CompiledGame
from splendor.compiled.market import OBSERVATION_SIZE, batch_observe, observe_into
from splendor.envs.observe import observe, size
from splendor.games.classic.cards import NOBLES
from splendor.games.classic.game import ClassicGame
from tests.market_positions import give_card

MARKET_GAMES = ("classic", "pokemon")
GAMES_EACH = 8
"""Games per game and player count: most played towards the points, the last ones cut short by a small cap."""
CAPPED_GAMES = 2
ROOM = int(OBSERVATION_SIZE.max()) + 8  # a buffer longer than any observation: what lies past it stays untouched


def play(name: str, players: int, seed: int, max_turns: int, buy_chance: float) -> Iterator[CompiledGame]:
    """A compiled game before every decision and once more at its end, played by random legal actions from a
    seeded numpy Generator; with ``buy_chance`` a buy is taken whenever there is one, so that games end by the
    points."""
    rng = np.random.default_rng(seed)
    game = compiled.new_game(name, players=players, seed=seed, max_turns=max_turns, first_player=seed % players)
    kind = int(game.state[m.KIND])
    while True:
        yield game
        if game.is_over:
            return
        legal = np.flatnonzero(game.legal_mask())
        buys = legal[(legal >= m.BUY) & (legal < m.RETURN[kind])]
        pick = buys if len(buys) and rng.random() < buy_chance else legal
        game.step(int(rng.choice(pick)))


def games(name: str, players: int, count: int) -> Iterator[Iterator[CompiledGame]]:
    """``count`` games, the last ``CAPPED_GAMES`` of them played at random under a cap of a few dozen turns."""
    for number in range(count):
        if number < count - CAPPED_GAMES:
            yield play(name, players, 1000 * players + number, 400, 0.9)
        else:
            yield play(name, players, 1000 * players + number, 20 + 10 * (count - 1 - number), 0.0)


def compiled_observation(state: np.ndarray, viewer: int) -> np.ndarray:
    """``observe_into`` over a buffer full of garbage: it must write every value and nothing past the vector."""
    out = np.full(ROOM, np.nan, dtype=np.float32)
    observe_into(state, viewer, out)
    n = int(OBSERVATION_SIZE[state[m.KIND]])
    assert np.isnan(out[n:]).all(), "observe_into wrote past the observation"
    return out[:n]


def end_of(state: np.ndarray) -> str:
    return "capped" if state[m.CAPPED] else "stalled" if state[m.STALLED] else "points"


def test_the_sizes_are_the_layouts() -> None:
    assert OBSERVATION_SIZE.tolist() == [size("classic"), size("pokemon")]
    assert OBSERVATION_SIZE.dtype == np.int64


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", MARKET_GAMES)
def test_every_seat_observes_as_its_view_at_every_step(name: str, players: int) -> None:
    phases: set[int] = set()
    ends: set[str] = set()
    hidden = 0
    for steps in games(name, players, GAMES_EACH):
        for step, game in enumerate(steps):
            ref = game.to_reference()
            for seat in range(players):
                view = ref.view(seat)
                assert np.array_equal(compiled_observation(game.state, seat), observe(view)), (seat, step)
                hidden += sum(1 for s in view["seats"] for card in s["reserved"] if card.get("hidden"))
            if step % 5 == 0 or game.is_over:  # a spectator: the seats from seat 0, every face-down card hidden
                assert np.array_equal(compiled_observation(game.state, -1), observe(ref.view(None))), step
            phases.add(int(game.state[m.PHASE]))
        ends.add(end_of(game.state))
    assert ends >= {"points", "capped"}
    assert phases >= {m.MAIN, m.RETURN_PHASE, m.OVER} and hidden  # the returns, the end, face-down reserves seen
    if name == "pokemon":
        assert m.CHOICE in phases  # an evolution offered


def test_a_choice_among_nobles_is_observed_as_its_view() -> None:
    """Several nobles may visit at once (rare in random games): the ``noble`` decision, observed by every seat."""
    g = cast(ClassicGame, splendor.new_game("classic", players=3, seed=5))
    want = [max(NOBLES[n].requires[c] for n in g.nobles) for c in range(m.PLAIN)]  # every noble on display visits
    for colour, count in enumerate(want):
        for cid in [c.id for c in g.cards if c.bonus == colour and c.row == 0][:count]:
            give_card(g, 0, cid)
    g.apply("take w b g")
    assert g.view(0)["decision"] == "noble"
    fast = compiled.from_reference(g)
    assert fast.state[m.PHASE] == m.CHOICE
    for seat in (0, 1, 2, -1):
        assert np.array_equal(compiled_observation(fast.state, seat), observe(g.view(None if seat < 0 else seat)))


@pytest.mark.parametrize("name", MARKET_GAMES)
def test_a_batch_observes_row_by_row_as_one_game_does(name: str) -> None:
    states, viewers = [], []
    for players in (2, 3, 4):
        for number, game in enumerate(play(name, players, players, 400, 0.5)):
            states.append(game.state.copy())
            viewers.append(number % (players + 1) - 1)  # every seat in turn, and the spectator
    rows = np.array(states)
    seats = np.array(viewers, dtype=np.int64)
    out = np.full((len(rows), int(OBSERVATION_SIZE[rows[0, m.KIND]])), np.nan, dtype=np.float32)
    batch_observe(rows, seats, out)
    for i in range(len(rows)):
        assert np.array_equal(out[i], compiled_observation(rows[i], int(seats[i]))), i


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", MARKET_GAMES)
def test_a_redeal_of_every_hidden_part_leaves_the_observation_unchanged(name: str, players: int) -> None:
    """The decks' order and the other seats' face-down reserved cards dealt anew (``determinize``, as the search
    does): the seat's vector is the same, so it holds nothing the seat may not see."""
    changed = secret_changed = 0
    for steps in games(name, players, 3):
        for step, game in enumerate(steps):
            if step % 7 != 3:
                continue
            ref = game.to_reference()
            for seat in range(players):
                for deal in range(2):
                    twin = compiled.from_reference(ref.determinize(seat, random.Random(deal)))
                    changed += not np.array_equal(twin.state, game.state)
                    secret_changed += not np.array_equal(
                        twin.state[m.RESERVED : m.ROWS], game.state[m.RESERVED : m.ROWS]
                    )
                    assert np.array_equal(
                        compiled_observation(twin.state, seat), compiled_observation(game.state, seat)
                    ), (step, seat, deal)
    assert changed and secret_changed  # the redeals did change the hidden parts, face-down reserves among them
