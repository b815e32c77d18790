"""Rematches: the same game again, with the same people, one game however many of them ask.

``POST /api/games/{id}/seats/{seat}/rematch`` (the seat's secret, or the account keeping it; also a seat whose
person resigned or left and a bot played on) asks for a finished game's rematch. The first to ask deals it: the same
game, options, clock and rating (only the first move passes to the next seat, `passed_on`), each bot in its seat
again, the asker seated, and every other person's seat open, kept for that seat's person of the game before (nobody
else takes it, and the open-games list leaves it out). Until they take their seats nobody acts and no clock runs, as
in any game with open seats, and it expires unfilled after the same wait (`splendor.server.open_seats`). Every table
of the finished game learns of the rematch (its answers' ``rematch``; on every process, by the change feed) and
offers its person to take their seat there, by the same request. ``games.rematch_of`` is unique
(`splendor.store.rematches`): of two people asking at once, on one process or many, the second takes a seat in the
first's rematch. A rematch that never began (it expired, or its asker called it off) is replaced by the next one
asked for; a person who asks again for a seat they took already (its answer was lost) gets a new secret for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from splendor.core.record import LEGACY_OPTIONS
from splendor.i18n import _
from splendor.server import access, open_seats
from splendor.server.errors import Refused
from splendor.server.guards import TOO_MANY_GAMES, RateLimiter
from splendor.server.seating import BOT, HUMAN, OPEN
from splendor.server.watchers import broadcast
from splendor.store import open_seats as stored
from splendor.store.games import GameBounds, SeatInfo
from splendor.store.rematches import marking
from splendor.store.secrets import new_secret, secret_hash

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame
    from splendor.server.live import GameManager
    from splendor.store.accounts import SignedIn

NOT_OVER = _("the game is not over: a rematch follows its end")
NEVER_BEGAN = _("this game never began, so it has no rematch: create a new game")


async def rematch(
    manager: GameManager,
    game_id: str,
    seat: int,
    token: str | None,
    account: SignedIn | None,
    address: str,
    creations: RateLimiter | None = None,
    client: str = "",
) -> tuple[LiveGame, str]:
    """Seat the person of ``seat`` of the finished game ``game_id`` in its rematch, dealing the rematch if nobody
    asked for it yet: the rematch and the seat's new secret (answered once, stored as a hash). Refused with nothing
    changed: not that seat's person (403), the game not over or never begun (expired, called off unfilled: 409), the
    asker's address at its bound of unfinished games, or ``client`` at its bound of new games a minute
    (``creations``, the creations' own: a deal refused gives its token back), when it deals (429): a rematch dealt
    and aborted at once, again and again, had made games past every bound."""
    old = await manager.get(game_id)
    access.check_person(old, seat, token, account)
    if not old.over:
        raise Refused(409, NOT_OVER)
    if never_began(old):  # called off or expired while it waited for players
        raise Refused(409, NEVER_BEGAN)
    found = await manager.read_store(lambda: manager.rematches.of(game_id))
    replacing = found if found is not None and never_began(await manager.get(found)) else None
    if found is None or replacing is not None:
        if creations is not None and not creations.allow(client):
            raise Refused(429, TOO_MANY_GAMES)
        try:
            return await _deal(manager, old, seat, address, replacing)
        except Refused as e:
            if creations is not None and e.status < 500:  # no game dealt: it counts for nothing
                creations.give_back(client)
            if e.status not in (409, 429):  # 409: the unique index, 429: the bound of a dealer, not of a taker
                raise
            found = await manager.read_store(lambda: manager.rematches.of(game_id))
            if found is None or found == replacing:  # not a rematch dealt meanwhile by another: the refusal stands
                raise
    return await _take(manager, old, found, seat)


def never_began(live: LiveGame) -> bool:
    """Whether a game ended while seats were still open: it expired, or was called off, before anyone played. (A
    game its seated people called off has a rematch: the same game again is what they may want, and the bound of
    new games a minute bounds rematches dealt and called off at once.)"""
    return live.over and any(s.kind == OPEN for s in live.seats)


def _person(info: SeatInfo, seat: int, token_hash: str | None) -> SeatInfo:
    """The person of ``info`` (a seat of the game before) as a seat of the rematch."""
    return SeatInfo(
        seat=seat,
        kind=HUMAN,
        bot=None,
        name=info.name,
        token_hash=token_hash,
        profile=info.profile,
        account_id=info.account_id,
    )


def passed_on(options: dict[str, Any], players: int) -> dict[str, Any]:
    """A rematch's options: the game's own, but the first move passes to the next seat, as players take turns to
    start (ruling 1's first seat; a random one stays random). Every rematch had given it to the same seat again.

    >>> passed_on({"first_player": 1, "short": True}, 2)
    {'first_player': 0, 'short': True}
    >>> passed_on({"first_player": "random"}, 3)
    {'first_player': 'random'}

    A game played under earlier rules (``core.record.LEGACY_OPTIONS``) is played again under today's:

    >>> passed_on({"first_player": 0, "evolve_only_when_open": True}, 2)
    {'first_player': 1}
    """
    again = {k: v for k, v in options.items() if k not in LEGACY_OPTIONS}  # dealt under today's rules
    first = again.get("first_player", 0)
    if first != "random":
        again["first_player"] = (int(first) + 1) % players
    return again


async def _deal(
    manager: GameManager, old: LiveGame, seat: int, address: str, replacing: str | None
) -> tuple[LiveGame, str]:
    """The rematch of ``old``, dealt now with the asker in ``seat`` and the other people's seats kept open (in place
    of ``replacing``, a rematch that never began). Rated as ``old`` was, where every person's seat of it was an
    account's (else it could not have counted, and its open seats would be a guest's to take)."""
    fresh = new_secret()
    infos: list[SeatInfo] = []
    for info in old.seats:
        if info.seat == seat:
            infos.append(_person(info, seat, secret_hash(fresh)))
        elif info.kind == BOT and not info.forfeited:
            infos.append(SeatInfo(seat=info.seat, kind=BOT, bot=info.bot, name=info.name, token_hash=None))
        else:  # a person's, also one who left and a bot played on: kept for them, under their name, till they come
            infos.append(SeatInfo(seat=info.seat, kind=OPEN, bot=None, name=info.name, token_hash=None))
    time_control = old.clock.control.text if old.clock is not None else None
    opening = open_seats.opening(infos, time_control, manager.settings)
    mark = marking(old.id, replacing)
    people = [s for s in old.seats if s.kind == HUMAN or s.forfeited]

    def also(conn: Connection, new_id: str) -> None:
        mark(conn, new_id)
        if opening is not None:
            opening(conn, new_id)

    live = await manager.start_game(
        old.game.name,
        infos,
        seed=None,
        options=passed_on(old.game.options, old.game.players),
        rated=old.rated and all(s.account_id is not None for s in people),
        owner=address,  # the asker's unfinished games bound the rematches they deal
        bounds=GameBounds(manager.settings.games_per_client, manager.settings.bot_games_per_client),
        time_control=time_control,
        also=also,
    )
    live.rematch_of = old.id
    old.rematch = live.id
    if replacing is not None and (dead := manager.cache.kept(replacing) or manager.live.get(replacing)) is not None:
        dead.rematch_of = None  # as the store now has it
    broadcast(old)  # this process's tables of the game before; the others hear it on the change feed
    return live, fresh


async def _take(manager: GameManager, old: LiveGame, rematch_id: str, seat: int) -> tuple[LiveGame, str]:
    """The asker's seat, kept open for them in the rematch ``rematch_id``; or, taken already (only its person takes
    it: they did, and the answer with its secret was lost, or another of their requests took it a moment before),
    the same seat with a new secret. As when asked again one after the other, the last secret given is the one
    that plays the seat."""
    live = await manager.get(rematch_id)
    if live.seats[seat].kind == OPEN:
        person = old.seats[seat]
        fresh = new_secret()
        taker = stored.Taker(  # no address: a seat kept for its taker is not one taken from the lobby's list
            name=person.name, token_hash=secret_hash(fresh), account_id=person.account_id, profile=person.profile
        )
        try:
            await open_seats.seat_taker(manager, live, seat, taker, None)
            return live, fresh
        except Refused as e:  # (seat_taker read the seats again before it refused)
            if e.status != 409 or live.seats[seat].kind == OPEN:
                raise
            # taken meanwhile, and only its person takes it: their request that raced this one. It had answered
            # "this seat was taken by someone else", which was not so.
    return live, await _new_secret(manager, live, seat)


async def _new_secret(manager: GameManager, live: LiveGame, seat: int) -> str:
    """A new secret for the asker's seat, taken already in the rematch ``live``; the one before stops playing it."""
    fresh = new_secret()
    given: list[bool] = []
    await manager.write_store(lambda: given.append(manager.rematches.new_secret(live.id, seat, secret_hash(fresh))))
    if not given[-1]:
        raise Refused(409, NEVER_BEGAN)  # a bot's seat: the game before had none of this person's
    await manager.refresh(live, seats=True)  # a socket that read the seat by the old secret is closed
    return fresh
