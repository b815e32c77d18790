"""The browsers that asked to be told of their account's turn while closed (Web Push subscriptions).

A subscription is what the browser's push service gave it: an endpoint (the address the server POSTs a message
to) and the keys the message is encrypted for (``p256dh``, ``auth``). It belongs to one account; the same browser
signed in as another account takes its endpoint along. An account keeps at most a bounded number, so that nobody
makes the server send a message to thousands of addresses at each of their turns.
"""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass

from sqlalchemy import delete, func, select

from splendor.store.database import Store
from splendor.store.models import Account, PushSubscription


@dataclass(frozen=True)
class Subscription:
    """One browser's subscription: where to send, and the keys a message is encrypted for."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, object]:
        """As pywebpush (and the browser's ``PushSubscription.toJSON()``) spell it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class TooManySubscriptions(Exception):
    """The account has its most subscriptions already: nothing was written."""


class PushSubscriptions:
    """Adds, lists and removes the push subscriptions of accounts."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._adding = threading.Lock()
        """SQLite (one process): subscriptions are counted and written one at a time, so the bound holds."""

    def add(self, account_id: int, endpoint: str, p256dh: str, auth: str, most: int) -> bool:
        """Keep ``endpoint`` for the account (its keys replaced when it was kept already, and taken from another
        account that had it: one browser, one account). True when it is new to the account;
        `TooManySubscriptions` when the account has ``most`` others already. On PostgreSQL the account's row is
        locked while counting, so racing requests cannot all pass the bound."""
        sqlite = self.store.engine.dialect.name == "sqlite"
        with self._adding if sqlite else nullcontext(), self.store.session() as s:
            if not sqlite:
                s.execute(select(Account.id).where(Account.id == account_id).with_for_update())
            row = s.get(PushSubscription, endpoint)
            if row is not None and row.account_id == account_id:
                row.p256dh, row.auth = p256dh, auth
                return False
            count = s.scalar(
                select(func.count()).select_from(PushSubscription).where(PushSubscription.account_id == account_id)
            )
            if (count or 0) >= most:
                raise TooManySubscriptions
            if row is not None:
                s.delete(row)
                s.flush()
            s.add(
                PushSubscription(
                    endpoint=endpoint, account_id=account_id, p256dh=p256dh, auth=auth, created=time.time()
                )
            )
            return True

    def remove(self, account_id: int, endpoint: str) -> bool:
        """Forget the account's subscription at ``endpoint``: False when the account has none there."""
        with self.store.session() as s:
            done = s.execute(
                delete(PushSubscription).where(
                    PushSubscription.endpoint == endpoint, PushSubscription.account_id == account_id
                )
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]  # a DELETE's result is a CursorResult

    def of_account(self, account_id: int) -> list[Subscription]:
        """The account's subscriptions, oldest first."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(PushSubscription.endpoint, PushSubscription.p256dh, PushSubscription.auth)
                .where(PushSubscription.account_id == account_id)
                .order_by(PushSubscription.created)
            )
            return [Subscription(e, p, a) for e, p, a in rows]

    def drop(self, endpoint: str) -> None:
        """Forget a subscription its push service says is gone (404, 410), whoever's it was."""
        with self.store.session() as s:
            s.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
