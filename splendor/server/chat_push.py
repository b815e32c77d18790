"""The live pushes of a game's chat lines to the sockets that may read them, each line once per process.

The process that keeps a line pushes it at once to its own watchers of the game; on PostgreSQL the line is also
announced on the change feed (``GAME:chat``), and every process holding the game reads the lines of the last
`HEARD_WINDOW` seconds and pushes those it has not pushed yet. A window rather than "after the last id pushed":
ids are handed out when a line is written, not when it commits, so two lines racing on two processes may commit
out of order, and the later id must not hide the earlier. A client joining (or reconnecting) reads the history
(``GET /api/games/{id}/chat``) and drops a pushed line whose id it holds already.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from splendor.server import store_calls
from splendor.server.errors import Refused
from splendor.server.settings import Settings
from splendor.server.watchers import Watcher, unwatch
from splendor.store.chat import SPECTATORS, ChatLine, ChatStore

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame

log = logging.getLogger("splendor.server")

HEARD_WINDOW = 60.0
"""How far back a process looks for lines when it hears of new ones from another process (seconds)."""


def push_text(line: ChatLine) -> str:
    """A line as the sockets receive it: ``{"type": "chat", "id", "room", "seat", "name", "text", "phrase",
    "at", "actions"}``."""
    return json.dumps({"type": "chat", **line.public()}, separators=(",", ":"))


def reads(watcher: Watcher, room: str) -> bool:
    """Whether a socket is pushed a room's lines: the seats' room to the seats' sockets only (checked when they
    connected, and closed when they may no longer read their seat); the spectators' room to every socket."""
    return room == SPECTATORS or watcher.seat is not None


class ChatHub:
    """Pushes a game's chat lines to this process's watchers, each line once."""

    def __init__(self, store: ChatStore, settings: Settings, held: Callable[[str], LiveGame | None]) -> None:
        self.store, self.settings, self.held = store, settings, held
        self._pushed: dict[str, dict[int, float]] = {}  # game → line id → when it was pushed (monotonic)
        self._tasks: set[asyncio.Task[None]] = set()

    def deliver(self, live: LiveGame, lines: list[ChatLine]) -> None:
        """Push the lines not pushed yet to the watchers who may read them."""
        now = time.monotonic()
        pushed = self._pushed.setdefault(live.id, {})
        for line in lines:
            if line.id in pushed:
                continue
            pushed[line.id] = now
            text = push_text(line)
            for watcher in list(live.watchers):
                if watcher.closed or (reads(watcher, line.room) and not watcher.push(text)):
                    unwatch(live, watcher)
        for game_id in list(self._pushed):  # forget what is past the window of what may be heard again
            kept = {k: v for k, v in self._pushed[game_id].items() if now - v < 2 * HEARD_WINDOW}
            if kept:
                self._pushed[game_id] = kept
            else:
                del self._pushed[game_id]

    def heard(self, game_id: str) -> None:
        """The change feed said a line of ``game_id`` was kept (by this process or another): push the lines this
        process has not pushed, if it holds the game and someone watches it here."""
        live = self.held(game_id)
        if live is None or not live.watchers:
            return
        task = asyncio.get_running_loop().create_task(self._catch_up(live))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, live: LiveGame) -> None:
        try:
            lines = await store_calls.read(self.settings, lambda: self.store.recent(live.id, HEARD_WINDOW))
        except Refused as e:
            log.warning("game %s: new chat lines could not be read: %s", live.id, e)
            return
        self.deliver(live, lines)
