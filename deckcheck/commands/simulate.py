"""``simulate``: a Monte Carlo estimate over whole deals, with its Wilson 95% interval."""

from __future__ import annotations

from collections.abc import Callable

from deckcheck.analysis.odds import OddsOptions, OddsReport, simulate_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.core.values import frozen
from deckcheck.decks.load import open_deck
from deckcheck.games.context import NO_CONTEXT, Context


@frozen
class SimulateRequest:
    """``trials`` deals of ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in ``context``,
    counting those where all ``conditions`` hold (None: 1,000,000, fewer where each deal costs
    more); a ``seed`` makes the run reproducible."""

    deck: str
    conditions: tuple[str, ...]
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT
    trials: int | None = None
    seed: int | None = None


def run(request: SimulateRequest, progress: Callable[[int, int], None] | None = None) -> OddsReport:
    """The estimate of the request; ``progress`` is called with ``(done, total)`` trials."""
    r = request
    setup = draw_setup(open_deck(r.deck, r.context))
    return simulate_odds(setup, r.conditions, r.options, r.trials, r.seed, progress)
