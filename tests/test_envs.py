"""The reinforcement-learning environments: Gymnasium's own checks for each game, observations that leak nothing
hidden, the exact action indices (Kids' compact one), seeded replays, rewards, an opponent's forfeit, and bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import splendor
import splendor.envs
from splendor.bots import Forfeit
from splendor.envs import ENV_IDS, ActionIndex, layout, observe, size
from splendor.envs.gymnasium_env import SplendorEnv
from tests.outside_bots import telling_its_end

GAMES = ["classic", "pokemon", "kids"]
OPTIONS = {"classic": {}, "pokemon": {}, "kids": {"mysteries": True}}


def _random_states(game: str, players: int, seed: int, steps: int = 120) -> list[splendor.Game]:
    """States along a random game (copies), for the checks that look at many positions."""
    g = splendor.new_game(game, players=players, seed=seed, **OPTIONS[game])
    rng = random.Random(seed)
    out = []
    while not g.is_over and len(out) < steps:
        out.append(g.clone())
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("game", GAMES)
def test_each_environment_passes_gymnasiums_own_checks(game: str) -> None:
    env = gymnasium.make(ENV_IDS[game])
    check_env(env.unwrapped, skip_render_check=False)
    assert env.observation_space.shape == (size(game),)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_observation_leaks_nothing_the_seat_cannot_see(game: str, players: int) -> None:
    """Two states that differ only in hidden parts (decks, others' face-down reserves, City stack, face-down
    Village tiles) give every seat the same observation, and the states did differ."""
    differed = 0
    for state in _random_states(game, players, seed=players, steps=60)[::6]:
        for seat in range(players):
            other = state.determinize(seat, random.Random(seat + 99))
            differed += other.to_json() != state.to_json()
            assert np.array_equal(observe(state.view(seat)), observe(other.view(seat)))
    assert differed > 0


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_has_one_index_and_every_marked_index_is_legal(game: str) -> None:
    for seed in range(3):
        for state in _random_states(game, 3, seed=seed, steps=150):
            index = ActionIndex(state)
            legal = state.legal_actions()
            numbers = [index.index(a) for a in legal]
            assert len(set(numbers)) == len(numbers)
            assert [index.action(n) for n in numbers] == legal
            assert index.mask(state).sum() == len(legal)


def test_kids_compact_index_is_small_enough_to_mask_and_refuses_what_it_does_not_name() -> None:
    g = splendor.new_game("kids", players=2, seed=1)
    index = ActionIndex(g)
    assert index.size == 42198 < len(g.actions) // 10
    assert len(index.ways) < 72  # a board has fewer roads than the index has room for
    unused_road = max(index.ways) + 1
    with pytest.raises(splendor.IllegalAction):
        index.action(78 + (unused_road - 1) * 585)
    with pytest.raises(splendor.IllegalAction):
        index.action(42198)


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_episode_replays_exactly(game: str) -> None:
    def play(seed: int) -> list[tuple[bytes, float]]:
        env = SplendorEnv(game, players=3, opponents=["random", "greedy"], max_turns=30)
        obs, info = env.reset(seed=seed)
        trail = [(obs.tobytes(), 0.0)]
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            trail.append((obs.tobytes(), reward))
            done = terminated or truncated
        return trail

    assert play(7) == play(7)
    assert play(7) != play(8)


@pytest.mark.parametrize("cap", [0, 1, True, 1.5])
def test_a_turn_cap_that_ends_a_game_before_every_seat_plays_is_refused_in_every_environment(cap: object) -> None:
    """A researcher's Gymnasium episode ended after the learner's first move (``max_turns=1``), the opponent never
    playing, where the vectorised games refused the cap."""
    from splendor.envs.vector import VectorGames

    makers = [
        lambda: SplendorEnv("classic", players=2, max_turns=cap),
        lambda: splendor.envs.pettingzoo_env("classic", players=2, max_turns=cap),
        lambda: VectorGames("classic", num_envs=2, max_turns=cap),
    ]
    for make in makers:
        with pytest.raises(ValueError, match="so every seat plays"):
            make()


def test_the_reward_is_the_result_and_the_turn_cap_truncates() -> None:
    env = SplendorEnv("classic", players=2, opponents=["greedy"], max_turns=6)
    _obs, info = env.reset(seed=3)
    done = False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    assert truncated and not terminated and reward == 0.0 and info["status"] == "truncated"
    env = SplendorEnv("classic", players=2, opponents=["greedy"], max_turns=None, reward="score")
    _obs, info = env.reset(seed=3)
    done = False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    scores = env.game.scores
    assert terminated and reward == scores[0] - scores[1]


def test_an_illegal_action_ends_the_episode_as_a_loss_and_says_why() -> None:
    env = SplendorEnv("classic")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False) and info["illegal"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_opponents_may_be_any_bot_or_a_function_and_bad_settings_are_clear_errors() -> None:
    seen: list[int] = []

    def first_legal(view: dict, legal: list[str]) -> str:
        seen.append(len(legal))
        return legal[0]

    env = SplendorEnv("pokemon", players=3, opponents=[first_legal, "ismcts:40"], max_turns=4)
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert seen
    for bad, match in (
        ({"opponents": ["nobody"]}, "unknown bot"),
        ({"players": 5}, "2 to 4 players"),
        ({"players": "2"}, "2 to 4 players"),
        ({"opponents": ["greedy", "greedy"]}, "need 1 opponents"),
        ({"reward": "fun"}, "reward"),
        ({"seat": 2}, "seat"),
    ):
        with pytest.raises(ValueError, match=match):
            SplendorEnv("classic", **bad)


def test_an_opponent_that_fails_forfeits_and_ends_the_episode_as_the_learners_win() -> None:
    """A function that answers with no legal action loses the game, as a bot does in the arena: before, the error
    left the episode going, and the learner's next action was played for the opponent's seat."""
    answers = 0

    def fails_at_its_third(view: dict, legal: list[str]) -> str:
        nonlocal answers
        answers += 1
        return legal[0] if answers < 3 else "take w w w"

    env = SplendorEnv("classic", players=2, opponents=[fails_at_its_third], max_turns=None)
    env.reset(seed=3)
    for _ in range(2):
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert (reward, terminated) == (0.0, False)
    _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["status"] == "forfeit" and info["forfeit"]["seat"] == 1 and "'take w w w'" in info["forfeit"]["reason"]
    assert not info["action_mask"].any()
    played = len(env.game.history)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert len(env.game.history) == played


def test_an_outside_opponent_that_forfeits_is_told_the_end_and_the_others_share_the_win(tmp_path: Path) -> None:
    program, log = telling_its_end(tmp_path, 'print(json.dumps({"type": "action", "action": "buy 9.9"}), flush=True)')
    env = SplendorEnv("classic", players=3, opponents=["greedy", f"cmd:{program}"], max_turns=None)
    env.reset(seed=1)
    while True:
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated:
            break
    assert info["forfeit"]["seat"] == 2 and info["forfeit"]["bot"] == f"cmd:{program}"
    assert reward == 0.0  # two winners: a shared victory
    end = json.loads(log.read_text())["result"]  # written by the program before it was stopped
    assert end["status"] == "forfeit" and end["winners"] == [0, 1]


@pytest.mark.parametrize("seat", [0, 1])
def test_an_opponent_that_cannot_start_is_refused_at_reset_and_the_env_never_plays_on(seat: int) -> None:
    """Started at its first decision, a mistyped program had forfeited in the learner's first step when the learner
    moved first: a free win every episode, nothing said."""
    env = SplendorEnv("classic", players=2, opponents=["cmd:/nonexistent/bot"], seat=seat)
    with pytest.raises(Forfeit, match="could not start"):
        env.reset(seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_a_functions_answer_written_well_but_illegal_now_forfeits_too() -> None:
    """ "buy 1.1" names an action of the game; unaffordable, it had been raised from step, the episode left broken."""

    def buys_what_it_cannot(view: dict, legal: list[str]) -> str:
        return "buy 3.1"

    env = SplendorEnv("classic", players=2, opponents=[buys_what_it_cannot], max_turns=None)
    env.reset(seed=3)
    _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert (reward, terminated) == (1.0, True) and "'buy 3.1'" in info["forfeit"]["reason"]
    assert info["forfeit"]["bot"] == "buys_what_it_cannot"  # a function by its name


def test_the_learners_illegal_action_ends_the_game_for_an_outside_opponent_too(tmp_path: Path) -> None:
    program, log = telling_its_end(
        tmp_path, 'print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)'
    )
    env = SplendorEnv("classic", players=2, opponents=[f"cmd:{program}"])
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert (reward, terminated) == (-1.0, True)
    end = json.loads(log.read_text())["result"]  # told at once, not at the next reset
    assert end["status"] == "forfeit" and end["winners"] == [1] and end["forfeit"]["seat"] == 0


def test_a_numpy_player_count_is_a_player_count_and_a_string_is_refused_in_words() -> None:
    assert SplendorEnv("classic", players=np.int64(3)).players == 3
    for make in (SplendorEnv, splendor.envs.pettingzoo_env):  # PettingZoo's had been a TypeError from a comparison
        with pytest.raises(ValueError, match="a game has 2 to 4 players, not '2'"):
            make("classic", players="2")


def test_one_opponent_spec_seats_every_opponent_in_both_kinds_of_environment() -> None:
    from splendor.envs.vector import VectorGames

    env = SplendorEnv("classic", players=4, opponents="random")
    assert env.opponent_specs == ["random"] * 3
    assert VectorGames("classic", num_envs=2, players=3, opponents="random").opponents == ("random", "random")


@pytest.mark.parametrize("env_id", ["splendor/Classic-v0", "splendor/ClassicCompiled-v0"])
def test_an_action_the_action_space_contains_is_played_and_a_bool_is_refused(env_id: str) -> None:
    """``model.predict(obs)[0]`` gives a NumPy array of no dimensions, which ``Discrete.contains`` accepts: the
    environments scored it a loss, the compiled one saying a legal action was illegal. ``True`` was action 1 in one
    and refused in the other."""
    env = gymnasium.make(env_id)
    _obs, info = env.reset(seed=1)
    chosen = np.array(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.action_space.contains(chosen)
    _obs, reward, terminated, _truncated, info = env.step(chosen)
    assert (reward, terminated) == (0.0, False) and "illegal" not in info
    _obs, reward, terminated, _truncated, info = env.step(True)
    assert (reward, terminated) == (-1.0, True) and "not True" in info["illegal"]


def test_a_learners_seat_drawn_each_game_works_in_the_single_environment_too() -> None:
    """``seat=None`` drew the learner's seat in the vectorised environments and failed with a TypeError in the
    single one (and so in ``make_vec``'s "sync" mode); the vectorised policies' names failed there too."""
    env = SplendorEnv("classic", players=3, seat=None, opponents=["playout", "buyfirst"])
    assert env.opponent_specs == ["policy:playout", "policy:buyfirst"]
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    first, again = env.reset(seed=5), env.reset(seed=5)
    assert first[1]["seat"] == again[1]["seat"] and np.array_equal(first[0], again[0])
    assert first[1]["view"]["viewer"] == first[1]["seat"]
    fixed = SplendorEnv("classic", players=3, seat=np.int64(2))
    assert fixed.seat == 2 and fixed.reset(seed=5)[1]["seat"] == 2
    with pytest.raises(ValueError, match="or None"):
        SplendorEnv("classic", players=3, seat=3)


def test_many_games_run_in_one_process_through_gymnasium_vector() -> None:
    envs = gymnasium.make_vec(ENV_IDS["classic"], num_envs=3, vectorization_mode="sync")
    obs, infos = envs.reset(seed=[1, 2, 3])
    assert obs.shape == (3, size("classic"))
    for _ in range(20):
        masks = infos["action_mask"]
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        obs, _rewards, _terminated, _truncated, infos = envs.step(actions)
    envs.close()


def test_the_observation_says_the_viewers_place_in_the_turn_order() -> None:
    """Two positions alike but for the learner's place in the turn order had the same vector, though reaching 15
    ends the game at once only for the round's last seat (ruling 2): a researcher's review."""
    from tests.market_positions import give_tokens

    first = splendor.new_game("classic", players=2, seed=1, first_player=0)
    give_tokens(first, 1, red=1, black=1, white=1)
    second = splendor.new_game("classic", players=2, seed=1, first_player=1)
    second.apply("take r k w")
    assert first.view(0)["seats"] == second.view(0)["seats"]
    assert observe(first.view(0))[-4:].tolist() == [1.0, 0.0, 0.0, 0.0]  # plays first: the other still plays
    assert observe(second.view(0))[-4:].tolist() == [0.0, 1.0, 0.0, 0.0]  # plays last: 15 ends the game now
    for game in GAMES:
        g = splendor.new_game(game, players=3, seed=4, first_player=2)
        for seat in range(3):
            assert np.flatnonzero(observe(g.view(seat))[-4:]).tolist() == [(seat - 2) % 3]
        assert np.flatnonzero(observe(g.view(None))[-4:]).tolist() == [1]  # a spectator's first seat written: 0


def test_the_layouts_fields_add_up_and_describe_every_value() -> None:
    for game in GAMES:
        fields = layout(game)
        assert sum(f.size for f in fields) == size(game)
        assert len({f.name for f in fields}) == len(fields) and all(f.meaning for f in fields)


def test_docs_rl_md_lists_every_field_of_every_layout() -> None:
    from pathlib import Path

    from splendor.envs.observe import grouped

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert f": {size(game)} values" in text
        for name, count, each, meaning in grouped(game):
            assert f"| `{name}` | {count} × {each} | {meaning} |" in text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pettingzoo_environment_passes_pettingzoos_own_tests(game: str, players: int) -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(splendor.envs.pettingzoo_env(game, players=players), num_cycles=40)
    seed_test(lambda: splendor.envs.pettingzoo_env(game, players=players), num_cycles=40)


def test_a_pettingzoo_game_plays_to_its_end_and_pays_each_agent_its_result() -> None:
    env = splendor.envs.pettingzoo_env("classic", players=3, max_turns=None)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() > 0 and all(
            env.observe(a)["action_mask"].sum() == 0 for a in env.possible_agents if a != agent
        )
        env.step(int(rng.choice(np.flatnonzero(mask))))
    game = env.unwrapped.game
    assert game.is_over and sorted(totals.values()) in ([-1.0, -1.0, 1.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    assert all(totals[f"player_{w}"] >= 0 for w in game.winners)


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_builds_the_same_index_from_its_view(game: str) -> None:
    state = _random_states(game, 2, seed=5, steps=30)[-1]
    from_game, from_view = ActionIndex(state), ActionIndex(state.view(state.current_player))
    legal = state.legal_actions()
    assert [from_view.index(a) for a in legal] == [from_game.index(a) for a in legal]
    assert np.array_equal(from_view.mask_of(legal), from_game.mask(state))


def test_a_learned_bot_without_its_model_or_its_libraries_is_a_clear_error(tmp_path) -> None:
    from splendor.bots import make_bot

    with pytest.raises(ValueError, match="learn extra|no trained model"):
        make_bot(f"ppo:{tmp_path / 'missing.zip'}")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("ppo")


def test_a_learned_bot_plays_a_legal_game(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")  # the learn extra (PyTorch) is not part of make test
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    from splendor.bots import decide, make_bot

    env = ActionMasker(SplendorEnv("classic", opponents=["random"], max_turns=20), lambda e: e.action_masks())
    MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=1, device="cpu").learn(64).save(tmp_path / "m.zip")
    bot = make_bot(f"ppo:{tmp_path / 'm.zip'}")
    g = splendor.new_game("classic", players=2, seed=3, max_turns=20)
    while not g.is_over:
        g.apply(decide(bot, g))
