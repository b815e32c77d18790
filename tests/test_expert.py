"""The expert level: its learned evaluation's features, the training that fits it, the shipped weights, and the
level as bots, hints and the command line use it."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import splendor
import splendor.compiled as compiled
from splendor.bots import decision_for, make_bot
from splendor.bots.hint import HINT_LEVEL, hint
from splendor.bots.search import SearchBot
from splendor.search.learning import features as mv
from splendor.search.learning import training
from splendor.search.learning.training import learned_weights
from splendor.search.levels import LEVEL_NAMES, LEVELS
from tests.market_positions import give_card, give_reserved, give_tokens
from tests.playouts import playout, random_game


def features(game: splendor.Game, seat: int) -> dict[str, float]:
    out = np.zeros(mv.FEATURE_COUNT)
    mv.features_into(compiled.from_reference(game).state, seat, out)
    return dict(zip(mv.FEATURES, out.tolist()))


def test_the_features_say_what_a_seat_has() -> None:
    g = splendor.new_game("classic", players=2, seed=3)
    cheap = next(c.id for c in g.cards if c.row == 0 and c.points == 1)  # type: ignore[attr-defined]
    dear = next(c.id for c in g.cards if c.row == 2 and c.points == 5)  # type: ignore[attr-defined]
    give_card(g, 0, cheap)  # type: ignore[arg-type]
    give_reserved(g, 0, dear)  # type: ignore[arg-type]
    give_tokens(g, 0, white=2, gold=1)  # type: ignore[arg-type]
    f0, f1 = features(g, 0), features(g, 1)
    assert (f0["points"], f0["bonuses"], f0["bonus_breadth"]) == (1, 1, 1)
    assert (f0["tokens"], f0["wild"], f0["reserved"]) == (2, 1, 1)
    card, bon, tok = g.cards[dear], g.bonuses[0], g.tokens[0]  # type: ignore[attr-defined]
    short = max(0, sum(max(0, card.cost[c] - bon[c] - tok[c]) for c in range(5)) - tok[5])
    assert f0["near_reserved"] == pytest.approx((card.points + 1) / (1 + short))
    assert f0["to_move"] == 1 and f1["to_move"] == 0
    assert (f1["points"], f1["bonuses"], f1["reserved"], f1["near_reserved"]) == (0, 0, 0, 0)
    assert f0["goals"] >= f1["goals"] > 0  # the nobles on display


def test_a_pokemon_near_its_visible_evolution_is_a_goal() -> None:
    g = splendor.new_game("pokemon", players=2, seed=3)
    cards = g.cards  # type: ignore[attr-defined]
    src = next(c for c in cards if c.row == 0 and c.evolves_to and c.evolve_count == 3)
    into = next(c for c in cards if c.name == src.evolves_to)
    helper = next(c for c in cards if not c.evolves_to and c.bonus == src.evolve_bonus and c.bonus_count == 1)
    give_card(g, 0, src.id)  # type: ignore[arg-type]
    give_card(g, 0, helper.id)  # type: ignore[arg-type]
    lack = src.evolve_count - g.bonuses[0][src.evolve_bonus]  # type: ignore[attr-defined]
    assert lack > 0
    rows, decks = g.rows, g.decks  # type: ignore[attr-defined]
    for r, row in enumerate(rows):  # every card of its evolution into a deck
        for slot, cid in enumerate(row):
            if cid >= 0 and cards[cid].name == into.name:
                other = next(i for i, d in enumerate(decks[r]) if cards[d].name != into.name)
                row[slot], decks[r][other] = decks[r][other], cid
    assert features(g, 0)["goals"] == 0  # its evolution is out of sight
    give_reserved(g, 0, into.id)  # type: ignore[arg-type]
    gain = into.points - src.points
    assert features(g, 0)["goals"] == pytest.approx(gain / (1 + lack))
    assert features(g, 1)["goals"] == 0  # not the other seat's Pokémon


@pytest.mark.parametrize("name", ["classic", "pokemon"])
def test_a_card_the_seat_can_buy_counts_its_points_as_ready(name: str) -> None:
    for seed in range(4):
        for g in playout(random_game(name, 2, seed), random.Random(seed)):
            if g.is_over or g.phase != 0:  # type: ignore[attr-defined]
                continue
            seat = g.current_player
            buys = [a for a in g.legal_actions() if a.kind in ("buy", "buy_reserved")]
            best = max(
                (
                    g.cards[
                        g.rows[a.args[0]][a.args[1]]
                        if a.kind == "buy"  # type: ignore[attr-defined]
                        else g.reserved[seat][a.args[0]]
                    ].points
                    for a in buys
                ),
                default=0,
            )  # type: ignore[attr-defined]
            assert features(g, seat)["ready_points"] == best  # type: ignore[arg-type]


def test_the_learned_progress_is_the_weighted_sum_early_and_late() -> None:
    g = splendor.new_game("classic", players=2, seed=1)
    g.apply("take w b g")
    state = compiled.from_reference(g).state
    weights = np.zeros((2, mv.FEATURE_COUNT))
    weights[0, mv.FEATURES.index("tokens")] = 2.0
    weights[1, mv.FEATURES.index("tokens")] = 100.0  # stage 0: nobody has points yet
    assert mv.learned_progress(state, 0, weights, np.zeros(mv.FEATURE_COUNT)) == pytest.approx(6.0)
    assert mv.stage(state) == 0.0


def test_the_fit_recovers_a_known_evaluation() -> None:
    rng = np.random.default_rng(1)
    truth = rng.normal(size=(2, mv.FEATURE_COUNT))
    data = training.Positions()
    for _ in range(4000):
        a, b = rng.normal(size=mv.FEATURE_COUNT), rng.normal(size=mv.FEATURE_COUNT)
        t = float(rng.random())
        z = float(((truth[0] + truth[1] * t) * (a - b)).sum())
        won = float(rng.random() < 1 / (1 + np.exp(-z)))
        data.add(np.array([a, b]), t, np.array([won, 1 - won]))
    fitted = training.fit(data, l2=0.1)
    assert np.corrcoef(fitted.ravel(), truth.ravel())[0, 1] > 0.95
    assert training.log_loss(data, fitted) < training.log_loss(data, np.zeros_like(fitted)) - 0.2


def seats_drawn(rng: np.random.Generator, truth: np.ndarray, players: int) -> tuple[np.ndarray, float, np.ndarray]:
    """A position of ``players`` seats with random features, and the seat that wins it drawn by the softmax of
    their progress under ``truth`` (one-hot)."""
    seats, t = rng.normal(size=(players, mv.FEATURE_COUNT)), float(rng.random())
    z = (seats * (truth[0] + truth[1] * t)).sum(axis=1)
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    return seats, t, np.eye(players)[rng.choice(players, p=p)]


@pytest.mark.parametrize("players", [3, 4])
def test_the_fit_of_three_or_four_seats_recovers_each_seats_share_of_the_win(players: int) -> None:
    rng = np.random.default_rng(2)
    truth = rng.normal(size=(2, mv.FEATURE_COUNT))
    data = training.Positions()
    for _ in range(5000):
        data.add(*seats_drawn(rng, truth, players))
    fitted = training.fit(data, l2=0.1)
    assert np.corrcoef(fitted.ravel(), truth.ravel())[0, 1] > 0.95
    assert training.log_loss(data, np.zeros_like(fitted)) == pytest.approx(np.log(players))
    assert training.log_loss(data, fitted) < np.log(players) - 0.3


def test_with_two_seats_the_share_of_the_win_is_the_logistic_of_the_lead() -> None:
    """The softmax over two seats is the logistic of their difference: fitted either way, the same weights."""
    rng = np.random.default_rng(3)
    truth = rng.normal(size=(2, mv.FEATURE_COUNT))
    data = training.Positions()
    for _ in range(2000):
        data.add(*seats_drawn(rng, truth, 2))
    seats, t = np.array(data.seats), np.array(data.stages)[:, None, None]
    shares = training._fit_shares(np.concatenate([seats, seats * t], axis=2), np.array(data.labels), 1.0, 30)
    np.testing.assert_allclose(shares, training.fit(data), atol=1e-9)


def test_positions_of_different_player_counts_are_not_fitted_together() -> None:
    data = training.Positions()
    data.add(np.zeros((2, mv.FEATURE_COUNT)), 0.0, np.array([1.0, 0.0]))
    data.add(np.zeros((3, mv.FEATURE_COUNT)), 0.0, np.array([1.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match="one player count"):
        training.fit(data)


def test_self_play_is_a_pure_function_of_its_seed() -> None:
    searcher = {"iterations": 30, "depth": 4}
    first, second = training.Positions(), training.Positions()
    assert training.play("classic", 5, (searcher, searcher), 2, first) == training.play(
        "classic", 5, (searcher, searcher), 2, second
    )
    assert len(first) > 10 and np.array_equal(np.array(first.seats), np.array(second.seats))
    labels = {tuple(label) for label in first.labels}
    assert len(labels) == 1 and labels <= {(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)}


def test_self_play_of_four_labels_every_position_with_every_seats_share() -> None:
    searcher = {"iterations": 20, "depth": 4, "shares": True}
    record = training.Positions()
    shares = training.play("classic", 6, (searcher,) * 4, 1, record)
    assert len(shares) == 4 and sum(shares) == pytest.approx(1.0)
    assert record.players == 4 and len(record) > 20
    assert all(np.array_equal(label, shares) for label in record.labels)
    assert {float(seats[:, mv.FEATURES.index("to_move")].sum()) for seats in record.seats} == {1.0}


def test_a_match_of_four_seats_the_searcher_in_every_seat_of_every_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[tuple[int, tuple[str, ...]]] = []

    def fake(game: str, seed: int, searchers: tuple[dict[str, str], ...], *args: object) -> list[float]:
        played.append((seed, tuple(s["name"] for s in searchers)))
        return [1.0 if s["name"] == "a" else 0.0 for s in searchers]

    monkeypatch.setattr(training, "play", fake)
    assert training.match("classic", {"name": "a"}, {"name": "b"}, 8, 1, players=4) == 1.0
    deals = sorted({seed for seed, _ in played})
    assert len(deals) == 2 and len(played) == 8
    for deal in deals:
        lone = sorted(seats.index("a") for seed, seats in played if seed == deal)
        assert lone == [0, 1, 2, 3]
    assert all(seats.count("a") == 1 for _, seats in played)


@pytest.mark.parametrize("name", ["classic", "pokemon"])
def test_the_shipped_weights_load_and_belong_to_these_features(name: str) -> None:
    weights = training.load_weights(name)
    assert weights is not None and weights.shape == (2, mv.FEATURE_COUNT)
    data = json.loads((training.WEIGHTS_DIR / f"{name}.json").read_text())
    assert data["game"] == name and data["players"] == 2 and data["curve"] and data["trained"]["seed"] == 1
    assert learned_weights(name) is learned_weights(name)  # loaded once


def test_weights_of_other_features_or_shapes_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(training, "WEIGHTS_DIR", tmp_path)
    assert training.load_weights("classic") is None
    (tmp_path / "classic.json").write_text(json.dumps({"features": ["points"], "weights": [[1], [2]]}))
    with pytest.raises(ValueError, match="other features"):
        training.load_weights("classic")
    (tmp_path / "classic.json").write_text(json.dumps({"features": list(mv.FEATURES), "weights": [[1, 2]]}))
    with pytest.raises(ValueError, match=r"\(2, 12\) array"):
        training.load_weights("classic")
    with pytest.raises(ValueError, match="trained for classic, pokemon"):
        training.train("kids")


def test_missing_weights_are_an_error_that_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installation without the weights must not search with the hand-made evaluation in silence."""
    monkeypatch.setattr(training, "WEIGHTS_DIR", tmp_path)
    monkeypatch.setattr(training, "_learned", {})
    with pytest.raises(FileNotFoundError, match=r"classic\.json is missing"):
        learned_weights("classic")
    with pytest.raises(ValueError, match="no learned evaluation"):
        learned_weights("kids")


