"""The look-ahead engine on upper bounds and mixed queries (issue 42): four exact shortcuts.

- A kept card that leaves the query lost by its counts alone (an upper bound broken, or too
  few cards left to draw for what is still needed) is valued 0 without a state of its own.
- A class bounded from above that no more of its cards can break (``name:X<=1`` with one card
  left, or with one held and none left; ``name:X=1`` met with none left) is *frozen*: its
  cards join the inert pool and its count is the least passing, and the state shares the
  value of that form.
- Live classes whose cards now move the same counts (a named card of a type, its name held,
  and the type's other cards) are one class: only how many cards they have left matters.
- A query settled before any card is dealt (no ``seen`` cards of the deck can hold it, or all
  can) skips the return mulligan's table: no play changes it.

Each is checked against the labelled-card expectimax on small piles and against the engine
with the shortcuts switched off on 8 and 12 conditions (mixed operators, a type over named
cards, with and without the return mulligan, going second too).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_lookahead_frontier import plain_engine
from test_lookahead_optimal import Expectimax

from deckcheck import api
from deckcheck.draws.exact.guide import return_guide
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

REPO = Path(__file__).resolve().parents[2]
PC80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")


def mixed_problem(
    rng: random.Random, n_named: int, most_copies: int, other: int, typed: bool
) -> DrawProblem:
    """``n_named`` named classes of 1 to ``most_copies`` cards with ``>=1``, ``<=1`` (or
    ``<=0``, ``<=2``) and ``=1`` tests, upper bounds most often, now and then the range
    ``>=1`` and ``<=2`` on the first; ``typed``: a type over the first half of them and two
    cards no name counts, with ``>=2`` or ``<=2``; ``other`` cards more."""
    n_sel = n_named + typed
    half = max(2, n_named // 2)
    sizes = [rng.randint(1, most_copies) for _ in range(n_named)]
    rows = [
        tuple(s == i or (typed and s == n_named and i < half) for s in range(n_sel))
        for i in range(n_named)
    ]
    if typed:
        # Cards of the type no name counts: a named card of it held is one more of these.
        sizes.append(2)
        rows.append(tuple(s == n_named for s in range(n_sel)))
    sizes.append(other)
    rows.append(tuple(False for _ in range(n_sel)))
    tests = []
    for i in range(n_named):
        op = rng.choice(("<=", "<=", "=", ">="))
        tests.append(CountTest(i, op, rng.choice((0, 1, 1, 2)) if op == "<=" else 1))
    if rng.random() < 0.5:
        # A range on one name: frozen at its least passing count, 1, not at 0.
        tests[0] = CountTest(0, ">=", 1)
        tests.append(CountTest(0, "<=", 2))
    if typed:
        tests.append(CountTest(n_named, rng.choice((">=", "<=")), 2))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests))


def bare_engine(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """The engine with this file's four shortcuts switched off (the sharing kept)."""
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    engine._freezable = ()
    engine._same_moves = lambda vec: ()  # type: ignore[method-assign]
    engine._need = lambda vec: 0  # type: ignore[method-assign]
    engine.settled_at_start = lambda: None  # type: ignore[method-assign]
    return engine


def frozen_count(engine: SequentialEngine) -> list[int]:
    """Counts the states :meth:`SequentialEngine._frozen` made inert (one entry each)."""
    seen: list[int] = []
    real = engine._frozen

    def counted(*args: object) -> object:
        got = real(*args)  # type: ignore[arg-type]
        if got is not None:
            seen.append(1)
        return got

    engine._frozen = counted  # type: ignore[assignment, method-assign]
    return seen


