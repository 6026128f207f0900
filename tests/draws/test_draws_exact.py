"""Exact draw odds: published values, and a brute-force oracle that plays every policy literally.

The oracle labels every card, enumerates every hand (and every order of the later draws), and
plays the redraw, return-3 and look-ahead rules card by card with the shared policies. The
exact engine must agree with it as a Fraction, for many random small problems, including cards
matching several selectors at once (a ship/unit card against "ship>=2" and "unit>=1").
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from conftest import lines_run
from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck.draws import policies
from deckcheck.draws.exact.odds import Intractable, distribution
from deckcheck.draws.exact.odds import exact_odds as exact_odds_any
from deckcheck.draws.exact.odds import optimal_return_choice as optimal_return_choice_any
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    Request,
    ReturnRule,
)

OPS = (">=", "<=", "=", ">", "<")


# The oracle below plays the look-ahead's rule of thumb (policies.lookahead_keep), so the engine
# is asked for that named policy here; the optimal look-ahead has its own oracle in
# test_lookahead_optimal.py.
def exact_odds(problem: DrawProblem, procedure: Procedure, query: Query, **options: Any) -> Any:
    return exact_odds_any(Request(problem, procedure, query, "heuristic"), **options)


def optimal_return_choice(
    problem: DrawProblem, procedure: Procedure, query: Query, **options: Any
) -> Any:
    return optimal_return_choice_any(Request(problem, procedure, query, "heuristic"), **options)


def one_selector(copies: int, deck: int, *tests: CountTest) -> DrawProblem:
    return DrawProblem(
        group_sizes=(copies, deck - copies),
        membership=((True,), (False,)),
        conditions=tests,
    )


def frac(text: str | None) -> Fraction:
    assert text is not None
    return Fraction(text)


# --------------------------------------------------------------------------------------------
# Published values
# --------------------------------------------------------------------------------------------


def test_published_single_card_counts() -> None:
    dist = distribution(one_selector(24, 60), 7, 0)
    assert round(float(dist[0]), 6) == 0.021615
    assert round(float(dist[3]), 6) == 0.308704
    assert round(float(sum(dist[5:])), 6) == 0.082777
    assert sum(dist) == 1

    def p(op: str, k: int) -> float:
        problem = one_selector(24, 60, CountTest(0, op, k))  # type: ignore[arg-type]
        return exact_odds(problem, Procedure(hand_size=7), Query(seen=7)).probability

    assert round(p(">=", 5), 6) == 0.082777
    assert round(p("=", 3), 6) == 0.308704
    assert round(p("<", 1), 6) == 0.021615
    assert round(p("<=", 0), 6) == 0.021615
    assert round(p(">", 4), 6) == 0.082777


def test_published_two_draws_hit() -> None:
    # 53 cards unseen, 35 of them not the card: P(at least one hit in two draws).
    problem = one_selector(18, 53, CountTest(0, ">=", 1))
    result = exact_odds(problem, Procedure(hand_size=0), Query(seen=2))
    assert round(result.probability, 6) == 0.568215
    assert frac(result.probability_exact) == 1 - Fraction(35, 53) * Fraction(34, 52)


def test_published_two_four_ofs() -> None:
    problem = DrawProblem(
        group_sizes=(4, 4, 52),
        membership=((True, False), (False, True), (False, False)),
        conditions=(CountTest(0, ">=", 1), CountTest(1, ">=", 1)),
    )
    result = exact_odds(problem, Procedure(hand_size=7), Query(seen=7))
    assert round(result.probability, 6) == 0.145406
    assert result.exact and result.probability == result.probability_without_mulligan


def test_no_conditions_is_certain() -> None:
    problem = DrawProblem((3, 4), ((True,), (False,)), ())
    assert exact_odds(problem, Procedure(hand_size=3), Query(seen=5)).probability_exact == "1/1"


def test_bad_queries() -> None:
    problem = one_selector(3, 10, CountTest(0, ">=", 1))
    with pytest.raises(ValueError):
        exact_odds(problem, Procedure(hand_size=3), Query(seen=11))
    with pytest.raises(ValueError):
        exact_odds(problem, Procedure(hand_size=5), Query(seen=4))
    bad_selector = DrawProblem((3, 7), ((True,), (False,)), (CountTest(4, ">=", 1),))
    with pytest.raises(ValueError):
        exact_odds(bad_selector, Procedure(hand_size=3), Query(seen=5))


# --------------------------------------------------------------------------------------------
# The brute-force oracle
# --------------------------------------------------------------------------------------------


class Oracle:
    """Plays a procedure literally over labelled cards, averaging over every order."""

    def __init__(self, problem: DrawProblem, procedure: Procedure, query: Query) -> None:
        self.problem = problem
        self.procedure = procedure
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.group = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
        self.cards = tuple(range(len(self.group)))
        self.lookahead = procedure.lookahead
        self.per_turn = procedure.draws_per_turn
        looks = -(-(self.seen - self.hand) // self.per_turn) if self.lookahead else 0
        self.reads = self.seen - self.hand + looks
        self._memo: dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction] = {}
        self._returns: dict[tuple[Any, ...], dict[tuple[int, ...] | None, Fraction]] = {}
        self._redrawn: dict[tuple[Any, ...], Fraction] = {}

    def comp(self, cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        out = [0] * len(self.problem.group_sizes)
        for c in cards:
            out[self.group[c]] += 1
        return tuple(out)

    def play(self, hand: tuple[int, ...], deck: list[int]) -> bool:
        """One game from a dealt hand and an ordered pile, card by card."""
        held = list(hand)
        deck = list(deck)
        while len(held) < self.seen:
            if self.lookahead and (len(held) - self.hand) % self.per_turn == 0:
                top = deck[0]
                if not policies.lookahead_keep(self.problem, self.comp(held), self.group[top]):
                    deck.append(deck.pop(0))  # to the bottom of the pile
            held.append(deck.pop(0))
        return self.problem.satisfied(self.comp(held))

    def after_hand(self, hand: tuple[int, ...], pile: tuple[int, ...]) -> Fraction:
        """P(success) from a hand, averaging over every order of the pile's top cards."""
        key = (self.comp(hand), self.comp(pile))
        if key not in self._memo:
            # Cards past the most ever read are never reached (put-under cards go after them).
            depth = min(len(pile), self.reads)
            orders = list(itertools.permutations(pile, depth))
            rest_of = {c: None for c in pile}
            # A game reads only the groups of the cards it meets, and orders whose cards
            # come in the same groups leave tails of the same groups too (a group's cards
            # are numbered together): every order is counted, each group sequence played once.
            played: dict[tuple[int, ...], bool] = {}
            group_of = self.group.__getitem__
            wins = 0
            for order in orders:
                groups = tuple(map(group_of, order))
                won = played.get(groups)
                if won is None:
                    tail = [c for c in rest_of if c not in order]
                    won = played[groups] = self.play(hand, list(order) + tail)
                wins += won
            self._memo[key] = Fraction(wins, len(orders))
        return self._memo[key]

    @functools.cached_property
    def _hands(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        out = []
        for hand in itertools.combinations(self.cards, self.hand):
            pile = tuple(c for c in self.cards if c not in hand)
            out.append((hand, pile))
        return out

    def hands(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        return self._hands

    @functools.cached_property
    def _plain(self) -> Fraction:
        hands = self.hands()
        return sum((self.after_hand(h, p) for h, p in hands), Fraction(0)) / len(hands)

    def plain(self) -> Fraction:
        """Worked out once: the checks after the mulligan's value ask for it again."""
        return self._plain

    def redraw(self, rule: RedrawRule) -> Fraction:
        hands = self.hands()

        def triggered(hand: tuple[int, ...]) -> bool:
            return policies.redraw_allowed(rule, self.problem, self.comp(hand))

        if rule.max_redraws is None:
            kept = [(h, p) for h, p in hands if not triggered(h)]
            if not kept:
                return self.plain()
            return sum((self.after_hand(h, p) for h, p in kept), Fraction(0)) / len(kept)
        value = self.plain()  # no redraw left: keep whatever comes
        for _ in range(rule.max_redraws):
            total = Fraction(0)
            for h, p in hands:
                total += value if triggered(h) else self.after_hand(h, p)
            value = total / len(hands)
        return value

    def return_values(
        self, hand: tuple[int, ...], pile: tuple[int, ...], count: int
    ) -> dict[tuple[int, ...] | None, Fraction]:
        """Value of keeping (None) and of returning each labelled subset of the hand (worked
        out once per hand: the choice is checked against the values the odds were from)."""
        key = (hand, pile, count)
        if key in self._returns:
            return self._returns[key]
        values: dict[tuple[int, ...] | None, Fraction] = {None: self.after_hand(hand, pile)}
        for back in itertools.combinations(hand, count):
            kept = tuple(c for c in hand if c not in back)
            new_pile = pile + back
            # Like after_hand's, the value depends on the groups of the cards kept alone (the
            # rest of the cards are the pile): worked out once per such mix.
            mix = (self.comp(kept), self.comp(new_pile), count)
            value = self._redrawn.get(mix)
            if value is None:
                draws = list(itertools.combinations(new_pile, count))
                total = Fraction(0)
                for drawn in draws:
                    rest = tuple(c for c in new_pile if c not in drawn)
                    total += self.after_hand(kept + drawn, rest)
                value = self._redrawn[mix] = total / len(draws)
            values[back] = value
        self._returns[key] = values
        return values

    def returning(self, count: int) -> Fraction:
        hands = self.hands()
        total = Fraction(0)
        for h, p in hands:
            total += max(self.return_values(h, p, count).values())
        return total / len(hands)


# Lower bounds are what players ask most; upper bounds and "=" are mixed in.
WEIGHTED_OPS = (">=", ">=", ">", "<=", "<", "=")


def random_tests(rng: random.Random, problem: DrawProblem, most: int) -> tuple[CountTest, ...]:
    """1..``most`` tests with thresholds near the selectors' card counts (rarely trivial)."""
    n_sel = len(problem.membership[0])
    tests = []
    for _ in range(rng.randint(1, most)):
        s = rng.randrange(n_sel)
        hits = sum(
            k for k, row in zip(problem.group_sizes, problem.membership, strict=True) if row[s]
        )
        op = rng.choice(WEIGHTED_OPS)
        tests.append(
            CountTest(s, op, rng.randint(0 if op in ("<=", "=") else 1, max(1, min(hits, 3))))
        )  # type: ignore[arg-type]
    return tuple(tests)


def random_problem(rng: random.Random, max_cards: int = 9) -> DrawProblem:
    """A small pile: up to 3 selectors, cards matching any subset (overlaps included)."""
    n_sel = rng.randint(1, 3)
    n_cards = rng.randint(5, max_cards)
    rows: list[tuple[bool, ...]] = []
    sizes: list[int] = []
    while sum(sizes) < n_cards:
        row = tuple(rng.random() < 0.45 for _ in range(n_sel))
        size = min(rng.randint(1, 3), n_cards - sum(sizes))
        # Identical rows may appear twice: the engine must merge such groups.
        rows.append(row)
        sizes.append(size)
    if rng.random() < 0.2:
        rows.append(tuple(rng.random() < 0.5 for _ in range(n_sel)))
        sizes.append(0)  # an empty group
    bare = DrawProblem(tuple(sizes), tuple(rows), ())
    return DrawProblem(bare.group_sizes, bare.membership, random_tests(rng, bare, 3))


def random_triggers(rng: random.Random, problem: DrawProblem) -> tuple[CountTest, ...]:
    return random_tests(rng, problem, 2)


def interesting(
    seed: int, make: Callable[[random.Random], tuple[DrawProblem, Procedure, Query]]
) -> tuple[DrawProblem, Procedure, Query]:
    """The first case from ``seed`` whose answer is neither 0 nor 1 (a filter, not a check)."""
    rng = random.Random(seed)
    case = make(rng)
    for _ in range(50):
        problem, procedure, query = case
        try:
            result = exact_odds(problem, procedure, query)
        except Intractable:  # the look-ahead could wrap round the pile: not this test's case
            case = make(rng)
            continue
        if frac(result.probability_exact) not in (0, 1):
            return case
        case = make(rng)
    return case


def exact_fraction(problem: DrawProblem, procedure: Procedure, query: Query) -> Fraction:
    return frac(exact_odds(problem, procedure, query).probability_exact)


# A ship/unit card counts for both "ship>=2" and "unit>=1".
SHIP_UNIT = DrawProblem(
    group_sizes=(2, 2, 1, 3),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, ">=", 1)),
    selector_labels=("ship", "unit"),
)


