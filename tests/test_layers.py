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


def module_name(path: Path) -> str:
    """The dotted name of a module of the package, from its file."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (the migrations are scripts, not modules)."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if "migrations" not in path.parts}


def imported_modules(path: Path, name: str, known: set[str]) -> set[str]:
    """The package's modules that ``path`` (module ``name``) imports, anywhere in it (inside functions too):
    ``from a.b import c`` imports ``a.b.c`` when that is a module, else ``a.b``; relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {  # ``if TYPE_CHECKING:`` imports never run
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # import a.b.c names a.b.c, or the package it is in
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports."""
    found = modules()
    return {name: imported_modules(path, name, set(found)) for name, path in found.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its modules in import order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_the_cycle_finder_names_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_module_of_the_package_imports_itself_round_a_circle() -> None:
    """Counting every import, inside functions too: a circle works only by the order of the imports."""
    graph = import_graph()
    assert "splendor.search.compiled" in graph and "splendor.bots.search" in graph["splendor.bots.hint"]
    found = cycle(graph)
    assert found is None, "an import circle: " + " -> ".join(found or [])


SEARCH_IS_UNDER = (
    "splendor.bots",
    "splendor.server",
    "splendor.store",
    "splendor.arena",
    "splendor.terminal",
    "splendor.envs",
    "splendor.cli",
    "splendor.sim",
)
"""What the search is built under: the bots (its front door), and everything above them."""


def test_the_search_imports_nothing_built_on_it() -> None:
    files = sorted((PACKAGE / "search").rglob("*.py"))
    assert files
    reaching_up = {
        f"{path.relative_to(PACKAGE)}: {name}"
        for path in files
        for name in imports(path)
        if name.startswith(SEARCH_IS_UNDER)
    }
    assert not reaching_up


@pytest.mark.parametrize("layer", ["core", "games", "compiled"])
def test_the_engines_import_neither_the_search_nor_the_bots(layer: str) -> None:
    graph = import_graph()
    engine = [name for name in graph if name.startswith(f"splendor.{layer}")]
    assert engine
    reaching_up = {
        f"{name}: {target}"
        for name in engine
        for target in graph[name]
        if target.startswith(("splendor.search", "splendor.bots"))
    }
    assert not reaching_up


LAYERS = (
    "i18n",
    "core",
    "games",
    "splendor",  # the package's face (splendor/__init__.py): new_game, load, the version
    "compiled",
    "search",
    "bots",
    "arena",
    "store",
    "server",
    "sim",
    "terminal",
    "envs",
    "cli",
    "__main__",
)
"""The package's parts, lowest first, as docs/architecture.md draws them: each imports only parts before it."""


def test_each_part_imports_only_the_parts_under_it() -> None:
    def part(module: str) -> str:
        return module.split(".")[1] if "." in module else module

    upward = sorted(
        f"{importer} imports {imported}"
        for importer, imports in import_graph().items()
        for imported in imports
        if LAYERS.index(part(imported)) > LAYERS.index(part(importer))
    )
    assert not upward, "imports that reach up:\n" + "\n".join(upward)
