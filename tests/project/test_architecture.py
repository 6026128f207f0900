"""The package's shape: layers import only downwards, no import cycles, no private names.

Layers, bottom up: core and draws (nothing of deckcheck) → catalog → games → decks → analysis
→ export and solve → commands → api and builder → cli and tui. A module may import its own
layer or any layer below it, never above; modules of one layer must not import each other in
a loop. The commands stand side by side, one module per use case: none imports another (what
two share lives below them).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import deckcheck

PACKAGE = Path(deckcheck.__file__).parent
LAYERS = {
    "core": 0,
    "draws": 0,
    "catalog": 1,
    "games": 2,
    "decks": 3,
    "analysis": 4,
    "export": 5,
    "solve": 5,
    "inplace": 5,
    "commands": 6,
    "api": 7,
    "builder": 7,
    "cli": 8,
    "tui": 8,
    "__main__": 9,
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(p): p
        for p in PACKAGE.rglob("*.py")
        if "catalogs" not in p.relative_to(PACKAGE).parts
    }


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields that hold statements (of a function, a class, a branch, a handler, a case)."""


def _statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement of ``body`` and of the blocks nested in it, in source order. An import
    is a statement: the expressions around it (nine nodes in ten) need no visit."""
    for node in body:
        yield node
        for field in _BODIES:
            yield from _statements(getattr(node, field, []))


@functools.cache  # each file parsed once for the four tests
def _imports(path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(module imported, names taken from it) for every deckcheck import, nested ones too."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in _statements(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("deckcheck"):
            found.append((node.module, tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Import):
            found += [(a.name, ()) for a in node.names if a.name.startswith("deckcheck")]
    return tuple(found)


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    assert top in LAYERS, f"{module}: add its package to LAYERS in this test"
    return LAYERS[top]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for target, names in _imports(path):
            # `from deckcheck.pkg import module` imports the submodule
            for sub in names:
                if f"{target}.{sub}" in modules:
                    graph[name].add(f"{target}.{sub}")
            if target in modules and target != name:
                graph[name].add(target)
    return graph


def test_layers_import_only_downwards() -> None:
    wrong = [
        f"{src} -> {dst}"
        for src, targets in _graph().items()
        if src != "deckcheck"
        for dst in targets
        if dst != "deckcheck" and _layer(dst) > _layer(src)
    ]
    assert wrong == []


def test_commands_are_siblings_on_one_level() -> None:
    """One module per use case directly in ``commands/``; none imports another command."""
    commands = PACKAGE / "commands"
    nested = [p.name for p in commands.iterdir() if p.is_dir() and p.name != "__pycache__"]
    assert nested == []
    modules = {m for m in _modules() if m.startswith("deckcheck.commands.")}
    assert {"deckcheck.commands.validate", "deckcheck.commands.odds"} <= modules
    graph = _graph()
    crossing = [
        f"{src} -> {dst}"
        for src in sorted(modules)
        for dst in sorted(graph[src])
        if dst.startswith("deckcheck.commands")
    ]
    assert crossing == []


def test_the_library_never_imports_a_command() -> None:
    """Below the commands nothing reaches up to them, nor to the api or the command line."""
    top = {"commands", "api", "builder", "cli", "tui", "__main__"}
    wrong = [
        f"{src} -> {dst}"
        for src, targets in _graph().items()
        if src != "deckcheck" and src.split(".")[1] not in top
        for dst in targets
        if dst != "deckcheck" and dst.split(".")[1] in top
    ]
    assert wrong == []


def test_no_import_cycles() -> None:
    graph = _graph()
    # packages' __init__ re-exports are edges too; a cycle through them is still a cycle
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_no_module_imports_private_names_of_another() -> None:
    private = [
        f"{name}: {target}.{n}"
        for name, path in _modules().items()
        for target, names in _imports(path)
        for n in names
        if n.startswith("_") and not n.startswith("__") and target != name
    ]
    assert private == []


def test_the_layer_table_is_checked_against_real_edges() -> None:
    """The test can fail: an upward edge is reported (guards against a vacuous graph)."""
    graph = _graph()
    assert any(graph.values())
    assert "deckcheck.core.errors" in graph["deckcheck.decks.parse"]
