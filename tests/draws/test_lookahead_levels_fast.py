"""The level engine's cheaper steps (``deckcheck/draws/exact/levels.py``): children's rows
found as they are listed, moves weighed over every open state or over those they move, and a
state's sums read from per-byte tables. Each way gives the same Fractions as the recursion
and the labelled-card expectimax, and the tables the same sums as the digits.
"""

from __future__ import annotations

import random

import pytest
from test_lookahead_levels import by_levels, named_problem, recursion
from test_lookahead_levels import (
    test_eight_and_twelve_conditions_match_the_recursion as against_recursion,
)
from test_lookahead_levels import (
    test_small_named_piles_match_the_labelled_expectimax as against_expectimax,
)

import deckcheck.draws.exact.levels as levels_module
import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.exact.levels import LevelEngine
from deckcheck.draws.model import Procedure, Query, ReturnRule

#: Every move weighed over all open states (0), or over those it moves only (1).
WAYS = (0.0, 1.0)


@pytest.fixture
def levels_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recursion gives way to the level engine at once, and so does the return walk."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)


@pytest.mark.parametrize("dense", WAYS)
@pytest.mark.parametrize("seed", range(6))
def test_small_piles_either_way_match_the_labelled_expectimax(
    seed: int, dense: float, levels_now: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mixed operators and ranges on named cards, with and without the return, going first or
    second: each way of weighing moves against the expectimax over labelled cards."""
    monkeypatch.setattr(levels_module, "_DENSE", dense)
    against_expectimax(seed, None)


@pytest.mark.parametrize("dense", WAYS)
@pytest.mark.parametrize(
    ("n_named", "seed", "second"), [(8, 0, False), (8, 1, True), (12, 0, False), (12, 1, True)]
)
def test_eight_and_twelve_conditions_either_way_match_the_recursion(
    n_named: int,
    seed: int,
    second: bool,
    dense: float,
    levels_now: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8 and 12 mixed conditions, the optimal look-ahead and return of two: each way of
    weighing moves gives the recursion's Fraction, kept parts' values, return choices and
    look decisions."""
    monkeypatch.setattr(levels_module, "_DENSE", dense)
    against_recursion(n_named, seed, second, None)


def test_the_byte_tables_sum_as_the_digits(levels_now: None) -> None:
    """Every state of every level: cards needed, live, at risk and losing read from the
    per-byte tables are those the digits add up to."""
    rng = random.Random(21)
    problem = named_problem(rng, 10, 3, 8)
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = by_levels(problem, procedure, Query(9))
    engine.without_mulligan()
    levels = engine._levels
    assert levels is not None and levels.tables is not None
    keys = levels_module.np.concatenate(list(levels.levels.values()))
    assert len(keys) > 1000
    by_tables = levels._sums(keys)
    levels.tables = None
    by_digits = levels._sums(keys)
    for got, expected in zip(by_tables, by_digits, strict=True):
        assert (got == expected).all()


def test_without_the_tables_the_same_fraction(
    levels_now: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pile too large for the tables' fields sums the digits: the same Fraction."""
    rng = random.Random(4)
    problem = named_problem(rng, 8, 3, 8)
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    query = Query(9)
    expected = recursion(problem, procedure, query).without_mulligan()
    monkeypatch.setattr(LevelEngine, "_byte_tables", lambda self: None)
    engine = by_levels(problem, procedure, query)
    assert engine.without_mulligan() == expected
    assert engine._levels is not None and engine._levels.tables is None
