"""A game's WebSocket: the seat's (or a spectator's) view pushed after every change, actions from a seat.

Every message a client sends is answered, never fatal: a binary frame, text that is not JSON (or JSON nested too
deeply to read), a message of the wrong shape, an ``expect`` that is not a whole number or an illegal action each
get ``{"type": "error", "status", "detail"}`` and the connection stays. What is bounded closes it: a frame over
the size limit (1009, by the server), messages faster than the rate limit (1008), a watcher too slow to read its
pushes (1013, see ``watchers``).
"""

from __future__ import annotations

import json
import time

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.types import Message

from splendor.i18n import SOURCE_LANGUAGE, _, translate
from splendor.server.errors import Refused
from splendor.server.guards import FROM_ANOTHER_SITE
from splendor.server.live import GameManager
from splendor.server.schemas import SocketAction
from splendor.server.settings import Settings
from splendor.server.watchers import POLICY, Credentials, close_reason
from splendor.store.accounts import SignedIn

ACTION_SHAPE = 'send {"type": "action", "action": "...", "expect": N} (expect is optional)'
FIELD_PROBLEMS = {
    "action": "action must be text of 1 to 80 characters, in the game's notation",
    "expect": "expect must be a whole number of zero or more: the number of actions you saw",
}
"""What a message is told when a field of its action is wrong (anything else: the shape it should have)."""


class MessageRate:
    """A token bucket for one connection's messages."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error(status: int, detail: str) -> str:
    """A socket's refusal of a message, which leaves the connection open: ``{"type": "error", "status", "detail"}``."""
    return json.dumps({"type": "error", "status": status, "detail": detail}, separators=(",", ":"))


def read_action(message: Message) -> SocketAction:
    """The action of a client's message, read by the same model as an action sent by HTTP
    (`splendor.server.schemas.Move`), or `Refused` (400) saying what is wrong."""
    text = message.get("text")
    if text is None:
        raise Refused(400, "send text frames holding JSON, not binary ones")
    try:
        data = json.loads(text)
    except ValueError:
        raise Refused(400, "send JSON messages: " + ACTION_SHAPE) from None
    except RecursionError:
        raise Refused(400, "the message is nested too deeply: " + ACTION_SHAPE) from None
    try:
        return SocketAction.model_validate(data)
    except ValidationError as e:
        wrong = {str(err["loc"][0]) if err["loc"] else "" for err in e.errors()}
        problem = next((FIELD_PROBLEMS[f] for f in FIELD_PROBLEMS if f in wrong), ACTION_SHAPE)
        raise Refused(400, ACTION_SHAPE if wrong - FIELD_PROBLEMS.keys() else problem) from None


async def serve_socket(
    manager: GameManager,
    settings: Settings,
    ws: WebSocket,
    game_id: str,
    seat: int | None,
    token: str | None,
    language: str = SOURCE_LANGUAGE,
    account: SignedIn | None = None,
    session: str | None = None,
    client: str = "",
    session_refused: bool = False,
) -> None:
    """Serve one WebSocket of a game until the client leaves or breaks a bound. The seat is the holder's of its
    secret, or of the signed-in ``account`` that keeps it (``session``: that account's session cookie, checked
    again before each action: a socket whose session ended acts, and reads the seat, only by the secret).
    ``session_refused``: a session cookie came from another site's page and did not count; a seat it was the only
    way into is refused saying so, not as if nobody were signed in."""
    try:
        live = await manager.get(game_id)
        try:
            manager.check_seat(live, seat, token, account)
        except Refused as e:
            kept = seat is not None and 0 <= seat < len(live.seats) and live.seats[seat].account_id is not None
            if session_refused and not token and e.status == 403 and kept:  # the session was its only way in
                raise Refused(403, FROM_ANOTHER_SITE) from None
            raise
    except Refused as e:
        # Opened, then closed with a code and a reason the table reads ("this link is not valid", its words): a
        # socket refused before it opens reaches a browser as a bare failure, which the table would retry for ever.
        # A store that cannot answer now (503) is a close the client should retry after a while (1013).
        await ws.accept()
        code = {403: 4403, 404: 4404}.get(e.status, 1013)
        await ws.close(code=code, reason=close_reason(translate(e.message, language)))
        return
    await ws.accept()
    watcher = manager.watch(
        live,
        ws,
        seat,
        Credentials(client=client, token=token, account=account, session=session if account is not None else None),
        language,
    )
    rate = MessageRate(settings.messages_per_second, settings.message_burst)
    try:
        while not watcher.closed:
            try:
                message = await ws.receive()
            except (RuntimeError, WebSocketDisconnect):  # closed under us (a dropped watcher)
                break
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                watcher.close(POLICY, _("too many messages: slow down"))
                break
            try:
                move = read_action(message)
                if seat is None:
                    raise Refused(403, _("spectators do not act"))
                if not await manager.session_lasts(live, watcher):
                    break
                await manager.act(game_id, seat, move.action, token, move.expect, account=watcher.credentials.account)
            except Refused as e:
                watcher.push(error(e.status, translate(e.message, language)))
    finally:
        manager.unwatch(live, watcher)
        await watcher.finish()
