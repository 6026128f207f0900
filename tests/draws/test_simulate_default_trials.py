"""``simulate`` without ``--trials``: a million deals where they are cheap, fewer where each
costs more (the look-ahead deals card by card), never fewer than the floor; the report says
how many were dealt and its interval is theirs. The budgets are made small here, so that no
test deals more than a few thousand games."""

from __future__ import annotations

import itertools

import pytest

from deckcheck.draws import facade
from deckcheck.draws.facade import Policy, default_trials, simulate, trial_cost
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, ReturnRule

PROBLEM = DrawProblem(
    group_sizes=(4, 6, 2, 28),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 1)),
)
#: Two groups: a plain draw of them fits the budget a million times over.
PAIR = DrawProblem(
    group_sizes=(10, 30), membership=((True,), (False,)), conditions=(CountTest(0, ">=", 2),)
)
PLAIN = Procedure(5)
LOOKAHEAD = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)


def test_cheap_deals_get_the_default_and_dear_ones_fewer() -> None:
    assert default_trials(PAIR, PLAIN, Query(9)) == facade.SIMULATE_TRIALS
    plain = default_trials(PROBLEM, PLAIN, Query(9))
    looked = default_trials(PROBLEM, LOOKAHEAD, Query(11))
    decided = default_trials(PROBLEM, LOOKAHEAD, Query(11), decided=True)
    assert facade.MIN_SIMULATE_TRIALS <= decided <= looked < plain <= facade.SIMULATE_TRIALS
    for procedure, seen, trials in [(PLAIN, 9, plain), (LOOKAHEAD, 11, looked)]:
        cost = trial_cost(PROBLEM, procedure, Query(seen))
        afford = facade.SIMULATION_BUDGET // cost
        # What the budget affords, rounded down to two significant figures.
        assert afford * 0.9 < trials <= afford
        assert str(trials)[2:] == "0" * (len(str(trials)) - 2)
    # The decided look-ahead's deals are dearer than the budget affords: the floor.
    assert decided == facade.MIN_SIMULATE_TRIALS


def test_decisions_read_from_tables_cost_their_questions_to_the_exact_engine() -> None:
    # Turn 4 going first: 6 cards after the hand of 5, 3 looks, dealt again after a return;
    # each look a quarter unit per group squared and 150 units per group a condition sums
    # (each of the two conditions sums two groups); and the return's table asked once per
    # hand class over the fewest deals a run takes.
    plain = trial_cost(PROBLEM, LOOKAHEAD, Query(11))
    decided = trial_cost(PROBLEM, LOOKAHEAD, Query(11), decided=True)
    looks = 2 * 3 * (len(PROBLEM.group_sizes) ** 2 // 4 + 150 * 4 // 2)
    ranges = [range(s + 1) for s in PROBLEM.group_sizes]
    hands = sum(1 for h in itertools.product(*ranges) if sum(h) == 5)
    assert decided - plain == looks + 400 * hands // facade.MIN_SIMULATE_TRIALS


@pytest.mark.parametrize("procedure, seen", [(PLAIN, 9), (LOOKAHEAD, 9)])
def test_a_run_not_told_how_many_deals_the_default(
    monkeypatch: pytest.MonkeyPatch, procedure: Procedure, seen: int
) -> None:
    monkeypatch.setattr(facade, "SIMULATE_TRIALS", 3_000)
    monkeypatch.setattr(facade, "MIN_SIMULATE_TRIALS", 500)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 3_000 * 30)
    query = Query(seen)
    answer = simulate(PROBLEM, procedure, query, Policy(), trials=None, seed=3)
    optimal = procedure.lookahead  # the exact tables decide these small deals' looks
    assert answer.trials == default_trials(PROBLEM, procedure, query, decided=optimal)
    assert (answer.trials < 3_000) is procedure.lookahead
    low, high = answer.ci95 or (0.0, 1.0)
    assert low <= answer.probability <= high
    told = simulate(PROBLEM, procedure, query, Policy(), trials=answer.trials, seed=3)
    assert told.probability == answer.probability  # the same deals, only their number chosen
