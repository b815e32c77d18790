"""Accounts: a name and a password, signed in by a session cookie.

The password is kept only as an argon2id hash (argon2-cffi's defaults); a session is a random secret kept by the
browser in an HttpOnly cookie, of which the store keeps only a SHA-256. Wrong passwords lock an account for a
while, longer each time (whichever process is asked, since the count is in the store), so a name's password
cannot be guessed by trying: the server also bounds sign-in attempts per address.

An account's Pokédex is the profile of the same name: signing up creates it, or adopts one claimed before with
its secret.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from splendor.i18n import Message, _
from splendor.store.database import Store
from splendor.store.models import Account, Profile, SessionRow
from splendor.store.pokedex import check_profile_name
from splendor.store.secrets import new_secret, secret_hash, secret_matches

MIN_PASSWORD, MAX_PASSWORD = 8, 200
SESSION_SECONDS = 30 * 24 * 3600
"""A session lasts 30 days from sign-in."""
FREE_FAILURES = 5
"""Wrong passwords in a row before the account is locked: then 30 s, doubling with each further one, to 1 hour."""
_hasher = PasswordHasher()
_DUMMY = _hasher.hash("a password nobody has")   # verified against for unknown names, so time does not tell them


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
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(_("a password is {low} to {high} characters", low=MIN_PASSWORD, high=MAX_PASSWORD))
    return password


def lock_seconds(failures: int) -> float:
    """How long an account stays locked after ``failures`` wrong passwords in a row (0: not locked)."""
    if failures < FREE_FAILURES:
        return 0.0
    return float(min(3600, 30 * 2 ** (failures - FREE_FAILURES)))


class Accounts:
    """Signs people up and in, and tells whose a session is."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def sign_up(self, name: str, password: str, pokedex_secret: str | None = None) -> tuple[SignedIn, str]:
        """A new account and its first session's secret. The name must be free: a Pokédex profile of that name
        claimed before is adopted only with its secret."""
        name = check_profile_name(name)
        check_password(password)
        with self.store.session() as s:
            self._refuse_a_taken_name(s, name)      # before the hash: a taken name costs no hashing
        hashed = _hasher.hash(password)
        with self.store.session() as s:
            self._refuse_a_taken_name(s, name)      # again: another sign-up may have taken it while hashing
            profile = s.scalar(select(Profile).where(Profile.name == name))
            if profile is not None and profile.secret_hash and not secret_matches(pokedex_secret,
                                                                                profile.secret_hash):
                raise AccountError(_("{name} is a claimed Pokédex: give its secret to make it your account's, or "
                                     "choose another name", name=name), 409)
            account = Account(name=name, password_hash=hashed)
            s.add(account)
            s.flush()
            if profile is None:
                s.add(Profile(name=name, account_id=account.id))
            else:
                profile.account_id = account.id
            token = self._new_session(s, account.id)
            return SignedIn(account.id, name), token

    @staticmethod
    def _refuse_a_taken_name(s: Session, name: str) -> None:
        if s.scalar(select(Account.id).where(Account.name == name)) is not None:
            raise AccountError(_("the name {name} is taken; choose another", name=name), 409)

    def sign_in(self, name: str, password: str) -> tuple[SignedIn, str]:
        """A new session for the account, or `AccountError` (401 wrong name or password, 429 locked)."""
        wrong = AccountError(_("wrong name or password"), 401)
        try:
            name = check_profile_name(name)
        except ValueError:
            raise wrong from None
        now = time.time()
        with self.store.session() as s:
            account = s.scalar(select(Account).where(Account.name == name).with_for_update())
            if account is None:
                _verify(_DUMMY, password)
                raise wrong
            if account.locked_until and account.locked_until > now:
                raise AccountError(_("too many wrong passwords: try again in {seconds} s",
                                     seconds=int(account.locked_until - now) + 1), 429)
            if _verify(account.password_hash, password):
                account.failed_sign_ins, account.locked_until = 0, None
                if _hasher.check_needs_rehash(account.password_hash):
                    account.password_hash = _hasher.hash(password)
                return SignedIn(account.id, account.name), self._new_session(s, account.id)
            account.failed_sign_ins += 1
            wait = lock_seconds(account.failed_sign_ins)
            account.locked_until = now + wait if wait else None
        raise wrong                                 # once the count of wrong passwords is committed

    def change_password(self, account: SignedIn, old: str, new: str, keep: str | None) -> None:
        """Set a new password once the old one is shown (`AccountError` 401 otherwise); every other session of
        the account ends, the one ``keep`` (the asker's) stays."""
        hashed = _hasher.hash(check_password(new))
        with self.store.session() as s:
            row = s.get(Account, account.id)
            if row is None or not _verify(row.password_hash, old):
                raise AccountError(_("wrong password"), 401)
            row.password_hash = hashed
            others = delete(SessionRow).where(SessionRow.account_id == account.id)
            if keep:
                others = others.where(SessionRow.token_hash != secret_hash(keep))
            s.execute(others)

    def signed_in(self, token: str | None) -> SignedIn | None:
        """Whose the session is, or None (no cookie, an unknown or an expired session)."""
        if not token or len(token) > 100:
            return None
        with self.store.session() as s:
            row = s.execute(select(Account.id, Account.name).join(SessionRow, SessionRow.account_id == Account.id)
                            .where(SessionRow.token_hash == secret_hash(token), SessionRow.expires > time.time())
                            ).first()
        return SignedIn(row[0], row[1]) if row else None

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
