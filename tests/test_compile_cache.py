"""Numba's cache is named by the compiled code's sources (`splendor.core.compile_cache`): an edit to any of them,
not only to the file a compiled function is written in, starts a fresh cache, so stale compiled code (an old
opponent policy inlined into the vectorised loop, an old table frozen as a constant) is never loaded."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from splendor.core import compile_cache
from splendor.core.compile_cache import MARK, keyed_cache_dir, source_digest, use_keyed_cache


@pytest.fixture(autouse=True)
def numba_settings_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """`use_keyed_cache` also tells an imported Numba: its setting comes back after each test."""
    import numba.core.config

    monkeypatch.setattr(numba.core.config, "CACHE_DIR", numba.core.config.CACHE_DIR)
    for name in ("NUMBA_CACHE_DIR", MARK):
        if name in os.environ:
            monkeypatch.setenv(name, os.environ[name])


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


def test_folders_of_earlier_sources_are_removed_after_a_day_not_sooner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = package(tmp_path)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv(MARK, raising=False)
    parent = root / "__pycache__" / "numba"
    old, recent = parent / "0000000000000000", parent / "1111111111111111"
    for folder in (old, recent):
        folder.mkdir(parents=True)
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    assert use_keyed_cache(root) == keyed_cache_dir(root)
    assert os.environ["NUMBA_CACHE_DIR"] == str(keyed_cache_dir(root))
    assert sorted(p.name for p in parent.iterdir()) == sorted([recent.name, keyed_cache_dir(root).name])


def test_a_read_only_install_caches_in_the_users_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = package(tmp_path)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv(MARK, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (root / "__pycache__").write_text("not a folder: nothing can be made under it")  # as a read-only install
    expected = tmp_path / "cache" / "splendor" / "numba" / source_digest(root)
    assert use_keyed_cache(root) == expected and expected.is_dir()


def test_a_numba_cache_dir_the_user_set_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.delenv(MARK, raising=False)
    assert use_keyed_cache(package(tmp_path)) is None
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_one_the_package_chose_for_a_parent_is_chosen_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/elsewhere/numba/0123")
    monkeypatch.setenv(MARK, "/elsewhere/numba/0123")
    root = package(tmp_path)
    assert use_keyed_cache(root) == keyed_cache_dir(root)


def test_compiled_code_is_cached_in_the_folder_of_its_sources() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", MARK)}
    code = "import splendor.compiled, numba.core.config as c; print(c.CACHE_DIR)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(keyed_cache_dir())


def test_warming_an_unknown_part_says_which_parts_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    from splendor.envs import warm

    assert warm.main(["engine", "kitchen"]) == 2
    assert "unknown part kitchen: the parts are engine, search, environments" in capsys.readouterr().err
