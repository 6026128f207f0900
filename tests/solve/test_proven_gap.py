"""What ``fix`` and ``optimize`` call proven is HiGHS's answer at a relative gap of 0.

HiGHS stops a mixed-integer search, by default, once its best deck is within a relative gap of
1e-4 of its bound. With a whole-number objective below 10,000 that still proves the optimum,
but a deck of several lines of 10,000 copies (accepted input) is tens of thousands of changes
from the nearest legal one: there a gap of 1e-4 would let a deck a few changes further be
called the nearest. Every solve therefore asks for a gap of 0.
"""

from __future__ import annotations

from typing import Any

import pytest
import scipy.optimize
from conftest import EXAMPLES

from deckcheck.analysis.odds import OddsOptions
from deckcheck.commands.fix import fix_deck
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.decks.load import load_deck
from deckcheck.solve import programme


def test_every_solve_asks_for_a_proven_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    real = scipy.optimize.milp
    gaps: list[Any] = []

    def milp(*args: Any, **kw: Any) -> Any:
        gaps.append((kw.get("options") or {}).get("mip_rel_gap"))
        return real(*args, **kw)

    monkeypatch.setattr(scipy.optimize, "milp", milp)
    # answers HiGHS gave earlier in this process would be given again without asking it
    monkeypatch.setattr(programme, "SOLVES", programme.Solves(programme.SOLVES_KEPT))
    fix_deck(str(EXAMPLES / "planetary-conquerors" / "illegal-size.txt"))
    loaded = load_deck(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    optimize_loaded(loaded, ["type:ship>=2"], OddsOptions(turn=1), changes=1)
    assert gaps and all(gap == 0.0 for gap in gaps), gaps


def test_a_deck_tens_of_thousands_of_changes_away_is_fixed_to_the_nearest(
    tmp_path: Any,
) -> None:
    folder = EXAMPLES / "planetary-conquerors"
    legal = (folder / "legal-80.txt").read_text(encoding="utf-8")
    overlay = folder / "example-set.toml"
    (tmp_path / overlay.name).write_bytes(overlay.read_bytes())
    deck = tmp_path / "huge.txt"
    deck.write_text(legal + "\n10000 Trooper\n10000 Raider\n10000 Lancer\n", encoding="utf-8")
    result = fix_deck(str(deck))
    # Each extra copy must go, and nothing else need change: the deck before them was legal.
    assert result.proven and result.distance == 30_000, (result.status, result.distance)