@pytest.mark.parametrize("seed", range(40))
def test_plain_matches_oracle(seed: int) -> None:
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng)
        n = problem.pile_size
        hand = rng.randint(0, min(4, n))
        return problem, Procedure(hand_size=hand), Query(seen=rng.randint(hand, min(n, hand + 3)))

    problem, procedure, query = interesting(seed, make)
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == Oracle(problem, procedure, query).plain()
    assert result.probability == result.probability_without_mulligan


def test_ship_unit_overlap() -> None:
    procedure = Procedure(hand_size=3)
    for seen in (3, 4, 5):
        query = Query(seen=seen)
        assert (
            exact_fraction(SHIP_UNIT, procedure, query)
            == Oracle(SHIP_UNIT, procedure, query).plain()
        )
    # By hand for 3 seen: ships = groups 0 and 2, units = groups 1 and 2, 8 cards in all.
    wins = 0
    for combo in itertools.combinations(range(8), 3):
        ships = sum(1 for c in combo if c in (0, 1, 4))
        units = sum(1 for c in combo if c in (2, 3, 4))
        wins += ships >= 2 and units >= 1
    assert exact_fraction(SHIP_UNIT, procedure, Query(seen=3)) == Fraction(wins, math.comb(8, 3))


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("max_redraws", [0, 1, 2, None])
def test_redraw_matches_oracle(seed: int, max_redraws: int | None) -> None:
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng, max_cards=8)
        rule = RedrawRule(triggers=random_triggers(rng, problem), max_redraws=max_redraws)
        n = problem.pile_size
        hand = rng.randint(1, min(4, n))
        seen = rng.randint(hand, min(n, hand + 2))
        return problem, Procedure(hand_size=hand, mulligan=rule), Query(seen=seen)

    problem, procedure, query = interesting(1000 + seed, make)
    rule = procedure.mulligan
    assert isinstance(rule, RedrawRule)
    seen = query.seen
    oracle = Oracle(problem, procedure, query)
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == oracle.redraw(rule)
    assert result.probability_without_mulligan == pytest.approx(float(oracle.plain()))
    without = exact_odds(problem, procedure, Query(seen=seen, use_mulligan=False))
    assert frac(without.probability_exact) == oracle.plain()


