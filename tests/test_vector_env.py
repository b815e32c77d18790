"""The vectorised environments are the reference rules, exactly: every mask, observation, reward, ending and new
deal a `VectorGames` returns is checked against the reference engine played beside it (self-play, where each
step is one action the reference can follow), and the opponents' steps against the reference state they leave.
Plus the environment's own contract: seeds replay, illegal actions end the game as a loss, the turn cap
truncates, bad settings are refused, and the Gymnasium faces pass Gymnasium's checks."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import splendor
import splendor.envs
from splendor.arena.match import Match, play_match
from splendor.bots.base import decision_for, make_bot
from splendor.bots.greedy import MarketPlanner
from splendor.compiled import from_reference
from splendor.compiled import market as m
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import observe
from splendor.envs.result import outcome
from splendor.envs.vector import VectorGames
from splendor.envs.vector.gymnasium_vector import CompiledSplendorEnv, SplendorVectorEnv
from splendor.search.greedy_compiled import greedy_action

GAMES = ["classic", "pokemon", "kids"]


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action in each row."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def progressing(references: list[splendor.Game], masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A buy (Pokémon: a catch; Kids: a move) when there is one and a coin says so, else a random legal action:
    games that end by their rules, not only at the turn cap."""
    actions = pick(masks, rng)
    for i, ref in enumerate(references):
        index = ActionIndex(ref)
        ahead = [
            a for a in np.flatnonzero(masks[i]) if index.action(int(a)).text.split()[0] in ("buy", "catch", "move")
        ]
        if ahead and rng.random() < 0.8:
            actions[i] = rng.choice(ahead)
    return actions


def same_state(env: VectorGames, i: int, reference: splendor.Game) -> bool:
    return bool(env.reference_game(i)._state() == reference._state())


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_self_play_is_the_reference_rules_step_by_step(game: str, players: int) -> None:
    """Mask, observation, reward, termination, truncation and the next deal, at every step, equal the reference's."""
    env = VectorGames(game, num_envs=2, players=players, opponents="self", max_turns=40 * players)
    obs, info = env.reset(seed=players)
    references = [env.reference_game(i) for i in range(2)]
    rng = np.random.default_rng(players)
    endings = set()
    for _ in range(300):
        for i, ref in enumerate(references):
            seat = ref.current_player
            assert info["seat"][i] == seat
            assert np.array_equal(info["action_mask"][i], ActionIndex(ref).mask(ref))
            assert np.array_equal(obs[i], observe(ref.view(seat)))
        actions = progressing(references, info["action_mask"], rng)
        movers, seeds = info["seat"].copy(), info["game_seed"].copy()
        for i, ref in enumerate(references):
            ref.apply(ActionIndex(ref).action(int(actions[i])))
        obs, reward, terminated, truncated, info = env.step(actions)
        for i, ref in enumerate(references):
            mover = int(movers[i])
            assert not info["illegal"][i]
            if not ref.is_over:
                assert same_state(env, i, ref) and reward[i] == 0 and not terminated[i] and not truncated[i]
                assert info["final_seat"][i] == -1 and info["final_game_seed"][i] == -1
                continue
            assert info["final_seat"][i] == mover and info["final_game_seed"][i] == seeds[i]  # the ended game's
            endings.add(ref.status)
            assert reward[i] == outcome(ref, mover)
            assert info["final_rewards"][i].tolist() == [outcome(ref, p) for p in range(players)]
            assert bool(truncated[i]) == (ref.status == "truncated") and bool(terminated[i]) != bool(truncated[i])
            assert info["_final_obs"][i] and np.array_equal(info["final_obs"][i], observe(ref.view(mover)))
            options = {k: v for k, v in ref.options.items() if k in ("short", "mysteries")}
            dealt = splendor.new_game(
                game, players=players, seed=int(info["game_seed"][i]), max_turns=ref.options["max_turns"], **options
            )
            assert same_state(env, i, dealt)
            references[i] = dealt
    assert endings & {"won", "shared"}


