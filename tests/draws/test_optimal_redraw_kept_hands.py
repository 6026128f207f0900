"""The optimal redraw gives a programme only to the hands the rule lets the player redraw.

The hands the rule keeps count together: the plain chance from one programme on the whole
pile, minus the redrawable hands' part. Checked here card by card against a brute force
(every hand and every later draw as sets of cards), with and without alternatives (``|``).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from deckcheck.draws.compare import Comparison
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule, Request

OPS = tuple(Comparison(op) for op in (">=", ">", "<=", "<", "="))


def _random_problem(rng: random.Random, any_of: bool) -> DrawProblem:
    n_sel = rng.randint(2, 3)
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    while sum(sizes) < rng.randint(7, 10):
        rows.append(tuple(rng.random() < 0.45 for _ in range(n_sel)))
        sizes.append(rng.randint(1, 3))
    tests = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(1, 2)) for _ in range(3)
    )
    alternatives = ((0, 1), (2,)) if any_of else ()
    return DrawProblem(tuple(sizes), tuple(rows), tests, any_of=alternatives)


def _brute(
    problem: DrawProblem, rule: RedrawRule, hand: int, seen: int
) -> tuple[dict[tuple[int, ...], Fraction], dict[tuple[int, ...], bool], Fraction]:
    """Per hand composition (over groups): kept chance, redrawable, and the plain chance."""
    cards = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    n, later = len(cards), seen - hand
    keep: dict[tuple[int, ...], Fraction] = {}
    allowed: dict[tuple[int, ...], bool] = {}
    total = Fraction(0)
    for dealt in itertools.combinations(range(n), hand):
        comp = tuple(
            sum(1 for i in dealt if cards[i] == g) for g in range(len(problem.group_sizes))
        )
        if comp not in keep:
            rest = [i for i in range(n) if i not in dealt]
            good = 0
            for drawn in itertools.combinations(rest, later):
                held = list(comp)
                for i in drawn:
                    held[cards[i]] += 1
                good += problem.satisfied(held)
            keep[comp] = Fraction(good, math.comb(n - hand, later))
            counts = problem.selector_counts(comp)
            allowed[comp] = any(t.holds(counts[t.selector]) for t in rule.triggers)
        total += keep[comp]
    return keep, allowed, total / math.comb(n, hand)


def _case(seed: int, any_of: bool) -> tuple[DrawProblem, RedrawRule, int, int]:
    rng = random.Random(seed)
    problem = _random_problem(rng, any_of)
    n_sel = len(problem.membership[0])
    triggers = (CountTest(rng.randrange(n_sel), Comparison.LT, rng.randint(1, 2)),)
    hand = rng.randint(3, 4)
    return problem, RedrawRule(triggers, max_redraws=rng.choice((1, 2, None))), hand, hand + 2


@pytest.mark.parametrize("any_of", [False, True])
def test_kept_hands_counted_together_match_brute_force(any_of: bool) -> None:
    optimal_redraw._solve.cache_clear()
    for seed in range(12):
        problem, rule, hand, seen = _case(4200 + seed, any_of)
        request = Request(problem, Procedure(hand_size=hand, mulligan=rule), Query(seen=seen))
        keep, allowed, plain = _brute(problem, rule, hand, seen)
        table = optimal_redraw.optimal_redraw_table(request)
        assert table.plain == plain
        # The guide still shows every hand's chance, kept ones included.
        by_groups: dict[tuple[int, ...], tuple[int, ...]] = {}
        for comp in keep:
            by_groups.setdefault(table.reduced.to_classes(comp), comp)
        for row, classes in enumerate(table.hands):
            comp = by_groups[classes]
            assert table.keep[row] == keep[comp]
            assert table.allowed[row] == allowed[comp]
        # The value from the brute force's chances (one redraw: the plain chance decides).
        if rule.max_redraws == 1:
            best = sum(
                (max(k, plain) if allowed[c] else k)
                * math.prod(math.comb(s, x) for s, x in zip(problem.group_sizes, c, strict=True))
                for c, k in keep.items()
            ) / math.comb(sum(problem.group_sizes), hand)
            assert table.best == best


def test_only_redrawable_hands_get_a_programme() -> None:
    problem = DrawProblem(
        (6, 5, 4, 9),
        ((True, False), (False, True), (True, True), (False, False)),
        (CountTest(0, Comparison.GE, 3), CountTest(1, Comparison.GE, 2)),
    )
    rule = RedrawRule((CountTest(0, Comparison.LT, 1),), max_redraws=1)
    procedure = Procedure(hand_size=5, mulligan=rule)
    optimal_redraw._solve.cache_clear()
    solution = optimal_redraw._solve(
        problem, procedure, Query(seen=8), optimal_redraw.DEFAULT_BUDGET, "optimal", None, None
    )
    kept = [k for k, a in zip(solution.keep_num, solution.allowed, strict=True) if not a]
    redrawn = [k for k, a in zip(solution.keep_num, solution.allowed, strict=True) if a]
    assert kept and all(k is None for k in kept)
    assert redrawn and all(k is not None for k in redrawn)