def test_redraw_ren_dhark_shape() -> None:
    # Ships, actions and the rest; redraw on fewer than 2 ships or more than 3 actions.
    problem = DrawProblem(
        group_sizes=(15, 6, 12),
        membership=((True, False), (False, True), (False, False)),
        conditions=(CountTest(0, ">=", 3),),
    )
    rule = RedrawRule(triggers=(CountTest(0, "<", 2), CountTest(1, ">", 3)), max_redraws=1)
    procedure = Procedure(hand_size=7, mulligan=rule)
    once = exact_odds(problem, procedure, Query(seen=7))
    assert once.probability > once.probability_without_mulligan
    assert "at most once" in " ".join(once.notes)
    unlimited = exact_odds(
        problem,
        Procedure(hand_size=7, mulligan=RedrawRule(rule.triggers, max_redraws=None)),
        Query(seen=9),
    )
    assert unlimited.exact and unlimited.probability > unlimited.probability_without_mulligan


def test_redraw_every_hand_triggers() -> None:
    problem = one_selector(3, 8, CountTest(0, ">=", 1))
    rule = RedrawRule(triggers=(CountTest(0, ">=", 0),), max_redraws=None)
    result = exact_odds(problem, Procedure(hand_size=2, mulligan=rule), Query(seen=3))
    assert result.probability == result.probability_without_mulligan


