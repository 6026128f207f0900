"""The draw façade: impossible queries answer 0 at once, with a reason; facts are worded."""

from __future__ import annotations

import random

import pytest

import deckcheck.draws.facade as facade
from deckcheck.draws.answer import FactKind, Method
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.facade import solve
from deckcheck.draws.impossible import impossible
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

SHIPS = DrawProblem(
    (4, 3, 33),
    ((True, False), (False, True), (False, False)),
    (),
    ("type:ship", "type:action"),
)


def with_tests(*tests: CountTest) -> DrawProblem:
    return DrawProblem(SHIPS.group_sizes, SHIPS.membership, tests, SHIPS.selector_labels)


@pytest.mark.parametrize(
    ("tests", "seen", "kind"),
    [
        ((CountTest(0, ">=", 5),), 7, FactKind.IMPOSSIBLE_FEW_IN_PILE),
        ((CountTest(0, ">", 4),), 7, FactKind.IMPOSSIBLE_FEW_IN_PILE),
        ((CountTest(0, "=", 4),), 3, FactKind.IMPOSSIBLE_FEW_SEEN),
        ((CountTest(0, ">=", 3), CountTest(0, "<=", 2)), 7, FactKind.IMPOSSIBLE_CONTRADICTION),
        ((CountTest(0, ">=", 3), CountTest(1, ">=", 3)), 5, FactKind.IMPOSSIBLE_FEW_SEEN),
        ((CountTest(1, "<=", 2),), 40, FactKind.IMPOSSIBLE_FORCED),
        ((CountTest(1, "<", 1),), 38, FactKind.IMPOSSIBLE_FORCED),
    ],
)
def test_impossible_queries_answer_zero_without_an_engine(
    monkeypatch: pytest.MonkeyPatch, tests: tuple[CountTest, ...], seen: int, kind: FactKind
) -> None:
    def no_engine(*args: object, **kwargs: object) -> object:
        raise AssertionError("the engine ran")

    monkeypatch.setattr(facade, "exact", no_engine)
    monkeypatch.setattr(facade, "simulate", no_engine)
    procedure = Procedure(hand_size=min(seen, 5), draws_per_turn=1, mulligan=ReturnRule(3))
    answer = solve(with_tests(*tests), procedure, Query(seen))
    assert answer.probability == 0 and answer.fraction == 0 and answer.exact
    assert answer.method is Method.IMPOSSIBLE
    assert [f.kind for f in answer.facts] == [kind]
    assert answer.notes[0].startswith("impossible:")


def test_possible_edges_are_not_flagged() -> None:
    assert impossible(with_tests(CountTest(0, ">=", 4)), Query(4)) is None
    assert impossible(with_tests(CountTest(0, ">=", 3), CountTest(1, ">=", 3)), Query(6)) is None
    assert impossible(with_tests(CountTest(1, "<=", 2)), Query(38)) is None


@pytest.mark.parametrize("seed", range(60))
def test_flagged_queries_are_exactly_zero(seed: int) -> None:
    """Sound: whatever the check calls impossible, the exact engine scores 0."""
    rng = random.Random(seed)
    n_sel = rng.randint(1, 3)
    sizes = [rng.randint(0, 4) for _ in range(rng.randint(2, 5))]
    rows = [tuple(rng.random() < 0.4 for _ in range(n_sel)) for _ in sizes]
    tests = tuple(
        CountTest(rng.randrange(n_sel), rng.choice((">=", "<=", "=", ">", "<")), rng.randint(0, 5))
        for _ in range(rng.randint(1, 4))
    )
    problem = DrawProblem(tuple(sizes), tuple(rows), tests)
    if problem.pile_size == 0:
        return
    seen = rng.randint(0, problem.pile_size)
    fact = impossible(problem, Query(seen))
    exact = exact_odds(Request(problem, Procedure(hand_size=0), Query(seen))).fraction
    if fact is not None:
        assert exact == 0, fact
