"""The optimal redraw's table of opening hands over overlapping attribute selectors
(draws/exact/optimal_redraw.py, capped.py): every hand's later draw walks the states of the
whole pile (``PlainProgramme(..., shared=True)``), a group's ways walk only the draws of up to
the most asked; the same integers as a programme of each pile's own and as an enumeration of
the pile's compositions, the real decks' exact answers unchanged, and the table's transitions
within what the estimate charged for them."""

from __future__ import annotations

import itertools
import random
import runpy
from fractions import Fraction

import pytest
from conftest import REPO

import deckcheck.analysis.odds as odds_module
from deckcheck import api
from deckcheck.draws.exact import capped, optimal_redraw
from deckcheck.draws.exact.capped import Factored, PlainProgramme
from deckcheck.draws.exact.compositions import compositions, ways
from deckcheck.draws.exact.reduced import Reduced, reduce_problem
from deckcheck.draws.model import CountTest, DrawProblem

OPS = (">=", "<=", "=", ">", "<")

#: The Ren Dhark list of the frontier's ``ATTRIBUTE_CONDITIONS`` (``bench/cases.py``): each
#: card counted by several of them.
ATTRIBUTES = tuple(
    runpy.run_path(str(REPO / "bench" / "cases.py"))["ATTRIBUTE_CONDITIONS"]["ren-dhark"]
)


def random_problem(rng: random.Random, either: bool | int = False) -> DrawProblem:
    """``either``: the conditions split into that many alternatives (True: two)."""
    alternatives = 2 if either is True else int(either)
    n_sel = rng.randint(1, 5)
    n_groups = rng.randint(1, 7)
    sizes = tuple(rng.randint(0, 5) for _ in range(n_groups))
    membership = tuple(tuple(rng.random() < 0.5 for _ in range(n_sel)) for _ in range(n_groups))
    conditions = tuple(
        CountTest(rng.randrange(n_sel), rng.choice(OPS), rng.randint(0, 3))
        for _ in range(rng.randint(max(1, alternatives), 5))
    )
    any_of: tuple[tuple[int, ...], ...] = ()
    if alternatives == 2:
        cut = rng.randint(1, len(conditions) - 1)
        any_of = (tuple(range(cut)), tuple(range(cut, len(conditions))))
    elif alternatives:
        cuts = sorted(rng.sample(range(1, len(conditions)), alternatives - 1))
        ends = [0, *cuts, len(conditions)]
        any_of = tuple(tuple(range(a, b)) for a, b in itertools.pairwise(ends))
    return DrawProblem(sizes, membership, conditions, any_of=any_of)


def enumerated(red: Reduced, pile: tuple[int, ...], held: tuple[int, ...], most: int) -> list[int]:
    """The ``s``-card subsets of ``pile`` on which the query holds with the hand ``held``
    (cards per class), by every composition of ``s`` cards of the pile."""
    out = []
    for s in range(most + 1):
        good = 0
        for draw in compositions(pile, s):
            seen = tuple(h + d for h, d in zip(held, draw, strict=True))
            if red.cond.all_hold(red.cond.of(seen)):
                good += ways(pile, draw)
        out.append(good)
    return out


@pytest.mark.parametrize("either", [False, True, 3])
@pytest.mark.parametrize("seed", range(3))
def test_a_hands_later_draw_on_the_whole_piles_states_counts_what_its_own_pile_does(
    seed: int, either: bool | int
) -> None:
    rng = random.Random(4200 + seed + 10 * either)
    compared = 0
    while compared < 60:
        red = reduce_problem(random_problem(rng, either))
        if not red.cond.tests:
            continue
        held = tuple(rng.randint(0, size) for size in red.sizes)  # the opening hand
        pile = tuple(s - h for s, h in zip(red.sizes, held, strict=True))
        start = red.cond.of(held)
        most = rng.randint(0, sum(pile))
        shared = PlainProgramme(red, most, pile, start, shared=True).ways()
        assert shared == PlainProgramme(red, most, pile, start).ways()
        assert shared == enumerated(red, pile, held, most)
        compared += 1


