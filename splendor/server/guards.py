"""What keeps the server safe: bounded request sizes and rates, a secret read only from its one spelling, and log
lines that never carry a secret. (Secrets themselves: ``splendor.store.secrets``.)"""

from __future__ import annotations

import logging
import re
import time
from urllib.parse import unquote_plus

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


def client_address(scope: Scope) -> str:
    """The client's address as the server sees it (behind a proxy, run uvicorn with its proxy headers)."""
    return str((scope.get("client") or ("?", 0))[0])


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
            else:
                await send({"type": "websocket.close", "code": 1008, "reason": problem[:100]})
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


_SECRET = re.compile(r"((?:t|%74)(?:o|%6f)(?:k|%6b)(?:e|%65)(?:n|%6e)(?:=|%3d))[^&\s\"']+", re.IGNORECASE)


class RedactSecrets(logging.Filter):
    """Blanks seat secrets out of any log line (for example a WebSocket URL in an access log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _SECRET.sub(r"\1[redacted]", str(record.msg))
        if record.args:
            record.args = tuple(_SECRET.sub(r"\1[redacted]", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple) else (record.args,)))
        return True

