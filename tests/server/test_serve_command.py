"""`splendor serve` runs the server on the settings' own defaults: its options show them and pass them on, so that
a bound changed in `Settings` is changed for the command too (the options had repeated some 30 of them)."""

from __future__ import annotations

import dataclasses
import logging
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import splendor.cli.serve
import splendor.server.api
from splendor.cli import app
from splendor.server.settings import Settings
from tests.server.conftest import SPLENDOR, free_port


def served_settings(monkeypatch: pytest.MonkeyPatch, *args: str) -> Settings:
    """The settings `splendor serve ARGS` builds its application on, the server itself not started."""
    return served(monkeypatch, *args)[0]


def served(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Settings, str]:
    """The settings `splendor serve ARGS` builds its application on, and what it printed, the server itself not
    started."""
    built: list[Settings] = []

    def create_app(settings: Settings) -> Any:
        built.append(settings)
        return object()

    monkeypatch.setattr(splendor.server.api, "create_app", create_app)
    # nor uvicorn's config made, nor logging set up: both put handlers on the runner's streams, closed after, which
    # broke every later log line of the test's worker (a thousand errors in the full run)
    monkeypatch.setattr(uvicorn, "Config", lambda app, **options: app)

    class NotStarted:  # uvicorn's Server, as serve extends it (a class), run doing nothing
        def __init__(self, config: Any) -> None:
            self.config = config

        def run(self, sockets: Any = None) -> None:
            pass

    monkeypatch.setattr(uvicorn, "Server", NotStarted)
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    monkeypatch.setattr(splendor.cli.serve, "_listening", lambda host, port: None)  # nor the port taken
    monkeypatch.setattr(splendor.cli.serve, "_check_store", lambda url: None)  # nor the store made
    result = CliRunner().invoke(app, ["serve", "--database-url", "sqlite:///unused.sqlite", *args])
    assert result.exit_code == 0, result.output
    (settings,) = built
    return settings, result.output


def test_serve_without_options_runs_on_the_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    served = served_settings(monkeypatch, "--bot-workers", "1")
    expected = dataclasses.replace(Settings(), database_url="sqlite:///unused.sqlite", bot_workers=1)
    assert served == expected


def test_the_servers_banner_breaks_no_line_in_an_80_column_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer's find: the banner was one line of address, store and open files, broken mid-way at 80 columns.
    Each stands on a line of its own; the address's line is whole."""
    monkeypatch.setattr(splendor.cli.serve.console, "width", 80)
    lines = served(monkeypatch, "--bot-workers", "1")[1].splitlines()
    assert lines[0] == "splendor server on http://127.0.0.1:8000/ (API at /api, schema at /docs)", lines
    assert lines[1] == "  store: sqlite:///unused.sqlite" and lines[2].startswith("  open files: "), lines


def test_serve_options_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    served = served_settings(
        monkeypatch,
        *("--open-seat-minutes", "2", "--lease-seconds", "3", "--messages-per-second", "4"),
        *("--abandoned-game-days", "20"),
    )
    assert served.open_seat_seconds == 120 and served.abandoned_game_seconds == 20 * 86400
    assert served.lease_seconds == 3 and served.sweep_seconds == 1
    assert served.messages_per_second == 4 and served.message_burst == 12


def _serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SPLENDOR, "serve", *args], capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COLUMNS": "200"},
    )  # fmt: skip


def test_a_start_that_cannot_listen_touches_no_store(tmp_path: Path) -> None:
    """A server operator's find: a start whose port was taken (or whose host is unknown) made and upgraded the
    store before it failed: a mistaken start of a new version migrated a store that older processes serve."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = str(taken.getsockname()[1])
        done = _serve(tmp_path, "--port", port, "--database-url", f"sqlite:///{tmp_path}/s.db")
    finally:
        taken.close()
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done.stderr
    assert "give another with --port; with make: make run ARGS='--port 8001'" in " ".join(done.stderr.split())
    assert not (tmp_path / "s.db").exists()
    done = _serve(tmp_path, "--host", "nosuch.invalid", "--database-url", f"sqlite:///{tmp_path}/s.db")
    assert done.returncode == 2 and "cannot listen on nosuch.invalid" in done.stderr
    assert not (tmp_path / "s.db").exists()


def test_a_store_that_cannot_be_used_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """A server operator's find: an unreadable URL, an unreachable PostgreSQL, a file that cannot be made, a store
    of a newer splendor: each a traceback of 50 to 155 lines, the password of a URL among them."""
    from sqlalchemy import create_engine, text

    from splendor.store import open_store

    newer = f"sqlite:///{tmp_path}/newer.db"
    open_store(newer).close()
    with create_engine(newer).begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    (tmp_path / "file").write_text("a file, not a folder")
    for url, said in [
        ("notaurl", "cannot use the database URL 'notaurl'"),
        ("postgresql+psycopg://ann:secret@127.0.0.1:1/db", "cannot open the store postgresql+psycopg://ann:***@"),
        ("postgresql+psycopg://ann@127.0.0.1:1/db?password=secret", "cannot open the store postgresql+psycopg://ann@"),
        (f"sqlite:///{tmp_path}/file/s.db", "cannot make the store"),
        (newer, "was written by a newer splendor"),
    ]:
        done = _serve(tmp_path, "--port", str(free_port()), "--database-url", url)
        stderr = " ".join(done.stderr.split())
        assert done.returncode == 2 and said in stderr and "Traceback" not in stderr, (url, stderr)
        assert "secret" not in stderr


@pytest.mark.parametrize(
    "option", [["--port", "70000"], ["--bot-workers", "0"], ["--max-body", "-1"], ["--requests-per-second", "0"],
               ["--request-burst", "0"], ["--games-per-client", "-1"], ["--write-retry-seconds", "-5"],
               ["--messages-per-second", "0"], ["--log-level", "loud"]],
)  # fmt: skip
def test_a_setting_out_of_bounds_is_refused_at_the_start(tmp_path: Path, option: list[str]) -> None:
    """A server operator's find: --port 70000 listened on 4464 (the number wrapped round), --bot-workers 0 was a
    traceback, and the other values started a server that refused every request, or none."""
    done = _serve(tmp_path, *option, "--database-url", f"sqlite:///{tmp_path}/s.db")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "s.db").exists()