def pc_procedure(hand: int, count: int, lookahead: bool, per_turn: int = 2) -> Procedure:
    return Procedure(
        hand_size=hand,
        hand_size_second=hand + 1,
        draws_per_turn=per_turn,
        mulligan=ReturnRule(count=count),
        lookahead=lookahead,
    )


def check_choice(
    problem: DrawProblem, procedure: Procedure, query: Query, oracle: Oracle, count: int
) -> None:
    """The choice handed to the simulator reaches the brute-force optimum for every hand."""
    choose = optimal_return_choice(problem, procedure, query)
    for h, p in oracle.hands():
        values = oracle.return_values(h, p, count)
        picked = choose(oracle.comp(h))
        if picked is None:
            got = values[None]
        else:
            assert sum(picked) == count
            assert all(0 <= r <= k for r, k in zip(picked, oracle.comp(h), strict=True))
            back = next(b for b in values if b is not None and oracle.comp(b) == picked)
            got = values[back]
        assert got == max(values.values())


@pytest.mark.parametrize("seed", range(30))
def test_return_matches_oracle(seed: int) -> None:
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng, max_cards=8)
        n = problem.pile_size
        hand = rng.randint(2, min(4, n))
        count = rng.randint(1, min(3, hand))
        seen = rng.randint(hand, min(n, hand + 2))
        return problem, pc_procedure(hand, count, lookahead=False), Query(seen=seen)

    problem, procedure, query = interesting(2000 + seed, make)
    assert isinstance(procedure.mulligan, ReturnRule)
    count = procedure.mulligan.count
    oracle = Oracle(problem, procedure, query)
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == oracle.returning(count)
    assert result.probability_without_mulligan == pytest.approx(float(oracle.plain()))
    check_choice(problem, procedure, query, oracle, count)


