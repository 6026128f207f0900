"""The optimal redraw policy: a brute-force oracle that labels every card and plays it literally.

The oracle deals every labelled opening hand, averages success over every order of the later
draws (with the look-ahead played card by card where the procedure has one), and decides each
redraw by comparing the hand's own chance with the brute-force value of redrawing, recursively.
:func:`optimal_redraw_odds` must agree with it exactly (as Fractions) on many small random
problems, overlapping selectors and upper bounds included.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from conftest import lines_run

from deckcheck.draws import policies
from deckcheck.draws.exact import odds as exact
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.exact.odds import Intractable
from deckcheck.draws.exact.optimal_redraw import METHOD
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    Request,
    ReturnRule,
)


# The oracle below plays the look-ahead's rule of thumb (policies.lookahead_keep), so the
# engines are asked for that named policy here.
def exact_odds(problem: DrawProblem, procedure: Procedure, query: Query, **options: Any) -> Any:
    return exact.exact_odds(Request(problem, procedure, query, "heuristic"), **options)


def optimal_redraw_odds(
    problem: DrawProblem, procedure: Procedure, query: Query, **options: Any
) -> Any:
    request = Request(problem, procedure, query, "heuristic")
    return optimal_redraw.optimal_redraw_odds(request, **options)


def optimal_redraw_choice(
    problem: DrawProblem, procedure: Procedure, query: Query, **options: Any
) -> Any:
    request = Request(problem, procedure, query, "heuristic")
    return optimal_redraw.optimal_redraw_choice(request, **options)


WEIGHTED_OPS = (">=", ">=", ">", "<=", "<", "=")


def frac(text: str | None) -> Fraction:
    assert text is not None
    return Fraction(text)


#: The oracle's deals, per problem, triggers, hand, cards seen and look-ahead.
_DEALS: dict[tuple[object, ...], tuple[tuple[tuple[int, ...], Fraction, bool], ...]] = {}


class Oracle:
    """Labelled cards, every deal, every order of the later draws; decisions by brute force."""

    def __init__(self, problem: DrawProblem, procedure: Procedure, query: Query) -> None:
        rule = procedure.mulligan
        assert isinstance(rule, RedrawRule)
        self.problem = problem
        self.rule = rule
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.lookahead = procedure.lookahead and self.seen > self.hand
        self.per_turn = procedure.draws_per_turn
        self.group = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
        cards = range(len(self.group))
        looks = -(-(self.seen - self.hand) // self.per_turn) if self.lookahead else 0
        depth = self.seen - self.hand + looks  # most cards ever taken after the hand
        # The deals do not depend on the redraw limit: the cases of every limit (and the
        # search for a case, then its check) deal them once.
        key = (problem, rule.triggers, self.hand, self.seen, self.lookahead, self.per_turn)
        if key not in _DEALS:
            deals = []
            # A deal's value depends on how many cards of each group the hand holds (the pile
            # is the rest): every order is played for one hand of each such mix.
            by_mix: dict[tuple[int, ...], Fraction] = {}
            for hand in itertools.combinations(cards, self.hand):
                mix = self.comp(hand)
                keep = by_mix.get(mix)
                if keep is None:
                    pile = [c for c in cards if c not in hand]
                    orders = list(itertools.permutations(pile, min(depth, len(pile))))
                    wins = sum(
                        self.play(hand, list(o) + [c for c in pile if c not in o]) for o in orders
                    )
                    keep = by_mix[mix] = Fraction(wins, len(orders))
                deals.append((hand, keep, self.triggered(hand)))
            _DEALS[key] = tuple(deals)
        self.deals: list[tuple[tuple[int, ...], Fraction, bool]] = list(_DEALS[key])
        self._values: dict[int, Fraction] = {}

    def counts(self, cards: tuple[int, ...] | list[int]) -> list[int]:
        """Selector totals straight from the labelled cards' membership rows."""
        totals = [0] * len(self.problem.membership[0])
        for c in cards:
            for s, member in enumerate(self.problem.membership[self.group[c]]):
                totals[s] += member
        return totals

    def comp(self, cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        out = [0] * len(self.problem.group_sizes)
        for c in cards:
            out[self.group[c]] += 1
        return tuple(out)

    def triggered(self, hand: tuple[int, ...]) -> bool:
        totals = self.counts(hand)
        return any(t.holds(totals[t.selector]) for t in self.rule.triggers)

    def play(self, hand: tuple[int, ...], deck: list[int]) -> bool:
        held = list(hand)
        while len(held) < self.seen:
            if self.lookahead and (len(held) - self.hand) % self.per_turn == 0:
                top = deck[0]
                if not policies.lookahead_keep(self.problem, self.comp(held), self.group[top]):
                    deck.append(deck.pop(0))
            held.append(deck.pop(0))
        totals = self.counts(held)
        return all(c.holds(totals[c.selector]) for c in self.problem.conditions)

    def plain(self) -> Fraction:
        return sum((k for _, k, _ in self.deals), Fraction(0)) / len(self.deals)

    def value(self, left: int) -> Fraction:
        """Success with ``left`` redraws left, each decision the better of keep and redraw."""
        if left not in self._values:
            if left == 0:
                self._values[left] = self.plain()
            else:
                redraw = self.value(left - 1)
                total = Fraction(0)
                for _, keep, allowed in self.deals:
                    total += max(keep, redraw) if allowed else keep
                self._values[left] = total / len(self.deals)
        return self._values[left]

    def bellman(self, v: Fraction) -> Fraction:
        """One step of the unlimited-redraw equation, with a redraw worth ``v``."""
        total = Fraction(0)
        for _, keep, allowed in self.deals:
            total += max(keep, v) if allowed else keep
        return total / len(self.deals)

    def stationary(self, v: Fraction) -> Fraction:
        """Value of dealing until a hand with keep >= ``v`` (or not allowed) comes."""
        kept = [keep for _, keep, allowed in self.deals if not allowed or keep >= v]
        return sum(kept, Fraction(0)) / len(kept)


def random_tests(rng: random.Random, problem: DrawProblem, most: int) -> tuple[CountTest, ...]:
    n_sel = len(problem.membership[0])
    tests = []
    for _ in range(rng.randint(1, most)):
        s = rng.randrange(n_sel)
        hits = sum(
            k for k, row in zip(problem.group_sizes, problem.membership, strict=True) if row[s]
        )
        op = rng.choice(WEIGHTED_OPS)
        low = 0 if op in ("<=", "=") else 1
        tests.append(CountTest(s, op, rng.randint(low, max(1, min(hits, 3)))))  # type: ignore[arg-type]
    return tuple(tests)


def random_problem(rng: random.Random, max_cards: int = 9) -> DrawProblem:
    """Up to 3 selectors, cards matching any subset of them (overlaps included)."""
    n_sel = rng.randint(1, 3)
    n_cards = rng.randint(6, max_cards)
    rows: list[tuple[bool, ...]] = []
    sizes: list[int] = []
    while sum(sizes) < n_cards:
        rows.append(tuple(rng.random() < 0.45 for _ in range(n_sel)))
        sizes.append(min(rng.randint(1, 3), n_cards - sum(sizes)))
    bare = DrawProblem(tuple(sizes), tuple(rows), ())
    return DrawProblem(bare.group_sizes, bare.membership, random_tests(rng, bare, 3))


def random_case(seed: int, max_redraws: int | None) -> tuple[DrawProblem, Procedure, Query]:
    """The first case from ``seed`` that is neither certain nor hopeless and can redraw."""
    rng = random.Random(seed)
    while True:
        problem = random_problem(rng)
        rule = RedrawRule(random_tests(rng, problem, 2), max_redraws=max_redraws)
        hand = rng.randint(3, 4)
        seen = rng.randint(hand, min(problem.pile_size, hand + 2))
        procedure, query = Procedure(hand_size=hand, mulligan=rule), Query(seen=seen)
        plain = frac(
            exact_odds(problem, procedure, Query(seen, use_mulligan=False)).probability_exact
        )
        if plain in (0, 1):
            continue
        oracle = Oracle(problem, procedure, query)
        if any(allowed for *_, allowed in oracle.deals):
            return problem, procedure, query


def check_against_oracle(problem: DrawProblem, procedure: Procedure, query: Query) -> bool:
    """Assert every figure and decision against the oracle; True when optimal beats "always"."""
    rule = procedure.mulligan
    assert isinstance(rule, RedrawRule)
    oracle = Oracle(problem, procedure, query)
    result = optimal_redraw_odds(problem, procedure, query)
    value = frac(result.probability_exact)
    assert result.exact and result.method == METHOD
    assert result.probability == float(value)
    assert result.probability_without_mulligan == float(oracle.plain())
    choose = optimal_redraw_choice(problem, procedure, query)
    if rule.max_redraws is None:
        allowed = [keep for _, keep, a in oracle.deals if a]
        if len(allowed) == len(oracle.deals):
            # Documented: redraw until a best hand comes; worth max keep.
            assert value == max(allowed)
        else:
            # The equation has one fixed point when some hand must be kept: the optimum.
            assert oracle.bellman(value) == value
        assert oracle.stationary(value) == value  # and the policy played attains it
        assert value >= oracle.value(6)
        for hand, keep, a in oracle.deals:
            assert choose(oracle.comp(hand)) == (a and keep < value)
    else:
        assert value == oracle.value(rule.max_redraws)
        for left in range(rule.max_redraws + 1):
            for hand, keep, a in oracle.deals:
                redraw = left > 0 and a and oracle.value(left - 1) > keep
                assert choose(oracle.comp(hand), left) == redraw
        for hand, keep, a in oracle.deals:  # default: the first decision
            assert choose(oracle.comp(hand)) == (
                rule.max_redraws > 0 and a and oracle.value(rule.max_redraws - 1) > keep
            )
    always = frac(exact_odds(problem, procedure, query).probability_exact)
    assert value >= always and value >= oracle.plain()
    return value > always


@pytest.mark.parametrize("max_redraws", [0, 1, 2, None])
def test_matches_brute_force(max_redraws: int | None) -> None:
    better = 0
    for seed in range(45):
        problem, procedure, query = random_case(7000 + seed, max_redraws)
        better += check_against_oracle(problem, procedure, query)
    if max_redraws != 0:
        assert better >= 5  # the cases exercise decisions that differ from "always redraw"


SHIP_UNIT = DrawProblem(
    group_sizes=(2, 2, 1, 3),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 1)),
    selector_labels=("ship", "unit"),
)


