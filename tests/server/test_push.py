"""Web Push: off by default; configured with a VAPID key, a move that makes it an account's turn sends one encrypted
message, signed with the server's key, to each of that account's browsers, from the process that committed it; a
push service's 410 forgets the subscription; subscribing is bounded per account and bad input is refused."""

from __future__ import annotations

import json
import os
import threading
import time
from base64 import urlsafe_b64decode, urlsafe_b64encode
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from py_vapid import Vapid02

from splendor.server import Settings, create_app
from splendor.server.push import allowed_endpoint
from tests.server.conftest import wait_for


class PushService:
    """A stand-in for a browser's push service on this machine: it keeps what it is sent and answers ``status``."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                service.received.append(
                    {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                )
                self.send_response(service.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Browser:
    """A browser's side of a subscription: its key pair and auth secret, to read what it is sent."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )
        return message


def b64(raw: bytes) -> str:
    return urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.server.shutdown()


@pytest.fixture
def push_app(tmp_path: Path, service: PushService) -> Iterator[TestClient]:
    """The app with push configured: a VAPID key made here, and the stand-in as the one push service."""
    vapid = Vapid02()
    vapid.generate_keys()
    vapid.save_key(str(tmp_path / "vapid.pem"))
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/s.db",
        bot_workers=1,
        bot_pause_seconds=0,
        warm_bot_workers=False,
        vapid_private_key=str(tmp_path / "vapid.pem"),
        vapid_subject="mailto:operator@example.org",
        push_services=(service.origin,),
        push_subscriptions_per_account=2,
    )
    with TestClient(create_app(settings)) as c:
        yield c


def sign_up(c: TestClient, name: str) -> None:
    r = c.post("/api/accounts", json={"name": name, "password": "a good password"})
    assert r.status_code == 201, r.text


def test_push_is_off_by_default(app_client: TestClient) -> None:
    r = app_client.get("/api/push/key")
    assert r.status_code == 200 and r.json() == {"key": None}  # said plainly: every page asks it
    sign_up(app_client, "ann")
    sub = Browser("https://fcm.googleapis.com/fcm/send/x").subscription()
    assert app_client.post("/api/push/subscriptions", json=sub).status_code == 404


def test_a_move_that_makes_it_an_accounts_turn_sends_one_encrypted_signed_message_and_a_410_forgets_it(
    push_app: TestClient, service: PushService
) -> None:
    c = push_app
    key = c.get("/api/push/key").json()["key"]
    assert len(urlsafe_b64decode(key + "=")) == 65
    sign_up(c, "ann")
    browser = Browser(f"{service.origin}/push/ann-1")
    assert c.post("/api/push/subscriptions", json=browser.subscription()).status_code == 204
    made = c.post(
        "/api/games", json={"game": "classic", "seats": [{"kind": "human", "mine": True}, {"kind": "human"}]}
    ).json()
    game_id, bob = made["id"], {"x-seat-token": made["seats"][1]["token"]}

    def play(seat: int, headers: dict[str, str]) -> None:
        view = c.get(f"/api/games/{game_id}", params={"seat": seat}, headers=headers).json()["view"]
        r = c.post(
            f"/api/games/{game_id}/actions", json={"seat": seat, "action": view["legal_actions"][0]}, headers=headers
        )
        assert r.status_code == 200, r.text

    play(0, {})  # ann's own move: now bob's turn, and bob has no account
    play(1, bob)  # bob's move makes it ann's turn: one message
    wait_for(lambda: service.received)
    time.sleep(0.3)
    assert len(service.received) == 1
    sent = service.received[0]
    assert sent["path"] == "/push/ann-1"
    assert sent["headers"]["content-encoding"] == "aes128gcm"
    scheme, token = sent["headers"]["authorization"].split(" ", 1)
    assert scheme == "vapid" and f"k={key}" in token and token.split(",")[0].count(".") == 2
    assert b"turn" not in sent["body"]  # encrypted
    assert browser.read(sent["body"]) == {
        "type": "turn",
        "id": game_id,
        "seat": 0,
        "game": "classic",
        "url": f"/play/{game_id}?seat=0",
    }

    service.status = 410  # the browser unsubscribed at its push service: forgotten at the next turn
    play(0, {})
    play(1, bob)
    wait_for(lambda: len(service.received) == 2)
    account = c.app.state.accounts  # type: ignore[attr-defined]
    ann = account.signed_in(c.cookies.get("splendor_session"))
    subscriptions = c.app.state.manager.pushes.subscriptions  # type: ignore[attr-defined]
    wait_for(lambda: subscriptions.of_account(ann.id) == [])
    assert c.request("DELETE", "/api/push/subscriptions", json={"endpoint": browser.endpoint}).status_code == 404