@pytest.mark.parametrize("most", [1, 2, 3])
def test_a_group_of_many_classes_walks_the_draws_of_the_most_asked(most: int) -> None:
    # twelve classes tied together by one count (a colour every card has), two more counts
    # over some of them: one group, whose ways for a small most are few draws, not 2**12
    n = 12
    membership = tuple((True, c % 3 == 0, c % 4 == 1) for c in range(n))
    tests = (CountTest(0, ">=", 1), CountTest(1, "<=", 1), CountTest(2, "=", 1))
    red = reduce_problem(DrawProblem((1,) * 6 + (2,) * 6, membership, tests))
    draw = Factored(red.cond, most)
    assert len(draw.groups) == 1 and not draw.shares  # no pile shares a group of every class
    rng = random.Random(most)
    for _ in range(8):
        held = tuple(rng.randint(0, min(1, size)) for size in red.sizes)
        pile = tuple(s - h for s, h in zip(red.sizes, held, strict=True))
        start = red.cond.of(held)
        want = enumerated(red, pile, held, most)
        assert draw.ways(pile, start) == want
        assert PlainProgramme(red, most, pile, start, shared=True).ways() == want


@pytest.mark.parametrize(
    ("deck", "count", "turn", "second", "fraction"),
    [
        # the answers of the engine before the shared walk (a programme per hand's pile, the
        # product walk of every class's cards), whole command or in process alike
        ("blue-starter", 12, 1, True, "1262404963747/9885630145248"),
        ("blue-starter", 12, 6, False, "4685922399577/14123143528662960"),
        ("terra-custom", 8, 4, True, "56732074121/2754833928600"),
        # an either-or of three alternatives (its seven conjunctions' bounds kept together)
        ("terra-custom", -3, 6, True, "10381970243/3602475137400"),
        ("blue-starter", -3, 4, False, "3320652244235/34979922052416"),
    ],
)
def test_the_ren_dhark_attribute_answers_are_the_same_fractions(
    deck: str, count: int, turn: int, second: bool, fraction: str
) -> None:
    conditions = list(ATTRIBUTES[:count])
    if count < 0:  # -3: "ship | blue | unit", one person, at most three actions
        either = " | ".join((ATTRIBUTES[0], ATTRIBUTES[4], ATTRIBUTES[7]))
        conditions = [either, ATTRIBUTES[2], ATTRIBUTES[3]]
    report = api.odds(f"examples/ren-dhark/{deck}.txt", conditions, turn=turn, second=second)
    assert report.exact
    over = ", over 3 alternatives" if count < 0 else ""
    assert report.method == "exact (optimal redraw, enumeration)" + over
    assert Fraction(report.probability_exact or "") == Fraction(fraction)


def test_the_tables_transitions_stay_within_what_the_estimate_charged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The estimate charges every hand the redraw may replace one programme on the whole pile
    from nothing (``_estimate_work``); the hands' programmes, walking those same states from
    the hand's counts, make fewer transitions in all."""
    made: list[int] = []
    counted: list[int] = []
    ways = capped.PlainProgramme.ways
    estimate = optimal_redraw._estimate_work

    def counting_ways(self: PlainProgramme, progress: capped.Progress | None = None) -> list[int]:
        got = ways(self, progress)
        made.append(self.done)
        return got

    def counting_estimate(engine: object, n_hands: int, budget: int) -> int:
        got = estimate(engine, n_hands, budget)  # type: ignore[arg-type]
        later = engine.seen - engine.hand  # type: ignore[attr-defined]
        per_hand = PlainProgramme(engine.red, later).work()  # type: ignore[attr-defined]
        assert per_hand is not None
        counted.append(n_hands * per_hand)
        return got

    monkeypatch.setattr(capped.PlainProgramme, "ways", counting_ways)
    monkeypatch.setattr(optimal_redraw, "_estimate_work", counting_estimate)
    # The attributes as classes, those whose tests every count passes too (``odds`` lets
    # them pick no card, and the table holds fewer hands): the table this test measures.
    monkeypatch.setattr(odds_module, "quieted", lambda problem: problem)
    optimal_redraw._solve.cache_clear()
    report = api.odds("examples/ren-dhark/blue-starter.txt", ATTRIBUTES, turn=6, second=True)
    assert report.exact
    assert len(counted) == 1 and len(made) > 4000  # a programme per hand the redraw may replace
    assert 0 < sum(made) <= counted[0]
