"""Bot leases: which server process moves a game's bots.

A process takes a game's lease before its bot thinks, holds it by renewing it, and gives it up when it stops;
when its process dies the lease runs out and another process takes it over (the bot sweep finds such games).
Time is the database's clock on PostgreSQL (processes on several machines agree on it); SQLite, served by one
process, uses that process's clock. Even two processes that both believe they hold a lease cannot both move: the
action's number decides (`GameStore.append`).
"""

from __future__ import annotations

import time
from typing import cast

from sqlalchemy import ColumnElement, Connection, and_, func, literal, or_, select, update

from splendor.store.database import Store
from splendor.store.models import GameRow


def _now(conn: Connection) -> ColumnElement[float]:
    if conn.dialect.name == "postgresql":
        return cast(ColumnElement[float], func.extract("epoch", func.clock_timestamp()))
    return literal(time.time())


class BotLeases:
    """Takes, renews and gives up the leases of one server process, named ``holder``.

    It remembers the leases it knows it holds, until half their length after they were last taken or renewed:
    a bot that moves again in a game whose lease is surely its own asks the store nothing (one commit less a
    move). Renewing learns from the store exactly which leases are still this process's.
    """

    def __init__(self, store: Store, holder: str, seconds: float) -> None:
        self.store, self.holder, self.seconds = store, holder, seconds
        self._sure: dict[str, float] = {}  # game → monotonic time until which its lease is surely ours

    def take(self, game_id: str) -> bool:
        """Take (or keep) the lease of an unfinished game: True when it is this process's now."""
        asked = time.monotonic()
        if self._sure.get(game_id, 0.0) > asked:
            return True
        with self.store.engine.begin() as conn:
            now = _now(conn)
            done = conn.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.status == "ongoing",
                    or_(GameRow.lease_owner.is_(None), GameRow.lease_owner == self.holder, GameRow.lease_until < now),
                )
                .values(lease_owner=self.holder, lease_until=now + self.seconds)
            )
        if done.rowcount == 1:
            self._sure[game_id] = asked + self.seconds / 2
        return done.rowcount == 1

    def renew(self) -> int:
        """Extend every lease this process holds; returns how many it holds."""
        asked = time.monotonic()
        with self.store.engine.begin() as conn:
            held = list(
                conn.execute(
                    update(GameRow)
                    .where(GameRow.lease_owner == self.holder)
                    .values(lease_until=_now(conn) + self.seconds)
                    .returning(GameRow.id)
                ).scalars()
            )
        self._sure = dict.fromkeys(held, asked + self.seconds / 2)
        return len(held)

    def release(self) -> None:
        """Give up every lease of this process (when it stops), so that the others take its games at once. (A
        game's lease ends with the game: `GameStore.append` clears it with the last action.)"""
        self._sure = {}
        with self.store.engine.begin() as conn:
            conn.execute(
                update(GameRow).where(GameRow.lease_owner == self.holder).values(lease_owner=None, lease_until=None)
            )

    def release_all_holders(self) -> None:
        """Clear every lease: only for a store that this one process serves alone (SQLite), when it starts."""
        with self.store.engine.begin() as conn:
            conn.execute(update(GameRow).values(lease_owner=None, lease_until=None))

    def waiting(self, limit: int = 100) -> list[str]:
        """Unfinished games whose bot is to move and whose lease is free or has run out (its holder died)."""
        with self.store.engine.connect() as conn:
            now = _now(conn)
            return list(
                conn.execute(
                    select(GameRow.id)
                    .where(
                        GameRow.status == "ongoing",
                        GameRow.bot_turn.is_(True),
                        or_(
                            GameRow.lease_owner.is_(None),
                            and_(GameRow.lease_owner != self.holder, GameRow.lease_until < now),
                        ),
                    )
                    .order_by(GameRow.updated_at)
                    .limit(limit)
                ).scalars()
            )
