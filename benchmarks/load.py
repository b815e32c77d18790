"""Load on real server processes: many games at once, played through the HTTP and WebSocket API, on SQLite (one
process) or on PostgreSQL with 1, 2, 3... processes sharing it (each game's two seats on different processes,
as behind a load balancer, so every action crosses processes through the database's NOTIFY).

Every game's two seats are "human" seats driven by this script (a random legal action each time a seat's
WebSocket says it is its turn, after a short think time like a quick player's; ``--think 0`` plays as fast as
possible and measures the server's ceiling instead), so every action goes through the full path: HTTP request,
rule check, commit to the store, push of each seat's view. Reports accepted actions per second, latency
percentiles of an action, and checks that nothing was lost: every game's record replays to the state the server reports.

Run: ``.venv/bin/python benchmarks/load.py [--games 50] [--seconds 30] [--database-url URL]``;
``--postgres --processes 3`` starts a throwaway PostgreSQL (scripts/postgres.sh) and three servers on it;
``--games 20,40,60 --via ws`` measures each number of games in turn (the largest with p99 under 100 ms is what
the processes hold); ``--watchers 2`` adds spectators to each game.
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


async def seat_loop(
    base: str,
    game: dict,
    seat: int,
    latencies: list[float],
    deadline: float,
    client: httpx.AsyncClient,
    rng: random.Random,
    think: float,
    via: str,
) -> int:
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
                    message = json.loads(
                        await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                    )
                except (TimeoutError, websockets.ConnectionClosed):
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
                message = reply if reply.get("type") == "state" else None  # it may be our decision again
                continue
            r = await client.post(
                f"/api/games/{game['id']}/actions",
                json={"seat": seat, "action": action, "expect": message["actions"]},
                headers={"x-seat-token": token},
            )
            latencies.append(time.perf_counter() - start)
            accepted += r.status_code == 200
            message = None
    return accepted


async def spectate(base: str, game: dict, deadline: float) -> int:
    """A spectator: reads every push of the game until time runs out; returns how many it read."""
    read = 0
    async with websockets.connect(base.replace("http", "ws") + f"/api/games/{game['id']}/ws", max_size=2**22) as ws:
        while time.monotonic() < deadline:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                read += 1
            except (TimeoutError, websockets.ConnectionClosed):
                break
    return read


async def run(
    bases: list[str], games: int, seconds: float, game_name: str, think: float, via: str, watchers: int = 0
) -> dict[str, object]:
    """Play ``games`` games for ``seconds``: game i is created on process i, its seat s plays through process
    i + s and its spectators watch through the others."""
    latencies: list[float] = []
    n = len(bases)
    clients = [httpx.AsyncClient(base_url=b, timeout=30, limits=httpx.Limits(max_connections=200)) for b in bases]
    try:
        created = []
        for i in range(games):
            r = await clients[i % n].post(
                "/api/games",
                json={
                    "game": game_name,
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                    "options": {"max_turns": 150},
                },
            )
            created.append(r.json())
        deadline = time.monotonic() + seconds
        start = time.monotonic()
        seats = [
            seat_loop(
                bases[(i + s) % n],
                g,
                s,
                latencies,
                deadline,
                clients[(i + s) % n],
                random.Random(i * 2 + s),
                think,
                via,
            )
            for i, g in enumerate(created)
            for s in (0, 1)
        ]
        crowd = [spectate(bases[(i + 2 + w) % n], g, deadline) for i, g in enumerate(created) for w in range(watchers)]
        counts = (await asyncio.gather(*seats, *crowd))[: len(seats)]
        elapsed = time.monotonic() - start
        client = clients[0]
        lost = 0
        for g in created:
            state = (await client.get(f"/api/games/{g['id']}")).json()
            if state["view"]["is_over"]:
                record = (await client.get(f"/api/games/{g['id']}/record")).text
                if splendor.replay(record).view(None) != state["view"]:
                    lost += 1
    finally:
        for c in clients:
            await c.aclose()
    latencies.sort()
    return {
        "processes": n,
        "games": games,
        "websockets": games * (2 + watchers),
        "via": via,
        "think_seconds": think,
        "seconds": round(elapsed, 1),
        "accepted_actions": sum(counts),
        "actions_per_second": round(sum(counts) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1),
        "games_checked_lost": lost,
    }


def rss_mb(pid: int) -> float:
    """A process's resident memory in MiB (its bot workers are processes of their own, not counted)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def start_servers(url: str, processes: int) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``processes`` server processes on the store at ``url``, once each answers."""
    procs, bases = [], []
    for _ in range(processes):
        port = free_port()
        procs.append(
            subprocess.Popen(
                [
                    SPLENDOR,
                    "serve",
                    "--port",
                    str(port),
                    "--database-url",
                    url,
                    "--requests-per-second",
                    "100000",
                    "--request-burst",
                    "100000",
                    "--games-per-client",
                    "100000",
                    "--messages-per-second",
                    "1000",
                    "--websockets-per-client",
                    "100000",
                    "--connections-per-client",
                    "100000",
                    "--bot-workers",
                    "1",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        bases.append(f"http://127.0.0.1:{port}")
    for base in bases:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
    return procs, bases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="50", help="games at once; several (20,40,60) are measured in turn")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL for the run")
    parser.add_argument("--processes", type=int, default=1, help="server processes on the one database")
    parser.add_argument("--watchers", type=int, default=0, help="spectators per game, on the other processes")
    parser.add_argument("--via", choices=("http", "ws"), default="http", help="send actions by HTTP or WebSocket")
    parser.add_argument(
        "--think", type=float, default=0.15, help="mean seconds a player thinks before acting (0: as fast as possible)"
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="splendor-load-")
    postgres = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"
    if args.postgres:
        url = (
            subprocess.run(
                [str(postgres), "start", folder, str(free_port())], capture_output=True, text=True, check=True
            )
            .stdout.strip()
            .splitlines()[-1]
        )
    else:
        url = args.database_url or f"sqlite:///{folder}/load.db"
    if url.startswith("sqlite") and args.processes > 1:
        parser.error("SQLite is served by one process: use --postgres (or a PostgreSQL --database-url)")
    try:
        for games in [int(g) for g in args.games.split(",")]:
            procs, bases = start_servers(url, args.processes)
            try:
                row = asyncio.run(run(bases, games, args.seconds, args.game, args.think, args.via, args.watchers))
                row["server_rss_mb"] = [rss_mb(proc.pid) for proc in procs]
                print(json.dumps(row), flush=True)
            finally:
                for proc in procs:
                    os.killpg(proc.pid, signal.SIGTERM)
                for proc in procs:
                    proc.wait(timeout=30)
    finally:
        if args.postgres:
            subprocess.run([str(postgres), "stop", folder], timeout=60)


if __name__ == "__main__":
    main()
