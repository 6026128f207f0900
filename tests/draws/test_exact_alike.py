"""Classes that differ only by name share the look-ahead engine's states (issue 42).

Exchanging two such classes (``name:Trooper>=1`` and ``name:Raider>=1`` over five cards each)
changes no chance, so the engine keeps one state per arrangement. These tests check that the
values do not move: against the labelled-card expectimax of ``test_lookahead_optimal`` on
small piles, and against the same engine with the sharing switched off on the bundled
Planetary Conquerors deck, at 8 and 12 conditions, with and without the mulligan.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_lookahead_optimal import Expectimax

from deckcheck.analysis.odds import OddsOptions, bind, cards_seen
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.answer import Intractable
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.reduced import orbits, reduce_problem
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

REPO = Path(__file__).resolve().parents[2]
PC80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
NAMES = [
    "Trooper",
    "Raider",
    "Lancer",
    "Watchtower",
    "Pitfall",
    "Mud Hut",
    "Stone Bunker",
    "Deep Drill",
    "Scout Drone",
    "Snare Net",
    "Power Plant",
    "Sabotage",
]


def named_case(rng: random.Random) -> tuple[DrawProblem, Procedure, Query]:
    """A small pile of named cards, several alike (same copies, same tests), with a shared
    selector over some of them now and then, and other cards."""
    n_named = rng.randint(2, 4)
    sizes = [rng.choice((1, 2, 2)) for _ in range(n_named)]
    shared = rng.random() < 0.3
    n_sel = n_named + shared
    rows = [
        tuple(s == i or (shared and s == n_named and i < 2) for s in range(n_sel))
        for i in range(n_named)
    ]
    rows.append(tuple(False for _ in range(n_sel)))
    sizes.append(rng.randint(1, 3))
    op = rng.choice((">=", ">=", "<=", "="))
    tests = [CountTest(i, op, 1 if op != "<=" else 0) for i in range(n_named)]
    if shared:
        tests.append(CountTest(n_named, "<=", 1))
    problem = DrawProblem(tuple(sizes), tuple(rows), tuple(tests))
    hand = rng.randint(2, 3)
    per_turn = rng.choice((1, 2))
    later = min(rng.randint(1, 2), problem.pile_size - hand - 2)
    procedure = Procedure(hand, draws_per_turn=per_turn, lookahead=True)
    return problem, procedure, Query(hand + max(later, 1))


@pytest.mark.parametrize("seed", range(16))
def test_alike_classes_match_the_labelled_expectimax(seed: int) -> None:
    rng = random.Random(4200 + seed)
    problem, procedure, query = named_case(rng)
    if query.seen + 2 > problem.pile_size:
        pytest.skip("the look-ahead would wrap round this pile")
    oracle = Expectimax(problem, procedure, query)
    assert exact_odds(Request(problem, procedure, query)).fraction == oracle.plain()
    count = 2
    returning = Procedure(
        procedure.hand_size,
        draws_per_turn=procedure.draws_per_turn,
        mulligan=ReturnRule(count),
        lookahead=True,
    )
    answer = exact_odds(Request(problem, returning, query))
    assert answer.fraction == oracle.returning(count)


def test_orbits_need_a_private_selector_and_equal_tests() -> None:
    problem = DrawProblem(
        (2, 2, 3, 2, 5),
        (
            (True, False, False, False),
            (False, True, False, False),
            (False, False, True, False),
            (False, False, False, True),
            (False, False, False, False),
        ),
        (
            CountTest(0, ">=", 1),
            CountTest(1, ">=", 1),
            CountTest(2, ">=", 1),
            CountTest(3, ">=", 2),
        ),
    )
    # Classes 0 and 1 alike; 2 holds more cards; 3 asks for two.
    red = reduce_problem(problem)
    found = orbits(red)
    assert len(found) == 1 and {red.class_of[0], red.class_of[1]} == {c for c, _ in found[0]}


def pc_engine(conditions: list[str], turn: int, share: bool) -> SequentialEngine:
    setup = draw_setup(open_deck(PC80))
    options = OddsOptions(turn=turn)
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    engine = SequentialEngine(bound.problem, bound.procedure, Query(seen), (), 10**8)
    if not share:
        engine.orbits = ()
        engine._in_orbit = {}
    return engine


@pytest.mark.parametrize(("n", "turn"), [(8, 2)])
def test_pc_named_conditions_agree_with_the_engine_without_sharing(n: int, turn: int) -> None:
    """8 named cards on legal-80, with the optimal look-ahead, with and without the optimal
    return-3 mulligan: the same Fraction with the states shared or not."""
    conditions = [f"name:{name}>=1" for name in NAMES[:n]]
    # Eight names from seven cards cannot all be held: settled before any card is dealt, so
    # the engine answers at once; the tables are walked in full here, to compare them.
    at_once = pc_engine(conditions, turn, True)
    assert at_once.settled_at_start() is False
    assert at_once.return_table(3)[1] == 0 and at_once.work <= 1
    shared = pc_engine(conditions, turn, True)
    alone = pc_engine(conditions, turn, False)
    for engine in (shared, alone):
        engine.settled_at_start = lambda: None  # type: ignore[method-assign]
    assert shared.orbits
    assert shared.without_mulligan() == alone.without_mulligan()
    assert shared.return_table(3)[1] == alone.return_table(3)[1]
    assert shared.work < alone.work


def test_twelve_named_conditions_agree_with_the_engine_without_sharing() -> None:
    """Twelve named cards (one or two copies each, two kinds of test) among other cards, the
    optimal look-ahead and the optimal return of two: shared states or not, one Fraction."""
    sizes = (1, 2) * 6 + (3,)
    rows = tuple(tuple(s == g for s in range(12)) for g in range(13))
    tests = tuple(CountTest(s, ">=" if s % 4 < 2 else "<=", 1) for s in range(12))
    problem = DrawProblem(sizes, rows, tests)
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    query = Query(6)
    shared = SequentialEngine(problem, procedure, query, (), 10**8)
    alone = SequentialEngine(problem, procedure, query, (), 10**8)
    alone.orbits, alone._in_orbit = (), {}
    assert len(shared.orbits) == 4  # one copy or two, at least one or at most one
    assert shared.without_mulligan() == alone.without_mulligan()
    assert shared.return_table(2)[1] == alone.return_table(2)[1]
    assert shared.work < alone.work


def test_the_recursion_stops_at_its_budget() -> None:
    conditions = [f"name:{name}>=1" for name in NAMES[:8]]
    engine = pc_engine(conditions, 5, True)
    engine.budget = 5_000
    with pytest.raises(Intractable) as caught:
        engine.return_table(3)
    assert "over the exact budget of 5,000" in str(caught.value)


# -- every game: 8 and 12 named conditions against another engine or a formula -----------------

RD = str(REPO / "examples/ren-dhark/terra-custom.txt")


def pile_names(deck: str) -> list[tuple[str, int]]:
    """The pile's names and copies, in pile order."""
    from deckcheck.analysis.categories import categorized

    setup, _ = categorized(open_deck(deck), [])
    out: dict[str, int] = {}
    for card, n in setup.pile:
        out[card.name] = out.get(card.name, 0) + n
    return list(out.items())


