"""Opening the store: which database, its engine, and bringing its schema up to date."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

ENV_VAR = "SPLENDOR_DATABASE_URL"


def default_url() -> str:
    """SQLite in the user's data folder, e.g. ``~/.local/share/splendor/splendor.db`` on Linux."""
    folder = Path(user_data_dir("splendor", appauthor=False))
    return f"sqlite:///{folder / 'splendor.db'}"


def database_url(explicit: str | None = None) -> str:
    """The database to use: ``explicit`` if given, else ``$SPLENDOR_DATABASE_URL``, else the default file."""
    return explicit or os.environ.get(ENV_VAR) or default_url()


class Store:
    """An open database: its engine and a session factory. Use ``with store.session() as s:``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed at the end of the block, rolled back if it raises."""
        with self._sessions() as s, s.begin():
            yield s

    def ping(self) -> None:
        """Ask the database a ``SELECT 1`` (a health check): raises ``SQLAlchemyError`` when it cannot answer."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        self.engine.dispose()


def _migrations_config(engine: Engine) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(files("splendor.store").joinpath("migrations")))
    cfg.attributes["engine"] = engine
    return cfg


def open_store(url: str | None = None) -> Store:
    """Open (creating if need be) the store at ``url`` and upgrade its schema to the newest migration.

    A SQLite file's folder is created; ``ValueError`` says when the URL cannot be used.
    """
    url = database_url(url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).expanduser().parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(url, **_engine_options(url, timeouts=True))
    except ModuleNotFoundError as e:  # the database's driver is not installed (PostgreSQL: psycopg, the extra's)
        extra = ": pip install 'splendor[server]'" if (e.name or "").startswith("psycopg") else ""
        raise ValueError(
            f"cannot use the database URL {shown_url(url)!r}: it needs {e.name}, which is not installed{extra}"
        ) from None
    except Exception as e:
        raise ValueError(f"cannot use the database URL {shown_url(url)!r}: {e}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        upgrader = engine
    else:  # the schema's upgrade may wait for another process's and take long: no timeouts
        upgrader = create_engine(url, poolclass=NullPool, **_engine_options(url, timeouts=False))
    try:
        with _one_upgrader(upgrader), _said_in_one_line(url):
            config = _migrations_config(upgrader)
            try:
                command.upgrade(config, "head")
            except CommandError as e:
                if "Can't locate revision" not in str(e):
                    raise
                newest = ScriptDirectory.from_config(config).get_current_head()
                raise ValueError(
                    f"the store {shown_url(url)} was written by a newer splendor: its schema's revision is unknown "
                    f"to this one, whose newest is {newest} ({e}); run the newer splendor on it"
                ) from None
    finally:
        if upgrader is not engine:
            upgrader.dispose()
    return Store(engine)


class _Upgrades(logging.Filter):
    """Keeps what Alembic says of a schema's upgrade to itself, and notes the revisions it ran."""

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[tuple[str, str]] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        step: Any = record.args[0] if isinstance(record.args, tuple) and record.args else None
        if record.msg == "Running %s" and getattr(step, "name", None) == "upgrade":  # a MigrationStep's
            self.ran.append((",".join(step.from_revisions_no_deps), ",".join(step.to_revisions_no_deps)))
        return False


@contextmanager
def _said_in_one_line(url: str) -> Iterator[None]:
    """One line of the log for a schema's upgrade: Alembic says each migration with the first paragraph of its
    docstring, some fifty lines on a fresh store, and two lines more each time the store is opened."""
    said = logging.getLogger("alembic.runtime.migration")
    upgrades = _Upgrades()
    said.addFilter(upgrades)
    try:
        yield
    finally:
        said.removeFilter(upgrades)
    if upgrades.ran:
        first, last = upgrades.ran[0][0] or "nothing", upgrades.ran[-1][1]
        logging.getLogger(__name__).info(
            "the store %s was upgraded from %s to revision %s (%d migrations)", shown_url(url), first, last,
            len(upgrades.ran),
        )  # fmt: skip


def shown_url(url: str) -> str:
    """The URL as an error or a log may show it: its password hidden, and any password given in its query
    (``?password=``, libpq's ``sslpassword``), for a terminal's scrollback and a server's log."""
    try:
        parsed = make_url(url)
        query = {k: "hidden" if "pass" in k.lower() else v for k, v in parsed.query.items()}
        return parsed.set(query=query).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads (a typo in its port, say): its password found by its place
        hidden = re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)
        return re.sub(r"([?&][^=&]*pass[^=&]*=)[^&]*", r"\1hidden", hidden, flags=re.IGNORECASE)


CONNECT_SECONDS = 3
"""PostgreSQL: how long opening a connection may take (libpq's ``connect_timeout``, which covers the whole
handshake), so that a database that does not answer fails a request instead of holding it."""
STATEMENT_SECONDS = 5.0
"""PostgreSQL: the server cancels a statement that runs longer (``statement_timeout``): a request abandoned
after the server's deadline (``splendor.server.deadline``) does not go on holding its connection and locks."""
LOCK_SECONDS = 2.0
"""PostgreSQL: a statement waiting this long for a lock another transaction holds fails (``lock_timeout``),
and the server retries it or answers 503, instead of queueing every request of a game behind a stuck one."""
POOL_SECONDS = 5.0
"""How long a request waits for a free connection of the pool before failing (SQLAlchemy's ``pool_timeout``,
30 s by default)."""


def _engine_options(url: str, timeouts: bool) -> dict[str, Any]:
    """``create_engine``'s options for ``url``: on PostgreSQL the connect timeout and, with ``timeouts``, the
    server-side statement and lock timeouts of every connection; the pool's wait everywhere."""
    if make_url(url).get_backend_name() != "postgresql":
        return {}
    connect: dict[str, Any] = {"connect_timeout": CONNECT_SECONDS}
    if timeouts:
        connect["options"] = (
            f"-c statement_timeout={int(STATEMENT_SECONDS * 1000)} -c lock_timeout={int(LOCK_SECONDS * 1000)}"
        )
        return {"connect_args": connect, "pool_timeout": POOL_SECONDS}
    return {"connect_args": connect}


MIGRATION_LOCK = 0x5A1E4D0
"""The PostgreSQL advisory lock held while a process upgrades the schema: server processes started together on a
new database upgrade it one after the other (the later ones find it done) instead of racing to create tables."""


@contextmanager
def _one_upgrader(engine: Engine) -> Iterator[None]:
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            yield
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})


BUSY_TIMEOUT_MS = 1000
"""How long one SQLite statement waits for a lock held by another connection before it fails. The server retries a
failed write for longer (``write_retry_seconds``), each attempt short, so it stays responsive and can say why."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: each commit is on the disk (fsync of the WAL) before it returns, so an action the server acknowledged
    # survives a power cut, not only a crash. docs/server.md gives the measured cost.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()
