"""The return table over hands up to exchanging alike classes (``deckcheck/draws/exact/hands.py``).

Each hand kept stands for every composition that exchanges its alike classes' counts, its
ways counting them all: checked against the compositions themselves, and the return table it
gives against the recursion's walk (many alike classes, going first and second, returns of
one to three cards).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from test_lookahead_levels import by_levels, recursion

import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.exact.compositions import compositions, ways
from deckcheck.draws.exact.hands import Hands
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, ReturnRule


@pytest.fixture
def levels_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recursion gives way to the level engine at once, and so does the return walk."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)


@pytest.mark.parametrize("orbits", [[(3, 2), (1, 5), (2, 1)], [(4, 3), (2, 2)], [(1, 4)]])
def test_each_hand_stands_for_its_compositions(orbits: list[tuple[int, int]]) -> None:
    """Per size, the hands are the compositions up to exchange within an orbit, one each, and
    a hand's ways are the ways of the compositions it stands for."""
    sizes = tuple(size for members, size in orbits for _ in range(members))
    hands = Hands(orbits, 4)
    for size in range(5):
        expected: Counter[tuple[tuple[int, ...], ...]] = Counter()
        start = 0
        for comp in compositions(sizes, size):
            shape = []
            start = 0
            for members, _ in orbits:
                shape.append(tuple(sorted(comp[start : start + members])))
                start += members
            expected[tuple(shape)] += ways(sizes, comp)
        got: dict[tuple[tuple[int, ...], ...], int] = {}
        for row, w in zip(hands.rows[size].tolist(), hands.ways(size).tolist(), strict=True):
            shape = []
            for o, (members, _) in enumerate(orbits):
                counts = hands.orbits[o].configs[row[o]]
                held = [x for x, k in enumerate(counts, 1) for _ in range(k)]
                shape.append(tuple(sorted([0] * (members - len(held)) + held)))
            got[tuple(shape)] = w
        assert got == dict(expected)
        assert sum(got.values()) == math.comb(sum(sizes), size)
        # Giving back a card leads to a hand one card smaller, found among them.
        if size:
            for has, at in hands.smaller(size):
                assert (at < len(hands.rows[size - 1])).all() and len(has)


def alike_problem(rng: random.Random, n_named: int) -> DrawProblem:
    """``n_named`` named classes of one or two cards, most of them alike (the same test and
    size), and cards no test reads."""
    sizes = [rng.choice((1, 2, 2)) for _ in range(n_named)] + [rng.randint(4, 6)]
    rows = [tuple(s == i for s in range(n_named)) for i in range(n_named)]
    rows.append((False,) * n_named)
    ops = rng.choice(((">=", 1), ("<=", 1), ("=", 1)))
    tests = []
    for i in range(n_named):
        op, threshold = ops if rng.random() < 0.7 else rng.choice(((">=", 1), ("<=", 1)))
        tests.append(CountTest(i, op, threshold))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


@pytest.mark.parametrize("seed", range(8))
def test_return_tables_with_alike_classes_are_the_walks(seed: int, levels_at_once: None) -> None:
    """Many alike classes, the return of one to three cards, going first or second: the
    level engine's table (hands up to exchange) gives the walk's Fraction, kept parts' values
    and choices."""
    rng = random.Random(6100 + seed)
    second = seed % 2 == 1
    count = 1 + seed % 3
    hand = 4
    procedure = Procedure(
        hand,
        hand_size_second=hand + 1,
        draws_per_turn=2,
        mulligan=ReturnRule(count),
        lookahead=True,
    )
    query = Query((hand + 1 if second else hand) + 3, second=second)
    while True:
        problem = alike_problem(rng, 8 if seed < 4 else 10)
        fast = by_levels(problem, procedure, query)
        if 0 < fast.without_mulligan() < 1:
            break
    assert fast._levels is not None
    alike = fast._levels._alike()
    assert max(len(members) for members in alike) > 1  # some classes are alike
    slow = recursion(problem, procedure, query)
    fast_choice, fast_p = fast.return_table(count)
    slow_choice, slow_p = slow.return_table(count)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    assert fast_choice == slow_choice


def typed_alike_problem(rng: random.Random, n_named: int) -> DrawProblem:
    """``n_named`` named classes of one or two cards, about half of them of a type (whose
    test counts them with the type's cards no name reads), most of them alike."""
    width = n_named + 1
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    for i in range(n_named):
        row = [False] * width
        row[i] = True
        row[n_named] = i % 2 == 0
        rows.append(tuple(row))
        sizes.append(rng.choice((1, 2, 2)))
    rows.append(tuple([False] * n_named + [True]))  # the type's unnamed cards
    sizes.append(rng.randint(2, 4))
    rows.append(tuple([False] * width))
    sizes.append(rng.randint(3, 5))
    op = rng.choice((">=", "<=", "="))
    tests = [CountTest(i, op if rng.random() < 0.7 else ">=", 1) for i in range(n_named)]
    tests.append(CountTest(n_named, rng.choice((">=", "<=")), rng.choice((1, 2, 3))))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


@pytest.mark.parametrize("seed", range(6))
def test_typed_return_tables_with_alike_classes_are_the_walks(
    seed: int, levels_at_once: None
) -> None:
    """Types over many alike named classes (alike only within the same group): the typed
    engine's table over hands up to exchange gives the walk's Fraction and kept parts'
    values, going first and second."""
    rng = random.Random(7300 + seed)
    second = seed % 2 == 1
    count = 2 + seed % 2
    procedure = Procedure(
        4, hand_size_second=5, draws_per_turn=2, mulligan=ReturnRule(count), lookahead=True
    )
    query = Query((5 if second else 4) + 2, second=second)
    while True:
        problem = typed_alike_problem(rng, 8)
        fast = by_levels(problem, procedure, query)
        if 0 < fast.without_mulligan() < 1 and fast._levels is not None:
            break
    assert fast._levels.typed
    assert max(len(members) for members in fast._levels._alike()) > 1
    slow = recursion(problem, procedure, query)
    assert fast.return_table(count)[1] == slow.return_table(count)[1]
    assert fast.kept_values == slow.kept_values
