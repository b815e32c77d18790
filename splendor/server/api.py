"""The HTTP and WebSocket API (FastAPI). Its OpenAPI schema is served at ``/openapi.json`` and ``/docs``."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError, WebSocketRequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp

from splendor import __version__
from splendor.bots.base import bot_display_name
from splendor.games import GAMES, replay
from splendor.games.palettes import token_words
from splendor.i18n import Message, _, negotiate, translate, web_catalog
from splendor.server.access import seat_link
from splendor.server.accounts import COOKIE, accounts_router, signed_in
from splendor.server.bots import BOT_GAMES, SERVER_BOTS
from splendor.server.cache import replayed
from splendor.server.chat import chat_router
from splendor.server.deadline import RequestDeadline, in_store_time
from splendor.server.errors import Refused
from splendor.server.finding import finding_router
from splendor.server.guards import (
    TOO_MANY_GAMES,
    BoundsMiddleware,
    RateLimiter,
    RedactSecrets,
    SameOriginMiddleware,
    SecurityHeaders,
    WebSocketCap,
    client_address,
    cross_site_problem,
)
from splendor.server.live import GameManager
from splendor.server.moves import LOG_KEPT
from splendor.server.push_routes import push_router
from splendor.server.pwa import pwa_router
from splendor.server.reviews import reviews_router
from splendor.server.schemas import (
    NAME_RULE,
    ActionRequest,
    ExplainRequest,
    Language,
    Leave,
    NewGame,
    ProfileLink,
    QueryWhole,
    SeatInPath,
    refusals,
    with_cross_site_refusals,
)
from splendor.server.settings import Settings
from splendor.server.socket import serve_socket
from splendor.server.store_calls import store_problem
from splendor.server.watchers import close_reason
from splendor.store import Pokedex, open_store
from splendor.store.accounts import Accounts
from splendor.store.games import GameStore
from splendor.store.pokedex import PROFILE_NAME
from splendor.store.ratings import Ratings

log = logging.getLogger("splendor.server")
WEB = FilePath(__file__).parent / "web"


def as_json(payload: dict[str, Any]) -> Response:
    """A payload that is JSON-ready already (views are), sent without FastAPI's slower generic encoding."""
    return Response(json.dumps(payload, separators=(",", ":")), media_type="application/json")


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        return FileResponse(WEB / name, media_type="text/html")

    return page


