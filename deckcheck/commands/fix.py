"""``fix``: the nearest legal deck (:mod:`deckcheck.solve.nearest`), written where asked.

``--write`` replaces the deck file (its old bytes kept as ``DECK.bak``), editing it line by line
where its format allows; ``-o FILE`` writes the answer elsewhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.values import frozen
from deckcheck.decks.collection import deck_caps
from deckcheck.decks.load import load_deck
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.inplace.edit import NOWHERE, AnswerTarget
from deckcheck.solve.changes import NO_LIMITS, SolverLimits
from deckcheck.solve.nearest import OWNED, FixResult, nearest_legal

COLLECTION = "--collection"
"""How a conflict names the caps of --collection and --reserve."""


@frozen
class FixRequest:
    """The deck to fix in ``context`` within ``limits`` (cards kept, the collection),
    preferring cards matching the selector ``prefer``, the answer put at ``target``."""

    deck: str
    limits: SolverLimits = NO_LIMITS
    prefer: str | None = None
    target: AnswerTarget = NOWHERE
    context: Context = NO_CONTEXT


def run(request: FixRequest) -> FixResult:
    """The nearest legal deck of ``request``, written where it asks."""
    r, limits = request, request.limits
    return fix_deck(
        r.deck,
        keep=limits.keep,
        owned=limits.owned,
        prefer=r.prefer,
        target=r.target,
        context=r.context,
        collection=limits.collection,
        reserve=limits.reserve,
    )


def fix_deck(
    deck: str,
    *,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    prefer: str | None = None,
    target: AnswerTarget = NOWHERE,
    context: Context = NO_CONTEXT,
    collection: str | Path | None = None,
    reserve: Sequence[str | Path] = (),
) -> FixResult:
    """Load a deck, find its nearest legal deck, and put it where ``target`` says.
    ``collection`` with ``reserve``: the deck takes only the copies the collection holds
    beyond what the reserved decks need."""
    read_at_load = target.read_deck(deck)
    loaded = load_deck(deck, context)
    caps = deck_caps(loaded, context, owned=owned, collection=collection, reserve=reserve)
    counts = caps.caps if caps is not None else None
    result = nearest_legal(loaded, keep=keep, owned=counts, prefer=prefer)
    if collection is not None and caps is not None:
        result = _named_collection(result, caps.notes)
    if result.status != "fixed":
        return result
    answer = dataclasses.replace(loaded.deck, entries=result.entries)
    written = target.put(deck, read_at_load, loaded, answer, result.moves, context)
    return dataclasses.replace(result, written=written)


def _named_collection(result: FixResult, notes: Sequence[str]) -> FixResult:
    """The caps named as the user gave them (--collection and --reserve, not --owned)."""
    reasons = tuple(
        f"{COLLECTION}: the copies left beside the reserved decks lack cards the rules need"
        if r.startswith(OWNED + ":")
        else r
        for r in result.reasons
    )
    conflict = tuple(COLLECTION if c == OWNED else c for c in result.conflict)
    return dataclasses.replace(
        result, conflict=conflict, reasons=reasons, notes=(*result.notes, *notes)
    )
