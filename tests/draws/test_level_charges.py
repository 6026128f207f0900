"""Each level engine is charged by its own measured costs (``units_per_call``, ``move_units``).

The work a query's level engine adds to the exact limit is, per level with states to go on
from, its states plus the engine's ``move_units`` times its moves (its digits and two),
divided by that engine's ``units_per_call``: the named engine's and the typed engine's, not
one for both.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_lookahead_levels import by_levels, levels_at_once, named_problem  # noqa: F401 (the fixture)
from test_lookahead_typed import typed_problem

from deckcheck.draws.exact import levels as levels_module
from deckcheck.draws.exact.levels import LevelEngine
from deckcheck.draws.exact.named import typed_kinds
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.exact.typed import TypedLevels
from deckcheck.draws.model import DrawProblem, Procedure, Query


def charged(
    monkeypatch: pytest.MonkeyPatch, problem: DrawProblem, query: Query
) -> tuple[LevelEngine, int, int]:
    """The level engine that answered, the work it added (the recursion's one call before
    it gives way included) and its own count of that work."""
    seen: list[int] = []
    real = levels_module.LevelEngine.run

    def run(engine: LevelEngine) -> None:
        told = engine.charge

        def charge(more: int) -> None:
            seen.append(more)
            told(more)

        engine.charge = charge
        real(engine)

    monkeypatch.setattr(levels_module.LevelEngine, "run", run)
    procedure = Procedure(3, draws_per_turn=2, lookahead=True)
    engine = by_levels(problem, procedure, query)
    before = engine.work
    engine.without_mulligan()
    levels: Any = engine._levels
    assert levels is not None and seen
    moves = len(levels.radices) + 2
    assert all(more >= levels.move_units * moves for more in seen)
    return levels, engine.work - before, sum(seen) // levels.units_per_call


@pytest.mark.usefixtures("levels_at_once")
def test_the_named_engine_is_charged_its_own_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = named_problem(random.Random(5), 6, 3, 8)
    levels, work, own = charged(monkeypatch, problem, Query(7))
    assert not levels.typed
    assert own <= work <= own + 1


@pytest.mark.usefixtures("levels_at_once")
def test_the_typed_engine_is_charged_its_own_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(9)
    while True:
        problem = typed_problem(rng, 4, 2, 2, 4)
        if typed_kinds(reduce_problem(problem)) is not None:
            break
    levels, work, own = charged(monkeypatch, problem, Query(7))
    assert isinstance(levels, TypedLevels)
    assert TypedLevels.units_per_call != LevelEngine.units_per_call
    assert own <= work <= own + 1
