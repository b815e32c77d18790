"""Rematches in the store: which game is a finished game's rematch (``games.rematch_of``, migration 0015), and a
rematch's seat given a new secret.

The column is unique, so a game has one rematch however many of its people ask for it at once, on one process or
many: of two writes the second fails on the index, and its asker takes a seat in the first's rematch instead
(`splendor.server.rematches`).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, select, update

from splendor.store.changes import notify_change
from splendor.store.database import Store
from splendor.store.models import GameRow, SeatRow


def marking(old_id: str, replacing: str | None = None) -> Callable[[Connection, str], None]:
    """What the transaction writing a rematch also writes: that it follows ``old_id`` (the unique index refuses a
    second), announced as a change of the old game, so that every process tells its tables there is a rematch.
    ``replacing``: a rematch of ``old_id`` that never began (it expired, or was called off, with seats still open),
    which stops being its rematch in the same transaction, if it is still that and over."""

    def mark(conn: Connection, new_id: str) -> None:
        if replacing is not None:
            conn.execute(
                update(GameRow)
                .where(GameRow.id == replacing, GameRow.rematch_of == old_id, GameRow.status != "ongoing")
                .values(rematch_of=None)
            )
        conn.execute(update(GameRow).where(GameRow.id == new_id).values(rematch_of=old_id))
        notify_change(conn, old_id)

    return mark


class Rematches:
    """Reads which game is a game's rematch; gives a rematch's seat a new secret."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def of(self, game_id: str) -> str | None:
        """The id of the rematch of ``game_id``, or None while nobody asked for one (the unique index serves it)."""
        with self.store.engine.connect() as conn:
            found: str | None = conn.execute(select(GameRow.id).where(GameRow.rematch_of == game_id)).scalar()
        return found

    def new_secret(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give a person's ``seat`` of the rematch ``game_id`` a new secret (its hash): the seat's person asked
        again, proving the seat of the game before, whose answer was lost. The old secret stops working. Whether
        there was such a seat."""
        with self.store.engine.begin() as conn:
            changed = conn.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == "human")
                .values(token_hash=token_hash)
            ).rowcount
            if changed:
                notify_change(conn, game_id)
        return bool(changed)