@pytest.mark.parametrize("seed", range(30))
def test_lookahead_matches_oracle(seed: int) -> None:
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng, max_cards=9)
        n = problem.pile_size
        hand = rng.randint(1, min(3, n - 1))
        per_turn = rng.choice([1, 2])
        seen = rng.randint(hand + 1, min(n - 1, hand + 4))
        procedure = Procedure(hand_size=hand, draws_per_turn=per_turn, lookahead=True)
        return problem, procedure, Query(seen=seen)

    problem, procedure, query = interesting(3000 + seed, make)
    n = problem.pile_size
    hand = procedure.hand_size
    oracle = Oracle(problem, procedure, query)
    if hand + oracle.reads > n:
        with pytest.raises(Intractable):
            exact_odds(problem, procedure, query)
        return
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == oracle.plain()
    assert result.probability == result.probability_without_mulligan


@pytest.mark.parametrize("seed", range(30))
def test_return_with_lookahead_matches_oracle(seed: int) -> None:
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng, max_cards=9)
        n = problem.pile_size
        hand = rng.randint(2, min(4, n - 1))
        count = rng.randint(1, min(3, hand))
        seen = rng.randint(hand, min(n, hand + 3))
        return problem, pc_procedure(hand, count, lookahead=True), Query(seen=seen)

    problem, procedure, query = interesting(4000 + seed, make)
    assert isinstance(procedure.mulligan, ReturnRule)
    n, hand, seen = problem.pile_size, procedure.hand_size, query.seen
    count = procedure.mulligan.count
    oracle = Oracle(problem, procedure, query)
    if hand + oracle.reads > n:
        with pytest.raises(Intractable):
            exact_odds(problem, procedure, query)
        return
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == oracle.returning(count)
    assert result.probability_without_mulligan == pytest.approx(float(oracle.plain()))
    off = exact_odds(problem, procedure, Query(seen=seen, use_mulligan=False))
    assert frac(off.probability_exact) == oracle.plain()
    check_choice(problem, procedure, query, oracle, count)


