"""Draw mathematics: the abstract draw problem, exact odds and Monte Carlo simulation.

Nothing in this package knows a game by name: a game turns a deck and a query into a
:class:`DrawProblem` and a :class:`Procedure`; :func:`solve` answers it with an
:class:`Answer` (exact where in reach, simulated otherwise, and saying which)::

    from deckcheck.draws import CountTest, DrawProblem, Procedure, Query, solve

    problem = DrawProblem((15, 25), ((True,), (False,)), (CountTest(0, ">=", 2),))
    answer = solve(problem, Procedure(hand_size=7), Query(seen=7))
    answer.probability, answer.exact, answer.method, answer.notes
"""

from __future__ import annotations

import importlib
from typing import Any

# Where each public name lives. Loaded on first use, so that modules which need one small
# piece (the games' schema needs only the comparison type) do not load the engines.
_HOMES = {
    "Answer": "answer",
    "Comparison": "compare",
    "CountTest": "model",
    "DrawProblem": "model",
    "Fact": "answer",
    "FactKind": "answer",
    "Intractable": "answer",
    "Method": "answer",
    "Mode": "facade",
    "Policy": "facade",
    "Procedure": "model",
    "Query": "model",
    "RedrawRule": "model",
    "ReturnRule": "model",
    "solve": "facade",
    "solve_turns": "facade",
}

__all__ = [
    "Answer",
    "Comparison",
    "CountTest",
    "DrawProblem",
    "Fact",
    "FactKind",
    "Intractable",
    "Method",
    "Mode",
    "Policy",
    "Procedure",
    "Query",
    "RedrawRule",
    "ReturnRule",
    "solve",
    "solve_turns",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
