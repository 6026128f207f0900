"""The typed level engine (``deckcheck/draws/exact/typed.py``): types over named cards
(``type:building>=2`` with ``name:Stone Bunker>=1``), a type's count a sum over its classes.

Checked against the labelled-card expectimax on small piles (types bounded from below, from
above, ranges, over named cards with mixed operators, with and without the return mulligan,
going first and second) and against the recursion on 8 and 12 conditions and on many small
random problems (the same Fractions, kept parts' values, return choices and look decisions);
which queries it takes; a state's key found one at a time as in bulk.
"""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES
from test_lookahead_levels import levels_at_once, recursion  # noqa: F401 (the fixture)
from test_lookahead_optimal import Expectimax

from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.named import typed_kinds
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

#: The recursion gives way to the level engines at once, and so does the return walk.
pytestmark = pytest.mark.usefixtures("levels_at_once")


def typed_problem(
    rng: random.Random, n_named: int, n_types: int, most: int, other: int
) -> DrawProblem:
    """``n_named`` named classes of 1 to ``most`` cards, each of one of ``n_types`` types or
    none, most types with cards no name reads; each name and type with a test of any kind
    (``>=``, ``<=``, ``=``, a range); ``other`` cards more."""
    width = n_named + n_types
    rows: list[tuple[bool, ...]] = []
    sizes: list[int] = []
    for i in range(n_named):
        row = [False] * width
        row[i] = True
        kind = rng.randrange(-1, n_types)
        if kind >= 0:
            row[n_named + kind] = True
        rows.append(tuple(row))
        sizes.append(rng.randint(1, most))
    for t in range(n_types):
        if rng.random() < 0.8:
            row = [False] * width
            row[n_named + t] = True
            rows.append(tuple(row))
            sizes.append(rng.randint(1, most + 2))
    rows.append((False,) * width)
    sizes.append(other)
    tests: list[CountTest] = []
    for i in range(n_named):
        op = rng.choice((">=", "<=", "=", "range", ">=2"))
        if op == "range":
            tests += [CountTest(i, ">=", 1), CountTest(i, "<=", 2)]
        elif op == ">=2":
            tests.append(CountTest(i, ">=", 2))
        else:
            tests.append(CountTest(i, op, rng.choice((0, 1, 1, 2)) if op == "<=" else 1))
    for t in range(n_types):
        op = rng.choice((">=", ">=", "<=", "=", "range"))
        least = rng.randint(1, 3)
        if op == "range":
            tests += [CountTest(n_named + t, ">=", 1), CountTest(n_named + t, "<=", least + 1)]
        else:
            tests.append(CountTest(n_named + t, op, least))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


def fits(problem: DrawProblem, opening: int, seen: int, per_turn: int) -> bool:
    """Whether the pile is long enough for ``seen`` cards and the looks after the hand."""
    looks = -(-(seen - opening) // per_turn)
    return seen > opening and seen + looks <= problem.pile_size


@pytest.mark.parametrize("seed", range(10))
def test_small_typed_piles_match_the_labelled_expectimax(seed: int) -> None:
    """Types over named cards (bounded from below, from above, ranges), going first or
    second, one or two draws a turn: the typed level engine against the expectimax over
    labelled cards, with and without the return."""
    rng = random.Random(4242 + seed)
    second = seed % 3 == 2
    while True:
        problem = typed_problem(rng, rng.randint(1, 3), rng.randint(1, 2), 2, 1)
        hand = rng.randint(2, 3)
        per_turn = rng.choice((1, 2))
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(1, 3), problem.pile_size - 2)
        if problem.pile_size <= 9 and fits(problem, opening, seen, per_turn):
            red = reduce_problem(problem)
            if typed_kinds(red) is not None:
                break
    procedure = Procedure(hand, hand_size_second=hand + 1, draws_per_turn=per_turn, lookahead=True)
    query = Query(seen, second=second)
    oracle = Expectimax(problem, procedure, query)
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    assert engine.without_mulligan() == oracle.plain()
    assert engine._levels is not None and engine._levels.typed
    returning = Procedure(
        hand,
        hand_size_second=hand + 1,
        draws_per_turn=per_turn,
        mulligan=ReturnRule(2),
        lookahead=True,
    )
    assert exact_odds(Request(problem, returning, query)).fraction == oracle.returning(2)


