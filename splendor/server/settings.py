"""The server's settings, with embedded defaults. ``docs/server.md`` says why each bound is what it is."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    """Where the store is, how many processes think for bots, and the bounds on what clients may ask."""

    database_url: str | None = None  # None: $SPLENDOR_DATABASE_URL, else SQLite in the user's data folder
    bot_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    # requests
    max_body_bytes: int = 64 * 1024
    requests_per_second: float = 500.0  # per client address, sustained
    request_burst: int = 1000  # per client address, at once
    max_games_listed: int = 200
    # games
    games_per_client: int = 50  # unfinished games one client address may have created
    bot_games_per_client: int = 4  # of which bot-only games (their bots think without pause)
    bot_pause_seconds: float = 1.0  # a bot playing people waits this long after the last action
    allow_chosen_seeds: bool = False  # True: any game may be created with a seed (private servers, tests)
    finished_games_kept: int = 64  # finished games kept in memory after their last look
    idle_game_seconds: float = 600.0  # an unfinished game nobody asks about or watches is let go (and
    # read again from the store when asked for)
    idle_forfeit_seconds: float = 3600.0  # in a rated game, a person to move who has not moved for this long
    # loses (two players) or is played on by a bot and ranks last
    # WebSockets
    max_frame_bytes: int = 16 * 1024  # a larger message closes the connection (1009)
    messages_per_second: float = 10.0  # per connection, sustained
    message_burst: int = 30  # per connection, at once
    watcher_queue: int = 32  # pushes a watcher may have waiting before it is dropped
    send_timeout: float = 10.0  # seconds one push may take before its watcher is dropped
    watchers_per_game: int = 64  # spectators of one game; its seats always get in
    spectators_per_address: int = 4  # spectators of one game from one client address
    sockets_per_seat: int = 4  # a seat's own sockets (its tabs): a fifth closes the oldest
    session_check_seconds: float = 15.0  # how often the sessions of sockets signed in are checked again
    # the store
    write_retry_seconds: float = 5.0  # how long an action's write is retried before a 503
    # accounts
    sign_ins_per_minute: int = 10  # sign-ups and sign-ins per client address
    secure_cookies: bool | None = None  # None: Secure when the request came over HTTPS
    # many processes on one database
    lease_seconds: float = 10.0  # a bot lease lasts this long unless renewed (a dead process's bots
    # are taken over within about this long)
    sweep_seconds: float = 2.0  # how often a process looks for bots that nobody moves
    # connections
    header_timeout: float = 10.0  # a request's head (line and headers) must arrive within this many
    # seconds of its first byte, else the connection is closed (408)
    body_timeout: float = 30.0  # its body within this many seconds after the head
    idle_timeout: float = 5.0  # a connection with no request in progress is closed after this long
    connections_per_client: int = 64  # open HTTP connections per client address (beyond: closed at once)
    websockets_per_client: int = 256  # open WebSockets per client address (beyond: closed, 1013)
    forwarded_allow_ips: str = ""  # proxies whose X-Forwarded-For/-Proto are believed ("" none, or
    # comma-separated addresses or networks)
    store_seconds: float = 5.0  # how long one read of the store is waited for before a 503
    health_store_seconds: float = 2.0  # how long /api/health waits for the store's SELECT 1
