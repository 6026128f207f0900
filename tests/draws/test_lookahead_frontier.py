"""The look-ahead engine at the frontier (issue 42): what keeps twelve conditions in reach.

Three things make the engine's states fewer, and each must leave every answer the same
Fraction: a state is settled by what the pile still holds (a count grows by no more than the
cards left that count for it; tests no card shares need their shortfalls drawn one card
each); states count cards *left* per class, so classes alike but for their size share states
(a class of five with one put under is a class of four); and the return table values one
kept part and one hand per exchange of classes alike. Checked against the labelled-card
expectimax on small piles, and against the engine with the three switched off on piles of
8 and 12 named classes (with and without the return mulligan, mixed tests, either-or
queries).
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from test_exact_alike import NAMES
from test_lookahead_optimal import Expectimax

from deckcheck import api
from deckcheck.analysis.odds import OddsOptions, bind, cards_seen
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.answer import Intractable
from deckcheck.draws.exact.compositions import compositions, count_up_to_exchange, ways
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.reduced import orbits, reduce_problem
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

REPO = Path(__file__).resolve().parents[2]
PC50 = str(REPO / "examples/planetary-conquerors/legal-50.txt")


def named_problem(
    rng: random.Random,
    n_named: int,
    most_copies: int,
    other: int,
    any_of: bool,
    ops: tuple[str, ...] = (">=", ">=", ">=", "<=", "="),
) -> DrawProblem:
    """``n_named`` named classes of 1 to ``most_copies`` cards (sizes differ, so families span
    sizes), now and then a shared selector over the first three, ``other`` cards more; tests
    drawn from ``ops`` (threshold 1, or 0 to 1 for ``<=``); ``any_of``: two or three
    alternatives over the tests."""
    shared = rng.random() < 0.4
    n_sel = n_named + shared
    sizes = [rng.randint(1, most_copies) for _ in range(n_named)] + [other]
    rows = [
        tuple(s == i or (shared and s == n_named and i < 3) for s in range(n_sel))
        for i in range(n_named)
    ]
    rows.append(tuple(False for _ in range(n_sel)))
    tests = []
    for i in range(n_named):
        op = rng.choice(ops)
        tests.append(CountTest(i, op, 1 if op != "<=" else rng.randint(0, 1)))
    if shared:
        tests.append(CountTest(n_named, rng.choice((">=", "<=")), 2))
    alts: tuple[tuple[int, ...], ...] = ()
    if any_of:
        picked: set[tuple[int, ...]] = set()
        while len(picked) < rng.randint(2, 3):
            k = rng.randint(1, min(4, len(tests)))
            picked.add(tuple(sorted(rng.sample(range(len(tests)), k))))
        alts = tuple(sorted(picked))
    return DrawProblem(tuple(sizes), tuple(rows), tuple(tests), (), alts)


def plain_engine(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """The engine with the settling by the pile, the sharing and the exchanges switched off."""
    engine = SequentialEngine(problem, procedure, query, (), 10**8)
    engine.orbits = ()
    engine._deck_settled = lambda left, vec, held: None  # type: ignore[method-assign]
    return engine


@pytest.mark.parametrize("seed", range(16))
def test_small_named_piles_match_the_labelled_expectimax(seed: int) -> None:
    """Classes of different sizes alike by their tests, mixed tests, either-or now and then:
    the engine against the expectimax over labelled cards, with and without the return."""
    rng = random.Random(4242 + seed)
    while True:
        problem = named_problem(rng, rng.randint(2, 4), 3, rng.randint(1, 2), seed % 4 == 3)
        hand = rng.randint(2, 3)
        per_turn = rng.choice((1, 2))
        seen = min(hand + rng.randint(1, 3), problem.pile_size - 3)
        if problem.pile_size <= 9 and seen > hand:
            break
    procedure = Procedure(hand, draws_per_turn=per_turn, lookahead=True)
    query = Query(seen)
    oracle = Expectimax(problem, procedure, query)
    assert exact_odds(Request(problem, procedure, query)).fraction == oracle.plain()
    returning = Procedure(hand, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True)
    assert exact_odds(Request(problem, returning, query)).fraction == oracle.returning(2)


@pytest.mark.parametrize(("n_named", "seed"), [(8, 0), (8, 3), (12, 0), (12, 3)])
def test_eight_and_twelve_named_classes_match_the_engine_without_its_shortcuts(
    n_named: int, seed: int
) -> None:
    """8 and 12 conditions on named classes of one to three cards among others, the optimal
    look-ahead, with and without the optimal return of two: one Fraction either way."""
    rng = random.Random(n_named * 100 + seed)
    twelve = n_named == 12
    hand = 3
    seen = hand + (2 if twelve else 3)
    # Twelve tests on five cards seen: mostly upper bounds, so that some deals succeed.
    ops = (">=", "<=", "<=", "=") if twelve else (">=", ">=", ">=", "<=", "=")
    while True:
        problem = named_problem(
            rng, n_named, 2 if twelve else 3, 4 if twelve else 6, seed == 3, ops
        )
        lower = sum(t.op.least(t.threshold) for t in problem.conditions[:n_named])
        if lower > seen - 1:
            continue
        procedure = Procedure(hand, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
        query = Query(seen)
        fast = SequentialEngine(problem, procedure, query, (), 10**8)
        if 0 < fast.without_mulligan() < 1:
            break
    slow = plain_engine(problem, procedure, query)
    assert fast.families or not fast.orbits
    assert fast.without_mulligan() == slow.without_mulligan()
    fast_choice, fast_p = fast.return_table(2)
    slow_choice, slow_p = slow.return_table(2)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    # The same choice for every hand (ties keep, then the first kept part in order).
    assert fast_choice == slow_choice
    assert len(fast.memo) < len(slow.memo)


def test_a_put_under_class_of_five_shares_the_states_of_a_class_of_four() -> None:
    """``name:A>=1`` over five cards and ``name:B>=1`` over four are one family: with one A
    put under, the two classes' states are exchanged, and the value is the engine's without
    the sharing."""
    problem = DrawProblem(
        (5, 4, 9),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 1), CountTest(1, ">=", 1)),
    )
    red = reduce_problem(problem)
    assert orbits(red) == ()  # alike but for their size
    assert len(orbits(red, by_size=False)) == 1
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    query = Query(8)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    slow = plain_engine(problem, procedure, query)
    assert fast.orbits == () and len(fast.families) == 1
    assert fast.without_mulligan() == slow.without_mulligan()
    assert len(fast.memo) < len(slow.memo)
    # Two A put under, or one A and one B: four and three left, or three and four, one state.
    zero = fast.red.cond.zero
    assert fast._canonical((3, 4, 9), zero) == fast._canonical((4, 3, 9), zero)
    assert slow._canonical((3, 4, 9), zero) != slow._canonical((4, 3, 9), zero)


def test_families_share_states_across_sizes() -> None:
    """Two classes of one card and two of two: exchanging by size shares less than by family,
    and the values agree."""
    problem = DrawProblem(
        (1, 1, 2, 2, 3),
        tuple(tuple(s == g for s in range(4)) for g in range(5)),
        tuple(CountTest(s, ">=", 1) for s in range(4)),
    )
    procedure = Procedure(2, draws_per_turn=2, mulligan=ReturnRule(1), lookahead=True)
    query = Query(6)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    assert len(fast.orbits) == 2 and len(fast.families) == 1
    slow = plain_engine(problem, procedure, query)
    oracle = Expectimax(problem, procedure, query)
    assert fast.without_mulligan() == slow.without_mulligan() == oracle.plain()
    assert fast.return_table(1)[1] == slow.return_table(1)[1] == oracle.returning(1)
    assert len(fast.memo) < len(slow.memo)


def test_a_class_whose_cards_are_all_gone_settles_the_state() -> None:
    """``name:A>=1`` with A's only card put under: failure at once, whatever is left to draw
    (the counts alone could not tell)."""
    problem = DrawProblem(
        (1, 2, 7),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 1), CountTest(1, "<=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(6), (), 10**8)
    vec = engine.red.cond.zero
    assert engine._deck_settled((0, 2, 5), vec, 2) is False  # A's card gone: cannot hold
    assert engine._deck_settled((1, 2, 5), vec, 2) is None
    held_b = engine.red.cond.bump(vec, 1, 1)
    # One A held, one B held, the other B gone: nothing left can break the upper bound.
    held_ab = engine.red.cond.bump(held_b, 0, 1)
    assert engine._deck_settled((0, 0, 5), held_ab, 3) is True
    assert engine._deck_settled((0, 1, 5), held_ab, 3) is None


def test_disjoint_shortfalls_add_up() -> None:
    """Three named classes each needed once, two cards left to draw: out of reach, though no
    single test is."""
    problem = DrawProblem(
        (3, 3, 3, 5),
        tuple(tuple(s == g for s in range(3)) for g in range(4)),
        tuple(CountTest(s, ">=", 1) for s in range(3)),
    )
    procedure = Procedure(2, draws_per_turn=1, lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(4), (), 10**8)
    zero = engine.red.cond.zero
    assert engine._deck_settled((3, 3, 3, 3), zero, 2) is False
    one = engine.red.cond.bump(zero, 0, 1)
    assert engine._deck_settled((0, 3, 3, 3), one, 2) is None


@pytest.mark.parametrize("mulligan", [True, False])
def test_pc_eight_named_cards_match_the_engine_without_its_shortcuts(mulligan: bool) -> None:
    """legal-50, eight named cards at turn 3 (sizes one to four), the optimal look-ahead,
    with and without the optimal return-3 mulligan."""
    names = [*NAMES[:7], "Sky Citadel"]
    setup = draw_setup(open_deck(PC50))
    options = OddsOptions(turn=3)
    bound = bind(setup, [f"name:{n}>=1" for n in names], options)
    query = Query(cards_seen(setup, bound.procedure, options, 3))
    fast = SequentialEngine(bound.problem, bound.procedure, query, (), 10**8)
    slow = plain_engine(bound.problem, bound.procedure, query)
    if mulligan:
        assert fast.return_table(3)[1] == slow.return_table(3)[1]
    else:
        assert fast.without_mulligan() == slow.without_mulligan()
    assert fast.work < slow.work


def test_losing_cards_are_one_pool() -> None:
    """``name:A=1`` and ``name:B<=1`` with one of each held: any further A or B loses when
    kept, so how their cards left split does not matter; the values agree with the
    labelled expectimax."""
    problem = DrawProblem(
        (3, 2, 1, 3),
        ((True, False, False), (False, True, False), (False, False, True), (False,) * 3),
        (CountTest(0, "=", 1), CountTest(1, "<=", 1), CountTest(2, ">=", 1)),
    )
    procedure = Procedure(2, draws_per_turn=1, mulligan=ReturnRule(1), lookahead=True)
    query = Query(5)
    fast = SequentialEngine(problem, procedure, query, (), 10**8)
    slow = plain_engine(problem, procedure, query)
    cond = fast.red.cond
    both = cond.bump(cond.bump(cond.zero, 0, 1), 1, 1)
    assert fast._losing(both) == (0, 1)
    assert fast._canonical((2, 0, 1, 3), both) == fast._canonical((0, 2, 1, 3), both)
    assert fast._canonical((1, 1, 1, 3), both) == fast._canonical((2, 0, 1, 3), both)
    assert slow._canonical((1, 1, 1, 3), both) != slow._canonical((2, 0, 1, 3), both)
    oracle = Expectimax(problem, procedure, query)
    assert fast.without_mulligan() == slow.without_mulligan() == oracle.plain()
    assert fast.return_table(1)[1] == slow.return_table(1)[1] == oracle.returning(1)


def test_named_shortfalls_count_before_their_type() -> None:
    """``type:T>=2`` over named cards A, B, C, and A, B, C, D each needed once: four cards
    at least, though the type and D alone ask for three; three left to draw is too few."""
    rows = (
        (True, True, False, False, False),
        (True, False, True, False, False),
        (True, False, False, True, False),
        (False, False, False, False, True),
        (False,) * 5,
    )
    tests = (CountTest(0, ">=", 2), *(CountTest(s, ">=", 1) for s in range(1, 5)))
    problem = DrawProblem((1, 1, 1, 1, 4), rows, tests)
    procedure = Procedure(2, draws_per_turn=2, lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(5), (), 10**8)
    zero = engine.red.cond.zero
    assert engine._decided(zero, 2) is False
    assert engine._decided(zero, 1) is None
    oracle = Expectimax(problem, procedure, Query(6))
    assert exact_odds(Request(problem, procedure, Query(6))).fraction == oracle.plain()


def sorted_within(vec: tuple[int, ...], members: list[list[int]]) -> tuple[int, ...]:
    """``vec`` with each group's entries sorted: one vector per exchange within groups."""
    out = list(vec)
    for group in members:
        for c, x in zip(group, sorted(vec[c] for c in group), strict=True):
            out[c] = x
    return tuple(out)


