"""Splendor: Pokémon's rules, one test each, named after the rule (``shared/rules/pokemon-rulebook.txt``)."""

from __future__ import annotations

import pytest

from splendor import IllegalAction
from splendor.games.pokemon.cards import CARDS, evolution_lines
from splendor.games.pokemon.game import PokemonGame
from tests.market_positions import all_card_ids, give_card, give_reserved, give_tokens, place
from tests.pokemon.positions import B, K, M, P, R, Y, card_costing, ids, new

# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "per_colour"), [(2, 4), (3, 5), (4, 7)])
def test_setup_ball_tokens_by_player_count_and_always_five_master_balls(players: int, per_colour: int) -> None:
    g = new(players)
    assert g.supply == [per_colour] * 5 + [5]


def test_setup_ninety_cards_in_five_decks() -> None:
    assert [sum(1 for c in CARDS if c.row == r) for r in range(5)] == [35, 30, 15, 5, 5]
    g = new()
    assert sorted(all_card_ids(g)) == list(range(90))


def test_setup_four_face_up_cards_per_level_one_rare_and_one_legendary() -> None:
    g = new()
    assert [len(r) for r in g.rows] == [4, 4, 4, 1, 1]
    assert [len(d) for d in g.decks] == [31, 26, 11, 4, 4]
    assert CARDS[g.rows[3][0]].level == "rare" and CARDS[g.rows[4][0]].level == "legendary"
    v = g.view(None)
    assert set(v["market"]) == {"1", "2", "3", "rare", "legendary"}
    assert len(v["market"]["rare"]) == len(v["market"]["legendary"]) == 1


def test_view_names_the_balls() -> None:
    assert new().view(None)["ball_names"] == {
        "red": "Poké Ball",
        "blue": "Great Ball",
        "black": "Ultra Ball",
        "pink": "Heal Ball",
        "yellow": "Quick Ball",
        "master": "Master Ball",
    }


# ----------------------------------------------------------------------------- the four actions


def test_take_three_balls_of_different_types() -> None:
    g = new()
    g.apply("take r b k")
    assert g.tokens[0] == [1, 1, 1, 0, 0, 0]


def test_take_reads_ball_names() -> None:
    g = new()
    g.apply("take poké great heal")
    assert str(g.history[-1]) == "take r b p"


def test_take_never_a_master_ball() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="a Master Ball cannot be taken"):
        g.apply("take r b m")
    with pytest.raises(IllegalAction, match="a Master Ball cannot be taken"):
        g.apply("take m m")


def test_take_two_of_a_colour_needs_four_before_taking() -> None:
    g = new()
    give_tokens(g, 1, pink=1)
    with pytest.raises(IllegalAction, match=r"needs at least 4 in the supply before taking; Heal Ball \(pink\) has 3"):
        g.apply("take p p")
    g.apply("take y y")
    assert g.tokens[0][Y] == 2


def test_take_fewer_than_three_only_when_fewer_types_remain() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="fewer only when fewer than 3 colours"):
        g.apply("take r b")
    give_tokens(g, 1, red=4, blue=4, black=4)
    g.apply("take p y")
    assert g.tokens[0] == [0, 0, 0, 1, 1, 0]


def test_reserve_a_face_up_card_takes_a_master_ball() -> None:
    g = new()
    card = g.rows[0][0]
    g.apply("reserve 1.1")
    assert g.reserved[0] == [card] and g.tokens[0][M] == 1 and g.supply[M] == 4


def test_reserve_the_top_of_a_level_deck_unseen_by_others() -> None:
    g = new()
    top = g.decks[1][-1]
    g.apply("reserve deck 2")
    assert g.reserved[0] == [top]
    assert g.view(1)["seats"][0]["reserved"] == [{"hidden": True, "tier": 2}]
    assert g.view(0)["seats"][0]["reserved"][0]["name"] == CARDS[top].name


def test_reserve_without_master_balls_left_still_allowed() -> None:
    g = new()
    give_tokens(g, 1, master=5)
    g.apply("reserve 3.2")
    assert len(g.reserved[0]) == 1 and g.tokens[0][M] == 0


