"""The browser tests run a real server that lets them choose seeds (``--allow-chosen-seeds``): each test lays out
a known position, in Debian's Chromium (installed by scripts/chromium.sh) driven by Playwright, one browser a
module."""

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.server.conftest import ROOT, Server, bots_option

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _Browser:
    """The browser, its pages opened with ``bypass_csp`` unless a test says otherwise: Playwright evaluates a test's
    string predicates (``wait_for_function("...")``) with ``eval``, which the pages' Content-Security-Policy
    refuses. `test_content_security.py` plays the pages under the policy itself."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> BrowserContext:
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def new_page(self, **options: Any) -> Page:
        return self._browser.new_page(**{"bypass_csp": True, **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = (
        subprocess.run([str(ROOT / "scripts" / "chromium.sh")], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield cast(Browser, _Browser(b))
        b.close()


@pytest.fixture(autouse=True)
def close_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every page a test opened is closed when the test ends: a page left open on a module's shared server would
    go on polling its lobby and holding its WebSocket beside every later test of the module."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """The server of one test, its bots' processes warm if the test is marked ``warm_bots``; in a module marked
    ``one_server``, the module's one server (`module_server`) instead."""
    if request.node.get_closest_marker("one_server"):
        yield request.getfixturevalue("module_server")
        return
    folder: Path = request.getfixturevalue("tmp_path")
    warm = bots_option(request.node.get_closest_marker("warm_bots") is not None)
    s = Server(f"sqlite:///{folder}/server.db", folder / "server.log", "--allow-chosen-seeds", warm).start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def module_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for every test of a module marked ``one_server``: a module whose tests each make their own
    games and act only on those. (The lobby's list of games shows the module's earlier games too; no test of such
    a module reads it.) A server costs about 2 s of CPU to start, which over a module of twenty tests is much of
    what the module costs. Its bots' processes are warm if any test of the module is marked ``warm_bots``, and an
    address may hold as many unfinished games as the module makes, as fast as it makes them."""
    mine = [item for item in request.session.items if getattr(item, "module", None) is request.module]
    warm = any(item.get_closest_marker("warm_bots") for item in mine)
    folder = tmp_path_factory.mktemp("server")
    s = Server(
        f"sqlite:///{folder}/server.db", folder / "server.log", "--allow-chosen-seeds", bots_option(warm),
        "--games-per-client", "100000", "--games-per-minute", "100000",
    ).start()  # fmt: skip
    try:
        yield s
    finally:
        s.stop()
