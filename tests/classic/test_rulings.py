"""The project's rulings 1-10 (``shared/rulings.md``) as they apply to classic Splendor, one test each."""

from __future__ import annotations

import json

import pytest

import splendor
from splendor import IllegalAction
from splendor.games.classic.game import ClassicGame
from tests.classic.positions import B, G, K, R, W, Y, give_bonuses, give_tokens, new, noble_requiring, place, set_nobles


def test_ruling_1_seat_zero_starts_by_default() -> None:
    g = new(3)
    assert g.current_player == 0 and g.view(None)["first_player"] == 0


def test_ruling_1_another_first_seat_or_a_random_one() -> None:
    g = new(3, first_player=2)
    assert g.current_player == 2
    firsts = {new(4, seed=s, first_player="random").current_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="first_player"):
        new(2, first_player=2)


def test_ruling_1_play_goes_clockwise_in_seat_order() -> None:
    g = new(4, first_player=2)
    order = []
    for _ in range(5):
        order.append(g.current_player)
        g.apply(g.legal_actions()[0])
    assert order == [2, 3, 0, 1, 2]


def test_ruling_2_the_round_is_completed_up_to_the_seat_before_the_first() -> None:
    g = new(4, first_player=2)
    g.apply("take w b g")  # seat 2
    g.points[3] = 15
    g.apply("take w b g")  # seat 3 reaches 15
    assert not g.is_over
    g.apply("take w b g")  # seat 0
    assert not g.is_over
    g.apply("take r k w")  # seat 1, the seat before the first: the game ends
    assert g.is_over and g.winners == [3]


def _stuck(g: ClassicGame) -> None:
    """A reachable dead end: an empty market, all coloured tokens held, reserved cards nobody can pay for."""
    for r in range(3):
        g.decks[r] = [c for c in g.rows[r] if c >= 0] + g.decks[r]
        g.rows[r] = [-1] * 4
    for seat, cards in ((0, (71, 73, 87)), (1, (76, 77, 79))):
        for cid in cards:
            g.decks[2].remove(cid)
            g.reserved[seat].append(cid)
    give_tokens(g, 0, white=4, blue=4, green=2)
    give_tokens(g, 1, green=2, red=4, black=4)


def _stuck_with_a_noble_due(g: ClassicGame) -> None:
    """The dead end of ``_stuck``, seat 1 to move in the first round, and seat 0 on 12 points with a noble due at the
    end of its next turn."""
    _stuck(g)
    g.seat = 1
    set_nobles(g, [noble_requiring(red=4, black=4)])
    give_bonuses(g, 0, red=4, black=4)
    g.points[0] = 12


def test_ruling_3_a_seat_with_no_legal_action_passes() -> None:
    g = new(2)
    _stuck(g)
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    g.apply("pass")
    assert g.current_player == 1 and g.turns == 1


def test_ruling_3_pass_is_never_legal_while_another_action_is() -> None:
    g = new(2)
    with pytest.raises(IllegalAction, match="only when you have no other legal action"):
        g.apply("pass")


def test_ruling_4_a_game_where_every_seat_had_to_pass_for_a_round_ends_stalled_with_no_winner() -> None:
    g = new(2)
    _stuck(g)
    g.points[0] = 3  # a lead on points does not make a winner: nobody reached 15
    g.apply("pass")
    assert not g.is_over
    g.apply("pass")
    assert g.is_over and g.stalled and not g.truncated and g.winners == []
    assert g.result["status"] == "stalled" and g.result["scores"] == [3, 0] and "tie_break" not in g.result


def test_ruling_4_a_round_of_passes_in_which_a_seat_reaches_15_is_completed_and_won() -> None:
    """Seat 0 reaches 15 by a noble's visit at the end of a forced pass (ruling 9): the round is completed (ruling 2)
    and seat 0 wins; the game is not stalled, though every seat passed for a round."""
    g = new(2)
    _stuck_with_a_noble_due(g)
    g.apply("pass")
    g.apply("pass")  # the noble visits: 15, and the last round starts
    assert g.points[0] == 15 and not g.is_over and g.current_player == 1
    g.apply("pass")
    assert g.is_over and not g.stalled and g.winners == [0] and g.result["status"] != "stalled"