@pytest.mark.parametrize("seed", range(14))
def test_small_mixed_piles_match_the_labelled_expectimax(seed: int) -> None:
    """Mixed operators, now and then a type over named cards, going first or second: the
    engine against the expectimax over labelled cards, with and without the return."""
    rng = random.Random(5150 + seed)
    second = seed % 3 == 2
    while True:
        problem = mixed_problem(rng, rng.randint(2, 4), 3, rng.randint(1, 2), seed % 2 == 1)
        hand = rng.randint(2, 3)
        per_turn = rng.choice((1, 2))
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(1, 3), problem.pile_size - 3)
        if problem.pile_size <= 9 and seen > opening:
            break
    procedure = Procedure(hand, hand_size_second=hand + 1, draws_per_turn=per_turn, lookahead=True)
    query = Query(seen, second=second)
    oracle = Expectimax(problem, procedure, query)
    assert exact_odds(Request(problem, procedure, query)).fraction == oracle.plain()
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
def test_eight_and_twelve_mixed_conditions_match_the_engine_without_the_shortcuts(
    n_named: int, seed: int, second: bool
) -> None:
    """8 and 12 mixed conditions (a type over half of the named cards now and then), the
    optimal look-ahead, with and without the optimal return of two: the same Fraction, the
    same kept parts' values and choices as the engine without the shortcuts and as the engine
    without any sharing; some states frozen, fewer calls."""
    rng = random.Random(n_named * 1000 + seed)
    hand = 3
    seen = (hand + 1 if second else hand) + 3
    procedure = Procedure(
        hand, hand_size_second=hand + 1, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True
    )
    query = Query(seen, second=second)
    while True:
        twelve = n_named == 12
        problem = mixed_problem(rng, n_named, 2 if twelve else 3, 4 if twelve else 5, seed != 1)
        fast = SequentialEngine(problem, procedure, query, (), 10**8)
        frozen = frozen_count(fast)
        if 0 < fast.without_mulligan() < 1 and frozen:
            break
    bare = bare_engine(problem, procedure, query)
    plain = plain_engine(problem, procedure, query)
    assert fast.without_mulligan() == bare.without_mulligan() == plain.without_mulligan()
    assert fast.work < bare.work
    fast_choice, fast_p = fast.return_table(2)
    bare_choice, bare_p = bare.return_table(2)
    assert fast_p == bare_p == plain.return_table(2)[1]
    assert fast.kept_values == bare.kept_values == plain.kept_values
    assert fast_choice == bare_choice


