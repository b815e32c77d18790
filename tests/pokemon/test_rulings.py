"""The project's rulings as they apply to Splendor: Pokémon (1-8 where Pokémon differs, and 11-17)."""

from __future__ import annotations

import json

import pytest

import splendor
from splendor import IllegalAction
from splendor.games.pokemon.cards import CARDS, POKEMON
from splendor.games.pokemon.game import PokemonGame
from tests.market_positions import give_card, give_reserved, give_tokens, place
from tests.pokemon.positions import K, M, P, R, Y, card_costing, ids, new


def test_ruling_3_pokemon_forced_pass_only_when_nothing_else_is_legal() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="only when you have no other legal action"):
        g.apply("pass")


def test_ruling_4_pokemon_turn_cap_truncates() -> None:
    g = new(max_turns=2)
    g.apply("take r b k")
    g.apply("take r b k")
    assert g.is_over and g.result["status"] == "truncated" and g.winners == []


def test_ruling_5_pokemon_a_deck_reserved_card_is_hidden_and_an_evolution_from_it_reveals_it() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    ivysaur = ids("Ivysaur")[1]
    g.decks[1].remove(ivysaur)
    g.decks[1].append(ivysaur)  # Ivysaur on top of the level 2 deck
    g.apply("reserve deck 2")
    assert g.view(1)["seats"][0]["reserved"] == [{"hidden": True, "tier": 2}]
    g.apply(f"evolve {bulbasaur} reserved 1")  # a card reserved earlier this turn may be the target
    assert ivysaur in [c["id"] for c in g.view(1)["seats"][0]["cards"]]


