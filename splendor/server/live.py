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
import hashlib
import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi import WebSocket
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from splendor.core.actions import Action
from splendor.core.errors import IllegalAction
from splendor.i18n import Message, _
from splendor.core.game import Game
from splendor.games import GAMES, new_game
from splendor.bots.base import bot_display_name
from splendor.server.bots import BOT_RATINGS, SERVER_BOTS, BotPool, bot_seed
from splendor.server.settings import Settings
from splendor.server.watchers import TOO_SLOW, Watcher
from splendor.store.accounts import SignedIn
from splendor.store.changes import ChangeFeed, shared
from splendor.store.games import GameStore, SeatInfo, StoredGame
from splendor.store.leases import BotLeases
from splendor.store.pokedex import Pokedex, check_profile_name
from splendor.store.ratings import RatedSeat, rate_game
from splendor.store.secrets import new_secret, secret_hash, secret_matches

log = logging.getLogger("splendor.server")

HUMAN, BOT = "human", "bot"
RESERVED_OPTIONS = ("name", "players", "seed")
"""Keys that are fields of a new game, never options."""


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
    owner: str = ""                                            # the client address that created it ("" resumed)
    log: list[dict[str, Any]] = field(default_factory=list)   # every action: seat and text (all public)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bot_failures: int = 0
    seen: float = field(default_factory=time.monotonic)    # when it was last asked for or changed
    hints: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = field(default_factory=dict)
    """Per seat, the hint of the position after that many actions (asked once, shared by every request)."""

    def seat_list(self) -> list[dict[str, Any]]:
        """The seats as anyone may see them (no secrets)."""
        return [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "profile": s.profile,
                 "has_account": s.account_id is not None} for s in self.seats]

    def payload(self, seat: int | None) -> dict[str, Any]:
        """What a seat (or a spectator) receives: the game's id, its seats and that seat's view."""
        return {"id": self.id, "game": self.game.name, "seats": self.seat_list(), "you": seat,
                "actions": len(self.game.history), "log": self.log[-60:], "view": self.game.view(seat)}

    @property
    def bots_only(self) -> bool:
        return all(s.kind == BOT for s in self.seats)


def _log_entry(number: int, before: Game, action: Action, after: Game) -> dict[str, Any]:
    """One line of a game's log: who did what, and what everyone saw of it (``Game.public_details``)."""
    return {"n": number, "seat": before.current_player, "action": action.text,
            "details": before.public_details(action, after)}


def client_key(client: str) -> str:
    """What the store keeps of a client's address to count its games: a hash, not the address."""
    return hashlib.sha256(client.encode("utf-8")).hexdigest()[:32]


