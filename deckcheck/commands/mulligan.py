"""``mulligan``: the exact mulligan guide of a deck for a question (keep, redraw or which cards
to return, hand class by hand class), the play ``odds`` assumes."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.analysis.mulligan import MulliganGuide, mulligan_guide
from deckcheck.analysis.odds import OddsOptions
from deckcheck.analysis.setup import DrawSetup


def mulligan(
    setup: DrawSetup, conditions: Sequence[str], options: OddsOptions, *, every_row: bool = False
) -> MulliganGuide:
    """The guide for ``conditions``: every hand class the game's rule tells apart, its best
    play, the chances kept and otherwise, and how often it is dealt."""
    return mulligan_guide(setup, conditions, options, every_row=every_row)
