"""The Pokédex store: marks kept per profile across games and restarts, through the library and the CLI."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect

import splendor
from splendor.store import Pokedex, open_store

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def test_the_schema_is_created_by_migrations_and_reopening_is_harmless(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/nested/folder/s.db"
    store = open_store(url)
    assert {"profiles", "pokedex_marks", "alembic_version"} <= set(inspect(store.engine).get_table_names())
    store.close()
    open_store(url).close()


def test_marks_accumulate_per_profile_and_count_games(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    assert dex.mark("ash", ["Pidgey", "Mew", "Pidgey"]) == ["Pidgey", "Mew"]
    assert dex.mark("ash", ["Mew", "Abra"]) == ["Abra"]
    assert dex.mark("misty", ["Lapras"]) == ["Lapras"]
    page = dex.page("ash")
    assert page.marked == {"Pidgey": 1, "Mew": 2, "Abra": 1} and page.completion == (3, 55)
    assert dex.page("nobody").marked == {}
    assert dex.profiles() == ["ash", "misty"]


def test_bad_profile_names_and_unknown_pokemon_are_refused(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    for bad in ("", "  ", "x" * 41, "a/b", "<script>"):
        with pytest.raises(ValueError, match="not a profile name"):
            dex.mark(bad, ["Mew"])
    with pytest.raises(ValueError, match="not Pokémon of this game: Pikachu"):
        dex.mark("ash", ["Pikachu"])
    assert dex.profiles() == []


def _scripted_pokemon_game(seed: int) -> tuple[list[str], list[list[str]]]:
    g = splendor.new_game("pokemon", players=2, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g.record.actions, g.result["pokedex"]


def test_the_pokedex_is_kept_across_two_terminal_games_and_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/profiles.db"
    expected: set[str] = set()
    for seed in (5, 6):
        actions, caught = _scripted_pokemon_game(seed)
        out = subprocess.run([SPLENDOR, "play", "--game", "pokemon", "--seats", "ash:human,gary:human",
                              "--seed", str(seed), "--database-url", url],
                             input="\n".join(actions) + "\n\n", capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert "Pokédex of ash:" in out.stdout
        expected |= set(caught[0])
    # a new process reads what the earlier ones wrote
    out = subprocess.run([SPLENDOR, "pokedex", "ash", "--database-url", url], capture_output=True, text=True,
                         env={"COLUMNS": "140", "PATH": "/usr/bin:/bin"}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"Pokédex of ash: {len(expected)}/55 caught" in out.stdout
    page = Pokedex(open_store(url)).page("ash")
    assert set(page.marked) == expected


def test_unnamed_and_bot_seats_mark_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.db"
    out = subprocess.run([SPLENDOR, "play", "--game", "pokemon", "--seats", "greedy,random", "--seed", "2",
                          "--database-url", url, "--record", str(tmp_path / "g.record")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert Pokedex(open_store(url)).profiles() == []


def test_a_bad_profile_name_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    out = subprocess.run([SPLENDOR, "play", "--game", "pokemon", "--seats", "a/b:human,greedy",
                          "--database-url", f"sqlite:///{tmp_path}/p.db"], input="", capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2 and "not a profile name" in out.stderr