class GameManager:
    """The games this process holds, and the one path by which an action is accepted."""

    def __init__(self, games: GameStore, pokedex: Pokedex, settings: Settings) -> None:
        self.store = games
        self.pokedex = pokedex
        self.settings = settings
        self.live: dict[str, LiveGame] = {}                    # unfinished games this process holds
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()   # finished ones, most recently seen last
        self.bots = BotPool(settings.bot_workers)
        self.instance = uuid.uuid4().hex
        """This process's name in the store (the holder of its bot leases)."""
        self.shared = shared(games.store.engine)
        self.leases = BotLeases(games.store, self.instance, settings.lease_seconds)
        self.feed = ChangeFeed(games.store.engine, self._heard, self._resync) if self.shared else None
        self._closing = False
        self._chores: list[asyncio.Task[None]] = []

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Start listening to the other processes (PostgreSQL), keeping this process's bot leases, and sweeping
        for bots nobody moves: the unfinished games between bots resume from their records, those of a process
        that died are taken over. Games waiting for people are read when someone asks for them."""
        if not self.shared:                                    # the only process of its store: no lease is alive
            await asyncio.to_thread(self.leases.release_all_holders)
        loop = asyncio.get_running_loop()
        loop.create_task(self.bots.warm())
        if self.feed is not None:
            self.feed.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.feed.listening.wait(), 10)
        self._chores = [loop.create_task(self._every(self.settings.lease_seconds / 3, self._renew_leases)),
                        loop.create_task(self._every(self.settings.sweep_seconds, self._sweep_bots)),
                        loop.create_task(self._every(min(60.0, self.settings.idle_game_seconds / 2),
                                                     self._put_idle_games_away))]
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
            await asyncio.to_thread(self.leases.release)        # the others take over at once, not at expiry
        await asyncio.to_thread(self.bots.shutdown)

    @staticmethod
    async def _every(seconds: float, chore: Callable[[], Any]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await chore()
            except asyncio.CancelledError:
                raise
            except Exception:                                   # noqa: BLE001 - said, and tried again next time
                log.exception("a periodic chore failed")

    async def _put_idle_games_away(self) -> None:
        """Let go of unfinished games nobody has asked about for ``idle_game_seconds``, that nobody watches and
        whose bot is not thinking here: the store keeps them, and they are read again when asked for. A process
        holds the games in play, not every game ever started."""
        now = time.monotonic()
        for game_id, live in list(self.live.items()):
            if (now - live.seen > self.settings.idle_game_seconds and not live.watchers
                    and (live.bot_task is None or live.bot_task.done()) and not live.lock.locked()):
                del self.live[game_id]

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
            if live.game.is_over or seat is None or live.seats[seat].kind != BOT:     # a flag kept from before
                await asyncio.to_thread(self.store.set_bot_turn, game_id, False)
                continue
            self._schedule_bot(live)

    # ----------------------------------------------------------------- the other processes

    def _heard(self, payload: str) -> None:
        """Another process (or this one) committed a change to a game: bring this process's copy up to date."""
        game_id, _, number = payload.partition(":")
        live = self.live.get(game_id)
        if live is None or (number.isdigit() and int(number) <= len(live.game.history)):
            return                                          # not held here, or heard already (our own write)
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
                live.seats = await self._read(lambda: self.store.seats(live.id))
                changed = True
        if changed:
            self._after_change(live)

    async def _catch_up(self, live: LiveGame) -> bool:
        """With the game's lock held: apply the actions other processes committed since this copy was made.
        Returns whether there were any. Nothing to do where this process is the store's only writer."""
        if not self.shared:
            return False
        known = len(live.game.history)
        texts = await self._read(lambda: self.store.actions_after(live.id, known))
        for text in texts:
            game = live.game
            action = game.parse(text)
            after = game.clone()
            after.apply(action)
            live.log.append(_log_entry(len(after.history), game, action, after))
            live.game = after
        return bool(texts)

    def _after_change(self, live: LiveGame) -> None:
        """Tell the watchers, and let a bot move next or put a finished game away."""
        live.seen = time.monotonic()
        self.broadcast(live)
        if live.game.is_over:
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
            log.append(_log_entry(n, game, action, after))
            game = after
        return LiveGame(id=s.id, game=game, seats=s.seats, owner=s.owner, log=log)

    # ----------------------------------------------------------------- creating and finding

    async def create(self, name: str, seats: list[dict[str, Any]], options: dict[str, Any], seed: int | None,
                     client: str, account: SignedIn | None = None) -> tuple[LiveGame, dict[int, str]]:
        """A new game; returns it and each human seat's secret (shown once, never stored). A person's seat marked
        ``mine`` belongs to the signed-in ``account``: it plays it from any browser, and in Pokémon the game
        marks the account's Pokédex."""
        if name not in GAMES:
            raise Refused(404, f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
        self._check_options(options)
        humans = sum(1 for s in seats if s.get("kind") == HUMAN)
        if seed is not None and humans > 1 and not self.settings.allow_chosen_seeds:
            raise Refused(400, "a seed may be chosen only when one person plays (practice, puzzles): with two or "
                               "more people, whoever chose it would know every deck")
        await self._check_client_bounds(client, bots_only=humans == 0)
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
                    display = display or account.name
                    profile = profile or (account.name if name == "pokemon" else None)
                tokens[i] = new_secret()
                infos.append(SeatInfo(seat=i, kind=HUMAN, bot=None, name=display, token_hash=secret_hash(tokens[i]),
                                      profile=profile, account_id=holder))
            elif kind == BOT:
                bot = spec.get("bot") or "greedy"
                if bot not in SERVER_BOTS:
                    raise Refused(400, f"unknown bot {bot!r}; the server's bots are {', '.join(SERVER_BOTS)}")
                if spec.get("profile") is not None or spec.get("mine"):
                    raise Refused(400, f"seat {i} is a bot: only a person's seat keeps a Pokédex or an account")
                infos.append(SeatInfo(seat=i, kind=BOT, bot=bot, name=display or bot_display_name(bot), token_hash=None))
            else:
                raise Refused(400, f"seat {i} must be of kind human or bot, not {kind!r}")
        try:
            game = new_game(name, players=len(seats), seed=seed, **options)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        game_id = uuid.uuid4().hex
        owner = client_key(client)
        await self._write(lambda: self.store.create(game_id, name, game.players, game.seed, game.options, infos,
                                                    owner=owner, bot_turn=_bot_turn(game, infos)))
        live = LiveGame(id=game_id, game=game, seats=infos, owner=owner)
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
            raise Refused(400, f"{', '.join(misplaced)} {'is a field' if len(misplaced) == 1 else 'are fields'} "
                               "of the new game, not options")
        if "board" in options:
            board = options["board"]
            if board is not None and (not isinstance(board, list) or not board
                                      or not all(isinstance(b, str) and len(b) <= 16 for b in board)):
                raise Refused(400, "a board on the server is a list of shipped side names, e.g. "
                                   '["A1-front", "A2-back", "A3-front"]')

    async def _check_client_bounds(self, client: str, bots_only: bool) -> None:
        """The bounds on a client's unfinished games, counted in the store (whichever process made them)."""
        mine, between_bots = await self._read(lambda: self.store.unfinished_of(client_key(client)))
        if mine >= self.settings.games_per_client:
            raise Refused(429, f"you have {mine} unfinished games on this server, the most allowed: finish "
                               "one first")
        if bots_only and between_bots >= self.settings.bot_games_per_client:
            raise Refused(429, f"you have {self.settings.bot_games_per_client} unfinished games between bots, the "
                               "most allowed: wait for one to end")

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
            owned = await self._read(lambda: self.pokedex.owns(name, secret))
        except ValueError as e:
            raise Refused(400, f"seat {seat}: {e}") from None
        if not owned:
            raise Refused(403, f"seat {seat}: wrong or missing secret for the profile {name!r}")
        return name

    async def get(self, game_id: str, refresh: bool = True) -> LiveGame:
        """A live game, or a finished one (kept in a bounded cache, or read back from the store); with
        ``refresh``, brought up to date with what other processes committed."""
        live = self.live.get(game_id)
        if live is not None:
            live.seen = time.monotonic()
            if refresh and self.shared:          # a reader who acted through another process sees their action
                await self._refresh(live)
            return live
        live = self.finished.get(game_id)
        if live is not None:
            self.finished.move_to_end(game_id)
            return live
        stored = await self._read(lambda: self.store.load(game_id)) if _plausible_id(game_id) else None
        if stored is None:
            raise Refused(404, _("no game {game}", game=repr(game_id)))
        live = self.live.get(game_id) or self._rebuild(stored)     # another request may have read it meanwhile
        if live.game.is_over:
            self._keep_finished(live)
        else:                                                      # unfinished: this process holds it now
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
            raise Refused(404, _("there is no seat {seat}; seats are 0 to {last}", seat=seat,
                                 last=len(live.seats) - 1))
        info = live.seats[seat]
        if info.kind != HUMAN:
            raise Refused(403, _("seat {seat} is played by a bot", seat=seat))
        if account is not None and info.account_id == account.id:
            return
        if not secret_matches(token, info.token_hash):
            raise Refused(403, _("wrong or missing secret for seat {seat}", seat=seat))

    async def give_seat(self, game_id: str, seat: int, token: str | None, account: SignedIn) -> LiveGame:
        """Let the signed-in account hold a seat whose secret it shows (a link a friend sent): from then on it
        plays the seat from any browser, the game counts for its rating, and in Pokémon marks its Pokédex."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        info = live.seats[seat]
        if info.account_id == account.id:
            return live
        if info.account_id is not None:
            raise Refused(409, _("this seat is already kept in another account"))
        if live.game.is_over:
            raise Refused(409, _("the game is over"))
        async with live.lock:
            profile = account.name if live.game.name == "pokemon" else None
            if not await self._read(lambda: self.store.give_seat(game_id, seat, account.id, profile)):
                raise Refused(409, _("this seat is already kept in another account"))
            live.seats = await self._read(lambda: self.store.seats(game_id))
        self.broadcast(live)
        return live

    async def link_profile(self, game_id: str, seat: int, token: str | None, profile: str,
                           secret: str | None, account: SignedIn | None = None) -> LiveGame:
        """Link a seat to the Pokédex profile its holder proves they own: the game marks it when it ends."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        async with live.lock:
            if live.game.is_over:
                raise Refused(409, "the game is over: its Pokédex marks are already given")
            name = await self._proved_profile(live.game.name, seat, profile, secret)
            assert name is not None
            await self._write(lambda: self.store.set_profile(game_id, seat, name))
            live.seats = [replace(s, profile=name) if s.seat == seat else s for s in live.seats]
        self.broadcast(live)
        return live

    # ----------------------------------------------------------------- hints

    async def hint(self, game_id: str, seat: int, token: str | None, client: str,
                   account: SignedIn | None = None) -> dict[str, Any]:
        """What the strongest bot would play for ``seat`` (its secret checked) in its decision now, and its
        estimated chance of winning. A position is searched once: asking again, or from another tab, gets the
        same answer, so hints cannot be used to load the search workers."""
        live = await self.get(game_id)
        self.check_seat(live, seat, token, account)
        game = live.game
        if game.is_over:
            raise Refused(409, _("the game is over"))
        if seat != game.current_player:
            raise Refused(409, _("it is not your decision: seat {seat} decides now", seat=game.current_player))
        number = len(game.history)
        known = live.hints.get(seat)
        if known is None or known[0] != number:
            task = asyncio.ensure_future(self.bots.hint(client, game.record.to_text(), bot_seed(live.id, number)))
            known = live.hints[seat] = (number, task)
        try:
            advice = await asyncio.shield(known[1])
        except Exception as e:                                      # noqa: BLE001 - said, never lost silently
            if live.hints.get(seat) is known:                   # asked again later, not for a newer position
                del live.hints[seat]
            log.exception("game %s: the hint failed", game_id)
            raise Refused(503, _("no hint can be given now; try again in a moment")) from e
        return {**advice, "actions": number}

    # ----------------------------------------------------------------- acting

    async def act(self, game_id: str, seat: int, text: str, token: str | None = None,
                  expect: int | None = None, by_bot: bool = False, account: SignedIn | None = None) -> LiveGame:
        """Accept one action for ``seat`` or refuse it with the rule's message; the state changes only once the
        action is committed to the store. The action is judged against the game as the store has it: committing
        it as action N succeeds only if no process committed an N before, and when the judgement or the commit
        fails, what other processes committed is applied and the action judged again."""
        live = await self.get(game_id, refresh=False)
        if not by_bot:
            self.check_seat(live, seat, token, account)
        async with live.lock:
            try:
                await self._accept(live, seat, text, expect)
            except Refused:
                # Judged against this process's copy, which another process may have moved past: if so, judge
                # again against the store's newest state (this costs a read only when an action is refused; an
                # accepted one proves the copy was current, since action N commits only where none has).
                if not self.shared or not await self._catch_up(live):
                    raise
                try:
                    await self._accept(live, seat, text, expect)
                except Refused:
                    self._after_change(live)
                    raise
        self._after_change(live)
        return live

    async def _accept(self, live: LiveGame, seat: int, text: str, expect: int | None) -> None:
        """With the game's lock held: check the action, commit it, then make it the game's state."""
        game = live.game
        if game.is_over:
            raise Refused(409, _("the game is over"))
        if expect is not None and expect != len(game.history):
            raise Refused(409, _("the game has moved on: {actions} actions, not {expected}",
                                 actions=len(game.history), expected=expect))
        if seat != game.current_player:
            raise Refused(409, _("it is not your decision: seat {seat} decides now", seat=game.current_player))
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
        await self._write(lambda: self.store.append(live.id, number, seat, action.text, after.status, marks,
                                                    bot_turn=_bot_turn(after, live.seats), finish=finish),
                          committed=lambda: self.store.action_at(live.id, number) == action.text)
        live.game = after
        live.log.append(_log_entry(number, game, action, after))
        log.info("game %s: seat %d played %s", live.id, seat, action.text)

    @staticmethod
    def _rating(live: LiveGame, after: Game) -> Callable[[Connection], None]:
        """What the game's last action also writes: the ratings of its accounts, when the game is rated."""
        seats = [RatedSeat(s.seat, account_id=s.account_id, bot_rating=BOT_RATINGS.get(s.bot or "")
                           if s.kind == BOT else None) for s in live.seats]
        return lambda conn: rate_game(conn, live.id, after.name, seats, list(after.winners))

    @staticmethod
    def _pokedex_marks(live: LiveGame, after: Game) -> list[tuple[str, list[str]]]:
        """A finished Pokémon game marks the Pokédex of the human seats that proved a profile."""
        if after.name != "pokemon" or not after.is_over:
            return []
        caught = after.result["pokedex"]
        return [(s.profile, caught[s.seat]) for s in live.seats if s.kind == HUMAN and s.profile]

    # ----------------------------------------------------------------- the store, retried

    async def _write(self, write: Callable[[], None], committed: Callable[[], bool] | None = None) -> None:
        """Run a write in a thread, retrying while the store refuses it (locked, full, unreachable) for up to
        ``write_retry_seconds``; then refuse with a 503 (nothing changed). A retry that meets its own earlier
        write (an attempt that committed but reported failure) counts as done."""
        deadline = time.monotonic() + self.settings.write_retry_seconds
        delay, failed = 0.05, False
        while True:
            try:
                await asyncio.to_thread(write)
                return
            except IntegrityError:
                if failed and committed is not None and await asyncio.to_thread(committed):
                    return
                raise Refused(409, _("the game has moved on: another action was accepted first")) from None
            except SQLAlchemyError as e:
                failed = True
                reason = _store_problem(e)
                log.warning("the store refused a write (%s); %s", reason,
                            "retrying" if time.monotonic() + delay < deadline else "giving up")
                if time.monotonic() + delay >= deadline:
                    raise Refused(503, f"the game store cannot take writes now ({reason}); nothing changed: "
                                       "try again in a moment") from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    @staticmethod
    async def _read(read: Callable[[], Any]) -> Any:
        try:
            return await asyncio.to_thread(read)
        except SQLAlchemyError as e:
            raise Refused(503, f"the game store cannot be read now ({_store_problem(e)}); try again in a "
                               "moment") from None

    # ----------------------------------------------------------------- bots

    def _schedule_bot(self, live: LiveGame, after: float = 0.0) -> None:
        game = live.game
        if self._closing or game.is_over or (live.bot_task is not None and not live.bot_task.done()):
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
                live.bot_task = None                     # another process moves this game's bots
                return
            text = await self.bots.move(live.owner, game.record.to_text(), spec, bot_seed(live.id, number))
            pause = 0.0 if live.bots_only else self.settings.bot_pause_seconds   # people see each move happen
            if started + pause > time.monotonic():
                await asyncio.sleep(started + pause - time.monotonic())
            live.bot_task = None
            await self.act(live.id, seat, text, expect=number, by_bot=True)
            live.bot_failures = 0
        except asyncio.CancelledError:
            raise
        except Refused as e:
            live.bot_task = None
            if e.status == 409:                           # the game moved on meanwhile: decide again now
                self._schedule_bot(live)
                return
            self._retry_bot(live, spec, e.message)
        except Exception as e:                                     # noqa: BLE001 - a bot must not kill the loop
            log.exception("game %s: bot %s failed", live.id, spec)
            live.bot_task = None
            self._retry_bot(live, spec, repr(e))

    def _retry_bot(self, live: LiveGame, spec: str, why: str) -> None:
        """A bot whose move could not be made tries again later (backing off to 30 s), never gives up."""
        live.bot_failures += 1
        delay = min(30.0, 0.25 * 2 ** live.bot_failures)
        log.warning("game %s: bot %s will try again in %.1f s: %s", live.id, spec, delay, why)
        self._schedule_bot(live, after=delay)

    # ----------------------------------------------------------------- watchers

    def watch(self, live: LiveGame, socket: WebSocket, seat: int | None) -> Watcher:
        """A new watcher of the game, sent the current state at once."""
        watcher = Watcher(socket, seat, self.settings.watcher_queue, self.settings.send_timeout)
        if len(live.watchers) >= self.settings.watchers_per_game:
            watcher.close(TOO_SLOW, f"this game has {len(live.watchers)} watchers, the most allowed")
            return watcher
        live.watchers.append(watcher)
        watcher.push(_state_text(live, seat))
        return watcher

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
    """A short reason for a store error, without SQL or parameters."""
    original = getattr(e, "orig", None) or e
    first = str(original).strip().splitlines()
    return (first[0] if first else type(original).__name__)[:100]


def _plausible_id(game_id: str) -> bool:
    return len(game_id) == 32 and all(c in "0123456789abcdef" for c in game_id)