@pytest.mark.parametrize(
    ("n_named", "seed", "second"),
    [(6, 0, False), (6, 1, True), (10, 0, False), (10, 1, True)],
)
def test_eight_and_twelve_conditions_match_the_recursion(
    n_named: int, seed: int, second: bool
) -> None:
    """8 and 12 conditions (two types over named cards, mixed operators), the optimal
    look-ahead, with and without the optimal return of two: the same Fraction, the same kept
    parts' values and choices, the same look decisions as the recursion."""
    rng = random.Random(n_named * 91 + seed)
    hand = 3
    seen = (hand + 1 if second else hand) + (4 if n_named < 10 else 3)
    procedure = Procedure(
        hand, hand_size_second=hand + 1, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True
    )
    query = Query(seen, second=second)
    while True:
        problem = typed_problem(rng, n_named, 2, 2, 4)
        if len(problem.conditions) != n_named + 2 or typed_kinds(reduce_problem(problem)) is None:
            continue
        fast = SequentialEngine(problem, procedure, query, (), 10**8)
        if 0 < fast.without_mulligan() < 1:
            break
    slow = recursion(problem, procedure, query)
    assert fast._levels is not None and fast._levels.typed
    assert fast.without_mulligan() == slow.without_mulligan()
    fast_choice, fast_p = fast.return_table(2)
    slow_choice, slow_p = slow.return_table(2)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    assert fast_choice == slow_choice
    sizes = fast.red.sizes
    decided = 0
    for held in list(compositions(sizes, fast.hand))[:15]:
        for top in range(len(sizes)):
            removed = [*held]
            removed[top] += 1
            if removed[top] > sizes[top]:
                continue
            assert fast.keep_top(removed, held, top) == slow.keep_top(removed, held, top)
            decided += 1
    assert decided


def test_random_typed_problems_match_the_recursion() -> None:
    """Small random problems of every shape the typed engine takes: the same Fraction as the
    recursion, with and without the return mulligan (its kept parts' values too)."""
    rng = random.Random(9090)
    checked = 0
    while checked < 24:
        problem = typed_problem(rng, rng.randint(1, 4), rng.randint(1, 2), 3, rng.randint(1, 3))
        hand = rng.randint(2, 3)
        per_turn = rng.choice((1, 2))
        second = rng.random() < 0.3
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(1, 4), problem.pile_size - 3)
        if not fits(problem, opening, seen, per_turn):
            continue
        if typed_kinds(reduce_problem(problem)) is None:
            continue
        matches_the_recursion(problem, hand, per_turn, seen, second)
        checked += 1


def matches_the_recursion(
    problem: DrawProblem, hand: int, per_turn: int, seen: int, second: bool
) -> SequentialEngine:
    """The engine (a level engine's when it takes the query) of ``problem`` with the
    look-ahead and the return of two, checked against the recursion: the same Fraction with
    and without the return, the same kept parts' values."""
    procedure = Procedure(
        hand,
        hand_size_second=hand + 1,
        draws_per_turn=per_turn,
        mulligan=ReturnRule(2),
        lookahead=True,
    )
    query = Query(seen, second=second)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    slow = recursion(problem, procedure, query)
    assert fast.without_mulligan() == slow.without_mulligan()
    assert fast.return_table(2)[1] == slow.return_table(2)[1]
    assert fast.kept_values == slow.kept_values
    return fast


