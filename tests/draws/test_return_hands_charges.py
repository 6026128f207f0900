"""The return table of every hand (``draws/exact/returned.py``) charges what its estimate
cannot count before doing it: each hand's counts, the distinct count vectors settled in
Python, the open hands' keys; and a walk over every hand in Python (the mulligan guide's, a
simulated player's choices) is charged as the walked return table was. Work is counted,
never timed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from test_return_hands import interesting

from deckcheck.draws.answer import Intractable
from deckcheck.draws.exact import returned
from deckcheck.draws.exact.returned import KeptValues, ReturnHands
from deckcheck.draws.exact.sequential import CALL_UNITS, SequentialEngine
from deckcheck.draws.model import Procedure, Query, ReturnRule


def lookahead_engine(seed: int = 3112) -> SequentialEngine:
    """Twelve overlapping tests, hands of five, two more cards with one look: the table of
    every hand answers (no level engine takes it)."""
    problem = interesting(random.Random(seed), 12, 12, any_of=False)
    procedure = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)
    return SequentialEngine(problem, procedure, Query(7), (), 10**9)


class Refused(Exception):
    """Raised by the test's charge: the step it was told of is not done."""


def test_the_estimate_charges_every_hand_besides_its_kept_parts() -> None:
    """Each hand's cards and counts cost besides its kept parts: a unit per
    :data:`~returned.HANDS_PER_UNIT` hands on top of the pairs' charge."""
    engine = lookahead_engine()
    table = engine._hands_return(3)
    assert table is not None
    assert table.work() == 1 + table.pairs // returned.PAIRS_PER_UNIT + (
        table.hands // returned.HANDS_PER_UNIT
    )
    assert table.hands >= returned.HANDS_PER_UNIT
    assert table.work() > 1 + table.pairs // returned.PAIRS_PER_UNIT


def test_the_distinct_counts_are_charged_before_they_are_settled() -> None:
    """A charge over the limit at the first step it hears of stops the table before it
    settles a single count vector in Python."""
    engine = lookahead_engine()
    settled: list[object] = []
    told: list[int] = []

    def settle(vec: tuple[int, ...]) -> bool | None:
        settled.append(vec)
        return engine._decided(vec, engine.hand)

    def refuse(units: int) -> None:
        told.append(units)
        raise Refused

    table = ReturnHands(
        engine.red, engine.n, 5, 3, engine.hand_scale(), settle, lambda v: (), int, refuse
    )
    with pytest.raises(Refused):
        table.run()
    assert settled == []
    assert told and told[0] >= returned.SETTLE_UNITS


def engine_table(
    engine: SequentialEngine,
    value: Callable[[tuple[int, ...]], int],
    charge: Callable[[int], object],
) -> ReturnHands:
    """The return table of every five-card hand (three returned) settled and valued as the
    engine does, with its charges told to ``charge``."""
    return ReturnHands(
        engine.red,
        engine.n,
        5,
        3,
        engine.hand_scale(),
        lambda vec: engine._decided(vec, engine.hand),
        lambda vec: engine._split(vec)[0],
        value,
        charge,
    )


def test_the_open_hands_are_charged_before_their_keys_are_built() -> None:
    """Once settled, the open vectors' live classes and the open hands' keys (cells of
    classes and one) are charged before they are found: refused there, no hand is valued."""
    engine = lookahead_engine()
    told: list[int] = []
    valued: list[object] = []

    def charge(units: int) -> None:
        told.append(units)
        if len(told) == 2:
            raise Refused

    def value(hand: tuple[int, ...]) -> int:
        valued.append(hand)
        return engine.hand_value(hand)

    table = engine_table(engine, value, charge)
    with pytest.raises(Refused):
        table.run()
    assert valued == []
    classes = len(engine.red.sizes)
    assert told[1] >= returned.LIVE_UNITS
    assert told[1] * returned.CELLS_PER_UNIT >= classes + 1


def test_an_engine_over_its_limit_is_refused_before_valuing_the_hands() -> None:
    """The engine's charge raises past its budget, counted in the recursion's calls: the
    table stops before the recursion values a single hand."""
    engine = lookahead_engine()
    engine.estimate(3)
    engine.budget = engine.work + 1
    with pytest.raises(Intractable):
        engine.without_mulligan()
    assert not engine.memo


def test_a_walk_over_every_hand_is_charged_once_before_the_recursion() -> None:
    """A guide's or a simulated player's walk over every hand: the units the hands' table
    left out of the estimate, charged as the recursion's calls, once; past the limit the
    table is refused before the recursion runs."""
    engine = lookahead_engine()
    work = engine.estimate(3)
    walk = engine.walked_estimate - engine.estimated
    assert walk > 0  # the walk costs more than the table
    engine.work = engine.prepaid = work
    engine.table_budget = 10**9
    engine.budget = 10**9
    engine.charge_walk()
    assert engine.work == work + -(-walk // CALL_UNITS)
    engine.charge_walk()
    assert engine.work == work + -(-walk // CALL_UNITS)

    tight = lookahead_engine()
    work = tight.estimate(3)
    tight.work = tight.prepaid = work
    tight.table_budget = 10**9
    tight.budget = work + -(-walk // CALL_UNITS) - 1
    with pytest.raises(Intractable):
        tight.charge_walk()
    assert not tight.memo


def test_a_walk_over_the_limit_is_refused_before_starting() -> None:
    """A walk over what the limit leaves: refused by the estimate, nothing charged."""
    engine = lookahead_engine()
    work = engine.estimate(3)
    engine.work = engine.prepaid = work
    engine.table_budget = engine.walked_estimate - engine.estimated - 1
    engine.budget = 10**9
    with pytest.raises(Intractable):
        engine.charge_walk()
    assert engine.work == work


def test_kept_values_asked_again_are_found_once() -> None:
    """The walk asks each kept part for every hand that holds it: its rank is found once."""
    engine = lookahead_engine()
    engine.estimate(3)
    engine.return_table(3)
    assert isinstance(engine.kept_values, KeptValues)
    table = engine._hands_return(3)
    assert table is not None
    asked: list[tuple[int, ...]] = []
    found = table.kept_value

    def counting(kept: tuple[int, ...]) -> int:
        asked.append(kept)
        return found(kept)

    table.kept_value = counting  # type: ignore[method-assign]
    fresh = KeptValues(table)
    kept = next(iter(fresh))
    assert fresh[kept] == fresh[kept] == found(kept)
    assert asked == [kept]
    with pytest.raises(KeyError):
        fresh[(9,) * len(kept)]


def test_steps_already_paid_for_are_not_charged_again() -> None:
    """Where the estimate charged the walk (more turns past the hands), the table's steps
    counted as it runs come out of what that charge left over first."""
    engine = lookahead_engine()
    told: list[int] = []
    table = engine_table(engine, engine.hand_value, told.append)
    table.prepaid = 10**9
    table.run()
    assert told == []
    assert table.prepaid < 10**9
    more = SequentialEngine(
        engine.problem,
        Procedure(5, draws_per_turn=1, mulligan=ReturnRule(3), lookahead=True),
        Query(8),
        (),
        10**9,
    )
    # The recursion past the hands (the level engine over overlapping selectors, which is
    # charged as it goes, is tested in test_attribute_levels.py).
    more.use_attributes = False
    hands = more._hands_return(3)
    assert hands is not None
    # Three turns past the hand: charged as the walk, the difference prepaid.
    assert more.return_work(3) == hands.work() + hands.prepaid > hands.work()
