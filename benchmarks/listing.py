"""How long the games listing (``GET /api/games``: the newest 200 games) takes on a large store, with the index on
``games.created_at`` (migration 0006) and without it (as before), for docs/server.md.

The store is filled with finished games' rows only (no seats, no actions: the listing reads only the ``games``
table), by one bulk ``INSERT ... SELECT`` in the database itself, one a second back from now. Then the server's own
query (``GameStore.listing``) is timed, the median of ``--rounds`` runs, and its plan shown; then again without the
index. SQLite in a throwaway file; with ``--postgres``, a throwaway PostgreSQL (scripts/postgres.sh).

Run: ``.venv/bin/python benchmarks/listing.py [--games 1000000] [--postgres]``.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select, text

from splendor.store import open_store
from splendor.store.database import Store
from splendor.store.games import GameStore
from splendor.store.models import GameRow

FILL = {
    "sqlite": """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :games)
        INSERT INTO games (id, game, players, seed, options, status, actions, created_at, updated_at, owner)
        SELECT printf('%032x', i), 'classic', 2, i, '{}', 'finished', 57,
               strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || i || ' seconds'), datetime('now'), '' FROM n""",
    "postgresql": """
        INSERT INTO games (id, game, players, seed, options, status, actions, created_at, updated_at, owner)
        SELECT md5(i::text), 'classic', 2, i, '{}', 'finished', 57, now() - i * interval '1 second', now(), ''
        FROM generate_series(1, :games) i""",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fill(store: Store, games: int) -> float:
    """Insert ``games`` finished games' rows; returns the seconds it took."""
    postgres = store.engine.dialect.name == "postgresql"
    start = time.perf_counter()
    with store.engine.begin() as conn:
        if postgres:  # the store's statement timeout is for requests, not this
            conn.execute(text("SET LOCAL statement_timeout = 0"))
        conn.execute(text(FILL[store.engine.dialect.name]), {"games": games})
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if postgres:
            conn.execute(text("SET statement_timeout = 0"))
        conn.execute(text("ANALYZE"))
        if postgres:
            conn.execute(text("RESET statement_timeout"))
    return time.perf_counter() - start


def plan(store: Store) -> str:
    """The database's plan of the listing query."""
    query = (
        select(GameRow.id, GameRow.game, GameRow.players, GameRow.status, GameRow.actions, GameRow.created_at)
        .order_by(GameRow.created_at.desc())
        .limit(200)
    )
    sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
    explain = "EXPLAIN QUERY PLAN " if store.engine.dialect.name == "sqlite" else "EXPLAIN "
    with store.engine.connect() as conn:
        return " / ".join(str(row[-1]) for row in conn.execute(text(explain + sql)))


def timed(store: Store, rounds: int) -> dict[str, float]:
    """The listing's median and worst time in milliseconds over ``rounds`` runs (after one to warm up)."""
    games = GameStore(store)
    assert len(games.listing(200)) == 200
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        games.listing(200)
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


def measure(url: str, games: int, rounds: int) -> dict[str, Any]:
    store = open_store(url)
    try:
        result: dict[str, Any] = {
            "store": store.engine.dialect.name,
            "games": games,
            "fill_s": round(fill(store, games), 1),
        }
        result["with_index"] = {**timed(store, rounds), "plan": plan(store)}
        with store.engine.begin() as conn:
            conn.execute(text("DROP INDEX ix_games_created_at"))
        store.engine.dispose()  # no connection keeps a statement planned with the index
        result["without_index"] = {**timed(store, max(3, rounds // 10)), "plan": plan(store)}
        return result
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL instead of SQLite")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="splendor-listing-")
    if not args.postgres:
        print(measure(f"sqlite:///{folder}/listing.db", args.games, args.rounds))
        return
    script = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"
    url = (
        subprocess.run([str(script), "start", folder, str(free_port())], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    try:
        print(measure(url, args.games, args.rounds))
    finally:
        subprocess.run([str(script), "stop", folder], check=False)


if __name__ == "__main__":
    main()
