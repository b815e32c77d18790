"""The server's settings, with embedded defaults. ``docs/server.md`` says why each bound is what it is."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

PUSH_SERVICES = (
    "https://fcm.googleapis.com",  # Chrome, Android
    "https://updates.push.services.mozilla.com",  # Firefox
    "https://web.push.apple.com",  # Safari
    "https://*.notify.windows.com",  # Edge
)
"""The push services of the browsers people use: a subscription elsewhere is refused."""


@dataclass(frozen=True)
class Settings:
    """Where the store is, how many processes think for bots, and the bounds on what clients may ask."""

    database_url: str | None = None  # None: $SPLENDOR_DATABASE_URL, else SQLite in the user's data folder
    bot_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    warm_bot_workers: bool = True  # start the bots' processes with the server (False: at the first bot's
    # turn; for a test that seats no bot, which then need not wait for them to start and stop)
    # requests
    max_body_bytes: int = 64 * 1024
    requests_per_second: float = 500.0  # per client address, sustained
    request_burst: int = 1000  # per client address, at once
    max_games_listed: int = 200
    # games
    games_per_client: int = 50  # unfinished games one client address may have created
    bot_games_per_client: int = 4  # of which bot-only games (their bots think without pause)
    seats_taken_per_client: int = 10  # unfinished games in which one client address took an open seat
    bot_pause_seconds: float = 1.0  # a bot playing people waits this long after the last action
    allow_chosen_seeds: bool = False  # True: any game may be created with a seed (private servers, tests)
    finished_games_kept: int = 64  # finished games kept in memory after their last look
    idle_game_seconds: float = 600.0  # an unfinished game nobody asks about or watches is let go (and
    # read again from the store when asked for)
    idle_forfeit_seconds: float = 3600.0  # in a rated game, a person to move who has not moved for this long
    # loses (two players) or is played on by a bot and ranks last
    abandoned_game_seconds: float = 30 * 86400.0  # an unrated game without a clock whose person to move has not
    # moved for this long is called off as abandoned (no winner): it had stayed "in play" in every list for ever
    # open games and quick play (docs/server.md, "Open games and quick play")
    open_seat_seconds: float = 1800.0  # a game with open seats waits this long for takers (untimed, real-time)
    open_seat_correspondence_seconds: float = 3 * 86400.0  # the same for a correspondence (days a move) game
    seek_seconds: float = 30.0  # a quick-play seek its player stopped asking about expires after this long
    seeks_per_minute: int = 10  # new quick-play seeks per client address
    games_per_minute: int = 30  # new games per client address (POST /api/games)
    finding_sweep_seconds: float = 1.0  # how often seeks are matched (and seated with bots), stale ones expired
    allow_short_clocks: bool = False  # True: games may choose a clock of seconds ("10s+0"; tests only)
    clock_sweep_seconds: float = 1.0  # how often a process ends the games whose clock has run out
    alive_seconds: float = 5.0  # how often a process says it is alive: a start after six times that with none alive
    # gives every running clock back the time no server ran (splendor.store.clocks.resume_clocks)
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
    # Web Push, off unless a VAPID key is given (docs/server.md, "Push notifications")
    vapid_private_key: str | None = None  # the PEM file of the server's VAPID private key (None: push off)
    vapid_subject: str | None = None  # how a push service reaches the operator: mailto:… or https://…
    push_services: tuple[str, ...] = PUSH_SERVICES  # the only origins a message is ever sent to
    push_subscriptions_per_account: int = 10  # browsers one account may have subscribed at once
    push_queue: int = 256  # turns waiting to be sent (beyond: dropped, said in the pages only)
    push_timeout: float = 10.0  # seconds one push service's answer is waited for
    push_ttl_seconds: int = 86400  # how long a push service keeps a message for a browser that is offline
    # reviews
    review_iterations: int | None = None  # search iterations a move of a review (None: the expert's budget,
    # about a second, as `splendor review`; fewer for tests)
    reviews_at_once: int = 2  # reviews running at once in one process (one per client address)