@pytest.mark.parametrize("max_redraws", [0, 1, 2, None])
@pytest.mark.parametrize("seen", [3, 4, 5])
def test_overlapping_selectors_upper_bound(max_redraws: int | None, seen: int) -> None:
    rule = RedrawRule((CountTest(0, "<", 2), CountTest(1, "=", 2)), max_redraws=max_redraws)
    check_against_oracle(SHIP_UNIT, Procedure(hand_size=3, mulligan=rule), Query(seen=seen))


@pytest.mark.parametrize("max_redraws", [1, None])
def test_look_ahead_matches_brute_force(max_redraws: int | None) -> None:
    rule = RedrawRule((CountTest(0, "<", 1),), max_redraws=max_redraws)
    procedure = Procedure(hand_size=3, draws_per_turn=1, mulligan=rule, lookahead=True)
    problem = DrawProblem(
        group_sizes=(2, 2, 4),
        membership=((True, False), (False, True), (False, False)),
        conditions=(CountTest(0, ">=", 1), CountTest(1, "<=", 0)),
    )
    check_against_oracle(problem, procedure, Query(seen=5))


def test_every_hand_allowed_unlimited() -> None:
    problem = DrawProblem(((3, 5)), ((True,), (False,)), (CountTest(0, ">=", 2),))
    rule = RedrawRule((CountTest(0, ">=", 0),), max_redraws=None)
    procedure, query = Procedure(hand_size=3, mulligan=rule), Query(seen=4)
    result = optimal_redraw_odds(problem, procedure, query)
    # Best hand holds all 3 copies: success is certain, and redrawing until it comes is too.
    assert frac(result.probability_exact) == 1
    assert any("every hand allows a redraw" in n for n in result.notes)
    check_against_oracle(problem, procedure, query)
    choose = optimal_redraw_choice(problem, procedure, query)
    assert not choose((3, 0)) and not choose((2, 1)) and choose((0, 3))


