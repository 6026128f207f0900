"""The plain draw's programme over capped counts (draws/capped.py): exact against brute force
and an independent enumeration, many conditions on large decks in reach, work counted before
starting (never timed), progress reported by the exact engine."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from conftest import lines_run

from deckcheck.draws.answer import Method
from deckcheck.draws.exact.capped import PlainProgramme, class_order, plain_ways_upto
from deckcheck.draws.exact.compositions import compositions, ways
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.facade import EXACT_WORK_LIMIT, Mode, Policy, solve, solve_turns
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule, Request

OPS = (">=", "<=", "=", ">", "<")


def random_problem(rng: random.Random, most_cards: int = 6) -> DrawProblem:
    n_sel = rng.randint(1, 5)
    n_groups = rng.randint(1, 6)
    sizes = tuple(rng.randint(0, most_cards) for _ in range(n_groups))
    membership = tuple(tuple(rng.random() < 0.45 for _ in range(n_sel)) for _ in range(n_groups))
    conditions = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(0, 3))
        for _ in range(rng.randint(1, 5))
    )
    return DrawProblem(sizes, membership, conditions)


def brute_force(problem: DrawProblem, seen: int) -> int:
    """Seen-card subsets of the actual cards on which the conditions hold."""
    cards = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    good = 0
    judged: dict[tuple[int, ...], bool] = {}  # every subset counted, each holding judged once
    for subset in itertools.combinations(range(len(cards)), seen):
        held = [0] * len(problem.group_sizes)
        for i in subset:
            held[cards[i]] += 1
        key = tuple(held)
        ok = judged.get(key)
        if ok is None:
            ok = judged[key] = problem.satisfied(held)
        good += ok
    return good


def by_compositions(problem: DrawProblem, seen: int) -> int:
    """The same count by enumerating the hand's compositions over the groups."""
    sizes = problem.group_sizes
    return sum(ways(sizes, c) for c in compositions(sizes, seen) if problem.satisfied(c))