def test_which_queries_the_typed_engine_takes() -> None:
    """Types over named cards, and a class whose tests leave it many (held, left) pairs, are
    groups; a class counting for two types, or alternatives, are left to the recursion."""
    rows = (
        (True, False, True, False),  # a named building
        (False, False, True, False),  # the other buildings
        (False, True, False, True),  # a named warrior
        (False, False, False, True),  # the other warriors
        (False, False, False, False),
    )
    problem = DrawProblem(
        (3, 4, 2, 21, 10),
        rows,
        (CountTest(0, ">=", 1), CountTest(1, "=", 1), CountTest(2, ">=", 2), CountTest(3, "<=", 3)),
    )
    got = typed_kinds(reduce_problem(problem))
    assert got is not None
    classes, groups = got
    assert groups == [(2, None), (0, 3)]
    assert classes == [
        (0, (1, None), 0),
        (-1, (0, None), 0),
        (1, (1, 1), 1),
        (-1, (0, None), 1),
        (-1, (0, None), -1),
    ]
    # A class of 21 counted by `>=2` alone: a group of its own (a count and a pool).
    alone = DrawProblem((21, 5), ((True,), (False,)), (CountTest(0, ">=", 2),))
    assert typed_kinds(reduce_problem(alone)) == (
        [(-1, (0, None), 0), (-1, (0, None), -1)],
        [(2, None)],
    )
    # Named cards of a few copies each: no group, the level engine's.
    named = DrawProblem(
        (3, 2, 5),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 1), CountTest(1, "<=", 1)),
    )
    assert typed_kinds(reduce_problem(named)) is None
    # A card of two types: left to the recursion.
    two = DrawProblem(
        (2, 3, 3, 5),
        ((True, True), (True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 2), CountTest(1, ">=", 2)),
    )
    assert typed_kinds(reduce_problem(two)) is None
    either = DrawProblem(problem.group_sizes, rows, problem.conditions, any_of=((0, 1), (2, 3)))
    assert typed_kinds(reduce_problem(either)) is None


def typed_run(rng: random.Random, n_named: int, pile: int, seen: int) -> SequentialEngine:
    """An engine of a random pile of two types over ``n_named`` named classes, at least
    ``pile`` cards, that the typed engine takes, valued by it (``seen`` cards, a hand of 3,
    a look a turn)."""
    while True:
        problem = typed_problem(rng, n_named, 2, 3, 2)
        if typed_kinds(reduce_problem(problem)) is not None and problem.pile_size >= pile:
            break
    procedure = Procedure(3, draws_per_turn=1, lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(seen), (), 10**8)
    engine.without_mulligan()
    assert engine._levels is not None and engine._levels.typed
    return engine


def test_a_state_found_alone_is_the_one_found_in_bulk() -> None:
    """The key of one state (Python integers) and of many (numpy) agree, lost states
    included, over every hand and part of a pile of types over named cards."""
    from deckcheck.core.numeric import np

    rng = random.Random(5)
    for _ in range(6):
        engine = typed_run(rng, 3, 9, 5)
        levels = engine._levels
        assert levels is not None
        sizes = engine.red.sizes
        held = [h for size in range(5) for h in compositions(sizes, size)]
        left = [
            tuple(s - x - (x < s and i % 2) for i, (s, x) in enumerate(zip(sizes, h, strict=True)))
            for h in held
        ]
        bulk = levels.keys_of(np.array(held).T, np.array(left).T)
        alone = [levels.key_of(h, k) for h, k in zip(held, left, strict=True)]
        assert [-1 if k is None else k for k in alone] == bulk.tolist()


def with_either_or(rng: random.Random, problem: DrawProblem, n_either: int) -> DrawProblem:
    """``problem`` and an either-or of ``n_either`` more named classes, ``>=1`` each (its
    other conditions in every alternative)."""
    width = len(problem.membership[0]) + n_either
    rows = [(*row, *([False] * n_either)) for row in problem.membership]
    sizes = [*problem.group_sizes]
    for i in range(n_either):
        row = [False] * width
        row[width - n_either + i] = True
        rows.insert(0, tuple(row))
        sizes.insert(0, rng.randint(1, 3))
    tests = [*problem.conditions]
    common = tuple(range(len(tests)))
    tests += [CountTest(width - n_either + i, ">=", 1) for i in range(n_either)]
    either = tuple((*common, len(common) + i) for i in range(n_either))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests), any_of=either)


