"""The store's deadline: a call into the store runs in a thread and is waited for at most so long.

A database that does not answer at all (a stopped or partitioned server: nothing is refused, the socket simply stays
silent) would otherwise hold every request that touches it for as long as it is silent, while the server looks
healthy. ``in_store_time`` gives up waiting after a deadline and raises ``StoreTimeout``, a ``SQLAlchemyError``,
so every handler of store failures (the app's generic 503) treats it as the store being unavailable. The thread
itself cannot be stopped: it goes on until the database answers, and ``StoreTimeout`` says whether it had begun
(then whatever it did may still happen) or was still waiting for a thread (then it never runs).

A request may call the store several times (a write, then a read to judge again; a lock held by another request
stuck on the store, then its own read): ``RequestDeadline`` gives each HTTP request one deadline for all of them,
so that the request as a whole answers within it, not each call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Receive, Scope, Send

T = TypeVar("T")

STORE_THREADS = 16
"""Threads that run store calls: one more than a process's connection pool (5, plus 10 overflow), so that calls
stuck on a silent database hold these threads, never the event loop's default ones (password hashing, shutdown)."""

_executor = concurrent.futures.ThreadPoolExecutor(max_workers=STORE_THREADS, thread_name_prefix="splendor-store")


class StoreTimeout(SQLAlchemyError):
    """The store did not answer within the deadline.

    ``started``: whether the call had begun (its effects, for a write, may still happen once the database answers)
    or was still queued (it was cancelled and never runs). ``pending``: the call's own future, done once the thread
    is, to learn how it ended (None when the request's deadline had passed before the call was made)."""

    def __init__(self, seconds: float, started: bool, pending: concurrent.futures.Future[Any] | None) -> None:
        super().__init__(f"the store did not answer within {seconds:g} s")
        self.seconds, self.started, self.pending = seconds, started, pending


async def in_store_time(fn: Callable[[], T], seconds: float) -> T:
    """Run ``fn`` (a call into the store) in a store thread and wait for it at most ``seconds``.

    Returns what ``fn`` returns and raises what it raises; ``StoreTimeout`` when the deadline passes first, or
    the deadline of the HTTP request being served (``RequestDeadline``) if that comes sooner. Use it for every
    store call made on behalf of a request, so that a silent database answers 503 in bounded time."""
    bound = _request_deadline.get()
    if bound is not None and bound[0] is asyncio.current_task():
        seconds = min(seconds, bound[1] - time.monotonic())
    if seconds <= 0:
        raise StoreTimeout(0, False, None)
    context = contextvars.copy_context()
    future: concurrent.futures.Future[T] = _executor.submit(context.run, fn)
    future.add_done_callback(_retrieve)
    try:
        waited = asyncio.wrap_future(future)
        waited.add_done_callback(_retrieve)
        return await asyncio.wait_for(asyncio.shield(waited), max(0.0, seconds))
    except TimeoutError:
        started = not future.cancel()
        raise StoreTimeout(seconds, started, future) from None


def _retrieve(future: concurrent.futures.Future[Any] | asyncio.Future[Any]) -> None:
    """Read a finished call's exception, so that one nobody waits for any more is not reported as lost."""
    if not future.cancelled():
        future.exception()


_request_deadline: ContextVar[tuple[asyncio.Task[Any] | None, float] | None] = ContextVar(
    "store_deadline", default=None
)
"""The HTTP request's deadline for its store calls, with the task serving it: tasks the request starts (a bot's
turn, a refresh) copy the context but are not the request, and keep only their calls' own deadlines."""


@contextmanager
def more_request_time(seconds: float) -> Iterator[None]:
    """Within the block, the HTTP request being served has ``seconds`` more for its store calls: for work that is
    slow for a reason other than the store (a password's hash), whose own deadline would otherwise be cut to the
    request's. Outside a request, or in a task it started, nothing changes."""
    bound = _request_deadline.get()
    if bound is None or bound[0] is not asyncio.current_task():
        yield
        return
    token = _request_deadline.set((bound[0], bound[1] + seconds))
    try:
        yield
    finally:
        _request_deadline.reset(token)


class RequestDeadline:
    """Every HTTP request's store calls (``in_store_time``) end within ``seconds`` of its start, all together;
    WebSockets, which last, have only each call's own deadline."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token = _request_deadline.set((asyncio.current_task(), time.monotonic() + self.seconds))
        try:
            await self.app(scope, receive, send)
        finally:
            _request_deadline.reset(token)
