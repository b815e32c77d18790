"""Load on a real server process: many bot-versus-bot games at once, played through the HTTP and WebSocket API.

Every game's two seats are "human" seats driven by this script (a random legal action each time a seat's
WebSocket says it is its turn, after a short think time like a quick player's; ``--think 0`` plays as fast as
possible and measures the server's ceiling instead), so every action goes through the full path: HTTP request, rule check, commit to
the store, push of each seat's view. Reports accepted actions per second, latency percentiles of an action, and
checks that nothing was lost: every game's record replays to the state the server reports.

Run: ``.venv/bin/python benchmarks/load.py [--games 50] [--seconds 30] [--database-url URL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

import splendor

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def seat_loop(base: str, game: dict, seat: int, latencies: list[float], deadline: float,
                    client: httpx.AsyncClient, rng: random.Random, think: float, via: str) -> int:
    """Play one seat until the game ends or time runs out; returns the actions it had accepted.

    ``via="http"`` posts each action; ``via="ws"`` sends it on the WebSocket and times it until the push that
    shows it accepted."""
    token = game["seats"][seat]["token"]
    url = base.replace("http", "ws") + f"/api/games/{game['id']}/ws?seat={seat}&token={token}"
    accepted = 0
    async with websockets.connect(url, max_size=2**22) as ws:
        message: dict | None = None
        while time.monotonic() < deadline:
            if message is None:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(),
                                                                timeout=max(0.1, deadline - time.monotonic())))
                except (asyncio.TimeoutError, websockets.ConnectionClosed):
                    break
            if message.get("type") != "state":
                message = None
                continue
            view = message["view"]
            if view["is_over"]:
                break
            if view["current_player"] != seat:
                message = None
                continue
            action = rng.choice(view["legal_actions"])
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))
            start = time.perf_counter()
            if via == "ws":
                await ws.send(json.dumps({"type": "action", "action": action, "expect": message["actions"]}))
                while True:
                    reply = json.loads(await ws.recv())
                    if reply.get("type") == "error" or reply.get("actions", 0) > message["actions"]:
                        break
                latencies.append(time.perf_counter() - start)
                accepted += reply.get("type") == "state"
                message = reply if reply.get("type") == "state" else None   # it may be our decision again
                continue
            r = await client.post(f"/api/games/{game['id']}/actions",
                                  json={"seat": seat, "action": action, "expect": message["actions"]},
                                  headers={"x-seat-token": token})
            latencies.append(time.perf_counter() - start)
            accepted += r.status_code == 200
            message = None
    return accepted


async def run(base: str, games: int, seconds: float, game_name: str, think: float, via: str) -> dict[str, object]:
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=200)) as client:
        created = []
        for i in range(games):
            r = await client.post("/api/games", json={"game": game_name,
                                                      "seats": [{"kind": "human"}, {"kind": "human"}],
                                                      "options": {"max_turns": 150}})
            created.append(r.json())
        deadline = time.monotonic() + seconds
        start = time.monotonic()
        counts = await asyncio.gather(*[seat_loop(base, g, s, latencies, deadline, client, random.Random(i * 2 + s),
                                                  think, via) for i, g in enumerate(created) for s in (0, 1)])
        elapsed = time.monotonic() - start
        lost = 0
        for g in created:
            state = (await client.get(f"/api/games/{g['id']}")).json()
            if state["view"]["is_over"]:
                record = (await client.get(f"/api/games/{g['id']}/record")).text
                if splendor.replay(record).view(None) != state["view"]:
                    lost += 1
    latencies.sort()
    return {"games": games, "via": via, "think_seconds": think, "seconds": round(elapsed, 1), "accepted_actions": sum(counts),
            "actions_per_second": round(sum(counts) / elapsed, 1),
            "p50_ms": round(1000 * statistics.median(latencies), 1),
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1),
            "games_checked_lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--via", choices=("http", "ws"), default="http", help="send actions by HTTP or WebSocket")
    parser.add_argument("--think", type=float, default=0.15,
                        help="mean seconds a player thinks before acting (0: as fast as possible)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="splendor-load-")
    url = args.database_url or f"sqlite:///{folder}/load.db"
    port = free_port()
    server = subprocess.Popen([SPLENDOR, "serve", "--port", str(port), "--database-url", url,
                               "--requests-per-second", "100000", "--request-burst", "100000",
                               "--games-per-client", "100000", "--messages-per-second", "1000"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(f"{base}/api/health").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        print(json.dumps(asyncio.run(run(base, args.games, args.seconds, args.game, args.think, args.via))))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
