"""The checks every change passes: ruff's rules and format, and mypy (strict on the rules and the search), as
configured in pyproject.toml and described in docs/contributing.md. They run inside `make test`, so a change that
breaks them breaks the build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CHECKED = ["splendor", "tests", "benchmarks", "examples", "scripts"]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["ruff", "check", "--output-format", "concise", *CHECKED], id="ruff-lint"),
        pytest.param(["ruff", "format", "--check", *CHECKED], id="ruff-format"),
        pytest.param(["mypy"], id="mypy"),
    ],
)
def test_the_code_passes_its_checks(command: list[str]) -> None:
    done = _run(str(BIN / command[0]), *command[1:])
    assert done.returncode == 0, f"{' '.join(command)} found:\n{done.stdout[-6000:]}{done.stderr[-2000:]}"


def test_every_suppression_says_why() -> None:
    """A ``noqa`` or ``type: ignore`` that stays has its reason beside it: a code in brackets and words after."""
    bare = []
    for folder in ("splendor", "benchmarks", "examples", "scripts"):  # the tests are not type-checked
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for marker in ("# noqa", "# type: ignore"):
                    at = line.find(marker)
                    if at < 0:
                        continue
                    code, _, reason = line[at + len(marker) :].partition(" ")
                    if not code.startswith((":", "[")) or not reason.strip(" #()"):
                        bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "suppressions without a reason:\n" + "\n".join(bare)