def _stuck_with_three_nobles_due(g: ClassicGame) -> None:
    """The dead end of ``_stuck``, seat 0 on 6 points with three nobles met at once: one visits at the end of each of
    its turns, passes all (ruling 9)."""
    _stuck(g)
    set_nobles(
        g,
        [noble_requiring(red=4, black=4), noble_requiring(white=4, black=4), noble_requiring(white=3, red=3, black=3)],
    )
    give_bonuses(g, 0, white=4, red=4, black=4)
    g.points[0] = 6


def test_ruling_4_a_round_of_passes_does_not_stall_a_game_while_a_noble_is_due() -> None:
    """A rules check's find: with a noble still due at a seat's next turn, a round of passes ended the game as
    stalled, though it could move again (the noble's visit) and that visit took the seat to 15."""
    g = new(2)
    _stuck_with_three_nobles_due(g)
    while not g.is_over:
        g.apply(g.legal_actions()[0])  # pass, or the first noble when several visit at once
    assert not g.stalled and g.winners == [0] and g.points[0] == 15 and len(g.seat_nobles[0]) == 3


def test_ruling_4_a_turn_cap_ends_the_game_as_truncated_with_no_winner() -> None:
    g = new(2, max_turns=4)
    for _ in range(4):
        assert not g.is_over
        g.apply(g.legal_actions()[0])
    assert g.is_over and g.truncated and g.winners == []
    assert g.result["status"] == "truncated"


def test_ruling_4_no_cap_unless_asked() -> None:
    assert new(2).options["max_turns"] is None
    with pytest.raises(ValueError, match="max_turns"):
        new(2, max_turns=0)


def _ids(data: object) -> set[int]:
    found: set[int] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            if "id" in x and "tier" in x:
                found.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(data)
    return found


def test_ruling_5_deck_order_is_hidden_from_every_view() -> None:
    g = new(3)
    deck_cards = {c for d in g.decks for c in d}
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert not (_ids(v) & deck_cards)
        assert v["decks"] == {"1": 36, "2": 26, "3": 16}


def test_ruling_5_a_card_reserved_from_a_deck_is_seen_by_its_owner_only() -> None:
    g = new(3)
    secret = g.decks[0][-1]
    g.apply("reserve deck 1")
    assert secret in _ids(g.view(0))
    for seat in (1, 2, None):
        assert secret not in _ids(g.view(seat))
        assert str(secret) not in json.dumps(g.view(seat)["seats"][0])


def test_ruling_5_a_face_up_card_that_is_reserved_stays_public() -> None:
    g = new(3)
    card = g.rows[0][1]
    g.apply("reserve 1.2")
    for seat in (1, 2, None):
        assert g.view(seat)["seats"][0]["reserved"][0]["id"] == card


def test_ruling_5_an_error_message_never_names_a_hidden_card() -> None:
    g = new(2)
    g.apply("reserve deck 3")
    with pytest.raises(IllegalAction) as err:
        g.apply("buy reserved 1")  # seat 1 has no reserved card; seat 0's secret must not appear
    assert "reserved card 1" in str(err.value)


def test_ruling_6_the_returning_player_chooses_the_colours() -> None:
    g = new(2)
    give_tokens(g, 0, white=3, blue=3, green=3)
    g.apply("take r k w")
    assert {str(a) for a in g.legal_actions()} == {"return w", "return b", "return g", "return r", "return k"}
    g.apply("return g")
    g.apply("return g")
    assert g.tokens[0][G] == 1


def test_ruling_6_the_player_chooses_among_eligible_nobles() -> None:
    g = new(2)
    a, b = noble_requiring(red=4, black=4), noble_requiring(white=4, black=4)
    set_nobles(g, [a, b, noble_requiring(blue=4, green=4)])
    give_bonuses(g, 0, red=4, black=4, white=4)
    g.apply("take w b g")
    g.apply(f"noble {a}")
    assert g.seat_nobles[0] == [a]


