"""Either-or queries (an OR of ANDs) asked of the exact engines as one question.

The oracle plays labelled cards with no classes or capped counts: every hand, every later
draw, the mulligan decided by comparing exact values (redraw: keep or deal again, up to the
limit; return: keep, or return any ``count`` cards), the look-ahead by expectimax. The
engines must agree as Fractions, with and without the mulligan.
"""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from deckcheck.draws.facade import Mode, Policy, solve
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)


class Oracle:
    """P(the OR of ANDs holds) under the best play, over labelled cards."""

    def __init__(self, problem: DrawProblem, procedure: Procedure, query: Query) -> None:
        self.problem = problem
        self.procedure = procedure
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.per_turn = procedure.draws_per_turn
        self.group = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
        self.cards = frozenset(range(len(self.group)))

    def ok(self, held: frozenset[int]) -> bool:
        totals = [0] * len(self.problem.membership[0])
        for c in held:
            for s, member in enumerate(self.problem.membership[self.group[c]]):
                totals[s] += member
        conds = self.problem.conditions
        return any(
            all(conds[i].holds(totals[conds[i].selector]) for i in alt)
            for alt in self.problem.any_of
        )

    @functools.cache  # noqa: B019 - one oracle per case
    def value(self, held: frozenset[int], pile: frozenset[int], looked: bool) -> Fraction:
        if len(held) == self.seen:
            return Fraction(int(self.ok(held)))
        look = (
            self.procedure.lookahead and not looked and (len(held) - self.hand) % self.per_turn == 0
        )
        total = Fraction(0)
        for top in pile:
            rest = pile - {top}
            keep = self.value(held | {top}, rest, False)
            total += max(keep, self.value(held, rest, True)) if look else keep
        return total / len(pile)

    def after_hand(self, hand: frozenset[int]) -> Fraction:
        return self.value(hand, self.cards - hand, False)

    def hands(self) -> list[frozenset[int]]:
        return [frozenset(h) for h in itertools.combinations(self.cards, self.hand)]

    def plain(self) -> Fraction:
        hands = self.hands()
        return sum((self.after_hand(h) for h in hands), Fraction(0)) / len(hands)

    def redraw(self, rule: RedrawRule, left: int) -> Fraction:
        """The optional redraw taken only when a fresh deal is worth more."""
        if left == 0:
            return self.plain()
        again = self.redraw(rule, left - 1)
        hands = self.hands()
        total = Fraction(0)
        for hand in hands:
            keep = self.after_hand(hand)
            totals = [0] * len(self.problem.membership[0])
            for c in hand:
                for s, member in enumerate(self.problem.membership[self.group[c]]):
                    totals[s] += member
            allowed = any(t.holds(totals[t.selector]) for t in rule.triggers)
            total += max(keep, again) if allowed else keep
        return total / len(hands)

    def returning(self, count: int) -> Fraction:
        total = Fraction(0)
        hands = self.hands()
        for hand in hands:
            best = self.after_hand(hand)
            for back in itertools.combinations(sorted(hand), count):
                kept = hand - set(back)
                draws = list(itertools.combinations(sorted(self.cards - kept), count))
                value = sum((self.after_hand(kept | set(d)) for d in draws), Fraction(0))
                best = max(best, value / len(draws))
            total += best
        return total / len(hands)


def random_problem(rng: random.Random) -> DrawProblem:
    """A pile of 7 or 8 cards over up to 3 overlapping selectors, 2 or 3 alternatives."""
    n_sel = rng.randint(2, 3)
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    target = rng.randint(7, 8)
    while sum(sizes) < target:
        rows.append(tuple(rng.random() < 0.45 for _ in range(n_sel)))
        sizes.append(min(rng.randint(1, 3), target - sum(sizes)))
    tests = []
    for _ in range(rng.randint(2, 4)):
        op = rng.choice((">=", ">=", "<=", "=", "<"))
        tests.append(CountTest(rng.randrange(n_sel), op, rng.randint(1, 2)))
    alts: set[tuple[int, ...]] = set()
    while len(alts) < 2:
        alts.add(tuple(sorted(rng.sample(range(len(tests)), rng.randint(1, 2)))))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests), (), tuple(sorted(alts)))


