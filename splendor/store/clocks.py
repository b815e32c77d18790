"""Clocks in the store: when the person to move runs out of time, kept in the game's row so that every process
agrees and a restart or the death of a process changes nothing.

A game's time control (``games.time_control``, `parse`) is real-time, ``M+S`` (a bank of M minutes per seat, S
seconds added after each of its turns; ``Ns+S``, a bank of N seconds, only where the server allows short clocks),
or correspondence, ``Nd`` (N days a move). Its clock runs only for a person to move in a game with no open seat:
``games.turn_started`` is when the turn began and ``games.deadline`` when it runs out, in seconds since the epoch by
the database's clock on PostgreSQL (processes on several machines agree on it) and by the process's clock on SQLite
(served by one process); ``game_seats.seconds_left`` is a real-time seat's bank as it stood when its last turn
began. No client's time is ever read: a turn is charged from the store's clock alone, in the transaction that
commits the action that ends it (`pass_turn`).

Nobody can move while no server runs, so a clock does not count that time: every process says it is alive every
few seconds (`say_alive`), and a process that starts after none has been alive for longer than that moves every
running clock on by the time since (`resume_clocks`). A process restarted while others run changes nothing.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from splendor.store.database import Store
from splendor.store.leases import _now
from splendor.store.models import AliveRow, GameRow, SeatRow

REALTIME, CORRESPONDENCE = "realtime", "correspondence"
"""The kinds of time control: a bank per seat with an increment, or so many days a move."""
# TIME (`splendor.core.record`): how a game ends on time. In a game of two the bank is then written as spent
# (`ran_out`), also when the game is called off because it ran out before its first move.
DAY = 86400.0
_REALTIME = re.compile(r"([0-9]{1,3})(s?)\+([0-9]{1,3})")
_DAYS = re.compile(r"([0-9]{1,2})d")


@dataclass(frozen=True)
class TimeControl:
    """A game's time control, read from its text: ``kind``, and ``per_turn`` (real-time: the bank each seat
    starts with; correspondence: the time of one move) and ``increment`` (real-time: added after each turn), in
    seconds. ``short``: a bank in seconds (``10s+0``), for tests only."""

    text: str
    kind: str
    per_turn: float
    increment: float = 0.0
    short: bool = False


def parse(text: str) -> TimeControl:
    """The time control ``text`` writes (``5+10``, ``10s+0``, ``2d``), its text written one way (``005+010`` is
    ``5+10``: one control, one quick-play pool); `ValueError` when it writes none. The bounds of what a game may
    choose are the server's (`splendor.server.clocks`).

    >>> parse("5+10")
    TimeControl(text='5+10', kind='realtime', per_turn=300.0, increment=10.0, short=False)
    >>> parse("005+010").text, parse("02d").per_turn
    ('5+10', 172800.0)
    """
    if m := _REALTIME.fullmatch(text):
        bank = float(m[1]) * (1 if m[2] else 60)
        return TimeControl(f"{int(m[1])}{m[2]}+{int(m[3])}", REALTIME, bank, float(m[3]), short=bool(m[2]))
    if m := _DAYS.fullmatch(text):
        return TimeControl(f"{int(m[1])}d", CORRESPONDENCE, float(m[1]) * DAY)
    raise ValueError(f"not a time control: {text!r}")


class OutOfTime(Exception):
    """The person to move had run out of time before an action, a resignation or an abort reached the store:
    nothing was written (the clock sweep ends the game). ``theirs``: whether the seat that asked is the one whose
    time ran out."""

    def __init__(self, message: str, theirs: bool = True) -> None:
        super().__init__(message)
        self.theirs = theirs


def refuse_when_run_out(conn: Connection, game_id: str, seat: int) -> None:
    """In the transaction of ``seat``'s resignation or abort, before it writes: `OutOfTime` when the clock of the
    seat to move has run out. The game is then the clock sweep's to end on time: a resignation sent in the second
    before the sweep came round had turned the loss on time of the seat to move into its victory."""
    row = conn.execute(select(GameRow.deadline, GameRow.to_move).where(GameRow.id == game_id).with_for_update()).first()
    if row is not None and row.deadline is not None and _now_value(conn) >= row.deadline:
        raise OutOfTime(f"game {game_id}: seat {row.to_move} ran out of time", theirs=row.to_move == seat)


@dataclass(frozen=True)
class ClockState:
    """A timed game's clock as the store had it when read: each seat's bank (real-time; None for bots and in
    correspondence), the seat whose clock runs (None: none runs) and how many seconds it had left then, by the
    store's clock. ``read_at`` is this process's monotonic time of the read, so that what is left is counted on
    without asking any other clock."""

    control: TimeControl
    banks: list[float | None]
    running: int | None
    left: float | None
    read_at: float = field(default_factory=time.monotonic)

    def left_now(self) -> float | None:
        """Seconds the running seat has left now (never below 0), or None when no clock runs."""
        if self.left is None:
            return None
        return max(0.0, self.left - (time.monotonic() - self.read_at))


def _now_value(conn: Connection) -> float:
    """Now, in seconds since the epoch, by the store's clock (`splendor.store.leases._now`)."""
    return float(conn.execute(select(_now(conn))).scalar_one())


