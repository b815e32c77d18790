"""Accounts: a name and a password, signed in by a session cookie.

The password is kept only as an argon2id hash (argon2-cffi's defaults); a session is a random secret kept by the
browser in an HttpOnly cookie, of which the store keeps only a SHA-256. Wrong passwords, at sign-in or when
changing the password, lock the account for a while, longer each time (whichever process is asked, since the
count is in the store), so a name's password cannot be guessed by trying; the server also bounds attempts per
address. The count and the lock are per account *and client address* (a hash of it; an IPv6 address by its /64,
which one machine holds whole): a stranger who guesses from their address locks only that address out, and the
owner, from theirs, still signs in. The lock's end is told to the minute ("about 2 minutes"), not to the second.

An account's Pokédex is the profile of the same name: signing up creates it, or takes one claimed before. A claim
nobody used (no Pokédex marks, no seat linked to it) gives way to the account, which takes the name; a claimed
profile with marks or seats is adopted only with its secret. Names are checked and compared by
`splendor.store.names`: no account's name looks like another account's or another's profile.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, exists, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from splendor.i18n import Message, _, _n
from splendor.store.database import Store
from splendor.store.models import (
    Account,
    GameRow,
    PokedexMark,
    Profile,
    PushSubscription,
    SeatRow,
    SessionRow,
    SignInFailures,
)
from splendor.store.names import BadName, check_name, name_key, shows_nothing
from splendor.store.pokedex import find_profile
from splendor.store.secrets import new_secret, secret_hash, secret_matches

MIN_PASSWORD, MAX_PASSWORD = 8, 200
SESSION_SECONDS = 30 * 24 * 3600
"""A session lasts 30 days from sign-in."""
FREE_FAILURES = 5
"""Wrong passwords in a row from one address before the account is locked for it: then 30 s, doubling with each
further one, to 1 hour."""
FORGET_SECONDS = 24 * 3600
"""An address's wrong passwords are forgotten a day after the last one (the rows do not pile up either)."""
_hasher = PasswordHasher()


UNKNOWN_NAME_HASH = "$argon2id$v=19$m=65536,t=3,p=4$ZhAQv4T7ScNwp6xxhgPwhg$w2Tialrea7KM26VRvpCs6DSgi6M5/DXvtLqEtWu+0FA"
"""A hash verified against for unknown names, so that time does not tell them from known ones: the argon2 hash
of a password nobody has, made once with the hasher's parameters (a test checks that they are still the hasher's).
Written here rather than made as each process opened the accounts, which cost every start a quarter of a second
of CPU (and the tests' hundreds of servers a minute)."""


class AccountError(ValueError):
    """Sign-up or sign-in refused, with words the person can act on (in their language: ``message``)."""

    def __init__(self, message: Message, status: int = 400) -> None:
        super().__init__(str(message))
        self.message = message
        self.status = status


@dataclass(frozen=True)
class SignedIn:
    """Who a session belongs to."""

    id: int
    name: str


def check_password(password: str) -> str:
    """A new password, refused (`AccountError`) unless it is 8 to 200 characters that can be typed: no control
    character (a NUL, an escape), and not spaces or invisible characters alone.

    >>> check_password("correct horse")
    'correct horse'
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(_("a password is {low} to {high} characters", low=MIN_PASSWORD, high=MAX_PASSWORD))
    seen = "".join(c for c in password if not shows_nothing(c))  # eight zero-width spaces are no more than spaces
    if not seen.strip() or any(unicodedata.category(c) in ("Cc", "Cs") for c in password):
        raise AccountError(_("a password is characters you can type, not spaces alone and no control characters"))
    return password


def lock_seconds(failures: int) -> float:
    """How long an account stays locked for an address after ``failures`` wrong passwords in a row from it (0:
    not locked)."""
    if failures < FREE_FAILURES:
        return 0.0
    return float(min(3600, 30 * 2 ** (failures - FREE_FAILURES)))


def address_key(address: str) -> str:
    """What the store keeps of a client's address to count its wrong passwords: a hash, never the address. An
    IPv6 address counts by its /64 network (one machine is handed a whole /64, so its addresses are one)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        text = address
    else:
        text = str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _locked(minutes_left: float) -> AccountError:
    """The 429 of a locked account: the wait rounded up to whole minutes, so its end is not told to the second."""
    minutes = max(1, math.ceil(minutes_left / 60))
    return AccountError(
        _n(
            "too many wrong passwords from your address: try again in about {n} minute",
            "too many wrong passwords from your address: try again in about {n} minutes",
            minutes,
        ),
        429,
    )


