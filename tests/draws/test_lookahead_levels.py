"""The level engine (``deckcheck/draws/exact/levels.py``): the optimal look-ahead on named
cards valued a level of states at a time, exact by residues, and the return mulligan's table
from its levels (every hand at once, a kept part's value its state's in the level holding it).

Checked against the labelled-card expectimax on small piles (mixed ``>=``, ``<=``, ``=``,
ranges, with and without the return mulligan, going first and second) and against the
recursion on 8 and 12 conditions (the same Fractions, the same kept parts' values and return
choices, the same look decisions); its fallbacks (a look its floats cannot decide, a query it
does not take) go on with the recursion, and its work is counted against the budget.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from typing import Any

import pytest
from test_lookahead_optimal import Expectimax

import deckcheck.draws.exact.levels as levels_module
import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.answer import Intractable, Reach
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule


def named_problem(rng: random.Random, n_named: int, most_copies: int, other: int) -> DrawProblem:
    """``n_named`` named classes of 1 to ``most_copies`` cards, each with ``>=1``, ``<=1``
    (or ``<=0``, ``<=2``), ``=1`` or the range ``>=1`` and ``<=2``; ``other`` cards more."""
    sizes = [rng.randint(1, most_copies) for _ in range(n_named)] + [other]
    rows = [tuple(s == i for s in range(n_named)) for i in range(n_named)]
    rows.append((False,) * n_named)
    tests = []
    for i in range(n_named):
        op = rng.choice((">=", "<=", "=", "range"))
        if op == "range":
            tests += [CountTest(i, ">=", 1), CountTest(i, "<=", 2)]
        else:
            tests.append(CountTest(i, op, rng.choice((0, 1, 1, 2)) if op == "<=" else 1))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


@pytest.fixture
def levels_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recursion gives way to the level engine at once, and so does the return table's
    walk."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)


def recursion(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """The engine that never gives way to the level engine."""
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    engine.use_levels = False
    return engine


#: The recursion per question of :func:`test_eight_and_twelve_conditions_match_the_recursion`,
#: which ``test_lookahead_levels_fast`` asks again for each way of weighing the level engine's
#: moves: the recursion takes none of them (nor the level engine's settings), so its answers
#: are worked out once.
_RECURSIONS: dict[tuple[DrawProblem, Procedure, Query], SequentialEngine] = {}


def shared_recursion(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """:func:`recursion`, one engine per question (see :data:`_RECURSIONS`)."""
    key = (problem, procedure, query)
    if key not in _RECURSIONS:
        _RECURSIONS[key] = recursion(problem, procedure, query)
    return _RECURSIONS[key]


def by_levels(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """The engine that gives way to the level engine at once (with :func:`levels_at_once`)."""
    return SequentialEngine(problem, procedure, query, (), 10**8)


@pytest.mark.parametrize("seed", range(12))
def test_small_named_piles_match_the_labelled_expectimax(seed: int, levels_at_once: None) -> None:
    """Mixed operators and ranges on named cards, going first or second, one or two draws a
    turn: the level engine against the expectimax over labelled cards, with and without the
    return."""
    rng = random.Random(7070 + seed)
    second = seed % 3 == 2
    while True:
        problem = named_problem(rng, rng.randint(2, 4), 3, rng.randint(1, 2))
        hand = rng.randint(2, 3)
        per_turn = rng.choice((1, 2))
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(1, 3), problem.pile_size - 3)
        if problem.pile_size <= 9 and seen > opening:
            break
    procedure = Procedure(hand, hand_size_second=hand + 1, draws_per_turn=per_turn, lookahead=True)
    query = Query(seen, second=second)
    oracle = Expectimax(problem, procedure, query)
    engine = by_levels(problem, procedure, query)
    assert engine.without_mulligan() == oracle.plain()
    assert engine._levels is not None
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
    [(8, 0, False), (8, 1, True), (12, 0, False), (12, 1, True)],
)
def test_eight_and_twelve_conditions_match_the_recursion(
    n_named: int, seed: int, second: bool, levels_at_once: None
) -> None:
    """8 and 12 mixed conditions on named cards, the optimal look-ahead, with and without the
    optimal return of two: the same Fraction, the same kept parts' values and choices, the
    same look decisions as the recursion."""
    rng = random.Random(n_named * 77 + seed)
    hand = 3
    seen = (hand + 1 if second else hand) + 4
    procedure = Procedure(
        hand, hand_size_second=hand + 1, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True
    )
    query = Query(seen, second=second)
    twelve = n_named == 12
    while True:
        problem = named_problem(rng, n_named, 2 if twelve else 3, 5 if twelve else 6)
        fast = by_levels(problem, procedure, query)
        if 0 < fast.without_mulligan() < 1:
            break
    slow = shared_recursion(problem, procedure, query)
    assert fast._levels is not None
    assert fast.without_mulligan() == slow.without_mulligan()
    assert slow._levels is None
    fast_choice, fast_p = fast.return_table(2)
    slow_choice, slow_p = slow.return_table(2)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    assert fast_choice == slow_choice
    # The look decisions, from a few states after the hand: the same as the recursion's.
    sizes = fast.red.sizes
    hand_size = fast.hand
    decided = 0
    for held in list(compositions(sizes, hand_size))[:20]:
        for top in range(len(sizes)):
            removed = [*held]
            removed[top] += 1
            if removed[top] > sizes[top]:
                continue
            assert fast.keep_top(removed, held, top) == slow.keep_top(removed, held, top)
            decided += 1
    assert decided


def test_a_look_too_close_for_the_floats_goes_on_with_the_recursion(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """Every look's branches taken as too close to tell by floats: where their residues
    differ the level engine gives up, and the recursion answers (the same Fraction)."""
    monkeypatch.setattr(levels_module, "_CLOSE", 2.0)
    rng = random.Random(5)
    problem = named_problem(rng, 6, 3, 8)
    procedure = Procedure(3, draws_per_turn=2, lookahead=True)
    query = Query(9)
    engine = by_levels(problem, procedure, query)
    got = engine.without_mulligan()
    assert engine._levels is None
    monkeypatch.undo()
    assert got == recursion(problem, procedure, query).without_mulligan()


def test_ties_decided_by_residues_stay_exact(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """A query whose looks tie exactly (the same value kept or put under): residues equal,
    the level engine goes on and gives the recursion's Fraction."""
    monkeypatch.setattr(levels_module, "_CLOSE", 2.0)
    # Only an upper bound on a card none of which can come twice: every look ties.
    problem = DrawProblem((1, 6), ((True,), (False,)), (CountTest(0, "<=", 1),))
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    query = Query(5)
    engine = by_levels(problem, procedure, query)
    assert engine.without_mulligan() == Fraction(1)
    problem = DrawProblem((2, 6), ((True,), (False,)), (CountTest(0, ">=", 3),))
    engine = by_levels(problem, procedure, query)
    assert engine.without_mulligan() == Fraction(0)


