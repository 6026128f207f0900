"""``odds``: the exact chance that conditions hold among the cards seen of a deck, a pile or a
deck given by its size and categories (a simulation, said so in the report, where exact maths
is out of reach); conditions joined by ``|`` are alternatives (:mod:`deckcheck.analysis.anyof`).
"""

from __future__ import annotations

from collections.abc import Callable

from deckcheck.analysis.anyof import any_of_odds, has_any_of
from deckcheck.analysis.categories import categorized
from deckcheck.analysis.deadlines import answer_odds
from deckcheck.analysis.deckless import deckless_setup
from deckcheck.analysis.odds import OddsOptions, OddsReport
from deckcheck.core.errors import UsageError
from deckcheck.core.values import frozen
from deckcheck.decks.load import open_deck
from deckcheck.games.context import NO_CONTEXT, Context


@frozen
class OddsRequest:
    """The odds of ``conditions`` in ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in
    ``context``, or, with ``size``, in a deck of that many cards made of ``categories``
    (``"ships=15"``; the rest other cards) and no file."""

    deck: str | None
    conditions: tuple[str, ...]
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT
    size: int | None = None
    categories: tuple[str, ...] = ()


def run(request: OddsRequest, progress: Callable[[int, int], None] | None = None) -> OddsReport:
    """The odds that all the request's conditions hold among the cards seen; ``progress`` is
    called with ``(done, total)`` during long computations."""
    r = request
    if r.size is not None:
        seen = r.options.seen
        setup = deckless_setup(r.size, r.categories, context=r.context, seen=seen)
        conditions = list(r.conditions)
    elif r.categories:
        raise UsageError("--category describes a deck given by --deck N (no deck file)")
    else:
        setup, conditions = categorized(open_deck(r.deck or "-", r.context), r.conditions)
    if has_any_of(conditions):
        return any_of_odds(setup, conditions, r.options)
    return answer_odds(setup, conditions, r.options, progress)