@pytest.mark.parametrize("seed", range(4))
def test_an_either_or_of_named_cards_matches_the_labelled_expectimax(seed: int) -> None:
    """``name:A>=1 | name:B>=1`` beside other conditions is at least one card of A and B: a
    group of the typed engine, the labelled expectimax's chances with and without the
    return."""
    rng = random.Random(616 + seed)
    while True:
        problem = with_either_or(rng, typed_problem(rng, 1, 1, 2, 1), rng.randint(2, 3))
        hand = 2
        per_turn = rng.choice((1, 2))
        seen = min(hand + rng.randint(1, 3), problem.pile_size - 2)
        if (
            problem.pile_size <= 9
            and fits(problem, hand, seen, per_turn)
            and typed_kinds(reduce_problem(problem)) is not None
        ):
            break
    procedure = Procedure(hand, draws_per_turn=per_turn, lookahead=True)
    query = Query(seen)
    oracle = Expectimax(problem, procedure, query)
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    assert engine.without_mulligan() == oracle.plain()
    assert engine._levels is not None and engine._levels.typed
    returning = Procedure(hand, draws_per_turn=per_turn, mulligan=ReturnRule(1), lookahead=True)
    assert exact_odds(Request(problem, returning, query)).fraction == oracle.returning(1)


def test_either_ors_match_the_recursion() -> None:
    """Random either-ors of named cards beside types over named cards: the recursion's
    Fraction, with the return (its kept parts' values too); an either-or of anything but
    ``>=1`` on classes of their own is left to the recursion."""
    rng = random.Random(717)
    checked = 0
    while checked < 8:
        base = typed_problem(rng, rng.randint(1, 3), rng.randint(1, 2), 3, rng.randint(1, 3))
        problem = with_either_or(rng, base, rng.randint(2, 3))
        hand = 3
        seen = min(hand + rng.randint(1, 4), problem.pile_size - 3)
        if not fits(problem, hand, seen, 2) or typed_kinds(reduce_problem(problem)) is None:
            continue
        procedure = Procedure(hand, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
        fast = SequentialEngine(problem, procedure, Query(seen), (), 10**8)
        slow = recursion(problem, procedure, Query(seen))
        assert fast.without_mulligan() == slow.without_mulligan()
        assert fast._levels is not None and fast._levels.typed
        assert fast.return_table(2)[1] == slow.return_table(2)[1]
        assert fast.kept_values == slow.kept_values
        checked += 1
    rows = ((True, False), (False, True), (False, False))
    two = DrawProblem(
        (3, 3, 5), rows, (CountTest(0, ">=", 2), CountTest(1, ">=", 1)), any_of=((0,), (1,))
    )
    assert typed_kinds(reduce_problem(two)) is None
    upper = DrawProblem(
        (3, 3, 5), rows, (CountTest(0, "<=", 1), CountTest(1, ">=", 1)), any_of=((0,), (1,))
    )
    assert typed_kinds(reduce_problem(upper)) is None
    # (A and B) | C: not one card of any of them.
    three = DrawProblem(
        (3, 3, 3, 5),
        ((True, False, False), (False, True, False), (False, False, True), (False,) * 3),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 1), CountTest(2, ">=", 1)),
        any_of=((0, 1), (2,)),
    )
    assert typed_kinds(reduce_problem(three)) is None


def test_the_issues_either_or_question_is_exact() -> None:
    """``name:Trooper>=1 | name:Raider>=1`` and eleven named cards on the 80-card deck at
    turn 6 (the return mulligan and the look-ahead played optimally) is exact, no longer
    simulated: at least one card of either is a group of the typed engine."""
    from deckcheck import api

    names = ["Gold Miner", "Collector of Cosmium", "Deep Drill", "Cosmium Siphon"]
    names += ["Dynamo Rig", "Twin Excavator", "Stone Bunker", "Watchtower", "Mud Hut"]
    names += ["Power Plant", "Field Hospital"]
    deck = str(EXAMPLES / "planetary-conquerors/legal-80.txt")
    conditions = ["name:Trooper>=1 | name:Raider>=1", *(f"name:{n}>=1" for n in names)]
    report = api.odds(deck, conditions, turn=6)
    assert report.exact
    assert 0 < report.probability < 1
