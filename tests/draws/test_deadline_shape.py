"""The deadline engine's merging of alike classes and its work charged from the problem's shape.

Random small problems are answered twice: by the engine, and by the same walk with no merging
(every class kept apart, as the engine once walked); the answers must be identical. The work
known from the shape (:func:`least_work`) is never more than what the answer spends, and a
budget below it is refused before any hand is walked.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from deckcheck.draws.answer import Intractable
from deckcheck.draws.compare import Comparison
from deckcheck.draws.exact import deadlines
from deckcheck.draws.exact.deadlines import Deadlines, Meter, deadline_table, first_turns
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    MulliganRule,
    Procedure,
    RedrawRule,
    ReturnRule,
)


def _problem(rng: random.Random) -> DrawProblem:
    groups = rng.randint(3, 6)
    selectors = rng.randint(2, 4)
    sizes = tuple(rng.randint(1, 4) for _ in range(groups))
    membership = tuple(tuple(rng.random() < 0.45 for _ in range(selectors)) for _ in range(groups))
    conditions = tuple(
        CountTest(rng.randrange(selectors), rng.choice(list(Comparison)), rng.randint(0, 2))
        for _ in range(rng.randint(1, 4))
    )
    return DrawProblem(sizes, membership, conditions)


def _rule(rng: random.Random, problem: DrawProblem) -> MulliganRule | None:
    pick = rng.randrange(3)
    if pick == 0:
        return None
    if pick == 1:
        return ReturnRule(rng.randint(1, 2))
    trigger = CountTest(rng.randrange(len(problem.membership[0])), Comparison.LE, rng.randint(0, 1))
    return RedrawRule((trigger,), rng.choice((1, 2, None)))


def _cases(count: int, seed: int) -> Iterator[tuple[Deadlines, list[int]]]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        problem = _problem(rng)
        pile = sum(problem.group_sizes)
        lookahead = rng.random() < 0.5
        procedure = Procedure(rng.randint(2, 3), None, rng.randint(1, 2), _rule(rng, problem))
        procedure = Procedure(
            procedure.hand_size, None, procedure.draws_per_turn, procedure.mulligan, lookahead
        )
        hand = procedure.hand_size
        last = min(pile // 2, hand + 3)
        if last < hand:
            continue
        due = tuple(rng.randint(hand, last) for _ in problem.conditions)
        turns = [hand + procedure.draws_per_turn * t for t in range(3)]
        turns = [t for t in turns if t <= last] or [hand]
        made += 1
        yield Deadlines(problem, procedure, due, use_mulligan=rng.random() < 0.8), turns


def _apart(
    self: deadlines._Walk, removed: tuple[int, ...], vec: tuple[int, ...], held: int
) -> tuple[int, ...]:
    return removed


def _both(request: Deadlines, turns: list[int], monkeypatch: pytest.MonkeyPatch) -> tuple:
    def answer() -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]:
        table = deadline_table(request)
        every = Deadlines(
            request.problem,
            request.procedure,
            (turns[-1],) * len(request.due),
            use_mulligan=request.use_mulligan,
        )
        probs, _ = first_turns(every, turns)
        return table.value, tuple(row.keep for row in table.rows), probs

    merged = answer()
    with monkeypatch.context() as patch:
        patch.setattr(deadlines._Walk, "_canonical", _apart)
        apart = answer()
    return merged, apart


@pytest.mark.parametrize("seed", range(4))
def test_merged_classes_answer_as_the_walk_that_keeps_them_apart(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    for request, turns in _cases(10, seed):
        merged, apart = _both(request, turns, monkeypatch)
        assert merged == apart, request


def test_merging_alike_classes_takes_fewer_states() -> None:
    # Two classes counted by selector 0 only, one by selector 1: once a card of selector 0 is
    # held, the first two (and those counted by nothing) behave alike.
    problem = DrawProblem(
        (3, 3, 4, 5, 6),
        ((True, False), (True, False), (True, True), (False, True), (False, False)),
        (CountTest(0, Comparison.GE, 1), CountTest(1, Comparison.GE, 2)),
    )
    request = Deadlines(problem, Procedure(3, None, 1, ReturnRule(1), True), (3, 7))
    merged = Meter()
    deadline_table(request, budget=merged)
    apart = Meter()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deadlines._Walk, "_canonical", _apart)
        deadline_table(request, budget=apart)
    assert merged.work < apart.work


@pytest.mark.parametrize("seed", range(3))
def test_the_least_work_is_spent_and_a_budget_below_it_is_refused_before_work(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[int] = []
    real = deadlines._Walk.value

    def counted(self: deadlines._Walk, *args: object) -> int:
        walked.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(deadlines._Walk, "value", counted)
    for request, turns in _cases(8, 100 + seed):
        least = deadlines.least_work(request)
        meter = Meter()
        deadline_table(request, budget=meter)
        assert least <= meter.work
        every = Deadlines(
            request.problem,
            request.procedure,
            (turns[-1],) * len(request.due),
            use_mulligan=request.use_mulligan,
        )
        least_turns = deadlines.least_work(every, turns)
        meter = Meter()
        first_turns(every, turns, budget=meter)
        assert least_turns <= meter.work
        walked.clear()
        with pytest.raises(Intractable):
            deadline_table(request, budget=Meter(least - 1))
        assert not walked  # refused before any hand was walked


def test_the_return_rule_listing_is_counted_from_the_shape() -> None:
    # Every (kept part, redraw) pair of a 3-card hand returning 2, by brute force: as many as
    # (hand, part of it kept) pairs.
    sizes = (2, 1, 3)
    pairs = sum(
        1
        for kept in deadlines.compositions(sizes, 1)
        for _ in deadlines.compositions(tuple(s - k for s, k in zip(sizes, kept, strict=True)), 2)
    )
    assert deadlines._pairs(sizes, 1, 2) == pairs
    hands = list(deadlines.compositions(sizes, 3))
    assert pairs == sum(1 for h in hands for _ in deadlines.compositions(h, 1))
    listing, n_hands = deadlines._hand_work(sizes, 3, ReturnRule(2), True)
    assert n_hands == sum(1 for _ in deadlines.compositions(sizes, 3))
    assert listing == 2 * n_hands + pairs


def test_an_expected_turn_past_its_least_work_is_refused_before_any_try(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conftest import EXAMPLES

    from deckcheck import api
    from deckcheck.analysis import deadlines as analysis
    from deckcheck.core.errors import DeckcheckError

    tried: list[int] = []

    def first_turns_counted(*args: object, **kwargs: object) -> object:
        tried.append(1)
        raise AssertionError("a try ran")

    monkeypatch.setattr(analysis, "first_turns", first_turns_counted)
    deck = str(EXAMPLES / "planetary-conquerors" / "legal-80.txt")
    catalog = EXAMPLES / "planetary-conquerors" / "example-set.toml"
    conditions = ["type:warrior>=1", "rarity:1>=2", "cost_gold:2=1", "type:building>=1"]
    with pytest.raises(DeckcheckError, match="out of exact reach"):
        api.odds(deck, conditions, catalogs=[catalog], expected_turn=True)
    assert not tried
