"""The HTTP and WebSocket API (FastAPI). Its OpenAPI schema is served at ``/openapi.json`` and ``/docs``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from splendor.core.record import Record
from splendor.games import GAMES, replay
from splendor.server.guards import BoundsMiddleware, RateLimiter, RedactSecrets
from splendor.server.live import GameManager, Refused, Watcher
from splendor.server.settings import Settings
from splendor.store import Pokedex, open_store
from splendor.store.games import GameStore

log = logging.getLogger("splendor.server")
WEB = Path(__file__).parent / "web"


def as_json(payload: dict[str, Any]) -> Response:
    """A payload that is JSON-ready already (views are), sent without FastAPI's slower generic encoding."""
    return Response(json.dumps(payload, separators=(",", ":")), media_type="application/json")


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html")
    return page


class SeatSpec(BaseModel):
    """One seat of a new game."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, description="random, greedy, ismcts:easy, ismcts:medium, ismcts:hard")
    name: str | None = Field(default=None, max_length=40, description="shown to others; for Pokémon, the profile "
                                                                      "whose Pokédex is marked")


class NewGame(BaseModel):
    """A game to create: which game, its seats in order, its options."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="classic, pokemon or kids")
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    options: dict[str, Any] = Field(default_factory=dict, description="max_turns, first_player; Kids: short, "
                                                                     "mysteries, board (shipped side names)")
    seed: int | None = Field(default=None, ge=0, lt=2**62)


