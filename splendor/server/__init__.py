"""The game server: live games over HTTP and WebSocket, kept in the store, with bots thinking off the event loop.

``create_app(Settings(...))`` builds the FastAPI application; ``splendor serve`` runs it with Uvicorn.

Both are imported when first asked for, not with the package: the bots' worker processes import
``splendor.server.bots`` alone, and need neither FastAPI nor the store (their start would otherwise cost about
1.5 s of CPU more, at every server start and every restart of a worker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from splendor.server.api import create_app
    from splendor.server.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from splendor.server.api import create_app

        return create_app
    if name == "Settings":
        from splendor.server.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
