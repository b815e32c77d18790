"""Secrets that prove who may do what (a seat's link, a Pokédex profile's claim): made at random, shown once,
kept only as a hash, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_secret() -> str:
    """A fresh secret: 32 random bytes, URL-safe (so a plain SHA-256 of it cannot be guessed backwards)."""
    return secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    """The hash that is stored instead of the secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def secret_matches(secret: str | None, stored_hash: str | None) -> bool:
    """Constant-time check of a presented secret against a stored hash (False when either is missing)."""
    if not secret or not stored_hash:
        return False
    return hmac.compare_digest(secret_hash(secret), stored_hash)
