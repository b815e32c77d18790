"""Live games: each in memory with a lock, its seats, its watchers; every accepted action is committed to the
store before anyone hears of it, and bots think in worker processes.

The store is the one truth. On PostgreSQL any number of server processes share it: an action is accepted by the
store's primary key (game, action number), so of two racing actions sent to two processes exactly one is
committed; each process brings the games it holds up to date from the store before it judges an action or
answers a view, and hears the others' changes through the store's change feed (``LISTEN/NOTIFY``) to push them
to its watchers; a game's bots are moved by the one process holding its lease, taken over when that process
dies. SQLite is served by one process, which is then the only writer.

Nothing a client does can stall another: pushes go through each watcher's own bounded queue, bot decisions are
served fairly across clients, a failed write is retried and then refused with a 503 (the game stays as it was,
and a bot tries again later), and finished games are read back into a bounded cache only.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
import logging
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi import WebSocket
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from splendor.bots.base import bot_display_name
from splendor.core.actions import Action
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.games import GAMES, new_game
from splendor.i18n import Message, _
from splendor.server.bots import BOT_RATINGS, SERVER_BOTS, BotPool, bot_seed
from splendor.server.deadline import StoreTimeout, in_store_time
from splendor.server.settings import Settings
from splendor.server.watchers import NOT_ALLOWED, SESSION_ENDED, TOO_SLOW, Credentials, Watcher
from splendor.store.accounts import Accounts, SignedIn
from splendor.store.changes import ChangeFeed, shared
from splendor.store.games import Ending, GameBounds, GameMovedOn, GameStore, SeatInfo, StoredGame, TooManyGames
from splendor.store.leases import BotLeases
from splendor.store.pokedex import Pokedex, check_profile_name
from splendor.store.ratings import RatedSeat, rate_game
from splendor.store.secrets import new_secret, secret_hash, secret_matches

log = logging.getLogger("splendor.server")

HUMAN, BOT = "human", "bot"
RESERVED_OPTIONS = ("name", "players", "seed")
"""Keys that are fields of a new game, never options."""
FORFEIT_BOT = "ismcts:medium"
"""Who plays on the seat of a person who left a rated game of three or four (idle past the limit): a middling bot,
so the others' game goes on much as it would have, neither handed a win nor made harder."""
IDLE = "idle"
"""``Ending.by`` of a game whose person to move did not move within ``Settings.idle_forfeit_seconds``."""


class Refused(Exception):
    """A request the server refuses, with the HTTP status and a message the client may see."""

    def __init__(self, status: int, message: Message | str) -> None:
        super().__init__(str(message))
        self.status = status
        self.message = message


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
    log: list[dict[str, Any]] = field(default_factory=list)  # every action: seat and text (all public)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bot_failures: int = 0
    seen: float = field(default_factory=time.monotonic)  # when it was last asked for or changed
    hints: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = field(default_factory=dict)
    """Per seat, the hint of the position after that many actions (asked once, shared by every request)."""

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
                "forfeited": s.forfeited,
            }
            for s in self.seats
        ]

    def payload(self, seat: int | None) -> dict[str, Any]:
        """What a seat (or a spectator) receives: the game's id, its seats, whether it is rated, how it ended if
        no rule ended it (``ending``: ``{"by": "idle", "seat": n}``, else null) and that seat's view."""
        view = self.game.view(seat)
        if self.ending is not None:  # ended, though not by the rules: nothing more is played
            view["legal_actions"] = []
            view["is_over"] = True
        return {
            "id": self.id,
            "game": self.game.name,
            "seats": self.seat_list(),
            "you": seat,
            "actions": len(self.game.history),
            "log": self.log[-60:],
            "rated": self.rated,
            "over": self.over,
            "ending": None if self.ending is None else {"by": self.ending.by, "seat": self.ending.seat},
            "view": view,
        }

    @property
    def bots_only(self) -> bool:
        return all(s.kind == BOT for s in self.seats)


def log_entry(number: int, before: Game, action: Action, after: Game) -> dict[str, Any]:
    """One line of a game's log: who did what, and what everyone saw of it (``Game.public_details``)."""
    return {
        "n": number,
        "seat": before.current_player,
        "action": action.text,
        "details": before.public_details(action, after),
    }


def client_key(client: str) -> str:
    """What the store keeps of a client's address to count its games: a hash, not the address."""
    return hashlib.sha256(client.encode("utf-8")).hexdigest()[:32]


