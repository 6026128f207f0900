"""A level that has spent its turn's look, listed with the one that has not
(``deckcheck/draws/exact/levels.py``, ``_home``): the same states, valued for each of the two
the deal reaches (the look's better branch, or the card kept).

Every state of every level listed so, in both of its values, is the recursion's; the
Fractions of random problems (going first and second, with and without the return, one or
two draws a turn, upper bounds, 8 and 12 conditions) are the recursion's with the level
engines off; and the typed engine, which lists its levels the same way, too.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from test_lookahead_levels import by_levels, named_problem, recursion
from test_lookahead_typed import typed_problem

import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import DrawProblem, Procedure, Query, Request, ReturnRule


@pytest.fixture
def levels_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recursion gives way to the level engine at once, and so does the return walk."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)


def value_by_recursion(
    engine: SequentialEngine, held: list[int], removed: list[int], looked: bool
) -> int:
    """The recursion's value of holding ``held`` with ``removed`` gone, the look spent or not."""
    vec = engine.red.cond.of(tuple(held))
    left, vec = engine._canonical(engine._left(removed), vec)
    return engine.value(left, vec, sum(held), looked, sum(removed))


def deals(
    sizes: tuple[int, ...], held_count: int, under: int, rng: random.Random, tries: int
) -> list[tuple[list[int], list[int]]]:
    """Random (held, removed) of ``held_count`` cards held and ``under`` more put under."""
    cards = [c for c, size in enumerate(sizes) for _ in range(size)]
    out = []
    for _ in range(tries):
        picked = rng.sample(cards, held_count + under)
        held = [0] * len(sizes)
        removed = [0] * len(sizes)
        for i, c in enumerate(picked):
            removed[c] += 1
            if i < held_count:
                held[c] += 1
        out.append((held, removed))
    return out


@pytest.mark.parametrize(("seed", "second"), [(0, False), (1, True), (2, False), (3, True)])
def test_both_values_of_a_shared_listing_are_the_recursions(
    seed: int, second: bool, levels_at_once: None
) -> None:
    """At every turn's start (a look to spend) with one to three cards put under: the value
    with the look spent and with it not, of states the level engine listed once for both,
    are the recursion's."""
    rng = random.Random(900 + seed)
    hand = 3
    procedure = Procedure(hand, hand_size_second=hand + 1, draws_per_turn=2, lookahead=True)
    query = Query((hand + 1 if second else hand) + 6, second=second)
    problem = named_problem(rng, 6, 3, 6)
    fast = by_levels(problem, procedure, query)
    slow = recursion(problem, procedure, query)
    assert fast.without_mulligan() == slow.without_mulligan()
    levels = fast._levels
    assert levels is not None
    shared = [
        (held, gone)
        for held, gone, looked in levels.levels
        if looked and levels.levels.get((held, gone, False)) is levels.levels[(held, gone, True)]
    ]
    assert shared  # the deal reaches some levels both ways
    compared = differ = 0
    for held_count, gone in shared:
        for held, removed in deals(levels.sizes, held_count, gone - held_count, rng, 80):
            key = levels.key_of(held, levels_left(levels.sizes, removed))
            if key is None:
                continue
            both = []
            for looked in (False, True):
                got = levels.exact((held_count, gone, looked), key)
                assert got == value_by_recursion(slow, held, removed, looked)
                both.append(got)
            compared += 1
            differ += both[0] > both[1]  # the look is worth something
    assert compared > 40 and differ > 5


def levels_left(sizes: tuple[int, ...], removed: list[int]) -> list[int]:
    """Cards left per class."""
    return [s - r for s, r in zip(sizes, removed, strict=True)]


def returning(hand: int, per_turn: int, count: int | None) -> Procedure:
    """The look-ahead, with the return of ``count`` (None: no mulligan)."""
    rule = None if count is None else ReturnRule(count)
    return Procedure(
        hand, hand_size_second=hand + 1, draws_per_turn=per_turn, mulligan=rule, lookahead=True
    )


@pytest.mark.parametrize("seed", range(10))
def test_random_problems_are_the_recursions(seed: int, levels_at_once: None) -> None:
    """8 or 12 mixed named conditions (upper bounds, ranges), going first or second, one or
    two draws a turn, with and without the return of two: the recursion's Fraction."""
    rng = random.Random(4200 + seed)
    n_named = 12 if seed % 2 else 8
    second = seed % 4 >= 2
    per_turn = 1 + seed % 3 // 2 if seed < 6 else 2
    count = 2 if seed % 3 else None
    hand = 3
    seen = (hand + 1 if second else hand) + 4
    query = Query(seen, second=second)
    procedure = returning(hand, per_turn, count)
    while True:
        problem = named_problem(rng, n_named, 2, 5)
        fast = by_levels(problem, procedure, query)
        plain = fast.without_mulligan()
        if 0 < plain < 1:
            break
    assert fast._levels is not None
    slow = recursion(problem, procedure, query)
    assert plain == slow.without_mulligan()
    if count is not None:
        assert fast.return_table(count)[1] == slow.return_table(count)[1]
        assert fast.kept_values == slow.kept_values


@pytest.mark.parametrize("seed", range(6))
def test_typed_random_problems_are_the_recursions(seed: int, levels_at_once: None) -> None:
    """Types over named cards (the typed engine lists its levels the same way), going first
    or second, with and without the return: the recursion's Fraction."""
    rng = random.Random(5300 + seed)
    second = seed % 2 == 1
    count = 2 if seed >= 3 else None
    procedure = returning(3, 2, count)
    query = Query((4 if second else 3) + 4, second=second)
    problem: DrawProblem = typed_problem(rng, 4, 2, 3, 5)
    expected = exact_odds(Request(problem, procedure, query)).fraction
    slow = recursion(problem, procedure, query)
    want = slow.return_table(count)[1] if count is not None else slow.without_mulligan()
    assert expected == want
    assert isinstance(expected, Fraction)