def ready_bulbasaur(on_top: int) -> PokemonGame:
    """Seat 0 to move, its Bulbasaur ready to evolve, no Ivysaur on the display, and ``on_top`` on top of its
    level's deck."""
    g = new()
    for cid in (ids("Bulbasaur")[0], ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    for slot, cid in enumerate(g.rows[1]):
        if CARDS[cid].name == "Ivysaur":  # swapped for a card of another name from the deck
            other = next(c for c in g.decks[1] if CARDS[c].name != "Ivysaur" and c != on_top)
            g.decks[1][g.decks[1].index(other)] = cid
            g.rows[1][slot] = other
    level = CARDS[on_top].row
    g.decks[level].remove(on_top)
    g.decks[level].append(on_top)
    return g


def _deck_reserve_on_a_ready_bulbasaur(on_top: int) -> PokemonGame:
    """``ready_bulbasaur``, and seat 0 reserves ``on_top``: the end of its turn."""
    g = ready_bulbasaur(on_top)
    g.apply(f"reserve deck {CARDS[on_top].row + 1}")
    return g


def test_ruling_5_pokemon_the_table_cannot_tell_whether_a_deck_reserved_card_is_an_evolution() -> None:
    """A seat asked whether to evolve only when it could would tell the others that its hidden card is the
    evolution: it is asked whenever that card might be one, and its answer reads the same."""
    ivysaur = ids("Ivysaur")[0]
    not_one = next(c.id for c in CARDS if c.row == 1 and c.name != "Ivysaur")
    seen = []
    for on_top in (ivysaur, not_one):
        g = _deck_reserve_on_a_ready_bulbasaur(on_top)
        other = g.view(1)
        assert other["seats"][0]["reserved"] == [{"hidden": True, "tier": 2}]
        seen.append((other["current_player"], other["decision"]))
        assert [str(a) for a in g.legal_actions()][-1] == "evolve none"
        g.apply("evolve none")
        assert g.current_player == 1 and g.history[-1].text == "evolve none"
    assert seen == [(0, "evolve"), (0, "evolve")]


def test_ruling_5_pokemon_a_hidden_card_of_another_level_than_the_evolution_asks_nothing() -> None:
    g = _deck_reserve_on_a_ready_bulbasaur(next(c.id for c in CARDS if c.row == 2))
    assert g.view(1)["seats"][0]["reserved"] == [{"hidden": True, "tier": 3}]
    assert g.current_player == 1


def test_ruling_7_pokemon_take_fewer_when_fewer_than_three_colours_remain() -> None:
    g = new()
    give_tokens(g, 1, red=4, blue=4, black=4, pink=4)
    assert {str(a) for a in g.legal_actions() if a.kind.startswith("take")} == {"take y", "take y y"}


def test_ruling_8_pokemon_coloured_balls_are_spent_before_master_balls() -> None:
    g = new()
    cid = card_costing("Weepinbell", pink=3, yellow=2, black=2)
    place(g, cid, 0)
    give_tokens(g, 0, pink=3, yellow=2, black=2, master=2)
    g.apply("catch 2.1")
    assert g.tokens[0] == [0, 0, 0, 0, 0, 2]


def test_ruling_11_ball_tokens_and_master_ball_counts() -> None:
    for players, per in ((2, 4), (3, 5), (4, 7)):
        v = new(players).view(None)
        assert v["supply"] == {"red": per, "blue": per, "black": per, "pink": per, "yellow": per, "master": 5}


def test_ruling_12_each_display_slot_is_refilled_from_its_own_deck_after_capture_reservation_or_evolution() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    place(g, ids("Ivysaur")[0], 1)
    top = g.decks[1][-1]
    g.apply("take r b k")
    g.apply(f"evolve {bulbasaur} 2.2")
    assert g.rows[1][1] == top


def test_ruling_13_rare_and_legendary_cannot_be_reserved() -> None:
    g = new()
    with pytest.raises(IllegalAction, match="cannot be reserved"):
        g.apply("reserve legendary")


def test_ruling_13_the_master_ball_in_a_rare_cost_is_paid_by_a_master_token_and_more_may_stand_in() -> None:
    g = new()
    lapras = ids("Lapras")[0]  # 2 blue, 3 black, 1 master
    place(g, lapras, 0)
    give_tokens(g, 0, blue=2, black=2, master=2)  # one master for the cost, one standing in for black
    g.apply("catch rare")
    assert lapras in g.bought[0] and g.tokens[0] == [0] * 6
    assert g.bonuses[0][R] == 2


def test_ruling_13_rare_and_legendary_never_evolve() -> None:
    assert all(not c.evolves_to for c in CARDS if c.row >= 2)


def test_ruling_14_turn_order_action_refill_return_then_evolution() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    ivysaur = ids("Ivysaur")[0]
    place(g, ivysaur, 0)
    give_tokens(g, 0, red=4, blue=4, black=2)
    g.apply("reserve 1.1")  # 11 tokens: the slot is refilled at once
    assert g.rows[0][0] >= 0 and g.view(0)["decision"] == "return"
    with pytest.raises(IllegalAction, match="you hold 11 balls; return balls down to 10"):
        g.apply(f"evolve {bulbasaur} 2.1")
    g.apply("return r")
    assert g.view(0)["decision"] == "evolve"


def test_ruling_15_a_card_captured_this_turn_may_evolve_and_count_toward_the_condition() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    give_card(g, 0, bulbasaur)
    give_card(g, 0, ids("Poliwag")[0])
    snorlax = ids("Snorlax")[0]  # 3 red, 2 black, 1 master; 2 pink bonuses
    place(g, snorlax, 0)
    place(g, ids("Ivysaur")[0], 3)
    give_tokens(g, 0, red=3, black=2, master=1)
    g.apply("catch rare")
    g.apply(f"evolve {bulbasaur} 2.4")
    assert g.under_tile[0] == [bulbasaur]


def test_ruling_15_cards_under_the_tile_do_not_count_toward_a_condition() -> None:
    g = new()
    bellsprout = ids("Bellsprout")[0]  # needs 2 pink
    give_card(g, 0, bellsprout)
    give_card(g, 0, ids("Poliwag")[0])  # 1 pink
    g.under_tile[0].append(ids("Poliwag")[1])  # a pink card under the tile: no bonus
    g.decks[0].remove(ids("Poliwag")[1])
    place(g, ids("Weepinbell")[0], 0)
    g.apply("take r b k")
    assert g.current_player == 1


def test_ruling_15_the_player_chooses_which_copy_to_evolve_into() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    a, b = ids("Ivysaur")
    place(g, a, 0)
    place(g, b, 3)
    g.apply("take r b k")
    g.apply(f"evolve {bulbasaur} 2.4")
    assert b in g.bought[0] and a in g.rows[1]


def test_ruling_16_eighteen_points_after_evolution_triggers_the_last_round() -> None:
    g = new()
    bulbasaur = ids("Bulbasaur")[0]
    for cid in (bulbasaur, ids("Poliwag")[0], ids("Snorlax")[0]):
        give_card(g, 0, cid)
    place(g, ids("Ivysaur")[0], 0)
    g.points[0] = 16  # Bulbasaur 1 → Ivysaur 3: 18
    g.apply("take r b k")
    assert not g.final_round
    g.apply(f"evolve {bulbasaur} 2.1")
    assert g.points[0] == 18 and g.final_round
    g.apply("take r b k")
    assert g.is_over and g.winners == [0]


def test_ruling_17_the_pokedex_marks_play_area_and_trainer_tile_and_55_pokemon_exist() -> None:
    assert len(POKEMON) == 55
    g = new()
    give_card(g, 0, ids("Mew")[0])
    g.under_tile[0].append(ids("Pidgey")[0])
    g.decks[0].remove(ids("Pidgey")[0])
    assert set(g.result["pokedex"][0]) == {"Mew", "Pidgey"}
    assert g.result["pokedex"][1] == []


_ = (K, M, P, Y, give_reserved)


def test_ruling_5_pokemon_a_search_bot_thinks_over_the_question_whatever_its_choices() -> None:
    """A code review's find: a bot answered at once when 'evolve none' was all it could say, and searched when it
    could evolve: its speed told what its hidden card was. The question is searched either way."""
    from splendor.bots import decide, make_bot

    for on_top in (ids("Ivysaur")[0], next(c.id for c in CARDS if c.row == 1 and c.name != "Ivysaur")):
        g = _deck_reserve_on_a_ready_bulbasaur(on_top)
        bot = make_bot("ismcts:easy", seed=1)
        searched: list[int] = []
        real = bot.search  # type: ignore[attr-defined]

        def counted(decision: object, real: object = real, searched: list[int] = searched) -> object:
            searched.append(1)
            return real(decision)  # type: ignore[operator]

        bot.search = counted  # type: ignore[attr-defined]
        assert decide(bot, g).kind.startswith("evolve") and searched == [1]


def test_ruling_5_pokemon_the_terminal_says_why_a_seat_that_cannot_evolve_is_asked() -> None:
    from rich.console import Console

    from splendor.terminal.play import Quit, Seat, play_terminal

    g = _deck_reserve_on_a_ready_bulbasaur(next(c.id for c in CARDS if c.row == 1 and c.name != "Ivysaur"))
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115 (closed with the console)
    answers = iter(["evolve none", "quit", "y"])
    with pytest.raises(Quit):
        play_terminal(g, [Seat("ash", "human"), Seat("bob", "human")], console, lambda _prompt: next(answers))
    console.file.close()
    said = " ".join(console.export_text().split())
    assert "None of your Pokémon can evolve now. You are asked anyway" in said
    assert g.history[-1].text == "evolve none"


def _played_under(legacy: bool, actions: int = 60) -> PokemonGame:
    """Seed 0, greedy seats that reserve from the level 2 and 3 decks a turn in four: at its 41st action seat 0 has a
    ready Pokémon and a hidden card of its evolution's level, and no evolution open."""
    import random

    from splendor.bots import decide, make_bot

    g = new(seed=0, **({"evolve_only_when_open": True} if legacy else {}))
    bots, rng = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)], random.Random(0)
    while len(g.history) < actions and not g.is_over:
        legal = g.legal_actions()
        decks = [a for a in legal if a.text in ("reserve deck 2", "reserve deck 3")]
        if g.view(None)["decision"] == "action" and rng.random() < 0.25 and decks:
            g.apply(rng.choice(decks))
        else:
            g.apply(decide(bots[g.current_player], g))
    return g


