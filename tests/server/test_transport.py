"""What arrives at the server before any route: requests forged by another page of the same site, connections
that are slow, idle or too many from one address, and forwarded-address headers sent by the client itself."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from splendor.server.accounts import COOKIE
from tests.server.conftest import Server, create, free_port

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


# ----------------------------------------------------------------------------- 2b. forged requests, same site


def _scope(headers: dict[str, str], scheme: str = "http") -> dict[str, Any]:
    return {"type": "http", "scheme": scheme, "headers": [(k.encode(), v.encode()) for k, v in headers.items()]}


def test_the_session_cookie_name_is_the_one_the_guard_looks_for() -> None:
    from splendor.server.guards import SESSION_COOKIE

    assert SESSION_COOKIE == COOKIE


@pytest.mark.parametrize(
    ("headers", "scheme", "fine"),
    [
        ({"host": "example.org"}, "http", True),  # no Origin: not a browser's
        ({"host": "example.org", "origin": "http://example.org"}, "http", True),
        ({"host": "example.org", "origin": "http://example.org:80"}, "http", True),  # the default port, spelt
        ({"host": "Example.org:8000", "origin": "http://example.org:8000"}, "http", True),
        ({"host": "[::1]:8000", "origin": "http://[::1]:8000"}, "http", True),
        ({"host": "example.org:8000", "origin": "http://example.org:8000"}, "ws", True),  # a WebSocket's handshake
        ({"host": "example.org", "origin": "https://example.org"}, "https", True),
        ({"host": "example.org", "sec-fetch-site": "same-origin"}, "http", True),
        ({"host": "example.org", "sec-fetch-site": "none"}, "http", True),
        ({"host": "example.org:8000", "origin": "http://example.org:8001"}, "http", False),  # another port
        ({"host": "example.org", "origin": "http://game.example.org"}, "http", False),  # a subdomain
        ({"host": "example.org", "origin": "https://example.org"}, "http", False),  # another scheme
        ({"host": "example.org", "origin": "null"}, "http", False),  # a sandboxed page
        ({"host": "example.org", "origin": "http://example.org", "sec-fetch-site": "same-site"}, "http", False),
        ({"host": "example.org", "sec-fetch-site": "cross-site"}, "http", False),
        # behind a proxy that rewrites Host, or a TLS proxy not named as trusted: the browser's word decides
        ({"host": "127.0.0.1:8000", "origin": "https://play.example", "sec-fetch-site": "same-origin"}, "http", True),
    ],
)
def test_a_request_is_of_this_server_only_when_its_origin_is_exactly_ours(
    headers: dict[str, str], scheme: str, fine: bool
) -> None:
    from splendor.server.guards import cross_site_problem

    assert (cross_site_problem(_scope(headers, scheme)) is None) is fine


def _sign_up(c: httpx.Client) -> None:
    r = c.post("/api/accounts", json={"name": "victim", "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    assert c.cookies.get(COOKIE)


def test_a_page_on_another_port_cannot_make_a_signed_in_browser_change_anything(server: Server) -> None:
    other = f"http://127.0.0.1:{free_port()}"
    forged = [{"origin": other}, {"origin": other, "sec-fetch-site": "same-site"}, {"sec-fetch-site": "same-site"}]
    form = {"content-type": "application/x-www-form-urlencoded"}
    with server.client() as victim, server.client() as stranger:
        _sign_up(victim)
        game = create(stranger, "classic", HUMANS2)
        seat = game["seats"][0]
        for headers in forged:
            # what a form on the other page makes the browser send: the cookie is the browser's own
            r = victim.post(
                f"/api/games/{game['id']}/seats/0/keep?token={seat['token']}",
                data={"x": "1"},
                headers={**form, **headers},
            )
            assert r.status_code == 403 and "another site" in r.json()["detail"], r.text
            r = victim.post(
                "/api/me/password",
                data={"old": "correct horse battery", "new": "chosen by them!"},
                headers={**form, **headers},
            )
            assert r.status_code == 403, r.text
            r = victim.post(
                f"/api/games/{game['id']}/actions?token={seat['token']}",
                json={"seat": 0, "action": "take w b g"},
                headers=headers,
            )
            assert r.status_code == 403, r.text
            assert victim.delete("/api/session", headers=headers).status_code == 403
        schema = victim.get("/openapi.json").json()  # and every route that changes anything says it may be so
        unsaid = [
            f"{method.upper()} {path}"
            for path, operations in schema["paths"].items()
            for method, operation in operations.items()
            if method in ("post", "put", "patch", "delete")
            and "another site" not in operation["responses"].get("403", {}).get("description", "")
        ]
        assert unsaid == []
        me = victim.get("/api/me")  # still signed in, nothing kept, nothing played
        assert me.status_code == 200 and me.json()["games"] == []
        assert victim.get(f"/api/games/{game['id']}").json()["actions"] == 0
        # our own pages: the browser sends our Origin (and Sec-Fetch-Site: same-origin)
        own = {"origin": server.base, "sec-fetch-site": "same-origin"}
        r = victim.post(f"/api/games/{game['id']}/seats/0/keep", headers={**own, "x-seat-token": seat["token"]})
        assert r.status_code == 200, r.text
        r = victim.post(f"/api/games/{game['id']}/actions", json={"seat": 0, "action": "take w b g"}, headers=own)
        assert r.status_code == 200, r.text
        assert [g["id"] for g in victim.get("/api/me").json()["games"]] == [game["id"]]
        assert victim.delete("/api/session", headers=own).status_code == 204
    # without the cookie the seat's secret is the credential, which a forged form cannot know: unchanged
    with server.client() as stranger:
        r = stranger.post(
            f"/api/games/{game['id']}/actions",
            json={"seat": 1, "action": "take w b g"},
            headers={"origin": other, "x-seat-token": game["seats"][1]["token"]},
        )
        assert r.status_code == 200, r.text


def test_the_web_pages_fetch_only_their_own_server() -> None:
    """The pages' requests are same-origin (a relative path): a browser sends our Origin with them, and nothing
    the guard refuses. The service worker passes on only the requests of this server's own origin."""
    import re

    import splendor.server

    web = Path(splendor.server.__file__).parent / "web"
    for page in web.glob("*.js"):
        text = page.read_text(encoding="utf-8")
        for call in re.findall(r"fetch\(\s*([^,)]+)", text):
            if page.name == "sw.js" and call.strip() == "request":  # the service worker passes a page's request on
                assert "url.origin !== location.origin" in text  # only those of this server's own origin
                continue
            assert call.strip()[1] == "/" or call.strip() == "path", (page.name, call)


