"""The optimal player's return choice read from the return table of every hand at once
(``draws/exact/returned.py``): per hand, the kept part the walk over the hands picks (ties
keep, then the first best kept part), with no hand valued again once the table is built."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_return_hands import interesting, walked

from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.odds import optimal_return_choice
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Procedure, Query, Request, ReturnRule


@pytest.mark.parametrize(
    ("seed", "lookahead"), [(0, True), (3, True), (7, True), (2, False), (5, False)]
)
def test_choices_are_the_walks_without_valuing_a_hand(seed: int, lookahead: bool) -> None:
    """Small random problems over overlapping selectors, a hand of four returning two: every
    hand's choice from the table is the walk's, through the simulated player's chooser too,
    and reading them values no hand (no call of the recursion or of a hand's value)."""
    rng = random.Random(4200 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 5, any_of=seed == 3, most=12)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=lookahead)
    query = Query(4 if not lookahead else 6)
    engine = SequentialEngine(problem, procedure, query, (), 10**9)
    assert engine._hands_return(2) is not None  # the table answers, not the walk
    table, fraction = engine.return_table(2)
    slow, want_fraction = walked(problem, procedure, query).return_table(2)
    assert fraction == want_fraction
    calls = [0]

    def counting(method: Any) -> Any:
        def counted(*args: Any) -> Any:
            calls[0] += 1
            return method(*args)

        return counted

    engine.value = counting(engine.value)  # type: ignore[method-assign]
    engine.hand_value = counting(engine.hand_value)  # type: ignore[method-assign]
    hands = list(compositions(engine.red.sizes, engine.hand))
    got = [table[hand] for hand in hands]
    assert calls == [0]
    want = [slow[hand] for hand in hands]
    assert got == want
    assert any(k is None for k in want) and any(k is not None for k in want)
    chooser = optimal_return_choice(Request(problem, procedure, query), engine=engine)
    red = engine.red
    for hand in compositions(problem.group_sizes, engine.hand):
        kept = slow[red.to_classes(hand)]
        returned = chooser(hand)
        if kept is None:
            assert returned is None
        else:
            assert returned is not None
            left = [h - r for h, r in zip(hand, returned, strict=True)]
            assert red.to_classes(tuple(left)) == kept
    assert calls == [0]
