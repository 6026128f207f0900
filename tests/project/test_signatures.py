"""The package's functions stay small at their seams: a function that needs many values takes
them as one request or bundle (a frozen value), not as a dozen parameters."""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
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


#: A ``def`` line's start, up to the parenthesis that opens its parameters.
DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+\w+[ \t]*(?:\[[^\]]*\])?\(", re.MULTILINE)


def signatures(source: str) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function of ``source``, each parsed from its own ``def`` line to its colon (the
    whole module's syntax tree takes far longer to build); where a signature cannot be cut out
    so, the whole module is parsed."""
    for found in DEF.finditer(source):
        depth, end = 0, None
        for i in range(found.end() - 1, len(source)):
            depth += {"(": 1, ")": -1}.get(source[i], 0)
            if depth == 0:
                end = source.find(":", i)
                break
        try:
            stub = ast.parse(textwrap.dedent(source[found.start() : end]) + ": ...")
        except SyntaxError:
            stub = None  # a parenthesis inside a string: read the module whole
        if (
            stub is None
            or end is None
            or not isinstance(stub.body[0], ast.FunctionDef | ast.AsyncFunctionDef)
        ):
            yield from (
                node
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            )
            return
        yield stub.body[0]


def wide_functions(source: str, where: str) -> list[str]:
    """``where:name (count)`` of each function of ``source`` past the most."""
    return [
        f"{where}:{node.name} ({parameter_count(node)})"
        for node in signatures(source)
        if parameter_count(node) > MOST_PARAMETERS
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
    assert wide_functions(wide, "x.py") == ["x.py:g (12)"]
    # A parenthesis in a string default: the module is read whole, the count the same.
    tricky = "def h(" + ", ".join(f"p{i}" for i in range(11)) + ", a=')') -> None:\n    pass\n"
    assert wide_functions(tricky, "y.py") == ["y.py:h (12)"]
    # Every function of a real module is seen, nested ones and methods too.
    nested = "class A:\n    def m(self, a): ...\n\n\ndef outer():\n    def inner(b, c): ...\n"
    assert [f.name for f in signatures(nested)] == ["m", "outer", "inner"]


def test_no_function_takes_twelve_parameters_or_more() -> None:
    wide = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in wide_functions(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert not wide, "take a request or a bundle instead:\n" + "\n".join(wide)
