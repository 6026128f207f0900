"""The typed level engine with a type its named classes' leasts imply: ``type:building>=2``
beside ``name:Stone Bunker>=1`` and ``name:Mud Hut=1`` (both buildings) holds in every hand
that passes the names' tests, so the type tells no hands apart. Such a type is left out from
the start, or settled as soon as its count plus its named classes' shortfalls reaches its
least. Checked against the labelled-card expectimax and the recursion (the same Fractions,
with and without the return mulligan, going first and second, types bounded from above too).
"""

from __future__ import annotations

import random

import pytest
from test_lookahead_levels import levels_at_once, recursion  # noqa: F401 (the fixture)
from test_lookahead_optimal import Expectimax
from test_lookahead_typed import matches_the_recursion

from deckcheck.draws.exact.named import typed_kinds
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

pytestmark = pytest.mark.usefixtures("levels_at_once")


def implied_problem(rng: random.Random, n_named: int, most: int, other: int) -> DrawProblem:
    """``n_named`` named classes, most of them of one type (position ``n_named``) and needing
    a card or two, the type's cards no name reads, ``other`` cards more; the type's least
    about what its named classes need (above, at or below it), sometimes with a most."""
    width = n_named + 1
    rows: list[tuple[bool, ...]] = []
    sizes: list[int] = []
    tests: list[CountTest] = []
    for i in range(n_named):
        row = [False] * width
        row[i] = True
        row[n_named] = rng.random() < 0.85
        rows.append(tuple(row))
        sizes.append(rng.randint(1, most))
        op = rng.choice((">=1", ">=1", ">=2", "=1", "<=1", "range"))
        if op == "range":
            tests += [CountTest(i, ">=", 1), CountTest(i, "<=", 2)]
        else:
            tests.append(CountTest(i, op[:-1], int(op[-1])))
    if rng.random() < 0.8:
        row = [False] * width
        row[n_named] = True
        rows.append(tuple(row))
        sizes.append(rng.randint(1, most + 1))
    rows.append((False,) * width)
    sizes.append(other)
    least = rng.randint(1, n_named + 1)
    if rng.random() < 0.3:
        tests += [CountTest(n_named, ">=", least), CountTest(n_named, "<=", least + 2)]
    else:
        tests.append(CountTest(n_named, ">=", least))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


def groups_left(engine: SequentialEngine) -> tuple[int, int]:
    """(the query's groups, the groups the typed engine kept)."""
    kinds = typed_kinds(engine.red)
    assert kinds is not None and engine._levels is not None and engine._levels.typed
    return len(kinds[1]), len(engine._levels.groups)  # type: ignore[attr-defined]


def test_a_type_its_names_imply_is_left_out() -> None:
    """``type:building>=2`` over ``name:A>=1`` and ``name:B=1`` (two buildings): the typed
    engine keeps no group, and its answer is the recursion's; one building short of that
    (``type:building>=3``) the group is kept and settled on the way, the same Fraction."""
    rows = (
        (True, False, False, True),
        (False, True, False, True),
        (False, False, False, True),
        (False, False, True, False),
        (False, False, False, False),
    )
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    for least, kept in ((2, 0), (3, 1)):
        tests = (
            CountTest(0, ">=", 1),
            CountTest(1, "=", 1),
            CountTest(2, "<=", 1),
            CountTest(3, ">=", least),
        )
        problem = DrawProblem((3, 2, 3, 3, 5), rows, tests)
        query = Query(8)
        fast = SequentialEngine(problem, procedure, query, (), 10**8)
        slow = recursion(problem, procedure, query)
        assert fast.without_mulligan() == slow.without_mulligan()
        assert groups_left(fast) == (1, kept)
        assert fast.return_table(2)[1] == slow.return_table(2)[1]
        assert fast.kept_values == slow.kept_values


@pytest.mark.parametrize("seed", range(4))
def test_implied_types_match_the_labelled_expectimax(seed: int) -> None:
    """Small piles: the typed engine against the expectimax over labelled cards, with and
    without the return, going first or second."""
    rng = random.Random(4300 + seed)
    second = seed % 2 == 1
    while True:
        problem = implied_problem(rng, rng.randint(2, 3), 2, 1)
        hand = 2
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(2, 3), problem.pile_size - 3)
        if (
            problem.pile_size <= 9
            and seen > opening
            and typed_kinds(reduce_problem(problem)) is not None
        ):
            break
    procedure = Procedure(hand, hand_size_second=hand + 1, draws_per_turn=2, lookahead=True)
    query = Query(seen, second=second)
    oracle = Expectimax(problem, procedure, query)
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    assert engine.without_mulligan() == oracle.plain()
    groups_left(engine)
    returning = Procedure(
        hand,
        hand_size_second=hand + 1,
        draws_per_turn=2,
        mulligan=ReturnRule(1),
        lookahead=True,
    )
    assert exact_odds(Request(problem, returning, query)).fraction == oracle.returning(1)


def test_random_implied_types_match_the_recursion() -> None:
    """Random types over named cards whose leasts are about the type's: the recursion's
    Fraction with and without the return (its kept parts' values too); both the groups left
    out from the start and those kept are among them."""
    rng = random.Random(4242)
    checked = 0
    left_out = kept = 0
    while checked < 14:
        problem = implied_problem(rng, rng.randint(2, 4), 3, rng.randint(1, 3))
        hand = rng.randint(2, 3)
        second = rng.random() < 0.3
        opening = hand + 1 if second else hand
        per_turn = rng.choice((1, 2))
        seen = min(opening + rng.randint(2, 4), problem.pile_size - 4)
        if seen <= opening or typed_kinds(reduce_problem(problem)) is None:
            continue
        fast = matches_the_recursion(problem, hand, per_turn, seen, second)
        asked, used = groups_left(fast)
        left_out += used < asked
        kept += used == asked
        checked += 1
    assert left_out and kept
