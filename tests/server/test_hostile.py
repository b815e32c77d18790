"""The server against a hostile or broken client, and against faults: each test reproduces a defect a hostile
tester found (no file read, no stalled game, no orphan after a crash, no forged action, no 500) and shows it
mended."""

from __future__ import annotations

import base64
import json
import os
import random
import signal
import socket
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from splendor.server import Settings, create_app
from tests.server.conftest import Server, create

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]
GREEDY = {"kind": "bot", "bot": "greedy"}


def act(
    c: httpx.Client, g: dict[str, Any], seat: int, action: str, timeout: float = 30, **extra: Any
) -> httpx.Response:
    return c.post(
        f"/api/games/{g['id']}/actions",
        json={"seat": seat, "action": action, **extra},
        headers={"x-seat-token": g["seats"][seat]["token"]},
        timeout=timeout,
    )


def ws_url(server: Server, g: dict[str, Any], seat: int | None = None) -> str:
    base = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws"
    return base if seat is None else f"{base}?seat={seat}&token={g['seats'][seat]['token']}"


def actions_of(c: httpx.Client, g: dict[str, Any]) -> int:
    n: int = c.get(f"/api/games/{g['id']}").json()["actions"]
    return n


# ----------------------------------------------------------------------------- 1. no file is ever read