class _App(FastAPI):
    """FastAPI, its every answer given the security headers (`SecurityHeaders`): they wrap the whole stack, so an
    unhandled error's 500, which Starlette answers outside every middleware added, has them too."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


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

    app = _App(
        title="splendor",
        version=__version__,
        lifespan=lifespan,
        description="Live games of the Splendor family: create a game, take a seat with its secret, read "
        "your seat's view, send actions; a WebSocket per game pushes each seat its own view.",
    )
    plain_openapi = app.openapi
    app.openapi = lambda: with_cross_site_refusals(plain_openapi())  # type: ignore[method-assign]  # FastAPI's way
    # Added last, run first: the rate and size bounds, the WebSocket cap, the same-origin rule, then the one
    # deadline of all a request's store calls. (The security headers wrap them all: `_App`.)
    app.add_middleware(RequestDeadline, seconds=max(settings.store_seconds, settings.write_retry_seconds))
    app.add_middleware(SameOriginMiddleware)
    app.add_middleware(WebSocketCap, per_client=settings.websockets_per_client)
    app.add_middleware(
        BoundsMiddleware,
        max_body=settings.max_body_bytes,
        limiter=RateLimiter(settings.requests_per_second, settings.request_burst),
    )

    def manager() -> GameManager:
        m: GameManager = app.state.manager
        return m

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> JSONResponse:
        """A refusal, said in the reader's language (``Accept-Language``; English by default)."""
        language = negotiate(request.headers.get("accept-language"))
        headers = {"content-language": language, "vary": "accept-language"}
        if e.retry_after is not None:
            headers["retry-after"] = str(e.retry_after)
        return JSONResponse({"detail": translate(e.message, language)}, status_code=e.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        """FastAPI's 422, without echoing the input (a NaN or an infinity in it could not even be encoded). A name
        refused by the Pokédex path's pattern is told the rule of names; any other field its own pattern. A name
        refused by the rules of names is told why in the reader's language (``Accept-Language``), with the rule in
        English."""
        language = negotiate(request.headers.get("accept-language"))

        def said(err: Any) -> str:
            context = err.get("ctx") or {}
            pattern = context.get("pattern")
            if err.get("type") == "string_pattern_mismatch" and pattern == PROFILE_NAME.pattern:
                return str(NAME_RULE)
            if err.get("type") == "name" and isinstance(context.get("reason"), Message):
                return f"{translate(context['reason'], language)} ({NAME_RULE})"
            return str(err.get("msg", "invalid"))

        errors = [
            {
                "loc": [p if isinstance(p, (str, int)) else str(p) for p in err.get("loc", ())],
                "msg": said(err),
                "type": str(err.get("type", "value_error")),
            }
            for err in e.errors()
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    @app.exception_handler(WebSocketRequestValidationError)
    async def invalid_socket(ws: WebSocket, e: WebSocketRequestValidationError) -> None:
        """A WebSocket's malformed query (``seat=abc``): opened, then closed (1008) with what is wrong, as a seat
        refused is; closed before it opened, the client had read only a bare 403."""
        wrong = sorted({str(err["loc"][-1]) for err in e.errors() if err.get("loc")}) or ["query"]
        await ws.accept()
        await ws.close(code=1008, reason=close_reason(f"malformed {', '.join(wrong)}: {e.errors()[0].get('msg', '')}"))

    @app.exception_handler(HTTPException)
    async def unreadable(request: Request, e: HTTPException) -> Response:
        """A body that Python's JSON parser gives up on (nested too deeply, a ``RecursionError``; an integer of
        over 4,300 digits, or bytes that are not UTF-8, a ``ValueError``) is malformed JSON, as the docs and the
        OpenAPI schema say: 422, as any other, where FastAPI would answer 400. Every other HTTP error is
        FastAPI's own."""
        if e.status_code == 400 and isinstance(e.__cause__, (RecursionError, ValueError)):
            msg = "the JSON could not be read: nested too deeply, a number too long, or not UTF-8"
            return JSONResponse({"detail": [{"loc": ["body"], "msg": msg, "type": "json_invalid"}]}, status_code=422)
        return await http_exception_handler(request, e)

    @app.exception_handler(SQLAlchemyError)
    async def store_down(request: Request, e: SQLAlchemyError) -> JSONResponse:
        """Any store failure a route did not handle (a ``StoreTimeout`` from ``in_store_time`` too): a 503 that
        says the store is unavailable. The detail (which may name the database's address) stays in the log."""
        log.warning("the store failed on %s %s: %s", request.method, request.url.path, store_problem(e))
        language = negotiate(request.headers.get("accept-language"))
        return JSONResponse(
            {"detail": translate(_("the store is unavailable, try again in a moment"), language)},
            status_code=503,
            headers={"content-language": language, "vary": "accept-language"},
        )

    def secret(token: str | None, header: str | None) -> str | None:
        return header or token

    async def checked_view(request: Request, game_id: str, seat: int | None, given: str | None) -> Response:
        """The view of ``seat`` once its secret (or the account holding it) is checked (no seat: the spectator's
        view)."""
        live = await manager().get(game_id)
        manager().check_seat(live, seat, given, await signed_in(request) if seat is not None else None)
        return as_json(live.payload(seat))

    @app.get("/api/health", responses={503: {"description": "the store does not answer"}})
    async def health() -> JSONResponse:
        """Whether this process can serve: it answers, and its store answers a ``SELECT 1`` within
        ``health_store_seconds`` (else 503 with ``ok`` false and ``store`` "unavailable", so that a load
        balancer sends its players elsewhere)."""
        body: dict[str, Any] = {
            "games": sorted(GAMES),
            "live": len(manager().live),
            "finished_in_memory": len(manager().finished),
            "bot_worker_restarts": manager().bots.restarts,  # a pool started again after one of its processes died
        }
        try:
            await in_store_time(app.state.store.ping, settings.health_store_seconds)
        except SQLAlchemyError as e:
            log.warning("health: the store does not answer: %s", store_problem(e))
            return JSONResponse({"ok": False, "store": "unavailable", **body}, status_code=503)
        return JSONResponse({"ok": True, "store": "ok", **body})

    @app.get("/api/messages/{language}")
    async def messages(language: Language) -> JSONResponse:
        """The words of the web pages in ``language``: each English message's translation, the language's plural
        categories (``Intl.PluralRules`` names) with the plural form each one takes, and each game's tokens
        (``tokens``: the games' own table, so the page restates none)."""
        body = {**web_catalog(language.value), "tokens": token_words(language.value)}
        return JSONResponse(body, headers={"cache-control": "public, max-age=3600"})

    @app.get("/api/bots")
    async def bots() -> dict[str, Any]:
        """The bots a game may seat, each with its spec, its name as players say it, and the games it plays."""
        return {
            "bots": [
                {"spec": spec, "name": bot_display_name(spec), "games": list(BOT_GAMES.get(spec, tuple(GAMES)))}
                for spec in SERVER_BOTS
            ]
        }

    creations = RateLimiter(settings.games_per_minute / 60, settings.games_per_minute)
    app.state.creations = creations  # a rematch dealt counts as a game made (`splendor.server.rematches`)

    @app.post("/api/games", status_code=201, responses=refusals(400, 401, 403, 404))
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret link: it is shown once and never stored.

        A seed may be chosen only when at most one person plays; one client address may have a bounded number
        of unfinished games (429 beyond). A rated game (``rated``; by default when the signed-in creator keeps a
        seat and chooses no seed) is dealt by the server and gives no hints. At most ``games_per_minute`` games a
        minute from one address (429 beyond): games that end at once (aborted) are bounded by nothing else, and
        each stays in the store and the games' list."""
        client = client_address(request.scope)
        if not creations.allow(client):
            raise Refused(429, TOO_MANY_GAMES)
        try:
            live, tokens = await manager().create(body, client, await signed_in(request))
        except Refused as e:
            if e.status < 500:  # refused, it made nothing: a few slips in the form lock nobody out (a 503 may have)
                creations.give_back(client)
            raise
        base = str(request.base_url).rstrip("/")
        seats = []
        for s in live.seat_list():
            entry = dict(s)
            if s["seat"] in tokens:
                entry["token"] = tokens[s["seat"]]
                entry["link"] = seat_link(base, live.id, s["seat"], tokens[s["seat"]])
            seats.append(entry)
        return {
            "id": live.id,
            "game": live.game.name,
            "seats": seats,
            "rated": live.rated,
            "spectator_link": f"{base}/watch/{live.id}",
        }

    @app.get("/api/games", responses=refusals())
    async def listing() -> dict[str, Any]:
        """Games, newest first, in progress and finished."""
        store = manager().store
        return {"games": await in_store_time(lambda: store.listing(settings.max_games_listed), settings.store_seconds)}

    @app.get("/api/games/{game_id}", responses=refusals(403, 404))
    async def view(
        request: Request,
        game_id: str,
        seat: Annotated[int | None, Query(ge=0, le=3), QueryWhole] = None,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """A seat's view (with its secret), or the spectator's view (no seat)."""
        return await checked_view(request, game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/seats/{seat}/join", responses=refusals(403, 404))
    async def join(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Take a seat with its secret (checked): answers the seat's view. Names are given when the game is
        created."""
        return await checked_view(request, game_id, seat, secret(token, x_seat_token))

    @app.post("/api/games/{game_id}/seats/{seat}/keep", responses=refusals(401, 403, 404, 409))
    async def keep_seat(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Keep a seat (its secret checked) in the signed-in account: from then on the account plays it from any
        browser, the game counts for its rating and, in Pokémon, marks its Pokédex. 409 when another account
        keeps it already. Answers the seat's view, with the seat's new secret and link (``token``, ``link``): the
        link that was used stops working, so nobody else who had it plays or sees the seat any more."""
        account = await signed_in(request)
        if account is None:
            raise Refused(401, _("sign in to keep a seat in your account"))
        live, fresh = await manager().keeping.give_seat(game_id, seat, secret(token, x_seat_token), account)
        payload = live.payload(seat)
        if fresh is not None:
            payload.update(token=fresh, link=seat_link(str(request.base_url), live.id, seat, fresh))
        return as_json(payload)

    @app.post("/api/games/{game_id}/seats/{seat}/profile", responses=refusals(400, 403, 404, 409))
    async def link_profile(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        body: ProfileLink,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Pokémon: link the seat (its secret) to a Pokédex profile (its secret), which the game marks when it
        ends. Answers the seat's view."""
        live = await manager().keeping.link_profile(
            game_id, seat, secret(token, x_seat_token), body.profile, body.secret, await signed_in(request)
        )
        return as_json(live.payload(seat))

    @app.post("/api/games/{game_id}/seats/{seat}/hint", responses=refusals(403, 404, 409, 503))
    async def hint(
        game_id: str,
        seat: SeatInPath,
        request: Request,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """What the strongest bot would play in the seat's decision now (its secret checked), with its estimated
        chance of winning and the runners-up. Refused when it is not the seat's decision (409)."""
        return await manager().hint(
            game_id, seat, secret(token, x_seat_token), client_address(request.scope), await signed_in(request)
        )

    @app.post("/api/games/{game_id}/seats/{seat}/explain", responses=refusals(403, 404))
    async def explain(
        game_id: str,
        seat: SeatInPath,
        body: ExplainRequest,
        request: Request,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Why each of the given actions would be refused for the seat now (its secret checked), in the reader's
        language, playing none of them: ``{"reasons": {action: why, or null where it is legal}}``. The table uses
        it to say why a click cannot make an action, next to what was clicked."""
        reasons = await manager().explain(
            game_id, seat, secret(token, x_seat_token), body.actions, await signed_in(request)
        )
        language = negotiate(request.headers.get("accept-language"))
        return {"reasons": {text: None if why is None else translate(why, language) for text, why in reasons.items()}}

    @app.post("/api/games/{game_id}/actions", responses=refusals(400, 403, 404, 409))
    async def act(
        request: Request,
        game_id: str,
        body: ActionRequest,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Play an action for a seat. Refused with the rule's words (409), a malformed action (400), out of turn
        (409) or a wrong secret (403); nothing changes then. Accepted only once committed to the store."""
        live = await manager().act(
            game_id, body.seat, body.action, secret(token, x_seat_token), body.expect, account=await signed_in(request)
        )
        return as_json(live.payload(body.seat))

    @app.post("/api/games/{game_id}/seats/{seat}/resign", responses=refusals(403, 404, 409))
    async def resign(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        body: Leave | None = None,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Resign the seat (its secret, or the account keeping it), at any time of an unfinished game: in a game
        of two the seat loses and the other wins (rated so in a rated game); with three or four a bot plays the
        seat on and it ranks last. Refused when the game is over (409), ``expect`` is behind the game (409), or
        for another seat (403); nothing changes then. Answers the seat's view."""
        live = await manager().leaving.resign(
            game_id, seat, secret(token, x_seat_token), body.expect if body else None, await signed_in(request)
        )
        return as_json(live.payload(seat))

    @app.post("/api/games/{game_id}/seats/{seat}/abort", responses=refusals(403, 404, 409))
    async def abort(
        request: Request,
        game_id: str,
        seat: SeatInPath,
        body: Leave | None = None,
        token: str | None = None,
        x_seat_token: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Call the game off (the seat's secret, or the account keeping it) while the seat has made no move yet:
        it ends with no winner and changes no rating. Refused once the seat has moved or the game is over (409);
        nothing changes then. Answers the seat's view."""
        live = await manager().leaving.abort(
            game_id, seat, secret(token, x_seat_token), body.expect if body else None, await signed_in(request)
        )
        return as_json(live.payload(seat))

    @app.get(
        "/api/games/{game_id}/record",
        response_class=Response,
        responses={
            200: {
                "content": {"text/plain": {"schema": {"type": "string"}}},
                "description": "the record: a header line, then one action a line",
            },
            **refusals(404, 409),
        },
    )
    async def record(game_id: str) -> Response:
        """The record of a finished game (while a game goes on, it would reveal the hidden cards)."""
        live = await manager().get(game_id)
        if not live.over:
            raise Refused(
                409, _("the record is published when the game ends: with the seed it would reveal the hidden cards")
            )
        return PlainTextResponse(live.published_record().to_text())

    @app.get("/api/games/{game_id}/replay", responses=refusals(404, 409))
    async def replay_view(game_id: str, upto: Annotated[int, Query(ge=0), QueryWhole] = 0) -> dict[str, Any]:
        """A finished game's spectator view after ``upto`` actions, for step-by-step replays, with the log entry
        of the action that led there (``entry``: its seat and what everyone saw of it), the entries of the actions
        before it (``log``: the last 60, ``entry`` last, as a game's own log keeps them), who won (``winners``, as
        the game's own answer says it), and how the game ended when
        no rule ended it (``ending``: a resignation, an abort, a seat idle past the limit, after ``at`` actions;
        a seat of three or four that resigned says it in ``seats``: ``forfeit``), and the game it is the rematch
        of (``rematch_of``: its seats were taken by accepting it, not from the lobby)."""
        live = await manager().get(game_id)
        if not live.over:
            raise Refused(409, _("replays are of finished games"))
        total = len(live.game.history)
        upto = min(upto, total)
        game = await replayed(replay, live.game.record, upto)  # a long game's replay takes seconds
        log = live.log[max(0, upto - LOG_KEPT) : upto]  # a finished game's log holds every action's entry
        entry = log[-1] if log else None
        return {
            "id": live.id,
            "upto": upto,
            "total": total,
            "seats": live.seat_list(),
            "rated": live.rated,
            "ending": live.ending_of(),
            "winners": live.winners,
            "rematch_of": live.rematch_of,
            "time_control": live.clock.control.text if live.clock is not None else None,
            "action": entry["action"] if entry else None,
            "entry": entry,
            "log": log,
            "view": game.view(None),
        }

    @app.get(
        "/api/games/{game_id}/board.svg",
        response_class=Response,
        responses={
            200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}, "description": "the board"},
            **refusals(404, 409),
        },
    )
    async def board_svg(
        game_id: str,
        request: Request,
        lang: Language | None = None,
        layout: Literal["wide", "tall"] = "wide",
        upto: Annotated[int | None, Query(ge=0), QueryWhole] = None,
    ) -> Response:
        """A Kids game's board with the pawns, as SVG (only public things: roads, pawns, flipped tiles), its
        words in ``lang`` (else the request's ``Accept-Language``); ``layout`` ``wide`` (the sections side by side,
        for a landscape table) or ``tall`` (stacked, for a phone that pans it); ``upto``: as it stood after that
        many actions, for a finished game's replay (409 while it goes on, as the replay). A board's first picture
        in a language and layout is planned in a worker thread (a second or two); later ones come from the plan
        kept."""
        live = await manager().get(game_id)
        if live.game.name != "kids":
            raise Refused(404, _("only Splendor Kids has a board"))
        from splendor.games.kids.svg import svg

        game = live.game
        if upto is not None:
            if not live.over:
                raise Refused(409, _("replays are of finished games"))
            game = await replayed(replay, live.game.record, min(upto, len(live.game.history)))
        language = lang.value if lang else negotiate(request.headers.get("accept-language"))
        picture = await asyncio.to_thread(svg, game.view(None), language=language, layout=layout)
        return Response(
            picture, media_type="image/svg+xml", headers={"content-language": language, "vary": "accept-language"}
        )

    @app.get("/api/pokedex/{profile}", responses=refusals(400))
    async def pokedex(profile: Annotated[str, Path(pattern=PROFILE_NAME.pattern, max_length=40)]) -> dict[str, Any]:
        """A profile's Pokédex: every Pokémon by evolution line, marked where caught; ``known`` false for a name no
        profile has (empty, not an error: the page says nobody keeps a Pokédex under it)."""
        try:
            page = await in_store_time(lambda: manager().pokedex.page(profile), settings.store_seconds)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        done, total = page.completion
        return {
            "profile": page.profile,
            "known": page.known,
            "lines": page.lines,
            "marked": page.marked,
            "caught": done,
            "total": total,
        }

    for page_name, path in (
        ("index.html", "/"),
        ("table.html", "/play/{game_id}"),
        ("table.html", "/watch/{game_id}"),
        ("table.html", "/replay/{game_id}"),
        ("pokedex.html", "/pokedex/{profile}"),
        ("leaderboard.html", "/leaderboard"),
    ):
        app.add_api_route(path, _page(page_name), methods=["GET"], include_in_schema=False)
    app.include_router(accounts_router(settings))
    app.include_router(finding_router(settings))
    app.include_router(push_router(settings))
    app.include_router(pwa_router())
    app.include_router(chat_router(settings))
    app.include_router(reviews_router())
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(
        ws: WebSocket,
        game_id: str,
        seat: Annotated[int | None, Query(), QueryWhole] = None,
        token: str | None = None,
        lang: str | None = None,
    ) -> None:
        """Pushes ``{"type": "state", ...}`` with the seat's (or a spectator's) view after every change, and
        ``{"type": "chat", ...}`` with each chat line it may read (`splendor.server.chat`); accepts
        ``{"type": "action", "action": "...", "expect": n}`` from a seat (see ``splendor.server.socket``). Its
        refusals are said in ``lang`` (else the ``Accept-Language`` of the handshake)."""
        language = negotiate(lang or ws.headers.get("accept-language"))
        # The session counts only for a page of this site: another site's script opening this socket (a browser
        # sends the cookie's site's Origin) plays no one's seat, whatever the cookie's SameSite rules.
        same_site = cross_site_problem(ws.scope) is None
        try:
            account = await signed_in(ws) if seat is not None and same_site else None
        except Refused:
            account = None
        await serve_socket(
            manager(),
            settings,
            ws,
            game_id,
            seat,
            token,
            language,
            account,
            session=ws.cookies.get(COOKIE),
            client=client_address(ws.scope),
            session_refused=not same_site and seat is not None and ws.cookies.get(COOKIE) is not None,
        )

    return app
