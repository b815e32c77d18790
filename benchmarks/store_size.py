"""How much a finished game takes in the store, for the capacity plan of docs/server.md: whole games between
greedy bots (real action texts, real lengths) written as the server writes them, one transaction an action, into
a throwaway PostgreSQL (or the SQLite file given), then the size of the game tables with their indexes.

Run: ``.venv/bin/python benchmarks/store_size.py [--games 300] [--game classic]``.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

from sqlalchemy import text

from splendor.bots import decide, make_bot
from splendor.games import new_game
from splendor.store import open_store
from splendor.store.games import GameStore, SeatInfo

TABLES = ("games", "game_seats", "game_actions")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fill(url: str, games: int, name: str) -> tuple[int, int]:
    """Play and store ``games`` games; returns (games, actions) stored."""
    store = open_store(url)
    kept = GameStore(store)
    actions = 0
    rng = random.Random(1)
    try:
        for i in range(games):
            game = new_game(name, players=2, seed=rng.randrange(2**31))
            bots = [make_bot("greedy", seed=i * 2 + s) for s in (0, 1)]
            game_id = uuid.uuid4().hex
            kept.create(
                game_id,
                name,
                2,
                game.seed,
                game.options,
                [SeatInfo(s, "human", None, None, "0" * 64) for s in (0, 1)],
                owner="x" * 32,
            )
            while not game.is_over:
                seat = game.current_player
                assert seat is not None
                action = decide(bots[seat], game)
                game.apply(action)
                kept.append(game_id, len(game.history), seat, action.text, game.status)
                actions += 1
    finally:
        store.close()
    return games, actions


def size(url: str) -> int:
    """Bytes of the game tables with their indexes and TOAST, after a VACUUM."""
    store = open_store(url)
    try:
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
            return sum(
                int(conn.execute(text("SELECT pg_total_relation_size(:t)"), {"t": t}).scalar() or 0) for t in TABLES
            )
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--game", default="classic")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="splendor-size-")
    script = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"
    url = (
        subprocess.run([str(script), "start", folder, str(free_port())], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[-1]
    )
    try:
        games, actions = fill(url, args.games, args.game)
        total = size(url)
    finally:
        subprocess.run([str(script), "stop", folder], timeout=60)
    print(
        json.dumps(
            {
                "game": args.game,
                "games": games,
                "actions": actions,
                "actions_per_game": round(actions / games, 1),
                "bytes": total,
                "bytes_per_game": round(total / games),
                "gigabytes_per_million_games": round(total / games * 1e6 / 1e9, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
