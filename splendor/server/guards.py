"""What keeps the server safe: bounded request sizes and rates, a secret read only from its one spelling, and log
lines that never carry a secret. (Secrets themselves: ``splendor.store.secrets``.)"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
from urllib.parse import parse_qs, unquote_plus, urlsplit

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from splendor.i18n import LANGUAGES, SOURCE_LANGUAGE, _, _n, negotiate, translate
from splendor.i18n import Message as Words


def client_address(scope: Scope) -> str:
    """The client as every per-address bound counts it: the connection's peer, or behind a proxy trusted with
    ``--forwarded-allow-ips`` the address that proxy forwards (``X-Forwarded-For``), never a header a client sets;
    an IPv6 address as its /64 network (`client_network`)."""
    return client_network(str((scope.get("client") or ("?", 0))[0]))


def client_network(host: str) -> str:
    """One client's addresses as one: an IPv6 address stands for its /64 network (a machine is handed a whole /64,
    so its owner could otherwise take a fresh address for every request); an IPv4 address, or anything else,
    stands for itself.

    >>> client_network("2001:db8:1:2::5"), client_network("2001:db8:1:2:ffff::1"), client_network("10.0.0.7")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64', '10.0.0.7')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def secret_spelling_problem(query: bytes) -> str | None:
    """Why a query string's secret is refused: ``token`` spelled with escapes (``%74oken``), which logs would not
    recognise as a secret, or given twice. None when it is fine."""
    seen = 0
    for part in query.decode("latin-1").split("&"):
        key = part.split("=", 1)[0]
        if unquote_plus(key).strip().lower() == "token":
            if key != "token":
                return "write the secret's parameter as plain 'token' (or use the x-seat-token header)"
            seen += 1
    return "give the secret once" if seen > 1 else None


TOO_MANY_SOCKETS = _("too many connections from your address: close a tab")
"""Why a WebSocket past the bound of open ones from one address (``websockets_per_client``) is closed (1013)."""
TOO_MANY_GAMES = _("too many games created from your address: wait a minute")
"""The bound of new games a minute from one address (``--games-per-minute``): created, or dealt as a rematch."""


def unfinished_games(count: int, bots_only: bool = False) -> Words:
    """Why a new game is refused when its address holds ``count`` unfinished games already, the most allowed
    (``--games-per-client``; ``bots_only``: of games between bots, bounded apart)."""
    if bots_only:
        return _n(
            "you have {n} unfinished game between bots, the most allowed: wait for it to end",
            "you have {n} unfinished games between bots, the most allowed: wait for one to end",
            count,
        )
    return _n(
        "you have {n} unfinished game on this server, the most allowed: finish it first",
        "you have {n} unfinished games on this server, the most allowed: finish one first",
        count,
    )


