"""``optimize`` bounds each class's count in the draw pile by the linear relaxation: the least
and the most the pile can hold. Where the legal deck found first holds none of a class in its
pile, the least is 0 without asking (no count is below 0, and that deck reaches 0): the least
is then what the relaxation gives, checked here by asking it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from deckcheck.analysis.odds import OddsOptions
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.decks.load import load_deck
from deckcheck.games.context import make_context
from deckcheck.solve import programme

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_least_the_first_deck_reaches_is_the_relaxations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = programme.Programme.solve
    relaxed: list[tuple[Any, dict[int, float]]] = []

    def solve(self: Any, *args: Any, **kw: Any) -> Any:
        if kw.get("relax") and not kw.get("bounds") and kw.get("cost"):
            relaxed.append((self, dict(kw["cost"])))
        return real(self, *args, **kw)

    monkeypatch.setattr(programme.Programme, "solve", solve)
    # a Dorn party of random heroes: the first legal deck holds none of some classes
    loaded = load_deck(
        str(EXAMPLES / "dorn" / "first-game-party.txt"), make_context(variant="random-party")
    )
    result, _ = optimize_loaded(loaded, ["recommended:true>=5"], OddsOptions(), changes=2)
    assert result.status == "optimal"
    # one class's most asked for each class: (-1 on its pile variable)
    (p,) = {id(q): q for q, _ in relaxed}.values()
    piles = [v for _, cost in relaxed if len(cost) == 1 for v, k in cost.items() if k < 0]
    asked = {v for _, cost in relaxed if len(cost) == 1 for v, k in cost.items() if k > 0}
    known = [v for v in piles if v not in asked]
    assert known, "every class's least was asked"
    for v in known:
        least = real(p, cost={v: 1.0}, relax=True).objective
        assert math.ceil(least - 1e-6) == 0, (v, least)