def test_reserve_rare_or_legendary_is_refused() -> None:
    g = new()
    for text in ("reserve rare", "reserve legendary", "reserve deck rare"):
        with pytest.raises(IllegalAction, match="cannot be reserved|which deck"):
            g.apply(text)
    assert not any(a.kind.startswith("reserve") and a.args[0] >= 3 for a in g.actions)
    with pytest.raises(IllegalAction, match=r"\(levels 1, 2, 3, slots 1-4\)"):  # a newcomer's find: it offered them
        g.apply("reserve 4.1")


def test_reserve_at_most_three() -> None:
    g = new()
    for cid in g.decks[0][-3:]:
        give_reserved(g, 0, cid)
    with pytest.raises(IllegalAction, match="already hold 3 reserved cards"):
        g.apply("reserve 1.1")


def test_catch_a_face_up_pokemon_paying_its_balls() -> None:
    g = new()
    cid = card_costing("Weepinbell", pink=3, yellow=2, black=2)
    place(g, cid, 1)
    give_tokens(g, 0, pink=3, yellow=2, black=2)
    g.apply("catch 2.2")
    assert g.bought[0] == [cid] and sum(g.tokens[0]) == 0 and g.points[0] == 1
    assert g.bonuses[0][R] == 1


def test_catch_refused_names_the_cost_in_balls_counted_as_nouns() -> None:
    """A refusal says "3 Heal Balls", as the table does, never "3 Heal Ball (pink)"."""
    g = new()
    place(g, card_costing("Weepinbell", pink=3, yellow=2, black=2), 1)
    give_tokens(g, 0, pink=1)
    with pytest.raises(
        IllegalAction,
        match="you cannot catch that Pokémon yet: it costs 2 Ultra Balls, 3 Heal Balls and 2 Quick Balls; .* 6 balls",
    ):
        g.apply("catch 2.2")


def test_catch_a_reserved_pokemon() -> None:
    g = new()
    cid = card_costing("Weepinbell", pink=3, yellow=2, black=2)
    give_reserved(g, 0, cid)
    give_tokens(g, 0, pink=3, yellow=2, black=2)
    g.apply("catch reserved 1")
    assert g.reserved[0] == [] and g.bought[0] == [cid]


def test_catch_master_balls_replace_any_colour_several_at_once() -> None:
    g = new()
    cid = card_costing("Weepinbell", pink=3, yellow=2, black=2)
    place(g, cid, 0)
    give_tokens(g, 0, pink=3, yellow=1, black=1, master=2)
    g.apply("catch 2.1")
    assert sum(g.tokens[0]) == 0 and g.supply[M] == 5


def test_example_emma_catches_weepinbell_paying_one_quick_ball_and_two_ultra_balls() -> None:
    """Rulebook: Emma has 1 Quick Ball bonus (Bulbasaur) and 3 Heal Ball bonuses (Poliwag, Snorlax)."""
    g = new()
    emma = 0
    for cid in (ids("Bulbasaur")[0], ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, emma, cid)
    assert g.bonuses[emma][Y] == 1 and g.bonuses[emma][P] == 3
    weepinbell = card_costing("Weepinbell", pink=3, yellow=2, black=2)
    place(g, weepinbell, 0)
    give_tokens(g, emma, yellow=1, black=2, red=1)
    g.apply("catch 2.1")
    assert weepinbell in g.bought[emma]
    assert g.tokens[emma] == [1, 0, 0, 0, 0, 0]  # paid exactly 1 Quick Ball and 2 Ultra Balls


def test_rare_and_legendary_need_a_master_ball_that_no_bonus_replaces() -> None:
    g = new()
    snorlax = ids("Snorlax")[0]  # 3 red, 2 black, 1 master
    place(g, snorlax, 0)
    for cid in ids("Charmander") + ids("Squirtle")[:2]:
        give_card(g, 0, cid)
    give_tokens(g, 0, red=3, black=2)
    with pytest.raises(IllegalAction, match="this Pokémon.s cost includes 1 Master Ball, which no bonus replaces"):
        g.apply("catch rare")
    give_tokens(g, 0, master=1)
    g.apply("catch rare")
    assert snorlax in g.bought[0] and g.bonuses[0][P] == 2


