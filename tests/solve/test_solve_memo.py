"""The memo of HiGHS's answers (:class:`deckcheck.solve.programme.Solves`) answers only the
very programme it saw: every input of a solve is in its key, and a programme changed after a
solve is solved again."""

from __future__ import annotations

import math

from deckcheck.core.numeric import np
from deckcheck.solve import programme as pr


def _programme() -> pr.Programme:
    p = pr.Programme()
    p.vars([3, 3, 3])
    p.row({0: 1, 1: 1, 2: 1}, 2, 9)
    p.weigh("a", {0: 1.0, 1: 1.0, 2: 1.0})
    p.weigh("b", {0: -1.0})
    return p


def test_held_rows_bounds_are_part_of_the_key() -> None:
    p = _programme()
    p.solve({"a": 1.0})
    wide = p.solve({"b": 1.0}, held=[("a", -math.inf, 9.0)])
    narrow = p.solve({"b": 1.0}, held=[("a", -math.inf, 2.0)])
    assert wide.x is not None and narrow.x is not None
    assert (wide.x[0], narrow.x[0]) == (3.0, 2.0)


def test_an_objective_declared_again_after_a_solve_is_solved_afresh() -> None:
    p = _programme()
    p.solve({"a": 1.0})
    # New weights tell apart columns the old ones merged: merging them still would be wrong.
    p.weigh("a", {0: 1.0, 1: 5.0, 2: 1.0})
    again = p.solve({"a": 1.0})
    assert again.x is not None
    assert again.x[1] == 0
    assert p.value("a", again.x) == again.objective == 2.0


def test_a_memo_of_size_zero_keeps_nothing() -> None:
    solves = pr.Solves(0)
    solves.keep(b"k", pr.OPTIMAL, np.zeros(2), 0.0)
    assert solves.get(b"k") is None
