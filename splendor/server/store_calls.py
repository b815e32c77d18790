"""The server's calls to the store: each in a store thread, within a deadline, a refused write retried.

Reads are waited for at most ``Settings.store_seconds``; writes are retried while the store refuses them (locked,
full, unreachable) for up to ``Settings.write_retry_seconds``. Past either bound the request is refused with a 503
that says the store is unavailable; the detail, which may name the database's address, goes only to the log. A
write that was sent and never answered may still commit: its 503 says so (`UNSURE`), and the game's copy is read
again before it is trusted.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from splendor.i18n import _
from splendor.server.deadline import StoreTimeout, in_store_time
from splendor.server.errors import Refused
from splendor.server.settings import Settings
from splendor.store.clocks import OutOfTime
from splendor.store.games import GameMovedOn

log = logging.getLogger("splendor.server")

UNSURE = _(
    "the store did not answer in time: this may or may not have been saved; reload to see, and try again if it was not"
)
"""The 503 of a write that was sent but not answered: it may still commit, so no "nothing changed"."""
UNAVAILABLE = _("the store is unavailable, try again in a moment")
MOVED_ON = _("the game has moved on: another action was accepted first")
OUT_OF_TIME = _("your time has run out: the game is being ended on time")
THEIR_TIME_RAN_OUT = _("the time of the player to move has run out: the game is being ended on time")
ATTEMPT_SECONDS = 1.5
"""The least time one attempt of a write is waited for, even when it starts just before the retry deadline: more
than SQLite's lock wait (``BUSY_TIMEOUT_MS``), so that a locked store is told apart from a silent one."""
_unsure_write: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar("unsure_write", default=None)
"""The request (its task) whose write's outcome is unknown: a read failing later in it says so too, rather than
a plain "unavailable" that would hide that the write may have been saved."""


def unsure(refusal: Refused) -> bool:
    """Whether ``refusal`` is of a write whose outcome is unknown (it may still commit)."""
    return refusal.message is UNSURE


async def read(settings: Settings, call: Callable[[], Any]) -> Any:
    """Run a read in a store thread, waited for at most ``store_seconds``; a 503 when the store fails or does not
    answer in time (the detail goes to the log, never to the client: it may name the database's address)."""
    try:
        return await in_store_time(call, settings.store_seconds)
    except SQLAlchemyError as e:
        log.warning("the store could not be read: %s", store_problem(e))
        if _unsure_write.get() is asyncio.current_task():  # a read after this request's unsure write
            raise Refused(503, UNSURE) from None
        raise Refused(503, UNAVAILABLE) from None


async def write(settings: Settings, call: Callable[[], None], committed: Callable[[], bool] | None = None) -> None:
    """Run a write in a store thread, retrying while the store refuses it (locked, full, unreachable) for up to
    ``write_retry_seconds``; then refuse with a 503 that says the store is unavailable (the detail goes to the
    log: it may name the database's address). A retry that meets its own earlier write (an attempt that committed
    but reported failure: ``committed`` says whether it did) counts as done.

    No attempt is waited for past the deadline: a database that does not answer at all (stopped, cut off) gets a
    503 in ``write_retry_seconds``, not whenever it wakes. An attempt that had begun may still commit after that,
    so the 503 then says the action may have been accepted (`UNSURE`): on PostgreSQL the next read of the game
    catches up with whatever the store holds (and the change feed announces a late commit). The last attempt is
    given at least ``ATTEMPT_SECONDS`` (more than SQLite's lock wait), so the bound is ``write_retry_seconds`` plus
    at most that."""
    deadline = time.monotonic() + settings.write_retry_seconds
    delay, failed = 0.05, False
    while True:
        try:
            await in_store_time(call, max(ATTEMPT_SECONDS, deadline - time.monotonic()))
            return
        except StoreTimeout as e:
            if e.started and e.pending is not None:
                log.warning("a write to the store got no answer in time: its outcome is unknown")
                e.pending.add_done_callback(_late_write)
                _unsure_write.set(asyncio.current_task())
                raise Refused(503, UNSURE) from None
            log.warning("a write to the store was not started in time (the store is slow or silent)")
            raise Refused(503, UNAVAILABLE) from None
        except IntegrityError:
            if failed and committed is not None and await read(settings, committed):
                return
            raise Refused(409, MOVED_ON) from None
        except OutOfTime as e:
            raise Refused(409, OUT_OF_TIME if e.theirs else THEIR_TIME_RAN_OUT) from None
        except GameMovedOn:
            raise Refused(409, MOVED_ON) from None
        except SQLAlchemyError as e:
            failed = True
            giving_up = time.monotonic() + delay >= deadline
            log.warning(
                "the store refused a write (%s); %s", store_problem(e), "giving up" if giving_up else "retrying"
            )
            if giving_up:
                raise Refused(503, UNAVAILABLE) from None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)


async def made(settings: Settings, call: Callable[[], bool]) -> bool:
    """Run a conditional write (one that answers whether its condition held, e.g. the game still stands where it
    was read) as `write` does, and return whether it was made. A retry whose condition no longer holds may have
    met the change of an attempt that committed and reported failure: its outcome is unknown, said as a write
    left unanswered is (503, `UNSURE`), so that the game is read again before it is trusted."""
    answers: list[bool] = []
    attempts = 0

    def attempt() -> None:
        nonlocal attempts
        attempts += 1
        answers.append(call())

    await write(settings, attempt)
    if answers == [True]:
        return True
    if attempts > 1:
        log.warning("a conditional write was retried and its condition no longer held: its outcome is unknown")
        _unsure_write.set(asyncio.current_task())
        raise Refused(503, UNSURE)
    return False


def store_problem(e: BaseException) -> str:
    """A short reason for a store error, without SQL or parameters, for the server's log only: it may name the
    database's address (``connection to server at "10.0.0.5", port 5432 failed``), which clients never see."""
    original = getattr(e, "orig", None) or e
    first = str(original).strip().splitlines()
    return f"{type(original).__name__}: {(first[0] if first else '')[:100]}"


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
            store_problem(problem) if isinstance(problem, SQLAlchemyError) else type(problem).__name__,
        )
