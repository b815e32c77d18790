"""The package as a user gets it: a wheel built from this tree holds every file the program reads, and installed
into a fresh virtual environment (sharing nothing with the one the tests run in, and run from a folder where this
tree is not importable) it plays, replays and serves.

First with the core dependencies alone (`pip install splendor`): the expert plays a move in the card games (the
compiled search, cached where the package is installed) and the greedy planner in Kids, the records
replay, the Pokédex store migrates and the catalogs speak, and `splendor serve` says which extra it needs. Then with
the ``server`` extra: `splendor serve` starts on a free port and answers the lobby, a catalog and the page's files.
The dependencies come from the machine's package indexes (pip's own configuration). About two minutes, most of it
Numba compiling the search once in the fresh environment.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest

import splendor

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "splendor"
# Made where the package runs or is worked on, never shipped: byte code, Numba's caches, tools' hidden folders.
NOT_SHIPPED = ("__pycache__", ".*", "*.pyc", "*.nbi", "*.nbc")
GAMES = ("classic", "pokemon", "kids")
EXPERT_MOVE = ("--players", "2", "--games", "1", "--max-turns", "1")
"""``splendor simulate`` options for a game of one turn: the first seat's first decision."""
KIDS = "greedy,random"
"""Kids' seats in the installed package: the greedy planner (Python) moves first."""


def source_files() -> set[str]:
    """Every file of the package in this tree, as a wheel names it: the modules and every data file beside them."""
    return {
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and not any(fnmatch(part, pattern) for part in p.relative_to(PACKAGE).parts for pattern in NOT_SHIPPED)
    }


@dataclass
class Install:
    wheel: Path
    venv: Path
    work: Path
    env: dict[str, str]
    timings: dict[str, float]

    def run(self, *args: str, timeout: float = 1500, check: bool = True) -> subprocess.CompletedProcess[str]:
        # A minute's compiling alone took 440 s beside the full suite's workers, and a CI machine may be slower.
        done = subprocess.run(
            list(args), cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout, check=False
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return done

    def splendor(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.venv / "bin" / "splendor"), *args, check=check)

    def python(self, code: str) -> str:
        return self.run(str(self.venv / "bin" / "python"), "-c", code).stdout

    def pip_install(self, *requirements: str) -> None:
        # This environment's pip, installing into the fresh one (which then needs no pip of its own). No byte code
        # for every module of every dependency: Python compiles those it imports (the install took 15 s, now 7).
        self.run(
            sys.executable, "-m", "pip", "--python", str(self.venv / "bin" / "python"), "install", "--quiet",
            "--no-compile", "--disable-pip-version-check", *requirements,
        )  # fmt: skip