OPPONENT_GAMES = [(g, o) for o in ("random", "buyfirst", "playout") for g in GAMES] + [("classic", "greedy")]


@pytest.mark.parametrize(("game", "opponent"), OPPONENT_GAMES)
def test_opponents_play_until_the_learner_decides(game: str, opponent: str) -> None:
    """After each step it is the learner's decision, in a state the reference engine agrees on (its mask and its
    observation); a game's result is the learner's."""
    env = VectorGames(game, num_envs=8, players=3, opponents=(opponent, opponent), seat=None, max_turns=60)
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(1)
    seats = set()
    for _ in range(40):
        for i in range(8):
            ref = env.reference_game(i)
            seat = int(info["seat"][i])
            seats.add(seat)
            assert ref.current_player == seat
            assert np.array_equal(info["action_mask"][i], ActionIndex(ref).mask(ref))
            assert np.array_equal(obs[i], observe(ref.view(seat)))
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
        assert set(reward[terminated | truncated].tolist()) <= {-1.0, 0.0, 1.0}
        assert not reward[~(terminated | truncated)].any()
        ended = terminated | truncated
        assert not info["final_rewards"][~ended].any()
        assert all(reward[i] in info["final_rewards"][i] for i in np.flatnonzero(ended))
    assert seats == {0, 1, 2}


@pytest.mark.parametrize("game", GAMES)
def test_a_seed_replays_the_same_games(game: str) -> None:
    runs = []
    for seed in (5, 5, 6):
        env = VectorGames(game, num_envs=3, opponents=("playout",), seat=None)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = [obs.copy()]
        for _ in range(40):
            obs, _reward, *_ = env.step(
                info["action_mask"].argmax(axis=1)
                if rng.random() < 0.5
                else pick(info["action_mask"], np.random.default_rng(len(seen)))
            )
            seen.append(obs.copy())
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])


def test_different_seeds_deal_different_games() -> None:
    """Each seed's streams are its own: neighbouring seeds share no game (not merely a shifted one)."""
    dealt = []
    for seed in range(4):
        env = VectorGames("classic", num_envs=8, opponents="self")
        _obs, info = env.reset(seed=seed)
        dealt.append(set(info["game_seed"].tolist()))
    assert all(not (dealt[a] & dealt[b]) for a in range(4) for b in range(a + 1, 4))


def test_the_opponents_may_be_named_as_bot_specs_and_numpy_integers_are_whole_numbers() -> None:
    env = VectorGames("classic", num_envs=np.int64(2), seat=np.int64(1), opponents=("policy:buyfirst",))
    assert env.num_envs == 2 and env.seat == 1
    with pytest.raises(ValueError, match="vectorization_mode='sync'"):
        VectorGames("classic", opponents=("ismcts:hard",))


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_ends_the_game_as_a_loss(game: str) -> None:
    """As the single environment: reward -1, terminated, the state untouched (its observation is the final one),
    and a new game dealt; the other games go on."""
    env = VectorGames(game, num_envs=2, opponents=("random",))
    obs, info = env.reset(seed=3)
    before = obs[0].copy()
    illegal = int(np.flatnonzero(~info["action_mask"][0])[0])
    seeds = info["game_seed"].copy()
    for wrong in (illegal, -1, env.num_actions, 10**12):
        actions = np.array([wrong, int(np.flatnonzero(info["action_mask"][1])[0])], dtype=np.int64)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert info["illegal"].tolist() == [True, False] and reward[0] == -1.0 and terminated[0] and not truncated[0]
        assert np.array_equal(info["final_obs"][0], before) and info["game_seed"][0] != seeds[0]
        assert info["final_game_seed"].tolist() == [seeds[0], -1] and info["final_seat"].tolist() == [0, -1]
        before, seeds = obs[0].copy(), info["game_seed"].copy()
    _obs, info = env.reset(seed=3)  # after a step that ended a game: no game has ended since the deal
    assert info["final_seat"].tolist() == info["final_game_seed"].tolist() == [-1, -1]


