"""Who may play a seat and read its hidden cards: the holder of its secret, or the account that keeps it; and a
WebSocket goes on reading a seat only while what let it in still does (the session checked again, the seat's
secret changed when an account kept it, a bot playing a forfeited seat).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from splendor.core.record import RESIGNED, TIME
from splendor.i18n import _
from splendor.server.errors import Refused
from splendor.server.seating import HUMAN, KEPT_FOR_REMATCH, OPEN
from splendor.server.watchers import NOT_ALLOWED, SESSION_ENDED, Watcher, unwatch
from splendor.store.accounts import SignedIn
from splendor.store.secrets import secret_matches

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame
    from splendor.store.games import SeatInfo


def seat_link(base_url: str, game_id: str, seat: int, token: str) -> str:
    """The address that plays ``seat`` of a game by its secret, ``token``, on the server at ``base_url`` (shown once,
    when the secret is made: it lets whoever holds it play the seat).

    >>> seat_link("http://h/", "g1", 0, "s3cret")
    'http://h/play/g1?seat=0&token=s3cret'
    """
    return f"{base_url.rstrip('/')}/play/{game_id}?seat={seat}&token={token}"


def check_seat(live: LiveGame, seat: int | None, token: str | None, account: SignedIn | None = None) -> None:
    """Only the holder of a seat's secret, or the account that holds the seat, acts for the seat and sees its
    hidden cards (no seat: the spectator, whom nothing is hidden from that anyone may see)."""
    if seat is None:
        return
    if not 0 <= seat < len(live.seats):
        raise Refused(404, _("there is no seat {seat}; seats are 0 to {last}", seat=seat, last=len(live.seats) - 1))
    info = live.seats[seat]
    if info.forfeited:
        if info.forfeited_by == RESIGNED:
            raise Refused(403, _("Player {number}'s seat resigned: a bot plays it now", number=seat + 1))
        if info.forfeited_by == TIME:
            raise Refused(403, _("Player {number}'s seat ran out of time: a bot plays it now", number=seat + 1))
        raise Refused(
            403, _("Player {number}'s seat was left idle past the limit: a bot plays it now", number=seat + 1)
        )
    if info.kind == OPEN:
        if live.rematch_of is not None:
            raise Refused(403, KEPT_FOR_REMATCH)
        raise Refused(403, _("Player {number}'s seat is open: take it first", number=seat + 1))
    if info.kind != HUMAN:
        raise Refused(403, _("Player {number}'s seat is played by a bot", number=seat + 1))
    _check_holder(info, seat, token, account)


def check_person(live: LiveGame, seat: int, token: str | None, account: SignedIn | None = None) -> None:
    """Whether the one asking is the person of a seat: its holder (its secret, or the account keeping it), as
    `check_seat`, and still after the seat forfeited (resigned, ran out of time, idle past the limit) while a bot
    plays it on. Such a person took part: they write in the game's chat, say "good game", read the players' room
    again in the replay, and take their seat in the game's rematch (`splendor.server.rematches`). The
    store keeps a forfeited seat's secret's hash for this; acting for the seat stays `check_seat`'s, which refuses
    a forfeited seat by its flag."""
    if not 0 <= seat < len(live.seats):
        raise Refused(404, _("there is no seat {seat}; seats are 0 to {last}", seat=seat, last=len(live.seats) - 1))
    info = live.seats[seat]
    if not info.forfeited:
        check_seat(live, seat, token, account)
        return
    _check_holder(info, seat, token, account)


def _check_holder(info: SeatInfo, seat: int, token: str | None, account: SignedIn | None) -> None:
    """The seat's secret, or the account keeping it (`Refused` 403 otherwise). A seat kept in an account is never
    played from a browser signed in to another, even by its secret: a link copied from its person's address bar
    would let a friend's account play it (and see its hidden cards) in a rated game."""
    if account is not None and info.account_id == account.id:
        return
    if info.account_id is not None and account is not None:  # signed in, as someone else
        raise Refused(
            403, _("Player {number}'s seat is kept in another account: only that account plays it", number=seat + 1)
        )
    if not secret_matches(token, info.token_hash):
        if info.account_id is not None and token:
            raise Refused(
                403,
                _(
                    "Player {number}'s seat is kept in an account now, so its old link no longer works: "
                    "sign in to that account to play it",
                    number=seat + 1,
                ),
            )
        if info.account_id is not None:
            raise Refused(
                403,
                _("Player {number}'s seat is kept in an account: sign in to that account to play it", number=seat + 1),
            )
        raise Refused(403, _("wrong or missing secret for Player {number}'s seat", number=seat + 1))


def drop_unauthorised_watchers(live: LiveGame) -> None:
    """Close the seat sockets whose credentials no longer let them read their seat (its secret changed when an
    account kept it, or a bot plays it now): they would go on receiving its hidden cards."""
    for watcher in list(live.watchers):
        if watcher.seat is None:
            continue
        try:
            check_seat(live, watcher.seat, watcher.credentials.token, watcher.credentials.account)
        except Refused as e:
            watcher.close(NOT_ALLOWED, e.message)
            unwatch(live, watcher)


def end_session_of(live: LiveGame, watcher: Watcher) -> bool:
    """The session of ``watcher`` has ended: it goes on as its secret alone allows, else it is closed. Returns
    whether it goes on."""
    c = watcher.credentials
    watcher.credentials = replace(c, account=None, session=None)
    try:
        check_seat(live, watcher.seat, c.token)
        return True
    except Refused:
        watcher.close(SESSION_ENDED, _("your session has ended: sign in again to play this seat"))
        unwatch(live, watcher)
        return False


async def session_lasts(
    live: LiveGame, watcher: Watcher, signed_in: Callable[[str], Awaitable[SignedIn | None]]
) -> bool:
    """Before a socket acts: whether the session that let it in (if one did) is still on; when it has ended, the
    socket goes on by its secret alone, or is closed (`end_session_of`). False when it is closed."""
    c = watcher.credentials
    if c.session is None:
        return True
    now = await signed_in(c.session)
    if now is not None and c.account is not None and now.id == c.account.id:
        return True
    return end_session_of(live, watcher)


async def close_ended_sessions(games: Iterable[LiveGame], lasting: Callable[[set[str]], Awaitable[set[str]]]) -> None:
    """Close the seat sockets let in by a session that has ended since (signed out, or ended by a password change
    on any process), unless the seat's secret alone still lets them in."""
    games = list(games)
    sessions = {w.credentials.session for live in games for w in live.watchers if w.credentials.session}
    if not sessions:
        return
    still = await lasting(sessions)
    for live in games:
        for watcher in list(live.watchers):
            c = watcher.credentials
            if c.session and c.session not in still:
                end_session_of(live, watcher)
