"""Web Push: "your turn" to a browser that is closed, where the operator configured it (off by default).

The operator gives the server a VAPID key pair (``--vapid-private-key PATH``, ``--vapid-subject mailto:…``;
``docs/server.md`` says how to make one). A signed-in player's browser then subscribes with its push service
(`splendor.server.push_routes`), and whenever an action accepted by this process makes it the turn of a seat an
account holds, this process sends one encrypted message to each of that account's browsers: the game, the seat and
which game it is, nothing of its hidden cards. The message goes out from a thread of its own through a bounded
queue, never on the request's path: a slow or dead push service delays no game, and a full queue drops the
message (a turn is then said only in the pages). A subscription its push service says is gone (404, 410) is
forgotten. No message is sent for a seat whose page is open on this process: the page says it itself.

Only the push services named in ``Settings.push_services`` are ever sent to, so that a subscription cannot make the
server post to an address of the operator's own network.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
from base64 import urlsafe_b64encode
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from urllib3.util import parse_url

from splendor.server.seating import HUMAN
from splendor.server.settings import Settings
from splendor.store.database import Store
from splendor.store.push import PushSubscriptions

if TYPE_CHECKING:
    from py_vapid import Vapid02

    from splendor.server.cache import LiveGame

log = logging.getLogger("splendor.server")

HOST_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")
"""A push service's host as an endpoint may name it: a host name's letters, digits, hyphens and dots, no more."""

GONE = frozenset({404, 410})
"""What a push service answers for a subscription that no longer exists: it is forgotten."""


def load_vapid(path: str) -> Vapid02:
    """The VAPID private key in the PEM file at ``path``. `ValueError` with words an operator can act on when the
    file is missing or is not an EC P-256 private key (py_vapid itself would make a new key for a missing file)."""
    from py_vapid import Vapid02

    try:
        pem = Path(path).read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read the VAPID private key {path}: {e.strerror or e}") from None
    try:
        return Vapid02.from_pem(pem)
    except Exception:
        raise ValueError(f"{path} is not a VAPID private key (an EC P-256 key in PEM)") from None


def configured_vapid(settings: Settings) -> Vapid02 | None:
    """The server's VAPID key when push is configured (None when it is off), checked with its subject: a push
    service refuses a message whose subject is not a ``mailto:`` or ``https:`` address. `ValueError` with words an
    operator can act on otherwise."""
    if not settings.vapid_private_key:
        if settings.vapid_subject:
            raise ValueError("a VAPID subject without a VAPID private key: give --vapid-private-key too")
        return None
    vapid = load_vapid(settings.vapid_private_key)
    subject = settings.vapid_subject or ""
    try:
        vapid.sign({"sub": subject, "aud": "https://push.example"})
    except Exception:
        raise ValueError(
            f"the VAPID subject must be a mailto: or https: address where push services reach you, not {subject!r}"
        ) from None
    return vapid


def public_key(vapid: Vapid02) -> str:
    """The key a browser subscribes with (``applicationServerKey``): the public point, uncompressed, base64url."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return urlsafe_b64encode(raw).rstrip(b"=").decode()