@pytest.mark.parametrize("seed", range(6))
def test_every_number_seen_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        problem = random_problem(rng, most_cards=3)
        n = problem.pile_size
        red = reduce_problem(problem)
        got = plain_ways_upto(red, n)
        assert got == [brute_force(problem, s) for s in range(n + 1)]


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_part_and_a_smaller_pile_match_enumeration(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(30):
        problem = random_problem(rng)
        red = reduce_problem(problem)
        kept = tuple(rng.randint(0, s) for s in red.sizes)
        pile = tuple(s - k for s, k in zip(red.sizes, kept, strict=True))
        most = rng.randint(0, sum(pile))
        got = plain_ways_upto(red, most, pile, red.cond.of(kept))
        for s in range(most + 1):
            want = sum(
                ways(pile, c)
                for c in compositions(pile, s)
                if red.cond.all_hold(red.cond.of([a + b for a, b in zip(kept, c, strict=True)]))
            )
            assert got[s] == want


def many_conditions(deck: int) -> DrawProblem:
    """Ten overlapping conditions (lower and upper bounds) on a deck of ``deck`` cards: 13
    selectors-worth of categories spread over a few dozen groups."""
    rng = random.Random(deck)
    n_sel = 10
    rows = sorted({tuple(rng.random() < 0.3 for _ in range(n_sel)) for _ in range(40)})
    rows = [r for r in rows if any(r)] + [(False,) * n_sel]
    share = deck // (2 * len(rows))
    sizes = [max(1, share + rng.randint(-share // 2, share // 2)) for _ in rows[:-1]]
    sizes.append(deck - sum(sizes))
    conditions = tuple(
        CountTest(s, "<=" if s % 4 == 3 else ">=", 1 + (s % 3 == 0)) for s in range(n_sel)
    )
    return DrawProblem(tuple(sizes), tuple(rows), conditions)


def test_ten_conditions_match_an_independent_enumeration() -> None:
    problem = many_conditions(60)
    answer = solve(problem, Procedure(hand_size=4), Query(seen=4))
    want = Fraction(by_compositions(problem, 4), math.comb(problem.pile_size, 4))
    assert 0 < want < 1
    assert answer.method is Method.HYPERGEOMETRIC
    assert answer.fraction == want


@pytest.mark.parametrize(("deck", "seen"), [(40, 26), (1_000, 26), (12_000, 11)])
def test_ten_conditions_on_any_deck_are_exact_within_the_work_limit(deck: int, seen: int) -> None:
    problem = many_conditions(deck)
    red = reduce_problem(problem)
    programme = PlainProgramme(red, seen)
    work = programme.work()
    assert work is not None and work <= EXACT_WORK_LIMIT
    programme.ways()
    assert programme.done == programme.transitions  # the count made before starting is exact
    answer = solve(problem, Procedure(hand_size=7), Query(seen=seen))
    assert answer.exact and answer.method is Method.HYPERGEOMETRIC


def test_many_conditions_agree_with_a_seeded_simulation() -> None:
    problem = many_conditions(400)
    procedure = Procedure(hand_size=7)
    query = Query(seen=12)
    exact = solve(problem, procedure, query)
    assert exact.fraction is not None
    sim = solve(problem, procedure, query, mode=Mode.SIMULATE, trials=40_000, seed=5)
    p = float(exact.fraction)
    sigma = math.sqrt(p * (1 - p) / 40_000)
    assert abs(sim.probability - p) <= 5 * sigma


def test_the_count_stops_past_its_limit() -> None:
    # Twenty conditions, several of them upper bounds open across many classes: far too
    # many states for the limit, and the count says so instead of finishing.
    rng = random.Random(7)
    n_sel = 20
    rows = sorted({tuple(rng.random() < 0.25 for _ in range(n_sel)) for _ in range(300)})
    sizes = tuple(rng.randint(1, 40) for _ in rows)
    conditions = tuple(CountTest(s, "<=" if s % 3 == 0 else ">=", 1) for s in range(n_sel))
    red = reduce_problem(DrawProblem(sizes, tuple(rows), conditions))
    assert PlainProgramme(red, 20).work(limit=50_000) is None


def test_the_exact_engine_reports_progress() -> None:
    problem = many_conditions(1_000)
    calls: list[tuple[int, int]] = []
    answer = solve(
        problem, Procedure(hand_size=7), Query(seen=20), progress=lambda d, t: calls.append((d, t))
    )
    assert answer.exact
    assert calls and calls[-1][0] == calls[-1][1]
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert len({t for _, t in calls}) == 1


def test_a_by_turn_table_shares_one_programme() -> None:
    problem = many_conditions(200)
    procedure = Procedure(hand_size=7)
    queries = [Query(seen=procedure.seen_by_turn(t), turns=t) for t in range(1, 31)]
    answers = solve_turns(problem, procedure, queries)
    red = reduce_problem(problem)
    table = plain_ways_upto(red, queries[-1].seen)
    for q, a in zip(queries, answers, strict=True):
        assert a.fraction == Fraction(table[q.seen], math.comb(problem.pile_size, q.seen))


def test_an_unused_redraw_rule_is_one_plain_draw() -> None:
    problem = many_conditions(60)
    rule = RedrawRule((CountTest(0, "<", 1),), max_redraws=1)
    procedure = Procedure(hand_size=7, draws_per_turn=2, mulligan=rule)
    query = Query(seen=15, use_mulligan=False)
    answer = solve(problem, procedure, query, Policy(redraw="optimal"))
    plain = solve(problem, Procedure(hand_size=7, draws_per_turn=2), Query(seen=15))
    assert answer.exact and answer.fraction == plain.fraction


def test_classes_that_close_counts_come_first() -> None:
    # Position 0 is touched by classes 0 and 2, position 1 by class 1 only: taking class 1
    # first closes a count at once; the class touching nothing goes last.
    order = class_order([(0,), (1,), (0,), ()], [3, 3, 3, 3])
    assert order[0] == 1 and order[-1] == 3
    assert class_order([(0,), ()], [0, 5]) == [1]  # empty classes are left out


def _greedy_order(positions: list[tuple[int, ...]], sizes: list[int]) -> list[int]:
    """The order's definition, recounted at every choice (the programme keeps the counts up
    to date instead)."""
    left = [c for c in range(len(sizes)) if sizes[c] > 0]
    remaining = {p: sum(1 for c in left if p in positions[c]) for c in left for p in positions[c]}
    opened: set[int] = set()
    order: list[int] = []
    live = [c for c in left if positions[c]]
    while live:
        best = min(
            live,
            key=lambda c: (
                sum(1 for p in positions[c] if p not in opened)
                - sum(1 for p in positions[c] if remaining[p] == 1),
                -len(positions[c]),
                c,
            ),
        )
        live.remove(best)
        order.append(best)
        for p in positions[best]:
            opened.add(p)
            remaining[p] -= 1
    return order + [c for c in left if not positions[c]]


def test_class_order_follows_its_definition() -> None:
    rng = random.Random(7)
    for _ in range(500):
        n_pos, n_classes = rng.randint(1, 8), rng.randint(1, 30)
        positions = [
            tuple(sorted(rng.sample(range(n_pos), rng.randint(0, min(3, n_pos)))))
            for _ in range(n_classes)
        ]
        sizes = [rng.choice((0, 1, 4, 9)) for _ in range(n_classes)]
        assert class_order(positions, sizes) == _greedy_order(positions, sizes)


def test_optimal_redraw_turns_read_one_table_of_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    import deckcheck.draws.exact.optimal_redraw as optimal_redraw

    built: list[int] = []
    real = optimal_redraw._build_hand_table

    def counted(*args: object, **kwargs: object) -> object:
        built.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(optimal_redraw, "_build_hand_table", counted)
    monkeypatch.setattr(optimal_redraw, "_TABLES", {})
    problem = DrawProblem(
        (8, 6, 5, 4, 3, 14),
        (
            (True, False, False, False),
            (False, True, False, True),
            (True, False, True, False),
            (False, False, True, True),
            (True, True, False, False),
            (False, False, False, False),
        ),
        (CountTest(0, ">=", 2), CountTest(1, "<=", 2), CountTest(2, ">=", 1)),
    )
    rule = RedrawRule((CountTest(0, "<", 1), CountTest(3, ">", 1)), max_redraws=1)
    procedure = Procedure(hand_size=5, draws_per_turn=2, mulligan=rule)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 8)]
    answers = solve_turns(problem, procedure, queries)
    assert len(built) == 1  # the later turns read the first one's table
    optimal_redraw._solve.cache_clear()
    for q, a in zip(queries, answers, strict=True):
        alone = optimal_redraw.optimal_redraw_odds(Request(problem, procedure, q))
        assert a.exact and a.fraction == alone.fraction


def redraw_by_compositions(
    problem: DrawProblem, triggers: tuple[CountTest, ...], hand: int, seen: int
) -> tuple[int, int, int]:
    """(success, no trigger and success, trigger) over (hand, later draws) pairs, by
    enumerating both compositions over the groups."""
    sizes = problem.group_sizes
    s = j = t = 0
    for h in compositions(sizes, hand):
        wh = ways(sizes, h)
        pile = tuple(a - b for a, b in zip(sizes, h, strict=True))
        totals = problem.selector_counts(h)
        fired = any(c.holds(totals[c.selector]) for c in triggers)
        for later in compositions(pile, seen - hand):
            w = wh * ways(pile, later)
            ok = problem.satisfied(tuple(a + b for a, b in zip(h, later, strict=True)))
            s += w * ok
            t += w * fired
            j += w * (ok and not fired)
    return s, j, t


@pytest.mark.parametrize("seed", range(8))
def test_the_redraw_table_matches_enumeration_for_every_number_seen(seed: int) -> None:
    from deckcheck.draws.exact.hypergeometric import redraw_ways_upto

    rng = random.Random(300 + seed)
    problem = random_problem(rng, most_cards=4)
    n_sel = len(problem.membership[0])
    triggers = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(0, 2))
        for _ in range(rng.randint(1, 2))
    )
    n = problem.pile_size
    hand = min(n, rng.randint(0, 3))
    most = min(n, hand + 4)
    table = redraw_ways_upto(reduce_problem(problem, triggers), hand, most)
    assert len(table) == most - hand + 1
    for seen in range(hand, most + 1):
        assert table[seen - hand] == redraw_by_compositions(problem, triggers, hand, seen)


