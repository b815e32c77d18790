"""The expert's review of a finished game on the server: asked for once, computed in the bot workers, kept.

``POST /api/games/{id}/review`` starts the review of a finished game (`splendor.bots.review`: every move judged
by the expert from the mover's view only) and answers 202 with its progress while it runs, 200 with the review
once it is kept; ``GET`` answers the same without starting anything (404 when nobody asked). A game still in
play is refused (409): its hidden cards are still in play, and its record is not published yet.

The review's moves are searched one at a time by the search workers (`BotPool.search`), each taking its turn in
the same fair order as the search bots' moves, so a review never holds a worker for long nor stalls a game: a
move is about a second of search (the expert's budget, as ``splendor review``; ``Settings.review_iterations``
may lower it). A game of more than ``REVIEW_MOVES`` actions (the rules bound no game's length: two players can
trade a token back and forth for ever) shares that many moves' budget among its moves (`review_iterations`), so
that no review holds the workers for hours; the review says the iterations it spent a move. A game of more than
``REVIEW_MOST`` actions is not reviewed (409): replaying each move's position would cost more than its search.
Reviews are bounded in each process, not across processes: per client address (one running at a time here: 429
beyond) and in all (``Settings.reviews_at_once`` here: 503 beyond); the bounds are checked and the review reserved
with no ``await`` between, so requests at once cannot all pass them. A review is claimed in the store
(`ReviewStore.claim`) before it is computed, so exactly one process computes it, any process answers
202 with its progress (written to the store after each move), and the finished review is kept and served from
there by any process. A claim with no progress for ``STALE_SECONDS`` is of a process that stopped: ``GET``
answers 404 for it and ``POST`` takes it over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from splendor.bots.hint import HINT_LEVEL
from splendor.bots.review import NotFinished, assemble, review_move
from splendor.core.record import Record
from splendor.i18n import _
from splendor.search.levels import level
from splendor.server import store_calls
from splendor.server.bots import WorkersStopped
from splendor.server.errors import Refused
from splendor.server.guards import client_address
from splendor.server.schemas import refusals
from splendor.server.settings import Settings
from splendor.store.reviews import Claim, ReviewStore, StoredReview

if TYPE_CHECKING:
    from splendor.server.live import GameManager

log = logging.getLogger("splendor.server")

REVIEW_SEED = 0
"""The search seed of every review on the server: ``splendor review``'s default, so that the command with the
same ``--iterations`` (and no ``--seed``) prints the same review of the game's record. Each move's search is
seeded with it and the move's number (`splendor.bots.review`), in whichever worker it runs."""

REVIEW_MOVES = 600
"""The most moves a review searches at its full budget a move; a longer game's moves share that budget."""

REVIEW_MOST = 2000
"""The longest game reviewed (actions; 409 beyond). Each move's search replays the record to its position, so a
review's replaying grows with the square of the game's length: 2,000 actions replay in about 40 s in all, where
10,000 would take about 20 minutes on top of the search."""

STALE_SECONDS = 120.0
"""A running review's claim with no progress written for this long is of a process that stopped (a move is about
a second of search, and waits its turn behind the bots' moves): its review may be asked for again."""

_RUNNING = {"description": "the review is under way: its progress", "content": {"application/json": {}}}
_DONE = {"description": "the review, kept", "content": {"application/json": {}}}
_NONE = {"description": "no review kept or running: nobody asked for one, or its process stopped (ask again)"}


@dataclass
class Running:
    """A review under way in this process: the game, the client that asked, its moves reviewed so far."""

    game_id: str
    client: str
    total: int
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None

    def answer(self) -> dict[str, Any]:
        return {
            "status": "running",
            "id": self.game_id,
            "done": self.done,
            "total": self.total,
            "elapsed": round(time.monotonic() - self.started, 1),
        }