def test_a_kids_board_over_the_api_is_only_shipped_side_names_and_no_path_is_opened(
    server: Server, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with server.client() as c:
        for board in (
            ["/etc/passwd", "A2-front", "A3-front"],
            [str(fifo), "A2-front", "A3-front"],
            ["/dev/zero", "A2-front", "A3-front"],
            [{"format": "x"}, "A2-front", "A3-front"],
            5,
            True,
            "A1-front",
            [],
            ["A1-front", 3, "A3-front"],
        ):
            r = c.post("/api/games", json={"game": "kids", "seats": HUMANS2, "options": {"board": board}}, timeout=5)
            assert r.status_code == 422, (board, r.text)
            assert "TOML" not in r.text and "root" not in r.text
        assert c.get("/api/health", timeout=2).status_code == 200  # the event loop never blocked
        ok = c.post(
            "/api/games",
            json={"game": "kids", "seats": HUMANS2, "options": {"board": ["A1-back", "A2-front", "A3-back"]}},
        )
        assert ok.status_code == 201


# ----------------------------------------------------------------------------- 2. a silent watcher stalls nothing


def silent_websocket(server: Server, g: dict[str, Any]) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads again, with a tiny receive buffer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /api/games/{g['id']}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b"101" in sock.recv(12)
    return sock


def test_a_spectator_that_never_reads_stalls_no_action_no_bot_and_no_other_watcher(server: Server) -> None:
    rand = {"kind": "bot", "bot": "random"}
    with server.client() as c:
        # four seats of Pokémon: the largest views, about 20 kB a push, some 200 pushes a game
        g = create(c, "pokemon", [{"kind": "human"}, rand, rand, rand], seed=1)
        silent = silent_websocket(server, g)
        rng = random.Random(2)
        try:
            with connect(ws_url(server, g), max_size=None) as reader:
                deadline = time.monotonic() + 120
                while True:
                    assert time.monotonic() < deadline, "the game stalled"
                    payload = c.get(
                        f"/api/games/{g['id']}",
                        params={"seat": 0},
                        headers={"x-seat-token": g["seats"][0]["token"]},
                        timeout=5,
                    ).json()
                    if payload["view"]["is_over"]:
                        break
                    if payload["view"]["current_player"] != 0:
                        time.sleep(0.01)
                        continue
                    legal = payload["view"]["legal_actions"]
                    r = act(c, g, 0, rng.choice(legal), expect=payload["actions"], timeout=5)  # never stuck
                    assert r.status_code == 200, r.text
                final = payload["actions"]
                assert final > 150
                latest = 0
                while latest < final:  # the reading watcher is fed
                    latest = json.loads(reader.recv(timeout=10))["actions"]
        finally:
            silent.close()


# ----------------------------------------------------------------------------- 3. kill -9 of the main process


def test_after_kill_9_of_the_main_process_alone_the_server_restarts_on_the_same_port(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.db"
    first = Server(url, tmp_path / "k.log").start()
    with first.client() as c:
        g = create(c, "classic", [{"kind": "bot", "bot": "ismcts:hard"}, {"kind": "bot", "bot": "ismcts:hard"}])
        quick = create(c, "classic", [{"kind": "human"}, GREEDY])
        assert act(c, quick, 0, "take w b g").status_code == 200  # the quick worker is up too
        time.sleep(1.5)  # the workers are thinking
        before = actions_of(c, g)
    first.kill9_main()
    deadline = time.monotonic() + 20  # the kernel kills them at once (PR_SET_PDEATHSIG); a loaded machine is slow
    while first.survivors():
        assert time.monotonic() < deadline, "the bot workers outlived the server"
        time.sleep(0.1)
    second = Server(url, tmp_path / "k.log", port=first.port).start()
    try:
        with second.client() as c:
            assert actions_of(c, g) >= before
            deadline = time.monotonic() + 30
            while actions_of(c, g) <= before:  # its bots resumed
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        second.stop()


# ----------------------------------------------------------------------------- 4. a failed write


def test_a_locked_store_answers_503_changes_nothing_and_the_bots_carry_on_afterwards(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    server = Server(f"sqlite:///{path}", tmp_path / "l.log", "--write-retry-seconds", "1").start()
    try:
        with server.client() as c:
            mine = create(c, "classic", HUMANS2)
            # a game between bots that lasts (hard thinks up to a second a move), locked once it is under way, so
            # that its bots meet the locked store however busy the machine is
            bots = create(c, "classic", [{"kind": "bot", "bot": "ismcts:hard"}, GREEDY])
            deadline = time.monotonic() + 60
            while actions_of(c, bots) < 2:
                assert time.monotonic() < deadline, "the bots did not start"
                time.sleep(0.05)
            lock = sqlite3.connect(path, timeout=10)
            lock.execute("BEGIN EXCLUSIVE")
            logged = len(server.log.read_text())  # what the log said before the lock
            try:
                time.sleep(0.5)
                r = act(c, mine, 0, "take w b g")
                assert r.status_code == 503 and "try again" in r.json()["detail"]
                assert actions_of(c, mine) == 0
                stalled_at = actions_of(c, bots)
                deadline = time.monotonic() + 60  # hard thinks for seconds on a loaded machine
                while "will try again" not in server.log.read_text()[logged:]:  # a bot's move met the lock
                    assert time.monotonic() < deadline, "no bot met the locked store"
                    time.sleep(0.1)
                assert actions_of(c, bots) == stalled_at
            finally:
                lock.rollback()
                lock.close()
            assert act(c, mine, 0, "take w b g").status_code == 200
            deadline = time.monotonic() + 120
            while (
                actions_of(c, bots) < stalled_at + 2 and not c.get(f"/api/games/{bots['id']}").json()["view"]["is_over"]
            ):
                assert time.monotonic() < deadline, "the bots' game did not go on after the store came back"
                time.sleep(0.2)
    finally:
        server.stop()
    assert (
        "bot greedy will try again" in server.log.read_text()
        or "bot ismcts:hard will try again" in server.log.read_text()
    )


# ----------------------------------------------------------------------------- 5. bad input is a 4xx


def test_bad_options_seeds_and_action_texts_are_4xx_never_500(server: Server) -> None:
    with server.client() as c:
        bodies: list[tuple[str | dict[str, Any], int]] = [
            ({"game": "classic", "seats": HUMANS2, "options": {"name": "x"}}, 422),
            ({"game": "classic", "seats": HUMANS2, "options": {"players": 3}}, 422),
            ({"game": "classic", "seats": HUMANS2, "options": {"seed": 3}}, 422),
            ({"game": "kids", "seats": HUMANS2, "options": {"board": 5}}, 422),
            ({"game": "kids", "seats": HUMANS2, "options": {"board": True}}, 422),
            (
                '{"game": "classic", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"max_turns": 1e400}}',
                422,
            ),
            (
                '{"game": "classic", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"max_turns": NaN}}',
                422,
            ),
            ({"game": "classic", "seats": HUMANS2, "options": {"short": True}}, 400),
            ({"game": "kids", "seats": HUMANS2, "options": {"board": ["A1-front", "A3-front"]}}, 400),
            ('{"game": "classic", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": NaN}', 422),
            ('{"game": "classic", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": Infinity}', 422),
            ('{"game": "classic", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": 1e400}', 422),
            ('{"game": "classic", "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": "7"}', 422),
            ({"game": "classic", "seats": HUMANS2, "rated": "yes"}, 422),
            ({"game": "classic", "seats": HUMANS2, "rated": 1}, 422),
        ]
        for body, status in bodies:
            if isinstance(body, str):
                r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
            else:
                r = c.post("/api/games", json=body)
            assert r.status_code == status, (body, r.text)
            r.json()
        for game, texts in (
            ("classic", ["buy 1.²", "reserve 1.⑧", "noble ³"]),
            ("pokemon", ["evolve ² 1.1"]),
            ("kids", ["move ²", "give r to ²"]),
        ):
            g = create(c, game, HUMANS2)
            for text in texts:
                r = act(c, g, 0, text)
                assert r.status_code == 400, (text, r.text)
            assert actions_of(c, g) == 0


def test_the_websocket_answers_bad_messages_with_an_error_and_keeps_the_connection(server: Server) -> None:
    with server.client() as c:
        g = create(c, "kids", HUMANS2)
    with connect(ws_url(server, g, 0)) as sock:
        assert json.loads(sock.recv(timeout=10))["type"] == "state"
        messages: list[str | bytes] = [
            b"\x00\x01binary",
            "not json",
            "[" * 5000,
            json.dumps({"type": "action", "action": "move ²"}),
            json.dumps({"type": "action", "action": "give r to ²"}),
            json.dumps({"type": "hello"}),
            json.dumps({"type": "action", "action": "take k r g", "expect": "0"}),
            json.dumps({"type": "action", "action": "take k r g", "expect": 0.5}),
            json.dumps({"type": "action", "action": "take k r g", "expect": [0]}),
            json.dumps({"type": "action", "action": "take k r g", "expect": True}),
            json.dumps({"type": "action", "action": 5}),
            json.dumps([1, 2]),
        ]
        for message in messages:
            sock.send(message)
            reply = json.loads(sock.recv(timeout=10))
            assert reply["type"] == "error" and reply["status"] == 400, (message, reply)
        sock.send(json.dumps({"type": "action", "action": "take k r g", "expect": 0.0}))  # whole, as a seat's 1.0
        assert json.loads(sock.recv(timeout=10))["actions"] == 1  # still connected, still playing


# ----------------------------------------------------------------------------- 7. the seed


def test_a_chosen_seed_is_refused_when_two_people_play_and_allowed_for_one(server: Server) -> None:
    with server.client() as c:
        r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2, "seed": 42})
        assert r.status_code == 400 and "would know every deck" in r.text
        assert (
            c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY], "seed": 42}).status_code
            == 201
        )
        assert (
            c.post(
                "/api/games",
                json={"game": "classic", "seats": [GREEDY, GREEDY], "seed": 42, "options": {"max_turns": 2}},
            ).status_code
            == 201
        )


