"""Conditions on one selector text count one selector (`deckcheck/analysis/odds.py`, `bind`):
a range asked as two conditions is the same question as one, and a contradiction is found
before any engine runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import api

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TERRA = str(EXAMPLES / "ren-dhark/terra-custom.txt")
PC = str(EXAMPLES / "planetary-conquerors/legal-50.txt")


@pytest.mark.parametrize(
    ("deck", "turn"), [(TERRA, 2), (PC, 2), (str(EXAMPLES / "stccg-1e/legal-klingon.txt"), 3)]
)
def test_a_range_in_two_conditions_is_one(deck: str, turn: int) -> None:
    name = "name:POINT OF" if deck == TERRA else "type:warrior" if deck == PC else "type:Ship"
    two = api.odds(deck, [f"{name}>=1", f"{name}<=1", f"{name}>=0"], turn=turn)
    one = api.odds(deck, [f"{name}=1"], turn=turn)
    assert two.exact and one.exact
    assert two.probability_exact == one.probability_exact


def test_a_contradiction_on_one_text_is_impossible_at_once() -> None:
    got = api.odds(TERRA, ["name:Charaua=1", "type:ship>=2", "name:Charaua=0"], by_turn=3)
    assert got.exact and got.probability == 0
    assert any("contradict" in line for line in got.assumptions)
