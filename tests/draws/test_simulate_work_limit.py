"""``simulate`` builds its optimal player's tables (the look-ahead's, the return mulligan's)
within the work limit ``odds`` answers by, estimated and charged as ``odds`` does: within it
the player is the optimal one (the same seeded figures as before the limit), past it the
rule-of-thumb player ``odds`` simulates, no table built, the bound said. Small piles, a few
hundred deals."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import EXAMPLES, PC_TEN_CONDITIONS, run_json
from test_fallback_budget import PROCEDURE, look_ahead_problem

from deckcheck.analysis.odds import Simulation
from deckcheck.draws import facade
from deckcheck.draws.answer import Answer, FactKind, Intractable, Reach
from deckcheck.draws.exact import odds as exact_odds
from deckcheck.draws.facade import Mode, Policy, simulate, solve
from deckcheck.draws.model import Query


def no_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-ins that fail the test if the player's tables are built."""

    def built(*_: object, **__: object) -> Any:
        raise AssertionError("the optimal player's tables were built past the work limit")

    monkeypatch.setattr(exact_odds, "optimal_choices", built)
    monkeypatch.setattr(exact_odds, "optimal_return_choice", built)


def built_with(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record the engine each call for the player's tables is given."""
    engines: list[Any] = []
    real = exact_odds.optimal_choices

    def spy(request: Any, **kw: Any) -> Any:
        engines.append(kw.get("engine"))
        return real(request, **kw)

    monkeypatch.setattr(exact_odds, "optimal_choices", spy)
    return engines


def _simulation(answer: Answer) -> Simulation:
    sim = Simulation.of(answer)
    assert sim is not None
    return sim


def test_past_the_estimate_no_table_is_built_and_the_bound_is_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem, query = look_ahead_problem(), Query(9)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 40)
    no_tables(monkeypatch)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    sim = _simulation(answer)
    assert sim.bound is not None and sim.bound.reach is Reach.ESTIMATE
    assert sim.bound.work > sim.bound.limit == 40 and sim.tried
    assert sim.player.summary == "rule-of-thumb" and sim.player_exact is None
    assert answer.has(FactKind.LOOKAHEAD_HEURISTIC_INSTEAD) and answer.has(FactKind.RETURN_GREEDY)
    data = sim.to_json()
    assert data["bound"] == "estimate" and data["limit"] == 40 and data["player_exact"] is None
    assert data["decisions"] == {"look-ahead": "rule-of-thumb", "return": "rule-of-thumb"}
    assert str(data["why"]).startswith("a simulation was asked for; the optimal player's tables")
    assert "steps estimated before starting, over the 40" in " ".join(answer.notes)
    # The very player odds simulates for the question: the same deals, the same figure.
    fallback = solve(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    assert not fallback.exact
    assert (answer.successes, answer.trials) == (fallback.successes, fallback.trials)


@pytest.mark.parametrize("query", [Query(9), Query(7), Query(10, second=True)])
def test_the_player_is_optimal_exactly_where_odds_is_exact(
    monkeypatch: pytest.MonkeyPatch, query: Query
) -> None:
    """One limit for both: at each limit, simulate's player reads the exact tables exactly
    when odds answers exactly (refused by the estimate or by the work run alike)."""
    problem = look_ahead_problem()
    for limit in (0, 118, 300, 600, 1_000, 100_000):
        monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", limit)
        try:
            solve(problem, PROCEDURE, query, Policy(), mode=Mode.EXACT)
            exact = True
        except Intractable:
            exact = False
        answer = simulate(problem, PROCEDURE, query, Policy(), trials=50, seed=1)
        assert answer.has(FactKind.LOOKAHEAD_OPTIMAL) is exact, limit
        assert (_simulation(answer).bound is None) is exact, limit


def test_refused_as_it_runs_the_deals_get_what_the_tables_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The look-ahead's work ran past the limit after its estimate fitted: the bound is the
    work's, and a run not told how many deals takes what the tables left of its budget."""
    problem, query = look_ahead_problem(), Query(9)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 300)
    monkeypatch.setattr(facade, "MIN_SIMULATE_TRIALS", 40)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 200_000)
    monkeypatch.setattr(facade, "EXACT_UNIT_COST", 200_000)  # any work spent takes it all
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=None, seed=1)
    sim = _simulation(answer)
    assert sim.bound is not None and sim.bound.reach is Reach.WORK
    assert answer.trials == 40
    # Refused by the estimate, nothing spent: the whole budget.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 40)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=None, seed=1)
    assert answer.trials == facade.default_trials(problem, PROCEDURE, query) > 40


def test_within_the_limit_the_optimal_player_and_its_seeded_figures_are_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pinned literals from before the limit (the same seeds, the same deals), the tables
    built by an engine charged against the limit."""
    engines = built_with(monkeypatch)
    problem = look_ahead_problem()
    got = []
    for query in (Query(7), Query(10, second=True)):
        answer = simulate(problem, PROCEDURE, query, Policy(), trials=1_000, seed=11)
        assert answer.has(FactKind.LOOKAHEAD_OPTIMAL) and answer.has(FactKind.RETURN_OPTIMAL)
        assert _simulation(answer).bound is None
        got.append(answer.successes)
    assert got == [69, 503]
    assert len(engines) == 2
    assert all(e is not None and e.budget > 0 and e.estimated is not None for e in engines)


def test_the_bundled_ten_condition_query_simulates_odds_player() -> None:
    """legal-80, the review's ten conditions at turn 3: odds answers them exactly within its
    work limit, and so simulate's player is the optimal one, its tables odds' own (its exact
    chance odds' figure); no walk over every hand is charged, as the player makes none."""
    deck = str(EXAMPLES / "planetary-conquerors/legal-80.txt")
    asked = [deck, *PC_TEN_CONDITIONS, "--turn", "3"]
    odds = run_json(["odds", *asked, "--json"])
    assert odds["method"].startswith("exact")
    data = run_json(["simulate", *asked, "--trials", "300", "--seed", "1", "--json"])
    sim = data["simulation"]
    assert sim["bound"] is None and sim["player"] == "optimal"
    assert sim["player_exact"]["probability_exact"] == odds["probability_exact"]
