"""The simulator's optimal player under a return mulligan and a look-ahead reads both of its
decisions from one exact engine: the return table comes from the engine that valued the
look-ahead's states, not from a second engine valuing them again (which could also be refused
where the first was not, leaving the simulated player greedy where ``odds`` is optimal)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_lookahead_frontier import named_problem

from deckcheck.draws.answer import FactKind
from deckcheck.draws.exact import odds
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.facade import Policy, simulate
from deckcheck.draws.model import Procedure, Query, Request, ReturnRule

PROCEDURE = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)


def test_one_engine_gives_both_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    problem, query = named_problem(random.Random(5), 6, 3, 6, False), Query(8)
    request = Request(problem, PROCEDURE, query)
    _, together = odds.optimal_choices(request)
    apart = odds.optimal_return_choice(request)
    assert together is not None
    hands = [tuple(h) for h in compositions(problem.group_sizes, 3)]
    assert [together(h) for h in hands] == [apart(h) for h in hands]
    # The return decision from a second engine, as before: the same deals, the same figure.
    shared = odds.optimal_choices
    monkeypatch.setattr(odds, "optimal_choices", lambda r, **kw: (shared(r, **kw)[0], None))
    apart_answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=3)
    monkeypatch.setattr(odds, "optimal_choices", shared)

    def second_engine(*args: Any, **kw: Any) -> None:
        raise AssertionError("a second engine for the return table")

    monkeypatch.setattr(odds, "optimal_return_choice", second_engine)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=3)
    assert answer == apart_answer
    assert any(f.kind is FactKind.RETURN_OPTIMAL for f in answer.facts)
