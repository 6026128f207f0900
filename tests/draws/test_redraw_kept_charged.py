"""The hands the optimal redraw keeps (draws/exact/optimal_redraw.py, capped.py): a table of
hands values them all in one walk of the whole pile (``capped.hands_ways``), the same chances
as one plain programme per hand (the previous code, kept here as the oracle), and charges that
walk against the solve's own budget before valuing any hand. Counted in walks and calls, never
in time."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from conftest import REPO, load_script

from deckcheck.analysis.odds import OddsOptions, bind, cards_seen
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.answer import Intractable, Reach
from deckcheck.draws.compare import Comparison
from deckcheck.draws.exact import capped, optimal_redraw
from deckcheck.draws.exact.capped import PlainProgramme
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule, Request

#: The attribute conditions the frontier bench asks of Ren Dhark (``bench/cases.py``).
RD_ATTRIBUTES: list[str] = list(
    load_script("bench_cases", REPO / "bench" / "cases.py").ATTRIBUTE_CONDITIONS["ren-dhark"]
)

OPS = tuple(Comparison(op) for op in (">=", ">", "<=", "<", "="))


def _clear() -> None:
    optimal_redraw._solve.cache_clear()
    optimal_redraw._hands.cache_clear()


def _one_by_one(request: Request) -> dict[tuple[int, ...], Fraction]:
    """The previous code's kept chances: one plain programme per hand on the pile it leaves."""
    solution = optimal_redraw._solve(
        request.problem,
        request.procedure,
        request.query,
        optimal_redraw.DEFAULT_BUDGET,
        request.lookahead,
    )
    engine = solution.engine
    red, later = engine.red, engine.seen - engine.hand
    out = {}
    for comp in optimal_redraw._hands(red, engine.hand, False).comps:
        pile = tuple(s - k for s, k in zip(red.sizes, comp, strict=True))
        programme = PlainProgramme(red, later, pile, red.cond.of(comp), shared=True)
        out[comp] = Fraction(programme.ways()[later], math.comb(engine.n - engine.hand, later))
    return out


def _random_request(seed: int, any_of: bool) -> Request:
    rng = random.Random(seed)
    n_sel = rng.randint(2, 4)
    sizes: list[int] = []
    rows: list[tuple[bool, ...]] = []
    while sum(sizes) < rng.randint(10, 16):
        rows.append(tuple(rng.random() < 0.4 for _ in range(n_sel)))
        sizes.append(rng.randint(1, 4))
    tests = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(0, 3))
        for _ in range(rng.randint(1, 4))
    )
    alternatives = ((0,), tuple(range(1, len(tests)))) if any_of and len(tests) > 1 else ()
    problem = DrawProblem(tuple(sizes), tuple(rows), tests, any_of=alternatives)
    trigger = CountTest(rng.randrange(n_sel), Comparison.GE, rng.randint(1, 2))
    hand = rng.randint(2, 5)
    rule = RedrawRule((trigger,), max_redraws=rng.choice((1, None)))
    later = rng.randint(1, min(6, sum(sizes) - hand))
    return Request(problem, Procedure(hand_size=hand, mulligan=rule), Query(seen=hand + later))


@pytest.mark.parametrize("any_of", [False, True])
def test_kept_hands_valued_together_match_one_programme_each(any_of: bool) -> None:
    for seed in range(30):
        request = _random_request(4300 + seed, any_of)
        _clear()
        expected = _one_by_one(request)
        table = optimal_redraw.optimal_redraw_table(request)
        assert dict(zip(table.hands, table.keep, strict=True)) == expected, seed


def _deck_request(deck: str, conditions: list[str], turn: int, second: bool) -> Request:
    setup = draw_setup(open_deck(str(REPO / "examples/ren-dhark" / deck)))
    options = OddsOptions(turn=turn, second=second)
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    return Request(bound.problem, bound.procedure, Query(seen, second, True, turn))


@pytest.mark.parametrize(
    ("deck", "k", "turn", "second"),
    [("blue-starter.txt", 4, 3, False), ("terra-custom.txt", 9, 1, True)],
)
def test_kept_hands_of_real_decks_match_one_programme_each(
    deck: str, k: int, turn: int, second: bool
) -> None:
    request = _deck_request(deck, RD_ATTRIBUTES[:k], turn, second)
    _clear()
    table = optimal_redraw.optimal_redraw_table(request)
    kept = [i for i, may in enumerate(table.allowed) if not may]
    assert kept  # the rule keeps some hands: they are what is checked
    expected = _one_by_one(request)
    assert all(table.keep[i] == expected[table.hands[i]] for i in range(len(table.hands)))


def _charged_request() -> Request:
    return _deck_request("blue-starter.txt", RD_ATTRIBUTES[:4], 3, False)


def test_a_budget_just_below_the_kept_hands_walk_refuses_before_any_is_valued(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = _charged_request()
    counted: list[int] = []
    valued: list[int] = []
    count, ways = capped._HandsWalk.count, capped._HandsWalk.ways

    def counting(walk: capped._HandsWalk, limit: int) -> int | None:
        got = count(walk, limit)
        counted.append(walk.counted)
        return got

    def valuing(walk: capped._HandsWalk) -> dict[tuple[int, ...], int]:
        valued.append(1)
        return ways(walk)

    monkeypatch.setattr(capped._HandsWalk, "count", counting)
    monkeypatch.setattr(capped._HandsWalk, "ways", valuing)
    _clear()
    optimal_redraw.optimal_redraw_table(request)
    solution = optimal_redraw._solve(
        request.problem, request.procedure, request.query, optimal_redraw.DEFAULT_BUDGET, "optimal"
    )
    walked = sum(counted)
    assert walked and valued
    # The walk's cost on top of the solve's own charge, in units of the budget.
    need = solution.charged + -(-walked // optimal_redraw._WALK_TRANSITIONS)
    counted.clear()
    valued.clear()
    _clear()
    with pytest.raises(Intractable) as refused:
        optimal_redraw.optimal_redraw_table(request, budget=need - 1)
    assert refused.value.reason is not None
    assert refused.value.reason.reach is Reach.WORK and refused.value.reason.limit == need - 1
    assert not valued  # not one kept hand valued
    _clear()
    table = optimal_redraw.optimal_redraw_table(request, budget=need)
    assert valued and len(table.keep) == len(table.hands)


def test_the_solve_records_what_it_charged() -> None:
    """The table charges the kept hands on top of the solve's own charge: a solve that
    tabulated hands records a charge, one that answers plainly records the plain walk's."""
    request = _charged_request()
    _clear()
    solution = optimal_redraw._solve(
        request.problem, request.procedure, request.query, optimal_redraw.DEFAULT_BUDGET, "optimal"
    )
    assert 0 < solution.charged <= optimal_redraw.DEFAULT_BUDGET
    assert solution.budget == optimal_redraw.DEFAULT_BUDGET
