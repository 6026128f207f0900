"""`--expected-turn` without `--turn`: the default horizon first, with its part of the budget;
past it the fewer turns from the fewest up, each with what the others left, the most that fit
kept (`deckcheck/analysis/deadlines.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.analysis import deadlines
from deckcheck.analysis.categories import categorized
from deckcheck.analysis.odds import OddsOptions, bind
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import open_deck
from deckcheck.draws.exact.deadlines import Meter
from deckcheck.games.context import make_context

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONDITIONS = ["type:Ship>=1", "type:Interrupt<=1"]


def _asked() -> tuple[object, ...]:
    deck = open_deck(str(EXAMPLES / "stccg-1e/legal-klingon.txt"), make_context((), None, None))
    setup, _ = categorized(deck, [])
    options = OddsOptions(expected_turn=True)
    return setup, bind(setup, CONDITIONS, options, deadlines=True), options


def _work(bound: object, options: object, turns: int) -> int:
    meter = Meter(10**9)
    deadlines._side(bound, options, turns, False, meter)  # type: ignore[arg-type]
    return meter.work


def test_past_the_default_the_most_turns_that_fit_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup, bound, options = _asked()
    w3, w6, w10 = (_work(bound, options, t) for t in (3, 6, 10))
    assert w3 < w6 < w10  # more turns, more work
    # Ten turns past their third; three and six within what is left, though six is past
    # half of it (shared out as before, six turns would have been refused).
    budget = 3 * (w3 + w6) // 2 + 3
    rest = budget - budget // 3
    assert w10 > budget // 3 and w6 > rest // 2 and w3 + w6 <= rest
    monkeypatch.setattr(deadlines, "DEADLINE_BUDGET", budget)
    got = deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
    assert got.horizon == 6 and got.wanted == 10
    assert got.play == deadlines._side(bound, options, 6, False, Meter())  # type: ignore[arg-type]
    # Six turns past what three left: three are kept.
    budget = w3 + w6
    rest = budget - budget // 3
    assert w10 > budget // 3 and w3 <= rest < w3 + w6
    monkeypatch.setattr(deadlines, "DEADLINE_BUDGET", budget)
    got = deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
    assert got.horizon == 3
    assert got.play == deadlines._side(bound, options, 3, False, Meter())  # type: ignore[arg-type]
    # Three turns past the whole budget (after ten's third): refused, naming three.
    monkeypatch.setattr(deadlines, "DEADLINE_BUDGET", w3 // 2)
    with pytest.raises(UsageError, match="over 3 turn"):
        deadlines.expected_turn(setup, bound, options)  # type: ignore[arg-type]
