"""An either-or question refused with the mulligan and then without it: the simulation in
its place names both bounds, each with the budget it had (not only the first).

The work limit is injected small and the simulator replaced by a stand-in that records what
it was asked: no deal is dealt, no clock is read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fallback_budget import recorded, refused

from deckcheck.analysis.odds import OddsOptions, compute_any_of
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws import facade
from deckcheck.draws.answer import FactKind, reason_text

PC80 = str(Path(__file__).resolve().parents[2] / "examples/planetary-conquerors/legal-80.txt")
NAMES = ["Deep Drill", "Cosmium Siphon", "Dynamo Rig", "Stone Bunker", "Watchtower", "Mud Hut"]


def test_both_refusals_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 3_000)
    refusals = refused(monkeypatch)
    asked = recorded(monkeypatch)
    conditions = ["name:Trooper>=1", "name:Raider>=1", *(f"name:{n}>=1" for n in NAMES)]
    rest = tuple(range(2, 2 + len(NAMES)))
    setup = draw_setup(open_deck(PC80))
    report = compute_any_of(setup, conditions, ((0, *rest), (1, *rest)), OddsOptions(turn=5))
    assert not report.exact and len(refusals) == 2 and len(asked) == 1
    first, again = (reason_text(r.reason) for r in refusals)
    why = asked[0]["why"]
    assert why.kind is FactKind.SIMULATED_INSTEAD
    said = reason_text(why.reason)
    assert f"with the mulligan, {first}" in said and f"without it, {again}" in said
    line = next(a for a in report.assumptions if a.startswith("exact computation out of reach"))
    assert first in line and again in line
