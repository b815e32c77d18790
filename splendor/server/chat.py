"""A game's chat: who may say and read what, what a line may hold, and its routes.

Two rooms per game. The seats' room: only a seat's holder (its secret, or the account keeping it:
`splendor.server.access.check_person`; still after the seat forfeited and a bot plays it on: its person took
part) writes and reads it, and only the seats' sockets are pushed it; a spectator or a stranger never reads it, not
even in the replay. The spectators' room: anyone reads it (the seats too); to
write in it a person needs a name, the signed-in account's, or a guest's given with the line (checked as every
name is, `splendor.store.names`; a guest may not take a name an account holds).

A line is plain text, never markup (the pages show it as text), 1 to `MAX_TEXT` characters once trimmed, one
line: control characters, invisible characters (zero-width spaces and joiners, direction controls, fillers) and
towers of combining marks are refused with a 400 that says why, except what an emoji sequence needs (a variation
selector after a visible character, a zero-width joiner between two pictographs, the tag characters of a
subdivision flag after a black flag, up to their cancel tag: England, Scotland, Wales). Or a canned phrase
(`PHRASES`), sent by its key and shown in each reader's own language. Each line keeps the game's action count when
it was said, so the replay shows it at its move. Bounds, counted by the store from the lines kept (so they hold
across processes and restarts, `splendor.store.chat`): 5 lines in 10 s per speaker, 15 per client address; past
them a 429 says how long to wait, and nothing is kept.

Chat stays open after the game ends for `OPEN_AFTER_END` seconds ("good game" is said after the last move), then
the room is closed (409) and only read.

Pushes: the process that keeps a line pushes it at once to its own watchers of the game (``{"type": "chat",
...}``: the seats' room to the seats' sockets, the spectators' room to every socket); on PostgreSQL the line is
announced on the change feed (``GAME:chat``), and every other process holding the game reads the lines of the
last minute and pushes those it has not pushed yet (`splendor.server.chat_push`), each line once per process.
"""

from __future__ import annotations

import math
import time
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal

import icu
from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from splendor.i18n import _, _n
from splendor.server import access, store_calls
from splendor.server.accounts import signed_in
from splendor.server.errors import Refused
from splendor.server.guards import client_address
from splendor.server.live import client_key
from splendor.server.schemas import Name, QueryWhole, SeatNumber, refusals
from splendor.server.seating import refuse_a_reserved_name
from splendor.server.settings import Settings
from splendor.store.chat import ROOMS, SEATS, SPECTATORS, ChatLine, ChatTooFast
from splendor.store.models import utc
from splendor.store.names import key_of

if TYPE_CHECKING:
    from splendor.server.live import GameManager

MAX_TEXT = 300
"""A line's length in characters once trimmed: a few sentences, enough to talk; not a wall over the table."""
MAX_TYPED = 1200
"""The longest text read at all (before trimming); more is a 422."""
MAX_MARKS = 4
"""Combining marks in a row: enough for any script's writing, not for a tower that spills over other lines."""
OPEN_AFTER_END = 3600.0
"""How long after a game ended its chat takes new lines (seconds)."""
PHRASES = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "good_game": "Good game!",
    "thinking": "Thinking…",
    "well_played": "Well played!",
    "thanks": "Thanks!",
}
"""The canned phrases by key, each with its English words (kept with the line; the pages show their own
language's, from the same words in ``chat.js``)."""
PhraseKey = Literal["hello", "good_luck", "good_game", "thinking", "well_played", "thanks"]

_IGNORABLE = icu.UnicodeSet("[[:Default_Ignorable_Code_Point:][:Cf:]\u115f\u1160\u3164\uffa0]")
"""What shows as nothing: the default-ignorable code points, format characters and the Hangul fillers."""
_BRAILLE_BLANK = "\u2800"
"""The braille pattern with no dots: braille text and art hold it, but a line of it alone shows blank."""
_PICTOGRAPHS = icu.UnicodeSet("[:Extended_Pictographic:]")
_CONTROL = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
_SELECTORS = frozenset("\ufe0e\ufe0f")
_JOINER = "\u200d"
_SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))
_BLACK_FLAG = "\U0001f3f4"
_TAGS = frozenset(chr(c) for c in range(0xE0020, 0xE007F))
_CANCEL_TAG = "\U000e007f"
_SUBDIVISIONS = frozenset({"gbeng", "gbsct", "gbwls"})
"""The subdivision flags Unicode recommends (England, Scotland, Wales): the only tag sequences a line may hold, so
that tags cannot carry hidden text."""


