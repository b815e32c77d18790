"""Open seats in the store: a game's seats that nobody holds yet (``game_seats.kind`` "open"), taken by the first
who asks, and the games whose open seats nobody took in time, expired.

A game with an open seat has ``games.open_until`` set (seconds since the epoch): until then anyone may take an
open seat; the take that fills the last one clears it in the same transaction, sets whether a bot moves first and
starts the clock (`splendor.store.clocks.start_clock`). Taking is a conditional write: the game's row is written
first (``WHERE open_until > now``), which on PostgreSQL locks it, so two takes of one game take turns, on one
process or many; then the seat's (``WHERE kind = 'open'``), so of two takers of one seat exactly one wins and the
other changes nothing. The expiry sweep (`expire`) is conditional in the same way: a game filled meanwhile is
never expired.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select, update

from splendor.core.record import EXPIRED
from splendor.store.changes import notify_change
from splendor.store.clocks import start_clock
from splendor.store.database import Store
from splendor.store.leases import _now
from splendor.store.models import GameRow, RatingRow, SeatRow
from splendor.store.names import key_of
from splendor.store.ratings import NEW, NEWCOMER, shown

OPEN = "open"
# EXPIRED (`splendor.core.record`): the status (and ``ended_by``) of a game whose open seats nobody took before
# ``open_until``: no winner, unrated, not counted among its creator's unfinished games.

TAKEN, FILLED = "taken", "filled"
"""What a take did: took a seat (others stay open), or took the last one (the game starts)."""
GONE, EXPIRED_NOW, OVER, FULL, YOURS, NAMED, HOLDS_MANY = "gone", "expired", "over", "full", "yours", "named", "many"
"""Why a take changed nothing: no such game or seat; its open seats expired; the game ended (aborted); the seat is
no longer open (someone else took it first); the account holds another seat of the game already; a guest's name
is another seat's, or reads like it (a take of another seat got in first with it); the taker's address holds open
seats taken in as many unfinished games as it may."""


@dataclass(frozen=True)
class Taker:
    """Who takes an open seat: the name shown, the hash of the seat's new secret, and the account that keeps the
    seat (None for a guest) with the Pokédex profile the game marks for it. A rematch's person whose seat had no
    name takes it with none (the table calls it "Player N")."""

    name: str | None
    token_hash: str
    account_id: int | None = None
    profile: str | None = None
    address: str | None = None
    """The key of the client address taking it, kept as the seat's ``taker``; None: not bounded."""


