"""Board files: every mistake explained by ``splendor kids check-board``, and a hand-written board played."""

from __future__ import annotations

import subprocess
import sys
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

import splendor
from splendor.games.kids.board import (
    MOVES_ROOM,
    RESOURCES,
    BoardError,
    assemble,
    check_side,
    parse_side,
    shipped_sides,
)
from splendor.games.kids.notation import most_payments, payments
from tests.kids.positions import TEST_A1, TEST_A3, with_rainbow_roads

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def _problems(text: str) -> list[str]:
    try:
        parse_side(text)
    except BoardError as e:
        return e.problems
    return []


def test_the_six_shipped_sides_are_valid() -> None:
    sides = shipped_sides()
    assert sorted(sides) == ["A1-back", "A1-front", "A2-back", "A2-front", "A3-back", "A3-front"]
    assert all(check_side(d) == [] for d in sides.values())


def test_an_unknown_colour_is_explained() -> None:
    bad = TEST_A1.replace('cost = ["red"]', 'cost = ["purple"]', 1)
    assert any("unknown colour 'purple'" in p for p in _problems(bad))
    gold = TEST_A1.replace('cost = ["red"]', 'cost = ["gold"]', 1)
    assert any("gold coins are wild and never on a banner" in p for p in _problems(gold))


def test_a_backwards_road_is_explained() -> None:
    bad = TEST_A1 + '\n[[roads]]\nfrom = "hamlet"\nto = "village"\ncost = ["red"]\n'
    assert any("goes backwards" in p for p in _problems(bad))


def test_a_cost_out_of_range_is_explained() -> None:
    six = TEST_A1.replace('cost = ["red"]', 'cost = ["red", "red", "red", "red", "red", "red"]', 1)
    assert any("costs 6 resources; a banner shows 1 to 5" in p for p in _problems(six))
    empty = TEST_A1.replace('cost = ["red"]', "cost = []", 1)
    assert any("costs 0 resources" in p for p in _problems(empty))


def test_an_unreachable_palace_is_explained() -> None:
    dead_end = TEST_A1.replace('from = "hamlet"\nto = "lane:west"', 'from = "city"\nto = "lane:west"')
    assert any("cannot be reached from space 'hamlet'" in p for p in _problems(dead_end))


def test_a_lane_that_does_not_join_is_explained() -> None:
    bad = TEST_A3.replace('east = "garden"', 'east = "nowhere"')
    assert any("lane east does not join" in p for p in _problems(bad))
    bad_lane = TEST_A1.replace('to = "lane:west"', 'to = "lane:north"')
    assert any("unknown lane 'north'" in p for p in _problems(bad_lane))


def test_a_space_whose_roads_could_be_paid_in_more_ways_than_a_position_holds_is_refused() -> None:
    # The compiled engine keeps room for MAX_LEGAL actions a position: a space may not offer more moves than that.
    assert most_payments(RESOURCES) == 585 and 4 + 6 * 585 <= MOVES_ROOM < 4 + 7 * 585
    assert _problems(with_rainbow_roads(6)) == []
    problems = _problems(with_rainbow_roads(7))
    assert problems == [
        f"the roads from space 'gate' could be paid in up to 4,099 ways at once, and a space may offer at most "
        f"{MOVES_ROOM:,}: give it fewer roads or banners of fewer colours"
    ]


@pytest.mark.parametrize("size", range(1, 6))
def test_most_payments_is_what_the_richest_holdings_can_pay(size: int) -> None:
    # Five of every token, gold coin and City tile, and two Treasures, pay a banner in every way there is.
    for banner in combinations_with_replacement(range(5), size):
        assert len(payments(banner, [5] * 6, [5] * 5, 2)) == most_payments(banner)  # colours, then gold
        assert len(payments(banner, [1, 0, 2, 0, 1, 1], [0, 1, 0, 1, 0], 1)) <= most_payments(banner)


def test_sections_must_come_in_order() -> None:
    with pytest.raises(ValueError, match="sections A1, A2, A3"):
        assemble([parse_side(TEST_A3), parse_side(TEST_A1)])


def test_check_board_command_explains_and_a_hand_written_board_plays(tmp_path: Path) -> None:
    a1, a3, bad = tmp_path / "a1.toml", tmp_path / "a3.toml", tmp_path / "bad.toml"
    a1.write_text(TEST_A1)
    a3.write_text(TEST_A3)
    bad.write_text(TEST_A1.replace('cost = ["red"]', 'cost = ["purple"]', 1))
    out = subprocess.run([SPLENDOR, "kids", "check-board", str(a1), str(a3)], capture_output=True, text=True)
    assert out.returncode == 0 and "join into a board of 8 spaces and 9 roads" in " ".join(out.stdout.split())
    out = subprocess.run([SPLENDOR, "kids", "check-board", str(bad)], capture_output=True, text=True)
    assert out.returncode == 1 and "unknown colour 'purple'" in out.stderr
    record = tmp_path / "custom.record"
    out = subprocess.run(
        [
            SPLENDOR,
            "play",
            "--game",
            "kids",
            "--seats",
            "greedy,greedy",
            "--short",
            "--board",
            f"{a1},{a3}",
            "--seed",
            "3",
            "--record",
            str(record),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "custom board" in out.stdout
    a1.unlink()  # the record carries the board: it replays without the files
    game = splendor.replay(record.read_text())
    assert game.is_over and game.view(None)["board"]["titles"] == ["Test road", "Test palace"]


def test_a_board_side_of_another_section_is_refused_for_the_game() -> None:
    with pytest.raises(ValueError, match="needs the sides of sections A1, A2, A3"):
        splendor.new_game("kids", board=["A1-front", "A3-front"])
    with pytest.raises(ValueError, match="unknown board side"):
        splendor.new_game("kids", board=["A1-front", "A2-sideways", "A3-front"])
