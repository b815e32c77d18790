"""The expert's reviews of finished games, kept so that a second look costs nothing, on any server process.

A review is kept as the JSON body the server answers (``reviews.body``) with the number of actions it reviewed.
While it runs, its row is the claim of the one process computing it: ``status`` "running", an empty body, the
claiming process (``owner``), the moves reviewed so far (``done``) and when it last progressed (``touched``), so
that every process answers for it and none starts a second copy. The claim is an ``INSERT ... ON CONFLICT DO
NOTHING``: of the processes asked at once, exactly one inserts it and computes. A claim with no progress for
``stale`` seconds is of a process that stopped (a move takes about a second): it may be taken over, by a
conditional update that only one process wins. The review is kept by turning the running row into the done one
(the first finished wins, should a slow owner and the one that took over both finish); a failed review's claim is
dropped so that it may be asked for again.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import ColumnElement, Connection, delete, func, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite

from splendor.store.database import Store
from splendor.store.models import ReviewRow

RUNNING = "running"
DONE = "done"


def _now(conn: Connection) -> ColumnElement[float]:
    """Now, by the database's clock on PostgreSQL (processes on several machines agree on it); SQLite, served by
    one process, uses that process's clock (as the bot leases)."""
    if conn.dialect.name == "postgresql":
        return cast(ColumnElement[float], func.extract("epoch", func.clock_timestamp()))
    return literal(time.time())


@dataclass(frozen=True)
class StoredReview:
    """A kept review: the game's id, the number of actions it reviewed, its body, and when it was written."""

    game_id: str
    actions: int
    body: dict[str, Any]
    created: float


@dataclass(frozen=True)
class Claim:
    """A review under way in some process: its owner, ``done`` of ``actions`` moves, the seconds since it was
    claimed, and whether it is stale (no progress for the bound asked: its process stopped)."""

    game_id: str
    owner: str
    actions: int
    done: int
    elapsed: float
    stale: bool


class ReviewStore:
    """Reads and writes the ``reviews`` table."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def look(self, game_id: str, stale: float) -> StoredReview | Claim | None:
        """The review kept for ``game_id``, the claim of the one running (stale when it made no progress for
        ``stale`` seconds), or None."""
        with self.store.engine.begin() as conn:
            row = conn.execute(
                select(
                    ReviewRow.actions,
                    ReviewRow.body,
                    ReviewRow.created,
                    ReviewRow.status,
                    ReviewRow.owner,
                    ReviewRow.done,
                    ReviewRow.touched,
                    _now(conn).label("now"),
                ).where(ReviewRow.game_id == game_id)
            ).one_or_none()
        if row is None:
            return None
        if row.status == RUNNING:
            touched = row.touched if row.touched is not None else row.created
            now = float(row.now)
            return Claim(game_id, row.owner or "", row.actions, row.done, now - row.created, now - touched > stale)
        return StoredReview(game_id, row.actions, json.loads(row.body), row.created)

    def get(self, game_id: str) -> StoredReview | None:
        """The review kept for ``game_id``, or None (none, or still running)."""
        found = self.look(game_id, 0.0)
        return found if isinstance(found, StoredReview) else None

    def claim(self, game_id: str, actions: int, owner: str, stale: float) -> StoredReview | Claim | None:
        """Claim the review of ``game_id`` for ``owner``: None when claimed (compute it), else what stands in the
        way (the kept review, or another's live claim). A claim with no progress for ``stale`` seconds is taken
        over, by one process only (the first update freshens it)."""
        with self.store.engine.begin() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            now = _now(conn)
            inserted = conn.execute(
                dialect.insert(ReviewRow)
                .values(
                    game_id=game_id,
                    actions=actions,
                    body="",
                    created=now,
                    status=RUNNING,
                    owner=owner,
                    done=0,
                    touched=now,
                )
                .on_conflict_do_nothing(index_elements=[ReviewRow.game_id])
                .returning(ReviewRow.game_id)
            ).first()
            if inserted is not None:
                return None
            taken = conn.execute(
                update(ReviewRow)
                .where(ReviewRow.game_id == game_id, ReviewRow.status == RUNNING, ReviewRow.touched < now - stale)
                .values(actions=actions, created=now, owner=owner, done=0, touched=now)
            )
            if taken.rowcount == 1:
                return None
        return self.look(game_id, stale)

    def progress(self, game_id: str, owner: str, done: int) -> bool:
        """Note ``done`` moves reviewed by ``owner``; False when the claim is no longer its (taken over, kept)."""
        with self.store.engine.begin() as conn:
            noted = conn.execute(
                update(ReviewRow)
                .where(ReviewRow.game_id == game_id, ReviewRow.status == RUNNING, ReviewRow.owner == owner)
                .values(done=done, touched=_now(conn))
            )
        return noted.rowcount == 1

    def release(self, game_id: str, owner: str) -> None:
        """Drop ``owner``'s claim (its review failed): the review may be asked for again."""
        with self.store.engine.begin() as conn:
            conn.execute(
                delete(ReviewRow).where(
                    ReviewRow.game_id == game_id, ReviewRow.status == RUNNING, ReviewRow.owner == owner
                )
            )

    def put(self, game_id: str, actions: int, body: dict[str, Any]) -> StoredReview:
        """Keep ``body`` as the review of ``game_id`` unless one is kept already (a running claim becomes it, whoever
        holds it: the first finished wins); the review kept either way."""
        text = json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        now = time.time()
        with self.store.engine.begin() as conn:
            conn.execute(
                update(ReviewRow)
                .where(ReviewRow.game_id == game_id, ReviewRow.status == RUNNING)
                .values(actions=actions, body=text, created=now, status=DONE, owner=None, touched=None)
            )
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            conn.execute(
                dialect.insert(ReviewRow)
                .values(game_id=game_id, actions=actions, body=text, created=now, status=DONE)
                .on_conflict_do_nothing(index_elements=[ReviewRow.game_id])
            )
        kept = self.get(game_id)
        assert kept is not None, "a review just written, or written first by another process, is there"
        return kept
