"""The browser tests share the server fixture of the server tests."""

from tests.server.conftest import server

__all__ = ["server"]
