"""A row of a by-turn table with the look-ahead is not attempted when the row before it (fewer
cards seen) took more exact work than the table has left: it is simulated at once, saying
why, and a row settled before the deal is still answered exactly. Small budgets and piles;
the simulator is a stand-in that deals nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_fallback_budget import PROCEDURE, look_ahead_problem, recorded, refused
from test_lookahead_frontier import named_problem

from deckcheck.draws import facade
from deckcheck.draws.answer import Intractable, Method, reason_text
from deckcheck.draws.facade import Policy, Prior, exact, solve_turns
from deckcheck.draws.model import CountTest, DrawProblem, Query


def work(problem: DrawProblem, query: Query) -> int:
    """The exact work ``query`` takes on its own (the estimate and the look-ahead's calls)."""
    spent: list[int] = []
    exact(problem, PROCEDURE, query, Policy(), limit=10**7, spend=spent.append)
    return sum(spent)


def test_a_row_past_what_the_row_before_took_is_not_attempted() -> None:
    problem = look_ahead_problem()
    before, after = work(problem, Query(9)), work(problem, Query(11))
    assert 0 < before <= after  # the rule the skip relies on, on this pile
    spent: list[int] = []
    with pytest.raises(Intractable) as skipped:
        exact(
            problem,
            PROCEDURE,
            Query(11),
            Policy(),
            limit=before - 1,
            prior=Prior(at_least=before),
            spend=spent.append,
        )
    assert not spent and skipped.value.spent == 0  # nothing started
    assert f"took {before:,} units" in str(skipped.value)
    # With room for it, the same row is exact whatever the row before took.
    assert exact(
        problem, PROCEDURE, Query(11), Policy(), limit=after, prior=Prior(at_least=before)
    ).exact


def test_a_row_settled_before_the_deal_is_still_exact() -> None:
    # Every test an upper bound no pile breaks: the query holds however it is dealt.
    problem = DrawProblem(
        group_sizes=(2, 3, 5),
        membership=((True, False), (False, True), (False, False)),
        conditions=(CountTest(0, "<=", 2), CountTest(1, "<=", 3)),
    )
    answer = exact(problem, PROCEDURE, Query(7), Policy(), limit=0, prior=Prior(at_least=10**6))
    assert answer.exact and answer.probability == 1


def test_a_table_simulates_the_rows_past_its_exact_work(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = look_ahead_problem()
    queries = [Query(7, turns=3), Query(9, turns=4), Query(11, turns=5)]
    works = [work(problem, q) for q in queries]
    # Room for the first two rows and a little more: the third has less left than the second took.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", works[0] + works[1] + works[1] // 2)
    refusals = refused(monkeypatch)
    asked: list[dict[str, Any]] = recorded(monkeypatch)
    answers = solve_turns(problem, PROCEDURE, queries, Policy())
    assert [a.exact for a in answers] == [True, True, False]
    assert answers[2].method is Method.SIMULATION_VECTORISED
    assert len(asked) == 1 and asked[0]["query"] == queries[2]
    assert len(refusals) == 1 and refusals[0].spent == 0
    said = reason_text(refusals[0].reason)
    assert f"took {works[1]:,} units" in said and "the table has left" in said


def test_the_rule_holds_on_random_piles() -> None:
    """More cards seen took at least as much exact work on these piles, each row asked in
    turn in one process as a table asks them (the rule is not proven: it is why the skip
    names it as a rule)."""
    for seed in range(6):
        problem = named_problem(random.Random(seed), 5, 3, 6, False, (">=", "<=", "="))
        works = [work(problem, Query(seen)) for seen in (5, 7, 9)]
        assert works == sorted(works), (seed, works)
