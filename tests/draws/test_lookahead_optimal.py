"""The optimal look-ahead: exact expectimax over labelled cards, and independent MDP checks.

The look-ahead (keep the top card or put it at the bottom) is a decision the player makes
knowing every card seen so far. Its optimal value is a finite-horizon expectimax: at a look,
the top card is uniform over the cards still in the pile, and the player takes the better of
keeping it and putting it under (then drawing the next card blind). The oracle here plays
that over labelled cards, with no grouping, classes or capped counts; the engine must agree as
a Fraction. The three queries of issue 19 are checked against an MDP over card groups written
here from scratch.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from deckcheck.analysis.odds import OddsOptions, bind, cards_seen, compute_odds, simulate_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.exact.odds import Intractable, exact_odds, optimal_keep_choice
from deckcheck.draws.exact.sequential import CALL_UNITS, STATE_BUDGET, SequentialEngine
from deckcheck.draws.facade import EXACT_WORK_LIMIT
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule
from deckcheck.draws.simulate.reference import simulate_reference

REPO = Path(__file__).resolve().parents[2]
PC50 = str(REPO / "examples/planetary-conquerors/legal-50.txt")
PC80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
SIGMAS = 4.5


class Expectimax:
    """P(success) under the best look-ahead play, over labelled cards (and the best return)."""

    def __init__(self, problem: DrawProblem, procedure: Procedure, query: Query) -> None:
        self.problem = problem
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.per_turn = procedure.draws_per_turn
        self.group = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
        self.cards = frozenset(range(len(self.group)))
        self._ways: dict[tuple[int, int, bool], int] = {}  # :meth:`ways`, per state

    def ok(self, held: frozenset[int]) -> bool:
        comp = [0] * len(self.problem.group_sizes)
        for c in held:
            comp[self.group[c]] += 1
        return self.problem.satisfied(comp)

    @functools.cache  # noqa: B019 - one oracle per test, dropped with it
    def won(self, held: int) -> bool:
        """:meth:`ok` of the cards ``held`` as bits."""
        return self.ok(frozenset(c for c in self.cards if held >> c & 1))

    def value(self, held: frozenset[int], pile: frozenset[int], looked: bool) -> Fraction:
        held_bits, pile_bits = sum(1 << c for c in held), sum(1 << c for c in pile)
        return Fraction(self.ways(held_bits, pile_bits, looked), math.factorial(len(pile)))

    def ways(self, held: int, pile: int, looked: bool) -> int:
        """The value times ``len(pile)!`` (``held`` and ``pile``: cards as bits): the top card
        is each of the pile's cards with probability 1 / len(pile), and every choice after it
        faces a pile one card shorter, so the scaled values of the cases (and the better of
        two choices) add up in integers."""
        key = (held, pile, looked)
        got = self._ways.get(key)
        if got is not None:
            return got
        n_held = held.bit_count()
        if n_held == self.seen:
            got = int(self.won(held)) * math.factorial(pile.bit_count())
        else:
            look = not looked and (n_held - self.hand) % self.per_turn == 0
            ways = self.ways
            got = 0
            left = pile
            while left:
                top = left & -left  # each card of the pile in turn
                left ^= top
                rest = pile ^ top
                keep = ways(held | top, rest, False)
                got += max(keep, ways(held, rest, True)) if look else keep
        self._ways[key] = got
        return got

    def after_hand(self, hand: frozenset[int]) -> Fraction:
        return self.value(hand, self.cards - hand, False)

    @functools.cache  # noqa: B019 - one oracle per test, dropped with it
    def _after_hands(self) -> dict[int, int]:
        """:meth:`ways` after each opening hand (as bits), the whole rest of the pile unseen."""
        everything = (1 << len(self.group)) - 1
        hands = (sum(1 << c for c in h) for h in itertools.combinations(self.cards, self.hand))
        return {h: self.ways(h, everything ^ h, False) for h in hands}

    def plain(self) -> Fraction:
        # Every hand leaves a pile of the same size: the values share one denominator.
        after = self._after_hands()
        scale = math.factorial(len(self.group) - self.hand)
        return Fraction(sum(after.values()), scale * len(after))

    def returning(self, count: int) -> Fraction:
        """Each hand either kept or ``count`` of its cards returned, the best of every choice:
        the new cards are any ``count`` of the cards not kept (the returned ones included)."""
        after = self._after_hands()
        draws = math.comb(len(self.group) - self.hand + count, count)

        @functools.cache
        def redrawn(kept: int) -> int:
            """The sum of :meth:`ways` over every ``count`` cards drawn to ``kept``."""
            rest = [c for c in self.cards if not kept >> c & 1]
            return sum(
                after[kept | sum(1 << c for c in d)] for d in itertools.combinations(rest, count)
            )

        # In units of one ``draws``-th of a hand's scaled value: a kept hand is worth its
        # value times ``draws``, a return the sum over the cards it may draw.
        total = 0
        for hand, kept_value in after.items():
            cards = [c for c in self.cards if hand >> c & 1]
            best = kept_value * draws
            for back in itertools.combinations(cards, count):
                best = max(best, redrawn(hand ^ sum(1 << c for c in back)))
            total += best
        scale = math.factorial(len(self.group) - self.hand)
        return Fraction(total, scale * draws * len(after))


def random_case(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
    """A small pile, up to 3 selectors with overlaps, a lower and an upper bound mixed."""
    n_sel = rng.randint(1, 3)
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    while sum(sizes) < rng.randint(6, 8):
        rows.append(tuple(rng.random() < 0.45 for _ in range(n_sel)))
        sizes.append(rng.randint(1, 3))
    tests = []
    for _ in range(rng.randint(1, 3)):
        s = rng.randrange(n_sel)
        op = rng.choice((">=", ">=", "<=", "<", "=", ">"))
        tests.append(CountTest(s, op, rng.randint(0 if op in ("<=", "=") else 1, 2)))
    problem = DrawProblem(tuple(sizes), tuple(rows), tuple(tests))
    hand = rng.randint(1, 3)
    per_turn = rng.choice((1, 2))
    later = rng.randint(1, 3)
    looks = -(-later // per_turn)
    later = min(later, problem.pile_size - hand - looks)
    procedure = Procedure(hand, draws_per_turn=per_turn, lookahead=True)
    return problem, procedure, Query(seen=hand + max(later, 0))


def interesting(seed: int) -> tuple[DrawProblem, Procedure, Query]:
    rng = random.Random(seed)
    for _ in range(100):
        case = random_case(rng)
        problem, procedure, query = case
        if query.seen <= procedure.hand_size:
            continue
        try:
            p = exact_odds(Request(problem, procedure, query)).probability
        except Intractable:
            continue
        if 0 < p < 1:
            return case
    raise AssertionError("no interesting case")


@pytest.mark.parametrize("seed", range(30))
def test_optimal_lookahead_matches_expectimax(seed: int) -> None:
    problem, procedure, query = interesting(7000 + seed)
    oracle = Expectimax(problem, procedure, query)
    result = exact_odds(Request(problem, procedure, query))
    assert result.fraction == oracle.plain()
    heuristic = exact_odds(Request(problem, procedure, query, "heuristic"))
    assert result.fraction is not None and heuristic.fraction is not None
    assert result.fraction >= heuristic.fraction


@pytest.mark.parametrize("seed", range(12))
def test_optimal_lookahead_with_return_matches_expectimax(seed: int) -> None:
    problem, procedure, query = interesting(8000 + seed)
    count = min(2, procedure.hand_size)
    procedure = Procedure(
        procedure.hand_size,
        draws_per_turn=procedure.draws_per_turn,
        mulligan=ReturnRule(count),
        lookahead=True,
    )
    oracle = Expectimax(problem, procedure, query)
    result = exact_odds(Request(problem, procedure, query))
    assert result.fraction == oracle.returning(count)
    assert result.fraction_without_mulligan == oracle.plain()


def test_the_keep_decision_reaches_the_optimum() -> None:
    """The simulator's decision table, played card by card, scores the exact optimum."""
    problem = DrawProblem(
        (3, 2, 5),
        ((True, False), (False, True), (False, False)),
        (CountTest(0, ">=", 2), CountTest(1, "<=", 0)),
    )
    procedure = Procedure(2, draws_per_turn=1, lookahead=True)
    query = Query(seen=5)
    keep = optimal_keep_choice(Request(problem, procedure, query))
    oracle = Expectimax(problem, procedure, query)
    group = oracle.group

    def counts(cards: frozenset[int]) -> list[int]:
        out = [0, 0, 0]
        for c in cards:
            out[group[c]] += 1
        return out

    @functools.cache
    def play(held: frozenset[int], pile: frozenset[int], looked: bool) -> int:
        """The value times ``len(pile)!``, as :meth:`Expectimax.ways` counts it."""
        if len(held) == query.seen:
            return int(oracle.ok(held)) * math.factorial(len(pile))
        total = 0
        for top in pile:
            rest = pile - {top}
            if looked:
                total += play(held | {top}, rest, False)
                continue
            gone = counts(oracle.cards - rest)
            if keep(counts(held), gone, group[top]):
                total += play(held | {top}, rest, False)
            else:
                total += play(held, rest, True)
        return total

    hands = [frozenset(h) for h in itertools.combinations(oracle.cards, 2)]
    scale = math.factorial(len(oracle.cards) - 2)
    played = sum(Fraction(play(h, oracle.cards - h, False), scale) for h in hands) / len(hands)
    assert played == oracle.plain() == exact_odds(Request(problem, procedure, query)).fraction


