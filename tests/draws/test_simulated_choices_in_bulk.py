"""The simulated player's choices looked up in bulk (``draws/simulate/vectorised.py``): the
decision lookup over keys past int64 (a column's bytes) gives every column the decision asked
of it one by one, batch after batch; the optimal return of many hands at once
(``_ReturnChooser.many``, read from the return table's ``kept_parts``) is the per-hand
choice; and a redraw guide refused by its kept hands' walk says so, with its figures."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_redraw_kept_charged import RD_ATTRIBUTES, _clear, _deck_request
from test_return_hands import interesting

from deckcheck.draws.answer import Intractable, Reach, reason_text
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.odds import optimal_return_choice
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Procedure, Query, Request, ReturnRule
from deckcheck.draws.simulate import vectorised


@pytest.mark.parametrize("top", [12, 300])
def test_keys_past_int64_give_each_column_its_own_decision(top: int) -> None:
    """33 rows of values below 12 (uint8 bytes) or 300 (int64 bytes): too many keys for an
    int64; columns met again in later batches keep their decisions."""
    bounds = [top] * 33
    asked: list[tuple[int, ...]] = []

    def decide(column: tuple[int, ...]) -> bool:
        asked.append(column)
        return sum(column) % 3 == 0 or column[0] == top - 1

    lookup = vectorised._Lookup(bounds, decide)
    assert lookup.radix is None and lookup.dense is None
    rng = np.random.default_rng(5)
    seen: set[tuple[int, ...]] = set()
    for _ in range(4):
        mat = rng.integers(0, top, size=(33, 40))
        mat[:, 20:] = mat[:, :20]  # repeats within the batch
        if seen:
            mat[:, :5] = np.asarray(sorted(seen)[:5]).T  # and columns of batches before
        codes = lookup.codes(mat)
        got = [lookup.values[c] for c in codes.tolist()]
        columns = [tuple(col) for col in mat.T.tolist()]
        assert got == [sum(col) % 3 == 0 or col[0] == top - 1 for col in columns]
        seen.update(columns)
    assert sorted(asked) == sorted(seen)  # each column asked once, whichever batch met it


@pytest.mark.parametrize(
    ("seed", "lookahead", "count"),
    [(0, True, 2), (3, True, 2), (2, False, 2), (9, False, 3), (6, False, 4)],
)
def test_returns_in_bulk_are_the_per_hand_choices(seed: int, lookahead: bool, count: int) -> None:
    """Every opening hand of small random problems over overlapping selectors (either-ors
    too), a hand of four returning two, three or all four: the bulk choice is the call's."""
    rng = random.Random(5100 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 5, any_of=seed == 3, most=12)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(count), lookahead=lookahead)
    query = Query(6 if lookahead else 4)
    engine = SequentialEngine(problem, procedure, query, (), 10**9)
    assert engine._hands_return(count) is not None  # the table of every hand answers
    chooser = optimal_return_choice(Request(problem, procedure, query), engine=engine)
    hands = list(compositions(problem.group_sizes, engine.hand))
    many = chooser.many(np.asarray(hands, dtype=np.int64).T)  # type: ignore[attr-defined]
    assert many is not None
    want = [chooser(hand) or (0,) * len(hand) for hand in hands]
    assert [tuple(row) for row in many.tolist()] == want
    assert any(any(row) for row in want) and not all(any(row) for row in want)


def test_returns_in_bulk_need_the_table_of_every_hand() -> None:
    """Where the return table came from the walk over the hands, there is no bulk choice."""
    rng = random.Random(5100)
    problem = interesting(rng, 8, 5, any_of=False, most=12)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=False)
    engine = SequentialEngine(problem, procedure, Query(4), (), 10**9)
    engine.use_levels = False
    engine._hands_return = lambda count: None  # type: ignore[method-assign]
    chooser = optimal_return_choice(Request(problem, procedure, Query(4)), engine=engine)
    hands = list(compositions(problem.group_sizes, engine.hand))
    assert chooser.many(np.asarray(hands, dtype=np.int64).T) is None  # type: ignore[attr-defined]


def test_a_redraw_guide_past_its_kept_hands_walk_says_which_bound() -> None:
    """The solve's own charge, what it left of the budget and the walk's transitions counted:
    the refusal names them instead of a step past the budget."""
    request = _deck_request("blue-starter.txt", RD_ATTRIBUTES[:4], 3, False)
    _clear()
    solution = optimal_redraw._solve(
        request.problem, request.procedure, request.query, optimal_redraw.DEFAULT_BUDGET, "optimal"
    )
    budget = solution.charged + 1  # one unit left: the walk cannot fit
    _clear()
    with pytest.raises(Intractable) as refused:
        optimal_redraw.optimal_redraw_table(request, budget=budget)
    reason = refused.value.reason
    assert reason is not None and reason.reach is Reach.WORK and reason.limit == budget
    text = reason_text(reason)
    assert text.startswith("optimal redraw: the hands the rule keeps (")
    assert f"take more than the 1 steps the solve ({solution.charged:,}) left" in text
    assert f"exact budget of {budget:,}" in text
    assert f"over {optimal_redraw._WALK_TRANSITIONS} of the walk's transitions" in text
