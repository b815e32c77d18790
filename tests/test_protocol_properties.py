"""What must hold for every game in the registry, over many random games (the Game protocol's promises)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import splendor
from splendor import IllegalAction
from splendor.search.knowledge import knowledge_for as playout_for
from tests.playouts import playout, random_game

GAMES = sorted(splendor.GAMES)
seeds = st.integers(min_value=0, max_value=2**40)
players = st.integers(min_value=2, max_value=4)


def _candidates(g: splendor.Game, rng: random.Random) -> list[splendor.Action]:
    """Every action when the space is small; else the legal ones, their neighbours by index, and a sample."""
    size = len(g.actions)
    if size <= 5000:
        return list(g.actions)
    picks = {rng.randrange(size) for _ in range(200)} | set(range(min(size, 200)))
    for a in g.legal_actions():
        picks |= set(range(max(0, a.index - 40), min(size, a.index + 40)))
    return [g.actions[i] for i in sorted(picks)]


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players)
def test_legal_actions_are_exactly_the_actions_the_rules_allow_in_index_order(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    rng = random.Random(seed)
    for g in playout(game, random.Random(seed)):
        legal = g.legal_actions()
        assert legal, "a seat always has an action (pass when nothing else)"
        assert [a.index for a in legal] == sorted(a.index for a in legal)
        allowed = {a.index for a in legal}
        for a in _candidates(g, rng):
            assert (g.why_illegal(a) is None) == (a.index in allowed), str(a)


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players, data=st.data())
def test_every_illegal_action_is_refused_and_the_state_is_unchanged(
    name: str, seed: int, n: int, data: st.DataObject
) -> None:
    game = random_game(name, n, seed)
    rng = random.Random(seed)
    for step, g in enumerate(playout(game, rng)):
        if step % 7:
            continue
        legal = {a.index for a in g.legal_actions()}
        illegal = [a for a in _candidates(g, rng) if a.index not in legal]
        if not illegal:
            continue
        action = illegal[rng.randrange(len(illegal))]
        before = g.to_json()
        with pytest.raises(IllegalAction) as err:
            g.apply(action)
        assert str(err.value)
        assert g.to_json() == before


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players)
def test_load_of_to_json_and_replay_of_the_record_give_identical_states(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    rng = random.Random(seed)
    checkpoints = []
    for step, g in enumerate(playout(game, rng)):
        if step % 23 == 5:
            checkpoints.append(g.to_json())
            loaded = splendor.load(checkpoints[-1])
            assert loaded.to_json() == checkpoints[-1]
            assert loaded.legal_actions() == g.legal_actions()
    final = game.to_json()
    assert splendor.replay(game.record).to_json() == final
    assert splendor.replay(game.record.to_text()).to_json() == final
    assert splendor.load(final).to_json() == final
    for i, text in enumerate(checkpoints):
        assert splendor.load(text).to_json() == text, i


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players)
def test_same_seed_and_actions_give_the_same_states_byte_for_byte(name: str, seed: int, n: int) -> None:
    a = random_game(name, n, seed)
    for _ in playout(a, random.Random(seed)):
        pass
    b = random_game(name, n, seed)
    for _ in playout(b, random.Random(seed)):
        pass
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players)
def test_a_clone_is_independent_of_its_original(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    rng = random.Random(seed)
    for step, g in enumerate(playout(game, rng)):
        if step % 11 == 3:
            before = g.to_json()
            twin = g.clone()
            assert twin.to_json() == before
            for _ in playout(twin, random.Random(step)):
                pass
            assert g.to_json() == before


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players, cap=st.integers(min_value=1, max_value=300))
def test_every_game_ends_with_a_winner_a_shared_victory_truncation_or_a_stall(
    name: str, seed: int, n: int, cap: int
) -> None:
    game = random_game(name, n, seed, max_turns=cap)
    for _ in playout(game, random.Random(seed)):
        pass
    result = game.result
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    assert result["status"] in ("won", "shared", "truncated", "stalled")
    if result["status"] == "truncated":
        assert game.winners == [] and game.turns == cap
    elif result["status"] == "stalled":
        assert game.winners == [] and game.stalled
    else:
        assert len(game.winners) == (1 if result["status"] == "won" else len(game.winners))
        assert len(game.winners) >= 1
        assert all(0 <= w < n for w in game.winners)
    json.dumps(result)


@pytest.mark.parametrize("name", GAMES)
@given(seed=seeds, n=players)
def test_views_are_json_ready_for_every_seat_and_a_spectator(name: str, seed: int, n: int) -> None:
    game = random_game(name, n, seed)
    for step, g in enumerate(playout(game, random.Random(seed))):
        if step % 13 == 0:
            for seat in [None, *range(n)]:
                v = g.view(seat)
                assert json.loads(json.dumps(v)) == v
                assert v["current_player"] == g.current_player
                assert v["legal_actions"] == ([a.text for a in g.legal_actions()] if seat == g.current_player else [])


@pytest.mark.parametrize("name", GAMES)
def test_every_action_text_parses_back_to_the_same_action_and_index(name: str) -> None:
    game = splendor.new_game(name, players=2, seed=0)
    size = len(game.actions)
    indices = (
        range(size)
        if size <= 5000
        else sorted({*range(500), *range(size - 500, size), *random.Random(0).sample(range(size), 3000)})
    )
    for i in indices:
        action = game.actions[i]
        assert game.actions.parse(str(action)) is action
        assert game.action_index(action) == i == game.action_index(str(action))
        assert game.action_from_index(i) is action
    assert game.num_actions == len(game.actions)
    with pytest.raises(IndexError):
        game.action_from_index(game.num_actions)


@pytest.mark.parametrize("name", GAMES)
@given(text=st.text(max_size=30))
def test_any_text_is_an_action_or_a_clear_illegal_action_never_a_crash(name: str, text: str) -> None:
    game = splendor.new_game(name, players=2, seed=0)
    before = game.to_json()
    try:
        game.apply(text)
    except IllegalAction as e:
        assert str(e)
        assert game.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_action_space_is_fixed_per_player_count(name: str) -> None:
    for n in (2, 3, 4):
        a = splendor.new_game(name, players=n, seed=1)
        b = splendor.new_game(name, players=n, seed=2)
        assert len(a.actions) == len(b.actions)
        assert [str(a.actions[i]) for i in range(0, len(a.actions), 97)] == [
            str(b.actions[i]) for i in range(0, len(b.actions), 97)
        ]


VARIANTS = [(name, {}) for name in GAMES] + [("kids", {"mysteries": True})]


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=lambda x: x if isinstance(x, str) else str(x))
@given(seed=seeds, n=players)
def test_the_playout_policy_always_chooses_a_legal_action(
    name: str, options: dict[str, object], seed: int, n: int
) -> None:
    """The search's playouts take their own short cuts (Kids lists only the chosen road's payment), so the
    policy is checked against the full legal list in every phase, driving the game itself to the end."""
    game = random_game(name, n, seed, **options)
    rng = random.Random(seed)
    policy = playout_for(name).action
    while not game.is_over:
        action = policy(game, rng)
        assert action in game.legal_actions(), f"{action} in phase {getattr(game, 'phase', '?')}"
        game.apply(action)
