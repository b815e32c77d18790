"""Games kept by the server: a game is its record (header + accepted actions), so a restart loses nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, insert, select, update

from splendor.store.database import Store
from splendor.store.models import ActionRow, GameRow, SeatRow
from splendor.store.pokedex import mark_caught


@dataclass(frozen=True)
class SeatInfo:
    """A seat of a stored game."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    profile: str | None = None
    """The Pokédex profile this seat proved it owns (a finished Pokémon game marks it)."""


@dataclass(frozen=True)
class StoredGame:
    """A stored game: header, seats and the accepted actions in order."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    seats: list[SeatInfo]
    actions: list[str]
    created_at: datetime | None


class GameStore:
    """Creates games, appends accepted actions (each in its own committed transaction), reads them back."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, game_id: str, game: str, players: int, seed: int, options: dict[str, Any],
               seats: list[SeatInfo]) -> None:
        with self.store.session() as s:
            row = GameRow(id=game_id, game=game, players=players, seed=seed, options=json.dumps(options),
                          status="ongoing", actions=0)
            row.seats = [SeatRow(seat=x.seat, kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash,
                                 profile=x.profile) for x in seats]
            s.add(row)

    def append(self, game_id: str, number: int, seat: int, action: str, status: str,
               pokedex: list[tuple[str, list[str]]] | None = None) -> None:
        """Record action ``number`` (1-based). The primary key (game, number) refuses a second action with the
        same number, so two racing writers cannot both succeed. A finished Pokémon game's marks go in the same
        transaction."""
        if pokedex:
            with self.store.session() as s:
                s.execute(insert(ActionRow).values(game_id=game_id, number=number, seat=seat, action=action))
                s.execute(update(GameRow).where(GameRow.id == game_id).values(
                    actions=number, status=status, updated_at=datetime.now(timezone.utc)))
                for profile, caught in pokedex:
                    mark_caught(s, profile, caught)
            return
        with self.store.engine.begin() as conn:          # the common case, without an ORM session
            conn.execute(insert(ActionRow).values(game_id=game_id, number=number, seat=seat, action=action))
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(
                actions=number, status=status, updated_at=datetime.now(timezone.utc)))

    def action_at(self, game_id: str, number: int) -> str | None:
        """The text of action ``number`` of a game, if it is stored (to tell whether a write that seemed to fail
        was in fact committed)."""
        with self.store.engine.connect() as conn:
            return conn.execute(select(ActionRow.action).where(ActionRow.game_id == game_id,
                                                               ActionRow.number == number)).scalar()

    def set_profile(self, game_id: str, seat: int, profile: str) -> None:
        """Record that ``seat`` proved it owns the Pokédex ``profile``."""
        with self.store.session() as s:
            s.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(profile=profile))

    def load(self, game_id: str) -> StoredGame | None:
        with self.store.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            return self._stored(s, row)

    def unfinished(self) -> list[StoredGame]:
        with self.store.session() as s:
            rows = s.scalars(select(GameRow).where(GameRow.status == "ongoing").order_by(GameRow.created_at))
            return [self._stored(s, r) for r in rows]

    def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """Newest first: id, game, players, status, actions, created."""
        with self.store.session() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created_at.desc()).limit(limit))
            return [{"id": r.id, "game": r.game, "players": r.players, "status": r.status, "actions": r.actions,
                     "created_at": r.created_at.isoformat() if r.created_at else None} for r in rows]

    def count(self) -> int:
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)

    @staticmethod
    def _stored(s: Any, row: GameRow) -> StoredGame:
        actions = list(s.scalars(select(ActionRow.action).where(ActionRow.game_id == row.id)
                                 .order_by(ActionRow.number)))
        seats = [SeatInfo(seat=x.seat, kind=x.kind, bot=x.bot, name=x.name, token_hash=x.token_hash,
                          profile=x.profile) for x in row.seats]
        return StoredGame(id=row.id, game=row.game, players=row.players, seed=row.seed,
                          options=json.loads(row.options), status=row.status, seats=seats, actions=actions,
                          created_at=row.created_at)