def test_rare_and_legendary_give_two_bonuses() -> None:
    g = new()
    give_card(g, 0, ids("Mewtwo")[0])
    assert g.bonuses[0][K] == 2


def test_captured_or_reserved_display_card_is_replaced_from_its_own_deck() -> None:
    g = new()
    place(g, ids("Lapras")[0], 0)  # 2 blue, 3 black, 1 master
    rare_next = g.decks[3][-1]
    give_tokens(g, 0, blue=2, black=3, master=1)
    g.apply("catch rare")
    assert g.rows[3] == [rare_next] and len(g.decks[3]) == 3
    g.apply("take r b k")
    level1_next = g.decks[0][-1]
    g.apply("reserve 1.3")
    assert g.rows[0][2] == level1_next


def test_an_empty_deck_leaves_its_slot_empty() -> None:
    g = new()
    place(g, ids("Mewtwo")[0], 0)  # 3 red, 3 blue, 3 pink, 1 master
    g.decks[0] = g.decks[4] + g.decks[0]  # the legendary deck runs out (cards kept in play)
    g.decks[4] = []
    give_tokens(g, 0, red=3, blue=3, pink=3, master=1)
    g.apply("catch legendary")
    assert g.rows[4] == [-1] and g.view(None)["market"]["legendary"] == [None]
    assert g.view(None)["decks"]["legendary"] == 0


def test_ten_balls_at_the_end_of_the_turn_master_balls_included() -> None:
    g = new()
    give_tokens(g, 0, red=3, blue=3, black=3, pink=1)
    g.apply("reserve 1.1")
    assert g.view(0)["decision"] == "return"
    g.apply("return m")
    assert g.current_player == 1


# ----------------------------------------------------------------------------- evolution


def _emma_ready_to_evolve() -> tuple[PokemonGame, int, int]:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    ivysaur = ids("Ivysaur")[0]
    place(g, ivysaur, 2)
    return g, bulbasaur, ivysaur


def test_example_emma_evolves_bulbasaur_into_the_face_up_ivysaur() -> None:
    """Rulebook: 3 Heal Ball bonuses from Snorlax and Poliwag; Bulbasaur goes under the trainer tile."""
    g, bulbasaur, ivysaur = _emma_ready_to_evolve()
    points = g.points[0]
    next_level2 = g.decks[1][-1]
    g.apply("take r b k")
    assert g.view(0)["decision"] == "evolve"
    assert f"evolve {bulbasaur} 2.3" in [str(a) for a in g.legal_actions()]
    g.apply(f"evolve {bulbasaur} 2.3")
    assert ivysaur in g.bought[0] and bulbasaur not in g.bought[0]
    assert g.under_tile[0] == [bulbasaur]
    assert g.points[0] == points - 1 + 3
    assert g.bonuses[0][Y] == 1  # Bulbasaur's yellow gone, Ivysaur's yellow come
    assert g.rows[1][2] == next_level2  # the display is refilled
    assert g.current_player == 1


def test_evolving_is_not_an_action_and_costs_no_balls() -> None:
    g, bulbasaur, _ = _emma_ready_to_evolve()
    g.apply("take r b k")
    g.apply(f"evolve {bulbasaur} 2.3")
    assert g.tokens[0] == [1, 1, 1, 0, 0, 0]


def test_evolving_is_optional() -> None:
    g, bulbasaur, ivysaur = _emma_ready_to_evolve()
    g.apply("take r b k")
    g.apply("evolve none")
    assert bulbasaur in g.bought[0] and ivysaur in g.rows[1] and g.current_player == 1


