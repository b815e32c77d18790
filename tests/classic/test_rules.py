"""Classic Splendor's rules, one test each, named after the rule (``shared/rules/classic-rules-sl.txt``)."""

from __future__ import annotations

import pytest

import splendor
from splendor import IllegalAction
from splendor.games.classic.cards import CARDS, NOBLES
from splendor.games.classic.game import ClassicGame
from tests.classic.positions import (
    K,
    R,
    W,
    Y,
    all_card_ids,
    give_bonuses,
    give_card,
    give_tokens,
    new,
    noble_requiring,
    place,
    set_nobles,
    total_tokens,
)

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "per_colour"), [(2, 4), (3, 5), (4, 7)])
def test_setup_gem_tokens_by_player_count_and_always_five_gold(players: int, per_colour: int) -> None:
    g = new(players)
    assert g.supply == [per_colour] * 5 + [5]
    assert all(sum(t) == 0 for t in g.tokens)


def test_setup_ninety_cards_in_three_tiers_forty_thirty_twenty() -> None:
    assert [sum(1 for c in CARDS if c.row == r) for r in range(3)] == [40, 30, 20]
    g = new()
    assert sorted(all_card_ids(g)) == list(range(90))


def test_setup_reveals_four_cards_of_each_tier() -> None:
    g = new()
    for r in range(3):
        assert len(g.rows[r]) == 4 and all(c >= 0 and CARDS[c].row == r for c in g.rows[r])
        assert len(g.decks[r]) == [36, 26, 16][r]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_reveals_players_plus_one_nobles(players: int) -> None:
    g = new(players)
    assert len(g.nobles) == players + 1 and len(set(g.nobles)) == players + 1


def test_setup_shuffles_by_seed() -> None:
    a, b, c = new(seed=5), new(seed=5), new(seed=6)
    assert a.to_json() == b.to_json()
    assert (a.rows, a.decks, a.nobles) != (c.rows, c.decks, c.nobles)


def test_players_two_to_four_only() -> None:
    for bad in (1, 5, "2", 2.0):
        with pytest.raises(ValueError):
            splendor.new_game("classic", players=bad, seed=1)


# ----------------------------------------------------------------------------- a turn is one action


def test_turn_is_exactly_one_action_then_the_next_seat() -> None:
    g = new(3)
    g.apply("take w b g")
    assert g.current_player == 1
    g.apply("take w b g")
    g.apply("take r k w")
    assert g.current_player == 0 and g.turns == 3


# ----------------------------------------------------------------------------- taking tokens


def test_take_three_different_colours() -> None:
    g = new()
    g.apply("take w b g")
    assert g.tokens[0] == [1, 1, 1, 0, 0, 0]
    assert g.supply == [3, 3, 3, 4, 4, 5]


def test_take_three_in_any_order_and_full_names() -> None:
    g = new()
    g.apply("Take green, WHITE blue")
    assert str(g.history[-1]) == "take w b g"


def test_take_never_gold() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="gold tokens cannot be taken"):
        g.apply("take w b y")


def test_take_three_must_be_different() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="different colours"):
        g.apply("take w w b")


def test_take_two_of_one_colour_needs_four_before_taking() -> None:
    g = new()
    g.apply("take r r")
    assert g.tokens[0][R] == 2 and g.supply[R] == 2
    give_tokens(g, 1, blue=1)
    with pytest.raises(IllegalAction, match="needs at least 4 in the supply before taking; blue has 3"):
        g.apply("take b b")


def test_take_two_of_one_colour_allowed_with_exactly_four() -> None:
    g = new()
    assert g.supply[K] == 4
    g.apply("take k k")
    assert g.supply[K] == 2


def test_take_a_colour_that_is_empty_is_refused() -> None:
    g = new()
    give_tokens(g, 1, white=4)
    with pytest.raises(IllegalAction, match="no white token left"):
        g.apply("take w b g")


# ----------------------------------------------------------------------------- reserving


