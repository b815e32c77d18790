"""The project's rulings as they apply to Splendor Kids (1-8 where Kids differs, and 18-24), the Mysteries
variant's tiles one by one, and hidden information."""

from __future__ import annotations

import json

import pytest

import splendor
from splendor import IllegalAction
from splendor.games.kids.board import assemble
from splendor.games.kids.game import KidsGame
from tests.kids.positions import B, H, K, R, T, Y, give_tiles, give_tokens, new, tiles_total, tokens_total

FULL = ["A1-front", "A2-front", "A3-front"]
TO_FORD = "move 10 pay h b"  # A1-front road 10: Hilltop → A2 Fordham (a village), banner hazelnut, water


def mysteries(players: int = 3, seed: int = 1) -> KidsGame:
    g = splendor.new_game("kids", players=players, seed=seed, mysteries=True, board=FULL)
    assert isinstance(g, KidsGame)
    return g


def set_tile(g: KidsGame, village: str, effect: str) -> None:
    """Put ``effect`` face down on ``village``, swapping tiles so that all 8 stay accounted for."""
    if g.village_tiles[village] == effect:
        return
    for other, tile in g.village_tiles.items():
        if tile == effect:
            g.village_tiles[other], g.village_tiles[village] = g.village_tiles[village], effect
            return
    i = g.aside.index(effect)
    g.aside[i], g.village_tiles[village] = g.village_tiles[village], effect


def at_hilltop(g: KidsGame, seat: int) -> None:
    g.space[seat] = "A1.hill"
    give_tokens(g, seat, brown=1, blue=1)


# ----------------------------------------------------------------------------- rulings for all games


def test_ruling_3_kids_pass_only_in_the_palace_or_with_nothing_else() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="pass is allowed only"):
        g.apply("pass")


def test_ruling_4_kids_turn_cap_truncates() -> None:
    g = new(2, max_turns=2)
    g.apply("take k r g")
    g.apply("take k r g")
    assert g.is_over and g.truncated and g.winners == []


def test_ruling_7_kids_take_fewer_only_when_fewer_than_three_colours() -> None:
    g = new(2)
    with pytest.raises(IllegalAction, match="fewer only when"):
        g.apply("take k r")
    give_tokens(g, 1, black=3, red=3, green=3)
    assert {a.text for a in g.legal_actions() if a.kind.startswith("take")} == {
        "take h b",
        "take h",
        "take b",
        "take h h",
        "take b b",
        "take y",
    }


def test_ruling_8_kids_the_traveler_chooses_how_to_pay() -> None:
    g = new()
    give_tokens(g, 0, black=2, red=1, gold=1)
    options = {a.text for a in g.legal_actions() if a.kind == "move"}
    assert options == {
        "move 1 pay k k r y",
    }
    give_tiles(g, 0, active=("brown",))
    options = {a.text for a in g.legal_actions() if a.kind == "move" and a.args[0] == 1}
    assert options == {
        "move 1 pay k k r y",
        "move 1 pay k k r tile:h",
        "move 1 pay k k y tile:h",
        "move 1 pay k r y tile:h",
    }


# ----------------------------------------------------------------------------- 18-23


def test_ruling_18_resources_and_gold_coins() -> None:
    v = new(2).view(None)
    assert v["supply"] == {"black": 3, "red": 3, "green": 3, "brown": 3, "blue": 3, "gold": 7}


def test_ruling_19_the_purse_limit_holds_at_any_moment() -> None:
    g = new(2)
    give_tokens(g, 0, black=3, red=3, green=2)
    g.apply("take y")
    assert g.view(0)["decision"] == "return"
    g.apply("return y")
    assert sum(g.purse[0]) == 8 and g.current_player == 1


def test_ruling_20_every_shipped_side_joins_every_other_and_the_palace_is_reached() -> None:
    for a1 in ("A1-front", "A1-back"):
        for a3 in ("A3-front", "A3-back"):
            assert assemble([a1, a3]).palace == "A3.palace"
            for a2 in ("A2-front", "A2-back"):
                board = assemble([a1, a2, a3])
                assert all(1 <= len(r.cost) <= 5 for r in board.roads)
                out = {r.start for r in board.roads}
                assert out == set(board.spaces) - {board.palace}