def _seats(conn: Connection, game_id: str) -> dict[int, tuple[str, float | None]]:
    rows = conn.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.seconds_left).where(SeatRow.game_id == game_id))
    return {seat: (kind, left) for seat, kind, left in rows}


def start_clock(conn: Connection, game_id: str) -> None:
    """Start a timed game's clock, in the caller's transaction: every person's seat gets its full bank (real-time)
    and the clock of the seat to move (``games.to_move``) runs from now if a person is to move. Nothing for an
    untimed game; while a seat is still open (kind ``open``) no clock runs (its deadline stays NULL) and this is
    called again by whoever fills the last one."""
    row = conn.execute(select(GameRow.time_control, GameRow.to_move).where(GameRow.id == game_id)).first()
    if row is None or row.time_control is None:
        return
    control = parse(row.time_control)
    seats = _seats(conn, game_id)
    if any(kind == "open" for kind, _ in seats.values()):
        conn.execute(update(GameRow).where(GameRow.id == game_id).values(turn_started=None, deadline=None))
        return
    if control.kind == REALTIME:
        conn.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.kind == "human")
            .values(seconds_left=control.per_turn)
        )
    now = _now_value(conn)
    person = row.to_move is not None and seats.get(row.to_move, ("", None))[0] == "human"
    conn.execute(
        update(GameRow)
        .where(GameRow.id == game_id)
        .values(turn_started=now, deadline=now + control.per_turn if person else None)
    )


def pass_turn(conn: Connection, game_id: str, seat: int, to_move: int | None) -> None:
    """In the transaction that commits ``seat``'s action (its game's row already written, so locked on
    PostgreSQL): `OutOfTime` when its clock had run out (the caller's transaction is then rolled back). Else,
    when another seat is to move next (``to_move``; None: the game is over), ``seat`` is charged the time its turn
    took and given the increment (real-time), and the next seat's clock starts if a person is to move (none runs
    for a bot: bots' time is not counted). While the same seat decides on, its clock runs on."""
    row = conn.execute(
        select(GameRow.time_control, GameRow.deadline).where(GameRow.id == game_id).with_for_update()
    ).first()
    if row is None or row.time_control is None:
        return
    now = _now_value(conn)
    if row.deadline is not None and now >= row.deadline:
        raise OutOfTime(f"game {game_id}: seat {seat} ran out of time")
    if to_move == seat:
        return
    control = parse(row.time_control)
    seats = _seats(conn, game_id)
    if control.kind == REALTIME and row.deadline is not None:
        bank = row.deadline - now + control.increment
        conn.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(seconds_left=bank))
        seats[seat] = (seats[seat][0], bank)
    deadline = None
    kind, bank_next = seats.get(to_move, ("", None)) if to_move is not None else ("", None)
    if kind == "human" and not any(k == "open" for k, _ in seats.values()):
        per_turn = control.per_turn if control.kind == CORRESPONDENCE else bank_next
        deadline = now + (per_turn if per_turn is not None else control.per_turn)
    conn.execute(update(GameRow).where(GameRow.id == game_id).values(turn_started=now, deadline=deadline))


def read_clock(store: Store, game_id: str) -> ClockState | None:
    """A timed game's clock as the store has it now, or None for an untimed (or unknown) game."""
    with store.engine.connect() as conn:
        return clock_of(conn, game_id)


def clock_of(conn: Connection, game_id: str) -> ClockState | None:
    """`read_clock` on a connection the caller holds."""
    row = conn.execute(
        select(GameRow.time_control, GameRow.to_move, GameRow.deadline, _now(conn)).where(GameRow.id == game_id)
    ).first()
    if row is None or row[0] is None:
        return None
    text: str = row[0]
    _, to_move, deadline, now = row
    seats = _seats(conn, game_id)
    banks = [seats[s][1] if s in seats and seats[s][0] != "bot" else None for s in range(max(seats, default=-1) + 1)]
    running = to_move if deadline is not None else None
    left = max(0.0, float(deadline) - float(now)) if deadline is not None else None
    return ClockState(parse(text), banks, running, left)


