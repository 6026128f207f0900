"""The mulligan guide with a condition every count passes (`>=0`): its selector picks no card
(`analysis.odds.bind(..., quiet=True)`), the guide's chances are those with the selector's
cards told apart, and a hand's line still finds its row."""

from __future__ import annotations

from pathlib import Path

import pytest

import deckcheck.analysis.odds as odds_module
from deckcheck.analysis.categories import categorized
from deckcheck.analysis.mulligan import hand_guide_line, mulligan_guide
from deckcheck.analysis.odds import OddsOptions
from deckcheck.decks.load import open_deck
from deckcheck.games.context import make_context

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUESTION = ["type:ship>=2", "faction:Terra>=0", "type:action<=9", "name:POINT OF<=1"]


def test_a_guide_with_idle_conditions(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = str(EXAMPLES / "ren-dhark/terra-custom.txt")
    setup, _ = categorized(open_deck(deck, make_context((), None, None)), [])
    options = OddsOptions(turn=2)
    quiet = mulligan_guide(setup, QUESTION, options, every_row=True)
    hand = [card for card, n in setup.pile for _ in range(n)][:7]
    line = hand_guide_line(setup, QUESTION, hand, options)
    assert line is not None
    with monkeypatch.context() as m:
        m.setattr(odds_module, "idle_selectors", lambda problem: frozenset())
        told = mulligan_guide(setup, QUESTION, options, every_row=True)
        assert hand_guide_line(setup, QUESTION, hand, options) == line
    assert quiet.probability == told.probability
    assert quiet.probability_without_mulligan == told.probability_without_mulligan
    assert len(quiet.rows) < len(told.rows)  # the idle selectors split no hand apart
    assert not any("faction:Terra" in name for name in quiet.classes)