@pytest.mark.parametrize("seed", range(12))
def test_redraw_with_lookahead_matches_oracle(seed: int) -> None:
    # No game combines the two, but the engine allows it: hands are enumerated instead.
    def make(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
        problem = random_problem(rng, max_cards=8)
        rule = RedrawRule(random_triggers(rng, problem), max_redraws=rng.choice([1, 2, None]))
        n = problem.pile_size
        hand = rng.randint(1, min(3, n - 2))
        seen = rng.randint(hand + 1, min(n - 1, hand + 3))
        procedure = Procedure(hand_size=hand, draws_per_turn=1, mulligan=rule, lookahead=True)
        return problem, procedure, Query(seen=seen)

    problem, procedure, query = interesting(5000 + seed, make)
    rule = procedure.mulligan
    assert isinstance(rule, RedrawRule)
    oracle = Oracle(problem, procedure, query)
    result = exact_odds(problem, procedure, query)
    assert frac(result.probability_exact) == oracle.redraw(rule)
    off = exact_odds(problem, procedure, Query(seen=query.seen, use_mulligan=False))
    assert frac(off.probability_exact) == oracle.plain()


def test_return_larger_than_hand_is_no_mulligan() -> None:
    problem = one_selector(4, 20, CountTest(0, ">=", 1))
    result = exact_odds(problem, pc_procedure(2, 3, lookahead=False), Query(seen=2))
    assert result.probability == result.probability_without_mulligan
    assert result.notes


def test_ship_unit_with_every_rule() -> None:
    problem = SHIP_UNIT
    query = Query(seen=5)
    rule = RedrawRule(triggers=(CountTest(0, "<", 1),), max_redraws=2)
    procedure = Procedure(hand_size=3, mulligan=rule)
    assert exact_fraction(problem, procedure, query) == Oracle(problem, procedure, query).redraw(
        rule
    )
    procedure = pc_procedure(3, 2, lookahead=True, per_turn=1)
    oracle = Oracle(problem, procedure, query)
    assert exact_fraction(problem, procedure, query) == oracle.returning(2)
    assert exact_fraction(problem, procedure, Query(seen=5, use_mulligan=False)) == oracle.plain()


def test_second_player_hand_size() -> None:
    problem = one_selector(4, 20, CountTest(0, ">=", 1))
    procedure = pc_procedure(5, 3, lookahead=False)
    first = exact_odds(problem, procedure, Query(seen=5, use_mulligan=False))
    second = exact_odds(problem, procedure, Query(seen=6, second=True, use_mulligan=False))
    assert frac(first.probability_exact) == 1 - Fraction(math.comb(16, 5), math.comb(20, 5))
    assert frac(second.probability_exact) == 1 - Fraction(math.comb(16, 6), math.comb(20, 6))


def test_satisfied_hand_is_kept() -> None:
    problem = one_selector(4, 20, CountTest(0, ">=", 1))
    procedure = pc_procedure(5, 3, lookahead=False)
    choose = optimal_return_choice(problem, procedure, Query(seen=5))
    assert choose((1, 4)) is None
    assert choose((0, 5)) == (0, 3)


# --------------------------------------------------------------------------------------------
# Properties and limits
# --------------------------------------------------------------------------------------------


@st.composite
def hypergeometric_cases(draw: st.DrawFn) -> tuple[DrawProblem, int]:
    n_sel = draw(st.integers(1, 3))
    n_groups = draw(st.integers(1, 5))
    sizes = tuple(draw(st.integers(0, 4)) for _ in range(n_groups))
    rows = tuple(tuple(draw(st.booleans()) for _ in range(n_sel)) for _ in range(n_groups))
    tests = tuple(
        CountTest(
            draw(st.integers(0, n_sel - 1)), draw(st.sampled_from(OPS)), draw(st.integers(0, 4))
        )
        for _ in range(draw(st.integers(1, 4)))
    )
    seen = draw(st.integers(0, sum(sizes)))
    return DrawProblem(sizes, rows, tests), seen


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(hypergeometric_cases())
def test_plain_against_composition_enumeration(case: tuple[DrawProblem, int]) -> None:
    problem, seen = case
    total = 0
    ranges = [range(s + 1) for s in problem.group_sizes]
    for comp in itertools.product(*ranges):
        if sum(comp) == seen and problem.satisfied(comp):
            total += math.prod(
                math.comb(s, k) for s, k in zip(problem.group_sizes, comp, strict=True)
            )
    expected = Fraction(total, math.comb(problem.pile_size, seen))
    got = exact_odds(problem, Procedure(hand_size=0), Query(seen=seen))
    assert frac(got.probability_exact) == expected
    for s in range(len(problem.membership[0])):
        dist = distribution(problem, seen, s)
        assert sum(dist) == 1


def test_intractable_budget() -> None:
    sizes = (3,) * 12 + (20,)
    rows = (*(tuple(i == g for i in range(12)) for g in range(12)), (False,) * 12)
    tests = tuple(CountTest(s, ">=", 1) for s in range(12))
    problem = DrawProblem(sizes, rows, tests)
    procedure = pc_procedure(5, 3, lookahead=True)
    with pytest.raises(Intractable):
        exact_odds(problem, procedure, Query(seen=25), budget=20_000)
    with pytest.raises(Intractable):
        optimal_return_choice(problem, procedure, Query(seen=25), budget=20_000)
    # Without look-ahead or mulligan the same problem needs only the hypergeometric programme.
    plain = pc_procedure(5, 3, lookahead=False)
    exact_odds(problem, plain, Query(seen=25, use_mulligan=False), budget=20_000)


def test_lookahead_exhausting_the_pile_is_intractable() -> None:
    problem = one_selector(2, 6, CountTest(0, ">=", 1))
    procedure = Procedure(hand_size=2, draws_per_turn=1, lookahead=True)
    with pytest.raises(Intractable):
        exact_odds(problem, procedure, Query(seen=5))


def test_plain_query_work_is_bounded() -> None:
    # 80 cards, four conditions over overlapping selectors, 15 seen.
    rows = (
        (True, False, False, False),
        (True, True, False, False),
        (False, True, False, False),
        (False, False, True, False),
        (False, False, True, True),
        (False, False, False, True),
        (False, False, False, False),
    )
    problem = DrawProblem(
        (12, 4, 10, 8, 3, 6, 37),
        rows,
        (
            CountTest(0, ">=", 3),
            CountTest(1, ">=", 2),
            CountTest(2, "<=", 2),
            CountTest(3, "=", 1),
        ),
    )
    _, lines = lines_run(lambda: exact_odds(problem, Procedure(hand_size=7), Query(seen=15)))
    assert lines < 50_000  # about 6,600 today; enumerating hands would take millions


def test_pc_opening_mulligan_work_is_bounded() -> None:
    problem = DrawProblem(
        (6, 4, 3, 2, 45),
        (
            (True, False, False),
            (False, True, False),
            (True, True, False),
            (False, False, True),
            (False, False, False),
        ),
        (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, "<=", 0)),
    )
    procedure = pc_procedure(5, 3, lookahead=True)
    _, lines = lines_run(lambda: exact_odds(problem, procedure, Query(seen=6, second=True)))
    assert lines < 500_000  # about 70,000 today