@pytest.mark.parametrize(("n", "turn"), [(8, 3), (12, 4)])
@pytest.mark.parametrize("mulligan", ["rules", "none"])
def test_ren_dhark_optimal_redraw_agrees_without_sharing(
    monkeypatch: pytest.MonkeyPatch, n: int, turn: int, mulligan: str
) -> None:
    """The optimal redraw tabulates one hand per arrangement of classes alike: the same
    Fraction as tabulating every hand."""
    from deckcheck import api
    from deckcheck.draws.exact import hypergeometric, optimal_redraw

    conditions = [f"name:{name}>=1" for name, _ in pile_names(RD)[:n]]

    def fresh() -> str | None:
        optimal_redraw._hands.cache_clear()
        optimal_redraw._solve.cache_clear()
        optimal_redraw._TABLES.clear()
        hypergeometric._TABLES.clear()
        report = api.odds(RD, conditions, turn=turn, mulligan=mulligan)
        assert report.exact
        return report.probability_exact

    shared = fresh()
    monkeypatch.setattr(optimal_redraw, "orbits", lambda red: ())
    assert fresh() == shared


@pytest.mark.parametrize("n", [8, 12])
@pytest.mark.parametrize(
    ("deck", "turn"),
    [
        (str(REPO / "examples/stccg-1e/legal-klingon.txt"), 6),
        (str(REPO / "examples/stccg-1e/legal-federation.txt"), 3),
        ("dorn:rituals", None),
    ],
)
def test_named_conditions_match_inclusion_exclusion(deck: str, turn: int | None, n: int) -> None:
    """P(every one of n named cards seen), no mulligan: the engine against inclusion–exclusion
    over the names, sum over S of (-1)^|S| C(N - copies of S, seen) / C(N, seen)."""
    import itertools
    import math
    from fractions import Fraction

    from deckcheck import api

    named = pile_names(deck)[:n]
    report = api.odds(deck, [f"name:{x}>=1" for x, _ in named], turn=turn, mulligan="none")
    total = sum(k for _, k in pile_names(deck))
    seen = report.cards_seen
    # Every term is over C(N, seen): the numerators are summed, then divided once.
    ways = 0
    for size in range(len(named) + 1):
        for subset in itertools.combinations(named, size):
            left = total - sum(k for _, k in subset)
            ways += (-1) ** size * math.comb(left, seen)
    expected = Fraction(ways, math.comb(total, seen))
    assert report.exact
    assert Fraction(report.probability_exact or "0") == expected
