"""The expert's learned policy: what its features see of an action, that its hand-made weights are exactly the
kinds' priors, the fit that learns it from the search's visits, its files, and its command."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import splendor
from splendor.bots import decision_for
from splendor.bots.search import SearchBot
from splendor.compiled import market as m
from splendor.compiled import new_game
from splendor.compiled.game import CompiledGame
from splendor.search import compiled as cs
from splendor.search.learning import policy as pl
from splendor.search.learning import policy_training as pt
from splendor.search.learning import training
from splendor.search.levels import LEVELS
from splendor.search.market_compiled import PRIORS


def position(game: str, seed: int, moves: int) -> CompiledGame:
    """A game after ``moves`` random legal actions."""
    fast = new_game(game, players=2, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if fast.is_over:
            break
        legal = fast.legal_indices()
        fast.step(int(legal[rng.integers(len(legal))]))
    return fast


def named(rows: np.ndarray, i: int) -> dict[str, float]:
    return dict(zip(pl.ACTION_FEATURES, rows[i].tolist()))


@pytest.mark.parametrize("game", ["classic", "pokemon"])
def test_the_hand_made_weights_are_exactly_the_priors_of_the_kinds(game: str) -> None:
    want, scratch = np.zeros(m.COLOURS), np.zeros(pl.ACTION_FEATURE_COUNT)
    for seed in range(12):
        fast = position(game, seed, seed * 5)
        if fast.is_over:
            continue
        legal = fast.legal_indices().astype(np.int64)
        out = np.zeros(len(legal))
        pl.learned_priors_into(fast.state, legal, len(legal), pl.HAND_MADE, want, scratch, out)
        assert out == pytest.approx(PRIORS[fast.state[m.KIND], legal], rel=1e-12)


def test_a_search_with_the_hand_made_policy_searches_as_the_kinds_do() -> None:
    fast = position("classic", 4, 10)
    seat = int(fast.state[m.SEAT])
    plain = cs.search_state(fast.state, seat, cs.market_knowledge(), 7, 3000)
    learned = cs.search_state(fast.state, seat, cs.market_knowledge(policy=pl.HAND_MADE), 7, 3000)
    assert plain == learned


def test_the_features_of_a_buy_say_what_it_costs_and_whether_it_wins() -> None:
    fast = position("classic", 2, 0)
    s = fast.state
    s[m.POINTS + 0] = 14  # one point from the win
    for c in range(m.WILD):
        s[m.TOKENS + c] = 7  # seat 0 can buy anything on display with plain tokens
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    m.legal_mask_into(s, mask)
    legal = np.flatnonzero(mask)
    rows = pl.legal_features(s, legal)
    buys = [i for i, a in enumerate(legal) if m.BUY <= a < m.BUY_RESERVED[m.CLASSIC]]
    assert len(buys) == 12  # the whole display
    for i in buys:
        card = int(s[m.ROWS + (legal[i] - m.BUY) // 4 * m.SLOTS + (legal[i] - m.BUY) % 4])
        f = named(rows, i)
        points = int(m.CARD_POINTS[m.CLASSIC, card])
        assert f["buy"] == 1 and f["buy_points"] == pytest.approx(points / 3)
        assert f["buy_wins"] == (1.0 if points >= 1 else 0.0)
        assert f["buy_cost"] == pytest.approx(m.CARD_COST[m.CLASSIC, card, : m.WILD].sum() / 5) and f["buy_wild"] == 0
        assert f["buy_tier"] == pytest.approx(m.CARD_ROW[m.CLASSIC, card] / 2)
        assert f["kind_prior"] == pytest.approx(np.log(PRIORS[m.CLASSIC, legal[i]]))
        assert f["take_wanted"] == f["reserve"] == f["return"] == 0


def test_the_features_of_takes_and_reserves_see_the_tokens_to_give_back_and_the_cards_denied() -> None:
    fast = position("classic", 2, 0)
    s = fast.state
    s[m.TOKENS + 2 : m.TOKENS + 5] = (3, 3, 3)  # seat 0 holds nine: a take of three gives two back, and wants more
    for c in range(m.WILD):
        s[m.TOKENS + m.COLOURS + c] = 7  # seat 1 could buy anything on display
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    m.legal_mask_into(s, mask)
    legal = np.flatnonzero(mask)
    rows = pl.legal_features(s, legal)
    share = np.zeros(m.COLOURS)
    pl.wanted_shares(s, share)
    assert share[: m.WILD].sum() == pytest.approx(1)
    for i, a in enumerate(legal):
        f = named(rows, i)
        if a < m.TAKE2:
            taken = int((m.TAKE_COLOURS[a] >= 0).sum())
            colours = m.TAKE_COLOURS[a][m.TAKE_COLOURS[a] >= 0]
            assert f["take_wanted"] == pytest.approx(share[colours].sum())
            assert f["take_overflow"] == pytest.approx(max(0, 9 + taken - 10) / 3)
            assert f["take_count"] == pytest.approx(taken / 3) and f["take_two"] == 0
        elif a < m.RESERVE:
            assert f["take_two"] == 1 and f["take_overflow"] == pytest.approx(1 / 3)
            assert f["take_wanted"] == pytest.approx(2 * share[a - m.TAKE2])  # two of one colour: twice its share
        elif a < m.BUY:
            deck = (a - m.RESERVE) % 5 == 4
            assert f["reserve"] == 1 and f["reserve_deck"] == deck and f["reserve_denies"] == (not deck)
            assert f["reserve_wild"] == 1  # nine held and gold in the supply: the gold is kept


@pytest.mark.parametrize("game", ["classic", "pokemon"])
def test_every_legal_action_has_finite_features_in_every_phase(game: str) -> None:
    phases: set[int] = set()
    for seed in range(6):
        fast = new_game(game, players=2, seed=seed)
        rng = np.random.default_rng(seed)
        while not fast.is_over:
            legal = fast.legal_indices()
            rows = pl.legal_features(fast.state, legal)
            assert rows.shape == (len(legal), pl.ACTION_FEATURE_COUNT) and np.isfinite(rows).all()
            phases.add(int(fast.state[m.PHASE]))
            fast.step(int(legal[rng.integers(len(legal))]))
    assert {m.MAIN, m.RETURN_PHASE} <= phases


def test_the_fit_recovers_a_known_policy() -> None:
    rng = np.random.default_rng(3)
    truth = rng.normal(size=pl.ACTION_FEATURE_COUNT)
    data = pt.Decisions()
    for _ in range(3000):
        rows = rng.normal(size=(int(rng.integers(2, 12)), pl.ACTION_FEATURE_COUNT))
        logits = rows @ truth
        p = np.exp(logits - logits.max())
        data.features.append(rows)
        data.visits.append(p / p.sum())
    fitted = pt.fit_policy(data, l2=0.0)
    assert fitted == pytest.approx(truth, abs=1e-3)
    assert pt.cross_entropy(data, fitted) < pt.cross_entropy(data, pl.HAND_MADE) - 0.5
    with pytest.raises(ValueError, match="no decisions"):
        pt.fit_policy(pt.Decisions())


def test_self_play_records_every_choice_with_its_visits_and_is_a_pure_function_of_its_seed() -> None:
    searcher = {"iterations": 40, "exploration": 1.5, "policy": pl.HAND_MADE}
    first, second = pt.Decisions(), pt.Decisions()
    pt.play("pokemon", 5, searcher, 2, first)
    pt.play("pokemon", 5, searcher, 2, second)
    assert len(first) > 20 and len(first) == len(second)
    for a, b, visits in zip(first.features, second.features, first.visits, strict=True):
        assert np.array_equal(a, b) and len(visits) == len(a) >= 2
        assert visits.sum() == pytest.approx(1.0) and (visits >= 0).all()


def test_a_policy_of_other_features_or_numbers_is_refused_and_a_missing_one_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(training, "WEIGHTS_DIR", tmp_path)
    monkeypatch.setattr(pt, "_learned", {})
    with pytest.raises(FileNotFoundError, match=r"classic_policy\.json is missing"):
        pt.learned_policy("classic")
    with pytest.raises(ValueError, match="no learned policy"):
        pt.learned_policy("kids")
    path = tmp_path / "classic_policy.json"
    path.write_text(json.dumps({"action_features": ["buy"], "policy": [1.0]}))
    with pytest.raises(ValueError, match="other action features"):
        pt.learned_policy("classic")
    path.write_text(json.dumps({"action_features": list(pl.ACTION_FEATURES), "policy": [1.0, float("nan")]}))
    with pytest.raises(ValueError, match=f"{pl.ACTION_FEATURE_COUNT} numbers"):
        pt.learned_policy("classic")
    with pytest.raises(ValueError, match="trained for classic, pokemon"):
        pt.train_policy("kids")


def test_the_train_policy_command_writes_the_policy_and_its_curve(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    args = ["--generations", "1", "--games", "2", "--iterations", "30", "--match-games", "2", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "splendor", "train-policy", "--game", "classic", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert len(data["policy"]) == pl.ACTION_FEATURE_COUNT and len(data["curve"]) == 1
    assert pt.load_policy(out) == pytest.approx(np.array(data["policy"]))
    refused = subprocess.run(
        [sys.executable, "-m", "splendor", "train-policy", "--game", "kids"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode != 0 and "trained for classic, pokemon" in refused.stderr


def test_the_shipped_classic_policy_loads_with_the_run_that_made_it() -> None:
    data = json.loads(pt.policy_path("classic").read_text())
    assert data["game"] == "classic" and data["trained"]["seed"] == 1 and data["curve"]
    assert pt.learned_policy("classic") is pt.learned_policy("classic")  # loaded once
    assert pt.learned_policy("classic") == pytest.approx(np.array(data["policy"]))


def test_a_level_that_explores_by_the_policy_searches_with_the_shipped_one_and_never_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[np.ndarray] = []
    real = cs.search

    def spy(game: splendor.Game, seat: int, seed: int, iterations: int, *args: object, **kw: object) -> object:
        seen.append(kw["policy"])  # type: ignore[arg-type]  # the keyword's value, an array, typed object here
        return real(game, seat, seed, iterations, *args, **kw)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(cs, "search", spy)
    g = splendor.new_game("classic", players=2, seed=2)
    SearchBot(seed=1, level="expert", iterations=50).search(decision_for(g))
    assert len(seen[-1]) == 0  # the levels explore by the kinds' priors (docs/bots.md: measured, not adopted)
    monkeypatch.setitem(LEVELS, ("classic", "expert"), dataclasses.replace(LEVELS["classic", "expert"], policy=True))
    bot = SearchBot(seed=1, level="expert", iterations=50)
    while not g.is_over:  # a whole game, every decision searched with the learned priors
        g.apply(bot.choose(decision_for(g)))
    assert all(p is pt.learned_policy("classic") for p in seen[1:]) and len(seen) > 20
    monkeypatch.setattr(training, "WEIGHTS_DIR", tmp_path)
    monkeypatch.setattr(pt, "_learned", {})
    with pytest.raises(FileNotFoundError, match="classic_policy.json is missing"):
        SearchBot(seed=1, level="expert", iterations=50).search(decision_for(splendor.new_game("classic", seed=3)))


def test_the_priors_kept_for_the_top_of_the_tree_are_those_the_policy_gives() -> None:
    fast = position("classic", 6, 14)
    seat = int(fast.state[m.SEAT])
    know = cs.market_knowledge(policy=pt.learned_policy("classic"))
    kept = cs.prior_rows(know, m.CLASSIC)
    assert kept.shape == (cs.KEPT_NODES, m.ACTION_COUNT[m.CLASSIC]) and np.isnan(kept).all()  # classic's actions
    assert cs.prior_rows(know, m.POKEMON, 51).shape == (51, m.ACTION_COUNT[m.POKEMON])  # a search of 50 iterations
    tree = cs.Tree.empty(seat, 2000)
    cs.iterate(fast.state, seat, 1000, np.array([5], dtype=np.uint64), tree.arrays(), know, cs.settings(), kept)
    legal = fast.legal_indices().astype(np.int64)
    out = np.zeros(len(legal))
    pl.learned_priors_into(
        fast.state, legal, len(legal), know.policy, np.zeros(m.COLOURS), np.zeros(pl.ACTION_FEATURE_COUNT), out
    )
    assert kept[0, legal] == pytest.approx(out)  # the root's, exactly what the searching seat's policy says
    assert np.isnan(np.delete(kept[0], legal)).all()  # nothing for an action that is not legal
    assert (~np.isnan(kept[1:]).all(axis=1)).sum() > 10  # the nodes below kept theirs too
    assert cs.prior_rows(cs.market_knowledge()).size == 0  # the kinds' priors are looked up, never kept