class _NotTaken(Exception):
    """A take that changes nothing (``why``): its transaction is rolled back."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class OpenSeats:
    """Taking open seats, listing the games that have some, and expiring those nobody filled."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def take(self, game_id: str, seat: int, taker: Taker, most: int | None = None) -> str:
        """Give open ``seat`` of the game to ``taker`` (conditional writes, see the module): `TAKEN` or `FILLED`,
        else why nothing changed (`GONE`, `EXPIRED_NOW`, `OVER`, `FULL`, `YOURS`, `NAMED`, `HOLDS_MANY`: the
        taker's address holds seats taken from the lobby in ``most`` unfinished games already): then the
        transaction, the game's row written first to lock it, is rolled back."""
        try:
            with self.store.engine.begin() as conn:
                return self._take(conn, game_id, seat, taker, most)
        except _NotTaken as e:
            return e.why

    def _take(self, conn: Connection, game_id: str, seat: int, taker: Taker, most: int | None) -> str:
        now = _now(conn)
        waiting = conn.execute(
            update(GameRow)
            .where(
                GameRow.id == game_id,
                GameRow.status == "ongoing",
                GameRow.ended_by.is_(None),
                GameRow.open_until.is_not(None),
                GameRow.open_until > now,
            )
            .values(updated_at=datetime.now(UTC))
        ).rowcount  # PostgreSQL: the game's row is locked from here, so takes of one game take turns
        if not waiting:
            raise _NotTaken(self._why_not(conn, game_id))
        if (
            taker.account_id is not None
            and conn.execute(
                select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.account_id == taker.account_id)
            ).first()
        ):
            raise _NotTaken(YOURS)
        if taker.account_id is None and taker.name:  # checked again here, under the game's lock: two guests at once
            others = conn.execute(
                select(SeatRow.name).where(SeatRow.game_id == game_id, SeatRow.seat != seat)
            ).scalars()
            if key_of(taker.name) in {key_of(name) for name in others if name} - {None}:
                raise _NotTaken(NAMED)
        if taker.address is not None and most is not None and _held(conn, taker.address, besides=game_id) >= most:
            raise _NotTaken(HOLDS_MANY)  # (two takes at once of two games may each pass: a bound, not a count)
        took = conn.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == OPEN)
            .values(
                kind="human",
                joined=True,
                name=taker.name,
                token_hash=taker.token_hash,
                account_id=taker.account_id,
                profile=taker.profile,
                taker=taker.address,
            )
        ).rowcount
        if not took:
            exists = conn.execute(select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.seat == seat)).first()
            raise _NotTaken(FULL if exists else GONE)
        kinds = dict(conn.execute(select(SeatRow.seat, SeatRow.kind).where(SeatRow.game_id == game_id)).all())
        done = TAKEN
        if OPEN not in kinds.values():
            to_move = conn.execute(select(GameRow.to_move).where(GameRow.id == game_id)).scalar()
            conn.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(open_until=None, bot_turn=to_move is not None and kinds.get(to_move) == "bot")
            )
            start_clock(conn, game_id)
            done = FILLED
        notify_change(conn, game_id)
        return done

    @staticmethod
    def _why_not(conn: Connection, game_id: str) -> str:
        row = conn.execute(select(GameRow.status, GameRow.open_until).where(GameRow.id == game_id)).first()
        if row is None:
            return GONE
        if row.status == EXPIRED:
            return EXPIRED_NOW
        if row.status != "ongoing":
            return OVER
        if row.open_until is None:
            return FULL
        return EXPIRED_NOW  # past its time, not yet swept

    def expire(self, limit: int = 100) -> list[str]:
        """Expire the games whose open seats nobody took before ``open_until`` (the index on status and
        open_until serves it): status and ``ended_by`` `EXPIRED`, no winner, unrated, ``forfeit_seat`` the first
        seat left open. Returns their ids."""
        with self.store.engine.begin() as conn:
            now = _now(conn)
            due = list(
                conn.execute(
                    select(GameRow.id)
                    .where(GameRow.status == "ongoing", GameRow.open_until.is_not(None), GameRow.open_until <= now)
                    .order_by(GameRow.open_until)
                    .limit(limit)
                ).scalars()
            )
            expired = []
            for game_id in due:
                first_open = conn.execute(
                    select(func.min(SeatRow.seat)).where(SeatRow.game_id == game_id, SeatRow.kind == OPEN)
                ).scalar()
                done = conn.execute(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.status == "ongoing",
                        GameRow.ended_by.is_(None),
                        GameRow.open_until.is_not(None),
                        GameRow.open_until <= now,
                    )
                    .values(
                        status=EXPIRED,
                        ended_by=EXPIRED,
                        forfeit_seat=first_open if first_open is not None else 0,
                        winners="",  # nobody won
                        bot_turn=False,
                        to_move=None,
                        deadline=None,
                        lease_owner=None,
                        lease_until=None,
                        updated_at=datetime.now(UTC),
                    )
                ).rowcount
                if done:
                    notify_change(conn, game_id)
                    expired.append(game_id)
            return expired

    def listing(self, limit: int = 100, include: str | None = None) -> list[dict[str, Any]]:
        """The games with open seats that are still open, soonest to expire first (the index on status and
        open_until serves it): id, game, players, options (as the game was dealt: whoever joins a Kids game
        knows whether it is the short game or the Mysteries), time control, rated, the creator (the first seat a person
        holds from the start, not one taken since: its name and, kept in an account, its rating in the game on the
        shown scale), the open seats and when they expire (``open_until``, seconds since the epoch, and
        ``expires_in``, seconds from now, both by the store's clock). The game ``include`` names is listed too,
        last, when it is open but not among the first ``limit``: an invitation's link finds it however many
        games are open."""
        with self.store.engine.connect() as conn:
            now = _now(conn)
            now_value = float(conn.execute(select(now)).scalar_one())
            listed = select(
                GameRow.id,
                GameRow.game,
                GameRow.players,
                GameRow.options,
                GameRow.time_control,
                GameRow.rated,
                GameRow.open_until,
            ).where(
                GameRow.status == "ongoing",
                GameRow.open_until.is_not(None),
                GameRow.open_until > now,
                GameRow.rematch_of.is_(None),  # a rematch's seats are kept for their people, never listed
            )
            games = list(conn.execute(listed.order_by(GameRow.open_until).limit(limit)).all())
            if include is not None and all(g.id != include for g in games):
                games += conn.execute(listed.where(GameRow.id == include)).all()
            if not games:
                return []
            ids = [g.id for g in games]
            seats = conn.execute(
                select(
                    SeatRow.game_id,
                    SeatRow.seat,
                    SeatRow.kind,
                    SeatRow.name,
                    SeatRow.account_id,
                    SeatRow.joined,
                    GameRow.game,
                )
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.game_id.in_(ids))
                .order_by(SeatRow.game_id, SeatRow.seat)
            ).all()
            wanted = {(s.account_id, s.game) for s in seats if s.account_id is not None}
            ratings: dict[tuple[int, str], int] = {}
            if wanted:
                rows = conn.execute(
                    select(RatingRow.account_id, RatingRow.game, RatingRow.mu, RatingRow.sigma).where(
                        or_(*(and_(RatingRow.account_id == a, RatingRow.game == g) for a, g in wanted))
                    )
                )
                ratings = {(a, g): shown(mu, sigma) for a, g, mu, sigma in rows}
        by_game: dict[str, list[Any]] = {}
        for s in seats:
            by_game.setdefault(s.game_id, []).append(s)
        out = []
        for g in games:
            mine = by_game.get(g.id, [])
            creator = next((s for s in mine if s.kind == "human" and not s.joined), None)
            out.append(
                {
                    "id": g.id,
                    "game": g.game,
                    "players": g.players,
                    "options": json.loads(g.options),
                    "time_control": g.time_control,
                    "rated": g.rated,
                    "creator": None
                    if creator is None
                    else {
                        "name": creator.name,
                        "rating": None
                        if creator.account_id is None
                        else ratings.get((creator.account_id, g.game), NEWCOMER),
                    },
                    "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in mine],
                    "open_seats": [s.seat for s in mine if s.kind == OPEN],
                    "open_until": g.open_until,
                    "expires_in": max(0, round(g.open_until - now_value)),
                }
            )
        return out


