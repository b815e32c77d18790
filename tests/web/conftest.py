"""The browser tests run a real server that lets them choose seeds (``--allow-chosen-seeds``): each test lays out
a known position, in Debian's Chromium (installed by scripts/chromium.sh) driven by Playwright, one browser a
module."""

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.server.conftest import ROOT, Server

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = (
        subprocess.run([str(ROOT / "scripts" / "chromium.sh")], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    """The server of one test. Its bots' processes start at the first bot's turn (most tests seat only quick bots
    or none, and a search worker costs seconds of CPU to start), unless the test is marked ``warm_bots``: then
    with the server, as in production, so that a search bot's first answer does not wait for its process.

    In a module marked ``one_server``, the module's one server (`module_server`) instead."""
    if request.node.get_closest_marker("one_server"):
        yield request.getfixturevalue("module_server")
        return
    warm = "--warm-bot-workers" if request.node.get_closest_marker("warm_bots") else "--lazy-bot-workers"
    s = Server(f"sqlite:///{tmp_path}/server.db", tmp_path / "server.log", "--allow-chosen-seeds", warm).start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for every test of a module marked ``one_server``: a module whose tests each make their own
    games and look only at those, so that no test can see another's. A server costs about 2 s of CPU to start,
    which over a module of twenty tests is much of what the module costs. Its bots' processes are warm, and an
    address may hold as many unfinished games as the module makes."""
    folder = tmp_path_factory.mktemp("server")
    s = Server(
        f"sqlite:///{folder}/server.db", folder / "server.log", "--allow-chosen-seeds", "--warm-bot-workers",
        "--games-per-client", "100000",
    ).start()  # fmt: skip
    try:
        yield s
    finally:
        s.stop()
