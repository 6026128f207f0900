"""The level engine's cheaper steps keep its sums (``deckcheck/draws/exact/levels.py``).

A level's open states' losing and live cards are those found when the level was settled, not
summed again when it is listed; the residues are reduced a row at a time by numpy's division
by one integer. Both must be the sums and remainders worked out directly, for the named and
the typed engine (whose group counts leave those two sums as they are).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from test_level_moves_made import problems
from test_lookahead_levels import levels_at_once, named_problem  # noqa: F401 (the fixture)

from deckcheck.draws.exact import levels as levels_module
from deckcheck.draws.exact.levels import LevelEngine, _reduced
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Procedure, Query


def test_reduced_is_the_remainder_row_by_row() -> None:
    rng = np.random.default_rng(7)
    moduli = ((1 << 54) - 33, (1 << 54) - 111, 97)
    acc = rng.integers(0, 1 << 62, size=(3, 1000), dtype=np.int64)
    acc[:, :3] = [[0], [1], [96]]  # the edges: nothing, below every modulus
    want = acc % np.array(moduli, dtype=np.int64)[:, None]
    got = _reduced(acc.copy(), moduli)
    assert got.dtype == np.int64 and (got == want).all()


@pytest.mark.usefixtures("levels_at_once")
def test_listed_levels_read_the_sums_found_when_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    real = LevelEngine._held_apart
    listed: list[bool] = []  # per level listed, whether it was the typed engine's

    def held_apart(engine: Any, keys: Any) -> Any:
        assert engine._listed[0] is keys  # the level being listed: its sums are known
        losing, live = real(engine, keys)
        want_losing, want_live, _, _ = LevelEngine._sums(engine, keys)
        assert (losing == want_losing).all() and (live == want_live).all()
        listed.append(engine.typed)
        return losing, live

    monkeypatch.setattr(levels_module.LevelEngine, "_held_apart", held_apart)
    rng = random.Random(2024)
    asked = [(named_problem(rng, 5, 3, 6), 3, 1, 8, False), *problems(rng, 3)]
    for problem, hand, per_turn, seen, second in asked:
        procedure = Procedure(
            hand, hand_size_second=hand + 1, draws_per_turn=per_turn, lookahead=True
        )
        engine = SequentialEngine(problem, procedure, Query(seen, second=second), (), 10**8)
        engine.without_mulligan()
    assert set(listed) == {False, True}  # both engines listed levels
