"""The games a process holds: the unfinished ones it was asked about, and a bounded cache of finished ones.

A game is held as a `LiveGame`: the engine's state, its seats, its log, the lock that orders its actions, its
watchers and its bot's task. A stored game is rebuilt by replaying its actions (`splendor.server.moves.step`, the
path every accepted action takes); an unfinished game nobody asks about, watches or moves a bot in is let go
(the store keeps it), and finished games are kept least recently seen first out.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from splendor.core.game import Game
from splendor.core.record import IDLE, Record
from splendor.games import new_game
from splendor.server import clocks
from splendor.server.moves import LOG_KEPT, RATED_AFTER_MOVES, step
from splendor.server.seating import BOT, OPEN, waiting_for_players
from splendor.server.settings import Settings
from splendor.server.watchers import Watcher
from splendor.store.clocks import ClockState
from splendor.store.games import Ending, SeatInfo, StoredGame
from splendor.store.models import utc


@dataclass
class LiveGame:
    """A game being played: the engine's state, its seats, a lock that orders actions, and its watchers."""

    id: str
    game: Game
    seats: list[SeatInfo]
    owner: str = ""  # the client address that created it ("" resumed)
    rated: bool = False  # created to be rated: the server's seed, no hints
    bot_salt: str | None = None  # the secret of its bots' seeds (never shown)
    ending: Ending | None = None  # how it ended when no rule of the game ended it
    stale: bool = False  # a write of ours may have committed unanswered
    clock: ClockState | None = None  # a timed game's clock as last read from the store (None: untimed)
    created_at: datetime | None = None  # when it was made (None: kept before the store said)
    log: list[dict[str, Any]] = field(default_factory=list)  # every action: its number, seat, text, details (public)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bot_failures: int = 0
    seen: float = field(default_factory=time.monotonic)  # when it was last asked for or changed
    hints: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = field(default_factory=dict)
    """Per seat, the hint of the position after that many actions (asked once, shared by every request)."""
    rematch_of: str | None = None
    """The finished game this one is the rematch of (`splendor.server.rematches`): its open seats are kept for
    that game's people."""
    rematch: str | None = None
    """This game's rematch, once one of its people asked for it: every table of it offers to take a seat there."""
    idle_limit: float | None = None
    """Seconds a person to move in a rated game without a clock may take before forfeiting
    (`Settings.idle_forfeit_seconds`, set as the process takes the game in), for every table to say."""
    _moves_counted: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0], repr=False)
    """Each seat's entries in ``log`` (only ever appended to), and last how many entries were counted: counted
    once as the log grows, since every payload says each seat's moves (a pass over the log per seat had cost a
    game of 300 actions three quarters of a payload's time)."""

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by an `Ending` (a seat idle past the limit)."""
        return self.game.is_over or self.ending is not None

    def seat_list(self) -> list[dict[str, Any]]:
        """The seats as anyone may see them (no secrets)."""
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "profile": s.profile,
                "has_account": s.account_id is not None,
                "joined": s.joined,  # taken from the lobby: it may not call off the game while seats are open
                "kept": s.kind == OPEN and self.rematch_of is not None,  # open, for its person of the game before
                "forfeited": s.forfeited,
                "forfeit": None if not s.forfeited else self._forfeit(s),
                "moves": self.moves_made(s),  # its person's: a rated game left before five counts for nobody
            }
            for s in self.seats
        ]

    def moves_made(self, seat: SeatInfo) -> int:
        """How many moves the seat's person made (not a bot that played the seat on after they forfeited): a rated
        game one of whose people left before `RATED_AFTER_MOVES` counts for nobody (`splendor.server.moves.rating`).
        """
        if seat.forfeited_at is not None:  # the moves before they left: a bot played the seat on since
            return sum(entry["seat"] == seat.seat for entry in self.log[: seat.forfeited_at])
        counted = self._moves_counted
        for entry in self.log[counted[-1] :]:
            counted[entry["seat"]] += 1
        counted[-1] = len(self.log)
        return counted[seat.seat]

    def has_moved(self, seat: SeatInfo) -> bool:
        """Whether the seat's person made a move: before it, a seat may abort the game."""
        return self.moves_made(seat) > 0

    def left_too_soon(self, seat: SeatInfo, ending: Ending | None = None) -> bool:
        """Whether the seat's person left the game (resigned, ran out of time, sat idle: a seat of three or four
        forfeited, or the seat a game of two ended by, ``ending`` or the game's own) before their
        `RATED_AFTER_MOVES`-th move, or saw it end before their first: the game was not played out by them, and
        changes no rating, as an abort does not."""
        made = self.moves_made(seat)
        ended_by = ending or self.ending
        left = seat.forfeited or (ended_by is not None and ended_by.seat == seat.seat)
        return made == 0 or (left and made < RATED_AFTER_MOVES)

    def _forfeit(self, s: SeatInfo) -> dict[str, Any]:
        """How a seat's person left: ``by`` (idle, resigned, time), ``at`` (the action count), whether they had
        ``moved`` first, and whether that was ``too_soon`` for the game to be rated (`left_too_soon`)."""
        return {
            "by": s.forfeited_by or IDLE,
            "at": s.forfeited_at,
            "moved": self.has_moved(s),
            "too_soon": self.left_too_soon(s),
        }

    def payload(self, seat: int | None) -> dict[str, Any]:
        """What a seat (or a spectator) receives: the game's id, its seats, whether it is rated, how it ended if
        no rule ended it (``ending``, `ending_of`, else null), the game it is the rematch of and its own rematch
        (``rematch_of``, ``rematch``: ids, or null) and that seat's view."""
        view = self.game.view(seat)
        if self.ending is not None:  # ended, though not by the rules: nothing more is played
            view["legal_actions"] = []
            view["is_over"] = True
        elif waiting_for_players(self.seats):  # an open seat: nobody plays yet
            view["legal_actions"] = []
        return {
            "id": self.id,
            "game": self.game.name,
            "seats": self.seat_list(),
            "you": seat,
            "actions": len(self.game.history),
            "log": self.log[-LOG_KEPT:],
            "rated": self.rated,
            "over": self.over,
            "ending": self.ending_of(),
            "winners": self.winners,
            "clock": clocks.payload(self.clock),
            # a rated game without a clock is lost by a person who does not move for this long: said on the table,
            # where a game of friends by the day had been lost after an hour with no warning
            "idle_limit": self.idle_limit if self.rated and self.clock is None and not self.over else None,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
            # when it began: "Your games" tells two games of the same players apart by it
            "created_at": None if self.created_at is None else utc(self.created_at).isoformat(),
            "view": view,
        }

    @property
    def winners(self) -> list[int]:
        """The seats that won the finished game: the rules' winners, or the other seat of a game of two that a
        resignation, a clock or an idle seat ended; nobody while it goes on or when it was called off."""
        if self.ending is not None:
            return self.ending.winners(self.game.players)
        return self.rules_winners(self.game)

    def rules_winners(self, game: Game) -> list[int]:
        """The seats the rules made winners of ``game`` (this game after an action), but never one whose person
        forfeited (resigned or left idle, with three or four players): a bot won it on, and the seat ranks last in
        the ratings, so the lobby must not say that person won."""
        if not game.is_over:
            return []
        return [w for w in game.winners if not self.seats[w].forfeited]

    def ending_of(self) -> dict[str, Any] | None:
        """How the game ended when no rule ended it, as every answer says it: ``{"by", "seat", "at"}`` (``by``:
        one of `splendor.store.games.Ending`'s; the seat that lost, or called it off, by it; after ``at`` actions),
        or None."""
        if self.ending is None:
            return None
        return {"by": self.ending.by, "seat": self.ending.seat, "at": len(self.game.history)}

    def published_record(self) -> Record:
        """The finished game's record as ``GET /api/games/{id}/record`` publishes it and its review reads it: the
        game's actions, with its seats, whether it was rated, how it ended when no rule ended it, and its clock in
        its notes (a copy: the game's own record is left as it is)."""
        rec = self.game.record
        notes: dict[str, Any] = {"server_game": self.id, "seats": self.seat_list(), "rated": self.rated}
        ending = self.ending_of()
        if ending is not None:
            notes["ending"] = ending
        if self.clock is not None:
            notes["time_control"] = self.clock.control.text
        return Record(rec.game, rec.players, rec.seed, dict(rec.options), list(rec.actions), notes)

    @property
    def bots_only(self) -> bool:
        """Whether only bots ever played it: a seat whose person forfeited counts as a person's (they may watch
        on), so the bots go on at a person's pace and the game stays what the per-client bounds counted it as."""
        return all(s.kind == BOT and not s.forfeited for s in self.seats)

    @property
    def thinking(self) -> bool:
        """Whether its bot's turn is under way here (thinking, pausing, or waiting to try again)."""
        return self.bot_task is not None and not self.bot_task.done()


