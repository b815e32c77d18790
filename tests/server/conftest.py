"""Real server processes for the tests, on SQLite and on a real PostgreSQL server that the tests start."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from splendor.server import Settings, create_app
from splendor.store import open_store
from splendor.store.database import Store

ROOT = Path(__file__).resolve().parents[2]
SPLENDOR = str(Path(sys.executable).parent / "splendor")


def _group_alive(pgid: int) -> bool:
    """True while a process of the group still runs. A process that has exited but is not yet reaped (a zombie,
    left to whoever adopts orphans, which a loaded machine may do late) is not alive: it holds nothing and acts no
    more."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():  # no /proc: ask the kernel, zombies included
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone while we looked
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            return True
    return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``splendor serve`` in its own process, with its log kept."""

    def __init__(self, url: str, log: Path, *extra: str, port: int | None = None) -> None:
        self.db_url, self.log, self.extra = url, log, extra
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        """Start the server and wait until it answers."""
        return self.launch().wait_ready()

    def launch(self) -> Server:
        """Start the server process, without waiting for it."""
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [
                    SPLENDOR,
                    "serve",
                    "--port",
                    str(self.port),
                    "--database-url",
                    self.db_url,
                    "--bot-workers",
                    "1",
                    "--bot-pause",
                    "0",
                    *self.extra,
                ],
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        return self

    def wait_ready(self) -> Server:
        """Wait until the server answers (RuntimeError with its log after a minute)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start:\n" + self.log.read_text())

    def stop(self) -> None:
        """Stop the server as an operator would (SIGTERM); then check that nothing of it is left running."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        if self.proc is not None:
            deadline = time.monotonic() + 10
            while _group_alive(self.proc.pid):
                if time.monotonic() > deadline:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    raise AssertionError("the server's bot workers outlived it")
                time.sleep(0.1)

    def kill9(self) -> None:
        """Kill the server and everything it started at once (a whole machine's crash)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)

    def kill9_main(self) -> None:
        """Kill the main process alone, as the kernel's OOM killer or an operator's ``kill -9 PID`` would: its
        bot workers are left to notice by themselves."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)

    def survivors(self) -> bool:
        """True while any process of the server's group is still alive."""
        assert self.proc is not None
        return _group_alive(self.proc.pid)

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=30)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    folder = tempfile.mkdtemp(prefix="splendor-pg-")
    script = str(ROOT / "scripts" / "postgres.sh")
    out = subprocess.run([script, "start", folder, str(free_port())], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"could not start PostgreSQL for the tests: {out.stderr}")
    try:
        yield out.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([script, "stop", folder], timeout=60)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/server.db"
    url: str = request.getfixturevalue("postgres_url")
    _reset_postgres(url)
    return url


def _reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store of its own on SQLite, closed after the test."""
    opened = open_store(f"sqlite:///{tmp_path}/store.db")
    try:
        yield opened
    finally:
        opened.close()


def bots_option(warm: bool) -> str:
    """A test server's option for its bots' processes: started with it (as in production, so that a search bot's
    first answer does not wait for its process), or at the first bot's turn (a search worker costs CPU to start,
    and most tests seat only quick bots or none)."""
    return "--warm-bot-workers" if warm else "--lazy-bot-workers"


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    """The server of one test, on SQLite; its bots' processes warm if the test is marked ``warm_bots``."""
    warm = bots_option(request.node.get_closest_marker("warm_bots") is not None)
    s = Server(f"sqlite:///{tmp_path}/server.db", tmp_path / "server.log", warm).start()
    try:
        yield s
    finally:
        s.stop()


def create(client: httpx.Client, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


# ----------------------------------------------------------------------------- the app in this process


@pytest.fixture
def app_client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The app in this process, with the settings a test asks for by ``@pytest.mark.settings(...)``. Its bots'
    processes start at the first bot's turn, so a test that seats none does not wait for them to start and stop."""
    marker = request.node.get_closest_marker("settings")
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/s.db",
        bot_workers=1,
        bot_pause_seconds=0,
        warm_bot_workers=False,
        **(marker.kwargs if marker else {}),
    )
    with TestClient(create_app(settings)) as c:
        yield c


def play_turns(
    client: httpx.Client | TestClient, game: dict[str, Any], seat: int, turns: int, token: str | None = None
) -> int:
    """``turns`` turns of ``seat`` in a game against bots, each its first legal action when its turn comes (with
    ``token``, else the seat's own secret when the game gave one, else the signed-in account); the game's number
    of actions once it is the seat's turn again (or the game is over). `RATED_AFTER_MOVES` turns make a rated game
    that the seat then leaves count."""
    token = token or game["seats"][seat].get("token")
    headers = {"x-seat-token": token} if token else {}

    def seen() -> dict[str, Any]:
        payload: dict[str, Any] = client.get(f"/api/games/{game['id']}", params={"seat": seat}, headers=headers).json()
        return payload

    for _turn in range(turns):
        legal = wait_for(lambda: (p := seen())["view"]["current_player"] == seat and p, seconds=60)["view"]
        r = client.post(
            f"/api/games/{game['id']}/actions",
            json={"seat": seat, "action": legal["legal_actions"][0]},
            headers=headers,
        )
        assert r.status_code == 200, r.text
    ready = wait_for(lambda: ((p := seen())["view"]["current_player"] == seat or p["over"]) and p, seconds=60)
    return int(ready["actions"])


def wait_for(check: Any, seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


@contextmanager
def processes(postgres_url: str, folder: Path, count: int, *args: str) -> Iterator[list[Server]]:
    """``count`` `splendor serve` processes (with ``args``) on one fresh PostgreSQL database, sharing nothing
    else, stopped at the end (those a test has not killed)."""
    _reset_postgres(postgres_url)
    servers: list[Server] = []
    try:
        for i in range(count):  # all at once on a new database: they upgrade it in turn
            servers.append(Server(postgres_url, folder / f"server{i}.log", *args).launch())
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.stop()


@pytest.fixture
def two(postgres_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    """Two processes on one PostgreSQL (the tests of what must happen exactly once, or reach every process)."""
    with processes(postgres_url, tmp_path, 2) as servers:
        yield servers
