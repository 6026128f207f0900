"""Either-or questions simplified before the engines (`deckcheck/draws/either.py`).

The simplified question must hold on exactly the holdings the question holds on (every count
of every group up to its size), and the engines' exact answers (with the redraw and the
return mulligan played optimally) must be the same Fractions.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from deckcheck.draws.either import idle_selectors, quieted, simplified
from deckcheck.draws.facade import Mode, Policy, solve
from deckcheck.draws.model import (
    Comparison,
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)

OPS = (Comparison.GE, Comparison.LE, Comparison.EQ)


def random_problem(rng: random.Random) -> DrawProblem:
    """A few groups, selectors (some picking the same cards), alternatives of 1–3 tests whose
    thresholds run from 0 to past the pile's matching cards."""
    n_groups = rng.randint(2, 4)
    sizes = tuple(rng.randint(1, 3) for _ in range(n_groups))
    n_sel = rng.randint(2, 5)
    columns = [tuple(rng.random() < 0.5 for _ in range(n_groups)) for _ in range(n_sel)]
    if rng.random() < 0.5:
        columns[-1] = columns[0]  # the same cards asked twice
    membership = tuple(tuple(col[g] for col in columns) for g in range(n_groups))
    n_conds = rng.randint(2, 6)
    conditions = []
    for _ in range(n_conds):
        s = rng.randrange(n_sel)
        have = sum(n for n, picked in zip(sizes, columns[s], strict=True) if picked)
        conditions.append(CountTest(s, rng.choice(OPS), rng.randint(0, have + 1)))
    any_of = tuple(
        tuple(sorted(rng.sample(range(n_conds), rng.randint(1, min(3, n_conds)))))
        for _ in range(rng.randint(2, 5))
    )
    return DrawProblem(sizes, membership, tuple(conditions), any_of=any_of)


def holdings(problem: DrawProblem) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(n + 1) for n in problem.group_sizes)))


@pytest.mark.parametrize("seed", range(2))
def test_the_same_event_on_every_holding(seed: int) -> None:
    rng = random.Random(seed)
    changed = 0
    for _ in range(300):
        problem = random_problem(rng)
        simple = simplified(problem)
        changed += simple != problem
        assert len(simple.any_of) <= len(problem.any_of)
        for held in holdings(problem):
            assert simple.satisfied(held) == problem.satisfied(held), (problem, held)
    assert changed > 50  # the generator makes questions to simplify


def test_what_is_left_out() -> None:
    # groups: 2 cards of A, 1 of B; selectors 0 (A), 1 (B), 2 (A again)
    membership = ((True, False, True), (False, True, False))
    tests = (
        CountTest(0, Comparison.GE, 1),  # 0: A>=1
        CountTest(1, Comparison.LE, 1),  # 1: B<=1, every count of the pile's one B
        CountTest(2, Comparison.EQ, 1),  # 2: A=1 (the same cards as 0)
        CountTest(1, Comparison.GE, 2),  # 3: B>=2, more than the pile holds
    )
    ask = DrawProblem((2, 1), membership, tests, any_of=((0, 1), (2,), (3,)))
    # (3,) never holds; (2,) holds only where (0, 1) does; B<=1 says nothing
    assert simplified(ask) == DrawProblem((2, 1), membership, (tests[0],))
    certain = DrawProblem((2, 1), membership, tests, any_of=((0,), (1,)))
    assert simplified(certain) == DrawProblem((2, 1), membership, (tests[1],))
    never = DrawProblem((2, 1), membership, tests, any_of=((3,), (0, 3)))
    assert simplified(never) == never  # the engines say why it cannot hold
    plain = DrawProblem((2, 1), membership, tests)
    assert simplified(plain) is plain


@pytest.mark.parametrize("seed", range(2))
def test_the_same_fractions_with_the_mulligans(seed: int) -> None:
    """The engines' exact answers, the redraw and the return chosen for the question."""
    rng = random.Random(100 + seed)
    asked = 0
    while asked < 12:
        problem = random_problem(rng)
        simple = simplified(problem)
        if simple == problem or problem.pile_size < 5:
            continue
        asked += 1
        assert_same_fractions(rng, problem, simple, CountTest(0, Comparison.LE, 0))


def assert_same_fractions(
    rng: random.Random, problem: DrawProblem, other: DrawProblem, trigger: CountTest
) -> None:
    """The engines' exact answers to ``problem`` and ``other`` are the same: a plain draw, the
    optimal redraw on ``trigger``, the return of one card with the look-ahead."""
    hand = rng.randint(2, min(3, problem.pile_size - 2))
    redraw = RedrawRule(triggers=(trigger,), max_redraws=1)
    for rule in (None, redraw, ReturnRule(count=1)):
        look = isinstance(rule, ReturnRule)  # the return with the look-ahead, as PC plays
        procedure = Procedure(hand_size=hand, mulligan=rule, lookahead=look)
        # the look-ahead may put a card under a turn: never through the whole pile
        top = (problem.pile_size + hand) // 2 if look else problem.pile_size
        seen = rng.randint(hand, min(hand + 2, top))
        query = Query(seen, use_mulligan=rule is not None)
        got = solve(other, procedure, query, Policy(), mode=Mode.EXACT)
        want = solve(problem, procedure, query, Policy(), mode=Mode.EXACT)
        assert got.exact and want.exact
        assert got.probability == want.probability, (problem, rule, seen)


def plain_problem(rng: random.Random) -> DrawProblem:
    """:func:`random_problem` as one AND of all its tests, some of which every count passes."""
    problem = random_problem(rng)
    return DrawProblem(problem.group_sizes, problem.membership, problem.conditions)


@pytest.mark.parametrize("seed", range(2))
def test_idle_selectors_pick_no_card_for_the_same_fractions(seed: int) -> None:
    """A selector whose tests every count passes picks no card (`quieted`): the groups merge,
    the engines' exact answers (the redraw, the return with the look-ahead) stay the same."""
    rng = random.Random(200 + seed)
    asked = 0
    while asked < 10:
        problem = plain_problem(rng)
        quiet = quieted(problem)
        if quiet == problem or problem.pile_size < 5:
            continue
        assert idle_selectors(quiet) == idle_selectors(problem)
        assert all(not row[s] for row in quiet.membership for s in idle_selectors(problem))
        asked += 1
        # The redraw's trigger reads a selector of its own (as bind gives it), past the tests'.
        trigger = len(problem.membership[0])
        own = [rng.random() < 0.5 for _ in problem.group_sizes]
        problem = replace(
            problem, membership=tuple((*r, t) for r, t in zip(problem.membership, own, strict=True))
        )
        assert_same_fractions(rng, problem, quieted(problem), CountTest(trigger, Comparison.LE, 0))


def test_which_selectors_are_idle() -> None:
    membership = ((True, False), (True, True))  # 2 cards of selector 0; 1 of selector 1
    tests = (CountTest(0, Comparison.GE, 0), CountTest(0, Comparison.LE, 2))
    assert idle_selectors(DrawProblem((1, 1), membership, tests)) == {0}
    tighter = (*tests, CountTest(1, Comparison.LE, 0))
    assert idle_selectors(DrawProblem((1, 1), membership, tighter)) == {0}
    short = (CountTest(0, Comparison.LE, 1), CountTest(1, Comparison.GE, 0))
    assert idle_selectors(DrawProblem((1, 1), membership, short)) == {1}
