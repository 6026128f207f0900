"""``distribution``: how many cards of a kind are seen, exactly."""

from __future__ import annotations

from deckcheck.analysis.anyof import DistributionReport, distribution
from deckcheck.analysis.categories import categorized
from deckcheck.analysis.odds import OddsOptions
from deckcheck.core.values import frozen
from deckcheck.decks.load import open_deck
from deckcheck.games.context import NO_CONTEXT, Context


@frozen
class DistributionRequest:
    """The cards matching ``selector`` (a selector, a card name, a category of the deck file)
    among those seen of ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in ``context``."""

    deck: str
    selector: str
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT


def run(request: DistributionRequest) -> DistributionReport:
    """P(exactly k), P(at least k) (also with the mulligan aimed at it) and the mean."""
    opened = open_deck(request.deck, request.context)
    setup, texts = categorized(opened, [f"{request.selector}>=1"])
    return distribution(setup, texts[0].rsplit(">=", 1)[0], request.options)
