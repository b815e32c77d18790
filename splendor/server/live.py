"""Live games: the coordinator of the games this process holds, and the one path by which an action is accepted.

The store is the one truth. On PostgreSQL any number of server processes share it: an action is accepted by the
store's primary key (game, action number), so of two racing actions sent to two processes exactly one is
committed; each process brings the games it holds up to date from the store before it judges an action or
answers a view, and hears the others' changes through the store's change feed (``LISTEN/NOTIFY``) to push them
to its watchers; a game's bots are moved by the one process holding its lease, taken over when that process
dies. SQLite is served by one process, which is then the only writer.

`GameManager` wires the rooms of the server together, each a module of its own: the games held (`cache`), a new
game's seats (`seating`), who may play a seat (`access`), one move judged and logged (`moves`), what a game does
beyond its rules (`effects`: the Pokédex), the store's calls with their deadlines and retries (`store_calls`),
bot turns (`bot_turns`) and the watchers (`watchers`). Nothing a client does can stall another: pushes go through
each watcher's own bounded queue, bot decisions are served fairly across clients, a failed write is retried and
then refused with a 503 (the game stays as it was, and a bot tries again later), and finished games are read back
into a bounded cache only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import WebSocket
from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from splendor.games import new_game
from splendor.i18n import SOURCE_LANGUAGE, Message, _
from splendor.server import access, clocks, hints, open_seats, store_calls
from splendor.server.bot_turns import BotTurns, bot_decides
from splendor.server.bots import BotPool
from splendor.server.cache import GameCache, LiveGame, rebuild, replayed
from splendor.server.chat_push import ChatHub
from splendor.server.deadline import in_store_time
from splendor.server.effects import effects_of, marks_of
from splendor.server.errors import Refused
from splendor.server.guards import unfinished_games
from splendor.server.keeping import SeatKeeping
from splendor.server.leaving import Leaving
from splendor.server.moves import judged, log_entry, parsed, rating, step, whose_turn
from splendor.server.push import TurnPushes
from splendor.server.quick_play import QuickPlay
from splendor.server.schemas import NewGame
from splendor.server.seating import BOT, rated_and_seeded, seats
from splendor.server.settings import Settings
from splendor.server.store_calls import store_problem
from splendor.server.watchers import Credentials, Watcher, broadcast, unwatch, watch
from splendor.store.accounts import Accounts, SignedIn
from splendor.store.changes import ChangeFeed, shared
from splendor.store.chat import ChatStore
from splendor.store.clocks import ClockState, read_clock, resume_clocks, say_alive
from splendor.store.games import GameBounds, GameStore, SeatInfo, TooManyGames
from splendor.store.leases import BotLeases
from splendor.store.pokedex import Pokedex
from splendor.store.rematches import Rematches

__all__ = ["GameManager", "LiveGame", "Refused", "client_key", "log_entry"]

log = logging.getLogger("splendor.server")


def client_key(client: str) -> str:
    """What the store keeps of a client's address to count its games: a hash, not the address."""
    return hashlib.sha256(client.encode("utf-8")).hexdigest()[:32]