class Accounts:
    """Signs people up and in, and tells whose a session is."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def sign_up(self, name: str, password: str, pokedex_secret: str | None = None) -> tuple[SignedIn, str]:
        """A new account and its first session's secret. The name must be free, and look like no other account's
        or profile's: a Pokédex profile of that name claimed before and never used (no marks, no seat linked to
        it) gives way, its claim dropped; one with marks or seats is adopted only with its secret."""
        try:
            name = check_name(name)
        except BadName as e:
            raise AccountError(e.reason, 400) from None
        key = name_key(name)
        check_password(password)
        with self.store.session() as s:
            self._refuse_a_taken_name(s, name, key, pokedex_secret)  # before the hash: a taken name costs none
        hashed = _hasher.hash(password)
        try:
            with self.store.session() as s:
                # again: another sign-up may have taken it while hashing
                profile = self._refuse_a_taken_name(s, name, key, pokedex_secret)
                account = Account(name=name, name_key=key, password_hash=hashed)
                s.add(account)
                s.flush()
                if profile is None:
                    s.add(Profile(name=name, name_key=key, account_id=account.id))
                else:  # taken over: the account's alone now, by the account's spelling
                    profile.account_id, profile.secret_hash = account.id, None
                    profile.name, profile.name_key = name, key
                token = self._new_session(s, account.id)
        except IntegrityError:  # a sign-up or a claim of a look-alike name committed meanwhile
            raise AccountError(_("the name {name} is taken; choose another", name=name), 409) from None
        return SignedIn(account.id, name), token

    @staticmethod
    def _refuse_a_taken_name(s: Session, name: str, key: str, pokedex_secret: str | None) -> Profile | None:
        """`AccountError` 409 unless an account may take ``name``; the profile it then takes, if any."""
        taken = s.scalar(select(Account.name).where((Account.name == name) | (Account.name_key == key)))
        if taken is not None:
            raise AccountError(
                _("the name {name} is taken; choose another", name=name)
                if taken == name
                else _("the name {name} looks like {other}, which is taken; choose another", name=name, other=taken),
                409,
            )
        profile = find_profile(s, name)
        if profile is None:
            return None
        if profile.account_id is not None:  # an account kept before keys, whose key is NULL
            raise AccountError(_("the name {name} is taken; choose another", name=name), 409)
        used = s.scalar(select(exists().where(PokedexMark.profile_id == profile.id))) or s.scalar(
            select(exists().where(SeatRow.profile.in_(sorted({profile.name, name}))))
        )
        if used and profile.secret_hash and not secret_matches(pokedex_secret, profile.secret_hash):
            raise AccountError(
                _(
                    "the name {name} is a claimed Pokédex: give its secret to make it your account's, or choose "
                    "another name",
                    name=profile.name,
                ),
                409,
            )
        return profile

    def sign_in(self, name: str, password: str, address: str = "") -> tuple[SignedIn, str]:
        """A new session for the account, or `AccountError` (401 wrong name or password, 429 locked for this
        ``address``, the client's: wrong passwords from one address do not lock the owner out at theirs)."""
        wrong = AccountError(_("wrong name or password"), 401)
        try:
            name = check_name(name)
        except BadName:
            raise wrong from None
        now = time.time()
        where = address_key(address)
        with self.store.session() as s:
            account = s.scalar(select(Account).where(Account.name == name).with_for_update())
            if account is None:
                account = s.scalar(select(Account).where(Account.name_key == name_key(name)).with_for_update())
            if account is None:
                _verify(UNKNOWN_NAME_HASH, password)
                raise wrong
            self._refuse_while_locked(s, account.id, where, now)
            if _verify(account.password_hash, password):
                self._forget_failures(s, account.id, where, now)
                if _hasher.check_needs_rehash(account.password_hash):
                    account.password_hash = _hasher.hash(password)
                return SignedIn(account.id, account.name), self._new_session(s, account.id)
            self._count_failure(s, account.id, where, now)
        raise wrong  # once the count of wrong passwords is committed

    def change_password(self, account: SignedIn, old: str, new: str, keep: str | None, address: str = "") -> None:
        """Set a new password once the old one is shown (`AccountError` 401 otherwise); every other session of
        the account ends, the one ``keep`` (the asker's) stays, and every browser's push subscription is
        forgotten (one made by whoever else held a session would go on telling them the account's turns; the
        asker's page subscribes again). A wrong old password counts as a wrong password
        at sign-in, from the same ``address``, toward the same lock (429)."""
        hashed = _hasher.hash(check_password(new))

        def change(s: Session, row: Account) -> None:
            row.password_hash = hashed
            others = delete(SessionRow).where(SessionRow.account_id == row.id)
            if keep:
                others = others.where(SessionRow.token_hash != secret_hash(keep))
            s.execute(others)
            s.execute(delete(PushSubscription).where(PushSubscription.account_id == row.id))

        self._with_password(account, old, address, change)

    def delete_account(self, account: SignedIn, password: str, address: str = "") -> None:
        """Delete the account once its password is shown (`AccountError` 401 otherwise, counted toward the same
        lock as at sign-in): its sessions, ratings and their changes, push subscriptions, quick-play requests and
        Pokédex profiles go with it; its finished games keep their seats under the name they were played in, no
        longer the account's, and its name is free again. Refused (409) while it has a seat in a game not yet
        over: resign or finish it first, so that nobody's game is left waiting on a seat nobody holds."""

        def delete_it(s: Session, row: Account) -> None:
            unfinished = s.scalar(
                select(func.count())
                .select_from(SeatRow)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == row.id, GameRow.status == "ongoing", SeatRow.forfeited_by.is_(None))
            )
            if unfinished:
                raise AccountError(
                    _n(
                        "this account still plays {n} game: resign or finish it first",
                        "this account still plays {n} games: resign or finish them first",
                        unfinished,
                    ),
                    409,
                )
            for profile in s.scalars(select(Profile).where(Profile.account_id == row.id)):
                s.delete(profile)  # its Pokédex marks with it
            s.delete(row)  # its sessions, ratings, changes, subscriptions, seeks and failures by cascade

        self._with_password(account, password, address, delete_it)

    def _with_password(
        self, account: SignedIn, password: str, address: str, then: Callable[[Session, Account], None]
    ) -> None:
        """``then(session, row)`` on the account's row, locked, once its password is shown; a wrong one counts as
        at sign-in, from ``address``, toward the same lock, and is `AccountError` 401 once that count is
        committed."""
        now = time.time()
        where = address_key(address)
        with self.store.session() as s:
            row = s.scalar(select(Account).where(Account.id == account.id).with_for_update())
            if row is None:
                raise AccountError(_("wrong password"), 401)
            self._refuse_while_locked(s, row.id, where, now)
            right = _verify(row.password_hash, password)
            if right:
                self._forget_failures(s, row.id, where, now)
                then(s, row)
            else:
                self._count_failure(s, row.id, where, now)
        if not right:
            raise AccountError(_("wrong password"), 401)

    @staticmethod
    def _refuse_while_locked(s: Session, account_id: int, where: str, now: float) -> None:
        row = s.get(SignInFailures, (account_id, where))
        if row is not None and row.locked_until and row.locked_until > now:
            raise _locked(row.locked_until - now)

    @staticmethod
    def _count_failure(s: Session, account_id: int, where: str, now: float) -> None:
        """One more wrong password for the account from this address (forgotten a day after the last).

        Two at once count twice: on PostgreSQL the account's row is locked (``FOR UPDATE``) by the caller; on
        SQLite the first write (the delete) takes the database's write lock before the count is read again."""
        s.execute(
            delete(SignInFailures).where(
                SignInFailures.account_id == account_id, SignInFailures.last_failure < now - FORGET_SECONDS
            )
        )
        row = s.get(SignInFailures, (account_id, where), populate_existing=True)
        if row is None:
            row = SignInFailures(account_id=account_id, address_key=where, failures=0, last_failure=now)
            s.add(row)
        row.failures += 1
        row.last_failure = now
        wait = lock_seconds(row.failures)
        row.locked_until = now + wait if wait else None

    @staticmethod
    def _forget_failures(s: Session, account_id: int, where: str, now: float) -> None:
        """The right password: this address's count starts again (another address's lock stays)."""
        s.execute(
            delete(SignInFailures).where(
                SignInFailures.account_id == account_id,
                (SignInFailures.address_key == where) | (SignInFailures.last_failure < now - FORGET_SECONDS),
            )
        )

    def holds_name(self, name: str) -> bool:
        """Whether an account holds this name, or one that reads the same (`splendor.store.names.name_key`: case
        and look-alike letters aside): a guest may neither play nor talk under it."""
        with self.store.session() as s:
            return s.scalar(select(Account.id).where(Account.name_key == name_key(name)).limit(1)) is not None

    def signed_in(self, token: str | None) -> SignedIn | None:
        """Whose the session is, or None (no cookie, an unknown or an expired session)."""
        if not token or len(token) > 100:
            return None
        with self.store.session() as s:
            row = s.execute(
                select(Account.id, Account.name)
                .join(SessionRow, SessionRow.account_id == Account.id)
                .where(SessionRow.token_hash == secret_hash(token), SessionRow.expires > time.time())
            ).first()
        return SignedIn(row[0], row[1]) if row else None

    def lasting(self, tokens: set[str]) -> set[str]:
        """Which of these session secrets still belong to a session (not signed out, not ended by a password
        change, not expired): one read for all the sockets a server process holds."""
        hashes = {secret_hash(t): t for t in tokens if t and len(t) <= 100}
        if not hashes:
            return set()
        with self.store.session() as s:
            alive = set(
                s.scalars(
                    select(SessionRow.token_hash).where(
                        SessionRow.token_hash.in_(list(hashes)), SessionRow.expires > time.time()
                    )
                )
            )
        return {hashes[h] for h in alive}

    def sign_out(self, token: str | None) -> None:
        if token:
            with self.store.session() as s:
                s.execute(delete(SessionRow).where(SessionRow.token_hash == secret_hash(token)))

    @staticmethod
    def _new_session(s: Session, account_id: int) -> str:
        """A new session of the account (its ended sessions are deleted then, so they do not pile up)."""
        s.execute(delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.expires < time.time()))
        token = new_secret()
        s.add(SessionRow(token_hash=secret_hash(token), account_id=account_id, expires=time.time() + SESSION_SECONDS))
        return token


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password[:MAX_PASSWORD])
    except (VerificationError, InvalidHashError):
        return False