# ---------------------------------------------------------------- the three queries of issue 19


def group_mdp(problem: DrawProblem, procedure: Procedure, query: Query, count: int) -> float:
    """The optimal figure by an MDP over group counts, written independently of the engine:
    the optimal return of ``count`` cards, then turns of draws with the look-ahead."""
    sizes = problem.group_sizes
    hand_n = procedure.opening_size(query.second)
    later = query.seen - hand_n
    groups = range(len(sizes))

    def comps(bounds: tuple[int, ...], n: int) -> list[tuple[tuple[int, ...], float]]:
        total = math.comb(sum(bounds), n)
        out = []
        for comp in itertools.product(*(range(min(b, n) + 1) for b in bounds)):
            if sum(comp) == n:
                ways = math.prod(math.comb(b, k) for b, k in zip(bounds, comp, strict=True))
                out.append((comp, ways / total))
        return out

    def add(a: tuple[int, ...], g: int, k: int = 1) -> tuple[int, ...]:
        return tuple(x + (k if i == g else 0) for i, x in enumerate(a))

    @functools.cache
    def value(held: tuple[int, ...], pile: tuple[int, ...], j: int, looked: bool) -> float:
        if j == later:
            return float(problem.satisfied(held))
        total = sum(pile)
        look = not looked and j % procedure.draws_per_turn == 0
        v = 0.0
        for g in groups:
            if pile[g]:
                rest = add(pile, g, -1)
                keep = value(add(held, g), rest, j + 1, False)
                if look:
                    keep = max(keep, value(held, rest, j, True))
                v += pile[g] / total * keep
        return v

    def after(hand: tuple[int, ...]) -> float:
        return value(hand, tuple(s - h for s, h in zip(sizes, hand, strict=True)), 0, False)

    best_total = 0.0
    for hand, p in comps(sizes, hand_n):
        best = after(hand)
        for back in itertools.product(*(range(h + 1) for h in hand)):
            if sum(back) != count:
                continue
            kept = tuple(h - b for h, b in zip(hand, back, strict=True))
            pile = tuple(s - k for s, k in zip(sizes, kept, strict=True))
            v = sum(
                q * after(tuple(k + d for k, d in zip(kept, draw, strict=True)))
                for draw, q in comps(pile, count)
            )
            best = max(best, v)
        best_total += p * best
    return best_total