def test_ruling_20_the_board_is_said_to_be_the_projects_design() -> None:
    v = splendor.new_game("kids", seed=1).view(None)
    assert "our own design" in v["board"]["credit"] and "not the printed board" in v["board"]["credit"]
    assert "transcribed" in new().view(None)["board"]["credit"]


def test_ruling_21_pawns_share_spaces_and_spent_tokens_go_back_to_the_supply() -> None:
    g = new()
    before = tokens_total(g)
    give_tokens(g, 0, black=2, red=1, brown=1)
    g.apply("move 1 pay k k r h")
    assert g.supply == [5, 5, 5, 5, 5, 7] and tokens_total(g) == before


def test_ruling_22_an_empty_stack_gives_no_tile_and_still_reactivates() -> None:
    g = new()
    give_tokens(g, 0, green=2, blue=3)
    give_tiles(g, 0, used=("black",))
    g.boxed_tiles, g.stack = g.stack, []
    g.apply("move 2 pay g g b b b")
    assert g.active[0] == [1, 0, 0, 0, 0]


def test_ruling_23_the_queens_gem_holder_in_the_palace_wins_alone() -> None:
    g = new()
    for seat in (0, 1):
        g.space[seat] = "A3.court"
        give_tokens(g, seat, blue=1)
    g.gem = 1
    g.apply("move 8 pay b")
    g.apply("medal 1")
    g.apply("move 8 pay b")
    g.apply("medal 2")
    g.apply("take k r g")
    assert g.is_over and g.winners == [1] and "Queen's Gem" in g.result["tie_break"]


def test_ruling_23_the_gem_holder_outside_the_palace_does_not_stop_the_others() -> None:
    g = new()
    g.space[0] = "A3.court"
    give_tokens(g, 0, blue=1)
    g.gem = 2
    g.apply("move 8 pay b")
    g.apply("medal 1")
    g.apply("take k r g")
    g.apply("take k r g")
    assert g.winners == [0]


# ----------------------------------------------------------------------------- 24: Mysteries


def test_ruling_24_mysteries_uses_all_sections_tiles_on_a2_villages_and_a_marketplace() -> None:
    g = mysteries()
    villages = g.board.villages("A2")
    assert set(g.village_tiles) == set(villages)
    assert sorted(list(g.village_tiles.values()) + g.aside) == sorted(
        ["tornado", "treasure", "treasure", "drought", "drought", "thief", "thief", "queens_gem"]
    )
    assert len(g.market) == 3 and len(g.stack) == 17
    with pytest.raises(ValueError, match="cannot be short"):
        splendor.new_game("kids", mysteries=True, short=True)


def test_ruling_24_a_city_tile_from_the_stack_or_the_marketplace_which_is_refilled() -> None:
    g = mysteries()
    g.space[0] = "A1.well"
    give_tokens(g, 0, green=1, brown=1)
    g.apply("move 7 pay g h")  # Wellside → Fairmarket, a city
    assert g.view(0)["decision"] == "city"
    assert {a.text for a in g.legal_actions()} == {"city stack", "city market 1", "city market 2", "city market 3"}
    chosen, refill = g.market[1], g.stack[-1]
    g.apply("city market 2")
    assert g.active[0][chosen] == 1 and g.market[1] == refill and tiles_total(g) == [4] * 5


def test_ruling_25_with_the_stack_empty_a_city_offers_the_marketplace_alone_and_says_so() -> None:
    g = mysteries()
    g.space[0] = "A1.well"
    give_tokens(g, 0, green=1, brown=1)
    g.stack = []
    g.apply("move 7 pay g h")  # Wellside → Fairmarket, a city
    assert {a.text for a in g.legal_actions()} == {"city market 1", "city market 2", "city market 3"}
    with pytest.raises(IllegalAction, match="take a City tile from the Marketplace first") as refused:
        g.apply("take k r g")
    assert "city stack" not in str(refused.value)