class ActionRequest(BaseModel):
    """An action for a seat, in the game's notation."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=3)
    action: str = Field(min_length=1, max_length=80)
    expect: int | None = Field(default=None, ge=0, description="the number of actions you saw; refused if the game "
                                                               "has moved on since")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application: a store, a manager of live games, and the routes."""
    settings = settings or Settings()
    for name in ("uvicorn.access", "uvicorn.error", "splendor.server"):
        logging.getLogger(name).addFilter(RedactSecrets())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(settings.database_url)
        manager = GameManager(GameStore(store), settings.bot_workers)
        app.state.manager = manager
        app.state.store = store
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(title="splendor", version="0.1.0", lifespan=lifespan,
                  description="Live games of the Splendor family: create a game, take a seat with its secret, read "
                              "your seat's view, send actions; a WebSocket per game pushes each seat its own view.")
    app.add_middleware(BoundsMiddleware, max_body=settings.max_body_bytes,
                       limiter=RateLimiter(settings.requests_per_second, settings.request_burst))

    def manager() -> GameManager:
        m: GameManager = app.state.manager
        return m

    @app.exception_handler(Refused)
    async def refused(_: Request, e: Refused) -> JSONResponse:
        return JSONResponse({"detail": e.message}, status_code=e.status)

    def secret(token: str | None, header: str | None) -> str | None:
        return header or token

    async def checked_view(game_id: str, seat: int | None, given: str | None) -> Response:
        """The view of ``seat`` once its secret is checked (no seat: the spectator's view)."""
        live = await manager().get(game_id)
        manager().check_seat(live, seat, given)
        return as_json(live.payload(seat))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "games": sorted(GAMES), "live": len(manager().live)}

    @app.post("/api/games", status_code=201)
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret link: it is shown once and never stored."""
        live, tokens = await manager().create(body.game, [s.model_dump() for s in body.seats], body.options,
                                             body.seed)
        base = str(request.base_url).rstrip("/")
        seats = []
        for s in live.seat_list():
            entry = dict(s)
            if s["seat"] in tokens:
                entry["token"] = tokens[s["seat"]]
                entry["link"] = f"{base}/play/{live.id}?seat={s['seat']}&token={tokens[s['seat']]}"
            seats.append(entry)
        return {"id": live.id, "game": live.game.name, "seats": seats, "spectator_link": f"{base}/watch/{live.id}"}

    @app.get("/api/games")
    async def listing() -> dict[str, Any]:
        """Games, newest first, in progress and finished."""
        return {"games": await asyncio.to_thread(manager().store.listing, settings.max_games_listed)}

    @app.get("/api/games/{game_id}")
    async def view(game_id: str, seat: Annotated[int | None, Query(ge=0, le=3)] = None,
                   token: str | None = None, x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """A seat's view (with its secret), or the spectator's view (no seat)."""
        return await checked_view(game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/seats/{seat}/join")
    async def join(game_id: str, seat: int, token: str | None = None,
                   x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Take a seat with its secret (checked): answers the seat's view. Names are given when the game is
        created."""
        return await checked_view(game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: ActionRequest, token: str | None = None,
                  x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Play an action for a seat. Refused with the rule's words (409), a malformed action (400), out of turn
        (409) or a wrong secret (403); nothing changes then. Accepted only once committed to the store."""
        live = await manager().act(game_id, body.seat, body.action, secret(token, x_seat_token), body.expect)
        return as_json(live.payload(body.seat))

    @app.get("/api/games/{game_id}/record", response_class=PlainTextResponse)
    async def record(game_id: str) -> str:
        """The record of a finished game (while a game goes on, it would reveal the hidden cards)."""
        live = await manager().get(game_id)
        if not live.game.is_over:
            raise Refused(409, "the record is published when the game ends: with the seed it would reveal the "
                               "hidden cards")
        rec: Record = live.game.record
        rec.notes = {"server_game": live.id, "seats": live.seat_list()}
        return rec.to_text()

    @app.get("/api/games/{game_id}/replay")
    async def replay_view(game_id: str, upto: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        """A finished game's spectator view after ``upto`` actions, for step-by-step replays."""
        live = await manager().get(game_id)
        if not live.game.is_over:
            raise Refused(409, "replays are of finished games")
        total = len(live.game.history)
        game = replay(live.game.record, upto=min(upto, total))
        return {"id": live.id, "upto": min(upto, total), "total": total, "seats": live.seat_list(),
                "action": live.game.history[upto - 1].text if 0 < upto <= total else None,
                "view": game.view(None)}

    @app.get("/api/games/{game_id}/board.svg", response_class=Response)
    async def board_svg(game_id: str) -> Response:
        """A Kids game's board with the pawns, as SVG (only public things: roads, pawns, flipped tiles)."""
        live = await manager().get(game_id)
        if live.game.name != "kids":
            raise Refused(404, "only Splendor Kids has a board")
        from splendor.games.kids.svg import svg
        return Response(svg(live.game.view(None)), media_type="image/svg+xml")

    @app.get("/api/pokedex/{profile}")
    async def pokedex(profile: str) -> dict[str, Any]:
        """A profile's Pokédex: every Pokémon by evolution line, marked where caught."""
        try:
            page = await asyncio.to_thread(Pokedex(app.state.store).page, profile)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        done, total = page.completion
        return {"profile": page.profile, "lines": page.lines, "marked": page.marked, "caught": done, "total": total}

    for page_name, path in (("index.html", "/"), ("table.html", "/play/{game_id}"), ("table.html", "/watch/{game_id}"),
                            ("table.html", "/replay/{game_id}"), ("pokedex.html", "/pokedex/{profile}")):
        app.add_api_route(path, _page(page_name), methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(ws: WebSocket, game_id: str, seat: int | None = None, token: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` with the seat's (or a spectator's) view after every change; accepts
        ``{"type": "action", "action": "...", "expect": n}`` from a seat."""
        try:
            live = await manager().get(game_id)
            manager().check_seat(live, seat, token)
        except Refused as e:
            await ws.close(code=4403 if e.status == 403 else 4404, reason=e.message[:100])
            return
        await ws.accept()
        watcher = Watcher(ws, seat)
        await manager().watch(live, watcher)
        try:
            while True:
                try:
                    message = await ws.receive_json()
                except ValueError:
                    await ws.send_json({"type": "error", "status": 400, "detail": "send JSON messages"})
                    continue
                if not isinstance(message, dict) or message.get("type") != "action":
                    await ws.send_json({"type": "error", "status": 400,
                                        "detail": 'send {"type": "action", "action": "..."}'})
                    continue
                if seat is None:
                    await ws.send_json({"type": "error", "status": 403, "detail": "spectators do not act"})
                    continue
                text = message.get("action")
                if not isinstance(text, str) or not text.strip() or len(text) > 80:
                    await ws.send_json({"type": "error", "status": 400, "detail": "action must be short text"})
                    continue
                expect = message.get("expect")
                try:
                    await manager().act(game_id, seat, text, token,
                                        expect if isinstance(expect, int) else None)
                except Refused as e:
                    await ws.send_json({"type": "error", "status": e.status, "detail": e.message})
        except WebSocketDisconnect:
            pass
        finally:
            manager().unwatch(live, watcher)

    return app
