"""The Pokédex kept per player profile across games (ruling 17).

A profile is claimed once, with a secret that only its owner keeps (their browser or terminal); the store keeps
only the secret's hash, and marks a profile only for someone who shows the secret. Reading a Pokédex is open to
anyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from splendor.games.pokemon.cards import POKEMON, evolution_lines
from splendor.store.database import Store
from splendor.store.models import PokedexMark, Profile
from splendor.store.secrets import new_secret, secret_hash, secret_matches

PROFILE_NAME = re.compile(r"^[\w][\w .'-]{0,39}$")


def check_profile_name(name: str) -> str:
    """A profile name, stripped; ``ValueError`` unless it is 1-40 letters, digits, spaces, ``.'-_``."""
    name = name.strip()
    if not PROFILE_NAME.match(name):
        raise ValueError(f"{name!r} is not a profile name: use 1-40 letters, digits, spaces or .'-_")
    return name


class ProfileClaimed(ValueError):
    """The profile belongs to someone else (it was claimed with another secret)."""


class NotYourProfile(PermissionError):
    """A secret that does not prove ownership of the profile."""


@dataclass(frozen=True)
class PokedexPage:
    """A profile's Pokédex: which of the 55 Pokémon are marked, by evolution line."""

    profile: str
    marked: dict[str, int]             # Pokémon → games in which it was caught
    lines: list[list[str]]

    @property
    def completion(self) -> tuple[int, int]:
        """(marked, total)."""
        return len(self.marked), len(POKEMON)


def mark_caught(s: Session, profile: str, caught: list[str]) -> None:
    """Within an open session, mark the Pokémon caught in one game on a profile (created if new)."""
    name = check_profile_name(profile)
    prof = s.scalar(select(Profile).where(Profile.name == name))
    if prof is None:
        prof = Profile(name=name)
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
        has marks but was never claimed (kept before claims existed) goes to its first claimer.
        `ProfileClaimed` when someone holds it already."""
        name = check_profile_name(profile)
        secret = new_secret()
        with self.store.session() as s:
            prof = s.scalar(select(Profile).where(Profile.name == name))
            if prof is None:
                s.add(Profile(name=name, secret_hash=secret_hash(secret)))
            elif prof.secret_hash:
                raise ProfileClaimed(f"the profile {name!r} is already claimed; choose another name")
            else:
                prof.secret_hash = secret_hash(secret)
        return secret

    def owns(self, profile: str, secret: str | None) -> bool:
        """True when ``secret`` is the claimed profile's secret."""
        name = check_profile_name(profile)
        with self.store.session() as s:
            stored = s.scalar(select(Profile.secret_hash).where(Profile.name == name))
        return secret_matches(secret, stored)

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
            before = {p for p, in s.execute(select(PokedexMark.pokemon).join(Profile).where(Profile.name == name))}
            mark_caught(s, name, caught)
        new = [p for p in dict.fromkeys(caught) if p not in before]
        return new

    def page(self, profile: str) -> PokedexPage:
        """The profile's Pokédex (empty for an unknown profile)."""
        name = check_profile_name(profile)
        with self.store.session() as s:
            rows = s.execute(select(PokedexMark.pokemon, PokedexMark.games).join(Profile).where(
                Profile.name == name)).all()
        return PokedexPage(profile=name, marked={p: g for p, g in rows}, lines=evolution_lines())

    def profiles(self) -> list[str]:
        """Every profile name, sorted."""
        with self.store.session() as s:
            return sorted(s.scalars(select(Profile.name)))
