"""The store's tables, as SQLAlchemy models. Changing them needs a migration in ``migrations/versions``."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from splendor.store.names import KEY_LENGTH


class Base(DeclarativeBase):
    """The models' common base."""


class Profile(Base):
    """A player known by name across games (the owner of a Pokédex), claimed with a secret that only its owner
    holds; only its hash is kept."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True, nullable=False)
    name_key: Mapped[str | None] = mapped_column(String(KEY_LENGTH), unique=True, index=True)
    """The name's look-alike key (`splendor.store.names.name_key`): no two profiles, and no profile and another
    account, look alike. None only for a profile kept before keys whose key another took first (migration 0007)."""
    secret_hash: Mapped[str | None] = mapped_column(String(64))  # set once the profile is claimed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    """The account this Pokédex belongs to (its seats mark it without a secret)."""
    marks: Mapped[list[PokedexMark]] = relationship(back_populates="profile", cascade="all, delete-orphan")


class PokedexMark(Base):
    """One Pokémon marked on a profile's Pokédex: when first caught, and in how many games."""

    __tablename__ = "pokedex_marks"
    __table_args__ = (UniqueConstraint("profile_id", "pokemon"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False)
    pokemon: Mapped[str] = mapped_column(String(40), nullable=False)
    first_caught_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    games: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    profile: Mapped[Profile] = relationship(back_populates="marks")


def utc(moment: datetime) -> datetime:
    """A time the store kept, in UTC with its zone said: SQLite gives back the UTC it stored without one, which a
    browser would read as its own local time; PostgreSQL gives it in the session's zone.

    >>> utc(datetime(2026, 12, 5, 13, 0)).isoformat()
    '2026-12-05T13:00:00+00:00'
    """
    return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class GameRow(Base):
    """A game on the server: its header (game, players, seed, options) and where it stands."""

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_created_at", "created_at"),
        Index("ix_games_rated_idle", "rated", "status", "bot_turn", "updated_at"),
        Index("ix_games_deadline", "status", "deadline"),
        Index("ix_games_open_until", "status", "open_until"),
    )
    """``created_at`` is indexed (migration 0006): the games listing reads the newest games from it. The rated
    games waiting for a person are indexed by their last change (0008): the idle sweep reads the oldest. The
    clocks' deadlines and the open games' expiry are indexed (0010): their sweeps read those past due."""

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), nullable=False)
    players: Mapped[int] = mapped_column(Integer, nullable=False)
    seed: Mapped[int] = mapped_column(BigInteger, nullable=False)
    options: Mapped[str] = mapped_column(Text, nullable=False)  # JSON
    status: Mapped[str] = mapped_column(String(12), nullable=False, default="ongoing")
    actions: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    owner: Mapped[str] = mapped_column(String(64), nullable=False, default="", server_default="")
    """Who created the game (a hash of the client's address): bounds each client's unfinished games."""
    bots_only: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    bot_turn: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    """True while the game is unfinished and a bot decides next: the bot sweep looks for these."""
    lease_owner: Mapped[str | None] = mapped_column(String(32))
    """The server process that moves this game's bots, while ``lease_until`` (seconds since the epoch, by the
    database's clock where it has one) has not passed."""
    lease_until: Mapped[float | None] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    """Created to be rated: its seed was the server's, and no seat may ask for a hint."""
    bot_salt: Mapped[str | None] = mapped_column(String(32))
    """The secret its bots' seeds derive from (never shown): with the public id alone, a bot's move cannot be
    computed in advance. None for games kept before it existed."""
    ended_by: Mapped[str | None] = mapped_column(String(12))
    """How the game ended when no rule of the game ended it: ``idle`` (a seat did not move within the limit),
    ``resigned`` (a seat resigned a game of two), ``time`` (a seat's clock ran out), ``aborted`` (a seat called it
    off before its first move), ``no_start`` (a seat of two ran out of time or sat idle before its first move: called
    off), ``expired`` (nobody took its open seats in time), ``abandoned`` (the seat to move left an untimed game
    without a move past the server's limit: called off); `splendor.store.games.Ending`."""
    forfeit_seat: Mapped[int | None] = mapped_column(Integer)
    """The seat that lost the game by ``ended_by`` (that aborted it, for ``aborted``)."""
    winners: Mapped[str | None] = mapped_column(String(8))
    """The seats that won the finished game, comma-joined ("1", "0,2"; "" when nobody won), written with what
    ended it (0013); None while it is unfinished, or for a game that ended before 0013."""
    time_control: Mapped[str | None] = mapped_column(String(12))
    """The game's clock as chosen at creation (`splendor.server.clocks`), None when untimed."""
    turn_started: Mapped[float | None] = mapped_column(Float)
    """When the person now to move began their turn (seconds since the epoch, by the database's clock)."""
    deadline: Mapped[float | None] = mapped_column(Float)
    """When the person to move runs out of time (seconds since the epoch); None while no clock runs (untimed,
    a bot to move, seats still open, or the game over). The clock sweep ends the games past it."""
    open_until: Mapped[float | None] = mapped_column(Float)
    """A game with open seats (``kind`` "open"): anyone may take one until then, when it expires unfilled."""
    to_move: Mapped[int | None] = mapped_column(Integer)
    """The seat to move (None when the game is over, or kept before 0010): lists put the reader's turn first."""
    rematch_of: Mapped[str | None] = mapped_column(String(32), index=True, unique=True)
    """The finished game this one is the rematch of (0015): unique, so a game has one rematch however many of its
    people ask for it at once, on one process or many (`splendor.store.rematches`); None for every other game."""
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="SeatRow.seat"
    )


