"""The optimal redraw (draws/exact/optimal_redraw.py, capped.py) charges its work before doing
it: a query whose opening hands alone pass the budget is refused without listing them; the
walks of a factored draw are charged with the rest; the bounds of every conjunction of an
either-or query are made once per pile. Counted in hands listed, products walked and bounds
made, never in time."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from deckcheck.draws.answer import Intractable, Reach
from deckcheck.draws.exact import capped, optimal_redraw
from deckcheck.draws.exact.compositions import count_compositions
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule, Request


def _request(n_groups: int, size: int, hand: int, later: int) -> Request:
    """``n_groups`` classes of ``size`` cards, each counted by a selector of its own."""
    membership = tuple(tuple(g == s for s in range(n_groups)) for g in range(n_groups))
    tests = tuple(CountTest(g, "<=", 1) for g in range(n_groups))
    problem = DrawProblem((size,) * n_groups, membership, tests)
    procedure = Procedure(hand_size=hand, mulligan=RedrawRule((CountTest(0, ">=", 2),), 1))
    return Request(problem, procedure, Query(seen=hand + later))


def test_a_query_whose_hands_pass_the_budget_is_refused_before_they_are_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = _request(8, 3, 6, 2)
    n_hands = count_compositions(request.problem.group_sizes, 6)[6]
    listed: list[object] = []
    compositions = optimal_redraw.compositions

    def counting(*args: object) -> object:
        listed.append(args)
        return compositions(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(optimal_redraw, "compositions", counting)
    optimal_redraw._solve.cache_clear()
    optimal_redraw._hands.cache_clear()
    with pytest.raises(Intractable) as refused:
        optimal_redraw.optimal_redraw_odds(request, budget=n_hands - 1)
    assert refused.value.reason.reach is Reach.WORK
    assert not listed  # not one hand enumerated
    # within the budget, the same query is answered (and its hands listed)
    optimal_redraw._solve.cache_clear()
    answer = optimal_redraw.optimal_redraw_odds(request)
    assert answer.fraction is not None and listed


def _factored_request(later: int) -> Request:
    """Two groups of three classes, each tied by counts of its own (a factored draw, each
    group's walk a product of its classes' cards), a count of eight more cards, and a rule
    that lets the player redraw a hand of three short of two of two trigger cards."""
    n_sel = 2 * 4 + 2
    rows, sizes = [], []
    for g in range(2):
        for j in range(3):
            row = [False] * n_sel
            row[g * 4] = True
            for b in range(3):
                row[g * 4 + 1 + b] = bool((j + 1) >> b & 1)
            rows.append(tuple(row))
            sizes.append(6)
    rows.append(tuple(p == n_sel - 1 for p in range(n_sel)))
    sizes.append(8)
    rows.append(tuple(p == n_sel - 2 for p in range(n_sel)))
    sizes.append(2)
    rows.append((False,) * n_sel)
    sizes.append(6)
    tests = [CountTest(n_sel - 1, ">=", 2)]
    for g in range(2):
        tests += [
            CountTest(g * 4, ">=", 1),
            CountTest(g * 4 + 1, "<=", 2),
            CountTest(g * 4 + 2, "=", 1),
            CountTest(g * 4 + 3, "<=", 3),
        ]
    problem = DrawProblem(tuple(sizes), tuple(rows), tuple(tests))
    rule = RedrawRule((CountTest(n_sel - 2, "<", 2),), 1)
    return Request(problem, Procedure(hand_size=3, mulligan=rule), Query(seen=3 + later))


def test_a_factored_draws_walks_are_charged_before_they_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = _factored_request(8)
    walked: list[int] = []
    group = capped.Factored._group

    def counting(self: capped.Factored, classes: object, positions: object, *rest: Any) -> object:
        # the partial draws the walk goes through: of each first j classes, up to the most
        sizes = rest[0]
        walked.append(
            sum(
                sum(
                    1
                    for draw in itertools.product(*(range(s + 1) for s in sizes[:j]))
                    if sum(draw) <= self.most
                )
                for j in range(1, len(sizes) + 1)
            )
        )
        return group(self, classes, positions, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(capped.Factored, "_group", counting)

    def fresh() -> None:
        optimal_redraw._solve.cache_clear()
        optimal_redraw._TABLES.clear()
        capped.factored.cache_clear()

    fresh()
    answer = optimal_redraw.optimal_redraw_odds(request)
    assert answer.fraction is not None and len(walked) > 10
    # the walks alone, in budget units (a partial draw measures about 2 µs, a unit 5 µs): a
    # budget below them refuses the query before any is made
    walks = sum(walked) * 2 // 5
    walked.clear()
    fresh()
    with pytest.raises(Intractable) as refused:
        optimal_redraw.optimal_redraw_odds(request, budget=walks - 1)
    assert refused.value.reason.reach is Reach.WORK and refused.value.reason.work >= walks
    assert not walked


def test_an_either_or_tables_conjunctions_make_their_bounds_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three alternatives: seven conjunctions, each hand's programme asks every one of them's
    bounds on the whole pile; they stay cached while the hands take turns."""
    membership = tuple(tuple(g == s or g == s + 1 for s in range(4)) for g in range(5))
    tests = (
        CountTest(0, ">=", 2),
        CountTest(1, ">=", 2),
        CountTest(2, "<=", 1),
        CountTest(3, ">=", 1),
    )
    problem = DrawProblem((4, 4, 4, 4, 6), membership, tests, any_of=((0,), (1, 3), (2,)))
    rule = RedrawRule((CountTest(3, "<", 1),), 1)
    request = Request(problem, Procedure(hand_size=5, mulligan=rule), Query(seen=8))
    made: list[object] = []
    init = capped._Bounds.__init__

    def counting(self: capped._Bounds, *args: Any) -> None:
        made.append(args)
        init(self, *args)

    monkeypatch.setattr(capped._Bounds, "__init__", counting)
    optimal_redraw._solve.cache_clear()
    optimal_redraw._TABLES.clear()
    programmes: list[object] = []
    programme = capped.PlainProgramme.__init__

    def counting_programmes(self: capped.PlainProgramme, *args: Any, **kwargs: Any) -> None:
        programmes.append(args)
        programme(self, *args, **kwargs)

    monkeypatch.setattr(capped.PlainProgramme, "__init__", counting_programmes)
    # The hands' tables by inclusion-exclusion (not one programme of every alternative at
    # once, which this question would take: test_either_draw.py).
    monkeypatch.setattr(optimal_redraw, "_by_either", lambda red, later: False)
    answer = optimal_redraw.optimal_redraw_odds(request)
    assert answer.fraction is not None
    assert len(programmes) > 100  # a programme per hand and per conjunction
    assert len(made) <= 2 * (7 + 1) + 2  # each conjunction's bounds, and the query's own
