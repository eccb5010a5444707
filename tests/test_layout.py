"""kafkawire's layout: modules a newcomer can read, in an order.

Modules import one another in one direction: no module imports, at its top,
inside a function or for type checking only, a module that imports it back (directly or
through others). A cycle makes an import's outcome depend on which module comes first, and a
newcomer cannot read the modules in an order. A package importing its own modules (to
re-export their names) is not a cycle; the Cython modules' Python imports count.

No hand-written module is over 800 lines: past that, a module holds more than one concern
(docs/architecture.md). Generated code (first line ``# GENERATED``) is not counted."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kafkawire

ROOT = Path(kafkawire.__file__).parent
_PYX_IMPORT = re.compile(
    r"^\s*(?:from\s+(\.*[\w.]*)\s+import\s+([\w, ()]+)|import\s+([\w.]+))", re.M
)


def _modules() -> dict[str, Path]:
    """Every module of kafkawire by dotted name (a package by its __init__)."""
    out = {}
    for path in [*ROOT.rglob("*.py"), *ROOT.rglob("*.pyx")]:
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if not level:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _imported(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The kafkawire modules ``module`` imports, anywhere in it."""
    is_package = path.name.startswith("__init__")
    names: list[str] = []
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".pyx":
        for source, what, plain in _PYX_IMPORT.findall(text):
            if plain:
                names.append(plain)
                continue
            level = len(source) - len(source.lstrip("."))
            base = _absolute(module, is_package, level, source.lstrip(".") or None)
            names.append(base)
            names += [f"{base}.{n.strip(' ()')}" for n in what.split(",") if n.strip(" ()")]
    else:
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, is_package, node.level, node.module)
                names += [base, *(f"{base}.{a.name}" for a in node.names)]
    found = set()
    for name in names:
        while name and name not in modules:  # a name of a module: that module
            name = name.rpartition(".")[0]
        if name and name != module and not (is_package and name.startswith(module + ".")):
            found.add(name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_sees_imports_of_every_kind():
    # what the check below relies on: top-level, relative, deferred and Cython imports
    graph = _graph()
    assert "kafkawire.client.flow" in graph["kafkawire.client.consumer.core"]  # from .flow import
    # from kafkawire.records import
    assert "kafkawire.records" in graph["kafkawire.client.consumer.fetcher"]
    assert "kafkawire.client.share.faces" in graph["kafkawire.confluent"]
    # a deferred import, inside a function
    assert "kafkawire.registry.deserializer" in graph["kafkawire.client.consumer.faces"]
    pyx = [m for m, p in _modules().items() if p.suffix == ".pyx" and graph[m]]
    assert pyx, "no Cython module's imports were read"
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    assert _cycles(_graph()) == []


MODULE_LINES = 800
SOURCE_SUFFIXES = {".py", ".pyi", ".pyx", ".pxi", ".pxd"}


def _line_counts() -> dict[str, int]:
    """Lines of every hand-written source file of kafkawire, by path."""
    counts = {}
    for path in sorted(ROOT.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES:
            text = path.read_text()
            if not text.startswith("# GENERATED"):
                counts[str(path.relative_to(ROOT.parent))] = text.count("\n")
    return counts


def test_the_module_sizes_are_read():
    counts = _line_counts()
    assert "kafkawire/client/flow.py" in counts and "kafkawire/records/_build.pyx" in counts
    assert "kafkawire/records/_decode_view.pxi" in counts  # the Cython includes count
    generated = ROOT / "protocol" / "_generated_messages.py"
    assert generated.read_text().count("\n") > MODULE_LINES  # skipped, not small
    assert "kafkawire/protocol/_generated_messages.py" not in counts


def test_no_hand_written_module_is_over_800_lines():
    assert {path: n for path, n in _line_counts().items() if n > MODULE_LINES} == {}
