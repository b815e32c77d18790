"""The Pokédex profiles a terminal has claimed, and their secrets, kept on this computer.

A profile is marked only by whoever holds its secret (see ``splendor.store.pokedex``). The terminal claims a
profile the first time a seat is named after it and keeps the secret in a file readable by its user only: beside a
SQLite store's file (``splendor.db.profiles.json``), or in the user's data folder for another database.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import suppress
from pathlib import Path
from types import ModuleType

from platformdirs import user_data_dir

from splendor.store.database import database_url as resolve_url
from splendor.store.pokedex import Pokedex, ProfileClaimed

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows: one terminal at a time, as before
    fcntl = None


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
        """The secret of ``profile`` (`_secret`), two terminals claiming at once taking turns over the file: one
        reading it while the other rewrites it would leave out the other's new secret, lost for good."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = open(self.path.with_name(self.path.name + ".lock"), "a")  # noqa: SIM115 (held until the end)
        except OSError as e:
            raise ValueError(f"cannot keep profile secrets in {self.path}: {e}") from None
        with lock:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            return self._secret(profile)

    def _secret(self, profile: str) -> str:
        """The secret of ``profile``: the one kept here, or a new claim if nobody holds the profile yet.
        `ProfileClaimed` when it belongs to someone else. `ValueError` when the secrets file cannot be written:
        found before the profile is claimed where it can be, and otherwise said with the new secret, which the
        store does not keep (only its hash)."""
        kept = self._kept()
        held = kept.get(profile)
        if held is not None and self.pokedex.owns(profile, held):
            return held
        try:  # the new file first, beside the old one: a folder that cannot be written stops here, unclaimed
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, new = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".new", dir=self.path.parent)
        except OSError as e:
            raise ValueError(f"cannot keep profile secrets in {self.path}: {e}") from None
        try:
            try:
                secret = self.pokedex.claim(profile)  # ProfileClaimed if another holds it
            except BaseException:
                os.close(fd)
                raise
            kept[profile] = secret
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:  # readable by its user only (mkstemp's 0600)
                    json.dump(kept, out, indent=1, sort_keys=True)
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(new, self.path)  # the old file stays whole until the new one is
            except OSError as e:
                raise _NotKept(profile, secret, self.path, e) from None
        finally:
            with suppress(OSError):  # gone once it took the old file's place
                os.unlink(new)
        return secret


class _NotKept(ValueError):
    """A profile claimed whose secret could not be written: the secret is said, since nobody else keeps it."""

    def __init__(self, profile: str, secret: str, path: Path, error: OSError) -> None:
        super().__init__(
            f"the profile {profile} is claimed, but its secret could not be kept in {path} ({error}); "
            f"note it down, it is shown only now: {secret}"
        )


__all__ = ["ProfileClaimed", "TerminalProfiles", "secrets_file"]