def test_mysteries_face_down_tiles_are_flipped_by_the_first_to_land_then_the_extra_turn() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "queens_gem")
    at_hilltop(g, 0)
    g.apply(TO_FORD)
    assert g.gem == 0 and "A2.ford" not in g.village_tiles and g.flipped["A2.ford"] == "queens_gem"
    assert g.view(1)["village_tiles"]["A2.ford"] == "Queen's Gem"
    assert g.current_player == 0  # the village's extra turn
    g.apply("take k r g")
    at_hilltop(g, 1)
    g.apply(TO_FORD)
    assert g.gem == 0 and g.current_player == 1  # nothing left to flip; still an extra turn


def test_mysteries_tornado_sweeps_the_marketplace_away() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "tornado")
    at_hilltop(g, 0)
    g.apply(TO_FORD)
    assert g.market_open is False and len(g.boxed_tiles) == 3 and g.view(None)["marketplace"] is None
    assert tiles_total(g) == [4] * 5


def test_mysteries_treasure_pays_like_a_gold_coin_and_counts_toward_eight() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "treasure")
    at_hilltop(g, 0)
    give_tokens(g, 0, black=4, red=4)
    g.apply(TO_FORD)  # 8 tokens left + the Treasure = 9
    assert g.purse[0][T] == 1 and g.view(0)["decision"] == "return"
    g.apply("return k")
    assert sum(g.purse[0]) == 8 and g.current_player == 0
    g.space[0] = "A2.mead"  # Meadowsweet → Watchtower: green, blue
    g.purse[0][K] += 0
    give_tokens(g, 0, green=1)
    g.apply("move 20 pay g t")
    assert g.purse[0][T] == 0 and g.space[0] == "A2.tower"


def test_mysteries_drought_every_traveler_over_five_discards_down_to_five_each_choosing() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "drought")
    at_hilltop(g, 0)
    give_tokens(g, 0, black=4, red=3)  # 7 after paying
    give_tokens(g, 1, green=4, gold=2)  # 6
    give_tokens(g, 2, brown=4)  # 4: untouched
    g.apply(TO_FORD)
    assert g.current_player == 0 and g.view(0)["decision"] == "drought"
    g.apply("discard k")
    g.apply("discard r")
    assert g.current_player == 1  # another seat decides, out of turn
    with pytest.raises(IllegalAction, match="you hold 6 tokens and must discard down to 5"):
        g.apply("take k r g")
    g.apply("discard g")
    assert [sum(p) for p in g.purse] == [5, 5, 4]
    assert g.current_player == 0  # then seat 0's extra turn
    assert tokens_total(g) == [5, 5, 5, 5, 5, 7]


def test_mysteries_kind_hearted_thief_gives_a_token_to_a_chosen_traveler_who_returns_any_excess() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "thief")
    at_hilltop(g, 0)
    give_tokens(g, 0, gold=1)
    give_tokens(g, 2, black=4, red=4)
    g.apply(TO_FORD)
    assert g.view(0)["decision"] == "thief"
    assert {a.text for a in g.legal_actions()} == {"give y to 1", "give y to 2"}
    with pytest.raises(IllegalAction, match="not to yourself"):
        g.apply("give y to 0")
    g.apply("give y to 2")
    assert g.current_player == 2 and g.view(2)["decision"] == "return"
    g.apply("return y")
    assert g.current_player == 0 and sum(g.purse[2]) == 8


def test_mysteries_thief_with_nothing_to_give_does_nothing() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "thief")
    at_hilltop(g, 0)
    g.apply(TO_FORD)
    assert g.current_player == 0 and g.view(0)["decision"] == "action"