class GameManager:
    """The games this process holds, and the one path by which an action is accepted."""

    def __init__(self, games: GameStore, pokedex: Pokedex, settings: Settings) -> None:
        self.store = games
        self.pokedex = pokedex
        self.settings = settings
        self.live: dict[str, LiveGame] = {}  # unfinished games this process holds
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()  # finished ones, most recently seen last
        self.bots = BotPool(settings.bot_workers)
        self.instance = uuid.uuid4().hex
        """This process's name in the store (the holder of its bot leases)."""
        self.shared = shared(games.store.engine)
        self.accounts = Accounts(games.store)
        self.leases = BotLeases(games.store, self.instance, settings.lease_seconds)
        self.feed = ChangeFeed(games.store.engine, self._heard, self._resync) if self.shared else None
        self._closing = False
        self._chores: list[asyncio.Task[None]] = []

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Start listening to the other processes (PostgreSQL), keeping this process's bot leases, and sweeping
        for bots nobody moves: the unfinished games between bots resume from their records, those of a process
        that died are taken over. Games waiting for people are read when someone asks for them."""
        if not self.shared:  # the only process of its store: no lease is alive
            await asyncio.to_thread(self.leases.release_all_holders)
        loop = asyncio.get_running_loop()
        loop.create_task(self.bots.warm())
        if self.feed is not None:
            self.feed.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.feed.listening.wait(), 10)
        self._chores = [
            loop.create_task(self._every(self.settings.lease_seconds / 3, self._renew_leases)),
            loop.create_task(self._every(self.settings.sweep_seconds, self._sweep_bots)),
            loop.create_task(self._every(min(60.0, self.settings.idle_game_seconds / 2), self._put_idle_games_away)),
            loop.create_task(self._every(min(60.0, self.settings.idle_forfeit_seconds / 4), self._forfeit_idle_seats)),
            loop.create_task(self._every(self.settings.session_check_seconds, self._close_sockets_of_ended_sessions)),
        ]
        await self._sweep_bots()

    async def stop(self) -> None:
        self._closing = True
        for task in self._chores:
            task.cancel()
        if self.feed is not None:
            await self.feed.stop()
        for live in self.live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        with contextlib.suppress(SQLAlchemyError):
            await asyncio.to_thread(self.leases.release)  # the others take over at once, not at expiry
        await asyncio.to_thread(self.bots.shutdown)

    @staticmethod
    async def _every(seconds: float, chore: Callable[[], Any]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await chore()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a periodic chore failed")

    async def _put_idle_games_away(self) -> None:
        """Let go of unfinished games nobody has asked about for ``idle_game_seconds``, that nobody watches and
        whose bot is not thinking here: the store keeps them, and they are read again when asked for. A process
        holds the games in play, not every game ever started."""
        now = time.monotonic()
        for game_id, live in list(self.live.items()):
            if (
                now - live.seen > self.settings.idle_game_seconds
                and not live.watchers
                and (live.bot_task is None or live.bot_task.done())
                and not live.lock.locked()
            ):
                del self.live[game_id]

    async def _forfeit_idle_seats(self) -> None:
        """Rated games whose person to move has not moved for ``idle_forfeit_seconds``: with two players that
        person loses the game (rated at once); with three or four a bot (`FORFEIT_BOT`) plays their seat on, and
        it ranks last when the game ends. Each is done by one process only: the store's write is conditional on
        the game still standing where it was read."""
        for game_id, actions in await self._read(lambda: self.store.idle_rated(self.settings.idle_forfeit_seconds)):
            try:
                live = await self.get(game_id)
            except Refused:
                continue
            await self._forfeit(live, actions)

    async def _forfeit(self, live: LiveGame, actions: int) -> None:
        async with live.lock:
            await self._catch_up(live)
            game = live.game
            seat = game.current_player
            if (
                live.over
                or len(game.history) != actions
                or seat is None
                or live.seats[seat].kind != HUMAN
                or live.seats[seat].account_id is None
            ):
                return  # moved meanwhile, a bot's turn, or a seat without an account (it cannot be rated)
            if game.players == 2:
                ending = Ending(IDLE, seat)
                rating = self._rating(live, game, ending=ending)
                if not await self._done(
                    live, lambda: self.store.end_by_forfeit(live.id, actions, ending, "won", rating)
                ):
                    return
                live.ending = ending
                log.info(
                    "game %s: seat %d lost on time (idle past %.0f s)",
                    live.id,
                    seat,
                    self.settings.idle_forfeit_seconds,
                )
            else:
                if not await self._done(live, lambda: self.store.forfeit_seat(live.id, actions, seat, FORFEIT_BOT)):
                    return
                live.seats = await self._read(lambda: self.store.seats(live.id))
                log.info(
                    "game %s: seat %d was idle past %.0f s; %s plays it on",
                    live.id,
                    seat,
                    self.settings.idle_forfeit_seconds,
                    FORFEIT_BOT,
                )
        self._drop_unauthorised_watchers(live)
        self._after_change(live)

    async def _done(self, live: LiveGame, write: Callable[[], bool]) -> bool:
        """Run a conditional write of the game (`_write`) and return whether it was made; one whose outcome the
        store left unknown makes the copy ``stale``, so the next read takes the store's word."""
        made: list[bool] = []
        try:
            await self._write(lambda: made.append(write()))
        except Refused as e:
            live.stale = live.stale or e.message is UNSURE
            raise
        return made == [True]

    async def _close_sockets_of_ended_sessions(self) -> None:
        """Close the seat sockets let in by a session that has ended since (signed out, or ended by a password
        change on any process), unless the seat's secret alone still lets them in."""
        sessions = {
            w.credentials.session for live in self.live.values() for w in live.watchers if w.credentials.session
        }
        if not sessions:
            return
        lasting = await self._read(lambda: self.accounts.lasting(sessions))
        for live in list(self.live.values()):
            for watcher in list(live.watchers):
                c = watcher.credentials
                if c.session and c.session not in lasting:
                    self.end_session_of(live, watcher)

    async def session_lasts(self, live: LiveGame, watcher: Watcher) -> bool:
        """Before a socket acts: whether the session that let it in (if one did) is still on; when it has ended,
        the socket goes on by its secret alone, or is closed (`end_session_of`). False when it is closed."""
        c = watcher.credentials
        if c.session is None:
            return True
        now = await self._read(lambda: self.accounts.signed_in(c.session))
        if now is not None and c.account is not None and now.id == c.account.id:
            return True
        return self.end_session_of(live, watcher)

    def end_session_of(self, live: LiveGame, watcher: Watcher) -> bool:
        """The session of ``watcher`` has ended: it goes on as its secret alone allows, else it is closed. Returns
        whether it goes on."""
        c = watcher.credentials
        watcher.credentials = replace(c, account=None, session=None)
        try:
            self.check_seat(live, watcher.seat, c.token)
            return True
        except Refused:
            watcher.close(SESSION_ENDED, "your session has ended: sign in again to play this seat")
            self.unwatch(live, watcher)
            return False

    async def _renew_leases(self) -> None:
        await asyncio.to_thread(self.leases.renew)

    async def _sweep_bots(self) -> None:
        """Take the games whose bot is to move and whose lease is free or ran out, and move their bots."""
        for game_id in await self._read(self.leases.waiting):
            try:
                live = await self.get(game_id)
            except Refused:
                continue
            seat = live.game.current_player
            if live.over or seat is None or live.seats[seat].kind != BOT:  # a flag kept from before
                await asyncio.to_thread(self.store.set_bot_turn, game_id, False)
                continue
            self._schedule_bot(live)

    # ----------------------------------------------------------------- the other processes

    def _heard(self, payload: str) -> None:
        """Another process (or this one) committed a change to a game: bring this process's copy up to date."""
        game_id, _, number = payload.partition(":")
        live = self.live.get(game_id)
        if live is None or (number.isdigit() and int(number) <= len(live.game.history)):
            return  # not held here, or heard already (our own write)
        asyncio.get_running_loop().create_task(self._refresh_heard(live, seats=not number.isdigit()))

    async def _resync(self) -> None:
        """After the change feed was lost: read every held game afresh (changes may have gone unheard)."""
        for live in list(self.live.values()):
            await self._refresh_heard(live, seats=True)

    async def _refresh_heard(self, live: LiveGame, seats: bool) -> None:
        """`_refresh` for a change heard on the feed: nobody waits for it, so a failure is logged."""
        try:
            await self._refresh(live, seats)
        except Refused as e:
            log.warning("game %s could not be brought up to date: %s", live.id, e)

    async def _refresh(self, live: LiveGame, seats: bool = False) -> None:
        """Bring the copy up to the store's newest state (and, with ``seats``, its seats), then tell its watchers;
        `Refused` (503) when the store cannot be read."""
        async with live.lock:
            changed = await self._catch_up(live)
            if seats:
                live.seats, live.ending = await self._read(lambda: self.store.standing(live.id))
                changed = True
        if changed:
            if seats:
                self._drop_unauthorised_watchers(live)
            self._after_change(live)

    async def _catch_up(self, live: LiveGame) -> bool:
        """With the game's lock held: apply the actions other processes committed since this copy was made.
        Returns whether there were any. Nothing to do where this process is the store's only writer, unless one of
        its own writes may have committed after it was answered 503 (``stale``)."""
        if not self.shared and not live.stale:
            return False
        known = len(live.game.history)
        texts = await self._read(lambda: self.store.actions_after(live.id, known))
        for text in texts:
            game = live.game
            action = game.parse(text)
            after = game.clone()
            after.apply(action)
            live.log.append(log_entry(len(after.history), game, action, after))
            live.game = after
        return bool(texts)

    def _after_change(self, live: LiveGame) -> None:
        """Tell the watchers, and let a bot move next or put a finished game away."""
        live.seen = time.monotonic()
        self.broadcast(live)
        if live.over:
            self._keep_finished(live)
        else:
            self._schedule_bot(live)

    @staticmethod
    def _rebuild(s: StoredGame) -> LiveGame:
        game = new_game(s.game, players=s.players, seed=s.seed, **s.options)
        log = []
        for n, text in enumerate(s.actions, 1):
            action = game.parse(text)
            after = game.clone()
            after.apply(action)
            log.append(log_entry(n, game, action, after))
            game = after
        return LiveGame(
            id=s.id,
            game=game,
            seats=s.seats,
            owner=s.owner,
            log=log,
            rated=s.rated,
            bot_salt=s.bot_salt,
            ending=s.ending,
        )

    # ----------------------------------------------------------------- creating and finding

    async def create(
        self,
        name: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        seed: int | None,
        client: str,
        account: SignedIn | None = None,
        rated: bool | None = None,
    ) -> tuple[LiveGame, dict[int, str]]:
        """A new game; returns it and each human seat's secret (shown once, never stored). A person's seat marked
        ``mine`` belongs to the signed-in ``account``: it plays it from any browser, and in Pokémon the game
        marks the account's Pokédex.

        ``rated`` (None: rated when the signed-in creator keeps a seat and chose no seed) makes a game that can
        change ratings: its seed is the server's, its bots' seeds derive from a secret nobody sees, no hint is
        given in it, and a person who stops moving loses it (`Settings.idle_forfeit_seconds`). It changes
        ratings at its end when every person's seat is kept in an account (`splendor.store.ratings`)."""
        if name not in GAMES:
            raise Refused(404, f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
        self._check_options(options)
        humans = sum(1 for s in seats if s.get("kind") == HUMAN)
        if seed is not None and humans > 1 and not self.settings.allow_chosen_seeds:
            raise Refused(
                400,
                "a seed may be chosen only when one person plays (practice, puzzles): with two or "
                "more people, whoever chose it would know every deck",
            )
        if rated is None:
            rated = seed is None and account is not None and any(s.get("mine") for s in seats)
        if rated and seed is not None:
            raise Refused(400, _("a rated game is dealt by the server: choose no seed, or play it unrated"))
        if rated and humans == 0:
            raise Refused(400, _("a game between bots only is never rated"))
        infos, tokens = [], {}
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            display = spec.get("name")
            if display is not None:
                try:
                    display = check_profile_name(display)
                except ValueError as e:
                    raise Refused(400, f"seat {i}: {e}") from None
            if kind == HUMAN:
                profile = await self._proved_profile(name, i, spec.get("profile"), spec.get("profile_secret"))
                holder = None
                if spec.get("mine"):
                    if account is None:
                        raise Refused(401, _("sign in to keep a seat in your account"))
                    if any(x.account_id is not None for x in infos):
                        raise Refused(400, "only one seat of a game can be yours")
                    holder = account.id
                    display = account.name  # a seat of an account shows the account's name
                    profile = profile or (account.name if name == "pokemon" else None)
                tokens[i] = new_secret()
                infos.append(
                    SeatInfo(
                        seat=i,
                        kind=HUMAN,
                        bot=None,
                        name=display,
                        token_hash=secret_hash(tokens[i]),
                        profile=profile,
                        account_id=holder,
                    )
                )
            elif kind == BOT:
                bot = spec.get("bot") or "greedy"
                if bot not in SERVER_BOTS:
                    raise Refused(400, f"unknown bot {bot!r}; the server's bots are {', '.join(SERVER_BOTS)}")
                if spec.get("profile") is not None or spec.get("mine"):
                    raise Refused(400, f"seat {i} is a bot: only a person's seat keeps a Pokédex or an account")
                infos.append(
                    SeatInfo(seat=i, kind=BOT, bot=bot, name=display or bot_display_name(bot), token_hash=None)
                )
            else:
                raise Refused(400, f"seat {i} must be of kind human or bot, not {kind!r}")
        try:
            game = new_game(name, players=len(seats), seed=seed, **options)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        game_id = uuid.uuid4().hex
        owner = client_key(client)
        salt = secrets.token_hex(16)
        bounds = GameBounds(self.settings.games_per_client, self.settings.bot_games_per_client)
        try:
            await self._write(
                lambda: self.store.create(
                    game_id,
                    name,
                    game.players,
                    game.seed,
                    game.options,
                    infos,
                    owner=owner,
                    bot_turn=_bot_turn(game, infos),
                    bounds=bounds,
                    rated=rated,
                    bot_salt=salt,
                )
            )
        except TooManyGames as e:
            if e.bots_only:
                raise Refused(
                    429, f"you have {e.count} unfinished games between bots, the most allowed: wait for one to end"
                ) from None
            raise Refused(
                429, f"you have {e.count} unfinished games on this server, the most allowed: finish one first"
            ) from None
        live = LiveGame(id=game_id, game=game, seats=infos, owner=owner, rated=rated, bot_salt=salt)
        self.live[game_id] = live
        log.info("game %s created: %s for %d seats", game_id, name, game.players)
        self._schedule_bot(live)
        return live, tokens

    @staticmethod
    def _check_options(options: dict[str, Any]) -> None:
        """What the server refuses in options before the engine sees them: the fields of a game, and any board
        that is not a list of shipped side names (nothing in a request names a file on the server)."""
        misplaced = [k for k in RESERVED_OPTIONS if k in options]
        if misplaced:
            raise Refused(
                400,
                f"{', '.join(misplaced)} {'is a field' if len(misplaced) == 1 else 'are fields'} "
                "of the new game, not options",
            )
        if "board" in options:
            board = options["board"]
            if board is not None and (
                not isinstance(board, list) or not board or not all(isinstance(b, str) and len(b) <= 16 for b in board)
            ):
                raise Refused(
                    400,
                    'a board on the server is a list of shipped side names, e.g. ["A1-front", "A2-back", "A3-front"]',
                )

    async def _proved_profile(self, game: str, seat: int, profile: Any, secret: Any) -> str | None:
        """The Pokédex profile a seat is linked to, once its secret is checked (None when none is asked)."""
        if profile is None:
            return None
        if game != "pokemon":
            raise Refused(400, "only Splendor: Pokémon keeps a Pokédex")
        if not isinstance(profile, str) or not isinstance(secret, (str, type(None))):
            raise Refused(400, "a profile is a name and its secret")
        try:
            name = check_profile_name(profile)
            owned = await self._read(lambda: self.pokedex.proved(name, secret))  # never an account's profile
        except ValueError as e:
            raise Refused(400, f"seat {seat}: {e}") from None
        if not owned:
            raise Refused(403, f"seat {seat}: wrong or missing secret for the profile {name!r}")
        return owned

    async def get(self, game_id: str, refresh: bool = True) -> LiveGame:
        """A live game, or a finished one (kept in a bounded cache, or read back from the store); with
        ``refresh``, brought up to date with what other processes committed."""
        live = self.live.get(game_id)
        if live is not None:
            live.seen = time.monotonic()
            if refresh and (self.shared or live.stale):  # a reader who acted elsewhere sees their action
                await self._refresh(live)
            return live
        live = self.finished.get(game_id)
        if live is not None:
            self.finished.move_to_end(game_id)
            return live
        stored = await self._read(lambda: self.store.load(game_id)) if _plausible_id(game_id) else None
        if stored is None:
            raise Refused(404, _("no game {game}", game=repr(game_id)))
        live = self.live.get(game_id) or self._rebuild(stored)  # another request may have read it meanwhile
        if live.over:
            self._keep_finished(live)
        else:  # unfinished: this process holds it now
            self.live[game_id] = live
        return live

    def _keep_finished(self, live: LiveGame) -> None:
        self.live.pop(live.id, None)
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > self.settings.finished_games_kept:
            self.finished.popitem(last=False)

    @staticmethod
    def check_seat(live: LiveGame, seat: int | None, token: str | None, account: SignedIn | None = None) -> None:
        """Only the holder of a seat's secret, or the account that holds the seat, acts for the seat and sees its
        hidden cards."""
        if seat is None:
            return
        if not 0 <= seat < len(live.seats):
            raise Refused(404, _("there is no seat {seat}; seats are 0 to {last}", seat=seat, last=len(live.seats) - 1))
        info = live.seats[seat]
        if info.forfeited:
            raise Refused(403, _("seat {seat} was left idle past the limit: a bot plays it now", seat=seat))
        if info.kind != HUMAN:
            raise Refused(403, _("seat {seat} is played by a bot", seat=seat))
        if account is not None and info.account_id == account.id:
            return
        if not secret_matches(token, info.token_hash):
            if info.account_id is not None:
                raise Refused(
                    403,
                    _(
                        "seat {seat} is kept in an account now, so its old link no longer works: "
                        "sign in to that account to play it",
                        seat=seat,
                    ),
                )
            raise Refused(403, _("wrong or missing secret for seat {seat}", seat=seat))

    async def give_seat(
        self, game_id: str, seat: int, token: str | None, account: SignedIn
    ) -> tuple[LiveGame, str | None]:
        """Let the signed-in account hold a seat whose secret it shows (a link a friend sent): from then on it
        plays the seat from any browser, the game counts for its rating, and in Pokémon marks its Pokédex.

        The seat gets a new secret, returned (None when the account kept it already): the link that was used
        stops working, and every socket that read the seat by it is closed, so whoever else held the link (the
        game's creator) can neither play the seat nor see its hidden cards any more."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        info = live.seats[seat]
        if info.account_id == account.id:
            return live, None
        if info.account_id is not None:
            raise Refused(409, _("this seat is already kept in another account"))
        if live.over:
            raise Refused(409, _("the game is over"))
        fresh = new_secret()
        async with live.lock:
            profile = account.name if live.game.name == "pokemon" else None
            if not await self._done(
                live, lambda: self.store.give_seat(game_id, seat, account.id, profile, secret_hash(fresh), account.name)
            ):
                raise Refused(409, _("this seat is already kept in another account"))
            live.seats = await self._read(lambda: self.store.seats(game_id))
        self._drop_unauthorised_watchers(live)
        self.broadcast(live)
        return live, fresh

    async def link_profile(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        profile: str,
        secret: str | None,
        account: SignedIn | None = None,
    ) -> LiveGame:
        """Link a seat to the Pokédex profile its holder proves they own: the game marks it when it ends."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        async with live.lock:
            if live.over:
                raise Refused(409, "the game is over: its Pokédex marks are already given")
            name = await self._proved_profile(live.game.name, seat, profile, secret)
            assert name is not None
            await self._write(lambda: self.store.set_profile(game_id, seat, name))
            live.seats = [replace(s, profile=name) if s.seat == seat else s for s in live.seats]
        self.broadcast(live)
        return live

    # ----------------------------------------------------------------- hints

    async def hint(
        self, game_id: str, seat: int, token: str | None, client: str, account: SignedIn | None = None
    ) -> dict[str, Any]:
        """What the strongest bot would play for ``seat`` (its secret checked) in its decision now, and its
        estimated chance of winning. A position is searched once: asking again, or from another tab, gets the
        same answer, so hints cannot be used to load the search workers."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        game = live.game
        if live.over:
            raise Refused(409, _("the game is over"))
        if live.rated:
            raise Refused(409, _("no hints in a rated game: the expert's advice would play it for you"))
        if seat != game.current_player:
            raise Refused(
                409, _("it is not your decision: Player {number} decides now", number=game.current_player + 1)
            )
        number = len(game.history)
        known = live.hints.get(seat)
        if known is None or known[0] != number:
            task = asyncio.ensure_future(
                self.bots.hint(client, game.record.to_text(), bot_seed(live.id, number, live.bot_salt))
            )
            known = live.hints[seat] = (number, task)
        try:
            advice = await asyncio.shield(known[1])
        except Exception as e:
            if live.hints.get(seat) is known:  # asked again later, not for a newer position
                del live.hints[seat]
            log.exception("game %s: the hint failed", game_id)
            raise Refused(503, _("no hint can be given now; try again in a moment")) from e
        return {**advice, "actions": number}

    async def explain(
        self, game_id: str, seat: int, token: str | None, texts: list[str], account: SignedIn | None = None
    ) -> dict[str, Message | None]:
        """Why each of ``texts`` would be refused for ``seat`` now, in the rules' words (None where it is legal),
        playing none of them: the table says why a click cannot make an action, next to what was clicked. Only
        the seat may ask (its secret checked), since a reason can speak of its hidden reserved cards."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        game = live.game
        reasons: dict[str, Message | None] = {}
        for text in texts:
            if live.over:
                reasons[text] = _("the game is over")
            elif seat != game.current_player:
                reasons[text] = _(
                    "it is not your decision: Player {number} decides now", number=game.current_player + 1
                )
            else:
                try:
                    reasons[text] = game.why_illegal(game.parse(text))
                except IllegalAction as e:
                    reasons[text] = e.reason
        return reasons

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
            self.check_seat(live, seat, token, account)
        async with live.lock:
            try:
                await self._accept(live, seat, text, expect, by_bot)
            except Refused as e:
                if e.status == 503:
                    # The store failed or did not answer: nothing is judged again. A write that may still commit
                    # makes this copy suspect until the store is read again (`_catch_up`), even on SQLite.
                    live.stale = live.stale or e.message is UNSURE
                    raise
                # Judged against this process's copy, which another process may have moved past: if so, judge
                # again against the store's newest state (this costs a read only when an action is refused; an
                # accepted one proves the copy was current, since action N commits only where none has).
                if not await self._catch_up(live):
                    raise
                try:
                    await self._accept(live, seat, text, expect, by_bot)
                except Refused:
                    self._after_change(live)
                    raise
        self._after_change(live)
        return live

    async def _accept(self, live: LiveGame, seat: int, text: str, expect: int | None, by_bot: bool = False) -> None:
        """With the game's lock held: check the action, commit it, then make it the game's state."""
        game = live.game
        if live.over:
            raise Refused(409, _("the game is over"))
        if expect is not None and expect != len(game.history):
            raise Refused(
                409,
                _(
                    "the game has moved on: {actions} actions, not {expected}",
                    actions=len(game.history),
                    expected=expect,
                ),
            )
        if seat != game.current_player:
            raise Refused(
                409, _("it is not your decision: Player {number} decides now", number=game.current_player + 1)
            )
        try:
            action = game.parse(text)
        except IllegalAction as e:
            raise Refused(400, e.reason) from None
        reason = game.why_illegal(action)
        if reason is not None:
            raise Refused(409, reason)
        after = game.clone()
        after.apply(action)
        marks = self._pokedex_marks(live, after)
        number = len(after.history)
        finish = self._rating(live, after) if after.is_over else None
        await self._write(
            lambda: self.store.append(
                live.id,
                number,
                seat,
                action.text,
                after.status,
                marks,
                bot_turn=_bot_turn(after, live.seats),
                finish=finish,
                by_person=not by_bot,
            ),
            committed=lambda: self.store.action_at(live.id, number) == action.text,
        )
        live.game = after
        live.stale = False  # action N committed: this copy is the store's
        live.log.append(log_entry(number, game, action, after))
        log.info("game %s: seat %d played %s", live.id, seat, action.text)

    @staticmethod
    def _rating(live: LiveGame, after: Game, ending: Ending | None = None) -> Callable[[Connection], None] | None:
        """What the game's last action, or its ``ending``, also writes: the ratings of its accounts, when it was
        created to be rated. A game ended by an `Ending` is won by every seat but the one that lost by it."""
        if not live.rated:
            return None
        seats = [
            RatedSeat(
                s.seat,
                account_id=s.account_id,
                forfeited=s.forfeited or (ending is not None and s.seat == ending.seat),
                bot_rating=BOT_RATINGS.get(s.bot or "") if s.kind == BOT and not s.forfeited else None,
            )
            for s in live.seats
        ]  # a forfeited seat is its person's, never a bot's
        winners = list(after.winners) if ending is None else [s.seat for s in live.seats if s.seat != ending.seat]
        return lambda conn: rate_game(conn, live.id, after.name, seats, winners)

    @staticmethod
    def _pokedex_marks(live: LiveGame, after: Game) -> list[tuple[str, list[str]]]:
        """A finished Pokémon game marks the Pokédex of the human seats that proved a profile."""
        if after.name != "pokemon" or not after.is_over:
            return []
        caught = after.result["pokedex"]
        return [(s.profile, caught[s.seat]) for s in live.seats if s.kind == HUMAN and s.profile]

    # ----------------------------------------------------------------- the store, retried

    async def _write(self, write: Callable[[], None], committed: Callable[[], bool] | None = None) -> None:
        """Run a write in a store thread, retrying while the store refuses it (locked, full, unreachable) for up to
        ``write_retry_seconds``; then refuse with a 503 that says the store is unavailable (the detail goes to the
        log: it may name the database's address). A retry that meets its own earlier write (an attempt that
        committed but reported failure) counts as done.

        No attempt is waited for past the deadline: a database that does not answer at all (stopped, cut off)
        gets a 503 in ``write_retry_seconds``, not whenever it wakes. An attempt that had begun may still commit
        after that, so the 503 then says the action may have been accepted: on PostgreSQL the next read of the
        game catches up with whatever the store holds (and the change feed announces a late commit). The last
        attempt is given at least ``ATTEMPT_SECONDS`` (more than SQLite's lock wait), so the bound is
        ``write_retry_seconds`` plus at most that."""
        deadline = time.monotonic() + self.settings.write_retry_seconds
        delay, failed = 0.05, False
        while True:
            try:
                await in_store_time(write, max(ATTEMPT_SECONDS, deadline - time.monotonic()))
                return
            except StoreTimeout as e:
                if e.started and e.pending is not None:
                    log.warning("a write to the store got no answer in time: its outcome is unknown")
                    e.pending.add_done_callback(_late_write)
                    _unsure_write.set(asyncio.current_task())
                    raise Refused(503, UNSURE) from None
                log.warning("a write to the store was not started in time (the store is slow or silent)")
                raise Refused(503, _("the store is unavailable, try again in a moment")) from None
            except IntegrityError:
                if failed and committed is not None and await self._read(committed):
                    return
                raise Refused(409, _("the game has moved on: another action was accepted first")) from None
            except GameMovedOn:
                raise Refused(409, _("the game has moved on: another action was accepted first")) from None
            except SQLAlchemyError as e:
                failed = True
                log.warning(
                    "the store refused a write (%s); %s",
                    _store_problem(e),
                    "retrying" if time.monotonic() + delay < deadline else "giving up",
                )
                if time.monotonic() + delay >= deadline:
                    raise Refused(503, _("the store is unavailable, try again in a moment")) from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _read(self, read: Callable[[], Any]) -> Any:
        """Run a read in a store thread, waited for at most ``store_seconds``; a 503 when the store fails or does
        not answer in time (the detail goes to the log, never to the client: it may name the database's
        address)."""
        try:
            return await in_store_time(read, self.settings.store_seconds)
        except SQLAlchemyError as e:
            log.warning("the store could not be read: %s", _store_problem(e))
            if _unsure_write.get() is asyncio.current_task():  # a read after this request's unsure write
                raise Refused(503, UNSURE) from None
            raise Refused(503, _("the store is unavailable, try again in a moment")) from None

    # ----------------------------------------------------------------- bots

    def _schedule_bot(self, live: LiveGame, after: float = 0.0) -> None:
        game = live.game
        if self._closing or live.over or (live.bot_task is not None and not live.bot_task.done()):
            return
        seat = game.current_player
        if seat is None or live.seats[seat].kind != BOT:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(live, seat, after))

    async def _bot_turn(self, live: LiveGame, seat: int, after: float) -> None:
        if after:
            await asyncio.sleep(after)
        game = live.game
        number = len(game.history)
        spec = live.seats[seat].bot or "greedy"
        started = time.monotonic()
        try:
            if not await self._read(lambda: self.leases.take(live.id)):
                live.bot_task = None  # another process moves this game's bots
                return
            text = await self.bots.move(
                live.owner, game.record.to_text(), spec, bot_seed(live.id, number, live.bot_salt)
            )
            pause = 0.0 if live.bots_only else self.settings.bot_pause_seconds  # people see each move happen
            if started + pause > time.monotonic():
                await asyncio.sleep(started + pause - time.monotonic())
            live.bot_task = None
            await self.act(live.id, seat, text, expect=number, by_bot=True)
            live.bot_failures = 0
        except asyncio.CancelledError:
            raise
        except Refused as e:
            live.bot_task = None
            if e.status == 409:  # the game moved on meanwhile (or ended): decide again
                self._schedule_bot(live)
                return
            self._retry_bot(live, spec, e.message)
        except Exception as e:
            log.exception("game %s: bot %s failed", live.id, spec)
            live.bot_task = None
            self._retry_bot(live, spec, repr(e))

    def _retry_bot(self, live: LiveGame, spec: str, why: str) -> None:
        """A bot whose move could not be made tries again later (backing off to 30 s), never gives up."""
        live.bot_failures += 1
        delay = min(30.0, 0.25 * 2**live.bot_failures)
        log.warning("game %s: bot %s will try again in %.1f s: %s", live.id, spec, delay, why)
        self._schedule_bot(live, after=delay)

    # ----------------------------------------------------------------- watchers

    def watch(
        self, live: LiveGame, socket: WebSocket, seat: int | None, credentials: Credentials | None = None
    ) -> Watcher:
        """A new watcher of the game, sent the current state at once. A seat always gets in (its oldest socket is
        closed when it has ``sockets_per_seat`` open already: a tab left open elsewhere); spectators are bounded
        per game and per client address, so strangers cannot crowd the players out."""
        credentials = credentials or Credentials()
        watcher = Watcher(socket, seat, self.settings.watcher_queue, self.settings.send_timeout, credentials)
        if seat is None:
            spectators = [w for w in live.watchers if w.seat is None]
            if len(spectators) >= self.settings.watchers_per_game:
                watcher.close(TOO_SLOW, f"this game has {len(spectators)} spectators, the most allowed")
                return watcher
            if (
                sum(w.credentials.client == credentials.client for w in spectators)
                >= self.settings.spectators_per_address
            ):
                watcher.close(
                    TOO_SLOW,
                    f"you watch this game {self.settings.spectators_per_address} times already, the most allowed",
                )
                return watcher
        else:
            mine = [w for w in live.watchers if w.seat == seat]
            for old in mine[: max(0, len(mine) - self.settings.sockets_per_seat + 1)]:
                old.close(TOO_SLOW, "this seat was opened in another tab")
                self.unwatch(live, old)
        live.watchers.append(watcher)
        watcher.push(_state_text(live, seat))
        return watcher

    def _drop_unauthorised_watchers(self, live: LiveGame) -> None:
        """Close the seat sockets whose credentials no longer let them read their seat (its secret changed when
        an account kept it, or a bot plays it now): they would go on receiving its hidden cards."""
        for watcher in list(live.watchers):
            if watcher.seat is None:
                continue
            try:
                self.check_seat(live, watcher.seat, watcher.credentials.token, watcher.credentials.account)
            except Refused as e:
                watcher.close(NOT_ALLOWED, str(e.message)[:120])
                self.unwatch(live, watcher)

    @staticmethod
    def unwatch(live: LiveGame, watcher: Watcher) -> None:
        if watcher in live.watchers:
            live.watchers.remove(watcher)

    def broadcast(self, live: LiveGame) -> None:
        """Queue every watcher its own view (one view per seat, shared by that seat's watchers); never waits."""
        texts: dict[int | None, str] = {}
        for watcher in list(live.watchers):
            if watcher.closed:
                self.unwatch(live, watcher)
                continue
            if watcher.seat not in texts:
                texts[watcher.seat] = _state_text(live, watcher.seat)
            if not watcher.push(texts[watcher.seat]):
                self.unwatch(live, watcher)


