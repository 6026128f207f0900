"""The simulator's real deals against the exact engine: the plain draw and the optimal redraw.

Seeded and checked at 4.5 standard errors (or a chi-square at 5 sigma): no test here asserts on
wall-clock time.
"""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("numpy")

from deckcheck.draws.facade import Mode, Policy, redraw_choice, solve
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule
from deckcheck.draws.simulate.dealer import shuffle
from deckcheck.draws.simulate.vectorised import simulate_vectorised

SIGMAS = 4.5

# Three shapes: two groups and one card (The Drake's leader), three groups with a lower and an
# upper bound (Ren Dhark), and overlapping selectors over six groups with an equality.
DRAKE = DrawProblem((1, 6), ((True,), (False,)), (CountTest(0, ">=", 1),))
RD = DrawProblem(
    (15, 12, 5),
    ((True, False), (False, False), (False, True)),
    (CountTest(0, ">=", 2), CountTest(1, "<=", 2)),
)
MIXED = DrawProblem(
    (9, 6, 6, 2, 4, 13),
    (
        (True, False, True),
        (True, False, False),
        (False, True, True),
        (False, True, False),
        (False, False, True),
        (False, False, False),
    ),
    (CountTest(0, ">=", 2), CountTest(1, "=", 1), CountTest(2, "<", 5)),
)
CASES = [(DRAKE, 1), (RD, 7), (MIXED, 12)]


def _exact(problem: DrawProblem, seen: int) -> float:
    answer = solve(problem, Procedure(seen), Query(seen, use_mulligan=False), mode=Mode.EXACT)
    return float(answer.probability)


@pytest.mark.parametrize(("problem", "seen"), CASES, ids=["drake", "rd", "mixed"])
def test_simulated_plain_draw_within_its_interval(problem: DrawProblem, seen: int) -> None:
    exact = _exact(problem, seen)
    trials = 400_000
    query = Query(seen, use_mulligan=False)
    got = simulate_vectorised(problem, Procedure(seen), query, trials, 5)
    sigma = math.sqrt(exact * (1 - exact) / trials)
    assert abs(got.probability - exact) <= SIGMAS * sigma + 1e-12
    again = simulate_vectorised(
        problem, Procedure(seen), Query(seen, use_mulligan=False), trials, 5
    )
    assert again.successes == got.successes


# -- the optimal redraw ---------------------------------------------------------

RD_RULE = RedrawRule((CountTest(2, "<", 2), CountTest(3, ">", 3)), 1)
RD_TRIGGERED = DrawProblem(
    (15, 12, 5),
    ((True, False, True, False), (False, False, False, False), (False, True, False, True)),
    (CountTest(0, ">=", 3), CountTest(1, "<=", 1)),
)


@pytest.mark.parametrize("seen", [7, 11], ids=["hand", "turn-3"])
@pytest.mark.parametrize("limit", [1, 2], ids=["once", "twice"])
def test_optimal_redraw_simulated_within_its_interval(seen: int, limit: int) -> None:
    """The optimal redraw, dealt by hand compositions, agrees with the exact engine (with and
    without the rule), and the same seed gives the same counts."""
    rule = RedrawRule(RD_RULE.triggers, limit)
    procedure = Procedure(7, None, 2, rule)
    query = Query(seen)
    exact = solve(RD_TRIGGERED, procedure, query, Policy(), mode=Mode.EXACT)
    choose, optimal = redraw_choice(RD_TRIGGERED, procedure, query)
    assert optimal
    # In the hand, every change of the rule or the query that 400,000 trials would catch (a
    # trigger's or a condition's operator or threshold, the mulligan left out) moves the answers
    # by at least 14 standard errors of 100,000: a wrong rule still fails all but surely. By
    # turn 3 some move them by less (a hand of eight, a condition's threshold).
    trials = 100_000 if seen == 7 else 400_000
    got = simulate_vectorised(RD_TRIGGERED, procedure, query, trials, 3, choose_redraw=choose)
    for simulated, p in (
        (got.probability, float(exact.probability)),
        (got.probability_without_mulligan, float(exact.probability_without_mulligan)),
    ):
        assert abs(simulated - p) <= SIGMAS * math.sqrt(p * (1 - p) / trials) + 1e-12
    again = simulate_vectorised(RD_TRIGGERED, procedure, query, trials, 3, choose_redraw=choose)
    assert again.successes == got.successes


def test_the_dealers_shuffle_is_random_shuffle() -> None:
    """The reference dealer's own shuffle makes random.Random.shuffle's swaps from the same
    numbers: a seed deals what it always dealt, and the stream is left where shuffle leaves it."""
    for seed in range(40):
        for size in (0, 1, 2, 3, 7, 40, 61, 130):
            ours, theirs = random.Random(seed), random.Random(seed)
            pile, expected = list(range(size)), list(range(size))
            shuffle(ours, pile)
            theirs.shuffle(expected)
            assert pile == expected
            assert ours.random() == theirs.random()
