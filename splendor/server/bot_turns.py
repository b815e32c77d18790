"""Bot turns: a game whose bot is to move gets one task that asks the bot workers for its move and plays it
through the same path as a person's action (`GameManager.act`), after the bot pause.

On a shared store only the process holding the game's lease moves its bots (`splendor.store.leases`), and every
process's sweep takes over the games whose bot nobody moves (a process that died, a restart). A move that could
not be made (the store refused it, the worker failed) is tried again later, backing off up to 30 s, never given up;
one the game moved past (409) is decided again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from splendor.core.game import Game
from splendor.i18n import Message
from splendor.server.bots import BotPool, WorkersStopped, bot_seed
from splendor.server.deadline import in_store_time
from splendor.server.errors import Refused
from splendor.server.seating import BOT, DEFAULT_BOT, waiting_for_players
from splendor.server.settings import Settings
from splendor.server.store_calls import store_problem
from splendor.store.games import SeatInfo
from splendor.store.leases import BotLeases

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame

log = logging.getLogger("splendor.server")

Play = Callable[[str, int, str, int], Awaitable[Any]]
"""Plays a bot's move as any action is played: (game id, seat, action text, the actions the bot saw)."""
Read = Callable[[Callable[[], Any]], Awaitable[Any]]
"""A read of the store within its deadline (`splendor.server.store_calls.read`)."""


def bot_decides(game: Game, seats: list[SeatInfo]) -> bool:
    """Whether a bot decides next in ``game`` (what the store's bot sweep looks for)."""
    seat = game.current_player
    return not game.is_over and seat is not None and seats[seat].kind == BOT and not waiting_for_players(seats)


def paced(live: LiveGame) -> bool:
    """Whether a bot of ``live`` waits the pause before its move is applied: when people play it, or watch it on
    this process (a game between bots only, unwatched, plays at once: its cost is its CPU, bounded apart)."""
    return not live.bots_only or bool(live.watchers)


class BotTurns:
    """The bot turns of the games this process holds."""

    def __init__(self, settings: Settings, pool: BotPool, leases: BotLeases, play: Play, read: Read) -> None:
        self.settings = settings
        self.pool = pool
        self.leases = leases
        self.play = play
        self.read = read
        self.closing = False

    def start(self, live: LiveGame) -> None:
        """The first bot move of a new game: between bots only, after three pauses (3 s by default), so that the
        spectator's table the lobby opens next, on a slow phone too, finds the game at its start; then it goes on
        at once if nobody came to watch. (With several processes another's bot sweep may take the game sooner:
        the wait is this process's.)"""
        self.schedule(live, after=3 * self.settings.bot_pause_seconds if live.bots_only else 0.0)

    def schedule(self, live: LiveGame, after: float = 0.0) -> None:
        """Start the bot's turn when a bot decides now and its turn is not under way already."""
        if self.closing or live.over or live.thinking:
            return
        seat = live.game.current_player
        if seat is None or live.seats[seat].kind != BOT or waiting_for_players(live.seats):
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._turn(live, seat, after))

    async def _turn(self, live: LiveGame, seat: int, after: float) -> None:
        if after:
            await asyncio.sleep(after)
        game = live.game
        number = len(game.history)
        spec = live.seats[seat].bot or DEFAULT_BOT
        started = time.monotonic()
        try:
            if not await self.read(lambda: self.leases.take(live.id)):
                live.bot_task = None  # another process moves this game's bots
                return
            text = await self.pool.move(
                live.owner, game.record.to_text(), spec, bot_seed(live.id, number, live.bot_salt)
            )
            pause = self.settings.bot_pause_seconds if paced(live) else 0.0  # people see each move happen
            if started + pause > time.monotonic():
                await asyncio.sleep(started + pause - time.monotonic())
            live.bot_task = None
            await self.play(live.id, seat, text, number)
            live.bot_failures = 0
        except asyncio.CancelledError:
            raise
        except Refused as e:
            live.bot_task = None
            if e.status == 409:  # the game moved on meanwhile (or ended): decide again
                self.schedule(live)
                return
            self._retry(live, spec, e.message)
        except WorkersStopped:  # the server stops (Ctrl-C): the game's next start moves its bot
            live.bot_task = None
            log.info("game %s: bot %s stopped with the server", live.id, spec)
        except SQLAlchemyError as e:  # the store does not answer: said by the retry, in a line (no SQL, no traceback)
            live.bot_task = None
            self._retry(live, spec, store_problem(e))
        except Exception as e:
            log.exception("game %s: bot %s failed", live.id, spec)
            live.bot_task = None
            self._retry(live, spec, repr(e))

    def _retry(self, live: LiveGame, spec: str, why: Message | str) -> None:
        """A bot whose move could not be made tries again later (backing off to 30 s), never gives up."""
        live.bot_failures += 1
        delay = min(30.0, 0.25 * 2**live.bot_failures)
        log.warning("game %s: bot %s will try again in %.1f s: %s", live.id, spec, delay, why)
        self.schedule(live, after=delay)

    async def sweep(self, get: Callable[[str], Awaitable[LiveGame]], clear: Callable[[str], None]) -> None:
        """Take the games whose bot is to move and whose lease is free or ran out, and move their bots; a game
        flagged from before whose bot is not to move is ``clear``-ed of its flag."""
        for game_id in await self.read(self.leases.waiting):
            try:
                live = await get(game_id)
            except Refused:
                continue
            seat = live.game.current_player
            if live.over or seat is None or live.seats[seat].kind != BOT:  # a flag kept from before
                await in_store_time(partial(clear, game_id), self.settings.store_seconds)
                continue
            self.schedule(live)

    async def renew(self) -> None:
        """Renew this process's leases (a chore, every third of their length)."""
        await in_store_time(self.leases.renew, self.settings.store_seconds)  # the store's threads, within a deadline

    def stop(self, games: Iterable[LiveGame]) -> None:
        """No more bot turns: those under way are cancelled."""
        self.closing = True
        for live in games:
            if live.bot_task is not None:
                live.bot_task.cancel()