def undecided(
    rng: random.Random, procedure: Procedure, seen: tuple[int, int]
) -> tuple[DrawProblem, Query]:
    """The first problem whose plain chance is neither 0 nor 1."""
    while True:
        problem = random_problem(rng)
        query = Query(seen=rng.randint(*seen))
        got = solve(problem, procedure, replace(query, use_mulligan=False), mode=Mode.EXACT)
        if got.probability_exact not in ("0", "1", "0/1", "1/1"):
            return problem, query


def answers(problem: DrawProblem, procedure: Procedure, query: Query) -> tuple[Fraction, Fraction]:
    got = solve(problem, procedure, query, Policy(), mode=Mode.EXACT)
    assert got.exact
    assert got.probability_exact is not None
    plain = solve(
        problem, procedure, Query(query.seen, use_mulligan=False), Policy(), mode=Mode.EXACT
    )
    assert plain.probability_exact is not None
    return Fraction(got.probability_exact), Fraction(plain.probability_exact)


@pytest.mark.parametrize("seed", range(6))
def test_plain_draw_and_optimal_redraw_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    limit = rng.choice((1, 2))
    rule = RedrawRule((CountTest(0, "<", rng.randint(1, 2)),), max_redraws=limit)
    procedure = Procedure(hand_size=3, mulligan=rule)
    problem, query = undecided(rng, procedure, (3, 5))
    oracle = Oracle(problem, procedure, query)
    with_m, without = answers(problem, procedure, query)
    assert without == oracle.plain()
    assert with_m == oracle.redraw(rule, limit)
    assert with_m >= without


@pytest.mark.parametrize("seed", range(6))
def test_return_mulligan_and_look_ahead_match_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    lookahead = seed % 2 == 0
    procedure = Procedure(hand_size=3, mulligan=ReturnRule(2), lookahead=lookahead)
    problem, query = undecided(rng, procedure, (4, 5) if lookahead else (3, 4))
    oracle = Oracle(problem, procedure, query)
    with_m, without = answers(problem, procedure, query)
    assert without == oracle.plain()
    assert with_m == oracle.returning(2)
    assert with_m >= without


def test_an_impossible_alternative_leaves_the_others() -> None:
    # "a >= 9" cannot hold with 4 cards seen; "b >= 1" can: the OR is the second's chance.
    problem = DrawProblem(
        (3, 2, 5),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 9), CountTest(1, ">=", 1)),
        (),
        ((0,), (1,)),
    )
    procedure = Procedure(hand_size=4)
    got = solve(problem, procedure, Query(seen=4), Policy(), mode=Mode.EXACT)
    alone = solve(problem.alternative(1), procedure, Query(seen=4), Policy(), mode=Mode.EXACT)
    assert got.probability_exact == alone.probability_exact
    assert got.probability_exact not in (None, "0")


@pytest.mark.parametrize(
    "alternatives",
    [((0, 2), (1,)), ((0, 2), (1, 2)), ((0,), (1,), (2,))],
    ids=["lopsided", "symmetric", "three"],
)
def test_classes_alike_by_name_share_states_only_where_the_alternatives_allow(
    alternatives: tuple[tuple[int, ...], ...],
) -> None:
    # Three named cards, two copies each: alike for the engines' sharing of states, which an
    # either-or query may or may not keep ((A and C) or B reads A and B differently).
    problem = DrawProblem(
        (2, 2, 2, 2),
        ((True, False, False), (False, True, False), (False, False, True), (False,) * 3),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 1), CountTest(2, ">=", 1)),
        (),
        alternatives,
    )
    procedure = Procedure(hand_size=2, mulligan=ReturnRule(1), lookahead=True)
    query = Query(seen=4)
    oracle = Oracle(problem, procedure, query)
    with_m, without = answers(problem, procedure, query)
    assert without == oracle.plain()
    assert with_m == oracle.returning(1)
    rule = RedrawRule((CountTest(2, "<", 1),), max_redraws=1)
    redraw = Procedure(hand_size=2, mulligan=rule)
    with_r, _ = answers(problem, redraw, Query(seen=3))
    assert with_r == Oracle(problem, redraw, Query(seen=3)).redraw(rule, 1)
