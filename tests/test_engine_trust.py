"""The engine trusts nothing it is handed: only a game's own actions are carried out, any text either parses or
is refused with `IllegalAction`, and a loaded game is proven (replayed from its header and history) before use."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
from splendor import IllegalAction
from splendor.core.actions import Action
from splendor.games import GAMES

NON_ASCII_DIGITS = [
    ("classic", "buy 1.²"),
    ("classic", "reserve 1.⑧"),
    ("classic", "noble ³"),
    ("classic", "buy reserved ¹"),
    ("pokemon", "evolve ² 1.1"),
    ("pokemon", "evolve 3 2.٣"),
    ("kids", "move ²"),
    ("kids", "give r to ²"),
    ("kids", "move ١ pay k"),
]


def played(name: str, actions: int = 30, seed: int = 4, **options: Any) -> splendor.Game:
    game = splendor.new_game(name, players=3, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize(
    "action",
    [
        Action(0, "take2", (5,), "take y y"),
        Action(0, "take", (0, 0, 0), "take w w w"),
        Action(44, "take", (0, 1, 2), "take w b g"),
        Action(-1, "pass", (), "pass"),
        Action(10**9, "buy", (7, 9), "buy 8.10"),
        Action(True, "take", (0, 1, 2), "x"),
    ],
)
def test_a_hand_built_action_is_refused_and_changes_nothing(action: Action) -> None:
    game = splendor.new_game("classic", players=2, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalAction, match="is not an action of Splendor"):
        game.apply(action)
    assert game.to_json() == before and not game.is_legal(action)


def test_a_pokemon_reservation_of_the_rare_card_cannot_be_forged() -> None:
    game = splendor.new_game("pokemon", players=2, seed=1)
    reserve = game.parse("reserve 1.1")
    with pytest.raises(IllegalAction):
        game.apply(Action(reserve.index, "reserve", (3, 0), "reserve 1.1"))
    assert game.history == []


def test_an_action_parsed_by_another_game_is_refused() -> None:
    classic, pokemon = splendor.new_game("classic", seed=2), splendor.new_game("pokemon", seed=2)
    with pytest.raises(IllegalAction, match="is not an action of Splendor"):
        classic.apply(pokemon.parse("take y y"))
    assert classic.history == [] and classic.supply[4] == 4


def test_a_copy_of_the_games_own_action_is_accepted_as_the_original() -> None:
    game = splendor.new_game("kids", players=2, seed=3)
    action = game.legal_actions()[0]
    game.apply(pickle.loads(pickle.dumps(action)))
    assert game.history[0] is action


@pytest.mark.parametrize(("name", "text"), NON_ASCII_DIGITS)
def test_non_ascii_digits_are_refused_as_malformed(name: str, text: str) -> None:
    with pytest.raises(IllegalAction):
        splendor.new_game(name, players=2, seed=1).parse(text)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("takersvbuyplmon ywgrkbhtdiecf.:123⑧²٣  ")), max_size=24)
    | st.text(max_size=24)
)
def test_any_text_parses_to_an_action_or_is_refused_with_illegal_action(name: str, text: str) -> None:
    game = splendor.new_game(name, players=4, seed=1)
    try:
        action = game.parse(text)
    except IllegalAction:
        return
    assert game.parse(action.text) is action


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_game_whose_history_does_not_lead_to_its_state_is_refused(name: str) -> None:
    data = json.loads(played(name).to_json())
    data["history"] = data["history"][:-1]
    with pytest.raises(ValueError, match="history|not where its history leads"):
        splendor.load(json.dumps(data))


def test_an_impossible_state_is_refused_fifty_gold_in_the_supply() -> None:
    data = json.loads(played("classic").to_json())
    data["state"]["supply"][5] = 50
    with pytest.raises(ValueError, match="not where its history leads: 'supply' differ"):
        splendor.load(json.dumps(data))


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, path + (k,))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, path + (i,))] or [path]
    return [path]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_single_field_change_to_a_saved_game_is_refused_with_value_error(name: str, data: st.DataObject) -> None:
    options = {"mysteries": True} if name == "kids" else {}
    saved = json.loads(played(name, **options).to_json())
    path = data.draw(st.sampled_from([p for p in _leaves(saved) if p and p[0] != "format"]))
    new = data.draw(
        st.one_of(
            st.integers(-2, 60),
            st.integers(2**62, 2**70),
            st.none(),
            st.booleans(),
            st.text(max_size=4),
            st.just([]),
            st.just({}),
            st.floats(allow_nan=False),
        )
    )
    target = saved
    for key in path[:-1]:
        target = target[key]
    if target[path[-1]] == new and type(target[path[-1]]) is type(new):
        return
    target[path[-1]] = new
    text = json.dumps(saved)
    try:
        game = splendor.load(text)
    except ValueError:
        return
    assert json.loads(game.to_json()) == saved  # accepted only if it is still the same game exactly


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100000,
        "{" * 50000,
        '{"format": "splendor-state/1", "game": "chess"}',
        '{"format": "splendor-state/1", "game": "classic"}',
        "[]",
        "1e400",
        "null",
    ],
)
def test_damaged_text_is_a_clear_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        splendor.load(text)
