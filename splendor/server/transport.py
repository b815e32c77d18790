"""Bounds on connections themselves, below HTTP: how long a client may take to send a request, how long an idle
connection stays open, and how many one client address may hold, plus the process's open-file limit.

uvicorn bounds the keep-alive wait after a response (``timeout_keep_alive``) but not a connection that never
sends a request, nor one that sends its request head or body a byte at a time: each such connection holds a file
descriptor for ever, and a thousand of them from one client used up the process's 1,024 and failed every other
request. ``bounded_protocol`` makes uvicorn's HTTP protocol (httptools) close them:

- a new connection that sends nothing within the idle timeout, like one kept alive after a response;
- a request whose head (request line and headers) is not complete within ``header_timeout`` of its first byte
  (answered 408), or whose body is not complete within ``body_timeout`` of its head;
- a connection beyond ``per_client`` open at once from one peer address (closed as it is made);
- a request whose head is larger than ``max_head`` bytes (answered 431): httptools keeps every header it is sent,
  so a head of 96 MB (12,000 headers of 8 KB, sent within the head's deadline) had been read and kept whole, a
  hundred megabytes of the server's memory a connection.

Addresses of trusted proxies (``--forwarded-allow-ips``) are not capped: every client behind them shares them,
and the per-client bounds then apply to the address the proxy forwards (rates, games, WebSockets).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from splendor.server.guards import client_network

log = logging.getLogger("splendor.server")


def trusted_networks(spec: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The addresses and networks of a comma-separated list (``--forwarded-allow-ips``); ``*`` is refused: it
    would let any client name its own address."""
    networks = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        if part == "*":
            raise ValueError("'*' would believe any client's X-Forwarded-For: name the proxies' addresses")
        networks.append(ipaddress.ip_network(part, strict=True))  # as uvicorn reads it: 10.0.0.5/8 is refused
    return networks


