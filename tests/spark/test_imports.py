"""kafkawire.spark's modules import one another in one direction: no module imports, even
inside a function or for type checking only, one that imports it back (directly or through
others). A cycle makes the first import's outcome depend on which module is imported first."""

from __future__ import annotations

import ast
from pathlib import Path

import kafkawire.spark

PACKAGE = "kafkawire.spark"
ROOT = Path(kafkawire.spark.__file__).parent


def _imports(path: Path) -> set[str]:
    """The kafkawire.spark modules ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:  # from kafkawire.spark import _x
                found.update(f"{PACKAGE}.{a.name}" for a in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(PACKAGE + "."))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {f"{PACKAGE}.{p.stem}": p for p in ROOT.glob("*.py") if p.stem != "__init__"}
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module from which an import path leads back to it (as one path each)."""
    cycles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    cycles.append([*path, start])
                    stack.clear()
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    return cycles


def test_the_graph_sees_the_imports():
    # the check below means something: the modules that use the options import them
    graph = _graph()
    assert "kafkawire.spark._options" in graph["kafkawire.spark._registry"]
    assert "kafkawire.spark._registry" in graph["kafkawire.spark._sources"]


def test_no_import_cycle_between_the_spark_modules():
    assert _cycles(_graph()) == []
