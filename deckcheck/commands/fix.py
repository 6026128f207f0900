"""``fix``: the nearest legal deck (:mod:`deckcheck.solve.nearest`), written where asked.

``--write`` replaces the deck file (its old bytes kept as ``DECK.bak``), editing it line by line
where its format allows; ``-o FILE`` writes the answer elsewhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.core.values import frozen
from deckcheck.decks.load import load_deck, owned_copies
from deckcheck.export.inplace import NOWHERE, AnswerTarget
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.solve.changes import NO_LIMITS, SolverLimits
from deckcheck.solve.nearest import FixResult, nearest_legal


@frozen
class FixRequest:
    """The deck to fix in ``context`` within ``limits`` (``keep``, ``owned``), preferring cards
    matching the selector ``prefer``, the answer put at ``target``."""

    deck: str
    limits: SolverLimits = NO_LIMITS
    prefer: str | None = None
    target: AnswerTarget = NOWHERE
    context: Context = NO_CONTEXT


def run(request: FixRequest) -> FixResult:
    """The nearest legal deck of ``request``, written where it asks."""
    r = request
    keep, owned = r.limits.keep, r.limits.owned
    return fix_deck(
        r.deck, keep=keep, owned=owned, prefer=r.prefer, target=r.target, context=r.context
    )


def fix_deck(
    deck: str,
    *,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    prefer: str | None = None,
    target: AnswerTarget = NOWHERE,
    context: Context = NO_CONTEXT,
) -> FixResult:
    """Load a deck, find its nearest legal deck, and put it where ``target`` says."""
    read_at_load = target.read_deck(deck)
    loaded = load_deck(deck, context)
    counts = owned_copies(owned, loaded.game, context) if owned is not None else None
    result = nearest_legal(loaded, keep=keep, owned=counts, prefer=prefer)
    if result.status != "fixed":
        return result
    answer = Deck(
        loaded.deck.label,
        loaded.deck.game,
        loaded.deck.variant,
        tuple(DeckEntry(card, n) for card, n in result.cards),
        loaded.deck.name,
        loaded.deck.format,
        loaded.deck.headers,
    )
    written = target.put(deck, read_at_load, loaded, answer, result.moves, context)
    return dataclasses.replace(result, written=written)