def test_reserve_face_up_card_takes_a_gold_and_refills_the_slot() -> None:
    g = new()
    card, next_card = g.rows[1][2], g.decks[1][-1]
    g.apply("reserve 2.3")
    assert g.reserved[0] == [card]
    assert g.tokens[0][Y] == 1 and g.supply[Y] == 4
    assert g.rows[1][2] == next_card


def test_reserve_top_of_deck_unseen_by_the_others() -> None:
    g = new()
    top = g.decks[2][-1]
    g.apply("reserve deck 3")
    assert g.reserved[0] == [top]
    assert g.view(0)["seats"][0]["reserved"][0]["id"] == top
    assert g.view(1)["seats"][0]["reserved"] == [{"hidden": True, "tier": 3}]
    assert g.view(None)["seats"][0]["reserved"] == [{"hidden": True, "tier": 3}]


def test_reserve_without_gold_left_is_still_allowed() -> None:
    g = new()
    give_tokens(g, 1, gold=5)
    g.apply("reserve 1.1")
    assert len(g.reserved[0]) == 1 and g.tokens[0][Y] == 0


def test_reserve_at_most_three_cards_in_hand() -> None:
    g = new()
    for _ in range(3):
        g.apply("reserve 1.1")
        g.apply("take w b g" if g.supply[W] else "take r k b")
    assert len(g.reserved[0]) == 3
    with pytest.raises(IllegalAction, match="already hold 3 reserved cards"):
        g.apply("reserve 2.1")
    with pytest.raises(IllegalAction, match="already hold 3 reserved cards"):
        g.apply("reserve deck 2")
    assert not any(a.kind.startswith("reserve") for a in g.legal_actions())


def test_reserved_card_cannot_be_discarded_only_bought() -> None:
    g = new()
    g.apply("reserve 1.1")
    kinds = {a.kind for a in g.actions}
    assert kinds == {"take", "take2", "reserve", "reserve_deck", "buy", "buy_reserved", "return", "noble", "pass"}
    with pytest.raises(IllegalAction):
        g.apply("discard 1")


def test_reserve_from_an_empty_deck_is_refused() -> None:
    g = new()
    g.decks[2], moved = [], g.decks[2]
    g.decks[1] = moved + g.decks[1]  # keep the cards in play for conservation
    with pytest.raises(IllegalAction, match="tier 3 deck is empty"):
        g.apply("reserve deck 3")


# ----------------------------------------------------------------------------- buying


def _put_and_fund(g: ClassicGame, cid: int, slot: int = 0, **tokens: int) -> None:
    place(g, cid, slot)
    give_tokens(g, 0, **tokens)


def test_buy_pays_the_cost_on_the_card() -> None:
    g = new()
    cid = 0  # tier 1, white bonus, costs 2 red 1 black
    _put_and_fund(g, cid, 0, red=2, black=1, blue=1)
    g.apply("buy 1.1")
    assert g.bought[0] == [cid] and g.bonuses[0][W] == 1
    assert g.tokens[0] == [0, 1, 0, 0, 0, 0]
    assert g.supply[R] == 4 and g.supply[K] == 4


def test_buy_bonuses_lower_the_cost() -> None:
    g = new()
    give_bonuses(g, 0, red=1)
    _put_and_fund(g, 0, 0, red=1, black=1)
    g.apply("buy 1.1")
    assert g.tokens[0] == [0] * 6


def test_buy_is_free_with_enough_bonuses() -> None:
    g = new()
    give_bonuses(g, 0, red=2, black=1)
    place(g, 0, 0)
    g.apply("buy 1.1")
    assert 0 in g.bought[0] and sum(g.tokens[0]) == 0


def test_buy_gold_stands_in_for_any_colour() -> None:
    g = new()
    _put_and_fund(g, 0, 0, red=1, gold=2)
    g.apply("buy 1.1")
    assert g.tokens[0] == [0] * 6 and g.supply[Y] == 5


