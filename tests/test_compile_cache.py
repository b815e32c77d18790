"""Numba's cache is named by the compiled code's sources (`splendor.core.compile_cache`): an edit to any of them,
not only to the file a compiled function is written in, starts a fresh cache, so stale compiled code (an old
opponent policy inlined into the vectorised loop, an old table frozen as a constant) is never loaded."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from splendor.core import compile_cache
from splendor.core.compile_cache import cache_folder, keyed_cache_dir, source_digest


def package(tmp_path: Path) -> Path:
    root = tmp_path / "splendor"
    for layer in (*compile_cache.COMPILED_FROM, "server", "envs/single"):
        (root / layer).mkdir(parents=True)
        (root / layer / "rules.py").write_text(f"# {layer}\n")
    (root / "games" / "cards.csv").write_text("id,points\n0,1\n")
    return root


@pytest.mark.parametrize("layer", compile_cache.COMPILED_FROM)
def test_an_edit_to_any_source_of_compiled_code_names_a_new_cache(tmp_path: Path, layer: str) -> None:
    root = package(tmp_path)
    before = source_digest(root)
    (root / layer / "rules.py").write_text("# edited\n")
    assert source_digest(root) != before


def test_a_data_file_a_table_is_built_from_counts_too(tmp_path: Path) -> None:
    root = package(tmp_path)
    before = source_digest(root)
    (root / "games" / "cards.csv").write_text("id,points\n0,2\n")
    assert source_digest(root) != before


def test_the_layers_above_and_numbas_own_files_keep_the_cache(tmp_path: Path) -> None:
    root = package(tmp_path)
    before = source_digest(root)
    (root / "server" / "rules.py").write_text("# the server changed\n")
    (root / "envs" / "single" / "rules.py").write_text("# an environment in Python changed\n")
    (root / "envs" / "warm.py").write_text("# a new module beside the vectorised loops\n")
    (root / "search" / "__pycache__").mkdir()
    (root / "search" / "__pycache__" / "rules.f-1.py311.nbi").write_bytes(b"cache")
    (root / "compiled" / ".ruff_cache").mkdir()
    (root / "compiled" / ".ruff_cache" / "x").write_text("tool")
    assert source_digest(root) == before


def test_folders_of_earlier_sources_are_removed_after_a_day_not_sooner(tmp_path: Path) -> None:
    root = package(tmp_path)
    parent = root / "__pycache__" / "numba"
    old, recent = parent / "0000000000000000", parent / "1111111111111111"
    for folder in (old, recent):
        folder.mkdir(parents=True)
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    assert cache_folder(root) == keyed_cache_dir(root)
    assert sorted(p.name for p in parent.iterdir()) == sorted([recent.name, keyed_cache_dir(root).name])


def test_a_read_only_install_caches_in_the_users_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = package(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (root / "__pycache__").write_text("not a folder: nothing can be made under it")  # as a read-only install
    expected = tmp_path / "cache" / "splendor" / "numba" / source_digest(root)
    assert cache_folder(root) == expected and expected.is_dir()


def test_with_no_home_either_the_cache_is_in_a_temporary_folder_of_the_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel user's find: a service's user, its install and its home both read-only (a container's user with HOME
    at /), had no locator at all, and every compiled bot failed ("cannot cache function 'next64'")."""
    root = package(tmp_path)
    (root / "__pycache__").write_text("read-only")
    (tmp_path / "home").write_text("read-only")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    chosen = cache_folder(root)
    assert chosen is not None and chosen.is_dir() and chosen.name == source_digest(root)
    assert chosen.parent.parent == tmp_path / "tmp"


def test_a_temporary_folder_another_could_have_made_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code review's find: the temporary folder's name can be guessed, so another local user could make it first,
    open to all, and put compiled code in it for Numba to load (its index is a pickle), or make it a link. It is
    used only as a folder of this user's that nobody else may write."""
    root = package(tmp_path)
    (root / "__pycache__").write_text("read-only")
    (tmp_path / "home").write_text("read-only")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    planted = tmp_path / "tmp" / f"splendor-numba-{os.getuid()}"
    planted.mkdir(parents=True)
    planted.chmod(0o777)
    assert cache_folder(root) is None
    planted.rmdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted.symlink_to(elsewhere)
    assert cache_folder.__wrapped__(root) is None  # (not the answer kept for the same package above)


def test_nothing_writable_anywhere_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = package(tmp_path)
    (root / "__pycache__").write_text("read-only")
    (tmp_path / "home").write_text("read-only")
    (tmp_path / "tmp").write_text("read-only")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    assert cache_folder(root) is None


CACHED_WHERE = """
import os, sys, numba
sys.path.insert(0, sys.argv[1])
import splendor.compiled.rng as rng
import mine
print(rng.next64._cache._cache_path)
print(mine.double._cache._cache_path)
print(os.environ.get("NUMBA_CACHE_DIR", "unset"))
"""


def test_the_packages_code_is_cached_by_its_sources_and_a_users_own_where_numba_puts_it(tmp_path: Path) -> None:
    """A wheel user's find: importing the package set NUMBA_CACHE_DIR for the whole process and its children, so a
    user's own compiled functions were cached in the package's folder (and lost at its next upgrade). Numba is
    imported first here, as a user's program may."""
    (tmp_path / "mine.py").write_text("import numba\n@numba.njit(cache=True)\ndef double(x):\n    return 2 * x\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", CACHED_WHERE, str(tmp_path)], env=env, capture_output=True, text=True, check=True
    )
    ours, theirs, setting = done.stdout.split()
    assert Path(ours).parent == keyed_cache_dir()
    assert Path(theirs) == tmp_path / "__pycache__" and setting == "unset"
    mine = {**env, "NUMBA_CACHE_DIR": str(tmp_path / "chosen")}  # a folder the user chose is obeyed
    done = subprocess.run(
        [sys.executable, "-c", CACHED_WHERE, str(tmp_path)], env=mine, capture_output=True, text=True, check=True
    )
    ours, theirs, setting = done.stdout.split()
    assert Path(ours).parent == Path(theirs).parent == tmp_path / "chosen"


def test_importing_the_package_does_not_import_numba() -> None:
    code = "import sys, splendor, splendor.core; print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_warming_an_unknown_part_says_which_parts_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    from splendor.envs import warm

    assert warm.main(["engine", "kitchen"]) == 2
    assert "unknown part kitchen: the parts are engine, search, environments" in capsys.readouterr().err
