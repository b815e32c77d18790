"""What keeps the server safe: seat secrets (only their hashes are stored), bounded request sizes and rates,
and log lines that never carry a secret."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send


def new_token() -> str:
    """A seat's secret: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Constant-time check of a presented secret against the stored hash."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


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
        if len(self._buckets) > 10000:                        # forget idle clients
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return True


class BoundsMiddleware:
    """Refuses bodies over ``max_body`` bytes (413) and clients over their rate (429), before any work."""

    def __init__(self, app: ASGIApp, max_body: int, limiter: RateLimiter) -> None:
        self.app, self.max_body, self.limiter = app, max_body, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        if not self.limiter.allow(client):
            if scope["type"] == "http":
                await JSONResponse({"detail": "too many requests: slow down"}, status_code=429)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] == "http":
            length = dict(scope.get("headers") or []).get(b"content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await JSONResponse({"detail": f"the request body is over {self.max_body} bytes"},
                                   status_code=413)(scope, receive, send)
                return
            received = 0

            async def bounded() -> dict:  # type: ignore[type-arg]
                nonlocal received
                message = await receive()
                if message["type"] == "http.request":
                    received += len(message.get("body", b""))
                    if received > self.max_body:
                        raise BodyTooLarge
                return message

            try:
                await self.app(scope, bounded, send)
            except BodyTooLarge:
                await JSONResponse({"detail": f"the request body is over {self.max_body} bytes"},
                                   status_code=413)(scope, receive, send)
            return
        await self.app(scope, receive, send)


class BodyTooLarge(Exception):
    """A streamed body passed the limit."""


_SECRET = re.compile(r"(token=)[^&\s\"']+")


class RedactSecrets(logging.Filter):
    """Blanks seat secrets out of any log line (for example a WebSocket URL in an access log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _SECRET.sub(r"\1[redacted]", str(record.msg))
        if record.args:
            record.args = tuple(_SECRET.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple) else (record.args,)))
        return True


Handler = Callable[[Request], Awaitable[Response]]
