"""The deadline walk's charge and its refusals: what a refusal says it counted, the first-turn
walk's second step per new state, and its answers (states looked up as reached, dead ends
shared) against every order of a small pile."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from deckcheck.draws.answer import Intractable, reason_text
from deckcheck.draws.compare import Comparison
from deckcheck.draws.exact import deadlines
from deckcheck.draws.exact.deadlines import Deadlines, Meter, deadline_table, first_turns
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, ReturnRule

# Three classes of 2, 2 and 3 cards; selector 0 counts classes 0 and 1, selector 1 class 2.
PROBLEM = DrawProblem(
    (2, 2, 3),
    ((True, False), (True, False), (False, True)),
    (CountTest(0, Comparison.GE, 2), CountTest(1, Comparison.LE, 1)),
)


def _why(caught: pytest.ExceptionInfo[Intractable]) -> str:
    assert caught.value.reason is not None
    return reason_text(caught.value.reason)


def test_a_refusal_past_the_budget_says_what_it_counted() -> None:
    request = Deadlines(PROBLEM, Procedure(2, mulligan=ReturnRule(1)), (4, 4))
    least = deadlines.least_work(request)
    with pytest.raises(Intractable) as caught:
        deadline_table(request, budget=Meter(least + 1))
    why = _why(caught)
    assert f"stopped after {least + 2:,} steps counted" in why
    assert f"past the exact budget of {least + 1:,} steps" in why
    assert "how many more the answer needs is not known" in why
    assert "about" not in why  # a floor, not an estimate


def test_a_refusal_from_the_shape_says_it_did_none_of_it() -> None:
    request = Deadlines(PROBLEM, Procedure(2, mulligan=ReturnRule(1)), (4, 4))
    least = deadlines.least_work(request)
    with pytest.raises(Intractable) as caught:
        deadline_table(request, budget=Meter(least - 1))
    why = _why(caught)
    assert f"at least {least:,} steps known from the problem's shape alone" in why
    assert "and their kept parts" in why  # the return rule's parts are listed too
    assert "refused before doing them" in why


def test_a_try_names_its_share_of_the_budget() -> None:
    meter = Meter(100, whole=1_000)
    with pytest.raises(Intractable) as caught:
        meter.spend(101)
    assert "past the 100 this try had of the exact budget of 1,000 steps" in _why(caught)
    with pytest.raises(Intractable) as caught:
        Meter(100, whole=1_000).need(150, "the hands")
    assert "at least 150 steps known from the problem's shape alone (the hands)" in _why(caught)


def test_the_first_turn_walk_charges_each_new_state_a_second_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = deadlines._Walk.turns

    def counted(self: deadlines._Walk, *args: object) -> tuple[int, ...]:
        calls.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(deadlines._Walk, "turns", counted)
    request = Deadlines(PROBLEM, Procedure(2), (5, 5))
    meter = Meter()
    first_turns(request, [2, 3, 4, 5], budget=meter)  # a plain deal: the walk alone
    assert len(calls) < meter.work <= 2 * len(calls)


def _orders(sizes: tuple[int, ...]) -> list[tuple[int, ...]]:
    cards = [c for c, size in enumerate(sizes) for _ in range(size)]
    return list(itertools.permutations(cards))


def test_first_turns_of_a_plain_deal_match_every_order_of_the_pile() -> None:
    # At most one card of class 2 and at least two of classes 0 and 1: a condition can stop
    # holding, so the walk (not one programme) answers, its dead ends shared.
    checkpoints = [2, 3, 4, 5]
    request = Deadlines(PROBLEM, Procedure(2), (5, 5))
    got, _ = first_turns(request, checkpoints)
    orders = _orders(PROBLEM.group_sizes)
    counts = [0] * len(checkpoints)
    for order in orders:
        for i, seen in enumerate(checkpoints):
            first = sum(1 for c in order[:seen] if c < 2)
            second = sum(1 for c in order[:seen] if c == 2)
            if first >= 2 and second <= 1:
                counts[i] += 1
                break
    assert got == tuple(Fraction(c, len(orders)) for c in counts)
