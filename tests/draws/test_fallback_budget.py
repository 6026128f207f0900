"""A simulation in place of the exact answer gets what the refused exact attempt left of the
answer's time, and a refusal names the bound it hit with the budget it had.

The budgets are injected small (the point is the mechanism, not the scale), and the
simulator is replaced by a stand-in that records the trials it was asked for: no deal is
dealt, no clock is read.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_lookahead_frontier import named_problem

from deckcheck.analysis.odds import OddsOptions, compute_any_of
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws import facade
from deckcheck.draws.answer import Answer, Fact, FactKind, Intractable, Method, reason_text
from deckcheck.draws.exact.sequential import CALL_UNITS
from deckcheck.draws.facade import (
    EXACT_UNIT_COST,
    FALLBACK_TRIALS,
    SIMULATION_BUDGET,
    Policy,
    Prior,
    exact,
    fallback_trials,
    solve,
    trial_cost,
)
from deckcheck.draws.model import Procedure, Query, ReturnRule

PC80 = str(Path(__file__).resolve().parents[2] / "examples/planetary-conquerors/legal-80.txt")
PROCEDURE = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
LIMIT = 400


def look_ahead_problem() -> Any:
    return named_problem(random.Random(5), 6, 3, 6, False, (">=", ">=", "<=", "="))


def recorded(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace the simulator by a stand-in that records what it was asked (and answers 0)."""
    asked: list[dict[str, Any]] = []

    def stand_in(problem: Any, procedure: Any, query: Any, policy: Any, **kw: Any) -> Answer:
        asked.append({"problem": problem, "procedure": procedure, "query": query, **kw})
        why = [kw["why"]] if kw.get("why") is not None else []
        return Answer.from_counts(0, 0, kw["trials"], kw["seed"], Method.SIMULATION_VECTORISED, why)

    monkeypatch.setattr(facade, "simulate", stand_in)
    return asked


def refused(monkeypatch: pytest.MonkeyPatch) -> list[Intractable]:
    """Record every refusal of the façade's exact attempts (they still raise)."""
    refusals: list[Intractable] = []
    real = facade.exact

    def counted(*args: Any, **kw: Any) -> Answer:
        try:
            return real(*args, **kw)
        except Intractable as exc:
            refusals.append(exc)
            raise

    monkeypatch.setattr(facade, "exact", counted)
    return refusals


def test_a_refused_attempt_reports_the_work_it_spent() -> None:
    with pytest.raises(Intractable) as refused:
        exact(look_ahead_problem(), PROCEDURE, Query(8), Policy(), limit=LIMIT)
    # The look-ahead's calls, two units each, up to what the limit left them (one call past).
    assert 0 < refused.value.spent <= LIMIT + CALL_UNITS
    with pytest.raises(Intractable) as at_once:
        exact(look_ahead_problem(), PROCEDURE, Query(8), Policy(), limit=0)
    assert at_once.value.spent == 0  # refused by its estimate, before starting


def test_the_simulation_gets_what_the_refused_attempt_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem, query = look_ahead_problem(), Query(8)
    with pytest.raises(Intractable) as refused:
        exact(problem, PROCEDURE, query, Policy(), limit=LIMIT)
    spent = refused.value.spent
    asked = recorded(monkeypatch)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", LIMIT)
    # Room for 50,000 deals once the attempt is paid for; 4,000 more deals' worth without it.
    cost = trial_cost(problem, PROCEDURE, query)
    budget = 50_000 * cost + spent * EXACT_UNIT_COST
    answer = solve(problem, PROCEDURE, query, trials=200_000, budget=budget)
    assert asked[0]["trials"] == answer.trials == 50_000
    assert asked[0]["trials"] == fallback_trials(
        problem, PROCEDURE, query, 200_000, budget - spent * EXACT_UNIT_COST
    )
    assert fallback_trials(problem, PROCEDURE, query, 200_000, budget) > 50_000
    why = [f for f in answer.facts if f.kind is FactKind.SIMULATED_INSTEAD]
    assert why and why[0].count == 50_000
    # A query refused by its estimate spent nothing: its simulation has the whole budget.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    at_once = solve(problem, PROCEDURE, query, trials=200_000, budget=budget)
    assert at_once.trials == fallback_trials(problem, PROCEDURE, query, 200_000, budget)


def test_a_resumed_refusal_names_the_budget_it_had() -> None:
    """A pass gone on from a refused attempt's states is charged their calls as spent: its
    refusal names the same budget as a fresh attempt's (not what the first attempt left),
    and the work spent counts both attempts."""
    problem = look_ahead_problem()
    with pytest.raises(Intractable) as first:
        exact(problem, PROCEDURE, Query(8), Policy(), limit=LIMIT)
    known = first.value.known_states
    assert known is not None and known[2] > 0
    plain = Query(8, use_mulligan=False)
    limit = 2 * known[2] + 20  # a little more than the first attempt's calls
    with pytest.raises(Intractable) as fresh:
        exact(problem, PROCEDURE, plain, Policy(), limit=limit)
    with pytest.raises(Intractable) as resumed:
        exact(problem, PROCEDURE, plain, Policy(), limit=limit, prior=Prior(known_states=known))
    assert resumed.value.reason == fresh.value.reason
    assert resumed.value.spent > known[2] * CALL_UNITS
    assert str(resumed.value) == str(fresh.value)


def test_an_either_or_simulation_gets_what_both_attempts_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The question with the mulligan is refused, then the plain draw (gone on from its
    states): the simulation's trials follow the work of both (``Trooper>=2``: an either-or
    the typed level engine does not take, so the recursion's)."""
    limit = 60_000
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", limit)
    refusals = refused(monkeypatch)
    asked = recorded(monkeypatch)
    names = ["Gold Miner", "Deep Drill", "Cosmium Siphon", "Dynamo Rig", "Twin Excavator"]
    names += ["Stone Bunker", "Watchtower", "Mud Hut", "Power Plant", "Field Hospital"]
    conditions = ["name:Trooper>=2", "name:Raider>=1", *(f"name:{n}>=1" for n in names)]
    alternatives = ((0, *range(2, 12)), (1, *range(2, 12)))
    setup = draw_setup(open_deck(PC80))
    report = compute_any_of(setup, conditions, alternatives, OddsOptions(turn=6))
    assert not report.exact and len(refusals) == 2
    assert refusals[1].known_states is None or refusals[1].spent >= refusals[0].spent
    spent = refusals[1].spent  # the plain pass went on from the first: both are in it
    assert spent > limit // 2
    call = asked[0]
    left = max(0, SIMULATION_BUDGET - spent * EXACT_UNIT_COST)
    trials = fallback_trials(
        call["problem"], call["procedure"], call["query"], FALLBACK_TRIALS, left
    )
    assert call["trials"] == report.trials == trials
    alone = fallback_trials(
        call["problem"], call["procedure"], call["query"], FALLBACK_TRIALS, SIMULATION_BUDGET
    )
    assert trials < alone
    # The refusal names both bounds, the first one's included.
    assert isinstance(call["why"], Fact) and call["why"].reason is not None
    said = reason_text(call["why"].reason)
    assert reason_text(refusals[0].reason) in said and reason_text(refusals[1].reason) in said
