"""What the log tells everyone of an action (``Game.public_details``): the card bought, reserved or evolved, the
noble that visited, where a traveler went and what it set off; never a card that is still hidden."""

from __future__ import annotations

import random

import pytest

import splendor
from splendor.core.game import Game
from tests.playouts import random_game


def _steps(name: str, seeds: range, **options: object):  # type: ignore[no-untyped-def]
    for seed in seeds:
        g = random_game(name, 2 + seed % 3, seed, **options)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            buys = [a for a in legal if a.kind in ("buy", "buy_reserved", "evolve", "move")]
            action = (buys or legal)[rng.randrange(len(buys or legal))]
            after = g.clone()
            after.apply(action)
            yield g, action, after, g.public_details(action, after)
            g = after


@pytest.mark.parametrize("name", ["classic", "pokemon"])
def test_the_log_names_the_card_bought_or_reserved_and_never_one_from_a_deck(name: str) -> None:
    kinds = set()
    for before, action, after, details in _steps(name, range(12)):
        seat = before.current_player
        kinds.add(action.kind)
        if action.kind in ("buy", "buy_reserved"):
            assert details["card"]["id"] in after.bought[seat]  # type: ignore[attr-defined]
        elif action.kind == "reserve":
            assert details["card"]["id"] == after.reserved[seat][-1]  # type: ignore[attr-defined]
        elif action.kind == "evolve":
            assert details["into"]["id"] == after.bought[seat][-1]  # type: ignore[attr-defined]
            assert details["card"]["id"] in after.under_tile[seat]  # type: ignore[attr-defined]
        else:
            assert "card" not in details, (action, details)  # a deck's card stays unnamed
    assert {"buy", "reserve", "reserve_deck"} <= kinds


@pytest.mark.parametrize("name", ["classic", "pokemon"])
def test_the_log_says_the_tokens_a_buy_paid_and_the_wild_one_a_reserve_received(name: str) -> None:
    """A card's cost does not say what was paid where a gold or a Master Ball stood in: a newcomer could not account
    for the balls from the log."""
    wild_paid = received = 0
    for before, action, after, details in _steps(name, range(12)):
        seat = before.current_player
        held = dict(zip(before.palette.names, before.tokens[seat]))  # type: ignore[attr-defined]
        now = dict(zip(before.palette.names, after.tokens[seat]))  # type: ignore[attr-defined]
        wild = before.palette.names[-1]  # type: ignore[attr-defined]
        if action.kind in ("buy", "buy_reserved"):
            assert details["paid"] == {c: held[c] - now[c] for c in held if held[c] != now[c]}
            wild_paid += wild in details["paid"]
        else:
            assert "paid" not in details
        if action.kind in ("reserve", "reserve_deck") and now[wild] > held[wild]:
            assert details["received"] == {wild: 1}
            received += 1
        else:
            assert "received" not in details
    assert wild_paid and received


def test_the_log_names_every_noble_that_visits_chosen_or_not() -> None:
    visits = 0
    for before, _action, after, details in _steps("classic", range(20)):
        seat = before.current_player
        came = len(after.seat_nobles[seat]) - len(before.seat_nobles[seat])  # type: ignore[attr-defined]
        assert len(details.get("nobles", [])) == came
        visits += came
    assert visits > 0


def test_the_log_says_where_a_traveler_went_and_what_it_set_off() -> None:
    seen: set[str] = set()
    for before, action, after, details in _steps("kids", range(25), mysteries=True):
        seen.update(details)
        if action.kind == "move":
            assert details["to"]["kind"] in ("city", "village", "palace")
            assert details.get("extra_turn", False) == (details["to"]["kind"] == "village")
        seat = before.current_player
        if "medal" in details:
            assert after.view(None)["seats"][seat]["medal"] == details["medal"]
    assert {"to", "extra_turn", "village_tile", "city_tiles", "medal"} <= seen


def test_an_action_with_nothing_more_to_tell_has_no_details() -> None:
    g: Game = splendor.new_game("classic", players=2, seed=1)
    action = g.parse("take w b g")
    after = g.clone()
    after.apply(action)
    assert g.public_details(action, after) == {}
