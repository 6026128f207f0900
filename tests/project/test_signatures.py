"""The package's functions stay small at their seams: a function that needs many values takes
them as one request or bundle (a frozen value), not as a dozen parameters."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "deckcheck"

#: Parameters (``self`` and ``cls`` aside) from which a function should take a bundle instead.
MOST_PARAMETERS = 11


def parameter_count(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Every parameter a call can pass, ``self``/``cls`` of a method left out."""
    args = function.args
    named = [*args.posonlyargs, *args.args]
    if named and named[0].arg in ("self", "cls"):
        named = named[1:]
    return len(named) + len(args.kwonlyargs) + (args.vararg is not None) + (args.kwarg is not None)


def wide_functions(source: str, where: str) -> list[str]:
    """``where:line name (count)`` of each function of ``source`` past the most."""
    return [
        f"{where}:{node.lineno} {node.name} ({parameter_count(node)})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and parameter_count(node) > MOST_PARAMETERS
    ]


def test_the_count_sees_every_kind_of_parameter() -> None:
    source = "def f(a, /, b, *c, d, **e): ...\nclass K:\n    def m(self, a, b=1): ...\n"
    counts = {
        node.name: parameter_count(node)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
    }
    assert counts == {"f": 5, "m": 2}
    wide = "def g(" + ", ".join(f"p{i}" for i in range(12)) + "): ...\n"
    assert wide_functions(wide, "x.py") == ["x.py:1 g (12)"]


def test_no_function_takes_twelve_parameters_or_more() -> None:
    wide = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in wide_functions(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert not wide, "take a request or a bundle instead:\n" + "\n".join(wide)
