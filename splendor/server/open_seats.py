"""Open games: a new game's seats of kind ``open`` wait for anyone to take them, and the lobby lists those games.

A game created with an open seat (`splendor.server.schemas.SeatSpec`) waits for players until ``open_until``
(`Settings.open_seat_seconds` from its creation, `Settings.open_seat_correspondence_seconds` for a game of days a
move): until every seat is taken nobody acts (409, `splendor.server.moves.WAITING`), no bot moves and no clock
runs. Anyone may take an open seat, ``POST /api/games/{id}/seats/{seat}/take``: a guest with a name, or the
signed-in account, which then keeps the seat (as ``keep`` does); a rated game's seats only an account. The seat's
new secret is answered once, stored only as its hash. Of two takers of a seat exactly one wins, on one process or
many (`splendor.store.open_seats`); the take that fills the last seat starts the game and its clock in the same
transaction. A game whose open seats nobody took in time expires (status ``expired``: no winner, unrated, not
counted among its creator's unfinished games), by a periodic chore of every process (`expire_games`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from splendor.i18n import _
from splendor.server.effects import effects_of
from splendor.server.errors import Refused
from splendor.server.moves import GAME_OVER
from splendor.server.schemas import Name
from splendor.server.seating import KEPT_FOR_REMATCH, OPEN, PLAY_UNDER_IT, refuse_a_reserved_name
from splendor.server.settings import Settings
from splendor.store import open_seats as stored
from splendor.store.clocks import CORRESPONDENCE, parse
from splendor.store.games import SeatInfo
from splendor.store.names import key_of
from splendor.store.secrets import new_secret, secret_hash

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame
    from splendor.server.live import GameManager
    from splendor.store.accounts import SignedIn


class TakeSeat(BaseModel):
    """Who takes an open seat: a guest gives a name; the signed-in account gives none (its own is shown)."""

    model_config = ConfigDict(extra="forbid")
    name: Name | None = Field(default=None, description="a guest's name (the signed-in account's name is used)")


def opening(
    seats: list[SeatInfo], time_control: str | None, settings: Settings
) -> Callable[[Connection, str], None] | None:
    """What the transaction writing a new game also writes when it has open seats (None when it has none): when
    they expire, set by the store's clock (`stored.opening`; the clock every process's take, expiry and listing
    compares with), longer for a game of days a move, whose players come back once a day."""
    if not any(s.kind == OPEN for s in seats):
        return None
    days = time_control is not None and parse(time_control).kind == CORRESPONDENCE
    return stored.opening(settings.open_seat_correspondence_seconds if days else settings.open_seat_seconds)


SEATED_ALREADY = _("a player of this game has this name, or one that looks like it: choose another")
"""Why a guest may not take an open seat under the name of another seat of the game, in any case or look-alike
letters (as the spectators' room refuses a player's name)."""


_WHY_NOT = {
    stored.GONE: (404, _("there is no such open seat")),
    stored.EXPIRED_NOW: (409, _("this game expired: nobody took its open seats in time")),
    stored.OVER: (409, GAME_OVER),
    stored.FULL: (409, _("this seat was taken by someone else: choose another game")),
    stored.YOURS: (409, _("you have a seat in this game already")),
    stored.NAMED: (409, SEATED_ALREADY),
    stored.HOLDS_MANY: (
        429,
        _("you hold seats taken from the lobby in as many unfinished games as one may: finish one"),
    ),
}


async def take(
    manager: GameManager, game_id: str, seat: int, name: str | None, account: SignedIn | None, address: str
) -> tuple[LiveGame, str]:
    """Give the open ``seat`` to a guest named ``name`` or to the signed-in ``account`` (which keeps it), taken
    from the client ``address`` (its key): the game and the seat's new secret (answered once, stored as a hash).
    Refused with nothing changed: no such seat (404), a seat taken already, an expired or ended game, an account
    that holds another seat of the game, a guest under another seat's name or a look-alike of it, or a bot's
    (409), a rated game without an account (401), a guest without a name (400), an address that holds seats taken
    from the lobby in ``Settings.seats_taken_per_client`` unfinished games (429)."""
    live = await manager.get(game_id)
    if not 0 <= seat < len(live.seats):
        raise Refused(404, _("there is no seat {seat}; seats are 0 to {last}", seat=seat, last=len(live.seats) - 1))
    if live.ending is not None and live.ending.by == stored.EXPIRED:
        raise Refused(*_WHY_NOT[stored.EXPIRED_NOW])
    if live.over:
        raise Refused(409, GAME_OVER)
    if live.seats[seat].kind != OPEN and not live.seats[seat].joined:
        raise Refused(
            409, _("Player {number}'s seat was never open: its creator seated a person or a bot there", number=seat + 1)
        )
    if live.seats[seat].kind != OPEN:
        raise Refused(*_WHY_NOT[stored.FULL])
    if live.rematch_of is not None:  # a rematch's seat waits for its person of the game before
        raise Refused(403, KEPT_FOR_REMATCH)
    if account is None and live.rated:
        raise Refused(401, _("sign in to take a seat in a rated game"))
    if account is None and name is None:
        raise Refused(400, _("give your name to take the seat"))
    if account is None:
        refuse_a_reserved_name(str(name))
        await manager.refuse_an_account_name(str(name), PLAY_UNDER_IT)
        if key_of(str(name)) in {key_of(s.name) for s in live.seats if s.name and s.seat != seat} - {None}:
            raise Refused(409, SEATED_ALREADY)  # the chat and the table would show two of one name
    fresh = new_secret()
    taker = stored.Taker(
        name=account.name if account is not None else str(name),
        token_hash=secret_hash(fresh),
        account_id=account.id if account is not None else None,
        profile=effects_of(live.game.name).account_profile(account.name) if account is not None else None,
        address=address,
    )
    await seat_taker(manager, live, seat, taker, manager.settings.seats_taken_per_client)
    return live, fresh


async def seat_taker(manager: GameManager, live: LiveGame, seat: int, taker: stored.Taker, most: int | None) -> None:
    """Write that ``taker`` took the open ``seat`` (`stored.OpenSeats.take`: of two takers exactly one wins, and the
    take that fills the last seat starts the game and its clock), then tell the game's watchers. Refused with
    nothing changed as `take` says; ``most`` bounds the unfinished games whose seats the taker's address took from
    the lobby (None: no bound, as for a rematch's seat, which is its taker's own)."""
    opener = stored.OpenSeats(manager.store.store)
    done: list[str] = []
    async with live.lock:
        await manager.write_store(lambda: done.append(opener.take(live.id, seat, taker, most)))
    await manager.refresh(live, seats=True)  # its seats (and its clock) as the store has them; watchers told
    if done[-1] not in (stored.TAKEN, stored.FILLED):
        raise Refused(*_WHY_NOT[done[-1]])
    if done[-1] == stored.FILLED:  # the game starts: whoever is to move may have left the page (Web Push)
        manager.pushes.turn_began(live)


async def expire_games(manager: GameManager) -> None:
    """The periodic chore: expire the games whose open seats nobody took in time (`stored.OpenSeats.expire`, a
    conditional write, so one process does each), and tell the watchers of those held here."""
    opener = stored.OpenSeats(manager.store.store)
    for game_id in await manager.read_store(opener.expire):
        live = manager.live.get(game_id)
        if live is not None:
            await manager.refresh(live, seats=True)
