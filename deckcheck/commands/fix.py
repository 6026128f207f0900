"""``fix``: the nearest legal deck (:mod:`deckcheck.solve.nearest`), written where asked.

``--write`` replaces the deck file (its old bytes kept as ``DECK.bak``), editing it line by line
where its format allows; ``-o FILE`` writes the answer elsewhere. ``validate --suggest`` asks for
each illegal deck's nearest legal deck.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.errors import DeckcheckError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Status
from deckcheck.decks.collection import deck_caps
from deckcheck.decks.load import load_deck
from deckcheck.decks.verdict import Outcome, Validation
from deckcheck.export.inplace import NOWHERE, AnswerTarget
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.solve.nearest import OWNED, FixResult, nearest_legal

COLLECTION = "--collection"
"""How a conflict names the caps of --collection and --reserve."""


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


# ------------------------------------------------------------------------ validate --suggest


@frozen
class SuggestedValidation:
    """``validate --suggest``: the validation, and for each illegal deck its nearest fix."""

    validation: Validation
    fixes: tuple[FixResult | None, ...]

    @property
    def exit_code(self) -> int:
        """The validation's exit code (a suggestion changes nothing)."""
        return self.validation.exit_code

    @property
    def errors(self) -> tuple[DeckcheckError, ...]:
        """The decks that could not be read."""
        return self.validation.errors

    def to_json(self) -> Json:
        """Each deck's report with ``"fix"`` beside it (null when legal or unreadable)."""
        items: list[Json] = []
        for outcome, fixed in zip(self.validation.outcomes, self.fixes, strict=True):
            data = outcome.to_json()
            if isinstance(data, dict):
                data["fix"] = None if fixed is None else fixed.to_json()
            items.append(data)
        return items[0] if len(items) == 1 else items


def suggest_fixes(
    outcomes: Sequence[Outcome],
    *,
    context: Context = NO_CONTEXT,
) -> tuple[FixResult | None, ...]:
    """The nearest legal deck of each illegal deck among ``outcomes`` (None for the others)."""
    fixes: list[FixResult | None] = []
    for outcome in outcomes:
        illegal = outcome.report is not None and outcome.report.status is Status.ILLEGAL
        if not illegal or outcome.path == "-":  # standard input cannot be read twice
            fixes.append(None)
            continue
        loaded = load_deck(outcome.path, context)
        fixes.append(nearest_legal(loaded))
    return tuple(fixes)
