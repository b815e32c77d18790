"""The Pokédex kept per player profile across games (ruling 17).

A profile is claimed once, with a secret that only its owner keeps (their browser or terminal); the store keeps
only the secret's hash, and marks a profile only for someone who shows the secret. A profile that belongs to an
account (the account's Pokédex, of the account's name) is the account's alone: it cannot be claimed, no secret
marks it, only the seats kept in that account do. No two profiles, and no profile and another account, have names
that look alike (`splendor.store.names`). Reading a Pokédex is open to anyone.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from splendor.games.pokemon.cards import POKEMON, evolution_lines
from splendor.i18n import Message, _
from splendor.store.database import Store
from splendor.store.models import Account, PokedexMark, Profile
from splendor.store.names import LOOSE_NAME, BadName, check_name, name_key
from splendor.store.secrets import new_secret, secret_hash, secret_matches

PROFILE_NAME = LOOSE_NAME
"""A first look at a name in a URL's path (``GET /api/pokedex/{profile}``); `check_profile_name` is the rule."""


def check_profile_name(name: str) -> str:
    """A profile's (or an account's, or a seat's) name as it is kept, normalised; `BadName` (a ``ValueError``)
    says why not. The one rule for names: see `splendor.store.names`."""
    return check_name(name)


class ProfileClaimed(ValueError):
    """The name is not free to claim: someone holds the profile (its secret, or an account), or the name looks
    like another's. ``message`` says so in the reader's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class NotYourProfile(PermissionError):
    """A secret that does not prove ownership of the profile."""


def find_profile(s: Session, name: str) -> Profile | None:
    """The profile of ``name`` (normalised already): of that exact name, else the one whose name looks like it
    (its key), so "Misty" reads misty's Pokédex and a seat that proved "misty" marks it whatever its spelling."""
    found = s.scalar(select(Profile).where(Profile.name == name))
    if found is None:
        found = s.scalar(select(Profile).where(Profile.name_key == name_key(name)))
    return found


@dataclass(frozen=True)
class PokedexPage:
    """A profile's Pokédex: which of the 55 Pokémon are marked, by evolution line."""

    profile: str
    marked: dict[str, int]  # Pokémon → games in which it was caught
    lines: list[list[str]]
    known: bool = True
    """Whether a profile of this name exists: an unknown name (a typo, say) has an empty Pokédex."""

    @property
    def completion(self) -> tuple[int, int]:
        """(marked, total)."""
        return len(self.marked), len(POKEMON)


def mark_caught(s: Session, profile: str, caught: list[str]) -> None:
    """Within an open session, mark the Pokémon caught in one game on a profile (created if new: its key too,
    unless another name holds that key, so that a game's last action never fails on a name). A seat's profile
    kept before today's rule for names, which the rule refuses, is found by its exact name."""
    try:
        name: str | None = check_profile_name(profile)
    except BadName:
        name = None
    if name is None:
        prof = s.scalar(select(Profile).where(Profile.name == profile))
        key = None
    else:
        prof = find_profile(s, name)
        key = name_key(name)
    if prof is None:
        if key is not None and s.scalar(select(Account.id).where(Account.name_key == key)) is not None:
            key = None
        prof = Profile(name=name or profile, name_key=key)
        s.add(prof)
        s.flush()
    existing = {m.pokemon: m for m in s.scalars(select(PokedexMark).where(PokedexMark.profile_id == prof.id))}
    for pokemon in dict.fromkeys(caught):
        if pokemon in existing:
            existing[pokemon].games += 1
        else:
            s.add(PokedexMark(profile_id=prof.id, pokemon=pokemon, games=1))


