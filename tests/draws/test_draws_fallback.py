"""A simulation that stands in for the exact engine is sized by the problem (never by a clock),
the greedy return is computed on whole arrays exactly as the plain-Python policy, and the
exact engines report progress."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import PC_TEN_CONDITIONS

from deckcheck.draws.answer import FactKind
from deckcheck.draws.facade import (
    BY_TURN_FALLBACK_TRIALS,
    MIN_FALLBACK_TRIALS,
    MIN_ROW_TRIALS,
    SIMULATION_BUDGET,
    Prior,
    fallback_trials,
    solve,
    solve_turns,
    trial_cost,
)
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, ReturnRule
from deckcheck.draws.policies import greedy_return
from deckcheck.draws.simulate.vectorised import _Simulator


def twenty_conditions(groups: int, deck: int) -> DrawProblem:
    """Twenty overlapping conditions, a third of them upper bounds, over ``groups`` groups."""
    rng = random.Random(groups)
    n_sel = 20
    rows = sorted({tuple(rng.random() < 0.25 for _ in range(n_sel)) for _ in range(groups)})
    sizes = [deck // len(rows)] * len(rows)
    sizes[-1] += deck - sum(sizes)
    conditions = tuple(CountTest(s, "<=" if s % 3 == 0 else ">=", 1) for s in range(n_sel))
    return DrawProblem(tuple(sizes), tuple(rows), conditions)


def test_the_trial_count_follows_the_cost_of_a_deal() -> None:
    small = twenty_conditions(20, 400)
    large = twenty_conditions(400, 12_000)
    plain = Procedure(hand_size=7)
    kuk = Procedure(hand_size=5, draws_per_turn=2, lookahead=True, mulligan=ReturnRule(3))
    cheap = fallback_trials(small, plain, Query(7), 200_000)
    dear = fallback_trials(large, plain, Query(7), 200_000)
    longer = fallback_trials(small, kuk, Query(45), 200_000)
    assert dear < cheap and longer < cheap
    for problem, procedure, query, trials in (
        (small, plain, Query(7), cheap),
        (large, plain, Query(7), dear),
        (small, kuk, Query(45), longer),
    ):
        assert trials == fallback_trials(problem, procedure, query, 200_000)  # no clock in it
        assert trials * trial_cost(problem, procedure, query) <= SIMULATION_BUDGET or (
            trials == MIN_FALLBACK_TRIALS
        )


def test_twenty_conditions_on_a_huge_deck_simulate_within_the_budget() -> None:
    problem = twenty_conditions(400, 12_000)
    query = Query(12)
    budget = SIMULATION_BUDGET // 20  # the same sizing, cheaper to run
    answer = solve(problem, Procedure(hand_size=7), query, budget=budget)
    assert not answer.exact and answer.ci95 is not None
    trials = fallback_trials(problem, Procedure(hand_size=7), query, 200_000, budget)
    assert answer.trials == trials
    why = [f for f in answer.facts if f.kind is FactKind.SIMULATED_INSTEAD]
    assert why and why[0].count == answer.trials


def test_simulated_rows_of_a_table_share_one_budget() -> None:
    problem = twenty_conditions(150, 4_000)
    procedure = Procedure(hand_size=7)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 31)]
    most = queries[-1].seen
    budget = SIMULATION_BUDGET // 10
    answers = solve_turns(problem, procedure, queries, budget=budget)
    spent = 0
    for q, a in zip(queries, answers, strict=True):
        assert not a.exact
        assert a.trials is not None and MIN_ROW_TRIALS <= a.trials <= BY_TURN_FALLBACK_TRIALS
        assert a.seed == q.turns
        # Every row is dealt by the sampler of the last row, and costed so.
        assert trial_cost(problem, procedure, q, most) >= trial_cost(problem, procedure, q)
        spent += a.trials * trial_cost(problem, procedure, q, most)
    assert spent <= budget


def test_a_known_row_leaves_the_budget_to_the_others() -> None:
    problem = twenty_conditions(150, 4_000)
    procedure = Procedure(hand_size=7)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 5)]
    budget = SIMULATION_BUDGET // 20
    full = solve_turns(problem, procedure, queries, budget=budget)
    known = {queries[0]: full[0]}
    rest = solve_turns(problem, procedure, queries, budget=budget, known=known)
    assert rest[0] == full[0]
    for a, b in zip(full[1:], rest[1:], strict=True):
        assert a.trials is not None and b.trials is not None
        assert b.trials > a.trials  # three rows share the budget, not four


@pytest.mark.parametrize("seed", range(4))
def test_the_array_greedy_return_is_the_policy(seed: int) -> None:
    rng = random.Random(seed)
    n_sel = rng.randint(1, 5)
    n_groups = rng.randint(2, 7)
    sizes = (*(rng.randint(1, 6) for _ in range(n_groups - 1)), 5)
    membership = tuple(tuple(rng.random() < 0.4 for _ in range(n_sel)) for _ in range(n_groups))
    ops = (">=", "<=", "=", ">", "<")
    conditions = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(ops), rng.randint(0, 3)) for _ in range(4)
    )
    problem = DrawProblem(sizes, membership, conditions)
    procedure = Procedure(hand_size=5, mulligan=ReturnRule(3))
    sim = _Simulator(problem, procedure, Query(5), None)
    assert sim.hand_sampler is not None
    hands = sim.hand_sampler.sample(np.random.default_rng(seed), 2_000)
    got = sim.greedy_returns(hands, 3)
    for col in range(hands.shape[1]):
        hand = tuple(int(v) for v in hands[:, col])
        want = greedy_return(problem, hand, 3) or (0,) * n_groups
        assert tuple(int(v) for v in got[:, col]) == want


def test_the_lookahead_engine_reports_progress() -> None:
    problem = DrawProblem(
        (6, 6, 6, 5, 5, 40),
        (
            (True, False, False),
            (False, True, False),
            (False, False, True),
            (True, True, False),
            (False, True, True),
            (False, False, False),
        ),
        (CountTest(0, ">=", 2), CountTest(1, ">=", 2), CountTest(2, "<=", 1)),
    )
    procedure = Procedure(hand_size=5, draws_per_turn=2, lookahead=True)
    calls: list[tuple[int, int]] = []
    answer = solve(problem, procedure, Query(11), progress=lambda d, t: calls.append((d, t)))
    assert answer.exact
    assert len(calls) >= 2 and calls[-1][0] == calls[-1][1]
    done = [d for d, _ in calls]
    assert done == sorted(done)


def test_a_table_stops_estimating_after_the_first_turn_out_of_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deckcheck.draws.facade as facade

    calls: list[int] = []
    real = facade.exact

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(facade, "exact", counted)
    problem = twenty_conditions(400, 12_000)
    procedure = Procedure(hand_size=7)
    budget = SIMULATION_BUDGET // 20  # the same decisions, cheaper to run
    first = solve(problem, procedure, Query(7), budget=budget)
    assert not first.exact
    calls.clear()
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 8)]
    answers = solve_turns(problem, procedure, queries, known={Query(7): first}, budget=budget)
    assert answers[0] is first  # the query's own answer, reused
    assert calls == []  # turn 1 out of reach: the later turns are simulated at once
    assert all(
        not a.exact and a.seed == q.turns for q, a in zip(queries[1:], answers[1:], strict=True)
    )


def test_by_turn_rows_come_with_a_simulated_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    import deckcheck.draws.facade as facade
    from deckcheck.analysis.odds import OddsOptions, compute_odds
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    deck = Path(__file__).resolve().parents[2] / "examples/planetary-conquerors/legal-80.txt"
    ten = PC_TEN_CONDITIONS
    # The mechanism, not the scale: a sixth of the exact limit still answers turn 1 exactly,
    # and the look-ahead's recursion stops sooner where it does not reach.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", facade.EXACT_WORK_LIMIT // 6)
    # Nine of them: turn 1 is exact at once, turn 4 (the query) out of reach (six are exact
    # at turn 4 since the states past the hands are valued a level at a time, eight since the
    # hands' table is charged what it costs in numpy).
    report = compute_odds(draw_setup(open_deck(str(deck))), ten[:9], OddsOptions(turn=4, by_turn=5))
    assert not report.exact
    assert [r.turn for r in report.by_turn] == [1, 2, 3, 4, 5]
    assert report.by_turn[0].exact and not report.by_turn[-1].exact


def test_the_return_mulligan_reports_progress() -> None:
    problem = DrawProblem(
        (6, 6, 5, 5, 4, 4, 30),
        (
            (True, False, False),
            (False, True, False),
            (False, False, True),
            (True, True, False),
            (False, True, True),
            (True, False, True),
            (False, False, False),
        ),
        (CountTest(0, ">=", 2), CountTest(1, ">=", 1), CountTest(2, "<=", 1)),
    )
    procedure = Procedure(hand_size=7, mulligan=ReturnRule(3))
    calls: list[tuple[int, int]] = []
    answer = solve(problem, procedure, Query(7), progress=lambda d, t: calls.append((d, t)))
    assert answer.exact
    assert len(calls) >= 2 and calls[-1][0] == calls[-1][1]


def test_a_sampler_built_for_more_cards_deals_fewer_exactly_as_a_fresh_one() -> None:
    from deckcheck.draws.simulate.vectorised import FixedPileSampler, pile_sampler

    sizes = (5, 9, 3, 12, 7, 30)
    pile_sampler(sizes, 20)  # the largest first
    for n in (3, 9, 15, 20):
        shared = pile_sampler(sizes, n).sample(np.random.default_rng(n), 500)
        fresh = FixedPileSampler(sizes, n).sample(np.random.default_rng(n), 500)
        assert (shared == fresh).all()


def test_long_deals_from_many_groups_use_the_marginal_method() -> None:
    from deckcheck.draws.simulate.sampling import TABLE_MAX_CELLS
    from deckcheck.draws.simulate.vectorised import FixedPileSampler

    sizes = (*(20 + g % 7 for g in range(300)), 3_000)
    n = 250  # too long for positions too: 250**2 > 5 * 9,900 (see draws/simulate/sampling.py)
    sampler = FixedPileSampler(sizes, n)
    assert sampler.marginals and not sampler.steps  # no table built
    assert sum((n + 1) * min(a, n) for a in sizes[:-1]) > TABLE_MAX_CELLS
    counts = sampler.sample(np.random.default_rng(3), 4_000)
    assert (counts.sum(axis=0) == n).all()
    total = sum(sizes)
    for g in (0, 5, 299, 300):
        p = sizes[g] / total
        mean = n * p
        sd = (n * p * (1 - p) * (total - n) / (total - 1) / 4_000) ** 0.5
        assert abs(counts[g].mean() - mean) <= 5 * sd


def test_a_table_out_of_reach_from_its_first_row_says_so_for_the_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deckcheck.draws.facade as facade

    problem = twenty_conditions(400, 12_000)
    procedure = Procedure(hand_size=7)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 6)]
    table = facade.plain_rows(problem, procedure, queries)
    assert table is not None and not table.answers and table.beyond is not None
    budget = SIMULATION_BUDGET // 20
    alone = solve(problem, procedure, Query(9), budget=budget)  # estimated on its own
    assert not alone.exact
    why = table.out_of_reach(Query(9))
    assert why is not None
    calls: list[int] = []
    monkeypatch.setattr(facade, "exact", lambda *a, **k: calls.append(1))
    told = solve(problem, procedure, Query(9), budget=budget, prior=Prior(out_of_reach=why))
    assert calls == []  # no second estimate
    assert not told.exact and told.trials == alone.trials
    assert any(f.kind is FactKind.SIMULATED_INSTEAD for f in told.facts)


def test_the_rows_of_a_table_never_hash_their_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a table works out once per problem is found again by the problem's identity:
    hashing hundreds of groups at every row cost more than what it looked up."""
    calls: list[int] = []
    real = DrawProblem.__hash__
    monkeypatch.setattr(DrawProblem, "__hash__", lambda self: calls.append(1) or real(self))
    problem = twenty_conditions(150, 4_000)
    procedure = Procedure(hand_size=7)
    queries = [Query(procedure.seen_by_turn(t), turns=t) for t in range(1, 31)]
    answers = solve_turns(problem, procedure, queries, budget=SIMULATION_BUDGET // 100)
    assert not any(a.exact for a in answers)
    assert calls == []


def test_a_cache_by_identity_tells_equal_problems_apart() -> None:
    from deckcheck.draws.model import per_object

    made: list[int] = []

    @per_object(maxsize=2)
    def size(problem: DrawProblem, extra: int) -> int:
        made.append(extra)
        return problem.pile_size + extra

    a = twenty_conditions(20, 400)
    b = twenty_conditions(20, 400)
    assert a == b and a is not b
    assert size(a, 1) == size(a, 1) == 401 and made == [1]
    assert size(b, 1) == 401 and made == [1, 1]  # equal, but another object
    size(a, 2)  # a third entry: the oldest goes
    size(a, 1)
    assert made == [1, 1, 2, 1]
    size.cache_clear()  # type: ignore[attr-defined]
    size(a, 2)
    assert made == [1, 1, 2, 1, 2]