def within(most: int, bound: int, k: int) -> list[int]:
    """Sub-vectors of ``k`` cards per size up to ``most``."""
    return [1] * (min(k, most) + 1)


def beside(most: int, bound: int, k: int) -> list[int]:
    """Draws of up to ``most`` from the ``bound - k`` cards left."""
    return [1] * (min(bound - k, most) + 1)


def test_counting_up_to_exchange_matches_the_listed_vectors() -> None:
    """Groups of alike classes: the vectors one per exchange, their sub-vectors of a size and
    the draws left beside them, counted without listing them, as listing them counts."""
    rng = random.Random(7)
    for _ in range(40):
        groups = [(rng.randint(0, 4), rng.randint(1, 3)) for _ in range(rng.randint(1, 4))]
        sizes: list[int] = []
        members: list[list[int]] = []
        for bound, alike in groups:
            members.append(list(range(len(sizes), len(sizes) + alike)))
            sizes += [bound] * alike
        total = rng.randint(0, 6)
        part, count = rng.randint(0, total), rng.randint(0, 3)
        listed = {sorted_within(v, members) for v in compositions(sizes, total)}
        assert count_up_to_exchange(groups, total, lambda b, k: [1], 0) == [len(listed)]
        subs = sum(1 for v in listed for _ in compositions(v, part))
        got = count_up_to_exchange(groups, total, functools.partial(within, part), part)
        assert got[part] == subs
        rest = [tuple(s - x for s, x in zip(sizes, v, strict=True)) for v in listed]
        draws = sum(1 for r in rest for _ in compositions(r, count))
        got = count_up_to_exchange(groups, total, functools.partial(beside, count), count)
        assert got[count] == draws


