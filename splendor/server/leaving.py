"""Leaving a game before its rules end it: a person resigns, aborts (calls it off before their first move), sits
idle past the limit in a rated game, runs out of time, or leaves an unrated game unplayed past the limit for
abandoned games.

Each is one conditional write of the store (`GameStore.end_by_forfeit`, `GameStore.forfeit_seat`), made only if
the game still stands where this process's copy is, so of two processes (or a move and a resignation) racing,
exactly one wins. An abort calls the game off (`ABORTED`), as does, in a game of two, running out of time or
sitting idle before the seat's first move (`NO_START`); else in a game of two the seat that left loses, and with
three or four a bot (`FORFEIT_BOT`) plays the seat on and it ranks last. An abandoned game (`ABANDONED`) is
called off whatever the number of players. The idle forfeits, the abandoned games and the ends on time are chores
the coordinator (`splendor.server.live`) runs every few seconds (the abandoned games every few minutes).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from splendor.core.record import ABANDONED, ABORTED, IDLE, NO_START, RESIGNED, TIME
from splendor.i18n import _
from splendor.server import access
from splendor.server.bot_turns import bot_decides
from splendor.server.effects import effects_of
from splendor.server.errors import Refused
from splendor.server.moves import may_leave, rating
from splendor.server.seating import BOT, HUMAN
from splendor.store.clocks import overdue
from splendor.store.games import Ending

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame
    from splendor.server.live import GameManager
    from splendor.store.accounts import SignedIn

log = logging.getLogger("splendor.server")

FORFEIT_BOT = "ismcts:medium"
"""Who plays on the seat of a person who left a rated game of three or four (idle past the limit): a middling bot,
so the others' game goes on much as it would have, neither handed a win nor made harder."""
# How a game ends outside its rules (``Ending.by``): IDLE, RESIGNED, ABORTED, NO_START, and TIME, in
# `splendor.core.record`. A game of two whose first move never came is called off (NO_START, status ``aborted``), as
# a server of chess calls off such a game: the other had played against nobody.