def _bot_turn(game: Game, seats: list[SeatInfo]) -> bool:
    """Whether a bot decides next in ``game`` (what the store's bot sweep looks for)."""
    seat = game.current_player
    return not game.is_over and seat is not None and seats[seat].kind == BOT


def _state_text(live: LiveGame, seat: int | None) -> str:
    return json.dumps({"type": "state", **live.payload(seat)}, separators=(",", ":"))


def _store_problem(e: SQLAlchemyError) -> str:
    """A short reason for a store error, without SQL or parameters, for the server's log only: it may name the
    database's address (``connection to server at "10.0.0.5", port 5432 failed``), which clients never see."""
    original = getattr(e, "orig", None) or e
    first = str(original).strip().splitlines()
    return f"{type(original).__name__}: {(first[0] if first else '')[:100]}"


UNSURE = _(
    "the store did not answer in time: this may or may not have been saved; reload to see, and try again if it was not"
)
"""The 503 of a write that was sent but not answered: it may still commit, so no "nothing changed"."""
_unsure_write: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar("unsure_write", default=None)
"""The request (its task) whose write's outcome is unknown: a read failing later in it says so too, rather than
a plain "unavailable" that would hide that the write may have been saved."""
ATTEMPT_SECONDS = 1.5
"""The least time one attempt of a write is waited for, even when it starts just before the retry deadline: more
than SQLite's lock wait (``BUSY_TIMEOUT_MS``), so that a locked store is told apart from a silent one."""


def _late_write(future: Any) -> None:
    """Log how a write that outlived its deadline ended, once the store answered it."""
    if future.cancelled():
        return
    problem = future.exception()
    if problem is None:
        log.warning("a write the store answered after its deadline was committed")
    else:
        log.warning(
            "a write the store answered after its deadline failed: %s",
            _store_problem(problem) if isinstance(problem, SQLAlchemyError) else type(problem).__name__,
        )


def _plausible_id(game_id: str) -> bool:
    return len(game_id) == 32 and all(c in "0123456789abcdef" for c in game_id)
