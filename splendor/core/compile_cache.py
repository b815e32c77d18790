"""Where Numba keeps the code it compiles: a folder named by a digest of the sources that code is built from.

Numba's own cache (``cache=True``) checks only the file a function is written in. But a compiled function carries
inside it the compiled functions of other modules that it calls, and the module-level tables it reads (the cards,
the action indices, the priors) frozen as constants. Left to itself, Numba therefore loads stale code after an
edit elsewhere: changing an opponent's policy in ``search/policies.py`` leaves the vectorised environment's
cached loop playing the old one, with no error.

So the package points Numba at ``splendor/__pycache__/numba/<digest>``, the digest taken over every file of the
folders compiled code is built from (core, games, compiled, search, and envs/vector). Any edit there starts a
fresh cache, compiled once (about a minute on one core), and stale code is never loaded; folders unused for a
day are removed (not sooner: a process started before the edit may still be writing to its own). Edits elsewhere
(the bots, the server, the terminal, the other environments) change nothing compiled and keep the cache.

A ``NUMBA_CACHE_DIR`` set by the user is left as it is. This runs when ``splendor.core`` is first imported, before
any compiled function is defined.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
COMPILED_FROM = ("core", "games", "compiled", "search", "envs/vector")
"""The folders whose files the compiled code is built from: the layers up to the search, and the vectorised
environments' loops (the rest of envs, and every layer above the search, hold no compiled code)."""
STALE_AFTER = 24 * 3600.0
"""Seconds after which another sources' cache folder is removed."""
MARK = "SPLENDOR_NUMBA_CACHE_DIR"
"""Set beside ``NUMBA_CACHE_DIR`` when this module chose it, so a child process knows the user did not."""


def source_digest(package: Path = PACKAGE) -> str:
    """A digest of the names and contents of every file of ``COMPILED_FROM`` (caches and hidden folders aside)."""
    digest = hashlib.blake2b(digest_size=8)
    for layer in COMPILED_FROM:
        for path in sorted((package / layer).rglob("*")):
            relative = path.relative_to(package)
            if not path.is_file() or any(p == "__pycache__" or p.startswith(".") for p in relative.parts):
                continue
            digest.update(relative.as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def keyed_cache_dir(package: Path = PACKAGE) -> Path:
    """The cache folder for the package's sources as they are now."""
    return package / "__pycache__" / "numba" / source_digest(package)


def user_cache_dir(digest: str) -> Path:
    """Where the cache goes when the package's own folder cannot be written (a read-only install): the user's
    cache folder (``$XDG_CACHE_HOME``, else ``~/.cache``), under the same digest."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "splendor" / "numba" / digest


def use_keyed_cache(package: Path = PACKAGE) -> Path | None:
    """Point Numba at `keyed_cache_dir` (unless the user set ``NUMBA_CACHE_DIR``; `user_cache_dir` where the
    package's folder cannot be written) and remove the folders of earlier sources unused for a day; the folder
    used, or None where the user's is kept."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and chosen != os.environ.get(MARK):
        return None
    folder = keyed_cache_dir(package)
    for candidate in (folder, user_cache_dir(folder.name)):
        if _prepare(candidate):
            folder = candidate
            break
    os.environ["NUMBA_CACHE_DIR"] = os.environ[MARK] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # Numba read its settings already: tell it too
        config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # a module found in sys.modules is untyped
    return folder


def _prepare(folder: Path) -> bool:
    """Make ``folder`` (marked as used now) and remove its siblings unused for a day; whether it can be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # in use: kept for another day
        if not os.access(folder, os.W_OK):
            return False
        for old in folder.parent.iterdir():
            if old != folder and old.is_dir() and time.time() - old.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return False
    return True