# --------------------------------------------------------------------------------------------
# Ren Dhark
# --------------------------------------------------------------------------------------------

REN_TRIGGERS = (CountTest(0, "<", 2), CountTest(1, ">", 3))  # fewer than 2 ships, >3 actions


def ren_dhark(*conditions: CountTest) -> DrawProblem:
    return DrawProblem(
        group_sizes=(15, 6, 11),
        membership=((True, False), (False, True), (False, False)),
        conditions=conditions,
        selector_labels=("ship", "action"),
    )


@pytest.mark.parametrize("max_redraws", [1, 2, None])
def test_many_actions_optimal_beats_always(max_redraws: int | None) -> None:
    # Asking for 4+ actions: "redraw whenever allowed" throws every winning hand away.
    problem = ren_dhark(CountTest(1, ">=", 4))
    procedure = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, max_redraws))
    query = Query(seen=7)
    best = optimal_redraw_odds(problem, procedure, query)
    always = exact_odds(problem, procedure, query)
    assert frac(best.probability_exact) > frac(always.probability_exact)
    assert best.probability > always.probability
    assert best.probability >= best.probability_without_mulligan
    assert always.probability < always.probability_without_mulligan  # it does hurt
    choose = optimal_redraw_choice(problem, procedure, query)
    assert not choose((1, 4, 2))  # 4 actions: allowed (and <2 ships) but kept
    assert choose((1, 2, 4))  # 1 ship, 2 actions: no chance if kept; redraw


