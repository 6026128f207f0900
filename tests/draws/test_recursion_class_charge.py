"""The recursion's charge per class (``sequential.py``, ``STATE_CLASS_MICROSECONDS``): past
``CALL_CLASSES`` classes each new state it values costs calls more, counted against the budget
as they are spent, a budget of exactly that work enough and one less refused."""

from __future__ import annotations

import random

import pytest

from deckcheck.draws.answer import Intractable
from deckcheck.draws.exact.sequential import CALL_CLASSES, SequentialEngine, state_calls
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query


def engine(classes: int, budget: int) -> SequentialEngine:
    """The recursion alone (no level engine) on ``classes`` classes: named cards of one to
    three copies, each at most one (two of them at least one), and other cards."""
    rng = random.Random(31)
    n = classes - 1
    sizes = (*tuple(rng.randint(1, 3) for _ in range(n)), 8)
    rows = (*tuple(tuple(s == i for s in range(n)) for i in range(n)), (False,) * n)
    tests = tuple(CountTest(i, ">=" if i < 2 else "<=", 1) for i in range(n))
    problem = DrawProblem(sizes, rows, tests)
    procedure = Procedure(3, draws_per_turn=2, lookahead=True)
    out = SequentialEngine(problem, procedure, Query(7), (), budget)
    out.use_levels = False
    return out


@pytest.mark.parametrize("classes", [CALL_CLASSES - 3, CALL_CLASSES + 5])
def test_new_states_are_charged_per_class_past_the_first(classes: int) -> None:
    charged = engine(classes, 10**8)
    got = charged.without_mulligan()
    assert len(charged.red.sizes) == classes and 0 < got < 1
    assert charged.valued > 100
    calls_only = engine(classes, 10**8)
    calls_only._state_calls = 0.0
    assert calls_only.without_mulligan() == got
    extra = charged.valued * state_calls(classes)
    assert (extra == 0) == (classes <= CALL_CLASSES)
    assert charged.work - calls_only.work in (int(extra) - 1, int(extra))
    assert engine(classes, charged.work).without_mulligan() == got
    with pytest.raises(Intractable):
        engine(classes, charged.work - 1).without_mulligan()
