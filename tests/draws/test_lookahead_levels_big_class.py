"""The level engine at its edges: a class of many cards (the return table weighs each hand by
the ways its counts can be drawn; a class of 67 cards or more once overflowed 64 bits there,
every count up to the class's size tabled though a hand holds at most its own size), and a
test on cards no class holds (once dropped by the level engine)."""

from __future__ import annotations

import pytest
from test_lookahead_levels import by_levels, recursion

import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, ReturnRule


@pytest.mark.parametrize("others", [67, 75])
def test_a_class_of_many_cards_gives_the_recursions_return_table(
    others: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)
    problem = DrawProblem((3, others), ((True,), (False,)), (CountTest(0, ">=", 1),))
    procedure = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)
    query = Query(9)
    fast = by_levels(problem, procedure, query)
    assert fast.return_table(3) == recursion(problem, procedure, query).return_table(3)
    assert fast._levels is not None


def test_a_test_on_cards_no_class_holds_stays_with_the_recursion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A second test whose selector counts no class (no card of it in the pile) can never
    pass: the level engine, which reads only the tests of its classes, does not take it."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    problem = DrawProblem(
        (3, 10),
        ((True, False), (False, False)),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 1)),
    )
    procedure = Procedure(3, draws_per_turn=2, lookahead=True)
    engine = by_levels(problem, procedure, Query(7))
    assert engine.without_mulligan() == 0
