"""Either-or questions (an OR of ANDs) simulated where exact maths does not reach.

On small piles the exact engines answer the same question, so a seeded simulation must agree
with the exact figure within :data:`TOLERANCE` standard errors, for both simulators: the plain
draw, and redraws and a look-ahead decided by the same stated rule in both (redraw whenever
allowed; the look-ahead's rule of thumb). The command answers a question beyond exact reach
with a simulated figure that says why it simulated.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from conftest import EXAMPLES, run_json

from deckcheck.draws.answer import Answer, FactKind, Intractable
from deckcheck.draws.facade import Mode, Policy, Prior, solve
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule
from deckcheck.draws.simulate.reference import simulate_reference
from deckcheck.draws.simulate.vectorised import simulate_vectorised

TOLERANCE = 4.5  # standard errors
TRIALS = 20_000
REFERENCE_TRIALS = 4_000


def random_problem(rng: random.Random) -> DrawProblem:
    """A pile of 10 to 14 cards over up to 3 overlapping selectors, 2 or 3 alternatives."""
    n_sel = rng.randint(2, 3)
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    target = rng.randint(10, 14)
    while sum(sizes) < target:
        rows.append(tuple(rng.random() < 0.45 for _ in range(n_sel)))
        sizes.append(min(rng.randint(1, 4), target - sum(sizes)))
    tests = []
    for _ in range(rng.randint(2, 4)):
        op = rng.choice((">=", ">=", "<=", "=", "<"))
        tests.append(CountTest(rng.randrange(n_sel), op, rng.randint(1, 2)))
    alts: set[tuple[int, ...]] = set()
    while len(alts) < rng.randint(2, 3):
        alts.add(tuple(sorted(rng.sample(range(len(tests)), rng.randint(1, 2)))))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests), (), tuple(sorted(alts)))


def undecided(
    rng: random.Random, procedure: Procedure, policy: Policy, seen: tuple[int, int]
) -> tuple[DrawProblem, Query, Fraction]:
    """The first problem whose exact chance (mulligan included) is neither 0 nor 1."""
    while True:
        problem = random_problem(rng)
        query = Query(seen=rng.randint(*seen))
        got = solve(problem, procedure, query, policy, mode=Mode.EXACT)
        assert got.exact and got.probability_exact is not None
        value = Fraction(got.probability_exact)
        if 0 < value < 1:
            return problem, query, value


def close(answer: Answer, exact: Fraction, trials: int) -> None:
    p = float(exact)
    sigma = math.sqrt(p * (1 - p) / trials)
    assert abs(answer.probability - p) <= TOLERANCE * sigma, (answer.probability, p)


def both_agree(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    policy: Policy,
    exact: Fraction,
    seeds: tuple[int, int],
) -> None:
    """The façade's simulation (a simulated answer, never called exact) and the reference
    simulator, each seeded, within the tolerance of the exact figure."""
    answer = solve(
        problem, procedure, query, policy, mode=Mode.SIMULATE, trials=TRIALS, seed=seeds[0]
    )
    assert not answer.exact
    close(answer, exact, TRIALS)
    close(
        simulate_reference(problem, procedure, query, REFERENCE_TRIALS, seeds[1]),
        exact,
        REFERENCE_TRIALS,
    )


@pytest.mark.parametrize("seed", range(4))
def test_plain_draw_simulation_agrees_with_the_exact_either_or(seed: int) -> None:
    rng = random.Random(seed)
    procedure = Procedure(hand_size=3)
    problem, query, exact = undecided(rng, procedure, Policy(), (3, 7))
    fast = simulate_vectorised(problem, procedure, query, TRIALS, seed)
    close(fast, exact, TRIALS)
    slow = simulate_reference(problem, procedure, query, REFERENCE_TRIALS, seed)
    close(slow, exact, REFERENCE_TRIALS)


@pytest.mark.parametrize("seed", range(3))
def test_redraw_whenever_allowed_simulated_agrees_with_the_exact_either_or(seed: int) -> None:
    rng = random.Random(200 + seed)
    rule = RedrawRule((CountTest(0, "<", rng.randint(1, 2)),), max_redraws=rng.choice((1, 2)))
    procedure = Procedure(hand_size=3, mulligan=rule)
    policy = Policy(redraw="always")
    problem, query, exact = undecided(rng, procedure, policy, (3, 6))
    both_agree(problem, procedure, query, policy, exact, (1, seed))


@pytest.mark.parametrize("seed", range(3))
def test_look_ahead_rule_of_thumb_simulated_agrees_with_the_exact_either_or(seed: int) -> None:
    rng = random.Random(300 + seed)
    procedure = Procedure(hand_size=3, lookahead=True)
    policy = Policy(lookahead="heuristic")
    problem, query, exact = undecided(rng, procedure, policy, (4, 7))
    both_agree(problem, procedure, query, policy, exact, (2, seed))


def test_out_of_reach_falls_back_to_a_simulation_saying_why() -> None:
    problem = DrawProblem(
        (4, 4, 12),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 2)),
        (),
        ((0,), (1,)),
    )
    procedure = Procedure(hand_size=5)
    query = Query(seen=8)
    exact = solve(problem, procedure, query, Policy(), mode=Mode.EXACT)
    answer = solve(
        problem, procedure, query, Policy(), prior=Prior(out_of_reach=Intractable("a test bound"))
    )
    assert not answer.exact
    why = [f for f in answer.facts if f.kind is FactKind.SIMULATED_INSTEAD]
    assert len(why) == 1 and why[0].count == answer.trials
    assert exact.probability_exact is not None
    assert answer.trials is not None
    close(answer, Fraction(exact.probability_exact), answer.trials)


def test_the_frontier_either_or_question_answers_by_simulation() -> None:
    """An either-or beyond exact reach (``>=2`` on one side: at least one card of either is
    the typed level engine's, exact, see ``test_lookahead_typed.py``) is simulated and says
    why."""
    names = [
        "Gold Miner",
        "Collector of Cosmium",
        "Deep Drill",
        "Cosmium Siphon",
        "Dynamo Rig",
        "Twin Excavator",
        "Stone Bunker",
        "Watchtower",
        "Mud Hut",
        "Power Plant",
        "Field Hospital",
    ]
    deck = str(EXAMPLES / "planetary-conquerors/legal-80.txt")
    conditions = ["name:Trooper>=2 | name:Raider>=1", *(f"name:{n}>=1" for n in names)]
    got = run_json(["odds", deck, *conditions, "--turn", "6", "--json"])
    assert got["exact"] is False
    assert got["trials"] > 0 and got["seed"] is not None
    low, high = got["ci95"]
    assert low <= got["probability"] <= high
    lines = got["assumptions"]
    assert any(line.startswith("exact computation out of reach (") for line in lines)
    assert any("rule of thumb" in line for line in lines)
    assert any("lower bound of optimal play" in line for line in lines)
    assert "over 2 alternatives" in got["method"]
