"""Splendor Kids' rules, one test each, named after the rule (``shared/rules/kids-rulebook.txt``), with both
rulebook examples built as positions on a hand-written board."""

from __future__ import annotations

import re

import pytest

import splendor
from splendor import IllegalAction
from splendor.bots.base import decide, make_bot
from splendor.games.kids.game import KidsGame
from tests.kids.positions import B, G, H, K, R, T, Y, give_tiles, give_tokens, new, tiles_total, tokens_total

MARC, CATHERINE, OLIVIER = 0, 1, 2

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "per_colour"), [(2, 3), (3, 5), (4, 7)])
def test_setup_resource_tokens_by_travelers_and_always_seven_gold_coins(players: int, per_colour: int) -> None:
    g = new(players)
    assert g.supply == [per_colour] * 5 + [7]


def test_setup_every_pawn_on_the_port_and_twenty_city_tiles_in_a_stack() -> None:
    g = new(4)
    assert set(g.space) == {"A1.port"}
    assert sorted(g.stack) == sorted([c for c in range(5) for _ in range(4)])
    assert g.view(None)["city_stack"] == 20 and g.view(None)["medals_left"] == [1, 2, 3, 4]


def test_setup_a_random_side_of_each_section_and_the_short_game_leaves_a2_out() -> None:
    sides = {tuple(splendor.new_game("kids", seed=s).view(None)["board"]["sides"]) for s in range(30)}
    assert all(len(x) == 3 and [p[:2] for p in x] == ["A1", "A2", "A3"] for x in sides)
    assert len(sides) > 4
    short = splendor.new_game("kids", seed=3, short=True).view(None)["board"]["sides"]
    assert [p[:2] for p in short] == ["A1", "A3"]


# ----------------------------------------------------------------------------- taking


def test_take_three_resources_of_different_colours() -> None:
    g = new()
    g.apply("take k r g")
    assert g.purse[MARC][:3] == [1, 1, 1] and g.current_player == CATHERINE


def test_take_two_of_one_colour_needs_two_in_the_supply() -> None:
    g = new(2)
    give_tokens(g, 1, blue=2)
    with pytest.raises(IllegalAction, match=r"take two of one colour needs 2 in the supply; water \(blue\) has 1"):
        g.apply("take b b")
    g.apply("take h h")
    assert g.purse[0][H] == 2


def test_take_one_gold_coin_alone() -> None:
    g = new()
    g.apply("take y")
    assert g.purse[MARC][Y] == 1
    with pytest.raises(IllegalAction, match="a gold coin is taken alone"):
        g.apply("take y k")
    with pytest.raises(IllegalAction, match="a gold coin is taken one at a time"):  # it had said "never with resources"
        g.apply("take y y")


def test_take_three_never_gold_and_never_three_of_one() -> None:
    g = new()
    with pytest.raises(IllegalAction):
        g.apply("take k k k")


def test_purse_holds_at_most_eight_and_the_traveler_chooses_what_to_return() -> None:
    """Rulebook example, first turn: Marc takes water, cabbage and mushroom, has 9, returns a hazelnut."""
    g = new()
    give_tokens(g, MARC, black=1, red=1, brown=2, blue=1, green=1)
    g.apply("take k g b")
    assert sum(g.purse[MARC]) == 9 and g.current_player == MARC
    assert g.view(MARC)["decision"] == "return"
    with pytest.raises(IllegalAction, match="must return down to 8"):
        g.apply("take k g b")
    g.apply("return h")
    assert sum(g.purse[MARC]) == 8 and g.purse[MARC][H] == 1 and g.current_player == CATHERINE


# ----------------------------------------------------------------------------- moving


def test_example_round_of_the_rulebook() -> None:
    g = new()
    give_tokens(g, MARC, black=1, red=1, brown=2, blue=1, green=1)
    give_tiles(g, MARC, active=("brown",))
    give_tiles(g, CATHERINE, active=("blue",), used=("red",))
    g.apply("take k g b")  # Marc: 9 tokens
    g.apply("return h")  # ... returns a hazelnut: 8
    give_tokens(g, CATHERINE, blue=2)
    g.apply("take g g")  # Catherine takes 2 cabbage
    g.apply("take y")  # Olivier takes a gold coin
    assert g.purse[OLIVIER][Y] == 1
    # Marc pays 2 mushrooms, 1 apple and his hazelnut City tile to reach the village ...
    g.apply("move 1 pay k k r tile:h")
    assert g.space[MARC] == "A1.village"
    assert g.used[MARC][H] == 1 and g.active[MARC][H] == 0
    assert g.purse[MARC][K] == 0 and g.purse[MARC][R] == 0
    assert g.current_player == MARC  # ... and takes an extra turn: 2 hazelnuts
    g.apply("take h h")
    assert g.current_player == CATHERINE and g.turns == 4
    # Catherine pays 2 cabbage, 2 water and her water tile to reach the city, draws a tile, reactivates the rest
    top = g.stack[-1]
    g.apply("move 2 pay g g b b tile:b")
    assert g.space[CATHERINE] == "A1.city"
    assert sum(g.active[CATHERINE]) == 3 and sum(g.used[CATHERINE]) == 0
    assert g.active[CATHERINE][top] >= 1
    assert tokens_total(g) == [5, 5, 5, 5, 5, 7] and tiles_total(g) == [4] * 5


