"""Bots on the server: which may sit at a table, the worker processes they think in, and the fair order in which
their decisions are served.

Workers are started with ``spawn`` (a fresh interpreter, not a fork of the server): they inherit neither the
listening socket nor the database's files, and each watches its parent and exits when the server dies, even by
``kill -9``, so a restart on the same port always works. Quick bots (random, greedy) have a worker of their
own, so their replies never wait behind a search; search decisions share the other workers, served round-robin
across the clients that created the games, so one client's many games cannot starve another's.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from splendor.bots.base import decide, make_bot
from splendor.bots.hint import hint
from splendor.bots.search import warm_compiled_search
from splendor.games import replay

log = logging.getLogger("splendor.server")

SERVER_BOTS = (
    "random",
    "greedy",
    "ismcts:easy",
    "ismcts:medium",
    "ismcts:hard",
    "ismcts:advanced",
    "ismcts:expert",
    "learned",
)
"""Bots a game on the server may seat (never an outside program: the server runs no command it is sent)."""

BOT_GAMES: dict[str, tuple[str, ...]] = {"learned": ("classic",)}
"""The games a server bot plays, for those that do not play all three: a learned policy plays only the game it
was trained on (`splendor.bots.learned.SHIPPED`). A game of another seating it is refused (400), and quick play
(`splendor.server.quick_play.bot_for`) seats only bots that play every game."""


def plays(spec: str, game: str) -> bool:
    """Whether the server bot ``spec`` plays ``game``.

    >>> plays("greedy", "kids"), plays("learned", "classic"), plays("learned", "pokemon")
    (True, True, False)
    """
    return game in BOT_GAMES.get(spec, (game,))


RATINGS_FILE = Path(__file__).with_name("bot_ratings.json")
"""The bots' ratings fitted from an arena run (`splendor ladder`, `splendor.arena.ladder`): the command that made
them, every pair's games and score, and each bot's μ and its standard error."""


def _fitted_ratings(path: Path = RATINGS_FILE) -> dict[str, tuple[float, float]]:
    fitted = json.loads(path.read_text(encoding="utf-8"))
    missing = [bot for bot in SERVER_BOTS if bot not in fitted["mu"]]
    if missing:
        raise RuntimeError(f"{path} rates no {', '.join(missing)}: run the command it names with every server bot")
    return {bot: (float(fitted["mu"][bot]), float(fitted["sigma"])) for bot in SERVER_BOTS}


BOT_RATINGS: dict[str, tuple[float, float]] = _fitted_ratings()
"""Each server bot's fixed rating (μ, σ) in rated games, never changed by games: fitted from an arena run of the
bots against one another (`RATINGS_FILE`; docs/bots.md, "The ladder"). Players see them on the Elo-like scale of
`splendor.store.ratings.shown` (1500 for a newcomer): random 1412, greedy 2126, easy 2313, medium 2545,
learned 2490, hard 2804, advanced 3001, expert 3082 (the runs of 2026-12-03 and -04: 40 games a pair, each bot
against the next two up the ladder; expert won 32 of 40 against hard, advanced 30, hard 33 of 40 against
medium)."""

T = TypeVar("T")

QUICK_BOTS = ("random", "greedy", "learned")
"""Bots that answer in milliseconds: they think in a worker of their own."""


def bot_seed(game_id: str, action_number: int, salt: str | None = None) -> int:
    """A bot's seed for one decision: the same after a restart, so a resumed game plays on identically. It
    derives from the game's secret ``salt`` (kept in the store, never shown), so nobody can compute a bot's moves
    from the public game id; games kept before salts existed (None) go on as they began.

    >>> bot_seed("ab" * 16, 3, "s1") == bot_seed("ab" * 16, 3, "s1") != bot_seed("ab" * 16, 3, "s2")
    True
    """
    key = f"{game_id}:{action_number}" if salt is None else f"{salt}:{game_id}:{action_number}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:6], "big")


def bot_move(record: str, spec: str, seed: int) -> str:
    """In a worker process: replay the game's record, let the bot decide for the seat to move (it sees only that
    seat's view and samples of what it cannot see), and return the action's text."""
    game = replay(record)
    return decide(make_bot(spec, seed=seed), game).text


def bot_hint(record: str, seed: int) -> dict[str, object]:
    """In a worker process: replay the game's record and ask the strongest bot what the seat to move should
    play (the search sees only that seat's view)."""
    return hint(replay(record), seed=seed)


def _ready() -> bool:
    return True


STOPPING = threading.Event()
"""Set when the server process is asked to stop (Ctrl-C, SIGTERM: ``splendor serve`` sets it as uvicorn begins its
shutdown). Ctrl-C in a terminal reaches the bot workers too, and they die with it; a pool that breaks then is
not started again, and its death is not an error (a first start, compiling, had logged one and started a new pool
as it stopped)."""


class WorkersStopped(BrokenProcessPool):
    """A decision cut short because the server stops (`STOPPING`): not a failure, and nothing to try again."""


def _worker_start(parent: int) -> None:
    """In each worker: ignore the server's shutdown signals' handlers, and exit as soon as the server is gone."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):  # Linux: the kernel kills us when the parent dies
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:  # everywhere: notice being orphaned within a second
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _search_worker_start(parent: int) -> None:
    """A search worker: as `_worker_start`, then load (or, the very first time, compile) the compiled search, so
    that no player's first decision against a search bot waits for Numba."""
    _worker_start(parent)
    warm_compiled_search()


class BotPool:
    """Worker processes for bot decisions, with a fair queue for the search bots."""

    def __init__(self, search_workers: int) -> None:
        self._search_workers = search_workers
        self._quick = self._started("quick")
        self._search = self._started("search")
        self.restarts = 0
        """How many times a pool was started again after one of its processes died."""
        self._free = search_workers
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def _started(self, which: str) -> ProcessPoolExecutor:
        """A new pool of ``which`` workers: the quick bots' one process, or the search's."""
        context, args = multiprocessing.get_context("spawn"), (os.getpid(),)
        if which == "quick":
            return ProcessPoolExecutor(1, mp_context=context, initializer=_worker_start, initargs=args)
        return ProcessPoolExecutor(
            self._search_workers, mp_context=context, initializer=_search_worker_start, initargs=args
        )

    async def _run(self, which: str, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker of the ``which`` pool. A worker process that died (the kernel's out-of-memory
        killer, a ``kill``) breaks its whole pool for good: the first call to meet it starts the pool again, and
        the call fails as before, for its caller to try again (a bot's turn does, backing off). A broken pool had
        stopped every bot of the process, for good, and every hint, while the server's health said ok."""
        pool: ProcessPoolExecutor = getattr(self, f"_{which}")
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, call, *args)
        except BrokenProcessPool:
            if STOPPING.is_set():  # stopped with the server: not started again
                raise WorkersStopped("the bot workers stopped with the server") from None
            if getattr(self, f"_{which}") is pool:  # the first to meet it starts it again; the others see it new
                log.error("a bot worker process died: the %s workers are started again", which)
                setattr(self, f"_{which}", self._started(which))
                self.restarts += 1
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def warm(self) -> None:
        """Start the workers now, so the first reply does not wait for an interpreter to start (nor a search
        worker for the compiled search to load)."""
        with contextlib.suppress(WorkersStopped):  # Ctrl-C as they start
            await asyncio.gather(self._run("quick", _ready), self._run("search", _ready))

    async def move(self, client: str, record: str, spec: str, seed: int) -> str:
        """The bot's action text for the game of ``record`` (its text), computed in a worker."""
        if spec in QUICK_BOTS:
            return await self._run("quick", bot_move, record, spec, seed)
        return await self.search(client, bot_move, record, spec, seed)

    async def hint(self, client: str, record: str, seed: int) -> dict[str, object]:
        """The hint for the seat to move in the game of ``record``, computed by a search worker in the same fair
        order as the search bots' moves."""
        return await self.search(client, bot_hint, record, seed)

    async def search(self, client: str, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` (a module-level function: it is sent to a worker) computed by a search worker, in the
        same fair order as the search bots' moves (a review's moves take their turns this way, one at a time)."""
        await self._take_slot(client)
        try:
            return await self._run("search", call, *args)
        finally:
            self._give_slot()

    async def _take_slot(self, client: str) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give_slot()  # the slot was handed over as we were cancelled
            else:
                queue = self._waiting.get(client)
                if queue is not None and turn in queue:
                    queue.remove(turn)
                    if not queue:
                        del self._waiting[client]
            raise

    def _give_slot(self) -> None:
        """Hand a freed slot to the next client in turn (round-robin), or keep it free."""
        while self._waiting:
            client, queue = next(iter(self._waiting.items()))
            turn = queue.popleft()
            if queue:
                self._waiting.move_to_end(client)
            else:
                del self._waiting[client]
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1

    def shutdown(self) -> None:
        """Stop the workers (waiting for none of the queued decisions)."""
        for pool in (self._quick, self._search):
            pool.shutdown(wait=True, cancel_futures=True)
