"""The ladder (issue 35, item 4): the server's bots' fixed ratings are fitted from an arena run, not set by hand.

The fit is checked on scores whose strengths are known, the games of a ladder on how they are dealt, the tally on
how it counts, the command end to end, and the server on reading exactly the fitted file."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from splendor.arena import MatchResult
from splendor.arena.ladder import (
    LADDER,
    fit_ladder,
    kept_pairs,
    ladder_matches,
    ladder_pairs,
    model_scale,
    tally,
    win_chance,
)
from splendor.server.bots import BOT_RATINGS, RATINGS_FILE, SERVER_BOTS
from splendor.store.ratings import MODEL, shown

SPLENDOR = str(Path(sys.executable).parent / "splendor")


@pytest.mark.parametrize("gap", [1.0, 5.0, 15.0])
def test_the_fits_win_chance_is_the_one_the_shown_ratings_promise(gap: float) -> None:
    """The Plackett–Luce model that updates the server's ratings: c = √(2β² + σ² + σ²) for two bots of σ 1; and
    the Elo-like numbers players see say the same chance (`splendor.store.ratings.ELO_PER_POINT`)."""
    assert model_scale() == pytest.approx(math.sqrt(2 * MODEL.beta**2 + 2))
    difference = shown(25 + gap, 1.0) - shown(25, 1.0)
    assert win_chance(25 + gap, 25, model_scale()) == pytest.approx(1 / (1 + 10 ** (-difference / 400)), abs=0.01)


def test_the_fit_finds_known_strengths_again() -> None:
    truth = {"a": 0.0, "b": 4.0, "c": 9.0, "d": 10.0}
    bots = list(truth)
    games = 100_000  # so many that the virtual draw no longer matters
    scores = {
        (x, y): (games * win_chance(truth[x], truth[y], model_scale()), games) for x, y in ladder_pairs(bots, reach=2)
    }
    fit = fit_ladder(bots, scores)
    for bot, mu in truth.items():
        assert fit.mu[bot] == pytest.approx(mu, abs=0.01)
    assert fit.error["a"] == 0 and all(0 < fit.error[b] < 0.1 for b in "bcd")
    for line in fit.pairs:
        assert line.predicted == pytest.approx(line.observed, abs=0.001)


def test_a_pair_that_went_all_one_way_is_a_large_finite_gap_from_the_virtual_draw() -> None:
    fit = fit_ladder(["random", "greedy"], {("random", "greedy"): (0.0, 40)})
    # one game shared half and half beside the 40: the lower bot's score is 0.5 of 41
    assert win_chance(fit.mu["random"], fit.mu["greedy"], fit.scale) == pytest.approx(0.5 / 41, abs=1e-6)
    assert 20 < fit.mu["greedy"] < 30


def test_a_bot_no_game_links_to_the_floor_is_refused() -> None:
    with pytest.raises(ValueError, match="no games link c"):
        fit_ladder(["a", "b", "c"], {("a", "b"): (3.0, 6)})
    with pytest.raises(ValueError, match="not on the ladder: z"):
        fit_ladder(["a", "b"], {("a", "b"): (3.0, 6), ("a", "z"): (1.0, 2)})


def test_each_bot_meets_the_next_ones_up_and_each_deal_is_played_from_both_seats() -> None:
    assert ladder_pairs(["a", "b", "c", "d"], reach=1) == [("a", "b"), ("b", "c"), ("c", "d")]
    matches = ladder_matches(["a", "b", "c"], games=4, seed=7, reach=2)
    assert [m.index for m in matches] == list(range(12))
    for k, pair in enumerate([("a", "b"), ("a", "c"), ("b", "c")]):
        four = matches[4 * k : 4 * k + 4]
        assert [m.bots for m in four] == [pair, pair[::-1], pair, pair[::-1]]
        assert [m.seed for m in four] == [7 + 100_000 * k] * 2 + [8 + 100_000 * k] * 2
    for bad in (0, 3):
        with pytest.raises(ValueError, match="even number"):
            ladder_matches(["a", "b"], games=bad, seed=1)
    with pytest.raises(ValueError, match="two or more different bots"):
        ladder_pairs(["a", "a"])


def test_a_pair_an_earlier_ladder_played_is_kept_with_its_command_and_the_rest_keep_their_deals() -> None:
    earlier = {
        "game": "classic",
        "players": 2,
        "command": "splendor ladder --bots a,c --games 4",
        "pairs": [
            {"bots": ["a", "c"], "games": 4, "score": 1.0},  # kept, its lower bot still a
            {"bots": ["c", "b"], "games": 4, "score": 3.0, "played_by": "first"},  # kept, turned: b is lower now
            {"bots": ["a", "x"], "games": 4, "score": 2.0},  # x is not on the new ladder
            {"bots": ["a", "b"], "games": 2, "score": 2.0},  # fewer games than the new ladder plays
        ],
    }
    kept = kept_pairs(earlier, ["a", "b", "c"], games=4)
    assert {pair: (k.score, k.played_by) for pair, k in kept.items()} == {
        ("a", "c"): (1.0, "splendor ladder --bots a,c --games 4"),
        ("b", "c"): (1.0, "first"),
    }
    whole = ladder_matches(["a", "b", "c"], games=4, seed=7, reach=2)
    assert ladder_matches(["a", "b", "c"], games=4, seed=7, reach=2, kept=kept) == [
        dataclasses.replace(m, index=i) for i, m in enumerate(m for m in whole if m.bots in (("a", "b"), ("b", "a")))
    ]
    with pytest.raises(ValueError, match="not a ladder of two-player classic games"):
        kept_pairs({**earlier, "players": 3}, ["a", "b"], games=4)


def _result(index: int, bots: tuple[str, ...], winners: tuple[int, ...]) -> MatchResult:
    status = "won" if len(winners) == 1 else "shared" if winners else "truncated"
    return MatchResult(index, bots, status, winners, (0,) * len(bots), 10, 20, 1.0, "")


def test_the_tally_counts_for_the_lower_bot_a_win_one_a_shared_win_or_no_winner_a_half() -> None:
    results = [
        _result(0, ("a", "b"), (0,)),  # a won
        _result(1, ("b", "a"), (0,)),  # b won
        _result(2, ("b", "a"), (0, 1)),  # shared
        _result(3, ("a", "b"), ()),  # truncated
        _result(4, ("c", "b"), (0,)),  # c won against b: the pair is (b, c), b lower
    ]
    assert tally(results, ["a", "b", "c"]) == {("a", "b"): (2.0, 4), ("b", "c"): (0.0, 1)}
    with pytest.raises(ValueError, match="two-player games"):
        tally([_result(5, ("a", "b", "c"), (0,))], ["a", "b", "c"])


def test_the_ladder_command_plays_fits_and_writes_the_ratings(tmp_path: Path) -> None:
    out = tmp_path / "ratings.json"
    args = ["ladder", "--bots", "random,greedy", "--games", "2", "--backend", "local", "--out", str(out)]
    done = subprocess.run([SPLENDOR, *args], capture_output=True, text=True, timeout=300, check=True)
    fitted = json.loads(out.read_text(encoding="utf-8"))
    assert fitted["mu"]["random"] == 0.0
    assert fitted["pairs"][0]["bots"] == ["random", "greedy"] and fitted["pairs"][0]["games"] == 2
    assert fitted["command"] == "splendor ladder --bots random,greedy --games 2 --reach 2 --seed 1"
    assert fitted["shown"]["greedy"] == shown(fitted["mu"]["greedy"], 1.0)
    assert "greedy" in done.stdout and "Ratings in" in done.stdout
    refused = subprocess.run([SPLENDOR, "ladder", "--games", "3"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "even number" in refused.stderr
    # a bot added to the ladder plays only its own pairs: random – greedy is kept, with the command that played it
    more = tmp_path / "more.json"
    args = ["ladder", "--bots", "random,greedy,ismcts:4", "--games", "2", "--backend", "local", "--reuse", str(out)]
    done = subprocess.run(
        [SPLENDOR, *args, "--out", str(more)], capture_output=True, text=True, timeout=300, check=True
    )
    grown = json.loads(more.read_text(encoding="utf-8"))
    pairs = {tuple(line["bots"]): line for line in grown["pairs"]}
    assert set(pairs) == {("random", "greedy"), ("random", "ismcts:4"), ("greedy", "ismcts:4")}
    assert pairs["random", "greedy"]["score"] == fitted["pairs"][0]["score"]
    assert pairs["random", "greedy"]["played_by"] == fitted["command"]
    assert pairs["greedy", "ismcts:4"]["played_by"] == grown["command"].removesuffix(f" --reuse {out}")
    assert "kept from" in done.stdout and grown["pairs"][0]["games"] == 2
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    refused = subprocess.run([SPLENDOR, *args[:-1], str(broken)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and f"cannotreuse{broken}" in "".join(refused.stderr.split())  # wrapped anywhere


def test_the_servers_bot_ratings_are_the_fitted_files() -> None:
    fitted = json.loads(RATINGS_FILE.read_text(encoding="utf-8"))
    assert set(fitted["mu"]) == set(SERVER_BOTS) == set(LADDER)
    assert {bot: (fitted["mu"][bot], fitted["sigma"]) for bot in SERVER_BOTS} == BOT_RATINGS
    assert fitted["games_per_pair"] >= 40 and fitted["command"].startswith("splendor ladder")
    assert all(line["games"] == fitted["games_per_pair"] for line in fitted["pairs"])


def test_a_fit_that_does_not_settle_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import splendor.arena.ladder as ladder

    monkeypatch.setattr(ladder, "FIT_STEPS", 1)  # one Newton step cannot settle a gap of 8 games in 10
    with pytest.raises(ValueError, match="did not settle in 1 steps"):
        fit_ladder(["a", "b"], {("a", "b"): (8.0, 10)})
    monkeypatch.setattr(ladder, "FIT_STEPS", 100)
    assert fit_ladder(["a", "b"], {("a", "b"): (8.0, 10)}).mu["b"] < 0  # the second bot the weaker: below the floor
