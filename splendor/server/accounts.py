"""Accounts on the server: sign up, sign in and out (a session in an HttpOnly cookie), whoever is signed in, their
games and ratings, and the leaderboards.

The cookie is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (another site's form or script does not send
it) and ``Secure`` whenever the page came over HTTPS (behind a TLS proxy, run uvicorn with its proxy headers; or
force it with ``Settings.secure_cookies``). Sign-ups, sign-ins, password changes and Pokédex claims are bounded
together per client address, and wrong passwords from an address lock the account for that address for a while
(`splendor.store.accounts`). Hashing a password takes tens of
milliseconds of a core and 64 MiB: at most ``PASSWORD_WORK`` are done at once, in threads, so they never hold
up the games.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from starlette.requests import HTTPConnection

from splendor.i18n import _
from splendor.server.deadline import in_store_time, more_request_time
from splendor.server.errors import Refused
from splendor.server.guards import RateLimiter, client_address
from splendor.server.live import GameManager
from splendor.server.moves import left_too_soon
from splendor.server.schemas import (
    AccountDeletion,
    GameName,
    Leaderboard,
    Me,
    NewPassword,
    ProfileRequest,
    RatingChanges,
    Session,
    SignIn,
    SignUp,
    refusals,
)
from splendor.server.seating import refuse_a_reserved_name
from splendor.server.settings import Settings
from splendor.store.accounts import SESSION_SECONDS, AccountError, Accounts, SignedIn
from splendor.store.pokedex import ProfileClaimed
from splendor.store.ratings import Ratings

T = TypeVar("T")

COOKIE = "splendor_session"
PASSWORD_WORK = 2
HASHING_SECONDS = 10.0
"""What a sign-up, a sign-in or a password change may take beyond the store's deadline (``store_seconds``): its
argon2 hash, a quarter of a second of CPU on an idle machine and seconds on a busy one, is no sign of a silent
store (it was answered with "the store is unavailable" under load)."""
LEADERBOARD_SECONDS = 5.0
"""How long a process answers a leaderboard from what it read last."""

log = logging.getLogger("splendor.server")


async def signed_in(conn: HTTPConnection) -> SignedIn | None:
    """The account of the request's (or the WebSocket handshake's) session cookie, if any."""
    token = conn.cookies.get(COOKIE)
    if not token:
        return None
    accounts: Accounts = conn.app.state.accounts
    try:
        return await in_store_time(lambda: accounts.signed_in(token), conn.app.state.manager.settings.store_seconds)
    except Exception as e:
        raise Refused(503, _("the store is unavailable, try again in a moment")) from e


def accounts_router(settings: Settings) -> APIRouter:
    """The routes of accounts, ratings and leaderboards."""
    router = APIRouter()
    attempts = RateLimiter(settings.sign_ins_per_minute / 60, settings.sign_ins_per_minute)
    boards: dict[str, tuple[float, list[dict[str, object]]]] = {}
    hashing = asyncio.Semaphore(PASSWORD_WORK)
    password_seconds = settings.store_seconds + HASHING_SECONDS  # the deadline of work that hashes a password

    async def hashing_password(work: Callable[[], T]) -> T:
        """Run store work that hashes a password: a few at a time (``PASSWORD_WORK``), each given
        ``HASHING_SECONDS`` beyond the store's deadline and the request's."""
        async with hashing:
            with more_request_time(HASHING_SECONDS):
                return await in_store_time(work, password_seconds)

    def manager(request: Request) -> GameManager:
        m: GameManager = request.app.state.manager
        return m

    async def start_session(
        request: Request, response: Response, work: Callable[[], tuple[SignedIn, str]]
    ) -> dict[str, Any]:
        if not attempts.allow(client_address(request.scope)):
            raise Refused(429, _("too many sign-in attempts from your address: wait a minute"), retry_after=60)
        try:
            account, token = await hashing_password(work)
        except AccountError as e:
            raise Refused(e.status, e.message) from None
        secure = settings.secure_cookies if settings.secure_cookies is not None else request.url.scheme == "https"
        response.set_cookie(
            COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="lax", secure=secure, path="/"
        )
        return {"name": account.name}

    async def with_password(request: Request, work: Callable[[Accounts, SignedIn], None]) -> SignedIn:
        """``work`` for the signed-in account, whose password it checks (as sign-in does, in the same threads,
        toward the same bounds of attempts): 401 when not signed in, 429 past the attempts, its refusals said."""
        account = await signed_in(request)
        if account is None:
            raise Refused(401, _("you are not signed in"))
        if not attempts.allow(client_address(request.scope)):
            raise Refused(429, _("too many sign-in attempts from your address: wait a minute"), retry_after=60)
        accounts: Accounts = request.app.state.accounts
        try:
            await hashing_password(lambda: work(accounts, account))
        except AccountError as e:
            raise Refused(e.status, e.message) from None
        return account

    @router.post("/api/accounts", status_code=201, responses=refusals(400, 409))
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        """Make an account (a name and a password of 8 to 200 typed characters) and sign in: the answer sets the
        session cookie. Its Pokédex is the profile of the same name (one claimed before is adopted with its
        ``pokedex_secret``). 409 when the name is taken, or is one of the server's bots' (or reads like it)."""
        refuse_a_reserved_name(body.name)
        accounts: Accounts = request.app.state.accounts
        return await start_session(
            request, response, lambda: accounts.sign_up(body.name, body.password, body.pokedex_secret)
        )

    @router.post("/api/session", responses=refusals(401))
    async def sign_in(body: SignIn, request: Request, response: Response) -> dict[str, Any]:
        """Sign in: the answer sets the session cookie. 401 for a wrong name or password; 429 when the account
        is locked after repeated wrong passwords, or this address tried too often."""
        accounts: Accounts = request.app.state.accounts
        address = client_address(request.scope)
        return await start_session(request, response, lambda: accounts.sign_in(body.name, body.password, address))

    @router.delete("/api/session", status_code=204, response_class=Response, responses=refusals())
    async def sign_out(request: Request) -> Response:
        """Sign out: the session ends on the server and its cookie is cleared."""
        accounts: Accounts = request.app.state.accounts
        await in_store_time(lambda: accounts.sign_out(request.cookies.get(COOKIE)), settings.store_seconds)
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @router.post("/api/me/password", status_code=204, response_class=Response, responses=refusals(400, 401))
    async def change_password(body: NewPassword, request: Request) -> Response:
        """Change the signed-in account's password (the old one shown): every other session of the account
        ends, this browser's stays. 401 when not signed in or the old password is wrong; a wrong old password
        counts toward the same lock as a wrong one at sign-in (429)."""
        address = client_address(request.scope)
        await with_password(
            request,
            lambda accounts, account: accounts.change_password(
                account, body.old, body.new, request.cookies.get(COOKIE), address
            ),
        )
        return Response(status_code=204)

    @router.delete("/api/me", status_code=204, response_class=Response, responses=refusals(400, 401, 409))
    async def delete_account(body: AccountDeletion, request: Request) -> Response:
        """Delete the signed-in account, its password shown again: its sessions end (this browser's cookie is
        cleared), its ratings, their history and its Pokédex go, and its name is free again; its finished games
        keep their seats under the name they were played in. 409 while it has a seat in a game not over (resign or
        finish it first); 401 when not signed in or the password is wrong (counted as at sign-in: 429 past the
        lock)."""
        address = client_address(request.scope)
        account = await with_password(
            request, lambda accounts, account: accounts.delete_account(account, body.password, address)
        )
        log.info("an account was deleted")
        boards.clear()  # its name leaves this process's leaderboards now (another's within LEADERBOARD_SECONDS)
        request.app.state.manager.cache.forget_account(account.id)  # its seats held here (another's: when read)
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    @router.post("/api/profiles", status_code=201, responses=refusals(400, 409))
    async def claim_profile(body: ProfileRequest, request: Request) -> dict[str, Any]:
        """Claim a Pokédex profile: answers its secret, shown once (only a hash is kept). Keep it: it is what lets
        a seat mark this profile's Pokédex. 409 when the name is already claimed, is an account's, or looks like
        another profile's or account's. Claims count with sign-ups and sign-ins toward the attempts allowed per
        address (429), and an account signing up with the name of a claim never used takes it."""
        if not attempts.allow(client_address(request.scope)):
            raise Refused(429, _("too many sign-in attempts from your address: wait a minute"), retry_after=60)
        refuse_a_reserved_name(body.name)  # as an account may not be: its seats would pass for a bot's
        try:
            token = await in_store_time(lambda: manager(request).pokedex.claim(body.name), settings.store_seconds)
        except ProfileClaimed as e:
            raise Refused(409, e.message) from None
        except ValueError as e:
            raise Refused(400, str(e)) from None
        return {"name": body.name, "secret": token}

    async def account_of(request: Request) -> dict[str, Any] | None:
        """The signed-in account as `GET /api/me` tells it, or None for a guest."""
        account = await signed_in(request)
        if account is None:
            return None
        ratings: Ratings = request.app.state.ratings
        games = await in_store_time(lambda: manager(request).store.games_of(account.id), settings.store_seconds)
        rated = await in_store_time(lambda: ratings.of_account(account.id), settings.store_seconds)
        return {"name": account.name, "ratings": rated, "games": games}

    @router.get("/api/me", response_model=Me, responses=refusals(401))
    async def me(request: Request) -> dict[str, Any]:
        """Who is signed in: the name, the rating in each game played rated (on the Elo-like scale, 1500 for a
        newcomer: `splendor.store.ratings.shown`), and the games whose seats the account holds: those where it is
        its turn first, with the seconds left on their clocks (`splendor.store.your_games`), then newest first.
        401 for a guest."""
        account = await account_of(request)
        if account is None:
            raise Refused(401, _("you are not signed in"))
        return account

    @router.get("/api/session", response_model=Session, responses=refusals())
    async def who_is_signed_in(request: Request) -> dict[str, Any]:
        """`GET /api/me` for the pages: the signed-in account, or null for a guest, never a 401 (a guest's every
        page had shown two failed requests in the browser's console)."""
        return {"account": await account_of(request)}

    @router.get("/api/leaderboard/{game}", response_model=Leaderboard, responses=refusals())
    async def leaderboard(game: GameName, request: Request) -> dict[str, Any]:
        """The 100 best-rated accounts of a game: rank, name, rating (Elo-like, 1500 for a newcomer), rated
        games. Read from the store at most every few seconds (it sorts every rating of the game), so asking often
        costs nothing."""
        name: str = game.value
        now = time.monotonic()
        known = boards.get(name)
        if known is None or now - known[0] > LEADERBOARD_SECONDS:
            ratings: Ratings = request.app.state.ratings
            board = await in_store_time(lambda: ratings.leaderboard(name), settings.store_seconds)
            known = boards[name] = (now, board)
        return {"game": name, "players": known[1]}

    @router.get("/api/games/{game_id}/ratings", response_model=RatingChanges, responses=refusals(404))
    async def rating_changes(game_id: str, request: Request) -> dict[str, Any]:
        """What a finished game did to its accounts' ratings, by seat: each rating before and after, on the
        Elo-like scale, and the change (``rated`` false when it counted for none: a game with a person playing
        without an account, without a winner, or one of whose people left it before their fifth move or never
        moved; ``unplayed`` says the last, so that the end screen says why)."""
        live = await manager(request).get(game_id)
        ratings: Ratings = request.app.state.ratings
        changes = await in_store_time(lambda: ratings.changes(game_id), settings.store_seconds) if live.over else []
        unplayed = live.over and live.rated and not changes and left_too_soon(live)
        return {"over": live.over, "rated": bool(changes), "unplayed": unplayed, "changes": changes}

    return router