ISSUE_19 = [
    (["type:miner>=1", "type:trap<=1"], 3, False, 0.854213),
    (["type:warrior>=2", "type:trap<=1"], 3, False, 0.893753),
    (["type:warrior>=2", "type:trap<=1"], 2, True, 0.905561),
]


@pytest.mark.parametrize(("conditions", "turn", "second", "figure"), ISSUE_19)
def test_issue_19_queries_are_optimal(
    conditions: list[str], turn: int, second: bool, figure: float
) -> None:
    setup = draw_setup(open_deck(PC50))
    options = OddsOptions(turn=turn, second=second)
    report = compute_odds(setup, conditions, options)
    assert report.exact
    assert round(report.probability, 6) == figure
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    assert isinstance(bound.procedure.mulligan, ReturnRule)
    mdp = group_mdp(bound.problem, bound.procedure, Query(seen, second), 3)
    assert report.probability == pytest.approx(mdp, abs=1e-9)


def test_issue_19_simulate_plays_the_same_decisions() -> None:
    setup = draw_setup(open_deck(PC50))
    conditions, turn, second, figure = ISSUE_19[0]
    options = OddsOptions(turn=turn, second=second)
    trials = 100_000
    sim = simulate_odds(setup, conditions, options, trials, 11)
    assert any("optimal play" in a for a in sim.assumptions)
    se = math.sqrt(figure * (1 - figure) / trials)
    assert abs(sim.probability - figure) < SIGMAS * se
    # The plain-Python reference simulator with the same decision table agrees too.
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    query = Query(seen, second, use_mulligan=False)
    keep = optimal_keep_choice(Request(bound.problem, bound.procedure, query))
    exact = exact_odds(Request(bound.problem, bound.procedure, query)).probability
    ref = simulate_reference(bound.problem, bound.procedure, query, 20_000, 3, keep_top=keep)
    assert abs(ref.probability - exact) < SIGMAS * math.sqrt(exact * (1 - exact) / 20_000)