def overdue(store: Store, limit: int = 100) -> list[tuple[str, int, int | None]]:
    """Unfinished games whose person to move has run out of time (the index on status and deadline serves it):
    their ids, action counts and the seat to move, the longest overdue first."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(GameRow.id, GameRow.actions, GameRow.to_move)
            .where(GameRow.status == "ongoing", GameRow.deadline.is_not(None), GameRow.deadline < _now(conn))
            .order_by(GameRow.deadline)
            .limit(limit)
        )
        return [(game_id, actions, to_move) for game_id, actions, to_move in rows]


def ran_out(conn: Connection, game_id: str, seat: int) -> None:
    """Write the bank of a seat that ran out of time as spent: the clock showed it as it stood when its turn began."""
    conn.execute(update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(seconds_left=0.0))


def say_alive(store: Store) -> None:
    """This process is alive now, by the store's clock (``server_alive``)."""
    try:
        with store.engine.begin() as conn:
            now = _now_value(conn)
            if not conn.execute(update(AliveRow).where(AliveRow.id == 1).values(alive_at=now)).rowcount:
                conn.execute(insert(AliveRow).values(id=1, alive_at=now))
    except IntegrityError:  # another process wrote the first row at the same moment: it said it for now
        pass


DOWN_BEATS = 6
"""How many of ``alive_seconds`` nobody may have said it was alive before a start counts the time as the server's
down time (30 s by default): a live process's beat delayed a few seconds (a busy store) is never taken for it."""


def resume_clocks(store: Store, alive_seconds: float) -> float:
    """At a process's start: when no process has said it was alive for more than ``DOWN_BEATS`` times
    ``alive_seconds`` (the server was down), move every running clock on by the time surely lost: since it last
    said so, less one beat (the last process may have lived up to a beat past its last word, and its clocks ran
    then), so that nobody loses the time in which no move could be made and nobody gets back more than that; and
    as much the time open seats wait for a taker and the idle limit of untimed games (counted from their last
    change). A turn begun, or a deadline passed, before the last word is left as it was: the process then alive
    had ended it; one that passed in the beat after it is past again at the start, and ended. Returns the seconds
    given back: 0 when a process was alive, on a new store, or when another process starting at once gave them
    back first. Says this process is alive."""
    try:
        return _resume_clocks(store, alive_seconds)
    except IntegrityError:  # a new store's first row, written by another process starting at once
        return 0.0


def _resume_clocks(store: Store, alive_seconds: float) -> float:
    with store.engine.begin() as conn:
        now = _now_value(conn)
        last = conn.execute(select(AliveRow.alive_at).where(AliveRow.id == 1).with_for_update()).scalar()
        if last is None:
            conn.execute(insert(AliveRow).values(id=1, alive_at=now))
            return 0.0
        if not conn.execute(
            update(AliveRow).where(AliveRow.id == 1, AliveRow.alive_at == last).values(alive_at=now)
        ).rowcount:
            return 0.0  # another process said it first: it gave the time back, or none was due
        if now - last <= DOWN_BEATS * alive_seconds:
            return 0.0
        down = now - last - alive_seconds  # the time surely lost: a hostile tester's clock came back 61 s of 60
        ongoing = GameRow.status == "ongoing"
        conn.execute(
            update(GameRow)
            .where(ongoing, GameRow.deadline.is_not(None), GameRow.deadline > last)
            .values(deadline=GameRow.deadline + down, turn_started=GameRow.turn_started + down)
        )
        conn.execute(  # an open seat's game waits as long for a taker
            update(GameRow)
            .where(ongoing, GameRow.open_until.is_not(None), GameRow.open_until > last)
            .values(open_until=GameRow.open_until + down)
        )
        since = datetime.fromtimestamp(last, UTC)  # and an untimed game's idle limit counts from its last change
        for game_id, changed in conn.execute(select(GameRow.id, GameRow.updated_at).where(ongoing)).all():
            if changed is not None and (changed if changed.tzinfo else changed.replace(tzinfo=UTC)) > since:
                later = changed + timedelta(seconds=down)
                conn.execute(update(GameRow).where(GameRow.id == game_id).values(updated_at=later))
        return down