def test_evolution_is_offered_only_at_the_end_of_the_turn() -> None:
    g, bulbasaur, _ = _emma_ready_to_evolve()
    with pytest.raises(IllegalAction, match="only at the end of your turn"):
        g.apply(f"evolve {bulbasaur} 2.3")


def test_evolution_condition_counts_play_area_bonuses_only_not_tokens() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    give_card(g, 0, bulbasaur)
    give_card(g, 0, ids("Poliwag")[0])
    place(g, ids("Ivysaur")[0], 0)
    give_tokens(g, 0, pink=4)
    g.apply("take r b k")
    assert g.current_player == 1  # 1 Heal Ball bonus of 3: no evolution offered
    with pytest.raises(IllegalAction):
        g.apply(f"evolve {bulbasaur} 2.1")


def test_cards_under_the_trainer_tile_give_no_points_and_no_bonus() -> None:
    g, bulbasaur, _ = _emma_ready_to_evolve()
    g.apply("take r b k")
    g.apply(f"evolve {bulbasaur} 2.3")
    assert g.points[0] == sum(CARDS[c].points for c in g.bought[0])
    assert g.bonuses[0][Y] == sum(CARDS[c].bonus_count for c in g.bought[0] if CARDS[c].bonus == Y)


def test_evolve_into_a_card_from_your_own_reserve() -> None:
    g, bulbasaur, ivysaur = _emma_ready_to_evolve()
    other_ivysaur = ids("Ivysaur")[1]
    give_reserved(g, 0, other_ivysaur, secret=True)
    g.apply("take r b k")
    legal = {str(a) for a in g.legal_actions()}
    assert {f"evolve {bulbasaur} 2.3", f"evolve {bulbasaur} reserved 1", "evolve none"} <= legal
    g.apply(f"evolve {bulbasaur} reserved 1")
    assert other_ivysaur in g.bought[0] and g.reserved[0] == [] and other_ivysaur not in g.secret
    assert ivysaur in g.rows[1]


def test_an_evolution_into_a_reserve_slot_past_three_is_explained_as_the_notation() -> None:
    g, bulbasaur, _ivysaur = _emma_ready_to_evolve()
    g.apply("take r b k")
    with pytest.raises(IllegalAction, match="'evolve ID reserved N'"):  # not "a level 2 card, not one at level..."
        g.apply(f"evolve {bulbasaur} reserved 4")


def test_an_evolution_of_a_pokedex_number_says_a_cards_id_is_not_it() -> None:
    """A newcomer typed Geodude's Pokédex number, 74 (card 74 is Alakazam), and was told only that Alakazam does not
    evolve: a card they did not own, and no word of the two numbers."""
    assert CARDS[74].name == "Alakazam" and CARDS[29].name == "Geodude" and CARDS[29].dex == 74
    g = new(seed=0)
    with pytest.raises(IllegalAction, match=r"a card's id is not its Pokédex number: yours are written \[#ID\]"):
        g.apply("evolve 74 2.1")


def test_an_evolution_asked_for_too_early_says_first_what_the_pokemon_still_needs() -> None:
    """A newcomer typed 'evolve 32 reserved 1' on their turn and was told only when evolving is possible, not
    that Gastly needs 3 Ultra Ball bonuses."""
    g = new()
    gastly = ids("Gastly")[0]
    give_card(g, 0, gastly)
    give_reserved(g, 0, ids("Haunter")[0])
    with pytest.raises(IllegalAction, match=r"Gastly evolves with 3 Ultra Ball \(black\) bonuses .*; you have 0"):
        g.apply(f"evolve {gastly} reserved 1")
    _emma, bulbasaur, _ivysaur = _emma_ready_to_evolve()
    with pytest.raises(IllegalAction, match="only at the end of your turn"):  # ready: then only the timing is wrong
        _emma.apply(f"evolve {bulbasaur} 2.3")


def test_evolve_never_from_another_players_reserve() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    for cid in ids("Ivysaur"):
        give_reserved(g, 1, cid)
    g.apply("take r b k")
    assert g.current_player == 1


