"""The last turn of the level engine over overlapping selectors valued in closed form
(``draws/exact/attributes.py``: ``_closed_sums``): at most two cards left to draw and no
look after the level's own, a state's value is a sum over its classes' cards (one card) or
pairs of them (two), and a look the better of its two branches' sums. Checked to the integer
against the recursion on many random problems (overlapping selectors, ``>=``/``<=``/``=``,
either-ors, empty groups, one to three draws a turn, one to three turns, first and second
seat, returns of one to five), against the labelled-card expectimax on small decks, and for
the simulated player's looks at such levels; and charged before it runs.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from test_attribute_levels import engines
from test_attribute_player import looks
from test_lookahead_optimal import Expectimax
from test_return_hands import interesting

from deckcheck.draws.exact import attributes as attributes_module
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import DrawProblem, Procedure, Query, ReturnRule


def closed_kinds(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[int, bool]]:
    """Counts the states each kind of closed-form level (cards to draw, look) values."""
    seen: Counter[tuple[int, bool]] = Counter()
    real = attributes_module.AttributeLevels._closed_sums

    def counted(self: Any, vids: Any, *args: Any) -> Any:
        seen[args[-1]] += len(vids)
        return real(self, vids, *args)

    monkeypatch.setattr(attributes_module.AttributeLevels, "_closed_sums", counted)
    return seen


def with_empty_group(problem: DrawProblem) -> DrawProblem:
    """``problem`` with a group of no cards first (a selector's class that is never dealt)."""
    return DrawProblem(
        (0, *problem.group_sizes),
        (problem.membership[0], *problem.membership),
        problem.conditions,
        problem.selector_labels,
        problem.any_of,
    )


@pytest.mark.parametrize("seed", range(12))
def test_every_hand_is_worth_what_the_recursion_finds(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random problems (8 or 12 tests over five selectors, either-ors on odd seeds, an empty
    group on every third), one to three draws a turn, one to three turns, first or second
    seat: every hand's value is the recursion's to the integer, and the last turn was valued
    in closed form."""
    rng = random.Random(5100 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 10, any_of=seed % 2 == 1)
    if seed % 3 == 0:
        problem = with_empty_group(problem)
    per_turn = 1 + seed % 3
    turns = 1 + (seed // 3) % 3
    second = seed % 4 >= 2
    procedure = Procedure(
        3, hand_size_second=4, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True
    )
    query = Query(procedure.opening_size(second) + turns * per_turn, second=second)
    fast, slow = engines(problem, procedure, query)
    levels = fast._attribute_levels()
    if levels is None:
        pytest.skip("settled by the counts alone")
    kinds = closed_kinds(monkeypatch)
    hands = list(compositions(slow.red.sizes, slow.hand))
    got = levels.run(np.asarray(hands, dtype=np.int64))
    assert got == [slow.hand_value(hand) for hand in hands]
    assert kinds, "no level valued in closed form"


def test_each_kind_of_closed_level_is_met(monkeypatch: pytest.MonkeyPatch) -> None:
    """A look with one card to draw (one draw a turn), a look with two (two a turn) and two
    draws with no look (three a turn: the card kept at the look leaves two) are each valued
    in closed form in a run, and their values are the recursion's."""
    kinds = closed_kinds(monkeypatch)
    rng = random.Random(5300)
    for per_turn in (1, 2, 3):
        problem = interesting(rng, 12, 10, any_of=False)
        procedure = Procedure(3, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True)
        query = Query(3 + 2 * per_turn)
        fast, slow = engines(problem, procedure, query)
        levels = fast._attribute_levels()
        assert levels is not None
        hands = list(compositions(slow.red.sizes, slow.hand))
        assert levels.run(np.asarray(hands, dtype=np.int64)) == [
            slow.hand_value(hand) for hand in hands
        ]
    assert {(1, True), (2, True), (2, False)} <= set(kinds)


@pytest.mark.parametrize(("seed", "count"), [(0, 1), (1, 2), (2, 3), (3, 4), (7, 5)])
def test_answers_match_the_labelled_expectimax(seed: int, count: int) -> None:
    """Small decks (at most ten cards), a hand of five returning one to five, one to three
    draws a turn: the answer with and without the return mulligan is the labelled-card
    expectimax's and the recursion's."""
    rng = random.Random(5470 + seed)
    problem = interesting(rng, 8 if seed % 2 else 12, 5, any_of=seed == 2, most=10)
    per_turn = 1 + seed % 3
    procedure = Procedure(5, draws_per_turn=per_turn, mulligan=ReturnRule(count), lookahead=True)
    turns = 2 if 5 + 2 * per_turn + 2 <= problem.pile_size else 1
    query = Query(5 + turns * per_turn)
    oracle = Expectimax(problem, procedure, query)
    fast, slow = engines(problem, procedure, query)
    fast.estimate(count)
    assert fast.without_mulligan() == oracle.plain() == slow.without_mulligan()
    assert fast.return_table(count)[1] == oracle.returning(count) == slow.return_table(count)[1]
    levels = fast._attribute_levels()
    assert levels is not None and levels.ran


@pytest.mark.parametrize("per_turn", [1, 2, 3])
def test_states_of_closed_levels_are_valued_as_the_recursion(per_turn: int) -> None:
    """The values the simulated player reads at closed-form levels (a look's kept and
    put-under children, asked from the cards per class) are the recursion's, at the looks
    of random deals."""
    rng = random.Random(5500 + per_turn)
    problem = interesting(rng, 12, 10, any_of=per_turn == 2)
    procedure = Procedure(3, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True)
    query = Query(3 + 2 * per_turn)
    fast, slow = engines(problem, procedure, query)
    levels = fast._attribute_levels()
    assert levels is not None
    sizes = np.asarray(fast.red.sizes, dtype=np.int64)
    asked = 0
    for gone, held, top in looks(fast, rng, 40):
        n_held, n_gone = sum(held), sum(gone)
        with_top = list(held)
        with_top[top] += 1
        for level, cards in (
            ((n_held + 1, n_gone, False), with_top),
            ((n_held, n_gone, True), held),
        ):
            if levels._closed(level) is None:
                continue
            left = sizes - np.asarray(gone, dtype=np.int64)
            values, known = levels.states_values(
                level, np.asarray(cards, dtype=np.int64)[:, None], left[:, None]
            )
            assert known.all()
            (got,) = levels._ints(values)
            left_c, vec = slow._canonical(tuple(left.tolist()), slow.red.cond.of(tuple(cards)))
            assert got == slow.value(left_c, vec, level[0], level[2], n_gone)
            asked += 1
    assert asked > 10


def test_closed_form_is_charged_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each closed-form level is charged ``cells // CLOSED_CELLS_PER_UNIT + 2 * LEVEL_UNITS``
    units (its states times the classes they hold cards of and ``CLOSED_STATE_CELLS``)
    before any of its values is worked out."""
    rng = random.Random(4205)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    engine.estimate(2)
    levels = engine._attribute_levels()
    assert levels is not None
    log: list[tuple[str, int]] = []
    told = levels.charge

    def charge(units: int) -> None:
        log.append(("charge", units))
        told(units)

    real = attributes_module.AttributeLevels._closed_sums

    def summed(self: Any, vids: Any, left: Any, *args: Any) -> Any:
        classes = int(left.any(axis=1).sum())
        log.append(("sums", len(vids) * (classes + attributes_module.CLOSED_STATE_CELLS)))
        return real(self, vids, left, *args)

    levels.charge = charge
    monkeypatch.setattr(attributes_module.AttributeLevels, "_closed_sums", summed)
    engine.return_table(2)
    sums = [i for i, (what, _) in enumerate(log) if what == "sums"]
    assert sums
    for previous, i in zip([0, *sums], sums, strict=False):
        # Charged since the last closed-form level, before this one's sums.
        units = (
            log[i][1] // attributes_module.CLOSED_CELLS_PER_UNIT + 2 * attributes_module.LEVEL_UNITS
        )
        assert ("charge", units) in log[previous:i]


def test_a_pile_too_large_for_the_sums_is_listed() -> None:
    """The closed form's sums stay below ``N**3``; where that times a limb would pass
    ``2**62`` the last turn is listed as the others are."""
    rng = random.Random(5600)
    problem = interesting(rng, 12, 10, any_of=False)
    procedure = Procedure(3, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(7), (), 10**12)
    levels = engine._attribute_levels()
    assert levels is not None
    last_look = (engine.seen - 2, engine.seen - 2, False)
    assert levels._closed(last_look) == (2, True)
    levels.n = 1 << 11
    assert levels._closed(last_look) is None
