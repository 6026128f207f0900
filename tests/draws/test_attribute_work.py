"""The work of the level engine over overlapping selectors (``draws/exact/attributes.py``)
on one fixed problem: the states it lists and the children it makes, and its tables' charges
(amount, and before the tables are filled)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from test_return_hands import interesting

from deckcheck.draws.exact.attributes import MOVE_UNITS, TABLE_CELLS_PER_UNIT, AttributeLevels
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Procedure, Query, ReturnRule


def fixed_engine() -> SequentialEngine:
    """Eight classes over overlapping selectors (seed 4205), a return of two, four draws of
    two after a hand of four with the look-ahead: a small chance, neither 0 nor 1."""
    rng = random.Random(4205)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    engine.estimate(2)
    return engine


def test_states_listed_and_children_made_are_pinned() -> None:
    """The states listed and the children made on the fixed problem. Pinned from the engine
    (its answer the recursion's, checked here); how they move tells what was lost: classes
    that move the same counts never merged give 496 states and 1774 children, so a normal
    form that merges less (or a level listed twice) fails here while the values stay
    exact."""
    engine = fixed_engine()
    _, chance = engine.return_table(2)
    levels = engine._attributes
    assert levels is not None and levels.ran
    assert (levels.listed, levels.made) == (380, 1285)
    slow = fixed_engine()
    slow.use_attributes = False
    assert slow.return_table(2)[1] == chance
    assert 0 < chance < 1


def test_the_tables_are_charged_before_they_are_filled() -> None:
    """Each filling of the tables for new capped count vectors is charged ``1 + vectors *
    (classes + 1) // TABLE_CELLS_PER_UNIT`` units, and of which class takes a state out of its
    normal form ``1 + vectors * classes // TABLE_CELLS_PER_UNIT + MOVE_UNITS * classes``,
    each before any of it is written."""
    engine = fixed_engine()
    levels = engine._attribute_levels()
    assert isinstance(levels, AttributeLevels)
    n_cls = len(engine.red.sizes)
    log: list[tuple[str, int, int, int]] = []
    told, ensure, ensure_changes = levels.charge, levels._ensure, levels._ensure_changes

    def filled() -> tuple[int, int]:
        return int(levels.known.sum()), int(levels.changes_known.sum())

    def charge(units: int) -> None:
        log.append(("charge", units, *filled()))
        told(units)

    def ensuring(vids: Any) -> None:
        new = len(np.unique(vids[~levels.known[vids]]))
        if new:
            log.append(("tables", 1 + new * (n_cls + 1) // TABLE_CELLS_PER_UNIT, *filled()))
        ensure(vids)

    def changing(vids: Any) -> None:
        new = len(np.unique(vids[~levels.changes_known[vids]]))
        if new:
            units = 1 + new * n_cls // TABLE_CELLS_PER_UNIT + MOVE_UNITS * n_cls
            log.append(("changes", units, *filled()))
        ensure_changes(vids)

    levels.charge = charge
    levels._ensure = ensuring  # type: ignore[method-assign]
    levels._ensure_changes = changing  # type: ignore[method-assign]
    before = engine.work
    engine.return_table(2)
    tables = [i for i, entry in enumerate(log) if entry[0] == "tables"]
    assert len(tables) >= 2
    for i in tables:
        # The next thing done is its charge, of that amount, nothing filled in between.
        assert log[i + 1] == ("charge", *log[i][1:])
    changes = [i for i, entry in enumerate(log) if entry[0] == "changes"]
    assert changes
    for i in changes:
        # Its own tables first (each charged as above), then its charge, before a change
        # is written.
        j = i + 1
        while log[j][0] == "tables":
            j += 2
        assert log[j][:2] == ("charge", log[i][1])
        assert log[j][3] == log[i][3]
    assert engine.work > before