@pytest.mark.parametrize("seed", range(3))
def test_the_return_estimate_counts_what_the_table_walks(seed: int) -> None:
    """The return mulligan's estimate with the look-ahead: every hand and kept part, the kept
    parts weighed for each hand alike by exchange; the draws after a kept part are not
    walked (the recursion's state holding the kept part values them, ``count!`` times)."""
    rng = random.Random(90 + seed)
    problem = named_problem(rng, 6, 2, 5, False, (">=",))
    procedure = Procedure(5, draws_per_turn=1, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(7), (), 10**8)
    sizes, hand, keep = engine.red.sizes, engine.hand, engine.hand - 2
    hands = list(compositions(sizes, hand))
    kept = list(compositions(sizes, keep))
    twins = {engine._exchanged(h) for h in hands}
    walked = len(hands) + len(kept) + sum(1 for t in twins for _ in compositions(t, keep))
    assert engine.return_work(2) == walked
    # Each kept part's value is the sum over the draws after it (listed here), and the
    # table's answer is the engine's without the sharing.
    engine.without_mulligan()
    for part in kept[:12]:
        pile = tuple(s - x for s, x in zip(sizes, part, strict=True))
        walk = 0
        for drawn in compositions(pile, 2):
            new_hand = tuple(k + d for k, d in zip(part, drawn, strict=True))
            walk += ways(pile, drawn) * engine.hand_value(new_hand)
        assert engine._kept_value(part, 2) == walk
    assert (
        engine.return_table(2)[1] == plain_engine(problem, procedure, Query(7)).return_table(2)[1]
    )
    assert len(twins) < len(hands)  # the sharing is in the count