def _held(conn: Connection, address: str, besides: str | None = None) -> int:
    """In how many unfinished games (``ongoing``: waiting for players or in play) other than ``besides``
    ``address`` holds a seat it took: a seat its person left (a bot plays it on) is no longer held."""
    found = conn.execute(
        select(func.count(func.distinct(SeatRow.game_id)))
        .join(GameRow, GameRow.id == SeatRow.game_id)
        .where(
            SeatRow.taker == address,
            SeatRow.forfeited.is_(False),
            GameRow.status == "ongoing",
            SeatRow.game_id != (besides or ""),
        )
    ).scalar_one()
    return int(found)


def opening(wait: float) -> Callable[[Connection, str], None]:
    """What the transaction that writes a new game with open seats also writes: ``open_until``, ``wait`` seconds
    from now by the store's clock (the clock `take`, `expire` and `listing` compare it with, on every process)."""

    def stamp(conn: Connection, game_id: str) -> None:
        conn.execute(update(GameRow).where(GameRow.id == game_id).values(open_until=_now(conn) + wait))

    return stamp


def account_rating(conn: Connection, account_id: int | None, game: str) -> int:
    """An account's rating in ``game`` on the shown scale (a newcomer's, `NEWCOMER`, when it has none; a guest
    counts as a newcomer)."""
    if account_id is None:
        return NEWCOMER
    row = conn.execute(
        select(RatingRow.mu, RatingRow.sigma).where(RatingRow.account_id == account_id, RatingRow.game == game)
    ).first()
    return NEWCOMER if row is None else shown(row.mu, row.sigma)


def account_strength(conn: Connection, account_id: int | None, game: str) -> float:
    """An account's strength μ in ``game``: its rating's mean, not the cautious number it shows (a newcomer's,
    ``NEW``'s μ, when it has none; a guest counts as a newcomer)."""
    if account_id is None:
        return NEW[0]
    mu = conn.execute(
        select(RatingRow.mu).where(RatingRow.account_id == account_id, RatingRow.game == game)
    ).scalar_one_or_none()
    return NEW[0] if mu is None else float(mu)