def test_only_one_evolution_per_turn_and_the_player_chooses_which() -> None:
    g, bulbasaur, _ = _emma_ready_to_evolve()
    bellsprout = ids("Bellsprout")[0]  # needs 2 pink bonuses: met too
    give_card(g, 0, bellsprout)
    place(g, ids("Weepinbell")[1], 0)
    g.apply("take r b k")
    legal = {str(a) for a in g.legal_actions()}
    assert {f"evolve {bulbasaur} 2.3", f"evolve {bellsprout} 2.1"} <= legal
    g.apply(f"evolve {bellsprout} 2.1")
    assert g.current_player == 1 and bulbasaur in g.bought[0]


def test_two_gastly_and_two_haunter_are_four_distinct_evolutions_never_one_listed_twice() -> None:
    """Issue 32: 'Evolve Gastly into Haunter' can rightly be offered more than once. Each ``evolve`` names its
    source card by id and its target by place, so two copies of a Pokémon in the play area, or two copies of its
    evolution (face up, reserved), give distinct actions; none is listed twice."""
    g = new()
    gastly = ids("Gastly")
    for cid in (*gastly, *ids("Weedle")[:2], ids("Dratini")[0]):  # 3 Ultra Ball (black) bonuses
        give_card(g, 0, cid)
    haunter = ids("Haunter")
    place(g, haunter[0], 0)
    give_reserved(g, 0, haunter[1])
    g.apply("take r b p")
    evolutions = [str(a) for a in g.legal_actions() if a.kind == "evolve"]
    assert evolutions == [f"evolve {src} {where}" for src in sorted(gastly) for where in ("2.1", "reserved 1")]
    assert len({str(a) for a in g.legal_actions()}) == len(g.legal_actions())
    outcomes = set()
    for src in gastly:  # the two Gastly differ only in cost, spent already: the same result
        after = g.clone()
        after.apply(f"evolve {src} 2.1")
        outcomes.add((after.points[0], tuple(after.bonuses[0]), tuple(sorted(CARDS[c].name for c in after.bought[0]))))
    assert len(outcomes) == 1


def test_level_three_rare_and_legendary_never_evolve() -> None:
    g = new()
    evolving = {a.args[0] for a in g.actions if a.kind == "evolve"}
    assert all(CARDS[c].row <= 1 for c in evolving)
    with pytest.raises(IllegalAction, match="does not evolve"):
        g.apply(f"evolve {ids('Venusaur')[0]} 3.1")


def test_evolution_after_returning_tokens() -> None:
    g, _bulbasaur, _ = _emma_ready_to_evolve()
    give_tokens(g, 0, red=3, blue=3, black=3, pink=1)
    g.apply("take r b y")
    assert g.view(0)["decision"] == "return"
    for _ in range(3):
        g.apply("return r")
    assert g.view(0)["decision"] == "evolve"


# ----------------------------------------------------------------------------- the end


def test_eighteen_points_completes_the_round() -> None:
    g = new(3)
    g.apply("take r b k")
    g.points[1] = 18
    g.apply("take r b k")
    assert g.final_round and not g.is_over
    g.apply("take r b p")
    assert g.is_over and g.winners == [1]


def test_seventeen_points_does_not_end_the_game() -> None:
    g = new(2)
    g.points[0] = 17
    g.apply("take r b k")
    g.apply("take r b k")
    assert not g.final_round and not g.is_over


def test_tie_goes_to_most_cards_under_the_trainer_tile() -> None:
    g = new(2)
    g.points[0] = g.points[1] = 18
    g.under_tile[1].append(g.decks[0].pop())
    g.apply("take r b k")
    g.apply("take r b k")
    assert g.winners == [1] and "under the trainer tile" in g.result["tie_break"]


def test_tie_then_goes_to_most_pokemon_in_the_play_area() -> None:
    g = new(2)
    give_card(g, 0, ids("Caterpie")[0])
    give_card(g, 0, ids("Caterpie")[1])
    give_card(g, 1, ids("Weedle")[0])
    g.points[0] = g.points[1] = 18
    g.apply("take r b k")
    g.apply("take r b k")
    assert g.winners == [0] and "play area" in g.result["tie_break"]