def _is_trusted(host: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in n for n in networks)


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with request-head and body deadlines, an idle deadline from the connection's
    first moment, and a cap on the connections one peer address holds. Configure it with ``bounded_protocol``."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    per_client: int = 64
    max_head: int = 32 * 1024
    """Bytes of a request's line and headers at most (nginx reads 32 KB of them by default; a browser's head is
    rarely above 8 KB)."""
    trusted: ClassVar[list[ipaddress.IPv4Network | ipaddress.IPv6Network]] = []
    open_per_client: ClassVar[dict[str, int]] = {}
    """Open connections per peer address, shared by every connection of the process (one event loop)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._head_size = 0  # bytes read of a head not yet complete (over the pieces it came in)
        self._parsed = 0  # bytes of this request's head handed over by the parser
        self._in_head = True  # no head of this connection's next request complete yet
        self._heads = 0  # heads of this connection complete so far
        self._refused = False

    # ---------------------------------------------------------------- the connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        host = client_network(peer) if peer is not None else None
        if host is not None and peer is not None and not _is_trusted(peer, self.trusted):
            count = self.open_per_client.get(host, 0)
            if count >= self.per_client:
                log.warning("closed a connection: %d open from one address already", self.per_client)
                transport.abort()
                return
            self.open_per_client[host] = count + 1
            self._counted = host
        # Until its first request, a connection is idle: the keep-alive deadline applies from now, not only
        # after a response (uvicorn arms it only then).
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        self._clear_deadline()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a WebSocket: it leaves these bounds (a WebSocket's are the app's, per client
        address, and the WebSocket protocol's pings). Not one whose head was refused (it has no request)."""
        if self._refused:
            return
        self._uncount()
        self._clear_deadline()
        super().handle_websocket_upgrade()

    def _uncount(self) -> None:
        if self._counted is not None:
            left = self.open_per_client.get(self._counted, 1) - 1
            if left > 0:
                self.open_per_client[self._counted] = left
            else:
                self.open_per_client.pop(self._counted, None)
            self._counted = None

    # ---------------------------------------------------------------- a request's deadlines

    def _set_deadline(self, seconds: float, what: str) -> None:
        self._clear_deadline()
        self._deadline = self.loop.call_later(seconds, self._too_slow, what)

    def _clear_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, what: str) -> None:
        self._deadline = None
        if self.transport is None or self.transport.is_closing():
            return
        log.info("closed a connection: its request %s did not arrive in time", what)
        if what == "head":
            body = b"the request's head did not arrive in time"
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
            )
        self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed = 0
        self._set_deadline(self.header_timeout, "head")

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._in_head, self._head_size = False, 0
        self._heads += 1
        self._set_deadline(self.body_timeout, "body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._clear_deadline()
        self._in_head = True  # the next request's head, on a connection kept alive
        if not self._refused:
            super().on_message_complete()

    # ---------------------------------------------------------------- a request's size

    def data_received(self, data: bytes) -> None:
        """Read ``data``, and count it toward the head while the head is not complete: httptools hands a header
        over only once its whole line is read, so one header of 96 MB would have been read whole before any
        count of the headers saw it (and each piece of it copied onto the rest, on the event loop).

        A piece is counted only when all of it is head: it began in a head and no head was completed in it. A
        piece that holds a whole request and the start of the next (a body of 60 KB and the next request,
        kept alive) is not all head. What of the next head such a piece holds is counted as the parser hands it
        over (a header once its line is whole), and the pieces after it whole: at most one piece (256 KB, what
        asyncio reads at a time) of a header line goes uncounted a request."""
        if self._refused:  # what follows a refused head is not read
            return
        heading, heads = self._in_head, self._heads  # what the piece began as: a head, not a body's end
        super().data_received(data)
        if heading and self._in_head and self._heads == heads and not self._refused:
            self._within_head(len(data))

    def on_url(self, url: bytes) -> None:
        if self._parsed_within(len(url)):
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._parsed_within(len(name) + len(value) + 4):  # ": " and the line's end
            super().on_header(name, value)

    def _parsed_within(self, size: int) -> bool:
        """A head read whole in one piece is counted as httptools hands it over (line, then each header)."""
        self._parsed += size
        return self._within_head(0)

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def _within_head(self, size: int) -> bool:
        """Count ``size`` more bytes read of a head not yet complete; past ``max_head`` (read, or handed over by
        the parser), answer 431 and close (once). Whether the head is still within its bound."""
        self._head_size += size
        if self._head_size <= self.max_head and self._parsed <= self.max_head and not self._refused:
            return True
        if not self._refused:
            self._refused = True
            self._clear_deadline()
            log.info("closed a connection: its request's head was over %d bytes", self.max_head)
            if self.transport is not None and not self.transport.is_closing():
                body = f"a request's line and headers are {self.max_head} bytes at most".encode()
                self.transport.write(
                    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
                )
                self.transport.close()
        return False


def bounded_protocol(
    header_timeout: float, body_timeout: float, per_client: int, forwarded_allow_ips: str = ""
) -> type[BoundedHttpProtocol]:
    """A ``BoundedHttpProtocol`` class with these bounds, for ``uvicorn.Config(http=...)`` (uvicorn makes one
    instance per connection, so the bounds are the class's)."""
    return type(
        "BoundedHttpProtocol",
        (BoundedHttpProtocol,),
        {
            "header_timeout": header_timeout,
            "body_timeout": body_timeout,
            "per_client": per_client,
            "trusted": trusted_networks(forwarded_allow_ips),
            "open_per_client": {},
        },
    )


def raise_file_limit() -> tuple[int, int]:
    """Raise the process's open-file limit (``RLIMIT_NOFILE``) from its soft value to the hard one: every
    connection and WebSocket is a file descriptor, and the common soft default of 1,024 is reached long before
    memory or CPU. Returns the (soft, hard) limits in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:  # some systems cap it lower than the hard limit says
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, target, e)
    return soft, hard
