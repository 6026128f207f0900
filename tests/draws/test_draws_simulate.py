"""The simulators against each other and against exact values.

Exact values come from small enumerations written here (hypergeometric with ``math.comb``, the
redraw recurrence, the return choice and a card-by-card look-ahead recursion), and, where the
lead's exact engine is present, from ``deckcheck.draws.exact.odds`` too. Estimates must agree within
4.5 standard errors; every run is seeded, so the tests are deterministic. The pure-Python
reference runs 10,000 trials: its tolerance (at most 0.023) stays well under the smallest effect
of a rule it is checked on (0.04, a redraw), while the vectorised runs keep the fine checks.

The vectorised runs take the fewest of 100,000, 200,000 and 400,000 trials at which every
change of the rules that 400,000 trials catch (by 4.5 standard errors or more: an operator or a
threshold of a condition or a trigger, one redraw more or fewer, the return's count, a hand one
card bigger, the other player's hand, the look-ahead switched or its queue reordered, cards seen
one more or fewer) moves the answer by at least 9.5 standard errors, so that a wrong rule fails
the check at 4.5 by 5 standard errors more, and the seeded run still fails on every change that
failed it with 400,000 trials; where no fewer trials do, 400,000.
"""

from __future__ import annotations

import math
import operator
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from deckcheck.draws.answer import Answer as SimulationResult
from deckcheck.draws.answer import wilson_interval
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    Request,
    ReturnRule,
)
from deckcheck.draws.policies import greedy_return, lookahead_keep, redraw_allowed
from deckcheck.draws.simulate import dealer, reference
from deckcheck.draws.simulate.reference import simulate_reference
from deckcheck.draws.simulate.sampling import SamplingMethod, sampling_method

np = pytest.importorskip("numpy")
from deckcheck.draws.simulate import vectorised  # noqa: E402
from deckcheck.draws.simulate.vectorised import FixedPileSampler, simulate_vectorised  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TOLERANCE = 4.5  # standard errors
REF_TRIALS = 10_000
VEC_TRIALS = 100_000
FINE_TRIALS = 400_000  # see the module's docstring

Chooser = Callable[[tuple[int, ...]], "Sequence[int] | None"]

# -- problems -------------------------------------------------------------------------------

# Ren Dhark-like: 15 ships, 6 actions, 12 others; selectors: 0 = ship, 1 = action.
RD = DrawProblem(
    group_sizes=(15, 6, 12),
    membership=((True, False), (False, True), (False, False)),
    conditions=(CountTest(0, ">=", 3), CountTest(1, ">=", 1)),
    selector_labels=("type:ship", "type:action"),
)
RD_TRIGGERS = (CountTest(0, "<", 2), CountTest(1, ">", 3))

# Planetary Conquerors-like: 40 cards; selectors 0 = miner (4), 1 = spell (6); the 2 cards of
# group 2 are both (a condition on either counts them), the rest match nothing.
PC = DrawProblem(
    group_sizes=(4, 6, 2, 28),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, ">=", 2)),
    selector_labels=("type:miner", "type:spell"),
)
PC_PROC = Procedure(hand_size=5, hand_size_second=6, draws_per_turn=2, lookahead=True)


def pc_table(hand: tuple[int, ...]) -> tuple[int, ...] | None:
    """A supplied return table: with 3+ blanks and no miner, return three blanks."""
    if hand[3] >= 3 and hand[0] + hand[2] == 0:
        return (0, 0, 0, 3)
    return None


# -- exact values by enumeration -------------------------------------------------------------