def test_each_distinct_payment_is_its_own_legal_action() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=1, brown=1, gold=1)
    give_tiles(g, MARC, active=("brown",))
    pays = sorted(a.text for a in g.legal_actions() if a.text.startswith("move 1 "))
    assert "move 1 pay k k r h" in pays and "move 1 pay k k r tile:h" in pays and "move 1 pay k k h y" in pays
    assert len(pays) == len(set(pays))


def test_never_pay_more_than_the_banner() -> None:
    g = new()
    give_tokens(g, MARC, black=3, red=1, brown=1)
    with pytest.raises(IllegalAction, match="never more"):
        g.apply("move 1 pay k k k r h")


def test_a_road_must_leave_the_travelers_space() -> None:
    g = new()
    give_tokens(g, MARC, red=1)
    with pytest.raises(IllegalAction, match="road 3 leaves Little Village, not port, where you are"):
        g.apply("move 3 pay r")
    with pytest.raises(IllegalAction, match="there is no road 40"):
        g.apply("move 40")


def test_a_road_out_of_reach_names_what_the_traveler_lacks() -> None:
    """Road 1's banner is black, black, red, brown: the refusal counts what is missing after the City tiles, and
    says how far the gold coins go."""
    g = new()
    give_tokens(g, MARC, black=1, red=1)
    give_tiles(g, MARC, active=("brown",))
    with pytest.raises(IllegalAction, match=r"road 1 costs .*: you lack 1 mushroom \(black\) token$"):
        g.apply("move 1")
    give_tokens(g, MARC, green=2)  # resources the banner does not ask stand in for nothing
    with pytest.raises(IllegalAction, match=r"you lack 1 mushroom \(black\) token$"):
        g.apply("move 1")
    g2 = new()
    give_tokens(g2, MARC, red=1, gold=1)
    said = "you lack 2 mushroom (black) tokens and 1 hazelnut (brown) token, and your one gold coin stands in for only "
    said += "one of them"
    with pytest.raises(IllegalAction, match=re.escape(said)):
        g2.apply("move 1")


def test_a_road_asked_for_while_another_decision_comes_first_says_that_decision() -> None:
    """A road the traveler could pay, asked for while a City tile is to be chosen, had been refused as "you cannot pay
    it yet"."""
    g = splendor.new_game("kids", players=2, seed=0, mysteries=True)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while g.phase != "city":
        g.apply(decide(bots[g.current_player], g))
    road = g._roads_from[g.space[g.seat]][0].number
    with pytest.raises(IllegalAction, match="you reached a city: take the top City tile"):
        g.parse(f"move {road}")


def test_move_with_one_possible_payment_needs_no_payment_named() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=1, brown=1)
    g.apply("move 1")
    assert g.space[MARC] == "A1.village"


def test_move_with_several_possible_payments_lists_every_one_to_choose_from() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=1, brown=1, gold=1)
    ways = sorted(a.text for a in g.legal_actions() if a.text.startswith("move 1 "))
    assert len(ways) > 1
    with pytest.raises(IllegalAction) as refused:
        g.apply("move 1")
    said = str(refused.value)
    assert f"road 1 can be paid in {len(ways)} ways; say which: " in said and all(f"'{w}'" in said for w in ways)


def test_gold_coins_pay_for_any_resource_and_go_back_to_the_supply() -> None:
    g = new()
    give_tokens(g, MARC, gold=4)
    g.apply("move 1 pay y y y y")
    assert g.supply[Y] == 7 and g.space[MARC] == "A1.village"


def test_a_spent_city_tile_is_flipped_and_kept() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=1)
    give_tiles(g, MARC, active=("brown",))
    g.apply("move 1 pay k k r tile:h")
    assert g.used[MARC] == [0, 0, 0, 1, 0] and sum(g.active[MARC]) == 0
    assert g.view(MARC)["seats"][MARC]["city_tiles"] == [{"colour": "brown", "active": False}]


def test_a_used_city_tile_cannot_pay() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=1)
    give_tiles(g, MARC, used=("brown",))
    with pytest.raises(IllegalAction, match="active"):
        g.apply("move 1 pay k k r tile:h")


def test_city_gives_the_top_tile_then_reactivates_the_used_tiles() -> None:
    g = new()
    give_tokens(g, MARC, green=2, blue=2)
    give_tiles(g, MARC, active=("blue",), used=("red", "black"))
    top = g.stack[-1]
    g.apply("move 2 pay g g b b tile:b")
    assert sum(g.used[MARC]) == 0 and sum(g.active[MARC]) == 4 and g.active[MARC][top] >= 1
    assert g.current_player == CATHERINE


