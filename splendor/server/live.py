"""Live games: each in memory with a lock, its seats, its watchers; every accepted action is committed to the
store before anyone hears of it, and bots think in worker processes."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.games import GAMES, new_game
from splendor.server.bots import SERVER_BOTS, bot_move, bot_seed
from splendor.server.guards import new_token, token_hash, token_matches
from splendor.store.games import GameStore, SeatInfo, StoredGame
from splendor.store.pokedex import check_profile_name

log = logging.getLogger("splendor.server")

HUMAN, BOT = "human", "bot"


class Refused(Exception):
    """A request the server refuses, with the HTTP status and a message the client may see."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Watcher:
    """A WebSocket that receives a seat's (or a spectator's) view after every change."""

    socket: WebSocket
    seat: int | None


@dataclass
class LiveGame:
    """A game being played: the engine's state, its seats, a lock that orders actions, and its watchers."""

    id: str
    game: Game
    seats: list[SeatInfo]
    log: list[dict[str, Any]] = field(default_factory=list)   # every action: seat and text (all public)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: list[Watcher] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None

    def seat_list(self) -> list[dict[str, Any]]:
        """The seats as anyone may see them (no secrets)."""
        return [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in self.seats]

    def payload(self, seat: int | None) -> dict[str, Any]:
        """What a seat (or a spectator) receives: the game's id, its seats and that seat's view."""
        return {"id": self.id, "game": self.game.name, "seats": self.seat_list(), "you": seat,
                "actions": len(self.game.history), "log": self.log[-60:], "view": self.game.view(seat)}


