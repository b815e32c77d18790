"""The game server: live games over HTTP and WebSocket, kept in the store, with bots thinking off the event loop.

``create_app(Settings(...))`` builds the FastAPI application; ``splendor serve`` runs it with Uvicorn.
"""

from splendor.server.api import create_app
from splendor.server.settings import Settings

__all__ = ["Settings", "create_app"]
