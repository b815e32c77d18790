"""``splendor serve``: the game server, on the server's embedded defaults unless an option says otherwise."""

from __future__ import annotations

import errno
import signal
import socket
from types import FrameType
from typing import Annotated, Any

import typer

from splendor.cli.base import app, console, fail, needs_extra
from splendor.server.settings import Settings as ServerSettings

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""Each line of the server's log: its time, level and source, the server's own lines and uvicorn's alike."""
ACCESS_LINE = '%(client_addr)s "%(request_line)s" %(status_code)s'
"""What uvicorn's access log says of a request (``--access-log``)."""
SERVED = ServerSettings()
"""The server's embedded defaults, which `serve`'s options show and pass on (one place says each of them)."""


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Where games and profiles are kept (default: $SPLENDOR_DATABASE_URL, else SQLite in your data folder)"
        ),
    ] = None,
    bot_workers: Annotated[int | None, typer.Option(min=1, help="Processes that think for bots")] = None,
    warm_bot_workers: Annotated[
        bool,
        typer.Option(
            "--warm-bot-workers/--lazy-bot-workers",
            help="Start the bots' processes with the server (lazy: at the first bot's turn, which then waits for "
            "them; a server that seats no bot never starts them)",
        ),
    ] = SERVED.warm_bot_workers,
    requests_per_second: Annotated[
        float, typer.Option(min=0.01, help="Requests a client address may make per second")
    ] = SERVED.requests_per_second,
    request_burst: Annotated[
        int, typer.Option(min=1, help="Requests a client address may make at once")
    ] = SERVED.request_burst,
    max_body: Annotated[int, typer.Option(min=1, help="Largest request body, in bytes")] = SERVED.max_body_bytes,
    games_per_client: Annotated[
        int, typer.Option(min=1, help="Unfinished games one client address may create")
    ] = SERVED.games_per_client,
    seats_taken_per_client: Annotated[
        int, typer.Option(min=1, help="Unfinished games in which one client address may take an open seat")
    ] = SERVED.seats_taken_per_client,
    games_per_minute: Annotated[
        int, typer.Option(min=1, help="New games one client address may create a minute")
    ] = SERVED.games_per_minute,
    messages_per_second: Annotated[
        float,
        typer.Option(
            min=0.01,
            help="WebSocket messages one connection may send per second (a burst of three seconds' worth)",
        ),
    ] = SERVED.messages_per_second,
    write_retry_seconds: Annotated[
        float,
        typer.Option(
            min=0.0, help="How long a refused write to the store is retried before the action is answered 503"
        ),
    ] = SERVED.write_retry_seconds,
    bot_pause: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=30.0,
            help="Seconds a bot playing people waits after the last action, so that each move can be seen (0: at once)",
        ),
    ] = SERVED.bot_pause_seconds,
    allow_chosen_seeds: Annotated[
        bool,
        typer.Option(
            help="Let games with two or more people be created with a "
            "chosen seed (for a private server or tests: the "
            "creator then knows every deck)"
        ),
    ] = SERVED.allow_chosen_seeds,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=1.0,
            max=600.0,
            help="With several processes on one "
            "PostgreSQL: how long a process's hold on "
            "a game's bots lasts unless renewed (a "
            "dead process's bots are taken over "
            "after about this long)",
        ),
    ] = SERVED.lease_seconds,
    header_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a request's line and headers may take "
            "to arrive from their first byte (then 408 and the "
            "connection is closed)",
        ),
    ] = SERVED.header_timeout,
    body_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a request's body may take to arrive after its headers (then the connection is closed)",
        ),
    ] = SERVED.body_timeout,
    idle_timeout: Annotated[
        float,
        typer.Option(
            min=0.1, help="Seconds a connection may stay open with no request (new, or kept alive after a response)"
        ),
    ] = SERVED.idle_timeout,
    connections_per_client: Annotated[
        int,
        typer.Option(
            min=1,
            help="HTTP connections one client address may "
            "hold open at once (beyond: closed as they "
            "open; proxies of --forwarded-allow-ips are "
            "not counted)",
        ),
    ] = SERVED.connections_per_client,
    websockets_per_client: Annotated[
        int, typer.Option(min=1, help="WebSockets one client address may hold open at once (beyond: closed, 1013)")
    ] = SERVED.websockets_per_client,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Comma-separated addresses or networks of the proxies "
            "in front of the server: only their X-Forwarded-For "
            "and X-Forwarded-Proto are believed (default: none; a "
            "client's own such headers are ignored)"
        ),
    ] = SERVED.forwarded_allow_ips,
    store_deadline: Annotated[
        float,
        typer.Option(min=0.5, help="Seconds a read of the store is waited for before the request is answered 503"),
    ] = SERVED.store_seconds,
    idle_forfeit_seconds: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="In a rated game, seconds the person to "
            "move may take before they forfeit (two "
            "players: they lose; three or four: a bot "
            "plays their seat on, ranked last)",
        ),
    ] = SERVED.idle_forfeit_seconds,
    abandoned_game_days: Annotated[
        float,
        typer.Option(
            min=14,
            help="Days the person to move in an untimed game that no idle forfeit ends (unrated, or their seat "
            "keeps no account) may take before the game is called off as abandoned, no winner (two weeks at least: "
            "the table says 'for weeks')",
        ),
    ] = SERVED.abandoned_game_seconds / 86400,
    review_iterations: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Search iterations a move of a game's review (default: the expert's budget, about a second, "
            "as 'splendor review'; fewer for tests)",
        ),
    ] = None,
    reviews_at_once: Annotated[
        int, typer.Option(min=1, help="Reviews one process runs at once")
    ] = SERVED.reviews_at_once,
    vapid_private_key: Annotated[
        str | None,
        typer.Option(
            envvar="SPLENDOR_VAPID_PRIVATE_KEY",
            help="Web Push: the PEM file of the server's VAPID private key ('vapid --gen' makes one; docs/server.md). "
            "Without it, push notifications are off",
        ),
    ] = None,
    vapid_subject: Annotated[
        str | None,
        typer.Option(
            envvar="SPLENDOR_VAPID_SUBJECT",
            help="Web Push: where push services reach the operator, mailto:you@example.org or an https: address",
        ),
    ] = None,
    push_services: Annotated[
        str | None,
        typer.Option(
            help="Web Push: comma-separated origins of the push services a browser may subscribe at, a host "
            "perhaps starting with '*.' (default: those of Chrome, Firefox, Safari and Edge)",
        ),
    ] = None,
    allow_short_clocks: Annotated[
        bool,
        typer.Option(help="Let games choose a clock of seconds, such as 10s+0 (for tests: nobody plays on one)"),
    ] = SERVED.allow_short_clocks,
    open_seat_minutes: Annotated[
        float, typer.Option(min=0.01, help="Minutes a game's open seats wait for takers before it expires")
    ] = SERVED.open_seat_seconds / 60,
    open_seat_correspondence_days: Annotated[
        float, typer.Option(min=0.001, help="The same, in days, for a game of days a move")
    ] = SERVED.open_seat_correspondence_seconds / 86400,
    seeks_per_minute: Annotated[
        int, typer.Option(min=1, help="New quick-play requests per client address")
    ] = SERVED.seeks_per_minute,
    finding_sweep_seconds: Annotated[
        float, typer.Option(min=0.05, help="How often quick play matches waiting players and open seats expire")
    ] = SERVED.finding_sweep_seconds,
    log_level: Annotated[
        str,
        typer.Option(help="What the log says: debug, info (each action played, each store upgrade), warning, error"),
    ] = "info",
    access_log: Annotated[
        bool, typer.Option(help="Log every request with its status (off: the players' moves are logged already)")
    ] = False,
) -> None:
    """Run the game server: HTTP + WebSocket API, games kept in the store and resumed after a restart."""
    import logging
    from importlib.util import find_spec

    from splendor.store.database import database_url as resolve_url
    from splendor.store.database import shown_url

    with needs_extra("server"):
        import uvicorn

        from splendor.server import Settings, create_app
        from splendor.server.bots import STOPPING
        from splendor.server.transport import bounded_protocol, raise_file_limit
    if resolve_url(database_url).startswith("postgresql") and find_spec("psycopg") is None:
        raise fail("a PostgreSQL store needs psycopg, which is not installed: pip install 'splendor[server]'")
    levels = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
    if log_level.lower() not in levels:
        raise fail(f"unknown log level {log_level!r}; the levels are {', '.join(levels)}")

    logging.basicConfig(level=levels[log_level.lower()], format=LOG_FORMAT)
    extra: dict[str, Any] = {} if bot_workers is None else {"bot_workers": bot_workers}
    settings = Settings(
        database_url=database_url,
        warm_bot_workers=warm_bot_workers,
        requests_per_second=requests_per_second,
        request_burst=request_burst,
        max_body_bytes=max_body,
        games_per_client=games_per_client,
        seats_taken_per_client=seats_taken_per_client,
        games_per_minute=games_per_minute,
        write_retry_seconds=write_retry_seconds,
        allow_chosen_seeds=allow_chosen_seeds,
        bot_pause_seconds=bot_pause,
        lease_seconds=lease_seconds,
        sweep_seconds=min(SERVED.sweep_seconds, lease_seconds / 3),
        messages_per_second=messages_per_second,
        message_burst=max(1, int(3 * messages_per_second)),
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        idle_timeout=idle_timeout,
        connections_per_client=connections_per_client,
        websockets_per_client=websockets_per_client,
        forwarded_allow_ips=forwarded_allow_ips,
        store_seconds=store_deadline,
        idle_forfeit_seconds=idle_forfeit_seconds,
        abandoned_game_seconds=abandoned_game_days * 86400,
        review_iterations=review_iterations,
        reviews_at_once=reviews_at_once,
        allow_short_clocks=allow_short_clocks,
        open_seat_seconds=open_seat_minutes * 60,
        open_seat_correspondence_seconds=open_seat_correspondence_days * 86400,
        seeks_per_minute=seeks_per_minute,
        finding_sweep_seconds=finding_sweep_seconds,
        vapid_private_key=vapid_private_key,
        vapid_subject=vapid_subject,
        **extra,
    )
    if push_services is not None:
        from dataclasses import replace

        settings = replace(settings, push_services=tuple(o.strip() for o in push_services.split(",") if o.strip()))
    try:
        from splendor.server.push import configured_vapid

        configured_vapid(settings)
    except ValueError as e:
        raise fail(f"push notifications: {e}") from None
    try:
        protocol = bounded_protocol(header_timeout, body_timeout, connections_per_client, forwarded_allow_ips)
    except ValueError as e:
        raise fail(f"--forwarded-allow-ips: {e}") from None
    # The address first, then the store: a start that cannot listen (the port taken, an unknown host) had already
    # made or upgraded the store, which an older process may still be serving.
    listening = _listening(host, port)
    _check_store(database_url)
    files, _hard = raise_file_limit()
    # A line each, so that an 80-column terminal breaks none of them mid-way (the store's path is long).
    console.print(
        f"splendor server on [bold]http://{host}:{port}/[/] (API at /api, schema at /docs)\n"
        f"  store: {shown_url(resolve_url(database_url))}\n  open files: {files}",
        highlight=False,
        soft_wrap=True,
    )
    # Forwarded headers are believed only from the proxies named: uvicorn's default trusts 127.0.0.1, so any
    # client on the machine (or a proxy that passes them through) could name its own address and escape every
    # per-address bound.
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        access_log=access_log,
        log_level=log_level.lower(),
        log_config=_uvicorn_logs(),
        ws_max_size=settings.max_frame_bytes,
        http=protocol,
        timeout_keep_alive=idle_timeout,  # type: ignore[arg-type]  # a float works
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips.strip() or [],
    )
    # uvicorn stops gracefully on SIGTERM and then raises it again with the handler it found: the default's, so that
    # the process ends as terminated (143), as a process manager expects, not as interrupted (main's handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)  # a hang-up ends a server as it always had (nohup's kept)

    class Server(uvicorn.Server):
        """uvicorn's server, which tells the bot workers' pools that the process stops as soon as it is asked to
        (`splendor.server.bots.STOPPING`): Ctrl-C has stopped the workers too by then."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            STOPPING.set()
            super().handle_exit(sig, frame)

    Server(config).run(sockets=listening)


def _listening(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host:port``, one for each address the host has (``localhost``: 127.0.0.1 and ::1), as
    uvicorn would bind them (an IPv6 socket for IPv6 alone), for uvicorn to listen on; or a clear error. Before the
    store is touched."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise fail(f"cannot listen on {host}:{port}: {getattr(e, 'strerror', None) or e}") from None
    bound: list[socket.socket] = []
    for family, kind, proto, _name, address in dict.fromkeys(found):
        sock = socket.socket(family, kind, proto)
        bound.append(sock)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
        except OSError as e:
            for each in bound:
                each.close()
            taken = " (another server runs there? give another with --port; with make: make run ARGS='--port 8001')"
            said = f"cannot listen on {host}:{port}: {e.strerror or e}"
            raise fail(said + (taken if e.errno == errno.EADDRINUSE else "")) from None
    return bound


def _check_store(database_url: str | None) -> None:
    """Open the store once (making it, or upgrading its schema) before the server starts, so that a store that
    cannot be used is one clear line (an unreadable URL, a database that does not answer or does not exist, a file
    that cannot be written, a schema of a newer splendor), where it had been a traceback of a hundred lines."""
    from sqlalchemy.exc import SQLAlchemyError

    from splendor.server.store_calls import store_problem
    from splendor.store import open_store
    from splendor.store.database import database_url as resolve_url
    from splendor.store.database import shown_url

    try:
        open_store(database_url).close()
    except ValueError as e:
        raise fail(str(e)) from None
    except SQLAlchemyError as e:
        raise fail(f"cannot open the store {shown_url(resolve_url(database_url))}: {store_problem(e)}") from None
    except OSError as e:
        raise fail(f"cannot make the store {shown_url(resolve_url(database_url))}: {e.strerror or e}") from None


def _uvicorn_logs() -> dict[str, Any]:
    """uvicorn's log lines in the format of the server's own (a time on each: uvicorn's own had none)."""
    from uvicorn.config import LOGGING_CONFIG

    config = {**LOGGING_CONFIG, "formatters": {**LOGGING_CONFIG["formatters"]}}
    for name in ("default", "access"):
        config["formatters"][name] = {
            **config["formatters"][name],
            "fmt": LOG_FORMAT if name == "default" else LOG_FORMAT.replace("%(message)s", ACCESS_LINE),
            "use_colors": False,
        }
    return config