class Forgotten(Intractable):
    """A refusal that keeps no answer without the mulligan: the caller asks anew."""

    @property  # type: ignore[override]
    def without_mulligan(self) -> None:
        return None

    @without_mulligan.setter
    def without_mulligan(self, value: object) -> None:
        pass


def test_a_refused_return_table_leaves_the_plain_pass_to_an_either_or_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the return table is refused after the plain pass, the either-or question's
    figure without the mulligan is that pass's: one plain pass, the same report as asking
    the question anew without the mulligan."""
    question = [f"name:{NAMES[0]}>=1 | name:{NAMES[1]}>=1", f"name:{NAMES[2]}>=1"]
    asked: list[bool] = []
    real = SequentialEngine.without_mulligan
    refusal: list[type[Intractable]] = [Intractable]

    def counted(engine: SequentialEngine, *args: Any) -> Fraction:
        asked.append(True)
        return real(engine, *args)

    def refused(engine: SequentialEngine, count: int) -> object:
        raise refusal[0]("refused")

    monkeypatch.setattr(SequentialEngine, "without_mulligan", counted)
    monkeypatch.setattr(SequentialEngine, "return_table", refused)
    report = api.odds(PC50, question, turn=3)
    assert len(asked) == 1  # the plain pass, once
    refusal[0] = Forgotten
    anew = api.odds(PC50, question, turn=3)
    assert len(asked) == 3  # asked again without the mulligan
    assert report.exact and report.mulligan == "none"
    assert any("the mulligan is left out" in a for a in report.assumptions)
    assert report == anew


def test_a_refused_plain_pass_is_gone_on_from_with_its_calls_counted() -> None:
    """The look-ahead's states valued before a refusal: asked again with no mulligan, the
    answer goes on from them (the same Fraction as asked anew), and the calls they took count
    against the new limit."""
    from deckcheck.draws.facade import Policy, Prior, exact

    rng = random.Random(5)
    problem = named_problem(rng, 6, 3, 6, False, (">=", ">=", "<=", "="))
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    policy = Policy()
    with pytest.raises(Intractable) as refused:
        exact(problem, procedure, Query(8), policy, limit=400)
    known = refused.value.known_states
    assert known is not None and known[1] and known[2] > 0
    plain = Query(8, use_mulligan=False)
    anew = exact(problem, procedure, plain, policy, limit=10**7)
    again = exact(problem, procedure, plain, policy, limit=10**7, prior=Prior(known_states=known))
    assert again.fraction == anew.fraction
    # Its calls count against the new limit: ones that took it all leave nothing.
    spent = (known[0], known[1], 10**7)
    with pytest.raises(Intractable):
        exact(problem, procedure, plain, policy, limit=10**7, prior=Prior(known_states=spent))
    # States valued for another query are not gone on from.
    other = ((), dict.fromkeys(known[1], 0), 0)
    assert (
        exact(problem, procedure, plain, policy, prior=Prior(known_states=other)).fraction
        == anew.fraction
    )