def test_subscriptions_are_bounded_per_account_and_bad_ones_refused(push_app: TestClient, service: PushService) -> None:
    c = push_app
    sub = Browser(f"{service.origin}/push/1").subscription()
    assert c.post("/api/push/subscriptions", json=sub).status_code == 401  # not signed in
    sign_up(c, "ann")
    for endpoint, why in (
        ("https://evil.example/push", 400),  # not a push service the server sends to
        (f"{service.origin.replace('127.0.0.1', 'user@127.0.0.1')}/x", 400),
    ):
        assert c.post("/api/push/subscriptions", json={**sub, "endpoint": endpoint}).status_code == why
    bad_keys = (
        {"p256dh": sub["keys"]["p256dh"][:-2] + "AA", "auth": sub["keys"]["auth"]},  # not a point on the curve
        {"p256dh": sub["keys"]["p256dh"], "auth": "short"},
        {"p256dh": sub["keys"]["p256dh"], "auth": sub["keys"]["auth"], "extra": "x"},
    )
    for keys in bad_keys:
        assert c.post("/api/push/subscriptions", json={**sub, "keys": keys}).status_code == 422
    assert c.post("/api/push/subscriptions", json={**sub, "more": 1}).status_code == 422
    for number in ("NaN", "Infinity", "-Infinity", "1e400"):  # JSON as Python writes it, or a float past its range
        body = json.dumps({**sub, "expirationTime": 0}).replace('"expirationTime": 0', f'"expirationTime": {number}')
        r = c.post("/api/push/subscriptions", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, number
    assert c.post("/api/push/subscriptions", json={**sub, "endpoint": "x" * 501}).status_code == 422
    for n in (1, 2):
        assert (
            c.post("/api/push/subscriptions", json=Browser(f"{service.origin}/push/{n}").subscription()).status_code
            == 204
        )
    assert c.post("/api/push/subscriptions", json=sub).status_code == 204  # the same browser again: kept, not added
    third = Browser(f"{service.origin}/push/3").subscription()
    r = c.post("/api/push/subscriptions", json=third)
    assert r.status_code == 409 and "2 browsers" in r.json()["detail"]
    gone = c.request("DELETE", "/api/push/subscriptions", json={"endpoint": f"{service.origin}/push/2"})
    assert gone.status_code == 204
    assert c.post("/api/push/subscriptions", json=third).status_code == 204
    assert (
        c.request("DELETE", "/api/push/subscriptions", json={"endpoint": f"{service.origin}/nope"}).status_code == 404
    )


def test_an_endpoint_is_refused_unless_the_sender_reads_the_same_push_service_host_from_it() -> None:
    """A hostile tester's subscription, ``https://127.0.0.1\\.notify.windows.com/...``, passed as a host ending in
    ``.notify.windows.com``, and the server posted to 127.0.0.1: urllib3 ends the host at the backslash."""
    services = ("https://*.notify.windows.com", "https://fcm.googleapis.com")
    assert allowed_endpoint("https://db5p.notify.windows.com/w/?token=x", services)
    for endpoint in (
        "https://127.0.0.1\\.notify.windows.com/internal-admin",
        "https://evil.example\\.notify.windows.com/x",
        "https://evil.example\\@fcm.googleapis.com/x",
        "https://fcm.googleapis.com\t/x",
        "https://db5p.notify.windows.com:8443/x",
        "https://db5p_x.notify.windows.com/x",
    ):
        assert not allowed_endpoint(endpoint, services), endpoint


def test_a_password_change_forgets_every_browsers_subscription(push_app: TestClient, service: PushService) -> None:
    """A browser subscribed by whoever else held a session (a stolen one) is told the account's turns no more."""
    c = push_app
    sign_up(c, "ann")
    sub = Browser(f"{service.origin}/push/thief").subscription()
    assert c.post("/api/push/subscriptions", json=sub).status_code == 204
    r = c.post("/api/me/password", json={"old": "a good password", "new": "a better password"})
    assert r.status_code == 204, r.text
    gone = c.request("DELETE", "/api/push/subscriptions", json={"endpoint": sub["endpoint"]})
    assert gone.status_code == 404


def test_the_store_lists_your_turns_first_and_bounds_subscriptions_on_sqlite_and_postgresql(database_url: str) -> None:
    from sqlalchemy import update

    from splendor.store import open_store
    from splendor.store.accounts import Accounts
    from splendor.store.games import GameStore, SeatInfo
    from splendor.store.models import GameRow
    from splendor.store.push import PushSubscriptions, TooManySubscriptions

    store = open_store(database_url)
    try:
        ann, _ = Accounts(store).sign_up("ann", "a good password")
        games = GameStore(store)
        seats = [SeatInfo(0, "human", None, "ann", None, account_id=ann.id), SeatInfo(1, "human", None, "bob", None)]
        for game_id, to_move in (("a" * 32, 0), ("b" * 32, 1)):  # b is the newer, and bob's turn
            games.create(game_id, "classic", 2, 1, {}, seats, to_move=to_move)
        with store.session() as s:
            s.execute(update(GameRow).where(GameRow.id == "a" * 32).values(deadline=time.time() + 100))
        listed = games.games_of(ann.id)
        assert [(g["id"][0], g["your_turn"], g["to_move"]) for g in listed] == [("a", True, 0), ("b", False, 1)]
        assert 90 < listed[0]["seconds_left"] <= 100 and listed[1]["seconds_left"] is None
        pushes = PushSubscriptions(store)
        assert pushes.add(ann.id, "https://p.example/1", "k", "a", most=1)
        assert not pushes.add(ann.id, "https://p.example/1", "k2", "a2", most=1)  # the same browser: its keys
        with pytest.raises(TooManySubscriptions):
            pushes.add(ann.id, "https://p.example/2", "k", "a", most=1)
        assert [s.p256dh for s in pushes.of_account(ann.id)] == ["k2"]
        pushes.drop("https://p.example/1")
        assert pushes.of_account(ann.id) == []
    finally:
        store.close()