class RateLimiter:
    """A token bucket per client address."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(client, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > 10000:  # forget idle clients
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return True

    def give_back(self, client: str) -> None:
        """Return the token ``client`` spent on a request that was then refused and did nothing."""
        if client in self._buckets:
            tokens, last = self._buckets[client]
            self._buckets[client] = (min(float(self.burst), tokens + 1), last)


class BoundsMiddleware:
    """Refuses bodies over ``max_body`` bytes (413) and clients over their rate (429), before any work."""

    def __init__(self, app: ASGIApp, max_body: int, limiter: RateLimiter) -> None:
        self.app, self.max_body, self.limiter = app, max_body, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self.limiter.allow(client_address(scope)):
            if scope["type"] == "http":
                await JSONResponse({"detail": "too many requests: slow down"}, status_code=429)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        problem = secret_spelling_problem(scope.get("query_string") or b"")
        if problem is not None:
            if scope["type"] == "http":
                await JSONResponse({"detail": problem}, status_code=400)(scope, receive, send)
            elif (await receive())["type"] == "websocket.connect":  # the handshake (a client gone asks nothing)
                # opened, then closed with why: closed before it opened, the client reads a bare 403
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1008, "reason": problem[:100]})
            return
        if scope["type"] == "http":
            too_large = JSONResponse({"detail": f"the request body is over {self.max_body} bytes"}, status_code=413)
            length = dict(scope.get("headers") or []).get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await too_large(scope, receive, send)
                return
            # Read the body whole before the app sees it (the limit keeps it small): a streamed body that passes
            # the limit is refused here with 413, where the app's body parser would have turned it into a 400.
            messages: list[Message] = []
            received = 0
            while True:
                message = await receive()
                messages.append(message)
                if message["type"] != "http.request":
                    break
                received += len(message.get("body", b""))
                if received > self.max_body:
                    await too_large(scope, receive, send)
                    return
                if not message.get("more_body", False):
                    break
            read = iter(messages)

            async def replayed() -> Message:
                return next(read, None) or await receive()

            await self.app(scope, replayed, send)
            return
        await self.app(scope, receive, send)


_SECRET = re.compile(r"((?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)(?:=|%3d))[^&\s\"']+", re.IGNORECASE)


class RedactSecrets(logging.Filter):
    """Blanks seat secrets out of any log line (for example a WebSocket URL in an access log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _SECRET.sub(r"\1[redacted]", str(record.msg))
        if record.args:
            record.args = tuple(
                _SECRET.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                for a in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        return True


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SESSION_COOKIE = "splendor_session"
"""The session cookie's name (``splendor.server.accounts.COOKIE``, which imports this module: kept equal by a test)."""
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_parts(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port made explicit; None when it cannot be read."""
    try:
        parts = urlsplit(f"//{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return scheme, host.lower(), port if port is not None else _DEFAULT_PORTS.get(scheme, 0)


def cross_site_problem(scope: Scope) -> str | None:
    """Why a request (or a WebSocket handshake) is not known to come from this server's own pages, or None.

    A browser says where a request comes from: ``Sec-Fetch-Site`` (``same-origin``, or ``none`` for what the
    person typed or bookmarked) and ``Origin`` (on every POST, PUT, PATCH, DELETE and WebSocket). A page of another
    site, or of the same site on another port or subdomain, can make a signed-in visitor's browser send a form that
    carries the session cookie (``SameSite=Lax`` stops only other *sites*); these headers, which its script cannot
    set, tell it apart. ``Sec-Fetch-Site`` decides when it is sent (every current browser does); else ``Origin``
    must be the request's own origin: its scheme (``ws`` read as ``http``) and its ``Host`` header, so behind a TLS
    proxy the scheme is right only when the proxy is trusted (``--forwarded-allow-ips``)."""
    headers = Headers(scope=scope)
    site = headers.get("sec-fetch-site")
    if site is not None:
        # The browser's own word, and the first choice: a proxy that rewrites Host (nginx's default) or a TLS proxy
        # not named as trusted would make the Origin comparison below refuse the server's own pages.
        if site.strip().lower() in ("same-origin", "none"):
            return None
        return f"sent from another site's page (Sec-Fetch-Site: {site.strip()[:20]})"
    origin = headers.get("origin")
    if origin is None:
        return None
    given_scheme: str = scope.get("scheme", "http")
    scheme = {"ws": "http", "wss": "https"}.get(given_scheme, given_scheme)
    own = _origin_parts(scheme, headers.get("host", ""))
    try:
        given = urlsplit(origin.strip())
    except ValueError:
        given = None
    theirs = _origin_parts(given.scheme.lower(), given.netloc) if given is not None and given.scheme else None
    if own is None or theirs is None or theirs != own:
        return "sent from another site's page (its Origin is not this server's)"
    return None


def has_session_cookie(scope: Scope) -> bool:
    """Whether the request carries a (non-empty) session cookie, the one credential a browser adds by itself."""
    for name, value in scope.get("headers") or []:
        if name == b"cookie" and cookie_parser(value.decode("latin-1")).get(SESSION_COOKIE):
            return True
    return False


FROM_ANOTHER_SITE = _(
    "refused: this request came from another site's page, not from this server's own; send it from this server's pages"
)
"""Why a request with the session cookie from another site's page is refused, or its session not counted."""


class SameOriginMiddleware:
    """Refuses (403) a state-changing request that carries the session cookie unless it comes from this server's
    own pages (``cross_site_problem``): the cookie is sent by the browser whoever's page asks, so it alone proves
    nothing. Requests without the cookie authenticate with a seat's secret in a header or the query, which a
    forged form cannot know, and pass unchanged; so do safe methods (GET, HEAD, OPTIONS), which change nothing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in UNSAFE_METHODS and has_session_cookie(scope):
            problem = cross_site_problem(scope)
            if problem is not None:
                logging.getLogger("splendor.server").warning(
                    "refused a %s %s with the session cookie: %s", scope.get("method"), scope.get("path"), problem
                )
                language = negotiate(Headers(scope=scope).get("accept-language"))
                message = translate(FROM_ANOTHER_SITE, language)
                await JSONResponse(
                    {"detail": message},
                    status_code=403,
                    headers={"content-language": language, "vary": "accept-language"},
                )(scope, receive, send)
                return
        await self.app(scope, receive, send)


PAGE_POLICY = "script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
"""The pages' Content-Security-Policy: scripts only from this server (the pages have no inline script), no plugins,
no framing by another site (a framed table could be clicked into resigning). Styles and images are left alone:
the Kids board is an SVG with its own styles. The API's /docs and /redoc load their scripts from a CDN, and keep
FastAPI's own headers."""

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # a seat's secret is in its link: never sent to another site
    (b"x-frame-options", b"DENY"),
]
"""Sent with every HTTP answer."""


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every HTTP answer, and `PAGE_POLICY` to all but the API's documentation pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policed = not str(scope.get("path", "")).startswith(("/docs", "/redoc"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _ADDED]
                headers += SECURITY_HEADERS
                if policed:
                    headers.append((b"content-security-policy", PAGE_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


_ADDED = {name for name, _value in SECURITY_HEADERS} | {b"content-security-policy"}


class WebSocketCap:
    """At most ``per_client`` WebSockets open at once per client address; one beyond is closed at its handshake
    (1013, try again later). A socket costs a file descriptor and memory for as long as it stays open, and only
    this bound keeps one address from holding them all."""

    def __init__(self, app: ASGIApp, per_client: int) -> None:
        self.app, self.per_client = app, per_client
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = client_address(scope)
        if self.open.get(client, 0) >= self.per_client:
            logging.getLogger("splendor.server").warning(
                "refused a WebSocket: %d open from one address already", self.per_client
            )
            await receive()  # the handshake: accepted, so that the client reads why
            await send({"type": "websocket.accept"})
            asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
            words = translate(TOO_MANY_SOCKETS, asked if asked in LANGUAGES else SOURCE_LANGUAGE)
            await send(
                {"type": "websocket.close", "code": 1013, "reason": words.encode()[:120].decode(errors="ignore")}
            )
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[client] - 1
            if left:
                self.open[client] = left
            else:
                del self.open[client]