class Pokedex:
    """Marks Pokémon on profiles, and reads a profile's page."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def claim(self, profile: str) -> str:
        """Claim a profile: returns its new secret (shown once; only its hash is kept). A profile that already
        has marks but was never claimed, nor is an account's (kept before claims existed), goes to its first
        claimer. `ProfileClaimed` when someone holds it already (a secret, or an account: an account's Pokédex
        is never claimed), or when the name looks like another profile's or account's."""
        name = check_profile_name(profile)
        key = name_key(name)
        secret = new_secret()
        try:
            with self.store.session() as s:
                prof = find_profile(s, name)
                account = s.scalar(select(Account.name).where((Account.name == name) | (Account.name_key == key)))
                if (prof is not None and prof.account_id is not None) or account is not None:
                    raise ProfileClaimed(
                        _(
                            "the name {name} is the Pokédex of an account: only its seats mark it; choose another",
                            name=account or (prof.name if prof else name),
                        )
                    )
                if prof is not None and prof.name != name:
                    raise ProfileClaimed(
                        _("the name {name} looks like the profile {other}; choose another", name=name, other=prof.name)
                    )
                if prof is None:
                    s.add(Profile(name=name, name_key=key, secret_hash=secret_hash(secret)))
                elif prof.secret_hash:
                    raise ProfileClaimed(_("the profile {name} is already claimed; choose another name", name=name))
                else:
                    prof.secret_hash = secret_hash(secret)
        except IntegrityError:  # another claim or sign-up took the name meanwhile
            raise ProfileClaimed(_("the profile {name} is already claimed; choose another name", name=name)) from None
        return secret

    def owns(self, profile: str, secret: str | None) -> bool:
        """True when ``secret`` is the claimed profile's secret. Never for an account's profile: only the seats
        kept in the account mark it (a secret it had before it was adopted proves nothing any more)."""
        return self.proved(profile, secret) is not None

    def proved(self, profile: str, secret: str | None) -> str | None:
        """The profile's own name (its spelling in the store, which a look-alike ``profile`` finds) when
        ``secret`` proves it, else None: a seat keeps that name, so that it counts as linked to the profile."""
        name = check_profile_name(profile)
        with self.store.session() as s:
            prof = find_profile(s, name)
            if prof is None or prof.account_id is not None:
                return None
            stored, own = prof.secret_hash, prof.name
        return own if secret_matches(secret, stored) else None

    def mark(self, profile: str, caught: list[str], secret: str | None) -> list[str]:
        """Mark the Pokémon caught in one game on ``profile``, for its owner (``secret`` proves it:
        `NotYourProfile` otherwise). Returns the newly marked ones."""
        name = check_profile_name(profile)
        unknown = [p for p in caught if p not in POKEMON]
        if unknown:
            raise ValueError(f"not Pokémon of this game: {', '.join(unknown)}")
        if not self.owns(name, secret):
            raise NotYourProfile(f"only the owner of the profile {name!r} marks its Pokédex")
        with self.store.session() as s:
            prof = find_profile(s, name)
            before = (
                {p for (p,) in s.execute(select(PokedexMark.pokemon).where(PokedexMark.profile_id == prof.id))}
                if prof
                else set()
            )
            mark_caught(s, name, caught)
        new = [p for p in dict.fromkeys(caught) if p not in before]
        return new

    def page(self, profile: str) -> PokedexPage:
        """The profile's Pokédex (empty for an unknown profile), under the profile's own name."""
        name = check_profile_name(profile)
        with self.store.session() as s:
            prof = find_profile(s, name)
            rows = (
                s.execute(select(PokedexMark.pokemon, PokedexMark.games).where(PokedexMark.profile_id == prof.id)).all()
                if prof
                else []
            )
            shown = prof.name if prof else name
        return PokedexPage(profile=shown, marked=dict(rows), lines=evolution_lines(), known=prof is not None)

    def profiles(self) -> list[str]:
        """Every profile name, sorted."""
        with self.store.session() as s:
            return sorted(s.scalars(select(Profile.name)))


__all__ = [
    "BadName",
    "NotYourProfile",
    "Pokedex",
    "PokedexPage",
    "ProfileClaimed",
    "check_profile_name",
    "find_profile",
    "mark_caught",
]