def test_still_tied_the_victory_is_shared() -> None:
    g = new(2)
    give_card(g, 0, ids("Caterpie")[0])
    give_card(g, 1, ids("Weedle")[0])
    g.points[0] = g.points[1] = 18
    g.apply("take r b k")
    g.apply("take r b k")
    assert g.winners == [0, 1] and g.result["status"] == "shared"


def test_a_tie_of_three_says_the_step_that_decided_it() -> None:
    # Two of three tied players also tie on the trainer tile: the play area decides, or nothing does (shared).
    for play_area, winners, said in (([1, 2, 1], [1], "play area"), ([1, 1, 1], [0, 1], "victory is shared")):
        g = new(3)
        for seat, cards in enumerate(play_area):
            for i in range(cards):
                give_card(g, seat, ids("Caterpie" if seat == 0 else "Weedle" if seat == 1 else "Pidgey")[i])
        g.points[:] = [18, 18, 18]
        for seat in (0, 1):
            g.under_tile[seat].append(g.decks[0].pop())
            g.under_tile[seat].append(g.decks[0].pop())
        g.under_tile[2].append(g.decks[0].pop())
        for _ in range(3):
            g.apply("take r b k" if "take r b k" in [a.text for a in g.legal_actions()] else g.legal_actions()[0])
        assert g.winners == winners and said in g.result["tie_break"], (play_area, g.result)


def test_pokedex_lines_cover_all_55_pokemon() -> None:
    lines = evolution_lines()
    assert len(lines) == 17 and sum(len(line) for line in lines) == 55
    assert ["Bulbasaur", "Ivysaur", "Venusaur"] in lines


def test_the_result_lists_every_pokemon_caught_including_under_the_tile() -> None:
    g, bulbasaur, _ = _emma_ready_to_evolve()
    g.apply("take r b k")
    g.apply(f"evolve {bulbasaur} 2.3")
    caught = g.result["pokedex"][0]
    assert set(caught) == {"Bulbasaur", "Ivysaur", "Poliwag", "Snorlax"}


_ = B


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("take p p p", "take either up to 3 balls of different colours, or 2 of one colour"),
        ("return r b", "return one ball at a time, e.g. 'return r'"),
        ("catch 1.9", "level 1 has slots 1-4, not 9"),
        ("catch 4.1", "say which card to catch as level.slot, e.g. 'catch 2.3' (levels 1, 2, 3, rare, legendary"),
        ("catch rare 2", "rare is a single card: say 'catch rare'"),
        ("return q", "the colours are r: Poké Ball (red), b: Great Ball (blue)"),
        ("take m r b", "a Master Ball cannot be taken; one comes with a reservation"),
        ("reserve legendary.1", "is not an action"),  # never "say 'reserve legendary'", refused next
    ],
)
def test_a_malformed_action_is_explained_in_the_games_own_words(typed: str, said: str) -> None:
    """A terminal player's finds: Pokémon's refusals spoke of tokens and tiers ("tier rare has slots 1-1, not 2"),
    which its rulebook calls balls and levels, and nested brackets ("r (Poké Ball (red))")."""
    with pytest.raises(IllegalAction) as refused:
        new().apply(typed)
    assert said in str(refused.value), str(refused.value)


def test_refusals_say_balls_and_levels_as_the_pokemon_rulebook_does() -> None:
    """A game owner's find: Pokémon's refusals spoke of "the tier 1 deck" and "3 tokens of different colours"."""
    g = new()
    g.decks[0] = []
    with pytest.raises(IllegalAction, match="the level 1 deck is empty"):
        g.apply("reserve deck 1")
    with pytest.raises(IllegalAction, match="take 3 balls of different colours"):
        g.apply("take r b")
    with pytest.raises(IllegalAction, match="balls are returned only when you hold more than 10"):
        g.apply("return r")
