"""The plain draw as a product over the groups of classes the tests tie together
(draws/exact/capped.py ``Factored``): the same integers as the programme, on random problems,
piles and counts already held; out of its reach it says so."""

from __future__ import annotations

import random

import pytest

from deckcheck.draws.exact.capped import FACTOR_LIMIT, Factored, PlainProgramme, factored
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.model import CountTest, DrawProblem

OPS = (">=", "<=", "=", ">", "<")


def random_problem(rng: random.Random) -> DrawProblem:
    n_sel = rng.randint(1, 5)
    n_groups = rng.randint(1, 7)
    sizes = tuple(rng.randint(0, 9) for _ in range(n_groups))
    membership = tuple(tuple(rng.random() < 0.35 for _ in range(n_sel)) for _ in range(n_groups))
    conditions = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(0, 4))
        for _ in range(rng.randint(1, 5))
    )
    return DrawProblem(sizes, membership, conditions)


@pytest.mark.parametrize("seed", range(4))
def test_the_product_draws_what_the_programme_draws(seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    for _ in range(40):
        red = reduce_problem(random_problem(rng))
        most = rng.randint(0, 8)
        draw = Factored(red.cond, most)
        for _ in range(6):
            pile = tuple(rng.randint(0, size) for size in red.sizes)
            start = tuple(rng.randint(0, cap) for cap in red.cond.caps)
            assert draw.fits(pile)
            want = PlainProgramme(red, min(most, sum(pile)), pile, start).ways()
            assert draw.ways(pile, start) == want
            compared += 1
    assert compared == 40 * 6


def test_classes_tied_by_a_count_are_one_group_and_untested_classes_none() -> None:
    # selector 0 counts groups 0 and 1, selector 1 group 1 only, selector 2 group 2; group 3
    # is read by no test
    membership = (
        (True, False, False),
        (True, True, False),
        (False, False, True),
        (False, False, False),
    )
    tests = (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, "<=", 1))
    red = reduce_problem(DrawProblem((3, 4, 5, 6), membership, tests))
    draw = Factored(red.cond, 4)
    assert sorted(len(classes) for classes, _ in draw.groups) == [1, 2]
    assert len(draw.free) == 1
    # held already: one of selector 0, none of the others
    want = PlainProgramme(red, 4, red.sizes, (1, 0, 0)).ways()
    assert draw.ways(red.sizes, (1, 0, 0)) == want
    assert factored(red.cond, 4) is factored(red.cond, 4)  # one per query, kept


def test_an_either_or_query_or_a_group_past_the_limit_is_left_to_the_programme() -> None:
    membership = ((True, False), (False, True), (False, False))
    tests = (CountTest(0, ">=", 1), CountTest(1, ">=", 1))
    either = DrawProblem((3, 3, 3), membership, tests, any_of=((0,), (1,)))
    red = reduce_problem(either)
    assert not Factored(red.cond, 3).fits(red.sizes)
    # one count over six large classes (each read by a test of its own): the group's walk
    # would pass the limit
    rows = tuple((True, *(g == h for h in range(6))) for g in range(6))
    counts = (CountTest(0, ">=", 3), *(CountTest(1 + g, "<=", 5) for g in range(6)))
    wide = DrawProblem((40,) * 6, rows, counts)
    red = reduce_problem(wide)
    draw = Factored(red.cond, 12)
    walk = 1
    for classes, _ in draw.groups:
        for c in classes:
            walk *= min(red.sizes[c], 12) + 1
    assert walk > FACTOR_LIMIT
    assert not draw.fits(red.sizes)