def test_city_with_an_empty_stack_gives_no_tile_but_still_reactivates() -> None:
    g = new()
    give_tokens(g, MARC, green=2, blue=2)
    give_tiles(g, MARC, active=("blue",), used=("red",))
    g.boxed_tiles, g.stack = g.stack, []  # the stack ran out (tiles kept elsewhere for the count)
    g.apply("move 2 pay g g b b tile:b")
    assert g.active[MARC] == [0, 1, 0, 0, 1] and g.used[MARC] == [0] * 5


def test_village_gives_an_extra_turn_which_may_chain_to_another_village() -> None:
    g = new()
    give_tokens(g, MARC, black=2, red=2, brown=1)
    g.apply("move 1 pay k k r h")
    assert g.current_player == MARC
    g.apply("move 3 pay r")  # to the Hamlet, another village: another extra turn
    assert g.current_player == MARC and g.space[MARC] == "A1.hamlet"
    g.apply("take k r g")
    assert g.current_player == CATHERINE and g.turns == 1


def test_pawns_may_share_spaces() -> None:
    g = new()
    for seat in (MARC, CATHERINE):
        give_tokens(g, seat, black=2, red=1, brown=1)
        g.apply("move 1 pay k k r h")
        g.apply("take y")
    assert g.space[MARC] == g.space[CATHERINE] == "A1.village"


# ----------------------------------------------------------------------------- the Palace and the end


def _near_palace(g: KidsGame, seat: int, space: str = "A3.court") -> None:
    g.space[seat] = space
    give_tokens(g, seat, blue=1)


def test_example_end_of_the_rulebook() -> None:
    """Marc reaches a city; Catherine reaches the Palace and the gates close; Olivier follows; Marc plays no
    more; Catherine and Olivier share the victory."""
    g = new()
    give_tokens(g, MARC, green=2, blue=3)
    _near_palace(g, CATHERINE)
    _near_palace(g, OLIVIER)
    g.apply("move 2 pay g g b b b")  # Marc to the city
    g.apply("move 8 pay b")  # Catherine to the Palace
    assert g.view(None)["decision"] == "medal"
    g.apply("medal 2")
    assert g.gates_closed and not g.is_over
    g.apply("move 8 pay b")  # Olivier follows in the last round
    g.apply("medal 4")
    assert g.is_over and g.winners == [CATHERINE, OLIVIER] and g.result["status"] == "shared"
    assert g.result["medals"] == [None, 2, 4]


def test_palace_medal_of_the_travelers_choice() -> None:
    g = new()
    _near_palace(g, MARC)
    g.apply("move 8 pay b")
    assert sorted(a.text for a in g.legal_actions()) == ["medal 1", "medal 2", "medal 3", "medal 4"]
    g.apply("medal 3")
    assert g.medal[MARC] == 2 and g.medals_left == [0, 1, 3]
    with pytest.raises(IllegalAction, match="only on reaching the Palace"):
        g.apply("medal 1")


def test_the_first_arrival_closes_the_gates_and_the_round_is_completed() -> None:
    g = new(3, first_player=1)
    _near_palace(g, OLIVIER)
    g.apply("take k r g")  # Catherine (first)
    g.apply("move 8 pay b")  # Olivier arrives
    g.apply("medal 1")
    assert not g.is_over
    g.apply("take k r g")  # Marc, the seat before the first: the last turn
    assert g.is_over and g.winners == [OLIVIER]


def test_a_traveler_in_the_palace_passes() -> None:
    """Ruling 23. (By the rules an arrival never gets another turn, since the round ends first: a position.)"""
    g = new(3)
    g.space[MARC] = "A3.palace"
    give_tokens(g, MARC, red=1)
    assert [a.text for a in g.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction, match="you are in the Palace: travelers there pass"):
        g.apply("take k r g")
    g.apply("pass")
    assert g.current_player == CATHERINE and g.space[MARC] == "A3.palace"


def test_after_the_first_arrival_the_others_play_out_the_round() -> None:
    g = new(3, first_player=1)
    _near_palace(g, CATHERINE)
    g.apply("move 8 pay b")  # Catherine (first) arrives
    g.apply("medal 1")
    assert g.gates_closed and g.current_player == OLIVIER
    g.apply("take k r g")  # Olivier
    assert not g.is_over and g.current_player == MARC
    g.apply("take k r g")  # Marc, the seat before the first: the end
    assert g.is_over and g.winners == [CATHERINE]


def test_every_traveler_in_the_palace_wins() -> None:
    g = new(3)
    for seat in (MARC, CATHERINE, OLIVIER):
        _near_palace(g, seat)
    for _ in range(3):
        g.apply("move 8 pay b")
        if not g.is_over and g.view(None)["decision"] == "medal":
            g.apply(g.legal_actions()[0])
    assert g.winners == [MARC, CATHERINE, OLIVIER]


def test_the_supply_never_runs_dry_for_a_traveler_outside_the_palace() -> None:
    """Why a Kids game cannot stall: purses hold at most 8 each, and the supply starts with more than that."""
    for players in (2, 3, 4):
        g = new(players)
        assert sum(g.supply) > 8 * players


_ = (B, G, K, R, T)