class SeatRow(Base):
    """Who plays a seat: a person (known by a hash of the seat's secret) or a bot."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), nullable=False)  # human | bot
    bot: Mapped[str | None] = mapped_column(String(40))
    name: Mapped[str | None] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    profile: Mapped[str | None] = mapped_column(String(40))  # the Pokédex it proved it owns
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    """The account that holds the seat: signed in, it plays the seat from any browser."""
    forfeited: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    """The seat's person forfeited (idle past the limit, or resigned, in a game of three or four): a bot plays it
    on, and it ranks last in the ratings."""
    forfeited_by: Mapped[str | None] = mapped_column(String(12))
    """How it forfeited: ``idle`` or ``resigned`` (None for a seat forfeited before migration 0009: idle)."""
    forfeited_at: Mapped[int | None] = mapped_column(Integer)
    """The number of actions the game had when it forfeited (the bot played from the next one)."""
    joined: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, server_default=false())
    """The seat was open and someone took it: while the game waits for players, such a seat cannot abort it."""
    taker: Mapped[str | None] = mapped_column(String(64), index=True)
    """The client address (its key) that took the open seat (0014): an address holds open seats in a bounded
    number of unfinished games. None for every other seat, and for those taken before 0014."""
    seconds_left: Mapped[float | None] = mapped_column(Float)
    """A real-time clock's bank for this seat, as it stood when its last turn began or ended."""
    game: Mapped[GameRow] = relationship(back_populates="seats")


