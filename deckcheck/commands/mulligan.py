"""``mulligan``: the exact mulligan guide of a deck for a question (keep, redraw or which cards
to return, hand class by hand class), the play ``odds`` assumes."""

from __future__ import annotations

from deckcheck.analysis.categories import categorized
from deckcheck.analysis.mulligan import MulliganGuide, mulligan_guide
from deckcheck.analysis.odds import OddsOptions
from deckcheck.core.values import frozen
from deckcheck.decks.load import open_deck
from deckcheck.games.context import NO_CONTEXT, Context


@frozen
class MulliganRequest:
    """The guide for ``conditions`` in ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in
    ``context``; ``every_row``: every hand class, not only the most often dealt."""

    deck: str
    conditions: tuple[str, ...]
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT
    every_row: bool = False


def run(request: MulliganRequest) -> MulliganGuide:
    """The guide for the request's conditions: every hand class the game's rule tells apart,
    its best play, the chances kept and otherwise, and how often it is dealt."""
    r = request
    setup, texts = categorized(open_deck(r.deck, r.context), r.conditions)
    return mulligan_guide(setup, texts, r.options, every_row=r.every_row)