@pytest.mark.parametrize("seed", range(12))
def test_the_recursion_counts_its_calls_against_its_budget(seed: int) -> None:
    """The look-ahead's recursion is counted as it runs: a budget of the calls it takes is
    enough, one fewer stops it with Intractable (the estimate before starting holds only the
    mulligan's enumeration)."""
    problem, procedure, query = interesting(9000 + seed)
    policy = "heuristic" if seed % 3 == 2 else "optimal"
    engine = SequentialEngine(problem, procedure, query, (), STATE_BUDGET, policy)
    engine.without_mulligan()
    calls = engine.work
    again = SequentialEngine(problem, procedure, query, (), calls, policy)
    assert again.without_mulligan() == engine.without_mulligan()
    short = SequentialEngine(problem, procedure, query, (), calls - 1, policy)
    with pytest.raises(Intractable):
        short.without_mulligan()
    assert SequentialEngine(problem, procedure, query, (), 0, policy).estimate(None) == 0


def test_a_four_condition_query_at_turn_5_is_within_reach() -> None:
    """legal-80 with four conditions at turn 5 fits what the limit leaves the recursion."""
    setup = draw_setup(open_deck(PC80))
    conditions = ["type:warrior>=1", "type:building>=1", "type:miner>=1", "rarity:1>=2"]
    options = OddsOptions(turn=5)
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, 5)
    query = Query(seen, False, True, 5)
    engine = SequentialEngine(bound.problem, bound.procedure, query, (), 10**8)
    assert isinstance(bound.procedure.mulligan, ReturnRule)
    work = engine.estimate(bound.procedure.mulligan.count, EXACT_WORK_LIMIT)
    engine.return_table(bound.procedure.mulligan.count)
    assert engine.work <= work + (EXACT_WORK_LIMIT - work) // CALL_UNITS
