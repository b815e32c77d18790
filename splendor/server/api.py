"""The HTTP and WebSocket API (FastAPI). Its OpenAPI schema is served at ``/openapi.json`` and ``/docs``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path as FilePath
from contextlib import asynccontextmanager
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from splendor.bots.base import bot_display_name
from splendor.core.record import Record
from splendor.games import GAMES, replay
from splendor.i18n import _, negotiate, translate, web_catalog
from splendor.server.accounts import accounts_router, signed_in
from splendor.server.bots import SERVER_BOTS
from splendor.server.guards import BoundsMiddleware, RateLimiter, RedactSecrets, client_address
from splendor.server.live import GameManager, Refused
from splendor.server.settings import Settings
from splendor.server.schemas import (NAME_RULE, ActionRequest, Language, NewGame, ProfileLink, ProfileRequest,
                                     refusals)
from splendor.server.socket import serve_socket
from splendor.store import Pokedex, open_store
from splendor.store.accounts import Accounts
from splendor.store.games import GameStore
from splendor.store.ratings import Ratings
from splendor.store.pokedex import PROFILE_NAME, ProfileClaimed

log = logging.getLogger("splendor.server")
WEB = FilePath(__file__).parent / "web"


def as_json(payload: dict[str, Any]) -> Response:
    """A payload that is JSON-ready already (views are), sent without FastAPI's slower generic encoding."""
    return Response(json.dumps(payload, separators=(",", ":")), media_type="application/json")


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html")
    return page


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application: a store, a manager of live games, and the routes."""
    settings = settings or Settings()
    for name in ("uvicorn.access", "uvicorn.error", "splendor.server"):
        logging.getLogger(name).addFilter(RedactSecrets())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(settings.database_url)
        manager = GameManager(GameStore(store), Pokedex(store), settings)
        app.state.manager = manager
        app.state.store = store
        app.state.accounts = Accounts(store)
        app.state.ratings = Ratings(store)
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
    async def refused(request: Request, e: Refused) -> JSONResponse:
        """A refusal, said in the reader's language (``Accept-Language``; English by default)."""
        language = negotiate(request.headers.get("accept-language"))
        return JSONResponse({"detail": translate(e.message, language)}, status_code=e.status,
                            headers={"content-language": language, "vary": "accept-language"})

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        """FastAPI's 422, without echoing the input (a NaN or an infinity in it could not even be encoded)."""
        errors = [{"loc": [p if isinstance(p, (str, int)) else str(p) for p in err.get("loc", ())],
                   "msg": NAME_RULE if err.get("type") == "string_pattern_mismatch" else str(err.get("msg", "invalid")),
                   "type": str(err.get("type", "value_error"))}
                  for err in e.errors()]
        return JSONResponse({"detail": errors}, status_code=422)

    @app.exception_handler(SQLAlchemyError)
    async def store_down(_: Request, e: SQLAlchemyError) -> JSONResponse:
        log.warning("the store failed: %s", type(e).__name__)
        return JSONResponse({"detail": "the game store cannot be reached now; try again in a moment"},
                            status_code=503)

    def secret(token: str | None, header: str | None) -> str | None:
        return header or token

    async def checked_view(request: Request, game_id: str, seat: int | None, given: str | None) -> Response:
        """The view of ``seat`` once its secret (or the account holding it) is checked (no seat: the spectator's
        view)."""
        live = await manager().get(game_id)
        manager().check_seat(live, seat, given, await signed_in(request) if seat is not None else None)
        return as_json(live.payload(seat))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "games": sorted(GAMES), "live": len(manager().live),
                "finished_in_memory": len(manager().finished)}

    @app.get("/api/messages/{language}")
    async def messages(language: Language) -> JSONResponse:
        """The words of the web pages in ``language``: each English message's translation, and the language's plural
        categories (``Intl.PluralRules`` names) with the plural form each one takes. English needs none."""
        return JSONResponse(web_catalog(language.value), headers={"cache-control": "public, max-age=3600"})

    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        """The bots a game may seat, each with its spec and its name as players say it."""
        return {"bots": [{"spec": spec, "name": bot_display_name(spec)} for spec in SERVER_BOTS]}

    @app.post("/api/games", status_code=201, responses=refusals(400, 401, 403, 404))
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret link: it is shown once and never stored.

        A seed may be chosen only when at most one person plays; one client address may have a bounded number
        of unfinished games (429 beyond)."""
        live, tokens = await manager().create(body.game, [s.model_dump() for s in body.seats],
                                             body.options.model_dump(exclude_defaults=True), body.seed,
                                             client_address(request.scope), await signed_in(request))
        base = str(request.base_url).rstrip("/")
        seats = []
        for s in live.seat_list():
            entry = dict(s)
            if s["seat"] in tokens:
                entry["token"] = tokens[s["seat"]]
                entry["link"] = f"{base}/play/{live.id}?seat={s['seat']}&token={tokens[s['seat']]}"
            seats.append(entry)
        return {"id": live.id, "game": live.game.name, "seats": seats, "spectator_link": f"{base}/watch/{live.id}"}

    @app.get("/api/games", responses=refusals())
    async def listing() -> dict[str, Any]:
        """Games, newest first, in progress and finished."""
        return {"games": await asyncio.to_thread(manager().store.listing, settings.max_games_listed)}

    @app.get("/api/games/{game_id}", responses=refusals(403, 404))
    async def view(request: Request, game_id: str, seat: Annotated[int | None, Query(ge=0, le=3)] = None,
                   token: str | None = None, x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """A seat's view (with its secret), or the spectator's view (no seat)."""
        return await checked_view(request, game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/seats/{seat}/join", responses=refusals(403, 404))
    async def join(request: Request, game_id: str, seat: Annotated[int, Path(ge=0, le=3)], token: str | None = None,
                   x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Take a seat with its secret (checked): answers the seat's view. Names are given when the game is
        created."""
        return await checked_view(request, game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/seats/{seat}/keep", responses=refusals(401, 403, 404, 409))
    async def keep_seat(request: Request, game_id: str, seat: Annotated[int, Path(ge=0, le=3)],
                        token: str | None = None, x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Keep a seat (its secret checked) in the signed-in account: from then on the account plays it from any
        browser, the game counts for its rating and, in Pokémon, marks its Pokédex. 409 when another account
        keeps it already. Answers the seat's view."""
        account = await signed_in(request)
        if account is None:
            raise Refused(401, _("sign in to keep a seat in your account"))
        live = await manager().give_seat(game_id, seat, secret(token, x_seat_token), account)
        return as_json(live.payload(seat))

    @app.post("/api/games/{game_id}/seats/{seat}/profile", responses=refusals(400, 403, 404, 409))
    async def link_profile(request: Request, game_id: str, seat: Annotated[int, Path(ge=0, le=3)], body: ProfileLink,
                           token: str | None = None,
                           x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Pokémon: link the seat (its secret) to a Pokédex profile (its secret), which the game marks when it
        ends. Answers the seat's view."""
        live = await manager().link_profile(game_id, seat, secret(token, x_seat_token), body.profile, body.secret,
                                            await signed_in(request))
        return as_json(live.payload(seat))

    @app.post("/api/games/{game_id}/seats/{seat}/hint", responses=refusals(403, 404, 409, 503))
    async def hint(game_id: str, seat: Annotated[int, Path(ge=0, le=3)], request: Request, token: str | None = None,
                   x_seat_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """What the strongest bot would play in the seat's decision now (its secret checked), with its estimated
        chance of winning and the runners-up. Refused when it is not the seat's decision (409)."""
        return await manager().hint(game_id, seat, secret(token, x_seat_token), client_address(request.scope),
                                    await signed_in(request))

    @app.post("/api/games/{game_id}/actions", responses=refusals(400, 403, 404, 409))
    async def act(request: Request, game_id: str, body: ActionRequest, token: str | None = None,
                  x_seat_token: Annotated[str | None, Header()] = None) -> Response:
        """Play an action for a seat. Refused with the rule's words (409), a malformed action (400), out of turn
        (409) or a wrong secret (403); nothing changes then. Accepted only once committed to the store."""
        live = await manager().act(game_id, body.seat, body.action, secret(token, x_seat_token), body.expect,
                                   account=await signed_in(request))
        return as_json(live.payload(body.seat))

    @app.get("/api/games/{game_id}/record", response_class=Response,
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "the record: a header line, then one action a line"},
                        **refusals(404, 409)})
    async def record(game_id: str) -> Response:
        """The record of a finished game (while a game goes on, it would reveal the hidden cards)."""
        live = await manager().get(game_id)
        if not live.game.is_over:
            raise Refused(409, "the record is published when the game ends: with the seed it would reveal the "
                               "hidden cards")
        rec: Record = live.game.record
        rec.notes = {"server_game": live.id, "seats": live.seat_list()}
        return PlainTextResponse(rec.to_text())

    @app.get("/api/games/{game_id}/replay", responses=refusals(404, 409))
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

    @app.get("/api/games/{game_id}/board.svg", response_class=Response,
             responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
                              "description": "the board"}, **refusals(404)})
    async def board_svg(game_id: str, request: Request, lang: Language | None = None) -> Response:
        """A Kids game's board with the pawns, as SVG (only public things: roads, pawns, flipped tiles), its
        words in ``lang`` (else the request's ``Accept-Language``)."""
        live = await manager().get(game_id)
        if live.game.name != "kids":
            raise Refused(404, "only Splendor Kids has a board")
        from splendor.games.kids.svg import svg
        language = lang.value if lang else negotiate(request.headers.get("accept-language"))
        return Response(svg(live.game.view(None), language=language), media_type="image/svg+xml",
                        headers={"content-language": language, "vary": "accept-language"})

    @app.post("/api/profiles", status_code=201, responses=refusals(400, 409))
    async def claim_profile(body: ProfileRequest) -> dict[str, Any]:
        """Claim a Pokédex profile: answers its secret, shown once (only a hash is kept). Keep it: it is what lets
        a seat mark this profile's Pokédex. 409 when the name is already claimed."""
        try:
            token = await asyncio.to_thread(manager().pokedex.claim, body.name)
        except ProfileClaimed as e:
            raise Refused(409, str(e)) from None
        except ValueError as e:
            raise Refused(400, str(e)) from None
        return {"name": body.name.strip(), "secret": token}

    @app.get("/api/pokedex/{profile}", responses=refusals(400))
    async def pokedex(profile: Annotated[str, Path(pattern=PROFILE_NAME.pattern, max_length=40)]) -> dict[str, Any]:
        """A profile's Pokédex: every Pokémon by evolution line, marked where caught."""
        try:
            page = await asyncio.to_thread(manager().pokedex.page, profile)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        done, total = page.completion
        return {"profile": page.profile, "lines": page.lines, "marked": page.marked, "caught": done, "total": total}

    for page_name, path in (("index.html", "/"), ("table.html", "/play/{game_id}"), ("table.html", "/watch/{game_id}"),
                            ("table.html", "/replay/{game_id}"), ("pokedex.html", "/pokedex/{profile}"),
                            ("leaderboard.html", "/leaderboard")):
        app.add_api_route(path, _page(page_name), methods=["GET"], include_in_schema=False)
    app.include_router(accounts_router(settings))
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(ws: WebSocket, game_id: str, seat: int | None = None, token: str | None = None,
                     lang: str | None = None) -> None:
        """Pushes ``{"type": "state", ...}`` with the seat's (or a spectator's) view after every change; accepts
        ``{"type": "action", "action": "...", "expect": n}`` from a seat (see ``splendor.server.socket``). Its
        refusals are said in ``lang`` (else the ``Accept-Language`` of the handshake)."""
        language = negotiate(lang or ws.headers.get("accept-language"))
        # The session counts only for a page of this site: another site's script opening this socket (a browser
        # sends the cookie's site's Origin) plays no one's seat, whatever the cookie's SameSite rules.
        origin = ws.headers.get("origin")
        same_site = origin is None or urlsplit(origin).netloc == ws.headers.get("host")
        try:
            account = await signed_in(ws) if seat is not None and same_site else None
        except Refused:
            account = None
        await serve_socket(manager(), settings, ws, game_id, seat, token, language, account)

    return app