# ----------------------------------------------------------------------------- 9. slow, idle, too many


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Server]:
    """A server with deadlines of a second, and a cap of four connections and three WebSockets per address."""
    s = Server(
        f"sqlite:///{tmp_path}/q.db",
        tmp_path / "q.log",
        "--header-timeout",
        "1",
        "--body-timeout",
        "1",
        "--idle-timeout",
        "1",
        "--connections-per-client",
        "4",
        "--websockets-per-client",
        "3",
    ).start()
    try:
        yield s
    finally:
        s.stop()


def _raw(server: Server, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
    return sock


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> tuple[float, bytes]:
    """Seconds until the server closes ``sock`` (sending ``trickle`` a byte every 0.2 s meanwhile), and what it
    sent; AssertionError if it is still open after ``seconds``."""
    start = time.monotonic()
    sock.settimeout(0.2)
    received = b""
    sent = 0
    while time.monotonic() - start < seconds:
        if sent < len(trickle):
            try:
                sock.sendall(trickle[sent : sent + 1])
                sent += 1
            except OSError:
                return time.monotonic() - start, received
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - start, received
        if not chunk:
            return time.monotonic() - start, received
        received += chunk
    raise AssertionError(f"still open after {seconds} s")


def test_idle_slow_head_and_slow_body_connections_are_closed(quick: Server) -> None:
    with _raw(quick) as idle:  # never sends a byte
        took, _ = _closed_within(idle, 5)
        assert took < 3
    with _raw(quick) as slow_head:  # a header line a byte every 0.2 s
        head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 200
        took, answer = _closed_within(slow_head, 5, trickle=head)
        assert took < 3 and answer.startswith(b"HTTP/1.1 408")
    with _raw(quick) as slow_body:  # a whole head, then a body that never ends
        slow_body.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"game"'
        )
        took, _ = _closed_within(slow_body, 5)
        assert took < 3
    with _raw(quick) as kept:  # a request answered, then kept alive, idle
        kept.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        took, answer = _closed_within(kept, 5)
        assert took < 3 and answer.startswith(b"HTTP/1.1 200")
    assert httpx.get(f"{quick.base}/api/health").status_code == 200


