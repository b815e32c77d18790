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
from splendor.store.pokedex import NotYourProfile, ProfileClaimed

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def test_the_schema_is_created_by_migrations_and_reopening_is_harmless(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/nested/folder/s.db"
    store = open_store(url)
    assert {"profiles", "pokedex_marks", "alembic_version"} <= set(inspect(store.engine).get_table_names())
    store.close()
    open_store(url).close()


def test_marks_accumulate_per_profile_and_count_games(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    ash, misty = dex.claim("ash"), dex.claim("misty")
    assert dex.mark("ash", ["Pidgey", "Mew", "Pidgey"], ash) == ["Pidgey", "Mew"]
    assert dex.mark("ash", ["Mew", "Abra"], ash) == ["Abra"]
    assert dex.mark("misty", ["Lapras"], misty) == ["Lapras"]
    page = dex.page("ash")
    assert page.marked == {"Pidgey": 1, "Mew": 2, "Abra": 1} and page.completion == (3, 55)
    assert dex.page("nobody").marked == {}
    assert dex.profiles() == ["ash", "misty"]


def test_bad_profile_names_and_unknown_pokemon_are_refused(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    for bad in ("", "  ", "x" * 41, "a/b", "<script>"):
        with pytest.raises(ValueError, match="not a profile name"):
            dex.mark(bad, ["Mew"], "secret")
        with pytest.raises(ValueError, match="not a profile name"):
            dex.claim(bad)
    with pytest.raises(ValueError, match="not Pokémon of this game: Pikachu"):
        dex.mark("ash", ["Pikachu"], "secret")
    assert dex.profiles() == []


def test_a_profile_is_marked_only_by_the_holder_of_its_secret(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    secret = dex.claim("ash")
    with pytest.raises(ProfileClaimed, match="already claimed"):
        dex.claim("ash")
    for wrong in (None, "", "guess", secret + "x"):
        with pytest.raises(NotYourProfile):
            dex.mark("ash", ["Mew"], wrong)
    with pytest.raises(NotYourProfile):
        dex.mark("gary", ["Mew"], secret)  # an unclaimed profile has no owner to prove
    assert dex.page("ash").marked == {} and dex.owns("ash", secret) and not dex.owns("ash", "guess")
    assert dex.mark("ash", ["Mew"], secret) == ["Mew"]
    store = open_store(f"sqlite:///{tmp_path}/s.db")
    from sqlalchemy import text

    with store.engine.connect() as conn:
        stored = conn.execute(text("SELECT secret_hash FROM profiles WHERE name = 'ash'")).scalar()
    assert stored and secret not in stored  # only a hash is kept


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
        out = subprocess.run(
            [
                SPLENDOR,
                "play",
                "--game",
                "pokemon",
                "--seats",
                "ash:human,gary:human",
                "--seed",
                str(seed),
                "--database-url",
                url,
            ],
            input="\n".join(actions) + "\n\n",
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        assert "Pokédex of ash:" in out.stdout
        expected |= set(caught[0])
    # a new process reads what the earlier ones wrote
    out = subprocess.run(
        [SPLENDOR, "pokedex", "ash", "--database-url", url],
        capture_output=True,
        text=True,
        env={"COLUMNS": "140", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert f"Pokédex of ash: {len(expected)}/55 caught" in out.stdout
    page = Pokedex(open_store(url)).page("ash")
    assert set(page.marked) == expected


def _play_pokemon(seats: str, url: str, typed: str) -> subprocess.CompletedProcess[str]:
    """``splendor play`` of a Pokémon game with ``seats``, its profiles in ``url``, ``typed`` on its input."""
    return subprocess.run(
        [SPLENDOR, "play", "--game", "pokemon", "--seats", seats, "--database-url", url],
        input=typed,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_terminal_refuses_a_profile_that_another_player_claimed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.db"
    Pokedex(open_store(url)).claim("brock")  # claimed elsewhere; this terminal has no secret
    out = _play_pokemon("brock:human,greedy", url, "")
    assert out.returncode == 2 and "already claimed" in out.stderr
    assert (tmp_path / "p.db.profiles.json").exists() is False


def test_a_game_left_before_its_end_says_it_marks_no_pokedex(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.db"
    out = _play_pokemon("misty:human,greedy", url, "quit\ny\n\n")
    assert out.returncode == 0, out.stderr
    assert "Game left after 0 actions." in out.stdout and "no Pokédex is marked" in out.stdout
    assert not Pokedex(open_store(url)).page("misty").marked


def test_unnamed_and_bot_seats_mark_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.db"
    out = subprocess.run(
        [
            SPLENDOR,
            "play",
            "--game",
            "pokemon",
            "--seats",
            "greedy,random",
            "--seed",
            "2",
            "--database-url",
            url,
            "--record",
            str(tmp_path / "g.record"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert Pokedex(open_store(url)).profiles() == []


def test_a_bad_profile_name_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            SPLENDOR,
            "play",
            "--game",
            "pokemon",
            "--seats",
            "a/b:human,greedy",
            "--database-url",
            f"sqlite:///{tmp_path}/p.db",
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "not a profile name" in out.stderr


def test_an_accounts_profile_is_never_claimed_nor_marked_with_a_secret(tmp_path: Path) -> None:
    """An account's Pokédex is the account's alone: no claim takes it, no secret marks it."""
    from splendor.store.accounts import Accounts

    store = open_store(f"sqlite:///{tmp_path}/s.db")
    try:
        Accounts(store).sign_up("misty", "correct horse")
        dex = Pokedex(store)
        for spelling in ("misty", "Misty", "MISTY"):
            with pytest.raises(ProfileClaimed, match="Pokédex of an account"):
                dex.claim(spelling)
        assert not dex.owns("misty", None) and not dex.owns("misty", "")
        with pytest.raises(NotYourProfile):
            dex.mark("misty", ["Mew"], None)
    finally:
        store.close()


def test_profile_names_that_look_alike_are_one_profile(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    secret = dex.claim("ash")
    for look_alike in ("Ash", "ASH", "\u0430sh", "\uff41\uff53\uff48", "\U0001d41a\U0001d42c\U0001d421"):
        with pytest.raises(ProfileClaimed):
            dex.claim(look_alike)
    assert dex.mark("Ash", ["Mew"], secret) == ["Mew"]  # the same profile, whatever the spelling
    assert dex.page("ASH").profile == "ash" and dex.page("ASH").marked == {"Mew": 1}
    assert dex.profiles() == ["ash"]


def test_names_apart_only_by_spaces_punctuation_or_letters_that_look_like_them_are_one_name() -> None:
    """Spaces and .'-_ tell no two people apart; nor do letters the look-alike mapping turns into them (the modifier
    apostrophe U+02BC, Lisu's full stop U+A4F8), so they are left out after the mapping too."""
    from splendor.store.names import key_of

    assert key_of("O'Brien") == key_of("O\u02bcbrien") == key_of("OBrien") == key_of("o brien")
    assert key_of("Mary.Ann") == key_of("Mary\ua4f8ann") == key_of("Mary_Ann") == key_of("mary-ann")
    assert key_of("Mary Ann") != key_of("Mary Anne")


def test_a_dot_above_an_i_or_a_j_is_refused_since_it_shows_nothing_more() -> None:
    """A hostile tester's find: "Vi\u0307ctor" (i and a combining dot above, which replaces the i's own dot) looked
    like "Victor" and was another name; so in a spectator's chat beside a seat "alice". Refused wherever it stands
    on a soft-dotted letter, after other marks too; a dot above elsewhere, and the dotless i, stay names."""
    from splendor.store.names import BadName, check_name

    bad_ones = (
        "Vi\u0307ctor",
        "ali\u0307ce",
        "j\u0307ane",
        "\u0456\u0307van",
        "i\u0323\u0307x",
        "V\u0131\u0307ctor",
        "\u0237\u0307ane",
    )
    for bad in bad_ones:  # the dotless i and j too, which a dot above makes i and j (a code review's find)
        with pytest.raises(BadName) as refused:
            check_name(bad)
        assert "a dot above an i or a j" in str(refused.value.reason)
    assert check_name("Z\u0307ofia") == "\u017bofia" and check_name("V\u0131ctor") == "V\u0131ctor"


def test_invisible_and_letterless_profile_names_are_refused(tmp_path: Path) -> None:
    dex = Pokedex(open_store(f"sqlite:///{tmp_path}/s.db"))
    for bad in ("\u3164", "a\u200db", "a\u200cb", "\u115f", "\uffa0x", "a\u202eb", "_", "-", "a\u203fb"):
        with pytest.raises(ValueError, match="not a profile name"):
            dex.claim(bad)
    assert dex.claim("e\u0301va") and dex.profiles() == ["\u00e9va"]  # an accent joins its letter
    assert dex.profiles() == ["\u00e9va"]


def test_upgrading_a_store_with_games_keeps_every_seat_action_and_mark(tmp_path: Path) -> None:
    """SQLite rebuilds a table to alter it: with foreign keys enforced the rebuild's DROP deleted, through ON
    DELETE CASCADE, every seat and action of every game (and profiles' marks), so the migrations run without."""
    from alembic import command
    from sqlalchemy import create_engine, event, text

    from splendor.store.database import _migrations_config, _sqlite_pragmas

    engine = create_engine(f"sqlite:///{tmp_path}/old.db")
    event.listen(engine, "connect", _sqlite_pragmas)
    command.upgrade(_migrations_config(engine), "0003")
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO games (id, game, players, seed, options, status, actions) "
                "VALUES ('g', 'classic', 2, 1, '{}', 'ongoing', 1)"
            )
        )
        c.execute(text("INSERT INTO game_seats (game_id, seat, kind) VALUES ('g', 0, 'human'), ('g', 1, 'bot')"))
        c.execute(text("INSERT INTO game_actions (game_id, number, seat, action) VALUES ('g', 1, 0, 'take w b g')"))
        c.execute(text("INSERT INTO profiles (id, name) VALUES (1, 'misty')"))
        c.execute(text("INSERT INTO pokedex_marks (profile_id, pokemon, games) VALUES (1, 'Abra', 1)"))
    engine.dispose()
    store = open_store(f"sqlite:///{tmp_path}/old.db")
    try:
        with store.engine.connect() as c:
            counts = [
                c.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                for t in ("games", "game_seats", "game_actions", "pokedex_marks")
            ]
            assert c.execute(text("PRAGMA foreign_keys")).scalar() == 1  # enforced again once upgraded
        assert counts == [1, 2, 1, 1]
    finally:
        store.close()


def test_the_terminal_claims_no_profile_whose_secret_it_cannot_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from splendor.terminal import profiles

    pokedex = Pokedex(open_store(f"sqlite:///{tmp_path}/p.db"))

    def read_only(**where: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(profiles.tempfile, "mkstemp", read_only)
    with pytest.raises(ValueError, match="cannot keep profile secrets"):
        profiles.TerminalProfiles(pokedex, tmp_path / "profiles.json").secret("ash")
    assert pokedex.owns("ash", pokedex.claim("ash"))  # still free: it had not been claimed


def test_a_secret_the_terminal_fails_to_write_is_said_and_the_secrets_kept_before_stay_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from splendor.terminal import profiles

    pokedex = Pokedex(open_store(f"sqlite:///{tmp_path}/p.db"))
    kept = profiles.TerminalProfiles(pokedex, tmp_path / "profiles.json")
    misty = kept.secret("misty")
    before = (tmp_path / "profiles.json").read_text()
    assert (tmp_path / "profiles.json").stat().st_mode & 0o777 == 0o600

    def full_disk(source: str, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(profiles.os, "replace", full_disk)
    with pytest.raises(ValueError, match="note it down, it is shown only now: ") as said:
        kept.secret("ash")
    ash = str(said.value).rsplit(": ", 1)[1]
    assert pokedex.owns("ash", ash)  # the secret said is the claim's, which nobody else keeps
    assert (tmp_path / "profiles.json").read_text() == before and kept.secret("misty") == misty
    assert not list(tmp_path.glob("*.new"))  # the file that was to take its place is gone


def test_two_terminals_claiming_at_once_keep_both_secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    import threading
    import time

    from splendor.terminal.profiles import TerminalProfiles

    pokedex = Pokedex(open_store(f"sqlite:///{tmp_path}/p.db"))
    claim = Pokedex.claim

    def slow_claim(self: Pokedex, profile: str) -> str:  # each has read the file, then takes its time in the store
        time.sleep(0.3)
        return claim(self, profile)

    monkeypatch.setattr(Pokedex, "claim", slow_claim)
    said: dict[str, str] = {}

    def terminal(name: str) -> None:
        said[name] = TerminalProfiles(pokedex, tmp_path / "profiles.json").secret(name)

    both = [threading.Thread(target=terminal, args=(name,)) for name in ("ash", "misty")]
    for thread in both:
        thread.start()
    for thread in both:
        thread.join()
    assert len(said) == 2 and json.loads((tmp_path / "profiles.json").read_text()) == said


def test_a_store_whose_driver_is_missing_names_what_to_install_and_hides_the_password() -> None:
    """A wheel user's find: the terminal's Pokédex on PostgreSQL without psycopg said "No module named 'psycopg'",
    where the server extra is what brings it (the branch that would have said so was never reached); and the
    error showed the URL's password."""
    code = (
        "import sys; sys.modules['psycopg'] = None\n"  # as a core install: the server extra is not there
        "from splendor.cli import main\n"
        "sys.argv = ['splendor', 'pokedex', 'ash', '--database-url', sys.argv[1]]\n"
        "main()\n"
    )
    url = "postgresql+psycopg://ash:pikachu@127.0.0.1:1/db"
    done = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, timeout=60)
    said = " ".join(done.stderr.split())
    assert done.returncode == 2 and "Traceback" not in said, said
    assert "it needs psycopg, which is not installed: pip install 'splendor[server]'" in said
    assert "pikachu" not in said and "ash:***@127.0.0.1" in said
    with pytest.raises(ValueError, match="it needs pymysql, which is not installed$"):  # no extra brings it
        open_store("mysql+pymysql://ash@127.0.0.1:1/db")


def test_a_schemas_upgrade_is_one_line_of_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A wheel user's find: a fresh store logged each migration with its docstring's first paragraph, some fifty
    lines at every server's first start, and two lines more at every start after."""
    import logging

    caplog.set_level(logging.INFO)
    open_store(f"sqlite:///{tmp_path}/p.db")
    said = [(r.name, r.getMessage()) for r in caplog.records if not r.name.startswith("alembic.runtime.plugins")]
    assert len(said) == 1, said
    assert said[0][0] == "splendor.store.database" and "was upgraded from nothing to revision" in said[0][1]
    caplog.clear()
    open_store(f"sqlite:///{tmp_path}/p.db")  # up to date: nothing said
    assert [r for r in caplog.records if not r.name.startswith("alembic.runtime.plugins")] == []


def test_a_resumed_game_gives_no_profile_a_seat_another_played(tmp_path: Path) -> None:
    """A newcomer's find: a game of ash resumed as misty:human marked misty's Pokédex with all that ash caught
    (ruling 17: each player marks their own play area), and so did a profile seated where a bot had played."""
    url = f"sqlite:///{tmp_path}/p.db"
    record = tmp_path / "g.record"
    out = subprocess.run(
        [SPLENDOR, "play", "--game", "pokemon", "--seats", "ash:human,greedy", "--seed", "3"]
        + ["--database-url", url, "--record", str(record)],
        input="take r b k\nquit\ny\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "Game left after 2 actions." in out.stdout, out.stdout + out.stderr

    def resumed(seats: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [SPLENDOR, "play", "--resume", str(record), "--seats", seats, "--database-url", url],
            input="quit\ny\n",
            capture_output=True,
            text=True,
            timeout=60,
        )

    refused = resumed("misty:human,greedy")
    said = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and "seat 0 was played by the profile 'ash' so far" in said, said
    assert "goes on as ash:human, or human (no Pokédex marked)" in said
    refused = resumed("ash:human,misty:human")
    said = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and "seat 1 was played by 'greedy 1' so far" in said, said
    assert Pokedex(open_store(url)).profiles() == ["ash"]  # misty never claimed
    refused = resumed("Ash:human,greedy")  # ash's own, spelt otherwise: refused as any name like another's is
    said = " ".join(refused.stderr.split())
    assert refused.returncode == 2 and "the name Ash looks like the profile ash" in said, said
    for seats in ("ash:human,greedy", "ash:human,human", "human,greedy"):  # the last leaves seat 0 unnamed
        out = resumed(seats)
        assert out.returncode == 0 and "Going on after 2 actions." in out.stdout, seats + out.stderr
