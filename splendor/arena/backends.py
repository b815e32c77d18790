"""Where a tournament's games run: here, in worker processes, or on Ray (a local Ray, or a cluster)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed

from splendor.arena.match import Match, MatchResult, play_match

BACKENDS = ("local", "process", "ray")


def _local(matches: list[Match], workers: int, address: str | None) -> Iterator[MatchResult]:
    for m in matches:
        yield play_match(m)


def _process(matches: list[Match], workers: int, address: str | None) -> Iterator[MatchResult]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_match, m) for m in matches]
        for done in as_completed(futures):
            yield done.result()


def _ray(matches: list[Match], workers: int, address: str | None) -> Iterator[MatchResult]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray back end needs Ray installed (pip install 'splendor[ray]')") from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}},
            )
    try:
        remote = ray.remote(play_match)
        pending = [remote.remote(m) for m in matches]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


_RUNNERS: dict[str, Callable[[list[Match], int, str | None], Iterator[MatchResult]]] = {
    "local": _local,
    "process": _process,
    "ray": _ray,
}


def run_matches(
    matches: list[Match], backend: str = "process", workers: int | None = None, address: str | None = None
) -> Iterator[MatchResult]:
    """Play the matches on a back end, yielding results as they finish (in any order)."""
    if backend not in _RUNNERS:
        raise ValueError(f"unknown back end {backend!r}; the back ends are {', '.join(BACKENDS)}")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise ValueError("workers must be 1 or more")
    return _RUNNERS[backend](matches, workers, address)