class GameManager:
    """The games this process holds, and the one path by which an action is accepted; its rooms (quick play,
    rematches, leaving, keeping) call back into it for the store and the copies it holds."""

    def __init__(self, games: GameStore, pokedex: Pokedex, settings: Settings) -> None:
        self.store = games
        self.pokedex = pokedex
        self.settings = settings
        self.cache = GameCache(settings)
        self.instance = uuid.uuid4().hex
        """This process's name in the store (the holder of its bot leases)."""
        self.shared = shared(games.store.engine)
        self.accounts = Accounts(games.store)
        self.leases = BotLeases(games.store, self.instance, settings.lease_seconds)
        self.bots = BotPool(settings.bot_workers)
        self.bot_turns = BotTurns(settings, self.bots, self.leases, self._play_for_bot, self.read_store)
        self.feed = ChangeFeed(games.store.engine, self._heard, self._resync) if self.shared else None
        self.chat = ChatHub(ChatStore(games.store), settings, lambda i: self.live.get(i) or self.finished.get(i))
        """A game's chat lines, pushed to this process's watchers (`splendor.server.chat`)."""
        self.pushes = TurnPushes(games.store, settings)
        """"Your turn" to the closed browsers of accounts, where push is configured (`splendor.server.push`)."""
        self._chores: list[asyncio.Task[None]] = []
        self.quick_play = QuickPlay(self)
        self.rematches = Rematches(games.store)
        """Which game is a finished game's rematch (`splendor.server.rematches`)."""
        self.leaving = Leaving(self)
        """Resigning, aborting, and the idle forfeits and ends on time (`splendor.server.leaving`)."""
        self.keeping = SeatKeeping(self)
        """Seats kept in accounts or linked to Pokédex profiles (`splendor.server.keeping`)."""
        self._warming: asyncio.Task[None] | None = None

    @property
    def live(self) -> dict[str, LiveGame]:
        """The unfinished games this process holds."""
        return self.cache.live

    @property
    def finished(self) -> OrderedDict[str, LiveGame]:
        """The finished games it keeps, most recently seen last."""
        return self.cache.finished

    # ----------------------------------------------------------------- life cycle and chores

    async def start(self) -> None:
        """Start listening to the other processes (PostgreSQL), keeping this process's bot leases, and sweeping
        for bots nobody moves: the unfinished games between bots resume from their records, those of a process
        that died are taken over. Games waiting for people are read when someone asks for them."""
        if not self.shared:  # the only process of its store: no lease is alive
            await asyncio.to_thread(self.leases.release_all_holders)  # a store it cannot write to stops it here
        try:
            given = await in_store_time(
                lambda: resume_clocks(self.store.store, self.settings.alive_seconds), self.settings.store_seconds
            )
        except SQLAlchemyError:  # a store slow to answer must not keep the server from starting: nothing given
            log.warning("could not tell how long no server ran: the clocks are left as they are")
            given = 0.0
        if given:
            log.info("no server ran for %.0f s: every running clock is given that time back", given)
        loop = asyncio.get_running_loop()
        if self.settings.warm_bot_workers:
            self._warming = loop.create_task(self.bots.warm())
        if self.feed is not None:
            self.feed.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.feed.listening.wait(), 10)
        every = self.settings
        self._chores = [
            loop.create_task(self._every(every.lease_seconds / 3, self.bot_turns.renew)),
            loop.create_task(self._every(every.sweep_seconds, self._sweep_bots)),
            loop.create_task(self._every(min(60.0, every.idle_game_seconds / 2), self._put_idle_games_away)),
            loop.create_task(self._every(min(60.0, every.idle_forfeit_seconds / 4), self.leaving.forfeit_idle_seats)),
            loop.create_task(
                self._every(min(600.0, every.abandoned_game_seconds / 4), self.leaving.call_off_abandoned_games)
            ),
            loop.create_task(self._every(every.session_check_seconds, self._close_sockets_of_ended_sessions)),
            loop.create_task(self._every(every.clock_sweep_seconds, self.leaving.end_overdue_clocks)),
            loop.create_task(self._every(every.alive_seconds, self._say_alive)),
            loop.create_task(self._every(every.finding_sweep_seconds, lambda: open_seats.expire_games(self))),
            loop.create_task(self._every(every.finding_sweep_seconds, self.quick_play.sweep)),
        ]
        try:
            await self._sweep_bots()
        except (Refused, SQLAlchemyError):  # a store slow to answer (as a loaded PostgreSQL may) must not keep
            # the server from starting: its chore sweeps again
            log.warning("the first sweep for bots to move failed; it is tried again every %s s", every.sweep_seconds)

    async def stop(self) -> None:
        self.bot_turns.stop(self.live.values())
        for task in self._chores:
            task.cancel()
        if self.feed is not None:
            await self.feed.stop()
        with contextlib.suppress(SQLAlchemyError):
            await in_store_time(self.leases.release, self.settings.store_seconds)  # the others take over at once
        with contextlib.suppress(SQLAlchemyError):  # the time no server runs counts from now
            await self._say_alive()
        await asyncio.to_thread(self.bots.shutdown)
        await asyncio.to_thread(self.pushes.stop)

    async def _say_alive(self) -> None:
        await in_store_time(lambda: say_alive(self.store.store), self.settings.store_seconds)

    @staticmethod
    async def _every(seconds: float, chore: Callable[[], Awaitable[None]]) -> None:
        """Run ``chore`` every ``seconds``. A store that does not answer is said once a chore, in a line (no
        traceback, no SQL or its parameters), and again when it answers: a PostgreSQL stopped for 20 s had logged
        some 870 lines a process, its statements' parameters among them."""
        name = getattr(chore, "__name__", "chore").strip("_").replace("_", " ")
        failing = False
        while True:
            await asyncio.sleep(seconds)
            try:
                await chore()
            except asyncio.CancelledError:
                raise
            except (SQLAlchemyError, Refused) as e:
                if isinstance(e, Refused) and e.status != 503:  # not the store's silence: a fault of the chore's
                    log.exception("a periodic chore failed: %s", name)
                    continue
                if not failing:
                    why = store_problem(e) if isinstance(e, SQLAlchemyError) else "503"
                    log.warning("%s: the store does not answer (%s); said again once it does", name, why)
                failing = True
            except Exception:
                log.exception("a periodic chore failed: %s", name)
            else:
                if failing:
                    log.warning("%s: the store answers again", name)
                failing = False

    async def _put_idle_games_away(self) -> None:
        self.cache.let_go_idle()

    async def _sweep_bots(self) -> None:
        await self.bot_turns.sweep(self.get, lambda game_id: self.store.set_bot_turn(game_id, False))

    async def _close_sockets_of_ended_sessions(self) -> None:
        await access.close_ended_sessions(
            self.live.values(), lambda s: self.read_store(lambda: self.accounts.lasting(s))
        )

    async def clock_now(self, live: LiveGame) -> ClockState | None:
        """With the game's lock held: a timed game's clock read afresh from the store after a change to it (the
        one held when the store cannot be read), to be set together with the change, so that no answer shows the
        new position with the old clock."""
        if live.clock is None:
            return None
        try:
            clock: ClockState | None = await self.read_store(lambda: read_clock(self.store.store, live.id))
        except Refused as e:
            log.warning("game %s: its clock could not be read: %s", live.id, e)
            return live.clock
        return clock

    # ----------------------------------------------------------------- the store, within its deadlines

    async def refuse_an_account_name(self, name: str, why: Message) -> None:
        """Refuse (409, ``why``) a guest's ``name`` when an account holds it or one that reads the same: a guest
        does not sit, seek or talk under an account's name."""
        if await self.read_store(lambda: self.accounts.holds_name(name)):
            raise Refused(409, why)

    async def read_store(self, read: Callable[[], Any]) -> Any:
        """A read of the store in a store thread, within ``store_seconds`` (`store_calls.read`): the way every room
        of the server (open seats, quick play, rematches) reads the store, so that each is bounded alike."""
        return await store_calls.read(self.settings, read)

    async def write_store(self, write: Callable[[], None], committed: Callable[[], bool] | None = None) -> None:
        """A write of the store, retried for up to ``write_retry_seconds`` (`store_calls.write`), for every room."""
        await store_calls.write(self.settings, write, committed)

    async def write_game(self, live: LiveGame, write: Callable[[], bool]) -> bool:
        """Run a conditional write of the game and return whether it was made; one whose outcome the store left
        unknown makes the copy ``stale``, so the next read takes the store's word."""
        try:
            return await store_calls.made(self.settings, write)
        except Refused as e:
            live.stale = live.stale or store_calls.unsure(e)
            raise

    # ----------------------------------------------------------------- the other processes

    def _heard(self, payload: str) -> None:
        """Another process (or this one) committed a change to a game: bring this process's copy up to date."""
        game_id, _, number = payload.partition(":")
        if number == "chat":  # a chat line: pushed to the watchers here, the game unchanged
            self.chat.heard(game_id)
            return
        live = self.live.get(game_id) or self.finished.get(game_id)  # a finished one: its rematch was asked for
        if live is None or (number.isdigit() and int(number) <= len(live.game.history)):
            return  # not held here, or heard already (our own write)
        asyncio.get_running_loop().create_task(self._refresh_heard(live, seats=not number.isdigit()))

    async def _resync(self) -> None:
        """After the change feed was lost: read every held game afresh (changes may have gone unheard)."""
        for live in [*self.live.values(), *self.finished.values()]:  # a finished one may have a rematch now
            await self._refresh_heard(live, seats=True)
            self.chat.heard(live.id)  # and the chat lines of the last minute not pushed here yet

    async def _refresh_heard(self, live: LiveGame, seats: bool) -> None:
        """`refresh` for a change heard on the feed: nobody waits for it, so a failure is logged."""
        try:
            await self.refresh(live, seats)
        except Refused as e:
            log.warning("game %s could not be brought up to date: %s", live.id, e)

    async def refresh(self, live: LiveGame, seats: bool = False) -> None:
        """Bring the copy up to the store's newest state (and, with ``seats``, its seats), then tell its watchers;
        `Refused` (503) when the store cannot be read."""
        async with live.lock:
            changed = await self.catch_up(live)
            if seats:
                clock = await self.clock_now(live)
                live.seats, live.ending = await self.read_store(lambda: self.store.standing(live.id))
                live.clock = clock
                if live.over and live.rematch is None:  # asked for on another process
                    live.rematch = await self.read_store(lambda: self.rematches.of(live.id))
                changed = True
        if changed:
            if seats:
                access.drop_unauthorised_watchers(live)
            self.after_change(live)

    async def catch_up(self, live: LiveGame) -> bool:
        """With the game's lock held: apply the actions other processes committed since this copy was made.
        Returns whether there were any. Nothing to do where this process is the store's only writer, unless one of
        its own writes may have committed after it was answered 503 (``stale``)."""
        if not self.shared and not live.stale:
            return False
        known = len(live.game.history)
        texts = await self.read_store(lambda: self.store.actions_after(live.id, known))
        clock = await self.clock_now(live) if texts else live.clock
        for text in texts:
            live.game, entry = step(live.game, text)
            live.log.append(entry)
        live.clock = clock
        return bool(texts)

    def after_change(self, live: LiveGame) -> None:
        """Tell the watchers, and let a bot move next or put a finished game away."""
        live.seen = time.monotonic()
        broadcast(live)
        if live.over:
            self.cache.keep_finished(live)
        else:
            self.bot_turns.schedule(live)

    # ----------------------------------------------------------------- creating and finding

    async def create(
        self, request: NewGame, client: str, account: SignedIn | None = None
    ) -> tuple[LiveGame, dict[int, str]]:
        """A new game, as the API's schema read the request; returns it and each human seat's secret (shown once,
        never stored). A person's seat marked ``mine`` belongs to the signed-in ``account``: it plays it from any
        browser, and in Pokémon the game marks the account's Pokédex.

        ``rated`` (None: rated when the signed-in creator keeps a seat and chose no seed) makes a game that can
        change ratings: its seed is the server's, its bots' seeds derive from a secret nobody sees, no hint is
        given in it, and a person who stops moving loses it (`Settings.idle_forfeit_seconds`). It changes
        ratings at its end when every person's seat is kept in an account (`splendor.store.ratings`)."""
        name = request.game.value
        rated = rated_and_seeded(request, account, self.settings.allow_chosen_seeds)
        people = sum(s.kind != BOT for s in request.seats)
        time_control = clocks.chosen(request.clock, self.settings.allow_short_clocks, people)
        infos, tokens = await seats(request, account, effects_of(name), self.proved)
        live = await self.start_game(
            name,
            infos,
            seed=request.seed,
            options=request.options.model_dump(exclude_defaults=True),
            rated=rated,
            owner=client_key(client),
            bounds=GameBounds(self.settings.games_per_client, self.settings.bot_games_per_client),
            time_control=time_control,
            also=open_seats.opening(infos, time_control, self.settings),  # open_until, by the store's clock
        )
        return live, tokens

    async def start_game(
        self,
        name: str,
        infos: list[SeatInfo],
        *,
        seed: int | None,
        options: dict[str, Any],
        rated: bool,
        owner: str,
        bounds: GameBounds | None = None,
        time_control: str | None = None,
        also: Callable[[Connection, str], None] | None = None,
    ) -> LiveGame:
        """Deal a new game of ``name`` for these seats, write it (with what ``also`` writes in the same
        transaction, given the connection and the game's id: quick play's seeks) and hold it here: the one way
        every game begins (`create`, quick play in `splendor.server.quick_play`)."""
        try:
            game = new_game(name, players=len(infos), seed=seed, **options)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        game_id = uuid.uuid4().hex
        salt = secrets.token_hex(16)
        made = datetime.now(UTC)  # the store keeps this moment: the copy held here says the same one
        try:
            await self.write_store(
                lambda: self.store.create(
                    game_id,
                    name,
                    game.players,
                    game.seed,
                    game.options,
                    infos,
                    owner=owner,
                    bot_turn=bot_decides(game, infos),
                    bounds=bounds,
                    rated=rated,
                    bot_salt=salt,
                    time_control=time_control,
                    to_move=game.current_player,
                    also=None if also is None else lambda conn: also(conn, game_id),
                    created_at=made,
                )
            )
        except TooManyGames as e:
            raise Refused(429, unfinished_games(e.count, e.bots_only)) from None
        live = LiveGame(id=game_id, game=game, seats=infos, owner=owner, rated=rated, bot_salt=salt, created_at=made)
        if time_control is not None:
            live.clock = await self.read_store(lambda: read_clock(self.store.store, game_id))
        self.cache.add(live)
        log.info("game %s created: %s for %d seats", game_id, name, game.players)
        self.bot_turns.start(live)
        return live

    async def proved(self, profile: str, secret: str | None) -> str | None:
        """The profile's own name when ``secret`` proves it (never an account's profile), else None."""
        owned: str | None = await self.read_store(lambda: self.pokedex.proved(profile, secret))
        return owned

    async def get(self, game_id: str, refresh: bool = True) -> LiveGame:
        """A live game, or a finished one (kept in a bounded cache, or read back from the store); with
        ``refresh``, brought up to date with what other processes committed."""
        live = self.cache.playing(game_id)
        if live is not None:
            if refresh and (self.shared or live.stale):  # a reader who acted elsewhere sees their action
                await self.refresh(live)
            return live
        live = self.cache.kept(game_id)
        if live is not None:
            return live
        stored = await self.read_store(lambda: self.store.load(game_id)) if _plausible_id(game_id) else None
        if stored is None:
            shown = game_id if len(game_id) <= 40 else game_id[:40] + "…"  # an id is 32; never echo a flood
            raise Refused(404, _("no game {game}", game=repr(shown)))
        return self.cache.hold(await replayed(rebuild, stored))  # a long game takes seconds: not on the loop

    # ----------------------------------------------------------------- seats

    @staticmethod
    def check_seat(live: LiveGame, seat: int | None, token: str | None, account: SignedIn | None = None) -> None:
        """Only the holder of a seat's secret, or the account that holds the seat, acts for the seat and sees its
        hidden cards (`access.check_seat`)."""
        access.check_seat(live, seat, token, account)

    # ----------------------------------------------------------------- watchers

    def watch(
        self,
        live: LiveGame,
        socket: WebSocket,
        seat: int | None,
        credentials: Credentials | None = None,
        language: str = SOURCE_LANGUAGE,
    ) -> Watcher:
        """A new watcher of the game, sent the current state at once (`watchers.watch`: its bounds); ``language``:
        the one its reader reads, for the reason of its close."""
        return watch(live, socket, seat, self.settings, credentials, language)

    @staticmethod
    def unwatch(live: LiveGame, watcher: Watcher) -> None:
        unwatch(live, watcher)

    async def session_lasts(self, live: LiveGame, watcher: Watcher) -> bool:
        """Before a socket acts: whether the session that let it in (if one did) is still on; when it has ended,
        the socket goes on by its secret alone, or is closed. False when it is closed."""
        return await access.session_lasts(
            live, watcher, lambda session: self.read_store(lambda: self.accounts.signed_in(session))
        )

    # ----------------------------------------------------------------- hints and explanations

    async def hint(
        self, game_id: str, seat: int, token: str | None, client: str, account: SignedIn | None = None
    ) -> dict[str, Any]:
        """What the strongest bot would play for ``seat`` (its secret checked) in its decision now, and its
        estimated chance of winning (`hints.hint`: a position is searched once)."""
        live = await self.get(game_id)
        access.check_seat(live, seat, token, account)
        return await hints.hint(live, seat, self.bots, client)

    async def explain(
        self, game_id: str, seat: int, token: str | None, texts: list[str], account: SignedIn | None = None
    ) -> dict[str, Message | str | None]:
        """Why each of ``texts`` would be refused for ``seat`` now, in the rules' words (None where it is legal),
        playing none of them. Only the seat may ask (its secret checked), since a reason can speak of its hidden
        reserved cards."""
        live = await self.get(game_id)
        access.check_seat(live, seat, token, account)
        return hints.explain(live, seat, texts)

    # ----------------------------------------------------------------- acting

    async def act(
        self,
        game_id: str,
        seat: int,
        text: str,
        token: str | None = None,
        expect: int | None = None,
        by_bot: bool = False,
        account: SignedIn | None = None,
    ) -> LiveGame:
        """Accept one action for ``seat`` or refuse it with the rule's message; the state changes only once the
        action is committed to the store. The action is judged against the game as the store has it: committing
        it as action N succeeds only if no process committed an N before, and when the judgement or the commit
        fails, what other processes committed is applied and the action judged again."""
        live = await self.get(game_id, refresh=False)
        if not by_bot:
            access.check_seat(live, seat, token, account)
        async with live.lock:
            if not by_bot:  # again: a keep may have given the seat a new secret while this waited for the lock
                access.check_seat(live, seat, token, account)
            try:
                await self._accept(live, seat, text, expect, by_bot)
            except Refused as e:
                if e.status == 503:
                    # The store failed or did not answer: nothing is judged again. A write that may still commit
                    # makes this copy suspect until the store is read again (`catch_up`), even on SQLite.
                    live.stale = live.stale or store_calls.unsure(e)
                    raise
                # Judged against this process's copy, which another process may have moved past: if so, judge
                # again against the store's newest state (this costs a read only when an action is refused; an
                # accepted one proves the copy was current, since action N commits only where none has).
                if not await self.catch_up(live):
                    raise
                try:
                    await self._accept(live, seat, text, expect, by_bot)
                except Refused:
                    self.after_change(live)
                    raise
        self.after_change(live)
        self.pushes.turn_passed(live, seat)  # committed here: this process tells the next account (Web Push)
        return live

    async def _play_for_bot(self, game_id: str, seat: int, text: str, expect: int) -> None:
        await self.act(game_id, seat, text, expect=expect, by_bot=True)

    async def _accept(self, live: LiveGame, seat: int, text: str, expect: int | None, by_bot: bool = False) -> None:
        """With the game's lock held: judge the action once, commit it, then make the game after it the game's
        state. The store is written first: the game held here moves on only once the action is committed."""
        whose_turn(live, seat, expect)
        action = parsed(live.game, text)
        after, entry = judged(live.game, action)
        number = len(after.history)
        marks = marks_of(live.seats, after)  # what the game does beyond its rules once it is over (the Pokédex)
        finish = rating(live, after) if after.is_over else None
        bot_turn = bot_decides(after, live.seats)
        await self.write_store(
            lambda: self.store.append(
                live.id,
                number,
                seat,
                action.text,
                after.status,
                marks,
                bot_turn=bot_turn,
                finish=finish,
                by_person=not by_bot,
                to_move=None if after.is_over else after.current_player,
                winners=live.rules_winners(after) if after.is_over else None,
            ),
            committed=lambda: self.store.action_at(live.id, number) == action.text,
        )
        clock = await self.clock_now(live)
        live.game, live.clock = after, clock
        live.stale = False  # action N committed: this copy is the store's
        live.log.append(entry)
        log.info("game %s: seat %d played %s", live.id, seat, action.text)


def _plausible_id(game_id: str) -> bool:
    return len(game_id) == 32 and all(c in "0123456789abcdef" for c in game_id)
