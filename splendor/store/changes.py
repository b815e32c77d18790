"""How the server processes sharing one PostgreSQL database hear of each other's changes: ``NOTIFY`` in the
transaction that commits a change (so a change is announced if and only if it is committed), ``LISTEN`` on one
connection of each process. Nothing else is shared, and no other component is needed.

SQLite has no such channel: a SQLite store is served by one process, which hears its own changes directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import Connection, Engine, text

log = logging.getLogger("splendor.server")

CHANNEL = "splendor_games"
"""The channel every change of a game is announced on. The payload is ``GAME:N`` when the game's action N was
committed, ``GAME:seats`` when its seats changed, ``GAME:chat`` when a line of its chat was kept."""


def shared(engine: Engine) -> bool:
    """True when other processes may write to this store (PostgreSQL), so what a process holds in memory must be
    brought up to date from it; False for SQLite, which one process serves alone."""
    return engine.dialect.name == "postgresql"


def notify_change(conn: Connection, game_id: str, action: int | None = None) -> None:
    """Within the transaction that changes a game, announce the change (delivered when it commits): its action
    number ``action``, else a change of its seats."""
    if conn.dialect.name == "postgresql":
        payload = f"{game_id}:{action if action is not None else 'seats'}"
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})


def notify_chat(conn: Connection, game_id: str) -> None:
    """Within the transaction that keeps a chat line of a game, announce it (``GAME:chat``, delivered when it
    commits): each process pushes the new lines to its watchers (`splendor.server.chat`)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{game_id}:chat"})


def _libpq_url(engine: Engine) -> str:
    """The engine's database as a libpq connection string (psycopg's own connection, outside SQLAlchemy's pool)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeFeed:
    """Listens for the changes other processes commit, and hands each game id to ``heard``.

    When the connection is lost it reconnects (backing off to 5 s) and then calls ``resync``: a change committed
    while nobody listened is not announced again, so whatever a process holds must be read afresh.
    """

    def __init__(self, engine: Engine, heard: Callable[[str], None], resync: Callable[[], Awaitable[None]]) -> None:
        self.url = _libpq_url(engine)
        self.heard, self.resync = heard, resync
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _listen_forever(self) -> None:
        import psycopg

        delay, first = 0.1, True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        await self.resync()
                    first, delay = False, 0.1
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.listening.clear()
                log.warning("lost the change feed (%s); listening again in %.1f s", str(e)[:100], delay)
                first = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