def _timed(timings: dict[str, float], name: str, start: float) -> None:
    timings[name] = round(time.perf_counter() - start, 1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    """The wheel, built from a clean copy of this tree (no build folder of an earlier build can leak into it), and a
    fresh virtual environment with it and the core dependencies installed."""
    base = tmp_path_factory.mktemp("wheel")
    timings: dict[str, float] = {}
    start = time.perf_counter()
    source = base / "source"
    shutil.copytree(PACKAGE, source / "splendor", ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(base / "dist"),
         str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = (base / "dist").glob("splendor-*.whl")
    _timed(timings, "build", start)
    work = base / "work"
    work.mkdir()
    env = {
        "PATH": f"{base / 'venv' / 'bin'}:/usr/bin:/bin",
        "HOME": str(base / "home"),
        "XDG_DATA_HOME": str(base / "home" / "data"),
        "COLUMNS": "120",
        "TERM": "dumb",
        "SPLENDOR_DATABASE_URL": f"sqlite:///{base / 'splendor.db'}",
    }
    for name in ("PIP_FIND_LINKS", "PIP_CERT", "PIP_CONFIG_FILE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"):
        if name in os.environ:
            env[name] = os.environ[name]  # where this machine's packages come from
    start = time.perf_counter()
    # The interpreter the tests run in is a virtual environment's: venv makes the new one from its base Python.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base / "venv")], check=True, timeout=120)
    install = Install(wheel, base / "venv", work, env, timings)
    install.pip_install(str(wheel))
    _timed(timings, "install core", start)
    yield install
    print(f"\nwheel test timings (s): {timings}")


def test_the_wheel_holds_every_file_of_the_package_and_its_version(built: Install) -> None:
    with zipfile.ZipFile(built.wheel) as z:
        names = set(z.namelist())
    shipped = {n for n in names if n.startswith("splendor/")}
    assert source_files() - shipped == set(), "files of the package that the wheel leaves out"
    assert shipped - source_files() == set(), "files in the wheel that the package does not have"
    assert any(n.startswith("splendor/server/web/vendor/") for n in shipped)
    assert any(n.endswith("/weights/classic.json") for n in shipped)
    assert any(n.endswith("/weights/classic_network.npz") for n in shipped)
    assert built.wheel.name.startswith(f"splendor-{splendor.__version__}-")


def test_the_source_distribution_is_the_whole_project(tmp_path: Path) -> None:
    """A wheel user's find: the sdist held 35 of the 96 test files (no conftest.py), no docs, no CHANGELOG and no
    Makefile, so an unpacked sdist could neither test nor document itself. It holds every file git tracks, and no
    file made by running or building."""
    import tarfile

    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    source = tmp_path / "source"
    for name in filter(None, tracked):
        if (ROOT / name).is_file():  # a file deleted in this tree but not yet in git is not the project's
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(source)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (sdist,) = (tmp_path / "dist").glob("splendor-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.partition("/")[2] for name in tar.getnames()}
    shipped = {name for name in names if (source / name).is_file()}
    expected = {
        name for name in filter(None, tracked) if (source / name).is_file() and not name.startswith((".", "runs/"))
    }
    assert expected - shipped == set(), "tracked files the sdist leaves out"
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)
    assert {"tests/conftest.py", "CHANGELOG.md", "Makefile", "docs/bots.md", "splendor/py.typed"} <= names
    assert sdist.name == f"splendor-{splendor.__version__}.tar.gz"


def test_the_core_install_plays_replays_and_asks_for_the_server_extra(built: Install) -> None:
    where = built.python(
        "import importlib.util, splendor; "
        "print(splendor.__file__, splendor.__version__, importlib.util.find_spec('fastapi') is None)"
    ).split()
    assert where[0].startswith(str(built.venv)), "the installed package, not this tree"
    assert where[1:] == [splendor.__version__, "True"], "the core install brings no server"

    start = time.perf_counter()
    records = built.work / "records"
    # One decision of the expert (the learned weights, the compiled search, compiled and cached where the package
    # is installed) in the card games, and of the greedy planner in Kids: Numba compiles the search on first use,
    # classic's kernels, then Pokémon's, which share them. (Kids' own kernels are the same mechanism, and its
    # files are in the wheel by the test above: compiling them too cost the test run some 35 s of CPU.)
    for game, seats in (("classic", "ismcts:expert,random"), ("pokemon", "ismcts:expert,random"), ("kids", KIDS)):
        built.splendor("simulate", "--game", game, *EXPERT_MOVE, "--seats", seats, "--records", str(records))
    _timed(built.timings, "a move in each game", start)

    start = time.perf_counter()
    for game in GAMES:
        (record,) = records.glob(f"{game}-*.record")
        out = built.splendor("replay", str(record)).stdout
        assert "The record is complete and legal" in out, out  # a game stopped at its turn cap is over
    _timed(built.timings, "replays", start)

    page = built.splendor("pokedex", "ash").stdout  # the store, made by its migrations
    assert "Pokédex of ash: 0/" in page
    said = built.python("from splendor.i18n import _, translate; print(translate(_('the game is over'), 'sl'))")
    assert said.strip() == "igre je konec"

    refused = built.splendor("serve", check=False)
    assert refused.returncode == 2
    assert "pip install 'splendor[server]'" in refused.stderr and "Traceback" not in refused.stderr, refused.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()


def test_with_the_server_extra_it_serves_the_lobby(built: Install) -> None:
    start = time.perf_counter()
    built.pip_install(f"{built.wheel}[server]")
    _timed(built.timings, "install server extra", start)

    start = time.perf_counter()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = built.work / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(built.venv / "bin" / "splendor"), "serve", "--port", str(port)],
            cwd=built.work, env=built.env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                status, page = _get(base + "/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not answer:\n{log.read_text()}") from None
                time.sleep(0.2)
        assert status == 200 and b"<html" in page.lower()
        status, catalog = _get(base + "/api/messages/sl")
        assert status == 200 and b'"tokens"' in catalog
        for path in ("/static/words.js", "/static/vendor/morphdom.js", "/static/app.css"):
            assert _get(base + path)[0] == 200, path
    finally:
        server.terminate()
        server.wait(timeout=120)
    _timed(built.timings, "serve", start)
