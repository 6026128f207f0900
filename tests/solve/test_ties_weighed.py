"""A tie-break's objectives in turn, their best values found by one solve of a weighed sum:
the values are those of one solve after another, and the answer is the same solve's."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from deckcheck.decks.load import load_deck
from deckcheck.solve.programme import DISTANCE, OPTIMAL, Programme, deck_programme
from deckcheck.solve.ties import best_values, lexicographic, tie_breaks


def test_the_weighed_sum_gives_each_objective_its_best_in_turn() -> None:
    """Three copies to place among a, b, c: the fewest in a and b first (none: all in c),
    then the fewest in c. Summed with equal weights any placement would do; weighed, the
    first objective comes first, as one solve after another finds."""
    p = Programme()
    a, b, c = p.vars([3.0, 3.0, 3.0])
    p.row({a: 1.0, b: 1.0, c: 1.0}, 3, 3)
    p.weigh("first", {a: 1.0, b: 1.0})
    p.weigh("then", {c: 1.0})
    order = [("first", 1.0), ("then", 1.0)]
    assert best_values(p, order, [], 3.0) == {"first": 0, "then": 3}
    one = p.solve({"first": 1.0})
    assert one.status == OPTIMAL and round(one.objective) == 0
    two = p.solve({"then": 1.0}, held=[("first", -1e30, 0.0)])
    assert round(two.objective) == 3


@pytest.mark.parametrize("name", ["illegal-duplicate.txt", "illegal-monster-in-party.txt"])
def test_leaving_out_solves_gives_the_same_answer(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tie-breaks with their values found at once: fewer solves, the same solution."""
    loaded = load_deck(EXAMPLES / "dorn" / name)
    model = deck_programme(loaded)
    order = tie_breaks(model, None, set())
    first = model.programme.solve({DISTANCE: 1.0})
    solves = []
    plain = Programme.solve

    def counted(self: Programme, *args: object, **kw: object) -> object:
        solves.append(args)
        return plain(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Programme, "solve", counted)
    one_by_one = lexicographic(model, first, order)
    alone = len(solves)
    combined = lexicographic(model, first, order, combine=True)
    assert combined == one_by_one and combined.x is not None
    assert len(solves) - alone < alone


def test_a_count_of_changes_is_weighed_by_all_it_could_differ_by() -> None:
    """``new`` counts changes: it can differ by up to the distance (3), so ``warning`` weighs
    more than 3 of it. Any less and the sum would trade the first objective for the second:
    one warning (u = 1, v = 0) sums lower than none with three new copies (u = 0, v = 3)."""
    p = Programme()
    u, v = p.vars([3.0, 3.0])
    p.row({u: 3.0, v: 1.0}, 3, float("inf"))
    p.weigh("warning", {u: 1.0})
    p.weigh("new", {v: 1.0})
    order = [("warning", 1.0), ("new", 1.0)]
    assert best_values(p, order, [], 3.0) == {"warning": 0, "new": 3}