def test_ruling_25_the_treasure_counts_toward_a_droughts_five_and_a_discarded_treasure_leaves_the_game() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "drought")
    at_hilltop(g, 0)
    give_tokens(g, 0, black=4, red=2)  # 6 after paying, with the Treasure 7
    g.purse[0][T] = 1
    g.apply(TO_FORD)
    assert g.view(0)["decision"] == "drought" and "discard t" in {a.text for a in g.legal_actions()}
    g.apply("discard t")
    g.apply("discard k")
    assert sum(g.purse[0]) == 5 and g.purse[0][T] == 0 and g.boxed_treasures == 1
    assert tokens_total(g)[5] == 7  # it never became a gold coin in the supply


def test_ruling_25_a_treasure_returned_over_the_purse_limit_leaves_the_game() -> None:
    g = mysteries()
    give_tokens(g, 0, black=4, red=3)
    g.purse[0][T] = 1  # 8 in the purse
    g.apply("take g h b")  # 11: three to return
    assert "return t" in {a.text for a in g.legal_actions()}
    g.apply("return t")
    g.apply("return k")
    g.apply("return k")
    assert sum(g.purse[0]) == 8 and g.boxed_treasures == 1 and g.supply[Y] == 7


def test_ruling_25_the_thief_never_gives_the_treasure_and_a_traveler_holding_only_it_gives_nothing() -> None:
    g = mysteries()
    set_tile(g, "A2.ford", "thief")
    at_hilltop(g, 0)
    g.purse[0][T] = 1
    g.apply(TO_FORD)
    assert g.current_player == 0 and g.view(0)["decision"] == "action" and g.purse[0][T] == 1
    g2 = mysteries()
    set_tile(g2, "A2.ford", "thief")
    at_hilltop(g2, 0)
    g2.purse[0][T] = 1
    give_tokens(g2, 0, gold=1)
    g2.apply(TO_FORD)
    assert {a.text for a in g2.legal_actions()} == {"give y to 1", "give y to 2"}
    with pytest.raises(IllegalAction, match="never the Treasure"):  # the refusal names the rule
        g2.apply("give t to 1")


def test_ruling_25_the_treasure_is_never_taken_and_the_refusal_says_where_it_comes_from() -> None:
    g = mysteries()
    for typed in ("take t", "take k r t", "take treasure"):
        with pytest.raises(IllegalAction, match="the Treasure is never taken: a traveler finds it on a village"):
            g.apply(typed)


def test_a_road_number_no_board_has_is_refused_as_one_this_board_lacks() -> None:
    g = new()
    for road in (0, 73, 99):
        with pytest.raises(IllegalAction, match=f"there is no road {road} on this board"):
            g.apply(f"move {road}")


def test_mysteries_hidden_stack_and_tiles_never_leak() -> None:
    g = mysteries()
    for seat in (None, 0, 1, 2):
        view = g.view(seat)
        text = json.dumps(view)
        assert set(view["village_tiles"].values()) == {"face down"}
        for effect in ("tornado", "drought", "thief", "Tornado", "Drought", "Treasure", "Thief", "Queen's Gem"):
            assert effect not in text
        assert g.view(seat)["city_stack"] == 17
        assert "stack" not in [k for k in g.view(seat) if k != "city_stack"]


_ = (B, H, R, Y)


def test_a_road_from_elsewhere_names_both_places_in_the_readers_language() -> None:
    """A translation review's find: "9번 길의 출발지는 Standing Stones입니다": the places' names stayed English."""
    from splendor.i18n import Message, translate

    g = splendor.new_game("kids", players=2, seed=1)  # a shipped board: its places' names are in the catalogs
    assert isinstance(g, KidsGame)
    road = next(r for r in g.board.roads if r.start != g.space[0])
    with pytest.raises(IllegalAction) as refused:
        g.apply(f"move {road.number}")
    start, here = g.board.spaces[road.start].name, g.board.spaces[g.space[0]].name
    said = refused.value.explain("ko")
    assert translate(Message(start), "ko") != start and start not in said and here not in said, said
    assert translate(Message(start), "ko") in said and translate(Message(here), "ko") in said