def test_a_class_that_can_no_longer_break_its_bound_is_frozen() -> None:
    """``name:A<=1`` (three cards), ``name:B=1`` (two) and ``name:C>=1`` (two): A with one
    card left, or with one held and none left, is frozen (its count the least passing, 0, its
    cards inert); with two left and two or more cards to draw it is not; B held once with
    none left is already in its frozen form. The value is the same either way."""
    problem = DrawProblem(
        (3, 2, 2, 5),
        ((True, False, False), (False, True, False), (False, False, True), (False,) * 3),
        (CountTest(0, "<=", 1), CountTest(1, "=", 1), CountTest(2, ">=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    query = Query(7)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    bare = bare_engine(problem, procedure, query)
    cond = fast.red.cond
    zero = cond.zero
    a_held = cond.bump(zero, 0, 1)
    # The other cards (the last class) are inert: the canonical form clears them.
    assert fast._frozen((1, 2, 2, 0), zero, 3) == ((0, 2, 2, 0), zero)
    assert fast._frozen((0, 2, 2, 0), a_held, 3) == ((0, 2, 2, 0), zero)
    assert fast._frozen((2, 2, 2, 0), zero, 3) is None  # two more A could break it
    assert fast._frozen((2, 2, 2, 0), zero, 6) == ((0, 2, 2, 0), zero)  # one card to draw
    b_met = cond.bump(zero, 1, 1)
    assert fast._frozen((2, 0, 2, 0), b_met, 3) is None
    for left, vec, held, gone in [((1, 2, 2, 0), zero, 3, 4), ((0, 1, 2, 0), a_held, 3, 4)]:
        for looked in (False, True):
            assert fast.value(left, vec, held, looked, gone) == bare.value(
                left, vec, held, looked, gone
            )
    plain = plain_engine(problem, procedure, query)
    assert fast.without_mulligan() == bare.without_mulligan() == plain.without_mulligan()


def test_a_card_that_leaves_the_query_lost_makes_no_state() -> None:
    """``name:A<=0`` and ``name:B>=1``, ``name:C>=1``: keeping an A, or keeping anything but
    B or C with two needed and two cards to draw, loses; those children are valued 0 without
    a state of their own, and the answer is the engine's without the shortcut."""
    problem = DrawProblem(
        (2, 2, 2, 4),
        ((True, False, False), (False, True, False), (False, False, True), (False,) * 3),
        (CountTest(0, "<=", 0), CountTest(1, ">=", 1), CountTest(2, ">=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, mulligan=ReturnRule(1), lookahead=True)
    query = Query(6)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    bare = bare_engine(problem, procedure, query)
    zero = fast.red.cond.zero
    assert fast._need(fast.red.cond.bump(zero, 0, 1)) > query.seen  # an A breaks it
    assert fast._need(zero) == 2
    assert fast.without_mulligan() == bare.without_mulligan()
    # Dealt card by card, no state the engine keeps is lost by its counts.
    assert all(fast._decided(vec, held) is not False for _, vec, held, _, _ in fast.memo)
    assert any(bare._decided(vec, held) is False for _, vec, held, _, _ in bare.memo)
    assert len(fast.memo) < len(bare.memo)
    assert fast.return_table(1)[1] == bare.return_table(1)[1]


@pytest.mark.parametrize("holds", [False, True])
def test_a_query_settled_before_the_deal_skips_the_return_table(holds: bool) -> None:
    """Four cards needed (two A, a B, a C) from three cards seen (never), or at most three
    of a class of three (always): every hand keeps, the answer is 0 or 1 at once, and the
    mulligan guide reads the same table as from the engine that walks it."""
    rows = ((True, False, False), (False, True, False), (False, False, True), (False,) * 3)
    tests = (
        (CountTest(0, "<=", 3),)
        if holds
        else (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, ">=", 1))
    )
    problem = DrawProblem((3, 2, 2, 4), rows, tests)
    procedure = Procedure(2, draws_per_turn=1, mulligan=ReturnRule(1), lookahead=True)
    query = Query(3)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    bare = bare_engine(problem, procedure, query)
    assert fast.settled_at_start() is holds
    assert fast.return_work(1) == 0 < bare.return_work(1)
    choice, p = fast.return_table(1)
    assert p == int(holds) == bare.return_table(1)[1]
    assert fast.work == 0
    assert dict(fast.kept_values) == bare.kept_values
    assert all(choice[hand] is None for hand in choice)
    request = Request(problem, procedure, query)
    walked = SequentialEngine.settled_at_start
    try:
        at_once = return_guide(request)
        SequentialEngine.settled_at_start = lambda self: None  # type: ignore[method-assign]
        assert return_guide(request) == at_once
    finally:
        SequentialEngine.settled_at_start = walked  # type: ignore[method-assign]


def test_the_type_mix_no_deal_can_hold_is_exact_at_once() -> None:
    """``type:warrior>=2 type:building>=2`` and ten named cards on legal-80 at turn 4 (eleven
    cards seen): exact 0, with the return-3 mulligan played optimally, without its table."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    setup, _ = categorized(open_deck(PC80, make_context((), None, None)), [])
    names = list(dict.fromkeys(card.name for card, _ in setup.pile))[:10]
    conditions = ["type:warrior>=2", "type:building>=2", *(f"name:{n}>=1" for n in names)]
    report = api.odds(PC80, conditions, turn=4)
    assert report.exact and report.probability == 0
    assert report.mulligan == "rules"


def test_a_named_card_of_a_type_held_is_one_more_card_of_the_type() -> None:
    """``type:T>=2`` over named A and B (``>=1`` each) and two cards only T counts: with an
    A held, A's cards left move only T, as the others do, so they are one class (the
    others', outside every family); with nothing held they are not. The value is the same."""
    rows = ((True, True, False), (True, False, True), (True, False, False), (False,) * 3)
    problem = DrawProblem(
        (3, 3, 2, 4),
        rows,
        (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, ">=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, mulligan=ReturnRule(1), lookahead=True)
    query = Query(6)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    bare = bare_engine(problem, procedure, query)
    cond = fast.red.cond
    zero = cond.zero
    a_held = cond.bump(zero, 0, 1)
    assert fast._same_moves(zero) == ()
    assert fast._same_moves(a_held) == ((2, (0, 2)),)
    # The family A, B sorted: B's (none held, three left) comes first.
    form = fast._canonical((2, 3, 2, 0), a_held)
    assert form[0] == (3, 0, 4, 0)
    assert fast._canonical((1, 3, 3, 0), a_held) == form  # one T put under, one A less
    assert bare._canonical((1, 3, 3, 0), a_held) != bare._canonical((2, 3, 2, 0), a_held)
    plain = plain_engine(problem, procedure, query)
    assert fast.without_mulligan() == bare.without_mulligan() == plain.without_mulligan()
    assert fast.return_table(1)[1] == bare.return_table(1)[1] == plain.return_table(1)[1]
    assert len(fast.memo) < len(bare.memo)
