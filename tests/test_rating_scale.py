"""Ratings as a number people know (issue 32, item 7): the OpenSkill ordinal μ − 3σ is shown on an Elo-like scale,
1500 for a newcomer, whose differences mean what Elo differences mean for the win chances OpenSkill's model
gives; the bots' documented ratings and the arena's table use the same scale."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

import splendor.server.bots
from splendor.server.bots import BOT_RATINGS
from splendor.store.ratings import ELO_PER_POINT, MODEL, NEW, elo_like, shown

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def test_a_newcomer_shows_1500_and_one_lost_game_no_negative_number() -> None:
    assert shown(*NEW) == 1500
    (lost,), _ = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=18.0, sigma=1.0)]], ranks=[2, 1])
    assert 1350 < shown(lost.mu, lost.sigma) < 1450  # was "0 → -3"
    assert isinstance(shown(lost.mu, lost.sigma), int)


@pytest.mark.parametrize("gap", [1.0, 3.0, 6.78, 12.0])
def test_rating_differences_read_as_elo_for_the_models_win_chance(gap: float) -> None:
    """Two settled players ``gap`` apart in μ: the Plackett–Luce model that makes the updates says the stronger
    wins with 1 / (1 + exp(−gap / c)), c = √(2β² + σ² + σ²); Elo says the same of the shown difference."""
    sigma = 0.5
    c = math.sqrt(2 * MODEL.beta**2 + 2 * sigma**2)
    model = 1 / (1 + math.exp(-gap / c))
    difference = shown(25 + gap, sigma) - shown(25, sigma)
    elo = 1 / (1 + 10 ** (-difference / 400))
    assert elo == pytest.approx(model, abs=0.01)
    assert pytest.approx(400 / (math.log(10) * math.sqrt(2) * 25 / 6)) == ELO_PER_POINT
    assert elo_like(200 / ELO_PER_POINT) == 1700  # 200 points: about 76 games in 100
    assert pytest.approx(0.76, abs=0.005) == 1 / (1 + 10 ** (-200 / 400))


def test_the_bots_ratings_are_documented_on_the_scale_players_see() -> None:
    source = Path(splendor.server.bots.__file__).read_text(encoding="utf-8")
    said = dict(re.findall(r"(random|greedy|easy|medium|hard|advanced|expert|learned) (\d{4})", source))
    assert said == {name.removeprefix("ismcts:"): str(shown(*rating)) for name, rating in BOT_RATINGS.items()}
    assert "μ − 3σ is what players see" not in source


def test_the_arenas_table_shows_the_elo_like_rating() -> None:
    args = [SPLENDOR, "arena", "--game", "classic", "--bots", "random,greedy", "--games", "4", "--backend", "local"]
    env = {"COLUMNS": "160", "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    table = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env, check=True).stdout
    summary = json.loads(
        subprocess.run([*args, "--json"], capture_output=True, text=True, timeout=300, env=env, check=True).stdout
    )
    assert "μ" not in table and "1500 at the start" in table
    for line in summary["standings"]:
        row = next(r for r in table.splitlines() if re.search(rf"\b{line['bot']}\b", r))
        numbers = [int(n) for n in re.findall(r"\b\d{3,4}\b", row)]
        assert any(abs(n - shown(line["mu"], line["sigma"])) <= 1 for n in numbers), row
