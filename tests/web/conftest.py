"""The browser tests run a real server that lets them choose seeds (``--allow-chosen-seeds``): each test lays out
a known position."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path}/server.db", tmp_path / "server.log", "--allow-chosen-seeds").start()
    try:
        yield s
    finally:
        s.stop()
