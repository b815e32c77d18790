"""The Pokédex profiles a terminal has claimed, and their secrets, kept on this computer.

A profile is marked only by whoever holds its secret (see ``splendor.store.pokedex``). The terminal claims a
profile the first time a seat is named after it and keeps the secret in a file readable by its user only: beside a
SQLite store's file (``splendor.db.profiles.json``), or in the user's data folder for another database.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from platformdirs import user_data_dir

from splendor.store.database import database_url as resolve_url
from splendor.store.pokedex import Pokedex, ProfileClaimed


def secrets_file(database_url: str | None) -> Path:
    """Where this terminal keeps the secrets of the profiles it claimed in the store at ``database_url``."""
    url = resolve_url(database_url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        return Path(url.removeprefix("sqlite:///") + ".profiles.json").expanduser()
    return Path(user_data_dir("splendor", appauthor=False)) / "profiles.json"


class TerminalProfiles:
    """Proves, for the terminal's user, ownership of the profiles their seats are named after."""

    def __init__(self, pokedex: Pokedex, path: Path) -> None:
        self.pokedex, self.path = pokedex, path

    def _kept(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read the profile secrets in {self.path}: {e}") from None
        return (
            {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
            if isinstance(data, dict)
            else {}
        )

    def secret(self, profile: str) -> str:
        """The secret of ``profile``: the one kept here, or a new claim if nobody holds the profile yet.
        `ProfileClaimed` when it belongs to someone else."""
        kept = self._kept()
        held = kept.get(profile)
        if held is not None and self.pokedex.owns(profile, held):
            return held
        secret = self.pokedex.claim(profile)  # ProfileClaimed if another holds it
        kept[profile] = secret
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(kept, out, indent=1, sort_keys=True)
        return secret


__all__ = ["ProfileClaimed", "TerminalProfiles", "secrets_file"]
