"""What a learned policy reads (issue 34, item 4): what each card still needs and what each action would do,
computed from the observation and here counted again from the seat's view, at every decision of whole games."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import splendor
from splendor.bots.base import decide, make_bot
from splendor.bots.learned_inputs import ACTION_FEATURES, NEEDS_SIZE, action_features, needs
from splendor.envs.observe import observe
from splendor.games.classic.notation import ACTIONS

COLOURS = ["white", "blue", "green", "red", "black"]


def lacking(card: dict[str, Any], seat: dict[str, Any]) -> tuple[list[int], int]:
    """The tokens of each colour ``seat`` lacks for ``card`` after bonuses and tokens, and the total after gold."""
    short = [max(0, card["cost"].get(c, 0) - seat["bonuses"].get(c, 0) - seat["tokens"][c]) for c in COLOURS]
    return short, max(0, sum(short) - seat["tokens"]["gold"])


def greedy_game_views(seed: int) -> list[tuple[dict[str, Any], int, list[int]]]:
    """Every decision's view, seat and legal actions (as indices) of a 2-player game of greedy bots, who reserve,
    so reserved cards are seen."""
    game = splendor.new_game("classic", players=2, seed=seed)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    seen = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        seen.append((game.view(seat), seat, [a.index for a in game.legal_actions()]))
        game.apply(decide(bots[seat], game))
    return seen


def test_what_the_cards_need_is_counted_from_the_view_too() -> None:
    reserved_seen = 0
    for view, seat, _ in greedy_game_views(5):
        found = needs(observe(view))
        me, other = view["seats"][seat], view["seats"][1 - seat]
        market = [c for row in view["market"].values() for c in row]
        reserved_seen += len(me["reserved"])
        expected = np.zeros(NEEDS_SIZE)
        for i, card in enumerate(market + me["reserved"]):
            if card:
                short, total = lacking(card, me)
                expected[6 * i : 6 * i + 6] = [*(np.array(short) / 7), min(total, 15) / 15]
        for i, card in enumerate(market):
            expected[90 + i] = min(lacking(card, other)[1], 15) / 15 if card else 0.0
        assert np.allclose(found, expected)
    assert reserved_seen > 0


def column(name: str) -> int:
    """The index of an action feature, found by the start of its description."""
    (found,) = [k for k, what in enumerate(ACTION_FEATURES) if what.startswith(name)]
    return found


def test_what_each_action_would_do_is_counted_from_the_view_too() -> None:
    """For every buy and reserve, the card's points, worth and need; for every take and return, the tokens gained,
    those above ten, and the cards it makes affordable; each counted here from the view, by its own arithmetic
    (game 1 has returns to make, game 7 does not)."""
    checked = {"buy": 0, "reserve": 0, "take": 0, "return": 0}
    for view, seat, legal in greedy_game_views(1) + greedy_game_views(7):
        found = action_features(observe(view))
        assert found.shape == (77, len(ACTION_FEATURES))
        assert np.array_equal(found, action_features(observe(view)[None])[0])
        me = view["seats"][seat]
        market = [c for row in view["market"].values() for c in row]
        cards = market + me["reserved"] + [None] * (3 - len(me["reserved"]))
        assert np.allclose(found[:, column("my points")], me["points"] / 15)
        held = sum(me["tokens"].values())
        for a in legal:
            action = ACTIONS[a]
            kind = action.kind
            if kind in ("buy", "buy_reserved", "reserve"):
                card = cards[action.args[0] * 4 + action.args[1] if kind != "buy_reserved" else 12 + action.args[0]]
                assert card is not None
                worth = card["points"]
                for noble in view["nobles"]:
                    missing = sum(max(0, r - me["bonuses"][c]) for c, r in noble["requires"].items())
                    if noble["requires"].get(card["bonus"], 0) > me["bonuses"][card["bonus"]]:
                        worth += 3 / (missing + 1)
                assert found[a, column("the card's points")] == pytest.approx(card["points"] / 5)
                assert found[a, column("the card's worth")] == pytest.approx(worth / 10)
                assert found[a, column("tokens the card still needs")] == pytest.approx(lacking(card, me)[1] / 10)
                checked["reserve" if kind == "reserve" else "buy"] += 1
                after_bonus = sum(max(0, card["cost"].get(c, 0) - me["bonuses"][c]) for c in COLOURS)
                assert found[a, column("tokens the card costs after bonuses")] == pytest.approx(after_bonus / 10)
                if kind == "reserve":
                    gold = view["supply"]["gold"] > 0 and held < 10
                    assert found[a, column("a reserve that brings a gold token")] == gold
                else:
                    assert found[a, column("gold the card takes")] == pytest.approx(sum(lacking(card, me)[0]) / 5)
                    assert found[a, column("buys")] == 1
            elif kind in ("take", "take2", "return"):
                gained = dict.fromkeys([*COLOURS, "gold"], 0)
                for colour in action.args:
                    gained[[*COLOURS, "gold"][colour]] += {"take": 1, "take2": 2, "return": -1}[kind]
                after = {**me, "tokens": {c: me["tokens"][c] + gained[c] for c in gained}}
                affordable = sum(
                    1 for card in cards if card and lacking(card, me)[1] > 0 and lacking(card, after)[1] == 0
                )
                assert found[a, column("tokens gained")] == pytest.approx(sum(gained.values()) / 3)
                assert found[a, column("tokens above ten")] == pytest.approx(
                    max(0, held + sum(gained.values()) - 10) / 3
                )
                assert found[a, column("cards the token move makes")] == pytest.approx(affordable / 3)
                checked["return" if kind == "return" else "take"] += 1
            else:
                assert found[a, column("the card's points") : column("a reserve")].sum() == 0
    assert min(checked.values()) > 0, checked


def test_the_action_kinds_are_told_apart() -> None:
    """Each action is of exactly one kind among the six the features tell apart, the kind the game gives it."""
    found = action_features(np.zeros(465, dtype=np.float32))
    kinds = found[:, column("takes tokens") : column("chooses a noble") + 1]
    assert (kinds.sum(axis=1) == 1).all()
    names = ["take", "reserve", "reserve_deck", "buy", "return", "noble"]
    for a in range(77):
        kind = ACTIONS[a].kind.replace("take2", "take").replace("buy_reserved", "buy").replace("pass", "noble")
        assert names[int(kinds[a].argmax())] == kind


def test_a_batch_gives_what_each_observation_gives_alone() -> None:
    """Many positions at once (3 players: other seats' cards in the vector too) give row for row what each gives
    alone, the ranking of the best cards included."""
    game = splendor.new_game("classic", players=3, seed=11)
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    seen = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        seen.append(observe(game.view(seat)))
        game.apply(decide(bots[seat], game))
    batch = np.stack(seen)
    assert np.array_equal(action_features(batch), np.stack([action_features(o) for o in seen]))
    assert np.array_equal(needs(batch), np.stack([needs(o) for o in seen]))