def test_a_type_over_named_cards_stays_with_the_recursion(levels_at_once: None) -> None:
    """A selector counting two classes (a type) is not a query the level engine takes."""
    problem = DrawProblem(
        (2, 3, 6),
        ((True, True, False), (False, True, True), (False, False, False)),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 2), CountTest(2, "<=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    engine = by_levels(problem, procedure, Query(6))
    got = engine.without_mulligan()
    assert engine._levels is None
    assert 0 < got < 1


def test_the_level_engine_counts_its_work_against_the_budget(levels_at_once: None) -> None:
    """Past the budget the level engine is refused like the recursion: the work limit."""
    rng = random.Random(3)
    problem = named_problem(rng, 8, 3, 10)
    procedure = Procedure(3, draws_per_turn=2, lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(10), (), 50)
    with pytest.raises(Intractable) as refused:
        engine.without_mulligan()
    assert refused.value.reason.reach is Reach.WORK
    assert engine.work > 50


def test_a_return_too_close_for_the_floats_is_walked(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """Every hand's keep and return taken as too close to tell by floats (the looks valued
    as usual): where the residues differ the level engine's table gives up and the walk
    answers, the same Fraction."""
    rng = random.Random(11)
    problem = named_problem(rng, 5, 3, 8)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    query = Query(8)
    slow = recursion(problem, procedure, query).return_table(2)[1]
    walked: list[bool] = []
    real = SequentialEngine._hand_value

    def counted(engine: SequentialEngine, *args: Any) -> int:
        walked.append(True)
        return real(engine, *args)

    monkeypatch.setattr(SequentialEngine, "_hand_value", counted)
    fast = by_levels(problem, procedure, query)
    fast.without_mulligan()
    assert fast.return_table(2)[1] == slow
    assert fast._levels is not None and not walked  # every hand at once
    close = by_levels(problem, procedure, query)
    close.without_mulligan()
    monkeypatch.setattr(levels_module, "_CLOSE", 2.0)
    assert close.return_table(2)[1] == slow
    assert walked


def test_tests_no_count_passes_lose_at_once(levels_at_once: None) -> None:
    """``name:A>=2`` with ``name:A<=1`` (and another name to hold): no count of A passes, the
    query is lost whatever is dealt, as the recursion finds."""
    problem = DrawProblem(
        (3, 2, 6),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 2), CountTest(0, "<=", 1), CountTest(1, ">=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, mulligan=ReturnRule(1), lookahead=True)
    query = Query(6)
    engine = by_levels(problem, procedure, query)
    assert engine.without_mulligan() == 0 == recursion(problem, procedure, query).without_mulligan()
    assert engine._levels is not None
    assert engine.return_table(1)[1] == 0


def test_without_numpy_the_recursion_answers_alone(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """Where numpy cannot be had, the recursion and the walked return table answer (the same
    Fraction), and the return's estimate is the walk's."""
    rng = random.Random(8)
    problem = named_problem(rng, 5, 3, 8)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    query = Query(8)
    with_numpy = by_levels(problem, procedure, query)
    expected = with_numpy.return_table(2)[1]
    at_once = with_numpy.return_work(2)
    monkeypatch.setitem(sys.modules, "numpy", None)
    engine = by_levels(problem, procedure, query)
    assert engine.return_work(2) == engine._return_walk(2) > at_once
    assert engine.return_table(2)[1] == expected
    assert engine._levels is None


def test_a_state_reached_only_through_won_ones_is_won(levels_at_once: None) -> None:
    """A won state is not gone on from, so a hand reached only through won states is not in
    its level (here every deal is won at once): asked for, it is worth the whole scale."""
    problem = DrawProblem((2, 10), ((True,), (False,)), (CountTest(0, ">=", 0),))
    procedure = Procedure(1, draws_per_turn=1, mulligan=ReturnRule(1), lookahead=True)
    fast = by_levels(problem, procedure, Query(3))
    slow = recursion(problem, procedure, Query(3))
    assert fast.without_mulligan() == slow.without_mulligan() == 1
    assert fast._levels is not None
    for hand in ((1, 0), (0, 1)):
        assert fast.hand_value(hand) == slow.hand_value(hand) > 0
    assert fast.keep_top((1, 1), (1, 0), 1) == slow.keep_top((1, 1), (1, 0), 1)
