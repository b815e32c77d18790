"""The layers' dependencies point one way: the kernel and the rules never import what is built on them
(docs/architecture.md). A hint, for one, is asked of the bots, not of the game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "splendor"
ABOVE = (
    "splendor.bots",
    "splendor.arena",
    "splendor.server",
    "splendor.store",
    "splendor.terminal",
    "splendor.envs",
    "splendor.cli",
    "splendor.sim",
)
"""What the rules are built under: none of it may be imported by them."""


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("layer", ["core", "games", "compiled"])
def test_the_rules_import_nothing_built_on_them(layer: str) -> None:
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files
    reaching_up = {
        f"{path.relative_to(PACKAGE)}: {name}" for path in files for name in imports(path) if name.startswith(ABOVE)
    }
    assert not reaching_up