def test_ruling_5_pokemon_a_game_played_before_the_question_replays_under_its_own_rule() -> None:
    """Records of format 1 and games stored before 2026-12-06 were played when a seat was asked whether to evolve
    only when it could; they replay, resume and are reviewed under that rule (``core.record.UPGRADES``)."""
    now, then = _played_under(legacy=False, actions=42), _played_under(legacy=True)
    assert now.history[41].text == "evolve none" and then.history[41].text != "evolve none"
    header, *lines = then.record.to_text().splitlines()
    head = json.loads(header)
    assert head["format"] == "splendor-record/2" and head["options"]["evolve_only_when_open"] is True
    del head["options"]["evolve_only_when_open"]
    written_then = "\n".join([json.dumps({**head, "format": "splendor-record/1"}), *lines])
    assert splendor.replay(written_then).to_json() == then.to_json()
    with pytest.raises(IllegalAction, match="action 42 of the record"):  # the same actions under today's rule
        splendor.replay("\n".join([json.dumps(head), *lines]))
    state = json.loads(then.to_json())
    assert state["format"] == "splendor-state/2"
    del state["options"]["evolve_only_when_open"]
    assert splendor.load(json.dumps({**state, "format": "splendor-state/1"})).to_json() == then.to_json()
    with pytest.raises(ValueError, match="action 42 of the saved history"):
        splendor.load(json.dumps(state))
