"""Where independent pieces of work run: here, in worker processes on this machine, or on Ray (a local Ray, or a
cluster's). The arena's games and self-play's games run through the same code.

A piece carries everything that decides it (its seeds among them), so its result is the same wherever it ran;
``spread`` gives the results in the order of the pieces, ``unordered`` as they finish.

>>> spread(abs, [-2, 3, -5])
[2, 3, 5]
>>> Workers(2, "cluster")
Traceback (most recent call last):
...
ValueError: unknown back end 'cluster'; the back ends are local, process, ray
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn, TypeVar

BACKENDS = ("local", "process", "ray")
"""``local``: one after another in this process; ``process``: worker processes on this machine; ``ray``: Ray
tasks, on a Ray started here for the run or on a running cluster (``address``)."""

P = TypeVar("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Workers:
    """Where to run: ``count`` workers (processes, or Ray tasks at once on a Ray started here) on ``backend``;
    ``address``, a running Ray cluster's (``ray``: a cluster runs as many tasks at once as it has cores)."""

    count: int = 1
    backend: str = "process"
    address: str | None = None

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"unknown back end {self.backend!r}; the back ends are {', '.join(BACKENDS)}")
        if self.count < 1:
            raise ValueError("workers must be 1 or more")
        if self.backend == "local" and self.count > 1:  # said, not ignored: the run would take as long as one's
            raise ValueError(
                f"the local back end plays one piece after another, in this process: {self.count} workers need "
                "the process back end (or ray)"
            )
        if self.address is not None and self.backend != "ray":
            raise ValueError("an address is a Ray cluster's: it needs the ray back end")


ONE_PROCESS = Workers()
"""Here, one piece after another."""


def unordered(fn: Callable[[P], R], pieces: Sequence[P], workers: Workers = ONE_PROCESS) -> Iterator[tuple[int, R]]:
    """``(i, fn(pieces[i]))`` for every piece, as each finishes. ``fn`` must be a module's function (worker
    processes and Ray import it by name). The process back end with one worker runs here."""
    if workers.backend == "local" or (workers.backend == "process" and workers.count == 1):
        for i, piece in enumerate(pieces):
            yield i, fn(piece)
    elif workers.backend == "process":
        others = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(max_workers=workers.count, initializer=_worker_signals)
        try:
            futures = {pool.submit(_piece, fn, piece): i for i, piece in enumerate(pieces)}
            for done in as_completed(futures):
                yield futures[done], done.result()
        except BaseException:
            # Stopped (Ctrl-C, SIGTERM, a failure, the results no longer wanted): the pieces not begun are dropped
            # and the workers stopped now, each as Ctrl-C stops it, what it started with it. Leaving the pool
            # whole had played out every piece first, hours of a training run's self-play.
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in set(multiprocessing.active_children()) - others:  # the pool's, not the caller's others
                worker.terminate()
            raise
        pool.shutdown()
    else:
        yield from _on_ray(fn, pieces, workers)


_in_piece = False
"""Whether this worker process is running a piece now (`_piece`)."""

STOP_HOOKS: list[Callable[[], None]] = []
"""What a stopped worker does before it ends, whatever its piece's cleanup got to: the outside bots' module puts
here the stop of every program it started (`splendor.bots.external`), which a stop landing in the cleanup itself
had left running."""


def _worker_signals() -> None:
    """A worker process's signals. Ctrl-C, which a terminal sends the whole group, is the parent's to answer: it
    stops the workers. The parent's stop (SIGTERM) ends a piece as Ctrl-C would, so that its own cleanup runs (an
    outside bot it started is stopped), and then the worker; an idle worker it ends at once. Forked, a worker had
    kept the parent's handlers: the stop was raised in its game, which the pool took for that piece's failure,
    and the worker went on to the next piece (a run stopped after a minute went on playing, or hung at its end)."""
    signal.signal(signal.SIGINT, _ignored)  # handled, not SIG_IGN, which a bot program started here would inherit
    signal.signal(signal.SIGTERM, _stopped)


def _ignored(signum: int, frame: object) -> None:
    """Ctrl-C in a worker: the parent's to answer."""


def _stopped(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # stopped once: the cleanup is not cut short by a second stop
    if _in_piece:
        raise KeyboardInterrupt
    _end(128 + signum)


def _end(status: int) -> NoReturn:
    for hook in STOP_HOOKS:
        with contextlib.suppress(Exception):
            hook()
    os._exit(status)


def _piece(fn: Callable[[P], R], piece: P) -> R:
    """``fn(piece)`` in a worker process; stopped there, the worker ends once the piece's cleanup has run."""
    global _in_piece
    _in_piece = True
    try:
        return fn(piece)
    except KeyboardInterrupt:
        _end(128 + signal.SIGTERM)
    finally:
        _in_piece = False


def spread(fn: Callable[[P], R], pieces: Sequence[P], workers: Workers = ONE_PROCESS) -> list[R]:
    """``[fn(piece) for piece in pieces]``, the pieces run on ``workers``."""
    results: dict[int, R] = dict(unordered(fn, pieces, workers))
    return [results[i] for i in range(len(pieces))]


@contextmanager
def ray_session(workers: Workers) -> Iterator[None]:
    """Ray up for the work inside: started here with ``workers.count`` CPUs, or joined at ``workers.address``,
    unless this process is on Ray already; shut down at the end if it was started here. Nothing for the other
    back ends. A run that spreads work many times (a training run's generations) starts Ray once inside it,
    not once a spread: Ray takes seconds to start."""
    if workers.backend != "ray":
        yield
        return
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray back end needs Ray installed (pip install 'splendor[ray]')") from None
    started = not ray.is_initialized()
    if started:
        if workers.address:
            ray.init(address=workers.address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers.count,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}},
            )
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def _on_ray(fn: Callable[[P], R], pieces: Sequence[P], workers: Workers) -> Iterator[tuple[int, R]]:
    with ray_session(workers):
        import ray

        remote = ray.remote(fn)
        pending = {remote.remote(piece): i for i, piece in enumerate(pieces)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            yield pending.pop(done[0]), ray.get(done[0])
