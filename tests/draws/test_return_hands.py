"""The return mulligan on a hand that is the whole question, every hand at once
(``draws/exact/returned.py``): overlapping selectors (each card counted by several tests, as
``type:``, ``rarity:`` and costs are), 8 and 12 tests, ``>=``/``<=``/``=`` mixed, either-or
queries. Checked against the labelled-card brute force on small decks and against the walk
over hands it replaces (the same Fraction, the same choice per hand, the same kept parts'
values), with and without the mulligan.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from conftest import PC_ATTRIBUTE_CONDITIONS
from test_lookahead_optimal import Expectimax
from typer.testing import CliRunner

from deckcheck.cli.app import app
from deckcheck.draws.exact.compositions import compositions, ways
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.returned import ReturnHands, _multisets
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule


def attribute_problem(
    rng: random.Random, n_tests: int, groups: int, any_of: bool = False
) -> DrawProblem:
    """``groups`` groups of one to three cards over five selectors, each card matching one
    to three of them; ``n_tests`` tests on them (``>=``, ``<=``, ``=``, several per selector),
    two or three alternatives when ``any_of``."""
    n_sel = 5
    sizes = tuple(rng.randint(1, 3) for _ in range(groups))
    rows = []
    for _ in range(groups):
        hit = set(rng.sample(range(n_sel), rng.randint(0, 3)))
        rows.append(tuple(s in hit for s in range(n_sel)))
    tests = []
    for i in range(n_tests):
        op = (">=", "<=", "=")[i % 3]
        tests.append(CountTest(rng.randrange(n_sel), op, rng.randint(0 if op != ">=" else 1, 2)))
    alts: tuple[tuple[int, ...], ...] = ()
    if any_of:
        picked: set[tuple[int, ...]] = set()
        while len(picked) < rng.randint(2, 3):
            picked.add(tuple(sorted(rng.sample(range(n_tests), rng.randint(1, 4)))))
        alts = tuple(sorted(picked))
    return DrawProblem(sizes, tuple(rows), tuple(tests), (), alts)


def holds(problem: DrawProblem, cards: list[int], chosen: tuple[int, ...]) -> bool:
    """Whether the query holds on the labelled cards ``chosen`` (``cards``: a group each)."""
    counts = [0] * len(problem.membership[0])
    for i in chosen:
        for s, hit in enumerate(problem.membership[cards[i]]):
            counts[s] += hit
    passes = [t.holds(counts[t.selector]) for t in problem.conditions]
    alts = problem.any_of or (tuple(range(len(passes))),)
    return any(all(passes[i] for i in alt) for alt in alts)


def brute_force(problem: DrawProblem, hand: int, count: int | None) -> Fraction:
    """P(the query holds on the hand), each hand keeping or returning ``count`` cards (None:
    no mulligan), whichever is better, over labelled cards."""
    cards = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    deck = range(len(cards))
    known: dict[tuple[int, ...], bool] = {}

    def wins(chosen: tuple[int, ...]) -> bool:
        key = tuple(sorted(cards[i] for i in chosen))  # the same groups, the same counts
        got = known.get(key)
        if got is None:
            got = known[key] = holds(problem, cards, chosen)
        return got

    # Every return draws from a pile of the same size: a hand's choices compare, and the
    # hands add up, as counts of winning draws over one denominator.
    draws = 1 if count is None else math.comb(len(cards) - hand + count, count)
    # The winning draws after kept cards, counted once per mix of kept cards (the pile is the
    # rest of the deck: kept cards of the same groups leave piles of the same groups).
    returned: dict[tuple[int, ...], int] = {}
    total = 0
    hands = list(combinations(deck, hand))
    for dealt in hands:
        best = wins(dealt) * draws
        if count is not None:
            for kept in combinations(dealt, hand - count):
                mix = tuple(sorted(cards[i] for i in kept))
                good = returned.get(mix)
                if good is None:
                    pile = [i for i in deck if i not in kept]
                    good = returned[mix] = sum(wins(kept + d) for d in combinations(pile, count))
                best = max(best, good)
        total += best
    return Fraction(total, len(hands) * draws)


def walked(problem: DrawProblem, procedure: Procedure, query: Query) -> SequentialEngine:
    """The engine that walks the hands (no numpy table)."""
    engine = SequentialEngine(problem, procedure, query, (), 10**9)
    engine.use_levels = False
    return engine


def interesting(
    rng: random.Random, n_tests: int, groups: int, any_of: bool, most: int = 99
) -> DrawProblem:
    """A problem of at most ``most`` cards whose hand of four sometimes holds and sometimes
    fails."""
    while True:
        problem = attribute_problem(rng, n_tests, groups, any_of)
        if problem.pile_size > most:
            continue
        p = exact_odds(Request(problem, Procedure(4), Query(4))).fraction
        if 0 < p < 1:
            return problem


@pytest.mark.parametrize(("n_tests", "seed"), [(8, 0), (8, 1), (12, 0), (12, 1), (12, 2)])
def test_small_decks_match_the_labelled_brute_force(n_tests: int, seed: int) -> None:
    """A deck of about ten cards, a hand of four, returning two: the table, the walk and the
    brute force over labelled cards give one Fraction, and without the mulligan too."""
    rng = random.Random(420 + 10 * n_tests + seed)
    problem = interesting(rng, n_tests, 5, any_of=seed == 2, most=11)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    query = Query(4)
    engine = SequentialEngine(problem, procedure, query, (), 10**9)
    assert engine._hands_return(2) is not None  # the table answers, not the walk
    answer = exact_odds(Request(problem, procedure, query))
    assert answer.fraction == brute_force(problem, 4, 2)
    assert answer.fraction == walked(problem, procedure, query).return_table(2)[1]
    plain = exact_odds(Request(problem, procedure, Query(4, use_mulligan=False)))
    assert plain.fraction == brute_force(problem, 4, None)


@pytest.mark.parametrize(
    ("n_tests", "seed", "count"), [(8, 0, 3), (8, 1, 2), (12, 0, 3), (12, 3, 1)]
)
def test_larger_decks_match_the_walk_in_every_choice(n_tests: int, seed: int, count: int) -> None:
    """Fourteen groups, hands of six: the same probability, the same value per kept part and
    the same choice for every hand (ties keep, then the first kept part in order) as the
    walk."""
    rng = random.Random(77 + 10 * n_tests + seed)
    problem = interesting(rng, n_tests, 12, any_of=seed == 3)
    procedure = Procedure(6, mulligan=ReturnRule(count))
    query = Query(6)
    fast = SequentialEngine(problem, procedure, query, (), 10**9)
    assert fast._hands_return(count) is not None
    slow = walked(problem, procedure, query)
    fast_choice, fast_p = fast.return_table(count)
    slow_choice, slow_p = slow.return_table(count)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    assert fast_choice == slow_choice
    assert exact_odds(Request(problem, procedure, query)).fraction == fast_p


def test_returning_the_whole_hand() -> None:
    """A return of every card: each hand weighs keeping against a fresh hand."""
    rng = random.Random(5)
    problem = interesting(rng, 8, 5, any_of=False, most=11)
    procedure = Procedure(3, mulligan=ReturnRule(3))
    fast = SequentialEngine(problem, procedure, Query(3), (), 10**9)
    assert fast._hands_return(3) is not None
    choice, p = fast.return_table(3)
    slow = walked(problem, procedure, Query(3))
    assert (choice, p) == slow.return_table(3)
    assert fast.kept_values == slow.kept_values
    assert p == brute_force(problem, 3, 3)


def test_hands_are_every_composition_with_its_ways() -> None:
    """The hands enumerated as increasing rows of classes are the compositions, each once,
    with its ways."""
    sizes = (3, 1, 0, 2, 4)
    rows, weights = _multisets(np.asarray(sizes, dtype=np.int64), 4)
    got = {}
    for row, w in zip(rows.tolist(), weights.tolist(), strict=True):
        comp = tuple(row.count(c) for c in range(len(sizes)))
        assert comp not in got
        got[comp] = w
    assert got == {comp: ways(sizes, comp) for comp in compositions(sizes, 4)}
    assert sum(got.values()) == math.comb(sum(sizes), 4)


def test_too_large_for_its_floats_falls_back_to_the_walk() -> None:
    """Sums past what a float counts exactly: the table says it does not fit."""
    problem = DrawProblem((400, 400, 400), ((True,), (False,), (True,)), (CountTest(0, ">=", 3),))
    procedure = Procedure(8, mulligan=ReturnRule(3))
    engine = SequentialEngine(problem, procedure, Query(8), (), 10**9)
    table = ReturnHands(engine.red, engine.n, 8, 3, 1, engine._holds, lambda vec: (), int)
    assert not table.fits
    assert engine._hands_return(3) is None


@pytest.mark.parametrize(("seed", "per_turn"), [(0, 2), (1, 1), (2, 2), (3, 1)])
def test_with_the_lookahead_small_decks_match_the_labelled_expectimax(
    seed: int, per_turn: int
) -> None:
    """Overlapping selectors and the optimal look-ahead after the return: the table's
    probability is the labelled-card expectimax's, and the walk's."""
    rng = random.Random(900 + seed)
    problem = interesting(rng, 8, 4, any_of=seed == 2, most=8)
    procedure = Procedure(3, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True)
    query = Query(5)
    engine = SequentialEngine(problem, procedure, query, (), 10**9)
    assert engine._level_kinds() is None
    engine.estimate(2)
    table = engine._hands_plain
    assert table is not None and table.fits
    oracle = Expectimax(problem, procedure, query)
    assert engine.without_mulligan() == oracle.plain()
    _, p = engine.return_table(2)
    assert p == oracle.returning(2)
    slow = walked(problem, procedure, query)
    slow.without_mulligan()
    assert p == slow.return_table(2)[1]


@pytest.mark.parametrize(("n_tests", "seed"), [(8, 0), (12, 1), (12, 2)])
def test_with_the_lookahead_larger_decks_match_the_walk_in_every_choice(
    n_tests: int, seed: int
) -> None:
    """Twelve groups, hands of five, two more cards seen with one look: the same
    probability, kept parts' values and choice per hand as the walk, with and without the
    mulligan."""
    rng = random.Random(3100 + 10 * n_tests + seed)
    problem = interesting(rng, n_tests, 12, any_of=seed == 2)
    procedure = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)
    query = Query(7)
    fast = SequentialEngine(problem, procedure, query, (), 10**9)
    slow = walked(problem, procedure, query)
    fast.estimate(3)  # the table it counts answers the plain pass too
    assert fast._hands_plain is not None
    assert fast.without_mulligan() == slow.without_mulligan()
    fast_choice, fast_p = fast.return_table(3)
    slow_choice, slow_p = slow.return_table(3)
    assert fast_p == slow_p
    assert fast.kept_values == slow.kept_values
    assert fast_choice == slow_choice
    assert exact_odds(Request(problem, procedure, query)).fraction == fast_p


def test_values_counted_by_several_limbs_are_the_same() -> None:
    """Limbs of a few bits each (the values then take several): the same table."""
    rng = random.Random(3112)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)
    query = Query(7)
    whole = SequentialEngine(problem, procedure, query, (), 10**9)
    split = SequentialEngine(problem, procedure, query, (), 10**9)
    table = split._hands_return(3)
    assert table is not None
    table._limb = 4
    assert whole.hand_scale() >= 1 << 12  # three limbs or more
    assert whole.return_table(3) == split.return_table(3)
    assert whole.kept_values == split.kept_values


def test_the_mulligan_guide_is_weighed_as_its_walk_over_every_hand() -> None:
    """The return table of every hand is cheap, but the guide then walks every hand in
    Python: twelve attribute conditions on an 80-card deck are refused before starting, as
    that walk was, not walked for seconds."""
    deck = Path(__file__).resolve().parents[2] / "examples/planetary-conquerors/legal-80.txt"
    conditions = PC_ATTRIBUTE_CONDITIONS
    result = CliRunner().invoke(app, ["mulligan", str(deck), *conditions])
    assert result.exit_code == 2
    assert "about 761,250 steps estimated before starting" in result.output
