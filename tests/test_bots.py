"""The bots: they play every game to its end through the protocol, see only their seat's view, and greedy
clears random by a wide margin."""

from __future__ import annotations

from typing import Any

import pytest

import splendor
from splendor.bots import Decision, decide, make_bot
from splendor.core.actions import Action
from splendor.sim import play_out, simulate


@pytest.mark.parametrize("name", sorted(splendor.GAMES))
@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games_of_every_game(name: str, bot: str, players: int) -> None:
    for seed in range(3):
        g = splendor.new_game(name, players=players, seed=seed, max_turns=600)
        play_out(g, [make_bot(bot, seed=seed + s) for s in range(players)])
        assert g.is_over


def test_greedy_beats_random_in_almost_every_classic_game() -> None:
    report = simulate("classic", 2, ["greedy", "random"], games=20, seed=100)
    swapped = simulate("classic", 2, ["random", "greedy"], games=20, seed=200)
    greedy_wins = report.wins[0] + swapped.wins[1]
    assert greedy_wins >= 38, (report.as_dict(), swapped.as_dict())


def test_greedy_finishes_classic_games_without_truncation() -> None:
    report = simulate("classic", 2, ["greedy", "greedy"], games=10, seed=7, max_turns=300)
    assert report.truncated == 0


class Spy:
    """A bot that records what it was shown."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Decision] = []

    def choose(self, decision: Decision) -> Action:
        self.seen.append(decision)
        return decision.legal[0]


def test_a_bot_is_shown_its_seats_view_and_the_legal_actions_only() -> None:
    g = splendor.new_game("classic", players=2, seed=3)
    g.apply("reserve deck 1")  # seat 0 holds a secret card
    spy = Spy()
    action = decide(spy, g)
    shown = spy.seen[0]
    assert shown.seat == 1 and shown.view == g.view(1) and shown.legal == g.legal_actions()
    assert shown.view["seats"][0]["reserved"] == [{"hidden": True, "tier": 1}]
    assert set(vars(shown)) == {"game", "seat", "view", "legal", "sample"}
    assert shown.sample is not None
    import random

    sampled = shown.sample(random.Random(1))
    assert sampled is not g and sampled.view(1) == g.view(1)
    assert action == g.legal_actions()[0]


def test_decide_refuses_an_illegal_choice_from_a_bot() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, decision: Decision) -> Any:
            return splendor.new_game("classic", seed=0).parse("buy 3.1")

    with pytest.raises(ValueError, match="not legal now"):
        decide(Cheat(), splendor.new_game("classic", players=2, seed=3))


def test_seeded_bots_play_the_same_game_twice() -> None:
    def game() -> str:
        g = splendor.new_game("classic", players=3, seed=9)
        play_out(g, [make_bot("greedy", seed=1), make_bot("random", seed=2), make_bot("greedy", seed=3)])
        return g.to_json()

    assert game() == game()


def test_unknown_bot_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown bot .wizard.; the bots are random, greedy, ismcts"):
        make_bot("wizard")


def test_a_search_bots_time_out_of_bounds_is_said_as_such() -> None:
    """A tournament organiser's find: ``ismcts:hard/0`` and ``/700`` were "unknown bot", not why."""
    for spec, limit in (("ismcts:hard/0", "0"), ("ismcts:expert/700", "700")):
        with pytest.raises(ValueError, match=f"a search bot's time a move is 0.001 to 600 seconds, not {limit}"):
            make_bot(spec)
    with pytest.raises(ValueError, match="unknown bot 'ismcts:hard/soon'"):
        make_bot("ismcts:hard/soon")