class Leaving:
    """A person leaving a game of this process: on request (resign, abort) or by a chore (idle, out of time)."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.store = manager.store

    async def forfeit_idle_seats(self) -> None:
        """Rated games whose person to move has not moved for ``idle_forfeit_seconds``: with two players that
        person loses the game (rated at once); with three or four a bot (`FORFEIT_BOT`) plays their seat on, and
        it ranks last when the game ends. Each is done by one process only: the store's write is conditional on
        the game still standing where it was read."""
        for game_id, actions in await self.manager.read_store(
            lambda: self.store.idle(self.settings.idle_forfeit_seconds, rated=True, accounts=True)
        ):
            try:
                live = await self.manager.get(game_id)
            except Refused:
                continue
            await self._left_idle(live, actions, IDLE, self.settings.idle_forfeit_seconds)

    async def call_off_abandoned_games(self) -> None:
        """Games without a clock whose person to move has not moved for ``abandoned_game_seconds`` (a practice
        game or a tutorial left for good): called off, with no winner (`ABANDONED`), so that they no longer stand
        "in play" in the lobby's lists for ever. In a rated game this reaches only a seat without an account (one
        with an account is forfeited long before, ``idle_forfeit_seconds``); a timed game's clock ends it. One
        process does each (a conditional write)."""
        limit = self.settings.abandoned_game_seconds
        for rated, accounts in ((False, None), (True, False)):
            idle = partial(self.store.idle, limit, rated=rated, accounts=accounts)
            for game_id, actions in await self.manager.read_store(idle):
                try:
                    live = await self.manager.get(game_id)
                except Refused:
                    continue
                await self._left_idle(live, actions, ABANDONED, limit)

    async def _left_idle(self, live: LiveGame, actions: int, by: str, limit: float) -> None:
        """The person to move in ``live``, as the store found it after ``actions`` actions, left it ``by`` (`IDLE`
        or `ABANDONED`) past ``limit`` seconds, unless the game moved or ended meanwhile or a bot is to move."""
        async with live.lock:
            await self.manager.catch_up(live)
            game = live.game
            seat = game.current_player
            if live.over or len(game.history) != actions or seat is None or live.seats[seat].kind != HUMAN:
                return  # moved or ended meanwhile, or a bot's turn
            account = live.seats[seat].account_id is not None
            # an idle forfeit rates the seat, so it needs an account; in a rated game only a seat without one is
            # abandoned (one with an account is forfeited, a loss, not called off)
            ends = account if by == IDLE else not (live.rated and account)
            if not ends:
                return
            if not await self._leave_once(live, seat, by):
                return
            log.info("game %s: seat %d was idle past %.0f s (%s)", live.id, seat, limit, by)
        access.drop_unauthorised_watchers(live)
        self.manager.after_change(live)

    async def end_overdue_clocks(self) -> None:
        """Timed games whose person to move has run out of time (`splendor.store.clocks.overdue`): each is ended
        on time (`_leave_once`, `TIME`) by one process only, the store's write being conditional on the
        game still standing where it was read."""
        for game_id, actions, seat in await self.manager.read_store(lambda: overdue(self.store.store)):
            try:
                await self._time_out(await self.manager.get(game_id), actions, seat)
            except Refused as e:
                log.warning("game %s could not be ended on time: %s", game_id, e)

    async def _time_out(self, live: LiveGame, actions: int, seat: int | None) -> None:
        async with live.lock:
            await self.manager.catch_up(live)
            if live.over or len(live.game.history) != actions or seat is None or live.game.current_player != seat:
                return  # moved or ended meanwhile (another process)
            if not await self._leave_once(live, seat, TIME):
                return
            log.info("game %s: seat %d ran out of time", live.id, seat)
        access.drop_unauthorised_watchers(live)
        self.manager.after_change(live)

    async def _leave_once(self, live: LiveGame, seat: int, by: str) -> bool:
        """With the game's lock held, the copy current: ``seat``'s person leaves the game ``by`` (`IDLE`,
        `TIME`, `RESIGNED`, `ABORTED`, `ABANDONED`), written only if the game still stands where this copy is
        (`GameStore.end_by_forfeit` and `GameStore.forfeit_seat` are conditional writes). Aborted, abandoned, or in a
        game of two out of time or idle before the seat's first move (`NO_START`): the game ends with no winner,
        unrated. Else in a game of two the seat loses (rated so); with three or four a bot (`FORFEIT_BOT`) plays the
        seat on and it ranks last. Either way the game has ended for the person who left, so in Pokémon their
        Pokédex (and in a game that ends, every seat's) is marked with what they caught, as ruling 17 marks it at a
        game's end. Returns whether it was written (False: another process moved or ended the game first)."""
        game = live.game
        actions = len(game.history)
        effects = effects_of(game.name)
        out_of_time = seat if by == TIME else None  # its bank is written as spent, whatever follows
        asked = by in (RESIGNED, ABORTED)  # a person's request: refused once the clock to move has run out
        if by in (TIME, IDLE) and game.players == 2 and not live.has_moved(live.seats[seat]):
            by = NO_START
        if by in (ABORTED, NO_START, ABANDONED) or game.players == 2:
            ending = Ending(by, seat)
            called_off = ending.called_off
            rate = None if called_off else rating(live, game, ending=ending)
            status = ABANDONED if by == ABANDONED else ABORTED if called_off else "won"
            # the game ends (ruling 17), but one called off before the first moves had nothing to mark
            marks = [] if by in (ABORTED, NO_START) else effects.finished(live.seats, game)
            if not await self.manager.write_game(
                live,
                lambda: self.store.end_by_forfeit(
                    live.id,
                    actions,
                    ending,
                    status,
                    rate,
                    pokedex=marks,
                    out_of_time=out_of_time,
                    winners=ending.winners(game.players),
                    asked=asked,
                ),
            ):
                return False
            live.clock = await self.manager.clock_now(live)
            live.ending = ending
            log.info("game %s: seat %d %s after %d actions", live.id, seat, by, actions)
            return True
        seats = [replace(s, kind=BOT, bot=FORFEIT_BOT) if s.seat == seat else s for s in live.seats]
        bot_turn = bot_decides(game, seats)
        leaving = effects.finished([live.seats[seat]], game)  # the game ends for its person: ruling 17
        if not await self.manager.write_game(
            live,
            lambda: self.store.forfeit_seat(
                live.id, actions, seat, FORFEIT_BOT, by, bot_turn=bot_turn, pokedex=leaving, asked=asked
            ),
        ):
            return False
        clock = await self.manager.clock_now(live)
        live.seats, live.clock = await self.manager.read_store(lambda: self.store.seats(live.id)), clock
        log.info("game %s: seat %d %s after %d actions; %s plays it on", live.id, seat, by, actions, FORFEIT_BOT)
        return True

    async def resign(
        self, game_id: str, seat: int, token: str | None, expect: int | None = None, account: SignedIn | None = None
    ) -> LiveGame:
        """``seat`` (its secret, or the account keeping it) resigns its unfinished game (`_leave_once`)."""
        return await self._leave(game_id, seat, token, expect, account, RESIGNED)

    async def abort(
        self, game_id: str, seat: int, token: str | None, expect: int | None = None, account: SignedIn | None = None
    ) -> LiveGame:
        """``seat`` (its secret, or the account keeping it) calls its game off before its own first move: the game
        ends with no winner and changes no rating."""
        return await self._leave(game_id, seat, token, expect, account, ABORTED)

    async def _leave(
        self, game_id: str, seat: int, token: str | None, expect: int | None, account: SignedIn | None, by: str
    ) -> LiveGame:
        """Resign or abort, judged against the store's newest state: when the conditional write finds that another
        process moved the game on (or ended it, or resigned the seat) first, what it committed is read and the
        request judged again, so of two racing requests exactly one is made and the other is refused (409, or 403
        for a seat a bot plays now) with nothing changed."""
        live = await self.manager.get(game_id, refresh=False)
        access.check_seat(live, seat, token, account)
        changed = False
        try:
            async with live.lock:
                for attempt in range(3):
                    changed = await self.manager.catch_up(live) or changed
                    if attempt:  # lost a race: the seats and the ending as the store has them now
                        live.seats, live.ending = await self.manager.read_store(lambda: self.store.standing(live.id))
                        changed = True
                    access.check_seat(live, seat, token, account)  # again: a keep may have changed the secret
                    may_leave(live, seat, expect, aborting=by == ABORTED)
                    if await self._leave_once(live, seat, by):
                        changed = True
                        break
                else:
                    raise Refused(409, _("the game moved on meanwhile: look at the table, then try again"))
        finally:
            if changed:
                access.drop_unauthorised_watchers(live)
                self.manager.after_change(live)
        return live
