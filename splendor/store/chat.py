"""A game's chat, kept with the game: what its seats said to each other (room ``seats``) and what its spectators
said (room ``spectators``), each line with the game's action count when it was said, so a replay shows it at its
move.

A line is written only within its bounds, counted in the same transaction from the lines already kept (so the
bounds hold across every server process and across restarts): at most ``burst`` lines in ``window`` seconds from
one speaker (a seat of the game; in the spectators' room, one client address), and at most ``address_burst`` from
one client address over all the games. On PostgreSQL the count and the write of one client address take turns
under an advisory lock, so racing processes cannot both pass the count; SQLite is written by one process, under a
lock of its own. A line written is announced on the change feed (``GAME:chat``) in the same transaction.
"""

from __future__ import annotations

import hashlib
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, text

from splendor.store.changes import notify_chat
from splendor.store.database import Store
from splendor.store.models import ChatMessage, GameRow

SEATS = "seats"
SPECTATORS = "spectators"
ROOMS = (SEATS, SPECTATORS)


@dataclass(frozen=True)
class ChatBounds:
    """How many lines one speaker, and one client address, may say within ``window`` seconds."""

    burst: int = 5
    window: float = 10.0
    address_burst: int = 15


@dataclass(frozen=True)
class ChatLine:
    """One kept line: ``phrase`` is a canned phrase's key (``text`` its English) or None for typed text."""

    id: int
    room: str
    seat: int | None
    name: str
    text: str
    phrase: str | None
    at: float
    actions: int

    def public(self) -> dict[str, Any]:
        """The line as a client receives it (never the address it came from)."""
        return {
            "id": self.id,
            "room": self.room,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
            "at": self.at,
            "actions": self.actions,
        }


class ChatTooFast(Exception):
    """A line over its bounds: nothing was written. ``wait`` is how many seconds until one more would pass,
    ``address`` whether the client address's bound (rather than the speaker's) refused it."""

    def __init__(self, wait: float, address: bool) -> None:
        super().__init__(f"too many chat lines: wait {wait:.0f} s")
        self.wait, self.address = wait, address


def _line(row: ChatMessage) -> ChatLine:
    return ChatLine(row.id, row.room, row.seat, row.name, row.text, row.phrase, row.at, row.actions)


def _lock_key(address_key: str) -> int:
    """A 63-bit advisory lock key of a client address's chat (apart from other advisory locks by its prefix)."""
    return int.from_bytes(hashlib.sha256(f"chat:{address_key}".encode()).digest()[:8], "big") >> 1


class ChatStore:
    """Writes a game's chat lines within their bounds, and reads them back."""

    def __init__(self, store: Store, bounds: ChatBounds | None = None) -> None:
        self.store = store
        self.bounds = bounds or ChatBounds()
        self._writing = threading.Lock()  # SQLite (one process): lines are counted and written one at a time

    def say(
        self,
        game_id: str,
        room: str,
        seat: int | None,
        name: str,
        said: str,
        phrase: str | None,
        actions: int,
        address_key: str,
    ) -> ChatLine:
        """Keep one line, or `ChatTooFast` (nothing written) when its speaker or its address is over its bounds."""
        b = self.bounds
        postgres = self.store.engine.dialect.name == "postgresql"
        with nullcontext() if postgres else self._writing, self.store.session() as s:
            if postgres:
                s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(address_key)})
            now = time.time()
            since = now - b.window
            speaker = [ChatMessage.game_id == game_id, ChatMessage.room == room, ChatMessage.at > since]
            speaker.append(ChatMessage.seat == seat if room == SEATS else ChatMessage.address_key == address_key)
            for where, most, address in (
                (speaker, b.burst, False),
                ([ChatMessage.address_key == address_key, ChatMessage.at > since], b.address_burst, True),
            ):
                times = list(
                    s.scalars(select(ChatMessage.at).where(*where).order_by(ChatMessage.at.desc()).limit(most))
                )
                if len(times) >= most:  # the oldest of the last ``most`` must leave the window first
                    raise ChatTooFast(max(1.0, times[-1] + b.window - now), address)
            row = ChatMessage(
                game_id=game_id,
                room=room,
                seat=seat,
                name=name,
                text=said,
                phrase=phrase,
                at=now,
                actions=actions,
                address_key=address_key,
            )
            s.add(row)
            s.flush()
            notify_chat(s.connection(), game_id)
            return _line(row)

    def lines(self, game_id: str, rooms: tuple[str, ...], after: int = 0, limit: int = 500) -> list[ChatLine]:
        """A game's lines in ``rooms`` with an id above ``after``, oldest first: the first ``limit`` of them."""
        with self.store.session() as s:
            rows = s.scalars(
                select(ChatMessage)
                .where(ChatMessage.game_id == game_id, ChatMessage.room.in_(rooms), ChatMessage.id > after)
                .order_by(ChatMessage.id)
                .limit(limit)
            )
            return [_line(r) for r in rows]

    def recent(self, game_id: str, seconds: float, limit: int = 200) -> list[ChatLine]:
        """A game's lines of both rooms said in the last ``seconds`` (by the writers' clocks), oldest first: what
        a process that heard of new lines on the change feed pushes, less what it pushed already."""
        with self.store.session() as s:
            rows = s.scalars(
                select(ChatMessage)
                .where(ChatMessage.game_id == game_id, ChatMessage.at > time.time() - seconds)
                .order_by(ChatMessage.id.desc())
                .limit(limit)
            )
            return [_line(r) for r in reversed(list(rows))]

    def ended(self, game_id: str) -> datetime | None:
        """When a finished game was last changed (the move, resignation or timeout that ended it); None while it
        goes on or when there is no such game."""
        with self.store.session() as s:
            row = s.execute(select(GameRow.status, GameRow.updated_at).where(GameRow.id == game_id)).first()
        if row is None or row.status == "ongoing":
            return None
        return row.updated_at