class GameManager:
    """Every live game of the server, and the one path by which an action is accepted."""

    def __init__(self, games: GameStore, bot_workers: int) -> None:
        self.store = games
        self.live: dict[str, LiveGame] = {}
        self._pool = ProcessPoolExecutor(max_workers=bot_workers, initializer=_worker_signals)
        self._closing = False

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Resume every unfinished game from its record, bots included."""
        stored = await asyncio.to_thread(self.store.unfinished)
        for s in stored:
            self.live[s.id] = self._rebuild(s)
        log.info("resumed %d unfinished game(s)", len(stored))
        for live in self.live.values():
            self._schedule_bot(live)

    async def stop(self) -> None:
        self._closing = True
        for live in self.live.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        await asyncio.to_thread(self._pool.shutdown, wait=True, cancel_futures=True)

    @staticmethod
    def _rebuild(s: StoredGame) -> LiveGame:
        game = new_game(s.game, players=s.players, seed=s.seed, **s.options)
        log = []
        for n, text in enumerate(s.actions, 1):
            log.append({"n": n, "seat": game.current_player, "action": text})
            game.apply(text)
        return LiveGame(id=s.id, game=game, seats=s.seats, log=log)

    # ----------------------------------------------------------------- creating and finding

    async def create(self, name: str, seats: list[dict[str, Any]], options: dict[str, Any],
                     seed: int | None) -> tuple[LiveGame, dict[int, str]]:
        """A new game; returns it and each human seat's secret (shown once, never stored)."""
        if name not in GAMES:
            raise Refused(404, f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
        if "board" in options and any(not isinstance(b, str) for b in options["board"] or []):
            raise Refused(400, "a board on the server is a list of shipped side names, e.g. A1-front")
        infos, tokens = [], {}
        for i, spec in enumerate(seats):
            kind = spec.get("kind")
            name_ = spec.get("name")
            if name_ is not None:
                try:
                    name_ = check_profile_name(name_)     # also the Pokédex profile a Pokémon game marks
                except ValueError as e:
                    raise Refused(400, f"seat {i}: {e}") from None
            if kind == HUMAN:
                tokens[i] = new_token()
                infos.append(SeatInfo(seat=i, kind=HUMAN, bot=None, name=name_, token_hash=token_hash(tokens[i])))
            elif kind == BOT:
                bot = spec.get("bot") or "greedy"
                if bot not in SERVER_BOTS:
                    raise Refused(400, f"unknown bot {bot!r}; the server's bots are {', '.join(SERVER_BOTS)}")
                infos.append(SeatInfo(seat=i, kind=BOT, bot=bot, name=name_ or bot, token_hash=None))
            else:
                raise Refused(400, f"seat {i} must be of kind human or bot, not {kind!r}")
        try:
            game = new_game(name, players=len(seats), seed=seed, **options)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        game_id = uuid.uuid4().hex
        await asyncio.to_thread(self.store.create, game_id, name, game.players, game.seed, game.options, infos)
        live = LiveGame(id=game_id, game=game, seats=infos)
        self.live[game_id] = live
        log.info("game %s created: %s for %d seats", game_id, name, game.players)
        self._schedule_bot(live)
        return live, tokens

    async def get(self, game_id: str) -> LiveGame:
        """A live game, or a finished one read back from the store."""
        live = self.live.get(game_id)
        if live is not None:
            return live
        stored = await asyncio.to_thread(self.store.load, game_id) if _plausible_id(game_id) else None
        if stored is None:
            raise Refused(404, f"no game {game_id!r}")
        live = self._rebuild(stored)
        self.live[game_id] = live
        return live

    @staticmethod
    def check_seat(live: LiveGame, seat: int | None, token: str | None) -> None:
        """Only the holder of a seat's secret acts for the seat and sees its hidden cards."""
        if seat is None:
            return
        if not 0 <= seat < len(live.seats):
            raise Refused(404, f"there is no seat {seat}; seats are 0 to {len(live.seats) - 1}")
        info = live.seats[seat]
        if info.kind != HUMAN:
            raise Refused(403, f"seat {seat} is played by a bot")
        if not token_matches(token, info.token_hash):
            raise Refused(403, f"wrong or missing secret for seat {seat}")

    # ----------------------------------------------------------------- acting

    async def act(self, game_id: str, seat: int, text: str, token: str | None = None,
                  expect: int | None = None, by_bot: bool = False) -> LiveGame:
        """Accept one action for ``seat`` or refuse it with the rule's message; the state changes only once the
        action is committed to the store."""
        live = await self.get(game_id)
        if not by_bot:
            self.check_seat(live, seat, token)
        async with live.lock:
            game = live.game
            if game.is_over:
                raise Refused(409, "the game is over")
            if expect is not None and expect != len(game.history):
                raise Refused(409, f"the game has moved on: {len(game.history)} actions, not {expect}")
            if seat != game.current_player:
                raise Refused(409, f"it is not your decision: seat {game.current_player} decides now")
            try:
                action = game.parse(text)
            except IllegalAction as e:
                raise Refused(400, str(e)) from None
            reason = game.why_illegal(action)
            if reason is not None:
                raise Refused(409, reason)
            after = game.clone()
            after.apply(action)
            marks = self._pokedex_marks(live, after)
            await asyncio.to_thread(self.store.append, game_id, len(after.history), seat, action.text,
                                    after.status, marks)
            live.game = after
            live.log.append({"n": len(after.history), "seat": seat, "action": action.text})
            log.info("game %s: seat %d played %s", game_id, seat, action.text)
        await self.broadcast(live)
        self._schedule_bot(live)
        return live

    @staticmethod
    def _pokedex_marks(live: LiveGame, after: Game) -> list[tuple[str, list[str]]]:
        """A finished Pokémon game marks the Pokédex of its named human seats."""
        if after.name != "pokemon" or not after.is_over:
            return []
        caught = after.result["pokedex"]
        return [(s.name, caught[s.seat]) for s in live.seats if s.kind == HUMAN and s.name]

    # ----------------------------------------------------------------- bots

    def _schedule_bot(self, live: LiveGame) -> None:
        game = live.game
        if self._closing or game.is_over or (live.bot_task is not None and not live.bot_task.done()):
            return
        seat = game.current_player
        if seat is None or live.seats[seat].kind != BOT:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(live, seat))

    async def _bot_turn(self, live: LiveGame, seat: int) -> None:
        game = live.game
        number = len(game.history)
        spec = live.seats[seat].bot or "greedy"
        try:
            text = await asyncio.get_running_loop().run_in_executor(
                self._pool, bot_move, game.to_json(), spec, bot_seed(live.id, number))
            live.bot_task = None
            await self.act(live.id, seat, text, expect=number, by_bot=True)
        except asyncio.CancelledError:
            raise
        except Refused as e:
            log.warning("game %s: bot %s's move was refused: %s", live.id, spec, e.message)
            live.bot_task = None
            self._schedule_bot(live)
        except Exception:                                          # noqa: BLE001 - a bot must not kill the loop
            log.exception("game %s: bot %s failed", live.id, spec)
            live.bot_task = None

    # ----------------------------------------------------------------- watchers

    async def watch(self, live: LiveGame, watcher: Watcher) -> None:
        live.watchers.append(watcher)
        await self._send(live, watcher)

    def unwatch(self, live: LiveGame, watcher: Watcher) -> None:
        if watcher in live.watchers:
            live.watchers.remove(watcher)

    async def broadcast(self, live: LiveGame) -> None:
        """Push every watcher its own view."""
        for watcher in list(live.watchers):
            await self._send(live, watcher)

    async def _send(self, live: LiveGame, watcher: Watcher) -> None:
        try:
            await watcher.socket.send_text(json.dumps({"type": "state", **live.payload(watcher.seat)},
                                                      separators=(",", ":")))
        except Exception:                                          # noqa: BLE001 - a closed socket
            self.unwatch(live, watcher)


def _worker_signals() -> None:
    """A bot worker is forked from the server and would inherit its graceful-shutdown handlers, and so outlive
    it: restore the default, so that stopping the server stops its workers."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _plausible_id(game_id: str) -> bool:
    return len(game_id) == 32 and all(c in "0123456789abcdef" for c in game_id)