# ----------------------------------------------------------------------------- 8. no client starves the others


def test_games_per_client_are_bounded(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path}/b.db", tmp_path / "b.log", "--games-per-client", "3").start()
    try:
        with server.client() as c:
            for _ in range(3):
                create(c, "classic", HUMANS2)
            r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2})
            assert r.status_code == 429 and "unfinished games" in r.text
        other = httpx.Client(base_url=server.base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            assert other.post("/api/games", json={"game": "classic", "seats": HUMANS2}).status_code == 201
    finally:
        server.stop()


def test_one_clients_search_bots_do_not_starve_another_clients_greedy_bot(server: Server) -> None:
    hard = {"kind": "bot", "bot": "ismcts:hard"}
    with server.client() as c:
        busy = [create(c, "classic", [hard, hard]) for _ in range(4)]
        r = c.post("/api/games", json={"game": "classic", "seats": [hard, hard]})
        assert r.status_code == 429 and "between bots" in r.text
        time.sleep(1.0)
        with httpx.Client(
            base_url=server.base, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2")
        ) as other:
            mine = create(other, "classic", [{"kind": "human"}, GREEDY])
            before = sum(actions_of(c, g) for g in busy)
            assert act(other, mine, 0, "take w b g").status_code == 200
            while actions_of(other, mine) < 2:
                time.sleep(0.02)
            after = sum(actions_of(c, g) for g in busy)
    assert after - before <= 2  # the greedy reply did not wait behind the search decisions queued before it


def test_finished_games_read_back_are_dropped_from_memory_again(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from splendor.server import Settings, create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path}/f.db", bot_workers=1, finished_games_kept=2)
    with TestClient(create_app(settings)) as c:
        ids = [
            c.post(
                "/api/games", json={"game": "classic", "seats": [GREEDY, GREEDY], "options": {"max_turns": 2}}
            ).json()["id"]
            for _ in range(4)
        ]
        deadline = time.monotonic() + 60
        while not all(c.get(f"/api/games/{i}").json()["view"]["is_over"] for i in ids):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for i in ids * 2:
            assert c.get(f"/api/games/{i}/record").status_code == 200
        health = c.get("/api/health").json()
    assert health["live"] == 0 and health["finished_in_memory"] == 2


def test_unfinished_games_nobody_asks_about_are_let_go_and_read_again_when_asked(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from splendor.server import Settings, create_app

    settings = Settings(database_url=f"sqlite:///{tmp_path}/i.db", bot_workers=1, idle_game_seconds=0.5)
    with TestClient(create_app(settings)) as c:
        g = c.post("/api/games", json={"game": "classic", "seats": HUMANS2}).json()
        token = g["seats"][0]["token"]
        legal = c.get(f"/api/games/{g['id']}?seat=0", headers={"x-seat-token": token}).json()["view"]["legal_actions"]
        assert (
            c.post(
                f"/api/games/{g['id']}/actions", json={"seat": 0, "action": legal[0]}, headers={"x-seat-token": token}
            ).status_code
            == 200
        )
        deadline = time.monotonic() + 10
        while c.get("/api/health").json()["live"]:
            assert time.monotonic() < deadline, "an idle game stayed in memory"
            time.sleep(0.1)
        assert c.get(f"/api/games/{g['id']}").json()["actions"] == 1  # read back, as it was
        assert c.get("/api/health").json()["live"] == 1


# ----------------------------------------------------------------------------- 9. the smaller ones


def test_a_secret_is_read_only_from_its_plain_spelling_and_never_logged(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        secret = g["seats"][0]["token"]
        r = c.get(f"/api/games/{g['id']}?seat=0&%74oken={secret}")
        assert r.status_code == 400 and "plain 'token'" in r.text
        r = c.get(f"/api/games/{g['id']}?seat=0&token={secret}&token={secret}")
        assert r.status_code == 400
        assert c.get(f"/api/games/{g['id']}?seat=0&token={secret}").status_code == 200
        # a socket opens, then closes saying why (a hostile tester's find: a bare 403 had said nothing)
        base = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws"
        for query, why in (
            (f"?seat=0&%74oken={secret}", "plain 'token'"),
            (f"?seat=0&token={secret}&token={secret}", "give the secret once"),
            ("?seat=abc", "malformed seat"),
            ("?seat=-1", "malformed seat"),
        ):
            with connect(base + query) as sock, pytest.raises(ConnectionClosed) as closed:
                sock.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, query
            assert why in closed.value.rcvd.reason, (query, closed.value.rcvd.reason)
    server.stop()
    assert secret not in server.log.read_text()
    # stopped by SIGTERM, it ends as terminated, as a process manager expects (splendor's own handler, which
    # stops the other commands as Ctrl-C does, would have made it 130)
    assert server.proc is not None and server.proc.returncode == -signal.SIGTERM


def test_websocket_frames_and_message_rates_are_bounded(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
    with connect(ws_url(server, g, 0)) as sock:
        sock.recv(timeout=10)
        sock.send("x" * (64 * 1024))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sock.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with connect(ws_url(server, g, 1)) as sock:
        sock.recv(timeout=10)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(5000):
                sock.send(json.dumps({"type": "action", "action": "take w b g"}))
            while True:
                sock.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_every_refusal_is_in_the_openapi_schema(server: Server) -> None:
    with server.client() as c:
        paths = c.get("/openapi.json").json()["paths"]
    acting = paths["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "400", "403", "404", "409", "413", "422", "429", "503"} <= set(acting)
    assert {"201", "400", "403", "404", "422", "429"} <= set(paths["/api/games"]["post"]["responses"])
    assert "image/svg+xml" in paths["/api/games/{game_id}/board.svg"]["get"]["responses"]["200"]["content"]


def test_sqlite_commits_reach_the_disk_before_an_action_is_acknowledged(tmp_path: Path) -> None:
    from sqlalchemy import text

    from splendor.store import open_store

    store = open_store(f"sqlite:///{tmp_path}/s.db")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    store.close()


def test_a_validation_error_never_echoes_a_value_json_cannot_carry(server: Server) -> None:
    with server.client() as c:
        r = c.post(
            "/api/games",
            content='{"game": "classic", "seats": [], "seed": -Infinity}',
            headers={"content-type": "application/json"},
        )
    assert r.status_code == 422 and "Infinity" not in r.text
    assert {tuple(e["loc"]) for e in r.json()["detail"]} >= {("body", "seed")}


def test_every_answer_forbids_framing_and_sniffing_and_a_page_runs_only_this_servers_scripts(server: Server) -> None:
    """A table framed by another site could be clicked into resigning; a seat's secret is in its link, so no page
    sends it on as a referrer. The API's own /docs loads its scripts from a CDN and keeps FastAPI's headers."""
    with server.client() as c:
        for path in ("/", "/play/x", "/static/table.js", "/api/health", "/api/games/nope"):
            r = c.get(path)
            assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff", path
            assert r.headers["referrer-policy"] == "same-origin", path
            policy = r.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        big = c.post("/api/games", content=b"x" * 200_000, headers={"content-type": "application/json"})
        assert big.status_code == 413 and big.headers["x-frame-options"] == "DENY"  # a refusal by the bounds too
        assert "content-security-policy" not in c.get("/docs").headers


def test_an_unhandled_errors_500_has_the_security_headers_too(tmp_path: Path) -> None:
    """Starlette answers an unhandled error outside every middleware added: the headers wrap the whole stack (a
    reviewer's find: the 500 had none)."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/s.db", warm_bot_workers=False))

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a defect")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/boom")
    assert r.status_code == 500 and r.headers["x-frame-options"] == "DENY"
    assert "script-src 'self'" in r.headers["content-security-policy"]