def test_the_turn_cap_truncates_with_no_winner() -> None:
    env = VectorGames("classic", num_envs=4, opponents=("random",), max_turns=2)
    _obs, info = env.reset(seed=1)
    _obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax(axis=1))
    assert truncated.all() and not terminated.any() and not reward.any()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"num_envs": 0}, "num_envs"),
        ({"players": 5}, "2 to 4 players"),
        ({"seat": 2}, "seat is 0 to 1"),
        ({"opponents": ("expert",)}, "opponent of the vectorised environments is one of"),
        ({"game": "pokemon", "opponents": ("greedy",)}, "greedy policy plays classic only, not pokemon"),
        ({"game": "kids", "opponents": ("policy:greedy",)}, "greedy policy plays classic only, not kids"),
        ({"opponents": ("random", "random")}, "need 1 opponents"),
        ({"reward": "points"}, "reward is one of"),
        ({"max_turns": 1}, "max_turns"),
        ({"short": True}, "Kids' options"),
    ],
)
def test_bad_settings_are_refused_clearly(settings: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VectorGames(**settings)


def test_steps_before_reset_and_malformed_actions_are_refused() -> None:
    env = VectorGames("classic", num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    for bad in (np.zeros(3, dtype=np.int64), np.zeros(2, dtype=float), [[0, 0]]):
        with pytest.raises(ValueError, match="one whole-number action"):
            env.step(bad)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_makes_the_vector_environment(game: str) -> None:
    env_id = splendor.envs.ENV_IDS[game]
    env = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", opponents=["buyfirst"])
    assert isinstance(env.unwrapped, SplendorVectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=2)
    again, _ = env.reset(seed=2)
    assert np.array_equal(obs, again) and env.observation_space.contains(obs)
    for _ in range(30):
        actions = info["action_mask"].argmax(axis=1)
        assert env.action_space.contains(actions)
        kept = obs
        obs, reward, terminated, truncated, info = env.step(actions)
        assert obs is not kept and env.observation_space.contains(obs)  # copies: a learner may keep them
        assert reward.shape == terminated.shape == truncated.shape == (3,)


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_single_environment_passes_check_env(game: str) -> None:
    env = gymnasium.make(splendor.envs.ENV_IDS[game].replace("-v0", "Compiled-v0"))
    assert isinstance(env.unwrapped, CompiledSplendorEnv)
    check_env(env.unwrapped, skip_render_check=True)
    _obs, info = env.reset(seed=0)
    done, steps = False, 0
    while not done:
        _obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done, steps = terminated or truncated, steps + 1
    assert reward in (-1.0, 0.0, 1.0) and steps > 3
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _obs, info = env.reset(seed=1)
    mid, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    fresh, _ = env.reset()  # an unfinished game is not continued: a new one is dealt
    assert not np.array_equal(fresh, mid)
    _, reward, terminated, _, info = env.step(0.9)  # not a whole number: refused as the single environment does
    assert terminated and reward == -1.0 and "illegal" in info


def test_the_single_environment_reports_the_ended_games_seat_not_the_next_ones() -> None:
    """With the learner's seat drawn each game, the last step's ``seat`` is the seat of the game that ended (whose
    observation and reward it returns), though the next game, dealt in the same step, may seat it elsewhere."""
    env = CompiledSplendorEnv("classic", players=4, seat=None, opponents=("random",) * 3, max_turns=8)
    seats = set()
    for episode in range(12):
        _obs, info = env.reset(seed=episode) if episode == 0 else env.reset()
        seat, done = info["seat"], False
        while not done:
            _obs, _reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            assert info["seat"] == seat
            done = terminated or truncated
        seats.add(seat)
    assert len(seats) > 1


@pytest.mark.parametrize(("game", "policy"), OPPONENT_GAMES)
def test_the_opponents_sit_in_the_arena_as_bots(game: str, policy: str) -> None:
    """The vectorised environments' opponents are bots too (``policy:NAME``), to be measured against any other."""
    match = Match(0, game, 2, 3, (f"policy:{policy}", "greedy"), (1, 2), options={"max_turns": 200})
    result = play_match(match)
    assert result.forfeit is None and result.status in ("won", "shared", "truncated", "stalled")
    assert make_bot(f"policy:{policy}").name == f"policy:{policy}"


def test_the_greedy_policy_bot_refuses_a_game_it_does_not_play() -> None:
    bot = make_bot("policy:greedy")
    for game in ("pokemon", "kids"):
        with pytest.raises(ValueError, match=f"greedy policy plays classic only, not {game}"):
            bot.choose(decision_for(splendor.new_game(game, players=2, seed=1)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_greedy_plays_what_the_greedy_bot_could_play(players: int) -> None:
    """At every decision of whole games, the compiled greedy opponent's action is one of those the reference greedy
    bot scores best (it breaks their ties at random): the opponent a learner trains against is the bot it is
    measured against."""
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    stream = np.array([players], dtype=np.uint64)
    rng = np.random.default_rng(players)
    decisions = ties = 0
    for seed in range(4):
        game = splendor.new_game("classic", players=players, seed=seed, max_turns=120)
        while not game.is_over:
            decision = decision_for(game)
            planner = MarketPlanner(decision)
            scores = {a.index: planner.score(a) for a in decision.legal}
            top = max(scores.values())
            best = {a for a, s in scores.items() if abs(s - top) <= 1e-9}
            state = from_reference(game).state
            count = m.legal_mask_into(state, mask)
            played = greedy_action(state, mask, count, stream)
            assert played in best, f"seed {seed}, decision {decisions}: {played} is not among {sorted(best)}"
            decisions += 1
            ties += len(best) > 1
            # mostly the greedy bot's own games, with some other moves for positions it would not reach
            legal = {a.index: a for a in decision.legal}
            game.apply(legal[played] if rng.random() < 0.8 else legal[int(rng.choice(list(legal)))])
    assert decisions > 200 and ties > 0


def test_the_greedy_opponent_beats_a_random_learner() -> None:
    """The opponent named ``greedy`` is the greedy bot's play, not a random one's: a random learner, which wins
    about half its games against the random opponent, almost never wins against it."""
    results = []
    for opponent in ("random", "greedy"):
        env = VectorGames("classic", num_envs=32, opponents=(opponent,), seat=None)
        _, info = env.reset(seed=3)
        rng = np.random.default_rng(3)
        ended = np.zeros(32, dtype=bool)
        wins = np.zeros(32)
        while not ended.all():
            _, reward, terminated, truncated, info = env.step(pick(info["action_mask"], rng))
            first = (terminated | truncated) & ~ended
            wins[first] = reward[first] == 1.0
            ended |= first
        results.append(wins.sum())
    assert results[0] >= 8 and results[1] <= 2, results


def test_policy_actions_are_the_teachers_choices_and_leave_the_games_as_they_are() -> None:
    """``policy_actions("greedy")`` gives each game the action the greedy bot could play there (a teacher's labels
    for imitation), from a stream of its own: asking leaves the games' deals and next steps unchanged."""
    asked, plain = (VectorGames("classic", num_envs=6, opponents=("greedy",), seat=None) for _ in range(2))
    _, info = asked.reset(seed=5)
    plain.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        labels = asked.policy_actions("greedy")
        for i in range(6):
            decision = decision_for(asked.reference_game(i))
            planner = MarketPlanner(decision)
            scores = {a.index: planner.score(a) for a in decision.legal}
            top = max(scores.values())
            assert len(decision.legal) == 1 or abs(scores[int(labels[i])] - top) <= 1e-9
        actions = pick(info["action_mask"], rng)
        obs, *_, info = asked.step(actions)
        assert np.array_equal(obs, plain.step(actions)[0])
    with pytest.raises(ValueError, match="card-market games"):
        VectorGames("kids").policy_actions()
    with pytest.raises(RuntimeError, match="reset"):
        VectorGames("classic").policy_actions()
