"""The learned bot (issue 34, item 4): a policy file read and checked, the forward pass of NumPy alone, and the
shipped classic policy playing whole games by the rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import splendor
from splendor.bots.base import decide, make_bot
from splendor.bots.learned import (
    ACTION_COUNTS,
    OBSERVATION_SIZES,
    SHIPPED,
    Policy,
    load_policy,
    save_policy,
    shipped_policy,
)
from splendor.bots.learned_inputs import ACTION_FEATURES, features
from splendor.envs.actions import action_count
from splendor.envs.observe import size


def tiny(activation: str = "relu") -> Policy:
    """A network whose every output can be worked out by hand: two hidden units reading the first two values."""
    w0 = np.zeros((465, 2), dtype=np.float32)
    w0[0, 0], w0[1, 1] = 1.0, -2.0
    w1 = np.zeros((2, 77), dtype=np.float32)
    w1[0, 5], w1[1, 6] = 3.0, 1.0
    b1 = np.zeros(77, dtype=np.float32)
    b1[7] = 0.25
    return Policy("classic", activation, [w0, w1], [np.array([0.5, 0.5], dtype=np.float32), b1])


def test_the_forward_pass_is_the_one_worked_out_by_hand() -> None:
    x = np.zeros(465, dtype=np.float32)
    x[0], x[1] = 1.0, 0.5
    # hidden = act([1·1 + 0.5, 0.5·(−2) + 0.5]) = act([1.5, −0.5]); logit 5 = 3·h0, logit 6 = h1, logit 7 = 0.25
    expected = np.zeros(77, dtype=np.float32)
    expected[5], expected[6], expected[7] = 4.5, 0.0, 0.25
    assert np.allclose(tiny("relu").logits(x), expected)
    expected[5], expected[6] = 3 * np.tanh(1.5), np.tanh(-0.5)
    assert np.allclose(tiny("tanh").logits(x), expected)
    assert np.allclose(tiny().logits(np.stack([x, x])), tiny().logits(x)[None].repeat(2, axis=0))
    mask = np.ones(77, dtype=bool)
    assert tiny().act(x, mask) == 5
    mask[5] = False
    assert tiny().act(x, mask) == 7  # 4.5 is illegal; 0.25 beats the zeros
    mask[7] = False
    assert tiny().act(x, mask) == 0  # all zeros now: the lowest index among equals
    with pytest.raises(ValueError, match="no action is legal"):
        tiny().act(x, np.zeros(77, dtype=bool))


def test_a_policy_that_reads_the_mask_reads_it_after_the_observation() -> None:
    w0 = np.zeros((465 + 77, 1), dtype=np.float32)
    w0[465 + 9, 0] = 2.0  # the hidden unit is 2 when action 9 is legal
    w1 = np.zeros((1, 77), dtype=np.float32)
    w1[0, 30] = 1.0
    policy = Policy("classic", "relu", [w0, w1], [np.zeros(1), np.zeros(77)], inputs="observation+mask")
    mask = np.zeros(77, dtype=bool)
    mask[[9, 30]] = True
    assert policy.logits(np.zeros(465), mask)[30] == 2.0 and policy.act(np.zeros(465), mask) == 30
    mask[9] = False
    assert policy.logits(np.zeros(465), mask)[30] == 0.0
    with pytest.raises(ValueError, match="reads the legal mask"):
        policy.logits(np.zeros(465))
    with pytest.raises(ValueError, match="must read 546 values"):  # 469 + 77 (or 465 + 77, layout 1)
        Policy("classic", "relu", [np.zeros((465, 77))], [np.zeros(77)], inputs="observation+mask")


def test_a_policy_trained_before_the_turn_order_reads_the_observation_without_it() -> None:
    """Observation layout 2 added the turn order as its last field: a policy trained on layout 1 (465 values in
    classic, as the shipped one) plays on the first values alone, and one trained on layout 2 reads the order."""
    rng = np.random.default_rng(3)
    x = rng.random(469).astype(np.float32)
    moved = x.copy()
    moved[-4:] = [0.0, 0.0, 1.0, 0.0]  # another place in the turn order
    old = Policy("classic", "relu", [rng.random((465, 77))], [np.zeros(77)])
    assert old.observation_size == 465 and np.array_equal(old.logits(x), old.logits(moved))
    new = Policy("classic", "relu", [rng.random((469, 77))], [np.zeros(77)])
    assert new.observation_size == 469 and not np.array_equal(new.logits(x), new.logits(moved))
    assert shipped_policy("classic").observation_size == 465


def with_scorer() -> Policy:
    """`tiny` with a scorer that adds 3 to the logit of every buy: 2 × the feature "buys", then × 1.5."""
    w0 = np.zeros((len(ACTION_FEATURES), 1), dtype=np.float32)
    w0[ACTION_FEATURES.index("buys"), 0] = 2.0
    base = tiny()
    return Policy(
        "classic",
        "relu",
        base.weights,
        base.biases,
        "observation",
        [w0, np.full((1, 1), 1.5)],
        [np.zeros(1), np.zeros(1)],
    )


def test_the_scorer_adds_its_score_of_each_action_to_that_actions_logit() -> None:
    x = np.zeros(465, dtype=np.float32)
    x[0], x[1] = 1.0, 0.5
    expected = tiny().logits(x)
    expected[45:60] += 3.0  # the buys, the face-up cards' and the reserved ones'
    assert np.allclose(with_scorer().logits(x), expected)
    assert np.allclose(with_scorer().logits(np.stack([x, x])), expected[None].repeat(2, axis=0))
    mask = np.zeros(77, dtype=bool)
    mask[[7, 50]] = True
    assert tiny().act(x, mask) == 7 and with_scorer().act(x, mask) == 50  # 0.25 against 0, then against 0 + 3
    mask[[5, 7]] = [True, False]
    assert with_scorer().act(x, mask) == 5  # 4.5 against 3


def test_a_scorer_is_written_read_back_and_refused_where_it_cannot_be(tmp_path: Path) -> None:
    save_policy(with_scorer(), tmp_path / "scored.npz")
    back = load_policy(tmp_path / "scored.npz", "classic")
    assert back.scorer_shapes == [(len(ACTION_FEATURES), 1), (1, 1)]
    x = np.random.default_rng(2).random((4, 465), dtype=np.float32)
    assert np.array_equal(back.logits(x), with_scorer().logits(x))
    with np.load(tmp_path / "scored.npz") as data:
        arrays = dict(data)
    np.savez(tmp_path / "old.npz", **{**arrays, "format": np.array(1)})
    with pytest.raises(ValueError, match="format 1, which has no scorer, yet it holds one"):
        load_policy(tmp_path / "old.npz")
    np.savez(tmp_path / "unshaped.npz", **{k: v for k, v in arrays.items() if k != "scorer_shapes"})
    with pytest.raises(ValueError, match="holds a scorer's layers but not their scorer_shapes"):
        load_policy(tmp_path / "unshaped.npz")
    del arrays["scorer_bias_1"]
    np.savez(tmp_path / "lacking.npz", **arrays)
    with pytest.raises(ValueError, match="declares 2 scorer_layers but lacks scorer_layer 1"):
        load_policy(tmp_path / "lacking.npz")
    base = tiny()
    with pytest.raises(ValueError, match=f"scorer layer 0 .* must read {len(ACTION_FEATURES)} values"):
        Policy("classic", "relu", base.weights, base.biases, "observation", [np.zeros((3, 1))], [np.zeros(1)])
    with pytest.raises(ValueError, match="the last scorer layer writes 2 values, but it scores one value"):
        Policy("classic", "relu", base.weights, base.biases, "observation", [np.zeros((26, 2))], [np.zeros(2)])
    with pytest.raises(ValueError, match="both weights and biases"):
        Policy("classic", "relu", base.weights, base.biases, "observation", [np.zeros((26, 1))], None)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="read from classic's observation alone"):
        Policy(
            "pokemon",
            "relu",
            [rng.random((1064, 525))],
            [np.zeros(525)],
            "observation",
            [np.zeros((26, 1))],
            [np.zeros(1)],
        )


def test_a_policy_file_reads_back_as_written(tmp_path: Path) -> None:
    save_policy(tiny("tanh"), tmp_path / "p.npz")
    back = load_policy(tmp_path / "p.npz", "classic")
    assert back.game == "classic" and back.activation == "tanh" and back.shapes == [(465, 2), (2, 77)]
    x = np.random.default_rng(1).random((5, 465), dtype=np.float32)
    assert np.array_equal(back.logits(x), tiny("tanh").logits(x))


def test_the_sizes_written_beside_the_bots_are_the_environments(tmp_path: Path) -> None:
    for game in ("classic", "pokemon", "kids"):
        assert OBSERVATION_SIZES[game] == size(game) and ACTION_COUNTS[game] == action_count(game)


def test_a_missing_or_wrong_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no learned policy at"):
        make_bot(f"learned:{tmp_path / 'missing.npz'}")
    (tmp_path / "text.npz").write_text("not a policy")
    with pytest.raises(ValueError, match="is not a policy file"):
        load_policy(tmp_path / "text.npz")
    np.savez(tmp_path / "bare.npz", weight_0=np.zeros((465, 77)))
    with pytest.raises(ValueError, match="lacks format, game, inputs, activation, shapes"):
        load_policy(tmp_path / "bare.npz")

    rng = np.random.default_rng(0)
    pokemon = Policy("pokemon", "relu", [rng.random((1064, 4)), rng.random((4, 525))], [np.zeros(4), np.zeros(525)])
    save_policy(pokemon, tmp_path / "pokemon.npz")
    with pytest.raises(ValueError, match="trained on pokemon, not classic"):
        load_policy(tmp_path / "pokemon.npz", "classic")
    bot = make_bot(f"learned:{tmp_path / 'pokemon.npz'}")
    game = splendor.new_game("classic", players=2, seed=1)
    with pytest.raises(ValueError, match="trained on pokemon, not classic"):
        decide(bot, game)

    save_policy(tiny(), tmp_path / "shapes.npz")
    with np.load(tmp_path / "shapes.npz") as data:
        arrays = dict(data)
    arrays["weight_1"] = np.zeros((3, 77), dtype=np.float32)
    np.savez(tmp_path / "shapes.npz", **arrays)
    with pytest.raises(ValueError, match=r"layer 1 has weight \(3, 77\)"):
        load_policy(tmp_path / "shapes.npz")
    arrays["format"] = np.array(3)
    np.savez(tmp_path / "format.npz", **arrays)
    with pytest.raises(ValueError, match="format 3; this version reads formats 1, 2"):
        load_policy(tmp_path / "format.npz")
    np.savez(tmp_path / "format.npz", **{**arrays, "format": np.array(2.7)})
    with pytest.raises(ValueError, match="format 2.7; this version reads"):
        load_policy(tmp_path / "format.npz")
    good = (tmp_path / "shapes.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(good[: len(good) // 2])
    with pytest.raises(ValueError, match="is not a policy file"):
        load_policy(tmp_path / "cut.npz")
    np.save(tmp_path / "one.npy", np.zeros(3))
    (tmp_path / "one.npy").rename(tmp_path / "one.npz")
    with pytest.raises(ValueError, match="holds one array, not the named arrays"):
        load_policy(tmp_path / "one.npz")
    with pytest.raises(ValueError, match="must read 469 values"):
        Policy("classic", "relu", [np.zeros((400, 77))], [np.zeros(77)])
    with pytest.raises(ValueError, match="writes 70 values, but classic has 77 actions"):
        Policy("classic", "relu", [np.zeros((465, 70))], [np.zeros(70)])
    with pytest.raises(ValueError, match="activation is one of"):
        Policy("classic", "sigmoid", [np.zeros((465, 77))], [np.zeros(77)])


def test_only_the_games_with_a_shipped_policy_have_one() -> None:
    assert SHIPPED["classic"].is_file() and SHIPPED["classic"].stat().st_size < 5_000_000
    policy = shipped_policy("classic")
    reads = features(policy.inputs, np.zeros(465), np.zeros(77))
    assert policy.shapes[0][0] == reads.shape[0] >= 465 and policy.shapes[-1][1] == 77
    with pytest.raises(ValueError, match="no learned policy is shipped for pokemon"):
        decide(make_bot("learned"), splendor.new_game("pokemon", players=2, seed=1))


@pytest.mark.parametrize("seed", [3, 4])
def test_the_shipped_policy_plays_a_whole_game_against_the_greedy_bot_by_the_rules(seed: int) -> None:
    game = splendor.new_game("classic", players=2, seed=seed, max_turns=200)
    learned, greedy = make_bot("learned"), make_bot("greedy", seed=seed)
    bots = [learned, greedy] if seed % 2 else [greedy, learned]  # the learned bot in either seat
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(decide(bots[seat], game))  # decide refuses an action that is not legal
    assert game.is_over and len(game.history) > 20
    again = splendor.new_game("classic", players=2, seed=seed, max_turns=200)
    for action in game.history:  # the same moves from the same position: the policy draws nothing
        seat = again.current_player
        assert seat is not None
        if bots[seat] is learned:
            assert decide(bots[seat], again) == action
        again.apply(action)