def test_weights_trained_on_games_of_four_are_not_taken_for_the_levels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The levels score every count with two-player weights (weights of four did no better: docs/bots.md), so a
    file of four put in their place is refused, not played."""
    monkeypatch.setattr(training, "WEIGHTS_DIR", tmp_path)
    data = {"game": "classic", "players": 4, "features": list(mv.FEATURES), "weights": np.zeros((2, 12)).tolist()}
    (tmp_path / "classic.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="games of 4 players"):
        training.load_weights("classic")


def test_the_train_command_writes_weights_and_their_curve(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "splendor",
            "train",
            "--game",
            "classic",
            "--generations",
            "1",
            "--games",
            "2",
            "--iterations",
            "20",
            "--match-games",
            "2",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert np.array(data["weights"]).shape == (2, mv.FEATURE_COUNT) and len(data["curve"]) == 1
    assert data["curve"][0]["games"] == 2
    refused = subprocess.run(
        [sys.executable, "-m", "splendor", "train", "--game", "kids"], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode != 0 and "trained for classic, pokemon" in refused.stderr
    uneven = subprocess.run(
        [sys.executable, "-m", "splendor", "train", "--players", "3", "--match-games", "80", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert uneven.returncode != 0 and "whole deals, from every seat: 80 games for 3" in " ".join(uneven.stderr.split())


@pytest.mark.parametrize("players", [2, 4])
def test_a_search_is_timed_on_the_positions_asked_after_one_not_timed(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    states: list[int] = []
    real = training.searched

    def spy(state: np.ndarray, *args: object, **kw: object) -> tuple[dict[int, tuple[int, float]], int]:
        states.append(int(state[compiled.market.PLAYERS]))
        return real(state, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(training, "searched", spy)
    seconds = training.search_seconds("classic", {"iterations": 20, "depth": 4}, players, positions=5, seed=7)
    assert 0.0 < seconds < 60.0 and states == [players] * 6


def test_training_for_three_starts_from_the_two_player_weights_and_measures_against_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[tuple[bool, bool]] = []
    real = training.searched

    def spy(*args: object, **kw: object) -> tuple[dict[int, tuple[int, float]], int]:
        searched.append((kw["weights"] is learned_weights("classic"), bool(kw.get("shares"))))
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(training, "searched", spy)
    lines: list[str] = []
    result = training.train("classic", generations=1, games=3, iterations=10, match_games=3, report=lines.append,
                            players=3)  # fmt: skip
    first_fit = searched.index((False, True))  # the match: the new weights, valued as shares
    assert set(searched[:first_fit]) == {(True, False)} and set(searched[first_fit:]) == {(False, True), (True, False)}
    assert result["players"] == 3 and np.array(result["weights"]).shape == (2, mv.FEATURE_COUNT)
    (entry,) = result["curve"]
    assert 0.0 <= entry["score_vs_two_player_weights"] <= 1.0 and entry["games"] == 3
    assert json.loads(lines[0]) == entry
    with pytest.raises(ValueError, match="2 to 4 players"):
        training.train("classic", players=5)
    with pytest.raises(ValueError, match="80 games is not a multiple of 3"):
        training.train("classic", players=3, match_games=80)
    with pytest.raises(ValueError, match="whole deals"):
        training.match("classic", {}, {}, 6, 1, players=4)
    with pytest.raises(ValueError, match="no positions"):
        training.fit(training.Positions())


def test_expert_is_the_top_level_and_searches_with_its_own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LEVEL_NAMES[-1] == "expert"
    assert LEVELS["classic", "expert"].compiled_iterations > LEVELS["classic", "hard"].compiled_iterations
    assert LEVELS["classic", "expert"].learned and not LEVELS["kids", "expert"].learned
    assert make_bot("ismcts:expert").name == "ismcts:expert" and HINT_LEVEL == "expert"
    seen: list[tuple[float, int, float]] = []
    from splendor.search import compiled as compiled_search

    real = compiled_search.search

    def spy(game: splendor.Game, seat: int, seed: int, iterations: int, *args: object, **kw: object) -> object:
        settings = kw["settings"]
        seen.append((settings.exploration, kw["weights"].shape[0], settings.mix))  # type: ignore[attr-defined]
        return real(game, seat, seed, iterations, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(compiled_search, "search", spy)
    for name in ("classic", "pokemon"):
        g = splendor.new_game(name, players=2, seed=2)
        SearchBot(seed=1, level="expert", iterations=50).search(decision_for(g))
        SearchBot(seed=1, level="hard", iterations=50).search(decision_for(g))
    assert seen == [
        (LEVELS["classic", "expert"].exploration, 2, 0.0),
        (3.0, 0, 0.0),
        (LEVELS["pokemon", "expert"].exploration, 2, 0.5),
        (3.0, 0, 0.0),
    ]


@pytest.mark.parametrize("name", ["classic", "pokemon", "kids"])
def test_expert_plays_every_game_to_its_end_and_hints_with_its_level(name: str) -> None:
    g = random_game(name, 2, 4)
    bot = SearchBot(seed=2, level="expert", iterations=40)
    while not g.is_over:
        decision = decision_for(g)
        g.apply(bot.choose(decision))
    fresh = random_game(name, 2, 5)
    advice = hint(fresh, iterations=60)
    assert advice["level"] == "expert" and advice["action"] in [a.text for a in fresh.legal_actions()]


def test_advanced_searches_as_the_expert_does_on_under_a_quarter_of_its_iterations() -> None:
    """The level between hard and expert (issue 35, item 4), for a fair fight with a strong player: the expert's
    search and evaluation in every game, on a smaller budget."""
    assert LEVEL_NAMES.index("hard") < LEVEL_NAMES.index("advanced") < LEVEL_NAMES.index("expert")
    for game in ("classic", "pokemon", "kids"):
        advanced, expert = LEVELS[game, "advanced"], LEVELS[game, "expert"]
        assert dataclasses.replace(advanced, compiled_iterations=expert.compiled_iterations) == expert
        assert advanced.compiled_iterations <= expert.compiled_iterations / 4
    assert make_bot("ismcts:advanced").name == "ismcts:advanced"


@pytest.mark.parametrize("name", ["classic", "pokemon", "kids"])
def test_advanced_plays_every_game_to_its_end_with_three_players(name: str) -> None:
    g = random_game(name, 3, 6)
    bot = SearchBot(seed=3, level="advanced", iterations=30)
    while not g.is_over:
        g.apply(bot.choose(decision_for(g)))  # a move that is not legal is refused here
