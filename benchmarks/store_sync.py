"""What SQLite's ``synchronous=FULL`` costs the server: the time to commit one action with FULL (every commit
fsynced, so an acknowledged action survives a power cut) against NORMAL (a crash is survived, a power cut may
lose the last commits). Both in WAL mode, as the server runs, alternating so that the machine's noise hits both.

Run: ``.venv/bin/python benchmarks/store_sync.py [--writes 500] [--rounds 2]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any

from sqlalchemy import event

from splendor.store import open_store
from splendor.store.games import GameStore, SeatInfo


def commits(mode: str, writes: int) -> list[float]:
    """Seconds per action appended, with the store's connections set to ``synchronous=mode``."""
    folder = tempfile.mkdtemp(prefix="splendor-sync-")
    store = open_store(f"sqlite:///{folder}/bench.db")

    @event.listens_for(store.engine, "connect")
    def _mode(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA synchronous={mode}")
        cursor.close()

    store.engine.dispose()
    games = GameStore(store)
    seats = [SeatInfo(0, "human", None, None, "x"), SeatInfo(1, "human", None, None, "y")]
    games.create("a" * 32, "classic", 2, 1, {}, seats)
    times = []
    for n in range(1, writes + 1):
        start = time.perf_counter()
        games.append("a" * 32, n, n % 2, "take w b g", "ongoing")
        times.append(time.perf_counter() - start)
    store.close()
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print("| synchronous | commits/s | p50 ms | p99 ms |\n|---|---|---|---|")
    for _ in range(args.rounds):
        for mode in ("NORMAL", "FULL"):
            t = commits(mode, args.writes)
            print(
                f"| {mode} | {len(t) / sum(t):,.0f} | {t[len(t) // 2] * 1000:.2f} | "
                f"{t[int(len(t) * 0.99)] * 1000:.2f} |"
            )


if __name__ == "__main__":
    main()