def test_ren_dhark_realistic_work_is_bounded() -> None:
    problem = ren_dhark(CountTest(0, ">=", 2), CountTest(1, ">=", 1))

    def every_rule() -> None:
        for max_redraws in (0, 1, 2, None):
            procedure = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, max_redraws))
            for seen in (7, 9):
                query = Query(seen=seen)
                result = optimal_redraw_odds(problem, procedure, query, budget=10**9)
                always = exact_odds(problem, procedure, query)
                assert result.probability >= always.probability - 1e-15
                assert frac(result.probability_exact) >= frac(always.probability_exact)
                assert result.probability >= result.probability_without_mulligan
                optimal_redraw_choice(problem, procedure, query)

    _, lines = lines_run(every_rule)
    assert lines < 1_500_000  # about 220,000 today


def test_monotone_in_redraws() -> None:
    problem = ren_dhark(CountTest(0, ">=", 3), CountTest(1, "=", 1))
    values = []
    for max_redraws in (0, 1, 2, 3, None):
        procedure = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, max_redraws))
        values.append(
            frac(optimal_redraw_odds(problem, procedure, Query(seen=8)).probability_exact)
        )
    assert values == sorted(values) and values[0] < values[-1]


# --------------------------------------------------------------------------------------------
# Edges
# --------------------------------------------------------------------------------------------


def test_budget() -> None:
    problem = ren_dhark(CountTest(0, ">=", 2), CountTest(1, ">=", 1))
    procedure = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, 1))
    with pytest.raises(Intractable):
        optimal_redraw_odds(problem, procedure, Query(seen=9), budget=2)
    with pytest.raises(Intractable):
        optimal_redraw_choice(problem, procedure, Query(seen=9), budget=2)
    # A million redraws: an exact fraction too long to print; refused before computing.
    many = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, 10**6))
    with pytest.raises(Intractable):
        optimal_redraw_odds(problem, many, Query(seen=9), budget=10**12)


def test_mulligan_off_and_bad_input() -> None:
    problem = ren_dhark(CountTest(0, ">=", 2))
    procedure = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, 1))
    off = optimal_redraw_odds(problem, procedure, Query(seen=7, use_mulligan=False))
    plain = exact_odds(problem, procedure, Query(seen=7, use_mulligan=False))
    assert off.probability_exact == plain.probability_exact
    assert off.probability == off.probability_without_mulligan
    choose = optimal_redraw_choice(problem, procedure, Query(seen=7, use_mulligan=False))
    assert not choose((0, 6, 1))
    with pytest.raises(ValueError):
        optimal_redraw_odds(problem, Procedure(hand_size=7, mulligan=ReturnRule(3)), Query(7))
    with pytest.raises(ValueError):
        optimal_redraw_odds(problem, procedure, Query(seen=6))
    choose = optimal_redraw_choice(problem, procedure, Query(seen=7))
    with pytest.raises(ValueError):
        choose((1, 1, 1))  # not 7 cards
    with pytest.raises(ValueError):
        choose((0, 6, 1), 2)  # only one redraw in the rule
    unlimited = Procedure(hand_size=7, mulligan=RedrawRule(REN_TRIGGERS, None))
    with pytest.raises(ValueError):
        optimal_redraw_choice(problem, unlimited, Query(seen=7))((0, 6, 1), 1)