def test_a_redraw_whenever_allowed_table_reads_one_pass() -> None:
    from deckcheck.draws.exact import hypergeometric

    problem = DrawProblem(
        (8, 6, 5, 4, 17),
        (
            (True, False, False),
            (False, True, False),
            (True, False, True),
            (False, True, True),
            (False, False, False),
        ),
        (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, "<=", 2)),
    )
    rule = RedrawRule((CountTest(0, "<", 1), CountTest(2, ">", 2)), max_redraws=2)
    procedure = Procedure(hand_size=5, draws_per_turn=1, mulligan=rule)
    policy = Policy(redraw="always")
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 7)]
    hypergeometric._TABLES.clear()
    table = solve_turns(problem, procedure, queries, policy)
    assert len(hypergeometric._TABLES) == 1
    assert any(a.fraction is not None and 0 < a.fraction < 1 for a in table)
    for q, row in zip(queries, table, strict=True):
        hypergeometric._TABLES.clear()  # each row on its own, from a pass up to its turn
        alone = solve(problem, procedure, q, policy)
        assert row.exact and row.fraction == alone.fraction
        assert row.fraction_without_mulligan == alone.fraction_without_mulligan


def test_a_deal_of_thousands_of_cards_sizes_its_fields_at_once() -> None:
    """The field width is the largest binomial of the pile, found where binomials peak, not
    by making one binomial of thousands of digits per number of cards (2,000 cards seen
    from 9,667 once took a quarter of a second before any counting)."""
    problem = DrawProblem((3_000, 6_667), ((True,), (False,)), (CountTest(0, ">=", 2),), ("a",))
    red = reduce_problem(problem)
    programme, lines = lines_run(lambda: PlainProgramme(red, 2_000))
    assert programme.width == math.comb(9_667, 2_000).bit_length() + 1
    assert lines < 500  # about 150 today; one per number of cards seen was over 2,000
    small = PlainProgramme(reduce_problem(replace(problem, group_sizes=(5, 6))), 9)
    assert small.width == max(math.comb(11, s) for s in range(10)).bit_length() + 1