def test_ruling_7_fewer_than_three_only_when_fewer_than_three_colours_remain() -> None:
    g = new(2)
    with pytest.raises(IllegalAction, match="fewer only when fewer than 3 colours"):
        g.apply("take w b")
    give_tokens(g, 1, white=4, blue=4, green=4)
    legal = {str(a) for a in g.legal_actions() if a.kind in ("take", "take2")}
    assert legal == {"take r k", "take r", "take k", "take r r", "take k k"}
    g.apply("take r")
    assert g.tokens[0][R] == 1


def test_ruling_8_coloured_tokens_are_spent_before_gold() -> None:
    g = new(2)
    place(g, 0, 0)  # costs 2 red, 1 black
    give_tokens(g, 0, red=2, black=1, gold=2)
    g.apply("buy 1.1")
    assert g.tokens[0] == [0, 0, 0, 0, 0, 2]


def test_ruling_8_never_more_than_the_cost_left_after_bonuses() -> None:
    g = new(2)
    give_bonuses(g, 0, red=1)
    place(g, 0, 0)
    give_tokens(g, 0, red=2, black=2)
    g.apply("buy 1.1")
    assert g.tokens[0][R] == 1 and g.tokens[0][K] == 1


def test_ruling_8_one_payment_per_purchase() -> None:
    g = new(2)
    place(g, 0, 0)
    give_tokens(g, 0, red=1, black=1, gold=3)
    buys = [a for a in g.legal_actions() if str(a) == "buy 1.1"]
    assert len(buys) == 1


def test_ruling_9_nobles_are_checked_at_the_end_of_every_turn_not_only_after_a_buy() -> None:
    g = new(2)
    a, b = noble_requiring(red=4, black=4), noble_requiring(white=4, black=4)
    set_nobles(g, [a, b, noble_requiring(blue=4, green=4)])
    give_bonuses(g, 0, red=4, black=4, white=4)
    g.apply("take w b g")
    g.apply(f"noble {a}")
    g.apply("take w b g")  # seat 1
    g.apply("reserve 1.1")  # seat 0's next turn, whatever the action: the other noble comes
    assert g.seat_nobles[0] == [a, b] and g.points[0] >= 6


def test_ruling_9_order_of_returning_and_the_noble_visit_changes_nothing() -> None:
    g = new(2)
    n = noble_requiring(red=4, black=4)
    set_nobles(g, [n])
    give_bonuses(g, 0, red=4, black=4)
    give_tokens(g, 0, white=3, blue=3, green=3)
    g.apply("take r k w")
    assert g.seat_nobles[0] == []  # returning comes first; the visit follows
    g.apply("return w")
    g.apply("return w")
    assert g.seat_nobles[0] == [n] and g.current_player == 1


def test_ruling_10_a_noble_that_visits_is_not_replaced() -> None:
    g = new(2)
    n = noble_requiring(red=4, black=4)
    shown = list(g.nobles)
    set_nobles(g, [n] + [x for x in shown if x != n][:2])
    give_bonuses(g, 0, red=4, black=4)
    g.apply("take w b g")
    assert n not in g.nobles and len(g.nobles) == 2
    assert len(g.view(None)["nobles"]) == 2


def test_ruling_10_visiting_nobles_are_conserved() -> None:
    g = new(2)
    n = noble_requiring(red=4, black=4)
    set_nobles(g, [n, noble_requiring(blue=4, green=4), noble_requiring(white=4, blue=4)])
    give_bonuses(g, 0, red=4, black=4)
    g.apply("take w b g")
    assert len(g.nobles) + sum(len(x) for x in g.seat_nobles) == 3


def test_ruling_8_gold_covers_what_is_missing_only() -> None:
    g = new(2)
    place(g, 0, 0)
    give_tokens(g, 0, red=1, gold=3)
    g.apply("buy 1.1")
    assert g.tokens[0][Y] == 1 and g.tokens[0][R] == 0


_ = (B, W, splendor)
