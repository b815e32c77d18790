"""Watchers: the WebSockets that receive a seat's (or a spectator's) view after every change, and the game's set of
them: who gets in (`watch`), and one push of every watcher's own view after a change (`broadcast`).

Each watcher has its own bounded queue and its own sending task, so a slow or silent client can never hold up
the path that accepts an action, schedules a bot, or feeds the other watchers: pushing is a non-blocking put.
A watcher whose queue fills up, or whose send does not finish in time, has fallen behind and is dropped (its
socket is closed with code 1013, "try again later"; a client reconnects and gets the current state at once). A
close says its reason in the watcher's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi import WebSocket

from splendor.i18n import SOURCE_LANGUAGE, Message, _, _n, translate
from splendor.server.settings import Settings
from splendor.store.accounts import SignedIn

log = logging.getLogger("splendor.server")

TOO_SLOW = 1013  # WebSocket close code "try again later"
POLICY = 1008  # WebSocket close code "policy violation"
NOT_ALLOWED = 4403  # the application's close code: this socket may no longer read the seat
SESSION_ENDED = 4401  # the application's close code: the session that let it read the seat has ended
REPLACED = 4409  # the application's close code: the seat was opened in a newer tab, which has it now
FELL_BEHIND = _("you fell behind: reconnect for the current state")


CUT = "…"
"""What ends a close reason cut to fit its frame: the table then asks for the reason whole over HTTP."""


def close_reason(text: str) -> str:
    """``text`` as a WebSocket close frame carries it (123 bytes of UTF-8): whole when it fits, else cut, never
    inside a character, and ended by `CUT`. (A refusal of a seat, 4403, may be longer in Korean or Slovenian: the
    table asks for it whole over HTTP, and only then, since a refusal read over HTTP shows in the browser's console
    as a failed request.)

    >>> close_reason("the link no longer plays this seat")
    'the link no longer plays this seat'
    >>> len(close_reason("한" * 60).encode()), close_reason("한" * 60)[-1]
    (123, '…')
    """
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + CUT


@dataclass(frozen=True)
class Credentials:
    """What let a WebSocket in: the client's address, and for a seat the secret it showed and the account whose
    session cookie it carried (``session`` is that cookie, to check that the session still lasts)."""

    client: str = ""
    token: str | None = None
    account: SignedIn | None = None
    session: str | None = None


class Watcher:
    """One WebSocket of a game, fed through a queue of at most ``queue_size`` messages; ``language``: the one its
    reader reads, for the reason of its close."""

    def __init__(
        self,
        socket: WebSocket,
        seat: int | None,
        queue_size: int,
        send_timeout: float,
        credentials: Credentials | None = None,
        language: str = SOURCE_LANGUAGE,
    ) -> None:
        self.socket = socket
        self.language = language
        self.seat = seat
        self.credentials = credentials or Credentials()
        self.send_timeout = send_timeout
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.closed = False
        self.close_code = TOO_SLOW
        self.close_words: Message | str = FELL_BEHIND
        self.task = asyncio.get_running_loop().create_task(self._send_all())

    def push(self, text: str) -> bool:
        """Queue a message without waiting; a watcher whose queue is full has fallen behind and is dropped."""
        if self.closed:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(TOO_SLOW, FELL_BEHIND)
            return False
        return True

    def close(self, code: int, reason: Message | str) -> None:
        """Stop sending and close the socket (from the sending task, after nothing more is queued), saying
        ``reason`` in the watcher's language."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_words = code, reason
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    async def _send_all(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await asyncio.wait_for(self.socket.send_text(text), self.send_timeout)
        except Exception as e:
            log.debug("a watcher is dropped: %r", e)
            self.closed = True
        with contextlib.suppress(Exception):
            reason = close_reason(translate(self.close_words, self.language))
            await asyncio.wait_for(self.socket.close(code=self.close_code, reason=reason), self.send_timeout)

    async def finish(self) -> None:
        """Close and wait for the sending task to end (when the connection ends)."""
        self.close(1000, "")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, self.send_timeout + 1)


class Watched(Protocol):
    """A game as its watchers need it: their list, and what each seat (None: a spectator) receives."""

    watchers: list[Watcher]

    def payload(self, seat: int | None) -> dict[str, Any]: ...


def state_text(game: Watched, seat: int | None) -> str:
    """The push of a seat's (or a spectator's) state: ``{"type": "state", ...payload}``."""
    return json.dumps({"type": "state", **game.payload(seat)}, separators=(",", ":"))


def watch(
    game: Watched,
    socket: WebSocket,
    seat: int | None,
    settings: Settings,
    credentials: Credentials | None = None,
    language: str = SOURCE_LANGUAGE,
) -> Watcher:
    """A new watcher of the game, sent the current state at once. A seat always gets in (its oldest socket is
    closed, ``REPLACED``, when it has ``sockets_per_seat`` open already: a tab left open elsewhere, which should not
    reconnect on its own, or two tabs would take the seat from each other for ever); spectators are bounded per
    game and per client address, so strangers cannot crowd the players out (1013: try again later)."""
    credentials = credentials or Credentials()
    watcher = Watcher(socket, seat, settings.watcher_queue, settings.send_timeout, credentials, language)
    if seat is None:
        spectators = [w for w in game.watchers if w.seat is None]
        if len(spectators) >= settings.watchers_per_game:
            watcher.close(
                TOO_SLOW,
                _n(
                    "this game has {n} spectator, the most allowed",
                    "this game has {n} spectators, the most allowed",
                    len(spectators),
                ),
            )
            return watcher
        if sum(w.credentials.client == credentials.client for w in spectators) >= settings.spectators_per_address:
            watcher.close(
                TOO_SLOW,
                _n(
                    "you watch this game in {n} tab already, the most allowed",
                    "you watch this game in {n} tabs already, the most allowed",
                    settings.spectators_per_address,
                ),
            )
            return watcher
    else:
        mine = [w for w in game.watchers if w.seat == seat]
        for old in mine[: max(0, len(mine) - settings.sockets_per_seat + 1)]:
            old.close(REPLACED, _("this seat was opened in another tab"))
            unwatch(game, old)
    game.watchers.append(watcher)
    watcher.push(state_text(game, seat))
    return watcher


def unwatch(game: Watched, watcher: Watcher) -> None:
    """The watcher is gone (it left, or was dropped)."""
    if watcher in game.watchers:
        game.watchers.remove(watcher)


def broadcast(game: Watched) -> None:
    """Queue every watcher its own view (one view per seat, shared by that seat's watchers); never waits."""
    texts: dict[int | None, str] = {}
    for watcher in list(game.watchers):
        if watcher.closed:
            unwatch(game, watcher)
            continue
        if watcher.seat not in texts:
            texts[watcher.seat] = state_text(game, watcher.seat)
        if not watcher.push(texts[watcher.seat]):
            unwatch(game, watcher)