def compositions(sizes: Sequence[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``n`` cards with at most ``sizes[g]`` of group ``g``."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for k in range(min(sizes[0], n) + 1):
        for rest in compositions(sizes[1:], n - k):
            yield (k, *rest)


def mvh(sizes: Sequence[int], n: int) -> list[tuple[tuple[int, ...], float]]:
    """The multivariate hypergeometric distribution of ``n`` cards dealt from ``sizes``."""
    total = math.comb(sum(sizes), n)
    out = []
    for comp in compositions(sizes, n):
        ways = math.prod(math.comb(s, k) for s, k in zip(sizes, comp, strict=True))
        out.append((comp, ways / total))
    return out


def add(a: Sequence[int], b: Sequence[int], sign: int = 1) -> tuple[int, ...]:
    assert len(a) == len(b) and sign in (1, -1)
    return tuple(map(operator.add if sign == 1 else operator.sub, a, b))


def exact_value(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    chooser: Chooser | None = None,
) -> tuple[float, float]:
    """(with mulligan, without) by enumeration, following the rules as RULES.md states them."""
    sizes = problem.group_sizes
    hand_n = procedure.opening_size(query.second)
    later = query.seen - hand_n
    per_turn = procedure.draws_per_turn
    unit = [tuple(int(i == g) for i in range(len(sizes))) for g in range(len(sizes))]

    @cache
    def after(held: tuple[int, ...], under: tuple[int, ...], j: int) -> float:
        """P(success) holding ``held``, with ``under`` put at the bottom, at later draw j."""
        if j == later:
            return float(problem.satisfied(held))
        pile = add(add(sizes, held, -1), under, -1)
        total = sum(pile)
        assert total > 0, "test cases never reach the cards put under the pile"
        value = 0.0
        for g, n in enumerate(pile):
            if not n:
                continue
            p = n / total
            bump = unit[g]
            if procedure.lookahead and j % per_turn == 0 and not lookahead_keep(problem, held, g):
                rest = add(pile, bump, -1)
                for g2, n2 in enumerate(rest):
                    if n2:
                        bump2 = unit[g2]
                        value += (
                            p * n2 / (total - 1) * after(add(held, bump2), add(under, bump), j + 1)
                        )
            else:
                value += p * after(add(held, bump), under, j + 1)
        return value

    none = (0,) * len(sizes)
    hands = mvh(sizes, hand_n)
    plain = sum(p * after(h, none, 0) for h, p in hands)
    rule = procedure.mulligan if query.use_mulligan else None
    if isinstance(rule, RedrawRule):
        clean = sum(p * after(h, none, 0) for h, p in hands if not redraw_allowed(rule, problem, h))
        trig = sum(p for h, p in hands if redraw_allowed(rule, problem, h))
        if rule.max_redraws is None:
            return clean / (1 - trig), plain
        value = plain
        for _ in range(rule.max_redraws):
            value = clean + trig * value
        return value, plain
    if isinstance(rule, ReturnRule):
        choose = chooser or (lambda h: greedy_return(problem, h, rule.count))
        redrawn = cache(lambda pile: mvh(pile, rule.count))  # hands keep the same parts
        value = 0.0
        for h, p in hands:
            ret = choose(h)
            if ret is None or not any(ret):
                value += p * after(h, none, 0)
                continue
            kept = add(h, ret, -1)
            for d, q in redrawn(add(sizes, kept, -1)):
                value += p * q * after(add(kept, d), none, 0)
        return value, plain
    return plain, plain


def hypergeometric_at_least(size: int, pile: int, seen: int, k: int) -> float:
    """P(at least k of ``size`` marked cards among ``seen`` of ``pile``), with math.comb."""
    total = math.comb(pile, seen)
    return (
        sum(math.comb(size, i) * math.comb(pile - size, seen - i) for i in range(k, seen + 1))
        / total
    )


# -- helpers ---------------------------------------------------------------------------------


def close(estimate: float, trials: int, exact: float) -> bool:
    se = math.sqrt(exact * (1 - exact) / trials)
    return abs(estimate - exact) <= TOLERANCE * se + 1e-12


def agree(a: SimulationResult, b: SimulationResult, wm: bool = True) -> bool:
    pa = a.probability if wm else a.probability_without_mulligan
    pb = b.probability if wm else b.probability_without_mulligan
    p = (pa * a.trials + pb * b.trials) / (a.trials + b.trials)
    se = math.sqrt(p * (1 - p) * (1 / a.trials + 1 / b.trials))
    return abs(pa - pb) <= TOLERANCE * se + 1e-12


@dataclass(frozen=True)
class Case:
    name: str
    problem: DrawProblem
    procedure: Procedure
    query: Query
    chooser: Chooser | None = None
    trials: int = VEC_TRIALS  # of the vectorised run


CASES = [
    Case("plain hand", RD, Procedure(7), Query(7)),
    Case("plain by turn 4", RD, Procedure(7), Query(10)),
    Case(
        "redraw once",
        RD,
        Procedure(7, mulligan=RedrawRule(RD_TRIGGERS, 1)),
        Query(7),
        trials=FINE_TRIALS,
    ),
    Case(
        "redraw twice, turn 3",
        RD,
        Procedure(7, mulligan=RedrawRule(RD_TRIGGERS, 2)),
        Query(9),
        trials=FINE_TRIALS,
    ),
    Case(
        "redraw unlimited",
        RD,
        Procedure(7, mulligan=RedrawRule(RD_TRIGGERS, None)),
        Query(7),
        trials=FINE_TRIALS,
    ),
    Case(
        "redraw unlimited, turn 2",
        RD,
        Procedure(7, mulligan=RedrawRule(RD_TRIGGERS, None)),
        Query(8),
        trials=FINE_TRIALS,
    ),
    Case(
        "redraw off",
        RD,
        Procedure(7, mulligan=RedrawRule(RD_TRIGGERS, 1)),
        Query(7, use_mulligan=False),
    ),
    Case(
        "return 3 greedy, hand",
        PC,
        replace(PC_PROC, lookahead=False, mulligan=ReturnRule(3)),
        Query(5),
    ),
    Case(
        "return 3 greedy, later draws",
        PC,
        replace(PC_PROC, lookahead=False, mulligan=ReturnRule(3)),
        Query(8, second=True),
        trials=FINE_TRIALS,
    ),
    Case(
        "return 3 table",
        PC,
        replace(PC_PROC, lookahead=False, mulligan=ReturnRule(3)),
        Query(7),
        pc_table,
        FINE_TRIALS,
    ),
    Case("look-ahead", PC, PC_PROC, Query(9), trials=FINE_TRIALS),
    Case("look-ahead, second player", PC, PC_PROC, Query(10, second=True)),
    Case(
        "look-ahead, return 3 greedy",
        PC,
        replace(PC_PROC, mulligan=ReturnRule(3)),
        Query(9),
        trials=FINE_TRIALS // 2,  # a condition's "<=": 8.4 standard errors of 100,000, 11.9 here
    ),
    Case(
        "look-ahead, return 3 table",
        PC,
        replace(PC_PROC, mulligan=ReturnRule(3)),
        Query(8),
        pc_table,
    ),
]


@cache
def run_both(case: Case) -> tuple[SimulationResult, SimulationResult]:
    ref = simulate_reference(case.problem, case.procedure, case.query, REF_TRIALS, 11, case.chooser)
    vec = simulate_vectorised(
        case.problem, case.procedure, case.query, case.trials, 12, case.chooser
    )
    return ref, vec


# -- tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_simulators_agree_with_enumeration(case: Case) -> None:
    exact, exact_plain = exact_value(case.problem, case.procedure, case.query, case.chooser)
    ref, vec = run_both(case)
    for result in (ref, vec):
        assert close(result.probability, result.trials, exact), (result, exact)
        assert close(result.probability_without_mulligan, result.trials, exact_plain), (
            result,
            exact_plain,
        )
        assert result.ci95[0] <= result.probability <= result.ci95[1]
    assert agree(ref, vec)
    assert agree(ref, vec, wm=False)


def test_enumeration_matches_math_comb() -> None:
    """The test's own enumerator against the closed form, so the oracle is checked too."""
    single = replace(RD, conditions=(CountTest(0, ">=", 2),))
    for seen in (7, 10):
        got, _ = exact_value(single, Procedure(7), Query(seen))
        assert got == pytest.approx(hypergeometric_at_least(15, 33, seen, 2), abs=1e-12)


@pytest.mark.parametrize("seen", [7, 12, 20])
def test_plain_draw_against_math_comb(seen: int) -> None:
    problem = replace(RD, conditions=(CountTest(0, ">=", 4),))
    exact = hypergeometric_at_least(15, 33, seen, 4)
    vec = simulate_vectorised(problem, Procedure(7), Query(seen), FINE_TRIALS, 3)
    ref = simulate_reference(problem, Procedure(7), Query(seen), REF_TRIALS, 3)
    assert close(vec.probability, vec.trials, exact)
    assert close(ref.probability, ref.trials, exact)
    assert vec.probability == vec.probability_without_mulligan


def assert_hypergeometric(draws: Any, sizes: tuple[int, ...], n: int) -> None:
    """Columns of counts per group, ``n`` cards each: every composition comes with its
    multivariate hypergeometric probability (those too rare to test one by one, together)."""
    assert (draws.sum(axis=0) == n).all()
    assert (draws <= np.asarray(sizes).reshape(-1, 1)).all()
    trials = draws.shape[1]
    # Each column as one mixed-radix number (digit g below sizes[g] + 1): a 1-D unique.
    radix = [math.prod(s + 1 for s in sizes[:g]) for g in range(len(sizes))]
    keys, counts = np.unique(np.asarray(radix, dtype=np.int64) @ draws, return_counts=True)
    found = dict(zip(keys.tolist(), counts.tolist(), strict=True))
    freq = {
        comp: found.get(sum(r * k for r, k in zip(radix, comp, strict=True)), 0) / trials
        for comp, _ in mvh(sizes, n)
    }
    rare_p = rare_freq = 0.0
    for comp, p in mvh(sizes, n):
        if p * trials < 20:
            rare_p, rare_freq = rare_p + p, rare_freq + freq.get(comp, 0.0)
            continue
        assert close(freq.get(comp, 0.0), trials, p), (comp, p, freq.get(comp))
    assert close(rare_freq, trials, rare_p)


@pytest.mark.parametrize(
    ("sizes", "n", "numpy_sampler"),
    [((3, 1, 5, 7), 6, False), ((7, 0, 3), 9, False), ((2, 1, 2, 1, 2, 1, 3), 5, True)],
)
def test_fixed_pile_sampler_distribution(
    sizes: tuple[int, ...], n: int, numpy_sampler: bool
) -> None:
    """Every composition's frequency matches the multivariate hypergeometric probability."""
    sampler = FixedPileSampler(sizes, n)
    assert sampler.use_numpy == numpy_sampler
    assert_hypergeometric(sampler.sample(np.random.default_rng(5), 200_000), sizes, n)


@pytest.mark.parametrize(("sizes", "n"), [((3, 1, 5, 7), 6), ((2, 2), 4), ((9, 0, 4), 3)])
def test_dealing_positions_gives_the_hypergeometric_distribution(
    sizes: tuple[int, ...], n: int
) -> None:
    """Positions dealt twice in a deal are drawn again: on small piles, where that happens in
    most deals (6 cards of 16: 85%; 4 of 4: every deal), every composition still comes with
    its multivariate hypergeometric probability."""
    sampler = FixedPileSampler(sizes, n, SamplingMethod.POSITIONS)  # chosen for big piles only
    assert_hypergeometric(sampler.sample(np.random.default_rng(11), 200_000), sizes, n)


def test_a_few_cards_from_hundreds_of_groups_are_dealt_by_position() -> None:
    """A 12,000-card pile in 360 groups: short deals go by position; merged into three
    groups, their counts follow the multivariate hypergeometric distribution."""
    sizes = (*(10 + g % 50 for g in range(359)), 1_500)
    for n in (7, 26, 60):
        assert sampling_method(sizes, n) is SamplingMethod.POSITIONS
    # Past the tables' size, positions still beat the marginal method while duplicates are
    # few enough (150**2 <= 5 * 14,000), then no longer.
    assert sampling_method(sizes, 150) is SamplingMethod.POSITIONS
    assert sampling_method(sizes, 300) is SamplingMethod.MARGINALS
    assert sampling_method((3, 1, 5, 7), 6) is SamplingMethod.TABLES
    n = 26
    draws = FixedPileSampler(sizes, n).sample(np.random.default_rng(12), 100_000)
    assert (draws.sum(axis=0) == n).all()
    merged = np.stack([draws[:100].sum(axis=0), draws[100:359].sum(axis=0), draws[359]])
    assert_hypergeometric(merged, (sum(sizes[:100]), sum(sizes[100:359]), sizes[359]), n)


def test_redraw_cap_terminates(monkeypatch: pytest.MonkeyPatch) -> None:
    """A trigger that every hand meets must not loop forever: the hand is kept at the cap
    (the mechanism, not the scale: a cap of 50 redraws in place of the simulators' own)."""
    for module in (dealer, reference, vectorised):
        monkeypatch.setattr(module, "REDRAW_CAP", 50)
    always = RedrawRule((CountTest(0, ">=", 0),), None)
    proc = Procedure(7, mulligan=always)
    vec = simulate_vectorised(RD, proc, Query(7), 2_000, 1)
    ref = simulate_reference(RD, proc, Query(7), 10, 1)
    assert any("limit" in n for n in vec.notes)
    assert any("limit" in n for n in ref.notes)
    # Kept at the cap, the hand is just another random hand: the plain odds.
    plain, _ = exact_value(RD, Procedure(7), Query(7))
    assert close(vec.probability, vec.trials, plain)


def test_same_seed_same_result() -> None:
    case = CASES[3]
    a = simulate_vectorised(case.problem, case.procedure, case.query, 100_000, 99)
    b = simulate_vectorised(case.problem, case.procedure, case.query, 100_000, 99)
    c = simulate_vectorised(case.problem, case.procedure, case.query, 100_000, 100)
    assert a == b
    assert (
        a.successes != c.successes
        or a.probability_without_mulligan != c.probability_without_mulligan
    )
    r1 = simulate_reference(case.problem, case.procedure, case.query, 2_000, 99)
    r2 = simulate_reference(case.problem, case.procedure, case.query, 2_000, 99)
    assert r1 == r2


def test_progress_reports_every_trial() -> None:
    calls: list[tuple[int, int]] = []
    simulate_vectorised(
        RD, Procedure(7), Query(7), 700_000, 1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (700_000, 700_000)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_seed_none_is_reported() -> None:
    result = simulate_vectorised(RD, Procedure(7), Query(7), 1_000, None)
    again = simulate_vectorised(RD, Procedure(7), Query(7), 1_000, result.seed)
    assert result.successes == again.successes


@pytest.mark.parametrize("seen", [-1, 6, 34])
def test_impossible_queries_raise(seen: int) -> None:
    with pytest.raises(ValueError):
        simulate_vectorised(RD, Procedure(7), Query(seen), 100, 1)
    with pytest.raises(ValueError):
        simulate_reference(RD, Procedure(7), Query(seen), 100, 1)


def test_bad_return_choice_raises() -> None:
    proc = replace(PC_PROC, lookahead=False, mulligan=ReturnRule(3))
    for sim in (simulate_vectorised, simulate_reference):
        with pytest.raises(ValueError):
            sim(PC, proc, Query(5), 100, 1, lambda h: (0, 0, 0, 2))


def test_numpy_not_imported_by_reference() -> None:
    code = (
        "import sys, deckcheck.draws.simulate.reference, deckcheck.draws.answer;"
        "assert 'numpy' not in sys.modules, 'numpy imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 20, 0.0089, 0.2361),
        (930, 1000, 0.9125, 0.9442),
    ],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


# -- against the exact engine, when it is there -----------------------------------------------


EXACT_CASES = [
    c for c in CASES if c.chooser is None and not isinstance(c.procedure.mulligan, ReturnRule)
]


@pytest.mark.parametrize("case", EXACT_CASES, ids=[c.name for c in EXACT_CASES])
def test_against_exact_engine(case: Case) -> None:
    exact = pytest.importorskip("deckcheck.draws.exact.odds")
    # The simulators' default look-ahead is the rule of thumb: ask the engine for the same.
    odds = exact.exact_odds(Request(case.problem, case.procedure, case.query, "heuristic"))
    ref, vec = run_both(case)
    for result in (ref, vec):
        assert close(result.probability, result.trials, odds.probability)
        assert close(
            result.probability_without_mulligan, result.trials, odds.probability_without_mulligan
        )


@pytest.mark.parametrize("lookahead", [False, True])
def test_optimal_return_against_exact_engine(lookahead: bool) -> None:
    exact = pytest.importorskip("deckcheck.draws.exact.odds")
    proc = replace(PC_PROC, lookahead=lookahead, mulligan=ReturnRule(3))
    query = Query(8)
    odds = exact.exact_odds(Request(PC, proc, query, "heuristic"))
    choose = exact.optimal_return_choice(Request(PC, proc, query, "heuristic"))
    ref = simulate_reference(PC, proc, query, REF_TRIALS, 21, choose)
    vec = simulate_vectorised(PC, proc, query, FINE_TRIALS, 22, choose)
    mine, _ = exact_value(PC, proc, query, choose)
    assert mine == pytest.approx(odds.probability, abs=1e-9)
    for result in (ref, vec):
        assert close(result.probability, result.trials, odds.probability)
        assert close(
            result.probability_without_mulligan, result.trials, odds.probability_without_mulligan
        )


def test_lookahead_reaching_cards_put_under() -> None:
    """A small pile seen almost to the end: the cards put under it are drawn again, in order."""
    small = DrawProblem(
        group_sizes=(2, 3, 7),
        membership=((True, False), (False, True), (False, False)),
        conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 2)),
    )
    proc = Procedure(hand_size=5, draws_per_turn=2, lookahead=True)
    query = Query(11)
    ref = simulate_reference(small, proc, query, 2 * REF_TRIALS, 5)
    vec = simulate_vectorised(small, proc, query, VEC_TRIALS, 6)
    assert agree(ref, vec)
    exact = exact_with_queue(small, proc, query)
    assert close(vec.probability, vec.trials, exact)
    assert close(ref.probability, ref.trials, exact)


def exact_with_queue(problem: DrawProblem, procedure: Procedure, query: Query) -> float:
    """Look-ahead odds (no mulligan) that follow the cards put under the pile, in order."""
    sizes = problem.group_sizes
    hand_n = procedure.opening_size(query.second)
    later = query.seen - hand_n

    def deal(
        held: tuple[int, ...], under: tuple[int, ...]
    ) -> list[tuple[float, int, tuple[int, ...]]]:
        """(probability, card, cards still under) for the next card off the pile."""
        pile = list(add(sizes, held, -1))
        for card in under:
            pile[card] -= 1
        total = sum(pile)
        if total == 0:
            return [(1.0, under[0], under[1:])]
        return [(n / total, g, under) for g, n in enumerate(pile) if n]

    @cache
    def after(held: tuple[int, ...], under: tuple[int, ...], j: int) -> float:
        if j == later:
            return float(problem.satisfied(held))
        value = 0.0
        for p, top, rest in deal(held, under):
            bump = tuple(int(i == top) for i in range(len(sizes)))
            if j % procedure.draws_per_turn == 0 and not lookahead_keep(problem, held, top):
                # The top card goes under; `held` plus the queue must not count it as dealt.
                for p2, card, rest2 in deal(held, (*rest, top)):
                    bump2 = tuple(int(i == card) for i in range(len(sizes)))
                    value += p * p2 * after(add(held, bump2), rest2, j + 1)
            else:
                value += p * after(add(held, bump), rest, j + 1)
        return value

    return sum(p * after(h, (), 0) for h, p in mvh(sizes, hand_n))