T = TypeVar("T")

REPLAYS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="replay")
"""The threads that replay games (a stored game rebuilt, a replay's position): their own few, so that replays of
long games, which anyone may ask for, queue here and never take the threads the store's calls and the bots'
leases run in (`asyncio.to_thread`'s)."""


async def replayed(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, a replay, in one of the `REPLAYS` threads: the event loop goes on meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(REPLAYS, work, *args)


def rebuild(stored: StoredGame) -> LiveGame:
    """A stored game, replayed from its header through every action it committed (each judged by the rules)."""
    game = new_game(stored.game, players=stored.players, seed=stored.seed, **stored.options)
    log = []
    for text in stored.actions:
        game, entry = step(game, text)
        log.append(entry)
    return LiveGame(
        id=stored.id,
        game=game,
        seats=stored.seats,
        owner=stored.owner,
        log=log,
        rated=stored.rated,
        bot_salt=stored.bot_salt,
        ending=stored.ending,
        clock=stored.clock,
        rematch_of=stored.rematch_of,
        rematch=stored.rematch,
        created_at=stored.created_at,
    )


class GameCache:
    """The unfinished games this process holds (``live``) and the finished ones it keeps (``finished``, most
    recently seen last: at most ``Settings.finished_games_kept``, beyond which only those sockets watch and the
    one last kept stay)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.live: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()

    def playing(self, game_id: str) -> LiveGame | None:
        """The unfinished game held here, if it is, marked as seen now."""
        live = self.live.get(game_id)
        if live is not None:
            live.seen = time.monotonic()
        return live

    def kept(self, game_id: str) -> LiveGame | None:
        """The finished game kept here, if it is (the last one to be dropped now)."""
        live = self.finished.get(game_id)
        if live is not None:
            self.finished.move_to_end(game_id)
        return live

    def hold(self, built: LiveGame) -> LiveGame:
        """A game read from the store and rebuilt (`rebuild`), held from now on; unless this process holds a copy
        already (another request read it, or played it to its end, while this one was rebuilt): that copy is as
        new or newer, and its watchers are on it, so it is the one returned."""
        live = self.live.get(built.id) or self.finished.get(built.id) or built
        live.idle_limit = self.settings.idle_forfeit_seconds
        if live.over:
            self.keep_finished(live)
        else:
            self.live[live.id] = live
        return live

    def add(self, live: LiveGame) -> None:
        """A game just created here."""
        live.idle_limit = self.settings.idle_forfeit_seconds
        self.live[live.id] = live

    def forget_account(self, account_id: int) -> None:
        """An account deleted: the games held here no longer give it any seat (they keep the name it played
        under), as the store's copies do once it is gone."""
        for live in [*self.live.values(), *self.finished.values()]:
            live.seats = [
                dataclasses.replace(s, account_id=None) if s.account_id == account_id else s for s in live.seats
            ]

    def keep_finished(self, live: LiveGame) -> None:
        """A game that ended: out of the live set, into the bounded cache of finished ones. The least recently
        seen are dropped past the bound, but never one that sockets still watch: its chat stays open after the
        end, and a copy read again from the store would have none of its watchers to push a line to. (Sockets
        are bounded per address and per seat, so the games they keep are too.)"""
        self.live.pop(live.id, None)
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        unwatched = [game_id for game_id, kept in self.finished.items() if not kept.watchers and game_id != live.id]
        for game_id in unwatched[: max(0, len(self.finished) - self.settings.finished_games_kept)]:
            del self.finished[game_id]

    def let_go_idle(self) -> None:
        """Let go of unfinished games nobody has asked about for ``idle_game_seconds``, that nobody watches and
        whose bot is not thinking here: the store keeps them, and they are read again when asked for. A process
        holds the games in play, not every game ever started."""
        now = time.monotonic()
        for game_id, live in list(self.live.items()):
            if (
                now - live.seen > self.settings.idle_game_seconds
                and not live.watchers
                and not live.thinking
                and not live.lock.locked()
            ):
                del self.live[game_id]
