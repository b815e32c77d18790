"""The routes that find a game: the open-games list, taking an open seat (`splendor.server.open_seats`), a finished
game's rematch (`splendor.server.rematches`) and quick play (`splendor.server.quick_play`)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request, Response

from splendor.server import open_seats, rematches
from splendor.server.access import seat_link
from splendor.server.accounts import signed_in
from splendor.server.cache import LiveGame
from splendor.server.guards import RateLimiter, client_address
from splendor.server.live import GameManager, client_key
from splendor.server.quick_play import QuickPlayRequest
from splendor.server.schemas import SeatInPath, refusals
from splendor.server.settings import Settings
from splendor.store.open_seats import OpenSeats

SeekId = Annotated[str, Path(min_length=1, max_length=64)]


def finding_router(settings: Settings) -> APIRouter:
    """The routes of open games and quick play."""
    router = APIRouter()

    def manager(request: Request) -> GameManager:
        m: GameManager = request.app.state.manager
        return m

    def seated(request: Request, live: LiveGame, seat: int, fresh: str) -> Response:
        """The seat's view in the game it was seated in, with its new secret and link (shown once)."""
        payload = live.payload(seat)
        payload.update(token=fresh, link=seat_link(str(request.base_url), live.id, seat, fresh))
        return Response(json.dumps(payload, separators=(",", ":")), media_type="application/json")

    @router.get("/api/open-games", responses=refusals())
    async def open_games(
        request: Request, include: Annotated[str | None, Query(max_length=64)] = None
    ) -> dict[str, Any]:
        """The games with open seats still open, soonest to expire first: ``id``, ``game``, ``players``,
        ``time_control`` (null: untimed), ``rated``, ``creator`` (``name``, and ``rating`` on the shown scale for a
        creator with an account, else null), ``seats`` (``seat``, ``kind``, ``name``), ``open_seats`` and
        ``expires_in`` (seconds). ``include``: a game's id listed too (last) when it is open but beyond the
        listing's length, as an invitation's link asks."""
        opener = OpenSeats(manager(request).store.store)
        games = await manager(request).read_store(lambda: opener.listing(settings.max_games_listed, include))
        for g in games:
            del g["open_until"]  # its ``expires_in`` is counted by the store's clock, as ``open_until`` was set
        return {"games": games}

    @router.post("/api/games/{game_id}/seats/{seat}/take", responses=refusals(400, 401, 404, 409, 429))
    async def take_seat(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        body: open_seats.TakeSeat | None = None,
    ) -> Response:
        """Take an open seat: as the signed-in account (which keeps it), or as a guest with a ``name``. Answers
        the seat's view with its secret and link (``token``, ``link``), shown once. Refused with nothing changed:
        the seat is taken already or was never open, the game expired or ended, the account has a seat in it
        already, a guest's name is another seat's or a bot's (409); a rated game without an account (401); a guest
        without a name (400); the client address holds seats taken from the lobby in ``seats_taken_per_client``
        unfinished games (429)."""
        account = await signed_in(request)
        address = client_key(client_address(request.scope))
        name = body.name if body else None
        live, fresh = await open_seats.take(manager(request), game_id, seat, name, account, address)
        return seated(request, live, seat, fresh)

    @router.post("/api/games/{game_id}/seats/{seat}/rematch", responses=refusals(403, 404, 409, 429))
    async def ask_rematch(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Take the seat's place in the finished game's rematch (the seat's secret, or the account keeping it; also
        a seat whose person resigned or left): the first to ask deals it (the same game, options, clock and rating,
        the bots in their seats, every other person's seat kept open for them), the others take their kept seats.
        Answers the rematch's view for that seat with its new secret and link (``token``, ``link``), shown once;
        the finished game's answers name the rematch (``rematch``). Refused with nothing changed: not the seat's
        person (403), the game unfinished or never begun, the seat taken already, the rematch expired (409), the
        address at its bound of unfinished games or of new games a minute, when it would deal the rematch (429)."""
        address = client_key(client_address(request.scope))
        creations: RateLimiter = request.app.state.creations  # a rematch dealt is a game made, bounded as one
        live, fresh = await rematches.rematch(
            manager(request),
            game_id,
            seat,
            x_seat_token or token,
            await signed_in(request),
            address,
            creations,
            client_address(request.scope),
        )
        return seated(request, live, seat, fresh)

    @router.post("/api/quick-play", status_code=201, responses=refusals(400, 401, 403, 409, 429))
    async def quick_play(body: QuickPlayRequest, request: Request) -> dict[str, Any]:
        """Ask to be seated now: ``{game, players, clock, rated, name, bot_after}``. Answers the seek's ``id`` and
        ``secret`` (shown once: it becomes the seat's secret); ask ``GET /api/quick-play/{id}`` with it in
        ``X-Seek-Token`` at least every ``seek_seconds`` (else the seek expires). A new seek replaces the account's
        waiting one, and the seek named in ``replaces`` (``{id, secret}``: a guest's previous seek; a wrong secret
        is 403). Rated needs the signed-in account (401); a guest's name may not be an account's (409); at most
        ``seeks_per_minute`` seeks a minute and a few waiting guests per address, none from an address at
        ``games_per_client`` unfinished games (429)."""
        address = client_key(client_address(request.scope))
        seek_id, secret = await manager(request).quick_play.seek(body, address, await signed_in(request))
        return {"id": seek_id, "secret": secret}

    @router.get("/api/quick-play/{seek_id}", responses=refusals(403, 404))
    async def quick_play_status(
        request: Request, seek_id: SeekId, x_seek_token: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Where a seek stands: ``{"status": "waiting", "waited", "rating", "window": [low, high], "bot_in"}``
        (seconds waited, the ratings it may be seated with now, seconds until bots fill its table or null),
        ``{"status": "seated", "game_id", "seat", "link"}``, or ``{"status": "cancelled" | "expired"}``."""
        answer = await manager(request).quick_play.status(seek_id, x_seek_token)
        if answer["status"] == "seated" and x_seek_token:
            answer["link"] = seat_link(str(request.base_url), answer["game_id"], answer["seat"], x_seek_token)
        return answer

    @router.delete("/api/quick-play/{seek_id}", status_code=204, responses=refusals(403, 404, 409))
    async def quick_play_cancel(
        request: Request, seek_id: SeekId, x_seek_token: Annotated[str | None, Header()] = None
    ) -> Response:
        """Stop waiting (the seek's secret in ``X-Seek-Token``). 409 when it was seated already."""
        await manager(request).quick_play.cancel(seek_id, x_seek_token)
        return Response(status_code=204)

    return router