class ChatPost(BaseModel):
    """A line to say: ``text`` or a canned ``phrase`` (one of the two). With ``seat`` (and its secret in the
    ``X-Seat-Token`` header or the ``token`` query, or the account keeping it) it goes to the seats' room; without,
    to the spectators' room, under the signed-in account's name or, signed out, the guest ``name`` given."""

    model_config = ConfigDict(extra="forbid")
    seat: SeatNumber | None = Field(default=None, description="your seat: the seats' room (none: the spectators')")
    text: str | None = Field(
        default=None, max_length=MAX_TYPED, description=f"plain text, 1 to {MAX_TEXT} characters once trimmed"
    )
    phrase: PhraseKey | None = Field(default=None, description="a canned phrase, shown in each reader's language")
    name: Name | None = Field(default=None, description="a guest's name in the spectators' room (signed out)")


def _visible_before(text: str, i: int) -> str | None:
    """The character an emoji modifier at ``i`` belongs to (skipping selectors and skin tones), or None."""
    while i > 0:
        i -= 1
        if text[i] not in _SELECTORS and text[i] not in _SKIN_TONES:
            return text[i]
    return None


def check_text(raw: str) -> str:
    """The line as it is kept (NFC, trimmed), or `Refused` (400) saying what is wrong with it."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text.replace(_BRAILLE_BLANK, " ").strip():
        raise Refused(400, _("say something: the message is empty"))
    if len(text) > MAX_TEXT:
        raise Refused(400, _("a message is at most {most} characters: say it in fewer words", most=MAX_TEXT))
    marks = 0
    flag_tags = _flag_tags(text)
    for i, c in enumerate(text):
        kind = unicodedata.category(c)
        if i in flag_tags:
            continue  # a subdivision flag's tags (England, Scotland, Wales)
        if kind in _CONTROL:
            raise Refused(400, _("a message is one line of text: no line breaks, tabs or control characters"))
        if c in _SELECTORS and i > 0 and not _invisible(text[i - 1]):
            continue  # a variation selector on a visible character: an emoji's or a text's presentation
        if c == _JOINER:
            before, after = _visible_before(text, i), text[i + 1] if i + 1 < len(text) else None
            if before and after and _PICTOGRAPHS.contains(before) and _PICTOGRAPHS.contains(after):
                continue  # one emoji of several (a family, a profession)
        if _invisible(c):
            raise Refused(
                400,
                _(
                    "a message may not hold invisible characters "
                    "(zero-width spaces or joiners, direction controls, fillers)"
                ),
            )
        marks = marks + 1 if kind[0] == "M" else 0
        if marks > MAX_MARKS:
            raise Refused(400, _("too many accents on one letter"))
    return text


def _flag_tags(text: str) -> set[int]:
    """The places of the tag characters that spell a subdivision flag: after a black flag (U+1F3F4), the tags
    (U+E0020 to U+E007E) of one of ``_SUBDIVISIONS``, then the cancel tag (U+E007F). Tags anywhere else, or
    spelling anything else, are invisible characters."""
    places: set[int] = set()
    for i, c in enumerate(text):
        if c != _BLACK_FLAG:
            continue
        j = i + 1
        while j < len(text) and text[j] in _TAGS:
            j += 1
        spelt = "".join(chr(ord(t) - 0xE0000) for t in text[i + 1 : j])
        if spelt in _SUBDIVISIONS and j < len(text) and text[j] == _CANCEL_TAG:
            places.update(range(i + 1, j + 1))
    return places


def _invisible(c: str) -> bool:
    return bool(_IGNORABLE.contains(c))


def _secret(token: str | None, header: str | None) -> str | None:
    return header or token


def chat_router(settings: Settings) -> APIRouter:
    """The routes of a game's chat."""
    router = APIRouter()

    def manager(request: Request) -> GameManager:
        m: GameManager = request.app.state.manager
        return m

    @router.post("/api/games/{game_id}/chat", status_code=201, responses=refusals(400, 403, 404, 409, 429))
    async def say(
        request: Request,
        game_id: str,
        body: ChatPost,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Say a line in a game's chat: with ``seat`` (its secret, or the account keeping it) in the seats' room,
        else in the spectators' room (under the signed-in account's name, or the guest ``name`` given). Plain
        text of 1 to 300 characters, one line, no control or invisible characters (400); or a canned ``phrase``.
        At most 5 lines in 10 seconds per speaker and 15 per client address (429, nothing kept); open until an
        hour after the game ended (409). Answers the line kept, which every reader's socket is pushed too."""
        m = manager(request)
        if (body.text is None) == (body.phrase is None):
            raise Refused(400, _("send either text or a canned phrase"))
        said = check_text(body.text) if body.text is not None else PHRASES[body.phrase or ""]
        live = await m.get(game_id)
        account = await signed_in(request)
        if body.seat is not None:
            access.check_person(live, body.seat, _secret(token, x_seat_token), account)
            room, name = SEATS, live.seats[body.seat].name or ""
        else:
            room = SPECTATORS
            if account is not None:
                name = account.name
            elif body.name is None:
                raise Refused(400, _("give your name (or sign in) to talk in the spectators' room"))
            else:
                name = body.name
                refuse_a_reserved_name(name)  # a bot's, or "Player 2"
                await m.refuse_an_account_name(name, _("this name belongs to an account: sign in to talk under it"))
                if key_of(name) in {key_of(s.name) for s in live.seats if s.name}:  # a player's, or look-alike
                    raise Refused(409, _("a player of this game has that name: choose another to talk as a spectator"))
        if live.over:
            ended = await store_calls.read(settings, lambda: m.chat.store.ended(live.id))
            if ended is not None and time.time() - utc(ended).timestamp() > OPEN_AFTER_END:
                raise Refused(409, _("this game ended over an hour ago: its chat is closed"))
        address = client_key(client_address(request.scope))
        kept: list[ChatLine] = []
        try:
            await store_calls.write(
                settings,
                lambda: kept.append(
                    m.chat.store.say(live.id, room, body.seat, name, said, body.phrase, len(live.game.history), address)
                ),
            )
        except ChatTooFast as e:
            wait = max(1, math.ceil(e.wait))  # never shorter than the wait: a line sent then is let in
            if e.address:
                why = _n(
                    "too many messages from your address: wait {n} second",
                    "too many messages from your address: wait {n} seconds",
                    wait,
                )
            else:
                why = _n(
                    "you are sending messages too fast: wait {n} second",
                    "you are sending messages too fast: wait {n} seconds",
                    wait,
                )
            raise Refused(429, why, retry_after=wait) from None
        m.chat.deliver(live, kept)
        return kept[0].public()

    @router.get("/api/games/{game_id}/chat", responses=refusals(403, 404))
    async def history(
        request: Request,
        game_id: str,
        room: Literal["seats", "spectators"] | None = None,
        seat: Annotated[int | None, Query(ge=0, le=3), QueryWhole] = None,
        after: Annotated[int, Query(ge=0, le=2**31 - 1), QueryWhole] = 0,  # a line number the store can hold (INTEGER)
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A game's chat, oldest first (at most 500 lines after the line ``after``): the seats' room for a seat
        (its secret, or the account keeping it; 403 for anyone else), the spectators' room for anyone; no
        ``room``: every room the caller may read. Without ``seat``, a signed-in account that keeps a seat of the
        game reads as that seat (so its replay shows the players' room in any browser); ``seat`` says which seat
        was read as (null: a spectator). Each line says its ``actions``: the game's action count when it was said
        (the replay shows it at that move)."""
        m = manager(request)
        live = await m.get(game_id)
        account = await signed_in(request)
        if seat is None and room != SPECTATORS and account is not None:
            seat = next((s.seat for s in live.seats if s.account_id == account.id), None)
        if room == SEATS and seat is None:
            raise Refused(403, _("the seats' chat is for the game's seats: give your seat and its secret"))
        if seat is not None:
            access.check_person(live, seat, _secret(token, x_seat_token), account)
        rooms = ROOMS if seat is not None else (SPECTATORS,)
        if room is not None:
            rooms = (room,)
        lines = await store_calls.read(settings, lambda: m.chat.store.lines(live.id, rooms, after))
        return {"id": live.id, "seat": seat, "rooms": list(rooms), "lines": [line.public() for line in lines]}

    return router