class ActionRow(Base):
    """One accepted action, in order: the game is its header plus these rows."""

    __tablename__ = "game_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1, 2, 3, ...
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    action: Mapped[str] = mapped_column(String(80), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Account(Base):
    """A player's account: a name and a password's hash (argon2). Repeated wrong passwords from one address lock
    the account for that address for a while (`SignInFailures`)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True, nullable=False)
    name_key: Mapped[str | None] = mapped_column(String(KEY_LENGTH), unique=True, index=True)
    """The name's look-alike key (`splendor.store.names.name_key`): no two accounts look alike. None only for an
    account kept before keys whose key another took first (migration 0007)."""
    password_hash: Mapped[str] = mapped_column(String(200), nullable=False)
    failed_sign_ins: Mapped[int] = mapped_column(Integer, nullable=False, default=0, server_default="0")
    locked_until: Mapped[float | None] = mapped_column(Float)  # seconds since the epoch
    """``failed_sign_ins`` and ``locked_until`` are no longer read or written (since 0007 wrong passwords are
    counted per account and address, in `SignInFailures`); they stay so that a process of the version before
    keeps working during a rolling upgrade."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SignInFailures(Base):
    """Wrong passwords in a row for one account from one client address (a hash of it, never the address), and
    until when that address is locked out of that account. The owner, from another address, is not."""

    __tablename__ = "sign_in_failures"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    address_key: Mapped[str] = mapped_column(String(32), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    locked_until: Mapped[float | None] = mapped_column(Float)  # seconds since the epoch
    last_failure: Mapped[float] = mapped_column(Float, nullable=False, index=True)  # seconds since the epoch


class SessionRow(Base):
    """A signed-in browser: the hash of its cookie's secret, whose account it is, until when."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True)
    expires: Mapped[float] = mapped_column(Float, nullable=False)  # seconds since the epoch


class RatingRow(Base):
    """An account's OpenSkill rating in one game (classic, pokemon, kids)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float, nullable=False)
    sigma: Mapped[float] = mapped_column(Float, nullable=False)
    games: Mapped[int] = mapped_column(Integer, nullable=False)


class RatingChange(Base):
    """What a rated game did to the rating of one of its seats' accounts."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)
    mu_before: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_before: Mapped[float] = mapped_column(Float, nullable=False)
    mu_after: Mapped[float] = mapped_column(Float, nullable=False)
    sigma_after: Mapped[float] = mapped_column(Float, nullable=False)


class Seek(Base):
    """A player waiting in quick play for a game of ``game`` with ``players`` seats on ``time_control``, until it
    is seated (``game_id``, ``seat``; the seek's secret becomes the seat's), cancelled or expired."""

    __tablename__ = "seeks"
    __table_args__ = (Index("ix_seeks_pool", "status", "game", "players"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), nullable=False)
    players: Mapped[int] = mapped_column(Integer, nullable=False)
    time_control: Mapped[str | None] = mapped_column(String(12))
    rated: Mapped[bool] = mapped_column(Boolean, nullable=False)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    rating: Mapped[float | None] = mapped_column(Float)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    address_key: Mapped[str] = mapped_column(String(32), nullable=False, index=True)
    created: Mapped[float] = mapped_column(Float, nullable=False)  # seconds since the epoch
    seen: Mapped[float] = mapped_column(Float, nullable=False)  # when its player last asked about it
    bot_after: Mapped[float | None] = mapped_column(Float)  # seconds of waiting before a bot is seated instead
    status: Mapped[str] = mapped_column(String(10), nullable=False)  # waiting | seated | cancelled | expired
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    seat: Mapped[int | None] = mapped_column(Integer)


class ChatMessage(Base):
    """One line said in a game: by a seat in the seats' room, or by a spectator in the spectators' room."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        Index("ix_chat_messages_game", "game_id", "room", "id"),
        Index("ix_chat_messages_address", "address_key", "at"),  # the rate per client address
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    room: Mapped[str] = mapped_column(String(10), nullable=False)  # seats | spectators
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    at: Mapped[float] = mapped_column(Float, nullable=False)  # seconds since the epoch
    actions: Mapped[int] = mapped_column(Integer, nullable=False)  # the game's action count when it was said
    address_key: Mapped[str] = mapped_column(String(32), nullable=False)
    phrase: Mapped[str | None] = mapped_column(String(20))  # a canned phrase's key (``text`` then holds its English)


class PushSubscription(Base):
    """A browser an account asked to be told of its turn while closed (Web Push): the push service's endpoint and
    the keys the message is encrypted for."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(500), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True)
    p256dh: Mapped[str] = mapped_column(String(200), nullable=False)
    auth: Mapped[str] = mapped_column(String(100), nullable=False)
    created: Mapped[float] = mapped_column(Float, nullable=False)


class ReviewRow(Base):
    """The expert's review of a finished game (JSON), kept so that a second look costs nothing; while it runs, the
    claim of the one process computing it (``status`` "running", an empty body) with its progress."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    actions: Mapped[int] = mapped_column(Integer, nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False)
    created: Mapped[float] = mapped_column(Float, nullable=False)
    status: Mapped[str] = mapped_column(String(8), nullable=False, server_default="done")  # or "running"
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the process computing it, while it runs
    done: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")  # moves reviewed so far
    touched: Mapped[float | None] = mapped_column(Float, nullable=True)  # its last progress, while it runs


class AliveRow(Base):
    """When a server process last said it was alive (one row, ``id`` 1), by the store's clock: a process that
    starts after none has been alive for a while moves every running clock on by that time (`splendor.store.clocks
    .resume_clocks`), since nobody could move while no server ran."""

    __tablename__ = "server_alive"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alive_at: Mapped[float] = mapped_column(Float, nullable=False)  # seconds since the epoch
