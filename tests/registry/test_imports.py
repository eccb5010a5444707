"""kafkawire.registry's modules import each other without cycles (module-level and deferred
imports alike, the Cython modules' Python imports included), so each can be read, and
imported, after the ones it names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kafkawire.registry

PACKAGE = "kafkawire.registry"
ROOT = Path(kafkawire.registry.__file__).parent
_PYX_IMPORT = re.compile(r"^\s*from\s+(kafkawire\.registry(?:\.\w+)?)\s+import\s+([\w, ]+)", re.M)


def _modules() -> dict[str, Path]:
    return {p.stem: p for p in [*ROOT.glob("*.py"), *ROOT.glob("*.pyx")]}


def _targets(module: str, names: list[str], modules: dict[str, Path]) -> set[str]:
    """The package's modules an import of ``names`` from ``module`` loads."""
    if module != PACKAGE:
        stem = module.removeprefix(PACKAGE + ".")
        return {stem} if module.startswith(PACKAGE + ".") and stem in modules else set()
    # from kafkawire.registry import x: the submodule x, or else a name of __init__
    return {n if n in modules else "__init__" for n in names}


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    if path.suffix == ".pyx":
        for module, names in _PYX_IMPORT.findall(text):
            found |= _targets(module, [n.strip() for n in names.split(",")], modules)
        return found
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= _targets(node.module, [a.name for a in node.names], modules)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found |= _targets(alias.name, [], modules)
    return found - {path.stem}


def test_the_registry_modules_import_without_cycles():
    modules = _modules()
    graph = {stem: _imports(path, modules) for stem, path in modules.items()}
    # __init__ is loaded before any submodule: its own imports are the roots, not a cycle
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(stem: str) -> None:
        state[stem] = 1
        stack.append(stem)
        for dep in sorted(graph[stem]):
            if state.get(dep) == 1:
                cycles.append([*stack[stack.index(dep) :], dep])
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[stem] = 2

    for stem in sorted(graph):
        if stem not in state:
            visit(stem)
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)
    assert graph["encode"] and graph["client"]  # the walk saw the imports at all