@pytest.mark.parametrize("seed", range(4))
def test_one_walk_finds_the_most_cards_in_reach(seed: int) -> None:
    """``reach`` counts every number of cards at once: its answer is the largest number
    whose own count stays within the limit, and the programme it leads to counts exactly
    the transitions it then makes, and the ways of a programme of that size."""
    rng = random.Random(500 + seed)
    for _ in range(12):
        problem = random_problem(rng, most_cards=5)
        red = reduce_problem(problem)
        n = problem.pile_size
        works = [PlainProgramme(red, m).work() for m in range(n + 1)]
        assert all(w is not None for w in works)
        for limit in sorted({w for w in works if w is not None} | {0}):
            programme = PlainProgramme(red, n)
            top = programme.reach(limit)
            alone = [m for m in range(n + 1) if PlainProgramme(red, m).work(limit) is not None]
            assert top == max(alone, default=-1)
            if top >= 0:
                part = programme.upto(top)
                assert part.ways() == plain_ways_upto(red, top)
                alone_programme = PlainProgramme(red, top)
                alone_programme.work()
                assert part.done == part.transitions == alone_programme.transitions


def test_a_table_partly_in_reach_computes_its_exact_rows_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deckcheck.draws.facade as facade
    from deckcheck.draws.answer import FactKind
    from deckcheck.draws.facade import SIMULATION_BUDGET

    # The mechanism, not the scale: a third of the limit still splits the table.
    limit = EXACT_WORK_LIMIT // 3
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", limit)
    problem = many_conditions(12_000)
    red = reduce_problem(problem)
    procedure = Procedure(hand_size=7)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 61)]
    whole = PlainProgramme(red, queries[-1].seen).work()
    assert whole is not None and whole > limit  # the case: past reach as a whole
    # Then the rows in reach share the limit, each costed on its own, as row by row.
    in_reach: list[Query] = []
    spent = 0
    for q in queries:
        work = PlainProgramme(red, q.seen).work()
        assert work is not None
        spent += work
        if spent > limit:
            break
        in_reach.append(q)
    assert in_reach
    made: list[int] = []
    real = PlainProgramme.ways

    def counted(self: PlainProgramme, progress: object = None) -> list[int]:
        made.append(self.most)
        return real(self, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(PlainProgramme, "ways", counted)
    answers = solve_turns(problem, procedure, queries, budget=SIMULATION_BUDGET // 100)
    assert made == [in_reach[-1].seen]  # one programme for every exact row
    table = plain_ways_upto(red, in_reach[-1].seen)
    for q, a in zip(queries, answers, strict=True):
        if q in in_reach:
            assert a.fraction == Fraction(table[q.seen], math.comb(problem.pile_size, q.seen))
        else:
            assert not a.exact and a.ci95 is not None and a.seed == q.turns
            assert any(f.kind is FactKind.SIMULATED_INSTEAD and f.reason for f in a.facts)


def test_the_query_and_its_table_share_one_programme(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from deckcheck.analysis.odds import OddsOptions, compute_odds
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    made: list[int] = []
    real = PlainProgramme.ways

    def counted(self: PlainProgramme, progress: object = None) -> list[int]:
        made.append(self.most)
        return real(self, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(PlainProgramme, "ways", counted)
    deck = Path(__file__).resolve().parents[2] / "examples/stccg-1e/legal-federation.txt"
    setup = draw_setup(open_deck(str(deck)))
    conditions = ["type:Personnel>=2", "type:Ship>=1", "type:Event>=1"]
    report = compute_odds(setup, conditions, OddsOptions(turn=3, by_turn=30))
    assert report.exact and all(r.exact for r in report.by_turn)
    assert made == [max(r.cards_seen for r in report.by_turn)]
    turn3 = next(r for r in report.by_turn if r.turn == 3)
    assert report.probability == turn3.probability
    alone = compute_odds(setup, conditions, OddsOptions(turn=3))
    assert alone.probability_exact == report.probability_exact