def test_a_request_head_over_32_kb_is_refused_431_and_not_read_on(server: Server) -> None:
    """A server operator's find: a head of 12,000 headers of 8 KB (96 MB) was read whole and answered 200, the
    server's memory 100 MB larger a connection; four at once took it from 136 MB to 533 MB."""
    with _raw(server) as big:
        big.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer, sent = b"", 0
        try:
            for i in range(2000):  # 16 MB offered, 8 KB a header, more than the sockets' buffers hold
                big.sendall(b"X-Padding-%d: " % i + b"a" * 8192 + b"\r\n")
                sent += 1
        except OSError:  # closed under the sender
            pass
        big.settimeout(5)
        with contextlib.suppress(OSError):
            while chunk := big.recv(4096):
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 431"), answer[:80]
    assert sent < 2000, "the server read on after refusing the head"
    with _raw(server) as long_url:
        long_url.sendall(b"GET /api/health?" + b"a" * 40_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        long_url.settimeout(5)
        assert long_url.recv(64).startswith(b"HTTP/1.1 431")
    with _raw(server) as one_big:  # one header of 1 MB: refused as it comes, not once its line is whole
        one_big.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        with contextlib.suppress(OSError):
            for _ in range(16):
                one_big.sendall(b"a" * 65536)
        one_big.settimeout(5)
        assert one_big.recv(64).startswith(b"HTTP/1.1 431")
    with _raw(server) as upgrade:  # a WebSocket's handshake too big, in one piece: refused, no upgrade tried
        upgrade.sendall(
            b"GET /api/games/x/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Pad: "
            + b"p" * 40_000
            + b"\r\n\r\n"
        )
        upgrade.settimeout(5)
        assert upgrade.recv(64).startswith(b"HTTP/1.1 431")
    with _raw(server) as fine:  # a large but ordinary head: served
        fine.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + b"c" * 8000 + b"\r\n\r\n")
        fine.settimeout(5)
        assert fine.recv(64).startswith(b"HTTP/1.1 200")
    time.sleep(0.3)
    assert "KeyError" not in server.log.read_text(errors="replace")  # (a refused upgrade had been tried still)


