"""`--expected-turn` walks one deal for both seats where both hold as many cards at every turn
(`deckcheck/analysis/deadlines.py`): the draw's first turns must be those its own walk gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.analysis import deadlines
from deckcheck.analysis.categories import categorized
from deckcheck.analysis.odds import OddsOptions, bind
from deckcheck.decks.load import open_deck
from deckcheck.draws.exact.deadlines import Meter
from deckcheck.games.context import make_context

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _asked(deck: str, conditions: list[str], turn: int) -> tuple[object, ...]:
    setup, _ = categorized(open_deck(str(EXAMPLES / deck), make_context((), None, None)), [])
    options = OddsOptions(turn=turn, expected_turn=True)
    return setup, bind(setup, conditions, options, deadlines=True), options


@pytest.mark.parametrize(
    "conditions",
    [
        ["type:Personnel>=2", "keywords:Male<=3", "rarity:U=1"],
        ["type:Ship>=1", "icons:Stf>=1", "type:Interrupt<=1", "universal:True=1"],
    ],
)
def test_one_walk_for_both_seats_gives_the_draws_own(conditions: list[str]) -> None:
    setup, bound, options = _asked("stccg-1e/legal-klingon.txt", conditions, 3)
    got = deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
    own = deadlines._side(bound, options, 3, True, Meter())  # type: ignore[arg-type]
    assert got.draw == own
    assert got.play == deadlines._side(bound, options, 3, False, Meter())  # type: ignore[arg-type]
    assert got.draw.second and not got.play.second


def test_seats_that_differ_walk_each() -> None:
    """Planetary Conquerors deals the player who does not start a larger hand."""
    setup, bound, options = _asked("planetary-conquerors/legal-50.txt", ["type:warrior>=2"], 3)
    got = deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
    assert got.draw == deadlines._side(bound, options, 3, True, Meter())  # type: ignore[arg-type]
    assert got.draw != got.play


@pytest.mark.parametrize(
    ("deck", "conditions"),
    [
        (
            "planetary-conquerors/legal-50.txt",
            ["name:Watchtower=2", "type:trap<=3", "name:Watchtower=1"],
        ),
        ("ren-dhark/terra-custom.txt", ["type:ship>=2", "type:action>=40"]),
    ],
)
def test_conditions_no_deal_holds_first_hold_at_no_turn(
    deck: str, conditions: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Known at once from the counts; the same table the walks give."""
    setup, bound, options = _asked(deck, conditions, 3)
    got = deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
    assert got.play.later == got.draw.later == 1
    monkeypatch.setattr(deadlines, "_never", lambda *args: False)
    assert deadlines.expected_turn(setup, bound, options) == got  # type: ignore[arg-type]
