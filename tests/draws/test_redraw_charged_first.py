"""The optimal redraw (draws/exact/optimal_redraw.py, capped.py) charges its work before doing
it: a query whose opening hands alone pass the budget is refused without listing them; the
walks of a factored draw are charged with the rest; the bounds of every conjunction of an
either-or query are made once per pile. Counted in hands listed, products walked and bounds
made, never in time."""

from __future__ import annotations

import pytest

from deckcheck.draws.answer import Intractable, Reach
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.exact.compositions import count_compositions
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule, Request


def _request(n_groups: int, size: int, hand: int, later: int) -> Request:
    """``n_groups`` classes of ``size`` cards, each counted by a selector of its own."""
    membership = tuple(tuple(g == s for s in range(n_groups)) for g in range(n_groups))
    tests = tuple(CountTest(g, "<=", 1) for g in range(n_groups))
    problem = DrawProblem((size,) * n_groups, membership, tests)
    procedure = Procedure(hand_size=hand, mulligan=RedrawRule((CountTest(0, ">=", 2),), 1))
    return Request(problem, procedure, Query(seen=hand + later))


def test_a_query_whose_hands_pass_the_budget_is_refused_before_they_are_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = _request(8, 3, 6, 2)
    n_hands = count_compositions(request.problem.group_sizes, 6)[6]
    listed: list[object] = []
    compositions = optimal_redraw.compositions

    def counting(*args: object) -> object:
        listed.append(args)
        return compositions(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(optimal_redraw, "compositions", counting)
    optimal_redraw._solve.cache_clear()
    optimal_redraw._hands.cache_clear()
    with pytest.raises(Intractable) as refused:
        optimal_redraw.optimal_redraw_odds(request, budget=n_hands - 1)
    assert refused.value.reason.reach is Reach.WORK
    assert not listed  # not one hand enumerated
    # within the budget, the same query is answered (and its hands listed)
    optimal_redraw._solve.cache_clear()
    answer = optimal_redraw.optimal_redraw_odds(request)
    assert answer.fraction is not None and listed