class _Wire(asyncio.Transport):
    """What a connection's protocol writes, for feeding it pieces exactly as they are to arrive."""

    def __init__(self) -> None:
        super().__init__()
        self.sent, self.closed, self.closed_by_server = b"", False, False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5), "sockname": ("127.0.0.1", 80)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _answers_to(pieces: list[bytes]) -> _Wire:
    """What the server's protocol writes when a connection's bytes arrive in exactly these pieces."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from splendor.server.transport import bounded_protocol

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    config = Config(app, http="httptools", log_level="warning")
    config.load()
    protocol = bounded_protocol(10, 30, 64)(config=config, server_state=ServerState(), app_state={})
    wire = _Wire()
    protocol.connection_made(wire)
    for piece in pieces:
        protocol.data_received(piece)
        await asyncio.sleep(0.01)
    wire.closed_by_server = wire.closed
    protocol.connection_lost(None)
    return wire


def test_a_request_whose_body_arrives_with_its_head_in_one_piece_is_not_counted_as_head() -> None:
    """CI's find: a request of 60 KB of body read in one piece with its head had been counted toward the next
    request's head (the request complete, the parser waiting for a head again) and answered 431."""
    body = b"[" * 60_000
    request = b"POST /api/games HTTP/1.1\r\nHost: a\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    wire = asyncio.run(_answers_to([request]))
    assert wire.sent.startswith(b"HTTP/1.1 200") and not wire.closed_by_server, wire.sent[:80]
    # two such requests kept alive in one piece, then a third: each answered
    wire = asyncio.run(_answers_to([request * 2, request]))
    assert wire.sent.count(b"HTTP/1.1 200") == 3 and b"431" not in wire.sent
    # the next head begun in such a piece is counted from the next piece on (and each header as it completes)
    head = b"GET / HTTP/1.1\r\nHost: a\r\nX-Big: "
    wire = asyncio.run(_answers_to([request + head + b"a" * 20_000, b"a" * 20_000, b"a" * 20_000]))
    assert wire.sent.count(b"HTTP/1.1 200") == 1 and b"HTTP/1.1 431" in wire.sent and wire.closed_by_server


def test_connections_beyond_the_cap_of_one_address_are_refused_and_others_still_served(quick: Server) -> None:
    held = [_raw(quick) for _ in range(4)]
    try:
        for sock in held:  # each holds a request's head open (under the deadline)
            sock.sendall(b"GET /api/health HTTP/1.1\r\n")
        time.sleep(0.2)
        with _raw(quick) as fifth:
            took, answer = _closed_within(fifth, 2)
            assert answer == b"" and took < 1
        # another address is served all the while (127.0.0.2 is loopback too)
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), base_url=quick.base) as c:
            assert c.get("/api/health").status_code == 200
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    assert httpx.get(f"{quick.base}/api/health").status_code == 200  # the closed ones were counted out


def test_websockets_beyond_the_cap_of_one_address_are_closed(quick: Server) -> None:
    with quick.client() as c:
        games = [create(c, "classic", HUMANS2) for _ in range(4)]
    url = quick.base.replace("http", "ws")
    with contextlib.ExitStack() as held:
        sockets = [held.enter_context(connect(f"{url}/api/games/{g['id']}/ws")) for g in games[:3]]
        for s in sockets:
            assert '"state"' in str(s.recv(timeout=10))
        with connect(f"{url}/api/games/{games[3]['id']}/ws") as fourth, pytest.raises(ConnectionClosed) as closed:
            fourth.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    time.sleep(0.3)
    with connect(f"{url}/api/games/{games[3]['id']}/ws") as again:  # the closed ones were counted out
        assert '"state"' in str(again.recv(timeout=10))


# ----------------------------------------------------------------------------- 15. forwarded addresses


def test_a_client_cannot_escape_the_sign_in_bound_by_naming_its_own_address(server: Server) -> None:
    """Each attempt names another address in X-Forwarded-For: believed (uvicorn trusts 127.0.0.1 by default),
    every one would start a fresh bucket and none would ever be refused."""
    statuses = []
    start = time.monotonic()
    with server.client() as c:
        for i in range(20):
            r = c.post(
                "/api/session",
                json={"name": f"nobody{i}", "password": "not the password"},
                headers={"x-forwarded-for": f"203.0.113.{i + 1}", "forwarded": f"for=198.51.100.{i + 1}"},
            )
            statuses.append(r.status_code)
            if r.status_code == 429:
                break
    refilled = int((time.monotonic() - start) * 10 / 60) + 1  # the bucket refills 10 a minute meanwhile
    assert statuses[-1] == 429 and set(statuses[:-1]) == {401}, statuses
    assert len(statuses) - 1 <= 10 + refilled, statuses
