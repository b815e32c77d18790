"""The expert's reviews of finished games, kept so that a second look costs nothing, on any server process.

A review is kept as the JSON body the server answers (``reviews.body``) with the number of actions it reviewed.
Two processes asked for the same review at once may both compute it; the first to write it keeps its row
(``INSERT ... ON CONFLICT DO NOTHING``), the second's is dropped, and both then answer the row kept.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite

from splendor.store.database import Store
from splendor.store.models import ReviewRow


@dataclass(frozen=True)
class StoredReview:
    """A kept review: the game's id, the number of actions it reviewed, its body, and when it was written."""

    game_id: str
    actions: int
    body: dict[str, Any]
    created: float


class ReviewStore:
    """Reads and writes the ``reviews`` table."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, game_id: str) -> StoredReview | None:
        """The review kept for ``game_id``, or None."""
        with self.store.session() as s:
            row = s.get(ReviewRow, game_id)
            if row is None:
                return None
            return StoredReview(row.game_id, row.actions, json.loads(row.body), row.created)

    def put(self, game_id: str, actions: int, body: dict[str, Any]) -> StoredReview:
        """Keep ``body`` as the review of ``game_id`` unless one is kept already; the review kept either way."""
        text = json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        with self.store.session() as s:
            dialect = postgresql if s.get_bind().dialect.name == "postgresql" else sqlite
            s.execute(
                dialect.insert(ReviewRow)
                .values(game_id=game_id, actions=actions, body=text, created=time.time())
                .on_conflict_do_nothing(index_elements=[ReviewRow.game_id])
            )
        kept = self.get(game_id)
        assert kept is not None, "a review just written, or written first by another process, is there"
        return kept
