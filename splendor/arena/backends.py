"""Where a tournament's games run: here, in worker processes, or on Ray (a local Ray, or a cluster), by the same
code as self-play's games (`splendor.core.workers`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from splendor.arena.match import Match, MatchResult, play_match
from splendor.core.workers import BACKENDS, Workers, unordered

__all__ = ["BACKENDS", "run_matches"]


def run_matches(
    matches: list[Match], backend: str = "process", workers: int | None = None, address: str | None = None
) -> Iterator[MatchResult]:
    """Play the matches on a back end (``workers`` at once: by default all cores, or one on the local back end),
    yielding results as they finish (in any order)."""
    where = Workers(workers or (1 if backend == "local" else os.cpu_count() or 1), backend, address)
    return (result for _, result in unordered(play_match, matches, where))
