"""An account's games as its lobby lists them: those where it is the account's turn first, the most pressing
clock first, then the others newest first.

It reads what the clocks keep (`splendor.store.clocks`): ``games.to_move`` (the seat to move), ``games.deadline``
(when the person to move runs out, seconds since the epoch by the store's clock; None when untimed) and
``games.time_control``. The seconds left are counted here, by the store's clock, never by the browser's.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, case, null, select

from splendor.store.leases import _now
from splendor.store.models import GameRow, SeatRow, utc


def games_of(conn: Connection, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
    """The games in which the account holds a seat: id, game, seat, status, actions, created_at, and
    ``your_turn`` (the seat, still a person's, is to move in an unfinished game no longer waiting for players:
    none of its seats open), ``to_move``, ``time_control`` and ``seconds_left`` (the person to move's time, never
    below 0; None when no clock runs)."""
    now = float(conn.execute(select(_now(conn))).scalar_one())
    yours = and_(
        GameRow.status == "ongoing",
        GameRow.ended_by.is_(None),
        GameRow.open_until.is_(None),  # a game still waiting for players (an open seat) is nobody's turn yet
        GameRow.to_move == SeatRow.seat,
        SeatRow.kind == "human",
        SeatRow.forfeited.is_(False),
    )
    your_turn = case((yours, 1), else_=0)
    rows = conn.execute(
        select(
            GameRow.id,
            GameRow.game,
            SeatRow.seat,
            GameRow.status,
            GameRow.actions,
            GameRow.created_at,
            GameRow.to_move,
            GameRow.time_control,
            GameRow.deadline,
            your_turn.label("your_turn"),
        )
        .join(SeatRow, SeatRow.game_id == GameRow.id)
        .where(SeatRow.account_id == account_id)
        .order_by(
            your_turn.desc(),
            case((yours, GameRow.deadline), else_=null()).asc().nulls_last(),
            GameRow.created_at.desc(),
            GameRow.id,
        )
        .limit(limit)
    )
    return [
        {
            "id": r.id,
            "game": r.game,
            "seat": r.seat,
            "status": r.status,
            "actions": r.actions,
            "created_at": utc(r.created_at).isoformat() if r.created_at else None,
            "your_turn": bool(r.your_turn),
            "to_move": r.to_move if r.status == "ongoing" else None,
            "time_control": r.time_control,
            "seconds_left": (
                max(0.0, round(r.deadline - now, 1)) if r.deadline is not None and r.status == "ongoing" else None
            ),
        }
        for r in rows
    ]
