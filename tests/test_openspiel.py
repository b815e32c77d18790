"""The three games as OpenSpiel games: OpenSpiel's own random simulation test (with serialisation), and its
MCTS and IS-MCTS bots playing whole games through them."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import splendor.envs.openspiel  # noqa: E402,F401  (registers the games)

GAMES = ["classic", "pokemon", "kids"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_openspiels_random_simulation_test_passes(game: str, players: int) -> None:
    loaded = pyspiel.load_game(f"python_splendor_{game}", {"players": players, "max_turns": 25})
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)


def test_the_game_describes_itself_as_openspiel_expects() -> None:
    game = pyspiel.load_game("python_splendor_kids", {"players": 3})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == 42198 and game.max_chance_outcomes() == 1000
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(17)
    assert len(state.observation_tensor(0)) == 1317 and "|" in state.information_state_string(0)
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert str(again) == str(state) and again.history() == state.history()


def test_a_game_of_two_is_zero_sum_and_of_three_or_four_general_sum() -> None:
    """A researcher found games of two declared general-sum: algorithms that need zero-sum refused them."""
    utility = pyspiel.GameType.Utility
    for players, kind in ((2, utility.ZERO_SUM), (3, utility.GENERAL_SUM), (4, utility.GENERAL_SUM)):
        assert pyspiel.load_game("python_splendor_classic", {"players": players}).get_type().utility == kind


def test_kids_takes_its_variants_as_parameters() -> None:
    short = pyspiel.load_game("python_splendor_kids", {"short": True}).new_initial_state()
    short.apply_action(5)
    assert short.engine.options["short"] is True
    game = pyspiel.load_game("python_splendor_kids", {"players": 3, "mysteries": True})
    state = game.new_initial_state()
    state.apply_action(5)
    assert state.engine.options["mysteries"] is True
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.engine.options["mysteries"] is True  # a state read back is the same variant
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_splendor_classic", {"mysteries": True})  # Kids' own
    with pytest.raises(ValueError, match="cannot be short"):  # at once, not at the deal
        pyspiel.load_game("python_splendor_kids", {"mysteries": True, "short": True})


def _play(game: pyspiel.Game, bots: list, seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def test_openspiels_mcts_bot_plays_a_whole_game() -> None:
    game = pyspiel.load_game("python_splendor_classic", {"players": 2, "max_turns": 12})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=np.random.RandomState(2))
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    returns = _play(game, [bot, UniformRandomBot(1, np.random.RandomState(3))], seed=4)
    assert len(returns) == 2 and all(r in (-1.0, 0.0, 1.0) for r in returns)


@pytest.mark.parametrize("game_name", ["classic", "kids"])
def test_openspiels_ismcts_bot_plays_a_whole_game_resampling_what_it_cannot_see(game_name: str) -> None:
    game = pyspiel.load_game(f"python_splendor_{game_name}", {"players": 2, "max_turns": 10})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = []
    for seat in range(2):
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(seat))
        world = random.Random(seat)
        bot.set_resampler(lambda state, player, world=world: state.resample(player, world))
        bots.append(bot)
    returns = _play(game, bots, seed=5)
    assert len(returns) == 2


def test_a_turn_cap_that_ends_a_game_before_every_seat_plays_is_refused_without_offering_none() -> None:
    """An OpenSpiel parameter cannot be None: the refusal had said "max_turns is None or at least …"."""
    with pytest.raises(Exception, match="max_turns is at least the 2 players' first turns") as refused:
        pyspiel.load_game("python_splendor_classic", {"max_turns": 1})
    assert "None" not in str(refused.value)
