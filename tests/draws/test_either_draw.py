"""The plain draw of an either-or question in one programme (`either_draw.EitherProgramme`):
the same ways as inclusion–exclusion over the conjunctions (`capped.PlainProgramme`), for
every number of cards, from any opening hand's pile and counts; and the optimal redraw's
table built with it gives the same Fractions."""

from __future__ import annotations

import random

import pytest
from test_either_simplified import random_problem

from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.exact.capped import PlainProgramme
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.either_draw import EitherProgramme
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.facade import Mode, Policy, solve
from deckcheck.draws.model import Comparison, CountTest, Procedure, Query, RedrawRule


@pytest.mark.parametrize("seed", range(3))
def test_the_ways_of_inclusion_exclusion(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(250):
        red = reduce_problem(random_problem(rng))
        hand = rng.randint(0, min(3, sum(red.sizes)))
        comp = rng.choice(list(compositions(red.sizes, hand)))
        pile = tuple(s - k for s, k in zip(red.sizes, comp, strict=True))
        start = red.cond.of(comp)
        most = rng.randint(0, sum(pile))
        programme = EitherProgramme(red, most, pile, start)
        want = PlainProgramme(red, most, pile, start, shared=True).ways()
        assert programme.ways() == want
        work = programme.work()
        assert work is not None and work >= 1
        assert programme.work(work - 1) is None or work == 1


def test_every_alternative_at_once_from_nothing() -> None:
    """A question of one alternative (an AND) and one no hand can meet."""
    rng = random.Random(7)
    for _ in range(100):
        problem = random_problem(rng)
        red = reduce_problem(problem)
        most = sum(red.sizes)
        assert EitherProgramme(red, most).ways() == PlainProgramme(red, most).ways()


@pytest.mark.parametrize("seed", range(2))
def test_the_redraw_table_by_either_programmes(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The optimal redraw of an either-or question, its hands' later draws tabulated by one
    programme each or by inclusion–exclusion: the same Fractions."""
    rng = random.Random(300 + seed)
    asked = 0
    calls: list[int] = []
    ways = EitherProgramme.ways

    def counted(self: EitherProgramme) -> list[int]:
        calls.append(1)
        return ways(self)

    while asked < 10:
        problem = random_problem(rng)
        if problem.pile_size < 6:
            continue
        asked += 1
        trigger = CountTest(rng.randrange(len(problem.membership[0])), Comparison.LE, 0)
        procedure = Procedure(hand_size=3, mulligan=RedrawRule(triggers=(trigger,)))
        query = Query(rng.randint(4, min(6, problem.pile_size)))
        answers = []
        for either in (True, False):
            optimal_redraw._by_either.cache_clear()
            optimal_redraw._solve.cache_clear()
            optimal_redraw._TABLES.clear()
            monkeypatch.setattr(optimal_redraw, "_by_either", lambda red, later, e=either: e)
            monkeypatch.setattr(EitherProgramme, "ways", counted)
            answers.append(solve(problem, procedure, query, Policy(), mode=Mode.EXACT))
            monkeypatch.undo()
        assert answers[0].probability == answers[1].probability
        assert answers[0].probability_without_mulligan == answers[1].probability_without_mulligan
    assert calls  # some hands' tables were the either programme's
