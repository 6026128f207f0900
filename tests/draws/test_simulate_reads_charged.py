"""``simulate``'s optimal player reads its return choices in bulk from the table of every
hand (not hand by hand): no walk over every hand is charged to its tables, so wherever
``odds`` answers exactly within its work limit, the simulated player is the optimal one.
A small pile whose hand is all the query sees, a few hundred deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_lookahead_frontier import named_problem

from deckcheck.draws import facade
from deckcheck.draws.answer import FactKind, Intractable
from deckcheck.draws.facade import Mode, Policy, simulate, solve
from deckcheck.draws.model import Procedure, Query, ReturnRule

PROCEDURE = Procedure(5, draws_per_turn=1, mulligan=ReturnRule(2))
QUERY = Query(5)


def _problem() -> Any:
    return named_problem(random.Random(2), 6, 3, 6, False, (">=", ">=", "<="))


def test_the_return_table_of_every_hand_leaves_the_walk_out() -> None:
    """The case the test is about: a walk over every hand would cost far more than the
    table the player reads, and odds is exact between the two."""
    engine = facade._charged_engine(_problem(), PROCEDURE, QUERY, "optimal", 10**9)
    assert engine.walked_estimate > 10 * engine.estimated
    assert engine.walked_estimate > 1_000


@pytest.mark.parametrize("limit", [40, 300, 1_000, 1_500, 100_000])
def test_the_player_reads_the_tables_wherever_odds_is_exact(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    problem = _problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", limit)
    try:
        exact = solve(problem, PROCEDURE, QUERY, Policy(), mode=Mode.EXACT)
    except Intractable:
        exact = None
    assert (exact is not None) is (limit >= 300), limit  # the walk: 1,762 units
    assert exact is None or 0 < exact.probability < 1
    answer = simulate(problem, PROCEDURE, QUERY, Policy(), trials=200, seed=1)
    assert answer.has(FactKind.RETURN_OPTIMAL) is (exact is not None), limit
    assert answer.has(FactKind.RETURN_GREEDY) is (exact is None), limit
