"""Quick play's seeks in the store: the players waiting to be seated, until they are (``seeks``).

A seek is a player's wish to play a game now: the game, the player count, the time control and whether it is
rated (its *pool*: only seeks of one pool are seated together), the player's name, account and rating, and the hash
of the seek's secret, which becomes the hash of its seat's secret when it is seated (nothing secret is kept in the
clear). Its status goes ``waiting`` → ``seated`` (or ``cancelled``, ``expired``), each step a conditional write
from ``waiting``, so a seek is seated at most once: the seats of a new game are claimed in the transaction that
writes the game (`claim`), under an advisory lock on the pool on PostgreSQL, and a claim that finds one of its
seeks no longer waiting undoes the game with it.
"""

from __future__ import annotations

import hashlib
import threading
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, text, update

from splendor.store.database import Store
from splendor.store.models import Seek

WAITING, SEATED, CANCELLED, EXPIRED = "waiting", "seated", "cancelled", "expired"
"""A seek's statuses."""
KEPT_SECONDS = 3600.0
"""How long a seek that is no longer waiting is kept (its player may still ask where it was seated)."""


@dataclass(frozen=True)
class Pool:
    """What seeks must share to be seated together."""

    game: str
    players: int
    time_control: str | None
    rated: bool

    def key(self) -> int:
        """A PostgreSQL advisory lock key (a signed 64-bit number) for this pool."""
        words = f"seek-pool:{self.game}:{self.players}:{self.time_control or ''}:{self.rated}".encode()
        return int.from_bytes(hashlib.sha256(words).digest()[:8], "big", signed=True)


@dataclass(frozen=True)
class SeekInfo:
    """A stored seek (times in seconds since the epoch)."""

    id: str
    pool: Pool
    name: str
    token_hash: str
    address_key: str
    created: float
    seen: float
    account_id: int | None = None
    rating: float | None = None
    bot_after: float | None = None
    status: str = WAITING
    game_id: str | None = None
    seat: int | None = None


MINUTE, GUESTS = "minute", "guests"
"""Why a new seek was refused: too many from the address this minute; too many guests waiting from it."""