def review_iterations(settings: Settings, game: str, moves: int) -> int | None:
    """The iterations a move of a review of ``moves`` actions of ``game`` is searched with: the server's (None:
    the expert's budget), or for a game of more than ``REVIEW_MOVES`` its share of ``REVIEW_MOVES`` moves' budget.

    >>> review_iterations(Settings(review_iterations=1000), "classic", 6000)
    100
    """
    if moves <= REVIEW_MOVES:
        return settings.review_iterations
    full = settings.review_iterations or level(game, HINT_LEVEL).compiled_iterations
    return max(1, full * REVIEW_MOVES // moves)


def done_answer(kept: StoredReview) -> dict[str, Any]:
    """A finished review as the route answers it: ``{"status": "done", ...the review}``."""
    return {"status": "done", **kept.body}


def claim_answer(claim: Claim) -> dict[str, Any]:
    """The progress of a review running in some process, as its claim in the store says."""
    return {
        "status": "running",
        "id": claim.game_id,
        "done": claim.done,
        "total": claim.actions,
        "elapsed": round(max(0.0, claim.elapsed), 1),
    }


class Reviews:
    """The reviews of one server process: those running here, and the store of those done."""

    def __init__(self, manager: GameManager, store: ReviewStore, settings: Settings) -> None:
        self.manager = manager
        self.store = store
        self.settings = settings
        self.running: dict[str, Running] = {}
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        """This process's name on its claims in the store."""

    async def _known(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        """The review as far as it is known: (200, kept), (202, running here or claimed by a live process), else
        None (never asked, or its process stopped)."""
        running = self.running.get(game_id)
        if running is not None:
            return 202, running.answer()
        found = await self._look(game_id)
        if isinstance(found, StoredReview):
            return 200, done_answer(found)
        if found is not None and not found.stale:
            return 202, claim_answer(found)
        return None

    async def look(self, game_id: str) -> tuple[int, dict[str, Any]]:
        """The review of ``game_id``: (200, kept), (202, its progress, whichever process runs it), (204, nothing)
        when none is kept or running (nobody asked, or its process stopped), or 404 for no such game."""
        known = await self._known(game_id)
        if known is not None:
            return known
        await self.manager.get(game_id)  # 404 for no such game
        return 204, {}

    async def start(self, game_id: str, client: str) -> tuple[int, dict[str, Any]]:
        """Start the review of finished game ``game_id`` for ``client``, unless it runs (in any process) or is
        kept already. The bounds are this process's: checked, and the review reserved, with no ``await``
        between; then claimed in the store, where another process's claim wins."""
        known = await self._known(game_id)
        if known is not None:
            return known
        live = await self.manager.get(game_id)
        if not live.over:
            raise Refused(409, NotFinished().reason)
        record = live.published_record()
        if len(record.actions) > REVIEW_MOST:
            raise Refused(
                409,
                _(
                    "this game is too long to review: {n} actions, where a review covers at most {most}",
                    n=len(record.actions),
                    most=REVIEW_MOST,
                ),
            )
        # From here to the reservation, no await: another request cannot pass the same checks meanwhile.
        running = self.running.get(game_id)
        if running is not None:
            return 202, running.answer()
        if any(r.client == client for r in self.running.values()):
            raise Refused(429, _("a review you asked for is still running: wait for it to finish"))
        if len(self.running) >= self.settings.reviews_at_once:
            raise Refused(503, _("the expert is busy with other reviews: try again in a minute"))
        running = self.running[game_id] = Running(game_id, client, len(record.actions))
        try:
            other = await self._claim(running)
        except BaseException:
            self.running.pop(game_id, None)
            raise
        if other is not None:  # another process claimed it (or kept it) first: it answers for it
            self.running.pop(game_id, None)
            if isinstance(other, StoredReview):
                return 200, done_answer(other)
            return 202, claim_answer(other)
        running.task = asyncio.create_task(self._run(running, record))
        return 202, running.answer()

    async def _look(self, game_id: str) -> StoredReview | Claim | None:
        found: StoredReview | Claim | None = await store_calls.read(
            self.settings, lambda: self.store.look(game_id, STALE_SECONDS)
        )
        return found

    async def _claim(self, running: Running) -> StoredReview | Claim | None:
        """Claim ``running``'s review in the store: None when this process is to compute it."""
        outcome: list[StoredReview | Claim | None] = []

        def claim() -> None:
            outcome[:] = [self.store.claim(running.game_id, running.total, self.owner, STALE_SECONDS)]

        await store_calls.write(self.settings, claim)
        return outcome[0]

    async def _run(self, running: Running, record: Record) -> None:
        """Review every move in the search workers, one at a time, then keep the review (the first kept wins)."""
        iterations = review_iterations(self.settings, record.game, running.total)
        text = record.to_text()
        kept = False
        try:
            moves = []
            for number in range(1, running.total + 1):
                move = await self.manager.bots.search(
                    running.client, review_move, text, number, iterations, REVIEW_SEED
                )
                moves.append(move)
                running.done = number
                if not await self._progress(running):
                    log.warning("game %s: the review's claim was taken over or kept elsewhere", running.game_id)
                    return
            review = await asyncio.to_thread(assemble, record, moves, iterations, REVIEW_SEED)
            body = {"id": running.game_id, "actions": running.total, **review.as_dict()}

            def keep() -> None:
                self.store.put(running.game_id, running.total, body)

            await store_calls.write(self.settings, keep)
            kept = True
        except WorkersStopped:  # the server stops: the review is asked for again after its start
            log.info("game %s: the review stopped with the server", running.game_id)
        except Exception:  # a failed review is logged, nothing is kept, and it may be asked for again
            log.exception("game %s: the review failed", running.game_id)
        finally:
            self.running.pop(running.game_id, None)
            if not kept:
                await self._release(running)

    async def _progress(self, running: Running) -> bool:
        """Write ``running``'s progress to its claim (other processes answer with it): False when the claim is no
        longer this process's."""
        outcome: list[bool] = []

        def note() -> None:
            outcome[:] = [self.store.progress(running.game_id, self.owner, running.done)]

        await store_calls.write(self.settings, note)
        return outcome[0]

    async def _release(self, running: Running) -> None:
        """Drop this process's claim of a review that failed, so that it may be asked for again (if the store
        cannot be reached, the claim goes stale and is taken over later)."""
        try:
            await store_calls.write(self.settings, lambda: self.store.release(running.game_id, self.owner))
        except Exception:
            log.warning("game %s: the failed review's claim could not be dropped", running.game_id)


def reviews_of(request: Request) -> Reviews:
    """This process's reviews, made at the first request that needs them."""
    state = request.app.state
    reviews: Reviews | None = getattr(state, "reviews", None)
    if reviews is None:
        manager: GameManager = state.manager
        reviews = state.reviews = Reviews(manager, ReviewStore(state.store), manager.settings)
    return reviews


def reviews_router() -> APIRouter:
    """The routes of reviews."""
    router = APIRouter()

    @router.post("/api/games/{game_id}/review", responses={200: _DONE, 202: _RUNNING, **refusals(404, 409)})
    async def ask_review(game_id: str, request: Request) -> JSONResponse:
        """Start the expert's review of a finished game: every move judged from the mover's view only, each
        seat's win chance move by move, the inaccuracies, mistakes and blunders with the expert's preferred
        moves. 202 with its progress (``done`` of ``total`` moves) while it runs, 200 with the review once kept.
        Refused while the game is in play (409), while this address has another review running in this process
        (429), and when this process runs as many reviews as it may (503)."""
        status, body = await reviews_of(request).start(game_id, client_address(request.scope))
        return JSONResponse(body, status_code=status)

    @router.get("/api/games/{game_id}/review", responses={200: _DONE, 202: _RUNNING, 204: _NONE, **refusals(404)})
    async def get_review(game_id: str, request: Request) -> Response:
        """A game's review: 200 with it once kept, 202 with its progress while it runs (in any process), 204 when
        none is kept or running (nobody asked for it, or its process stopped: ask again), 404 for no such game.
        Not a 404 for a game with no review: the replay asks at every opening, and the browser showed each as a
        failed request in its console."""
        status, body = await reviews_of(request).look(game_id)
        return Response(status_code=204) if status == 204 else JSONResponse(body, status_code=status)

    return router