def allowed_endpoint(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether ``endpoint`` is at one of the push ``services``: each an origin (``https://fcm.googleapis.com``),
    its host perhaps starting with ``*.`` for any subdomain (``https://*.notify.windows.com``).

    The endpoint is read by the parser that posts to it (urllib3's, under pywebpush's requests) as well as by the
    standard library's, and both must find the same host, made of a host name's letters only: the two read
    ``https://127.0.0.1\\.notify.windows.com/`` differently (the one a host ending in the service's name, the
    other 127.0.0.1), and a subscription must never make the server post to an address of its own network.

    >>> services = ("https://fcm.googleapis.com", "https://*.notify.windows.com")
    >>> [allowed_endpoint(e, services) for e in ("https://fcm.googleapis.com/fcm/send/abc",
    ...     "https://db5p.notify.windows.com/w/?token=x", "https://fcm.googleapis.com.evil.example/x",
    ...     "http://fcm.googleapis.com/x", "https://notify.windows.com/x", "https://user@fcm.googleapis.com/x",
    ...     "https://127.0.0.1\\.notify.windows.com/x", "https://db5p.notify.windows.com /x")]
    [True, True, False, False, False, False, False, False]
    """
    if any(c == "\\" or not c.isprintable() or c.isspace() for c in endpoint):
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port
        sent_to = parse_url(endpoint)
    except ValueError:
        return False
    if not parts.hostname or parts.username is not None or parts.password is not None:
        return False
    host = parts.hostname.lower()
    if (
        not HOST_NAME.fullmatch(host)
        or (sent_to.host or "").lower() != host
        or (sent_to.port or None) != (port or None)
    ):
        return False
    for service in services:
        want = urlsplit(service)
        if want.scheme != parts.scheme or (want.port or None) != (port or None):
            continue
        pattern = (want.hostname or "").lower()
        if host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


@dataclass(frozen=True)
class TurnMessage:
    """A turn to tell an account of: its game, the seat now to move, and which game it is."""

    account_id: int
    game_id: str
    seat: int
    game: str

    def body(self) -> str:
        """What the browser receives (encrypted): the service worker words it in the player's language."""
        return json.dumps(
            {"type": "turn", "id": self.game_id, "seat": self.seat, "game": self.game, "url": self.url()},
            separators=(",", ":"),
        )

    def url(self) -> str:
        """The seat's page: the account holds the seat, so no secret is needed (nor ever sent)."""
        return f"/play/{self.game_id}?seat={self.seat}"


class TurnPushes:
    """Sends "your turn" to the browsers of accounts, from one thread fed by a bounded queue."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.settings = settings
        self.subscriptions = PushSubscriptions(store)
        self.vapid = configured_vapid(settings)
        self.key = public_key(self.vapid) if self.vapid is not None else None
        """The public key browsers subscribe with; None while push is off."""
        self._queue: queue.Queue[TurnMessage | None] = queue.Queue(maxsize=settings.push_queue)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.vapid is not None

    def turn_passed(self, live: LiveGame, mover: int) -> None:
        """After ``mover``'s action was committed by this process: when it made it the turn of another seat that
        an account holds (a person's, not a bot's), queue one message to that account's browsers. Never waits."""
        if self.vapid is None or live.over:
            return
        seat = live.game.current_player
        if seat is None or seat == mover or seat >= len(live.seats):
            return
        info = live.seats[seat]
        if info.kind != HUMAN or info.account_id is None or info.forfeited:
            return
        if any(w.seat == seat and not w.closed for w in live.watchers):
            return  # the seat's page is open here and says it itself
        self._start()
        try:
            self._queue.put_nowait(TurnMessage(info.account_id, live.id, seat, live.game.name))
        except queue.Full:
            log.warning("push: the queue is full, the turn of game %s is told only in its pages", live.id)

    def turn_began(self, live: LiveGame) -> None:
        """After a change this process committed that made it a seat's turn with no action (an open seat taken, a
        game paired in quick play): as `turn_passed`, for whichever seat is to move."""
        self.turn_passed(live, -1)

    def stop(self, seconds: float = 5.0) -> None:
        """Let the thread send what is queued (for up to ``seconds``), then end it."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            self._queue.put(None, timeout=seconds)
        except queue.Full:
            return  # a daemon thread: it ends with the process
        thread.join(seconds)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="splendor-push", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            message = self._queue.get()
            if message is None:
                return
            try:
                self._send(message)
            except Exception:
                log.exception("push: the turn of game %s could not be sent", message.game_id)

    def _send(self, message: TurnMessage) -> None:
        import requests
        from pywebpush import WebPushException, webpush

        assert self.vapid is not None
        session = requests.Session()
        session.max_redirects = 0  # a push service answers; it never sends the server elsewhere
        session.trust_env = False
        with session:
            for sub in self.subscriptions.of_account(message.account_id):
                if not allowed_endpoint(sub.endpoint, self.settings.push_services):
                    continue  # kept before the operator changed the services: never sent to
                try:
                    webpush(
                        sub.info(),
                        message.body(),
                        vapid_private_key=self.vapid,
                        vapid_claims={"sub": self.settings.vapid_subject or ""},
                        timeout=self.settings.push_timeout,
                        ttl=self.settings.push_ttl_seconds,
                        headers={"Urgency": "high", "Topic": message.game_id[:32]},
                        requests_session=session,
                    )
                except WebPushException as e:
                    status = getattr(e.response, "status_code", None)
                    if status in GONE:
                        self.subscriptions.drop(sub.endpoint)
                        log.info(
                            "push: a subscription of account %d is gone (%s): forgotten", message.account_id, status
                        )
                    else:
                        log.warning("push: the push service answered %s for game %s", status, message.game_id)
                except requests.RequestException as e:
                    log.warning("push: the push service could not be reached for game %s: %s", message.game_id, e)