def test_buy_unaffordable_is_refused_with_the_shortfall() -> None:
    g = new()
    _put_and_fund(g, 0, 0, red=1)
    with pytest.raises(IllegalAction, match="cannot afford that card.*2 tokens short"):
        g.apply("buy 1.1")


def test_buy_bought_face_up_card_is_replaced_from_the_same_tier() -> None:
    g = new()
    _put_and_fund(g, 0, 2, red=2, black=1)
    top = g.decks[0][-1]
    g.apply("buy 1.3")
    assert g.rows[0][2] == top and len(g.decks[0]) == 35


def test_buy_with_an_empty_deck_leaves_the_slot_empty() -> None:
    g = new()
    _put_and_fund(g, 0, 0, red=2, black=1)
    g.decks[0], rest = [], g.decks[0]
    g.decks[1] = rest + g.decks[1]
    g.apply("buy 1.1")
    assert g.rows[0][0] == -1
    assert g.view(0)["market"]["1"][0] is None
    with pytest.raises(IllegalAction, match="no card at 1.1"):
        g.apply("buy 1.1")


def test_buy_a_reserved_card() -> None:
    g = new()
    place(g, 0, 0)
    g.apply("reserve 1.1")
    g.apply("take w b g")
    give_tokens(g, 0, red=2)  # with the gold from reserving: 2 red + 1 gold for black
    g.apply("buy reserved 1")
    assert g.reserved[0] == [] and g.bought[0] == [0]
    assert g.tokens[0][Y] == 0


def test_buy_reserved_that_does_not_exist_is_refused() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="no reserved card 1"):
        g.apply("buy reserved 1")


# ----------------------------------------------------------------------------- ten tokens


def test_at_most_ten_tokens_at_the_end_of_a_turn_the_player_returns_the_excess() -> None:
    g = new()
    give_tokens(g, 0, white=3, blue=3, green=3)
    g.apply("take r k w")  # 12 tokens now... 9 + 3
    assert g.current_player == 0 and g.view(0)["decision"] == "return"
    assert {a.kind for a in g.legal_actions()} == {"return"}
    with pytest.raises(IllegalAction, match="return tokens down to 10"):
        g.apply("take w b g")
    g.apply("return r")
    assert g.current_player == 0
    g.apply("return w")
    assert g.current_player == 1 and sum(g.tokens[0]) == 10
    assert g.tokens[0] == [3, 3, 3, 0, 1, 0]


def test_gold_counts_toward_the_ten_tokens() -> None:
    g = new()
    give_tokens(g, 0, white=3, blue=3, green=3, red=1)
    g.apply("reserve 1.1")
    assert g.view(0)["decision"] == "return"
    g.apply("return y")
    assert g.current_player == 1


def test_return_only_when_over_ten() -> None:
    g = new()
    give_tokens(g, 0, white=1)
    with pytest.raises(IllegalAction, match="only when you hold more than 10"):
        g.apply("return w")


# ----------------------------------------------------------------------------- nobles


def test_noble_visits_when_card_bonuses_meet_its_requirement() -> None:
    g = new()
    n = noble_requiring(red=4, black=4)
    set_nobles(g, [n])
    give_bonuses(g, 0, red=4, black=4)
    before = g.points[0]
    g.apply("take w b g")
    assert g.seat_nobles[0] == [n] and g.points[0] == before + 3


def test_noble_tokens_do_not_count() -> None:
    g = new()
    n = noble_requiring(red=4, black=4)
    set_nobles(g, [n])
    give_bonuses(g, 0, red=3, black=4)
    give_tokens(g, 0, red=4)
    g.apply("take w b g")
    assert g.seat_nobles[0] == []


def test_noble_visit_is_not_refused_and_is_not_an_action() -> None:
    g = new()
    set_nobles(g, [noble_requiring(red=4, black=4)])
    give_bonuses(g, 0, red=4, black=4)
    g.apply("take w b g")
    assert len(g.history) == 1 and g.current_player == 1