class TooManySeeks(Exception):
    """A new seek over the address's bounds (``why``: `MINUTE` or `GUESTS`); nothing was written."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class SeekGone(Exception):
    """A seek a new game was to seat is no longer waiting (cancelled, expired, or seated by another process):
    the game is not written."""


def _lock(conn: Connection, key: int) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _key(words: str) -> int:
    return int.from_bytes(hashlib.sha256(words.encode()).digest()[:8], "big", signed=True)


class Seeks:
    """The store's seeks."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._adding = threading.Lock()
        """SQLite (one process): new seeks are counted and written one at a time, so the bounds hold."""

    def add(self, seek: SeekInfo, per_minute: int, guests_waiting: int, previous: str | None = None) -> list[str]:
        """Keep a new waiting seek; returns the ids of the waiting seeks it replaced (cancelled): the account's
        (one waiting seek per account), and ``previous``, a seek its player showed it holds (its secret checked
        by the caller). A guest's seek replaces no other: guests behind one address (a household, a school's
        NAT) each keep their own. `TooManySeeks`, nothing changed, when the address made ``per_minute`` seeks
        in the minute before this one, or holds ``guests_waiting`` waiting guest seeks besides those replaced.
        One transaction, under an advisory lock on the address (and the account) on PostgreSQL, this store's
        lock on SQLite, so racing requests cannot pass the counts together."""
        mine = Seek.id == previous if previous is not None else None
        if seek.account_id is not None:
            theirs = Seek.account_id == seek.account_id
            mine = theirs if mine is None else (theirs | mine)
        sqlite = self.store.engine.dialect.name == "sqlite"
        with self._adding if sqlite else nullcontext(), self.store.engine.begin() as conn:
            _lock(conn, _key(f"seek-address:{seek.address_key}"))
            if seek.account_id is not None:
                _lock(conn, _key(f"seeker:{seek.account_id}"))
            recent = conn.execute(
                select(func.count()).where(Seek.address_key == seek.address_key, Seek.created >= seek.created - 60)
            ).scalar_one()
            if recent >= per_minute:
                raise TooManySeeks(MINUTE)
            replaced: list[str] = []
            if mine is not None:
                replaced = list(
                    conn.execute(select(Seek.id).where(Seek.status == WAITING, mine).with_for_update()).scalars()
                )
            if replaced:
                conn.execute(update(Seek).where(Seek.id.in_(replaced), Seek.status == WAITING).values(status=CANCELLED))
            if seek.account_id is None:
                guests = conn.execute(
                    select(func.count()).where(
                        Seek.address_key == seek.address_key, Seek.account_id.is_(None), Seek.status == WAITING
                    )
                ).scalar_one()
                if guests >= guests_waiting:
                    raise TooManySeeks(GUESTS)  # the cancelling above is rolled back with it
            conn.execute(
                insert(Seek).values(
                    id=seek.id,
                    game=seek.pool.game,
                    players=seek.pool.players,
                    time_control=seek.pool.time_control,
                    rated=seek.pool.rated,
                    account_id=seek.account_id,
                    name=seek.name,
                    rating=seek.rating,
                    token_hash=seek.token_hash,
                    address_key=seek.address_key,
                    created=seek.created,
                    seen=seek.seen,
                    bot_after=seek.bot_after,
                    status=WAITING,
                )
            )
            return replaced

    def get(self, seek_id: str) -> SeekInfo | None:
        """A quick-play request as kept (waiting, seated, cancelled or expired); None when it is gone."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(Seek.__table__).where(Seek.id == seek_id)).first()
        return None if row is None else _info(row._mapping)

    def touch(self, seek_id: str, now: float) -> None:
        """Its player asked about a waiting seek: it is not stale."""
        with self.store.engine.begin() as conn:
            conn.execute(update(Seek).where(Seek.id == seek_id, Seek.status == WAITING).values(seen=now))

    def cancel(self, seek_id: str) -> bool:
        """Cancel a waiting seek; False when it is no longer waiting (seated, expired, cancelled already)."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(Seek).where(Seek.id == seek_id, Seek.status == WAITING).values(status=CANCELLED)
            ).rowcount
            return bool(done)

    def expire(self, stale_before: float) -> int:
        """Expire the waiting seeks not asked about since ``stale_before``, and forget those finished more than
        `KEPT_SECONDS` ago; returns how many expired."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(Seek).where(Seek.status == WAITING, Seek.seen < stale_before).values(status=EXPIRED)
            ).rowcount
            conn.execute(delete(Seek).where(Seek.status != WAITING, Seek.seen < stale_before - KEPT_SECONDS))
            return int(done)

    def pools(self) -> list[Pool]:
        """The pools that have waiting seeks (the index on status, game and players serves it)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(Seek.game, Seek.players, Seek.time_control, Seek.rated).where(Seek.status == WAITING).distinct()
            )
            return [Pool(g, p, tc, r) for g, p, tc, r in rows]

    def waiting(self, pool: Pool, fresh_after: float) -> list[SeekInfo]:
        """The pool's waiting seeks asked about since ``fresh_after``, oldest first."""
        tc = Seek.time_control.is_(None) if pool.time_control is None else Seek.time_control == pool.time_control
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(Seek.__table__)
                .where(
                    Seek.status == WAITING,
                    Seek.game == pool.game,
                    Seek.players == pool.players,
                    tc,
                    Seek.rated.is_(pool.rated),
                    Seek.seen >= fresh_after,
                )
                .order_by(Seek.created, Seek.id)
            )
            return [_info(r._mapping) for r in rows]

    @staticmethod
    def claim(conn: Connection, pool: Pool, seats: dict[str, int], game_id: str) -> None:
        """In the transaction that writes the new game ``game_id``: mark its seeks seated (``seats``: seek id →
        seat), each only if still waiting; `SeekGone` (undoing the whole transaction) when one is not."""
        _lock(conn, pool.key())
        for seek_id, seat in seats.items():
            done = conn.execute(
                update(Seek)
                .where(Seek.id == seek_id, Seek.status == WAITING)
                .values(status=SEATED, game_id=game_id, seat=seat)
            ).rowcount
            if not done:
                raise SeekGone(seek_id)


def _info(row: Any) -> SeekInfo:
    return SeekInfo(
        id=row["id"],
        pool=Pool(row["game"], row["players"], row["time_control"], row["rated"]),
        name=row["name"],
        token_hash=row["token_hash"],
        address_key=row["address_key"],
        created=row["created"],
        seen=row["seen"],
        account_id=row["account_id"],
        rating=row["rating"],
        bot_after=row["bot_after"],
        status=row["status"],
        game_id=row["game_id"],
        seat=row["seat"],
    )
