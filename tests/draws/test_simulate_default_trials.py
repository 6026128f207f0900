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
    assert trial_cost(PROBLEM, LOOKAHEAD, Query(11), decided=True) > trial_cost(
        PROBLEM, LOOKAHEAD, Query(11)
    )


def test_decisions_read_from_tables_cost_their_questions_to_the_exact_engine() -> None:
    # Turn 4 going first: 6 cards after the hand of 5, 3 looks, dealt again after a return;
    # each state never met asks a quarter unit per group squared and 200 units per group a
    # condition sums (each of the two conditions sums two groups), at most every state (the
    # hands of the 11 cards seen, times a group on top) once over the fewest deals; and the
    # return's table asked once per hand class over them.
    plain = trial_cost(PROBLEM, LOOKAHEAD, Query(11))
    decided = trial_cost(PROBLEM, LOOKAHEAD, Query(11), decided=True)
    fewest = facade.MIN_SIMULATE_TRIALS
    groups = len(PROBLEM.group_sizes)
    ranges = [range(s + 1) for s in PROBLEM.group_sizes]

    def classes(cards: int) -> int:
        return sum(1 for h in itertools.product(*ranges) if sum(h) == cards)

    looks = 2 * 3
    ask = groups**2 // 4 + 200 * 4 // 2
    states = min(fewest * looks, classes(11) * groups)
    asked = 10 * looks + ask * looks * states // (fewest * looks)
    assert decided - plain == asked + 400 * classes(5) // fewest


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