def test_one_noble_per_turn_and_the_player_chooses_among_several() -> None:
    g = new()
    a, b = noble_requiring(red=4, black=4), noble_requiring(green=3, red=3, black=3)
    set_nobles(g, [a, b, noble_requiring(white=4, blue=4)])
    give_bonuses(g, 0, red=4, black=4, green=3)
    g.apply("take w b g")
    assert g.current_player == 0 and g.view(0)["decision"] == "noble"
    assert [str(x) for x in g.legal_actions()] == [f"noble {min(a, b)}", f"noble {max(a, b)}"]
    with pytest.raises(IllegalAction, match="choose one"):
        g.apply("take w b g")
    g.apply(f"noble {b}")
    assert g.seat_nobles[0] == [b] and g.current_player == 1


def test_noble_that_is_not_eligible_cannot_be_chosen() -> None:
    g = new()
    a, b, c = (
        noble_requiring(red=4, black=4),
        noble_requiring(green=3, red=3, black=3),
        noble_requiring(white=4, blue=4),
    )
    set_nobles(g, [a, b, c])
    give_bonuses(g, 0, red=4, black=4, green=3)
    g.apply("take w b g")
    with pytest.raises(IllegalAction, match="requires card bonuses"):
        g.apply(f"noble {c}")


# ----------------------------------------------------------------------------- the end


def test_fifteen_points_completes_the_round_so_all_have_equal_turns() -> None:
    g = new(3)
    g.apply("take w b g")
    give_card(g, 1, 71)  # 4 points
    g.points[1] = 15
    g.apply("take w b g")
    assert g.final_round and not g.is_over
    g.apply("take w b g")
    assert g.is_over and g.turns == 3
    assert g.winners == [1]


def test_fifteen_points_by_the_last_seat_ends_at_once() -> None:
    g = new(2)
    g.apply("take w b g")
    g.points[1] = 15
    g.apply("take w b g")
    assert g.is_over and g.winners == [1]


def test_most_points_wins() -> None:
    g = new(2)
    g.points[0] = 15
    g.apply("take w b g")
    g.points[1] = 16
    g.apply("take w b g")
    assert g.winners == [1] and g.result["status"] == "won"


def test_tie_goes_to_the_player_with_fewer_development_cards() -> None:
    g = new(2)
    give_card(g, 0, 0)
    give_card(g, 0, 1)
    give_card(g, 1, 2)
    g.points[0] = g.points[1] = 15
    g.apply("take w b g")
    g.apply("take w b g")
    assert g.winners == [1]
    assert "fewer development cards" in g.result["tie_break"]


def test_a_tie_of_three_shared_by_two_with_fewer_cards_says_it_is_shared() -> None:
    g = new(3)
    for seat, card in ((0, 0), (1, 1), (2, 2), (2, 3)):
        give_card(g, seat, card)
    g.points[:] = [15, 15, 15]
    for _ in range(3):
        g.apply("take w b g")
    assert g.winners == [0, 1] and "the victory is shared" in g.result["tie_break"]


def test_tie_on_points_and_cards_shares_the_victory() -> None:
    g = new(2)
    give_card(g, 0, 0)
    give_card(g, 1, 1)
    g.points[0] = g.points[1] = 15
    g.apply("take w b g")
    g.apply("take w b g")
    assert g.winners == [0, 1] and g.result["status"] == "shared"


def test_no_action_after_the_game_is_over() -> None:
    g = new(2)
    g.points[1] = 15
    g.apply("take w b g")
    g.apply("take w b g")
    assert g.legal_actions() == [] and g.current_player is None
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply("take w b g")


def test_tokens_stay_conserved_through_a_buy() -> None:
    g = new()
    before = total_tokens(g)
    place(g, 0, 0)
    give_tokens(g, 0, red=2, gold=1)
    g.apply("buy 1.1")
    assert total_tokens(g) == before


def test_noble_data_are_three_points_each() -> None:
    assert all(n.points == 3 for n in NOBLES) and len(NOBLES) == 10
