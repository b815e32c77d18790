"""Games kept by the server: a game is its record (header + accepted actions), so a restart loses nothing."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, case, func, insert, select, text, update
from sqlalchemy.orm import Session, aliased

from splendor.core.record import CALLED_OFF, IDLE
from splendor.store import your_games
from splendor.store.changes import notify_change
from splendor.store.clocks import ClockState, clock_of, pass_turn, ran_out, refuse_when_run_out, start_clock
from splendor.store.database import Store
from splendor.store.models import ActionRow, GameRow, SeatRow, utc
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
    account_id: int | None = None
    """The account that holds the seat (signed in, it plays the seat without the seat's secret)."""
    forfeited: bool = False
    """Its person forfeited (idle past the limit, resigned, or out of time on the clock, with three or four
    players): a bot plays on, it ranks last."""
    forfeited_by: str | None = None
    """How its person forfeited: ``idle``, ``resigned`` or ``time`` (None when it did not, or before this was
    kept)."""
    forfeited_at: int | None = None
    """The number of actions the game had when its person forfeited."""
    joined: bool = False
    """The seat was open and someone took it (not one of the creator's): it may not abort a game still waiting."""


@dataclass(frozen=True)
class Ending:
    """How a game ended when no rule of the game ended it: ``by`` (``idle``: the seat to move did not move within
    the limit; ``resigned``: the seat resigned; ``time``: the seat's clock ran out, `splendor.store.clocks`;
    ``aborted``: the seat called the game off before its first move, and nobody lost; ``no_start``: in a game of
    two the seat ran out of time or sat idle before its first move, and the game was called off so; ``expired``:
    nobody took its open seats in time; ``abandoned``: the seat to move left an untimed game without a move past
    the server's limit for abandoned games, and it was called off) and the seat that lost, or called it off, by
    it."""

    by: str
    seat: int

    @property
    def called_off(self) -> bool:
        """Whether it called the game off (aborted, no start, expired, abandoned): nobody won or lost."""
        return self.by in CALLED_OFF

    def winners(self, players: int) -> list[int]:
        """Who won the game it ended: nobody when it called the game off, else every other seat (it ends only a
        game of two; a seat of three or four that leaves is played on by a bot).

        >>> Ending("resigned", 0).winners(2), Ending("aborted", 1).winners(2)
        ([1], [])
        """
        return [] if self.called_off else [seat for seat in range(players) if seat != self.seat]


@dataclass(frozen=True)
class GameBounds:
    """The most unfinished games one client may have created, and of those the most between bots only."""

    games: int
    bots_only: int


class GameMovedOn(Exception):
    """A write that assumed where the game stood found it elsewhere: another action was accepted first, or the
    game ended (a seat forfeited) meanwhile. Nothing was written."""


class _Undone(Exception):
    """A conditional write found the game elsewhere: its transaction is rolled back."""


class TooManyGames(Exception):
    """A client's new game is over its bounds: ``bots_only`` tells which bound, ``count`` how many it has."""

    def __init__(self, count: int, bots_only: bool) -> None:
        super().__init__(f"{count} unfinished games{' between bots' if bots_only else ''}")
        self.count, self.bots_only = count, bots_only


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
    owner: str = ""
    rated: bool = False
    bot_salt: str | None = None
    ending: Ending | None = None
    clock: ClockState | None = None
    rematch_of: str | None = None  # the game this one is the rematch of (0015)
    rematch: str | None = None  # this game's rematch, once one of its people asked for it


class GameStore:
    """Creates games, appends accepted actions (each in its own committed transaction), reads them back.

    Every committed change to a game is announced to the other server processes on the same database
    (`splendor.store.changes`) in the transaction that makes it, so it is heard if and only if it is committed.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._creating = threading.Lock()
        """SQLite (one process): new games are counted and written one at a time, so bounds hold."""

    def create(
        self,
        game_id: str,
        game: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        seats: list[SeatInfo],
        owner: str = "",
        bot_turn: bool = False,
        bounds: GameBounds | None = None,
        rated: bool = False,
        bot_salt: str | None = None,
        time_control: str | None = None,
        to_move: int | None = None,
        also: Callable[[Connection], None] | None = None,
        created_at: datetime | None = None,
    ) -> None:
        """Write a new game (``to_move``: the seat to move first; ``created_at``: when it was made, as the process
        holding it says it (else the database's clock); ``time_control``: its clock, started at once
        unless a seat is open, `splendor.store.clocks`; ``also``: what else to write in the same transaction, e.g.
        when its open seats expire (`splendor.store.open_seats`) or the quick-play seeks it seats, raising to undo
        it all). With ``bounds``, the owner's unfinished games are counted
        in the same transaction, under a lock that holds across processes (PostgreSQL: an advisory lock on the
        owner), so concurrent creates cannot all pass the count: `TooManyGames` when this one would be over."""
        bots_only = all(x.kind == "bot" for x in seats)
        with self._creating if self.store.engine.dialect.name == "sqlite" else nullcontext(), self.store.session() as s:
            if bounds is not None:
                if self.store.engine.dialect.name == "postgresql":
                    s.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(owner)})
                mine, between_bots = self._unfinished(s.connection(), owner)
                if mine >= bounds.games:
                    raise TooManyGames(mine, bots_only=False)
                if bots_only and between_bots >= bounds.bots_only:
                    raise TooManyGames(between_bots, bots_only=True)
            row = GameRow(
                id=game_id,
                game=game,
                players=players,
                seed=seed,
                options=json.dumps(options),
                status="ongoing",
                actions=0,
                owner=owner,
                bot_turn=bot_turn,
                bots_only=bots_only,
                rated=rated,
                bot_salt=bot_salt,
                time_control=time_control,
                to_move=to_move,
            )
            if created_at is not None:
                row.created_at = created_at
            row.seats = [
                SeatRow(
                    seat=x.seat,
                    kind=x.kind,
                    bot=x.bot,
                    name=x.name,
                    token_hash=x.token_hash,
                    profile=x.profile,
                    account_id=x.account_id,
                )
                for x in seats
            ]
            s.add(row)
            if time_control is not None:
                s.flush()
                start_clock(s.connection(), game_id)
            if also is not None:
                s.flush()
                also(s.connection())

    def append(
        self,
        game_id: str,
        number: int,
        seat: int,
        action: str,
        status: str,
        pokedex: list[tuple[str, list[str]]] | None = None,
        bot_turn: bool = False,
        finish: Callable[[Connection], None] | None = None,
        by_person: bool = False,
        to_move: int | None = None,
        winners: list[int] | None = None,
    ) -> None:
        """Record action ``number`` (1-based). The primary key (game, number) refuses a second action with the
        same number, so two racing writers, in one process or many, cannot both succeed. A finished Pokémon
        game's marks, and whatever else ``finish`` writes (the ratings), go in the same transaction: they are
        written exactly once, with the action that ends the game. The game must still stand at action
        ``number - 1`` and be unfinished (`GameMovedOn` otherwise, nothing written): a game a seat forfeited on
        another process takes no more actions, and a seat a bot plays on since its person forfeited takes none
        ``by_person``. The action that ends the game writes its ``winners`` (None: not known, kept as NULL)."""
        with self.store.engine.begin() as conn:
            conn.execute(insert(ActionRow).values(game_id=game_id, number=number, seat=seat, action=action))
            values: dict[str, Any] = {
                "actions": number,
                "status": status,
                "bot_turn": bot_turn,
                "updated_at": datetime.now(UTC),
                "to_move": to_move,
            }
            if status != "ongoing":
                values.update(lease_owner=None, lease_until=None, winners=_joined(winners))  # no bot needed
            standing = _standing(game_id, number - 1)
            if by_person:
                standing.append(
                    ~select(SeatRow.seat)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.forfeited.is_(True))
                    .exists()
                )
            moved = conn.execute(update(GameRow).where(*standing).values(**values)).rowcount
            if not moved:
                raise GameMovedOn(f"game {game_id} is not at action {number - 1}, or has ended")
            pass_turn(conn, game_id, seat, to_move)  # the clock: `OutOfTime` when the mover's had run out
            _mark(conn, pokedex)
            if finish is not None:
                finish(conn)
            notify_change(conn, game_id, number)

    def actions_after(self, game_id: str, known: int) -> list[str]:
        """The texts of a game's actions after the first ``known``, in order (what another process added)."""
        with self.store.engine.connect() as conn:
            return list(
                conn.execute(
                    select(ActionRow.action)
                    .where(ActionRow.game_id == game_id, ActionRow.number > known)
                    .order_by(ActionRow.number)
                ).scalars()
            )

    def seats(self, game_id: str) -> list[SeatInfo]:
        """A game's seats as they are now (a seat may have been linked to a profile since it was read)."""
        with self.store.session() as s:
            rows = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
            return [_seat_info(x) for x in rows]

    def standing(self, game_id: str) -> tuple[list[SeatInfo], Ending | None]:
        """A game's seats and its `Ending` as they are now (what a seat change or a forfeit on another process
        changed), without reading its actions."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(GameRow.ended_by, GameRow.forfeit_seat).where(GameRow.id == game_id)).first()
        return self.seats(game_id), _ending(*row) if row is not None else None

    def unfinished_of(self, owner: str) -> tuple[int, int]:
        """How many unfinished games ``owner`` created, and how many of those are between bots only."""
        with self.store.engine.connect() as conn:
            return self._unfinished(conn, owner)

    @staticmethod
    def _unfinished(conn: Connection, owner: str) -> tuple[int, int]:
        total, bots = conn.execute(
            select(func.count(), func.coalesce(func.sum(case((GameRow.bots_only, 1), else_=0)), 0)).where(
                GameRow.owner == owner, GameRow.status == "ongoing"
            )
        ).one()
        return int(total), int(bots)

    def set_bot_turn(self, game_id: str, bot_turn: bool) -> None:
        """Correct whether a bot decides next (for games kept before the flag existed)."""
        with self.store.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(bot_turn=bot_turn))

    def action_at(self, game_id: str, number: int) -> str | None:
        """The text of action ``number`` of a game, if it is stored (to tell whether a write that seemed to fail
        was in fact committed)."""
        with self.store.engine.connect() as conn:
            return conn.execute(
                select(ActionRow.action).where(ActionRow.game_id == game_id, ActionRow.number == number)
            ).scalar()

    def set_profile(self, game_id: str, seat: int, profile: str) -> bool:
        """Record that ``seat`` proved it owns the Pokédex ``profile``; False (nothing written) when the seat is kept
        in an account, which marks the account's own Pokédex (kept meanwhile, perhaps by another process)."""
        with self.store.engine.begin() as conn:
            linked = conn.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.account_id.is_(None))
                .values(profile=profile)
            ).rowcount
            if linked:
                notify_change(conn, game_id)
            return bool(linked)

    def give_seat(
        self,
        game_id: str,
        seat: int,
        account_id: int,
        profile: str | None,
        token_hash: str,
        name: str,
        unplayed: bool = False,
    ) -> bool:
        """Let an account hold a seat that no account holds yet (and, in Pokémon, mark the account's Pokédex in
        place of any profile the seat was linked to before: the account is who plays it now), and give the seat a
        new secret (``token_hash``): the link that was shown to get here stops working, so whoever else held it can
        no longer play or see the seat. The seat shows the account's ``name`` from then on. False when another
        account was first, the account holds another seat of the game (one person, one seat), or the seat is no
        longer a person's in an unfinished game, or (``unplayed``: a rated game) the game has begun."""
        other = aliased(SeatRow)
        with self.store.engine.begin() as conn:
            # The game's row written first, as a take of an open seat writes it: on PostgreSQL it is locked from
            # here, so two keeps of one account (or a keep and a take) take turns, the second seeing the first. It
            # is written as it is: a keep refused must change nothing (``updated_at``, which a kept seat moves on, is
            # what the idle forfeit and a finished game's chat count from).
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(id=GameRow.id))
            values: dict[str, Any] = {"account_id": account_id, "token_hash": token_hash, "name": name}
            if profile is not None:
                values["profile"] = profile
            standing = [GameRow.id == game_id, GameRow.status == "ongoing", GameRow.ended_by.is_(None)]
            if unplayed:
                standing.append(GameRow.actions == 0)
            ongoing = select(GameRow.id).where(*standing).exists()
            done = conn.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.account_id.is_(None),
                    SeatRow.kind == "human",
                    SeatRow.forfeited.is_(False),
                    ongoing,
                    ~select(other.seat).where(other.game_id == game_id, other.account_id == account_id).exists(),
                )
                .values(**values)
            ).rowcount
            if done:  # kept: the game changed, as a take of an open seat changes it
                conn.execute(update(GameRow).where(GameRow.id == game_id).values(updated_at=datetime.now(UTC)))
                notify_change(conn, game_id)
            return bool(done)

    def games_of(self, account_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The games in which an account holds a seat, those where it is its turn first, with their clocks
        (`splendor.store.your_games.games_of`)."""
        with self.store.engine.connect() as conn:
            return your_games.games_of(conn, account_id, limit)

    def idle(
        self, idle_seconds: float, rated: bool, accounts: bool | None = None, limit: int = 100
    ) -> list[tuple[str, int]]:
        """Unfinished games, ``rated`` or not, without a clock, where a person is to move and nothing has happened
        for ``idle_seconds``: their ids and action counts, oldest first. ``accounts``: True, only those whose seat
        to move keeps an account (the idle forfeit, which rates it: a seat without one, passed over there, had
        filled the oldest hundred for good and kept every later game from being forfeited); False, only those
        whose seat to move keeps none (a rated game the abandoned games' sweep calls off); None, either (the
        unrated ones it calls off). A game kept before the seat to move was (migration 0010) is listed either way:
        the game itself says who is to move. The index on rated, status, bot_turn and updated_at serves it."""
        before = datetime.now(UTC) - timedelta(seconds=idle_seconds)
        mover = aliased(SeatRow)
        query = (
            select(GameRow.id, GameRow.actions)
            .outerjoin(mover, (mover.game_id == GameRow.id) & (mover.seat == GameRow.to_move))
            .where(
                GameRow.rated.is_(rated),
                GameRow.status == "ongoing",
                GameRow.bot_turn.is_(False),
                GameRow.updated_at < before,
                GameRow.time_control.is_(None),  # a timed game's clock governs it
                GameRow.open_until.is_(None),  # still waiting for players: nobody is to move yet
            )
        )
        if accounts is not None:
            kept = mover.account_id.is_not(None) if accounts else mover.account_id.is_(None)
            query = query.where(GameRow.to_move.is_(None) | kept)
        with self.store.engine.connect() as conn:
            rows = conn.execute(query.order_by(GameRow.updated_at).limit(limit))
            return [(game_id, actions) for game_id, actions in rows]

    def end_by_forfeit(
        self,
        game_id: str,
        actions: int,
        ending: Ending,
        status: str,
        finish: Callable[[Connection], None] | None = None,
        pokedex: list[tuple[str, list[str]]] | None = None,
        out_of_time: int | None = None,
        winners: list[int] | None = None,
        asked: bool = False,
    ) -> bool:
        """End an unfinished game that has exactly ``actions`` actions by ``ending`` (its seat loses to the
        ``winners``, or with ``aborted``/``no_start``/``abandoned`` calls it off), with its Pokédex marks, the bank
        of the seat that ran ``out_of_time`` written as spent, and what ``finish`` writes (the ratings), in the same
        transaction. False when the game has moved on or ended meanwhile (another process, or a move that came in
        time): nothing is written then. ``asked``: the ending is its seat's person's request (a resignation or an
        abort), refused (`OutOfTime`) once the clock of the seat to move has run out."""
        with self.store.engine.begin() as conn:
            if asked:
                refuse_when_run_out(conn, game_id, ending.seat)
            done = conn.execute(
                update(GameRow)
                .where(*_standing(game_id, actions))
                .values(
                    status=status,
                    ended_by=ending.by,
                    forfeit_seat=ending.seat,
                    winners=_joined(winners),
                    bot_turn=False,
                    to_move=None,
                    deadline=None,
                    lease_owner=None,
                    lease_until=None,
                    updated_at=datetime.now(UTC),
                )
            ).rowcount
            if not done:
                return False
            if out_of_time is not None:
                ran_out(conn, game_id, out_of_time)
            _mark(conn, pokedex)
            if finish is not None:
                finish(conn)
            notify_change(conn, game_id)
        return True

    def forfeit_seat(
        self,
        game_id: str,
        actions: int,
        seat: int,
        bot: str,
        by: str = IDLE,
        bot_turn: bool = True,
        pokedex: list[tuple[str, list[str]]] | None = None,
        asked: bool = False,
    ) -> bool:
        """Hand a person's seat of an unfinished game (still at ``actions`` actions) to ``bot`` for the rest of
        the game, ``by`` being why (``idle``, ``resigned``, ``time``), kept with the action count; the seat keeps its
        account and its secret's hash (nothing acts by them then: `access.check_seat` refuses a forfeited seat;
        its person still reads and writes the game's chat) and ranks last when the game is rated. ``bot_turn``:
        whether a bot decides next then; ``pokedex``: the marks of what the person caught (the game ends for them
        here). False when the game has moved on or ended meanwhile, or the seat is no longer a person's (a second
        resignation, on this process or another): nothing is written then. ``asked``: the seat's person resigns,
        refused (`OutOfTime`) once the clock of the seat to move has run out.

        While another person is still to move (``bot_turn`` False) the game's ``updated_at`` stays: that person's
        idle time runs on from their turn's start, not from another seat's resignation."""
        try:
            with self.store.engine.begin() as conn:
                if asked:
                    refuse_when_run_out(conn, game_id, seat)
                moved = conn.execute(
                    update(GameRow)
                    .where(*_standing(game_id, actions))
                    .values(
                        bot_turn=bot_turn,
                        # a bot to move: no clock runs, and the bots' sweep takes the game in its turn
                        **({"deadline": None, "updated_at": datetime.now(UTC)} if bot_turn else {}),
                    )
                ).rowcount  # PostgreSQL: the game's row is locked from here, so racing forfeits take turns
                handed = (
                    moved
                    and conn.execute(
                        update(SeatRow)
                        .where(
                            SeatRow.game_id == game_id,
                            SeatRow.seat == seat,
                            SeatRow.kind == "human",
                            SeatRow.forfeited.is_(False),
                        )
                        # the secret's hash stays: its person still talks in the chat (access.check_person)
                        .values(kind="bot", bot=bot, forfeited=True, forfeited_by=by, forfeited_at=actions)
                    ).rowcount
                )
                if not handed:
                    raise _Undone
                _mark(conn, pokedex)
                notify_change(conn, game_id)
        except _Undone:
            return False
        return True

    def load(self, game_id: str) -> StoredGame | None:
        """A stored game, its seats and actions, as kept; None when there is no game of that id."""
        with self.store.session() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            return self._stored(s, row)

    def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        """Newest first: id, game, players, options (as the game was dealt: a Kids game's ``short`` and
        ``mysteries`` say which game it is), status, whether it still waits for players (an open seat), actions,
        created, who sits where (``seats``: ``seat``, ``kind``, ``bot``, ``name``, as anyone may see them), and
        the seats that won (``winners``: [] when nobody did; None while unfinished or not kept, before 0013). The
        index on ``created_at`` (migration 0006) serves it: the newest ``limit`` entries of the index are read,
        never the whole table sorted (``benchmarks/listing.py``); only the columns shown are read, the seats of the
        games listed by their key."""
        with self.store.session() as s:
            rows = s.execute(
                select(
                    GameRow.id,
                    GameRow.game,
                    GameRow.players,
                    GameRow.options,
                    GameRow.status,
                    GameRow.open_until,
                    GameRow.actions,
                    GameRow.created_at,
                    GameRow.winners,
                    GameRow.rematch_of,
                )
                .order_by(GameRow.created_at.desc())
                .limit(limit)
            )
            games = list(rows)
            seats: dict[str, list[dict[str, Any]]] = {}
            if games:
                for seat in s.execute(
                    select(SeatRow.game_id, SeatRow.seat, SeatRow.kind, SeatRow.bot, SeatRow.name)
                    .where(SeatRow.game_id.in_([r.id for r in games]))
                    .order_by(SeatRow.game_id, SeatRow.seat)
                ):
                    seats.setdefault(seat.game_id, []).append(
                        {"seat": seat.seat, "kind": seat.kind, "bot": seat.bot, "name": seat.name}
                    )
            kept = {r.id for r in games if r.rematch_of is not None}  # a rematch's open seats wait for their people
            for game_id, listed in seats.items():
                for seat_listed in listed:
                    seat_listed["kept"] = seat_listed["kind"] == "open" and game_id in kept
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "players": r.players,
                    "options": json.loads(r.options),
                    "status": r.status,
                    "waiting_for_players": r.status == "ongoing" and r.open_until is not None,
                    "actions": r.actions,
                    "created_at": utc(r.created_at).isoformat() if r.created_at else None,
                    "seats": seats.get(r.id, []),
                    "winners": None if r.winners is None else [int(w) for w in r.winners.split(",") if w],
                }
                for r in games
            ]

    def count(self) -> int:
        """How many games the store keeps, finished or not."""
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)

    @staticmethod
    def _stored(s: Any, row: GameRow) -> StoredGame:
        actions = list(
            s.scalars(select(ActionRow.action).where(ActionRow.game_id == row.id).order_by(ActionRow.number))
        )
        return StoredGame(
            id=row.id,
            game=row.game,
            players=row.players,
            seed=row.seed,
            options=json.loads(row.options),
            status=row.status,
            seats=[_seat_info(x) for x in row.seats],
            actions=actions,
            created_at=row.created_at,
            owner=row.owner,
            rated=row.rated,
            bot_salt=row.bot_salt,
            ending=_ending(row.ended_by, row.forfeit_seat),
            clock=clock_of(s.connection(), row.id) if row.time_control is not None else None,
            rematch_of=row.rematch_of,
            rematch=s.scalar(select(GameRow.id).where(GameRow.rematch_of == row.id)),
        )


def _mark(conn: Connection, pokedex: list[tuple[str, list[str]]] | None) -> None:
    """Within a game's transaction: mark each profile's Pokédex with the Pokémon it caught (Splendor: Pokémon)."""
    if pokedex:
        with Session(bind=conn) as s:
            for profile, caught in pokedex:
                mark_caught(s, profile, caught)
            s.flush()


def _standing(game_id: str, actions: int) -> list[ColumnElement[bool]]:
    """The game as a conditional write expects it: unfinished, no ending, at ``actions`` actions (so that of two
    processes writing the same step, only the first finds it so)."""
    return [
        GameRow.id == game_id,
        GameRow.actions == actions,
        GameRow.status == "ongoing",
        GameRow.ended_by.is_(None),
    ]


def _seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(
        seat=row.seat,
        kind=row.kind,
        bot=row.bot,
        name=row.name,
        token_hash=row.token_hash,
        profile=row.profile,
        account_id=row.account_id,
        forfeited=row.forfeited,
        forfeited_by=row.forfeited_by if row.forfeited_by is not None or not row.forfeited else IDLE,
        forfeited_at=row.forfeited_at,
        joined=row.joined,
    )


def _ending(by: str | None, seat: int | None) -> Ending | None:
    return Ending(by, seat) if by is not None and seat is not None else None


def _lock_key(owner: str) -> int:
    """A PostgreSQL advisory lock key (a signed 64-bit number) for one owner's new games."""
    return int.from_bytes(hashlib.sha256(b"new-game:" + owner.encode()).digest()[:8], "big", signed=True)


def _joined(seats: list[int] | None) -> str | None:
    """Seats as ``games.winners`` keeps them: "0,2" ("" for nobody; None, not known, stays NULL)."""
    return None if seats is None else ",".join(str(seat) for seat in seats)
