"""Where Numba keeps the code it compiles: a folder named by a digest of the sources that code is built from.

Numba's own cache (``cache=True``) checks only the file a function is written in. But a compiled function carries
inside it the compiled functions of other modules that it calls, and the module-level tables it reads (the cards,
the action indices, the priors) frozen as constants. Left to itself, Numba therefore loads stale code after an
edit elsewhere: changing an opponent's policy in ``search/policies.py`` leaves the vectorised environment's
cached loop playing the old one, with no error.

So the package's compiled functions are cached in ``splendor/__pycache__/numba/<digest>``, the digest taken over
every file of the folders compiled code is built from (core, games, compiled, search, and envs/vector). Any edit
there starts a fresh cache, compiled once (about a minute on one core), and stale code is never loaded; folders
unused for a day are removed (not sooner: a process started before the edit may still be writing to its own). Edits
elsewhere (the bots, the server, the terminal, the other environments) change nothing compiled and keep the cache.
Where the package's folder cannot be written (an install read-only to its user), the user's cache folder is used,
and where that cannot be either (a service's user without a home), a folder of its own under the system's
temporary folder.

This is a cache locator put first in Numba's list, which answers for the package's own files alone: a user's own
compiled functions, in the same process, are cached where Numba puts them by itself, and no setting of Numba's is
changed (an earlier ``NUMBA_CACHE_DIR`` set for the whole process had moved them into this package's folder). A
``NUMBA_CACHE_DIR`` set by the user is obeyed, for the package's functions too. The locator is installed when
Numba's caching module is imported (at once, if it was already), so importing the package does not import Numba.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import os
import shutil
import stat
import sys
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
COMPILED_FROM = ("core", "games", "compiled", "search", "envs/vector")
"""The folders whose files the compiled code is built from: the layers up to the search, and the vectorised
environments' loops (the rest of envs, and every layer above the search, hold no compiled code)."""
STALE_AFTER = 24 * 3600.0
"""Seconds after which another sources' cache folder is removed."""


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


def temp_cache_dir(digest: str) -> Path:
    """Where the cache goes when neither the package's folder nor the user's cache folder can be written: a folder
    of this user's under the system's temporary folder, under the same digest."""
    return Path(tempfile.gettempdir()) / f"splendor-numba-{os.getuid() if hasattr(os, 'getuid') else 0}" / digest


@functools.cache
def cache_folder(package: Path = PACKAGE) -> Path | None:
    """The folder the package's compiled functions are cached in: the first of `keyed_cache_dir`, `user_cache_dir`
    and `temp_cache_dir` that can be written (made, marked as used now, its stale siblings removed); None where
    none can (Numba's own locators are asked then)."""
    folder = keyed_cache_dir(package)
    places: list[tuple[Callable[[], Path], bool]] = [  # where, and whether others may make folders there
        (lambda: folder, False),
        (lambda: user_cache_dir(folder.name), False),
        (lambda: temp_cache_dir(folder.name), True),
    ]
    for place, shared in places:
        try:
            candidate = place()
        except (RuntimeError, KeyError):  # no home folder to be found
            continue
        if shared and not _own_private(candidate.parent):
            continue
        if _prepare(candidate):
            return candidate
    return None


def _own_private(folder: Path) -> bool:
    """Whether ``folder`` (made now if it is not there, readable by this user alone) is a real folder of this
    user's that nobody else may write: a folder under the shared temporary folder has a name anyone can guess,
    and another user who made it first could put compiled code there for Numba to load (its index is a pickle)."""
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        seen = os.lstat(folder)
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or seen.st_uid == os.getuid()
    return stat.S_ISDIR(seen.st_mode) and mine and not seen.st_mode & 0o022


def use_keyed_cache(package: Path = PACKAGE) -> None:
    """Have Numba cache the functions compiled from ``package``'s files in `cache_folder`: a locator first in
    Numba's list, installed now if Numba's caching module is imported, else as soon as it is."""
    caching = sys.modules.get("numba.core.caching")
    if caching is not None:
        _install(caching, package)
    elif not any(isinstance(finder, _WhenNumbaCaches) for finder in sys.meta_path):
        sys.meta_path.insert(0, _WhenNumbaCaches(package))


class _WhenNumbaCaches(importlib.abc.MetaPathFinder):
    """Installs the locator once Numba's caching module has run (its classes are what the locator is made of), and
    leaves the import system as it was."""

    def __init__(self, package: Path) -> None:
        self.package = package

    def find_spec(self, name: str, path: Sequence[str] | None, target: types.ModuleType | None = None) -> Any:
        if name != "numba.core.caching":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader, package = spec.loader, self.package
        run = loader.exec_module

        def exec_module(module: types.ModuleType) -> None:
            run(module)
            _install(module, package)

        loader.exec_module = exec_module  # type: ignore[method-assign]  # this import's loader alone
        return spec


def _install(caching: Any, package: Path) -> None:
    """Put a locator of the package's files first in Numba's list (once)."""
    if any(getattr(locator, "package", None) == package for locator in caching.CacheImpl._locator_classes):
        return
    config: Any = sys.modules["numba.core.config"]  # imported by the caching module
    root = str(package)

    class SourcesLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):  # type: ignore[misc]  # Numba's classes are untyped
        """The package's compiled functions, cached in `cache_folder` (after Numba's own scheme of file names)."""

        def __init__(self, py_func: Any, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            folder = cache_folder(package)
            assert folder is not None
            self._cache_path = str(folder / self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self) -> str:
            return self._cache_path

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            inside = os.path.realpath(py_file).startswith(root + os.sep)  # the package imported through a link too
            if not inside or config.CACHE_DIR or cache_folder(package) is None:
                return None  # not the package's, or the user's own folder chosen: Numba's locators decide
            return super().from_function(py_func, py_file)

    SourcesLocator.package = package
    caching.CacheImpl._locator_classes.insert(0, SourcesLocator)


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
