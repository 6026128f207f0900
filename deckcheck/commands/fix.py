"""``fix``: the nearest legal deck (:mod:`deckcheck.solve.nearest`), written where asked.

``--write`` replaces the deck file (its old bytes kept as ``DECK.bak``), editing it line by line
where its format allows; ``-o FILE`` writes the answer elsewhere. ``validate --suggest`` asks for
each illegal deck's nearest legal deck.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Status
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import Outcome, Validation
from deckcheck.export.formats import formats_for, render
from deckcheck.export.write import backup_file, write_atomically
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.solve.nearest import Change, FixResult, nearest_legal


def _owned_counts(path: str | Path, loaded: LoadedDeck, context: Context) -> dict[str, int]:
    collection = load_deck(path, Context(context.overlays, loaded.game.id))
    return dict(collection.deck.counts())


def _text_of(loaded: LoadedDeck, deck: Deck, out_path: Path | None) -> str:
    answer = dataclasses.replace(loaded, deck=deck)
    fmt = loaded.source.format if loaded.source.format in formats_for(answer) else "text"
    return render(answer, fmt, out_path)


def fix_deck(
    deck: str,
    *,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    prefer: str | None = None,
    write: bool = False,
    output: Path | None = None,
    force: bool = False,
    context: Context = NO_CONTEXT,
) -> FixResult:
    """Load a deck, find its nearest legal deck; with ``write`` replace the file (atomically,
    the old one kept as ``DECK.bak``), with ``output`` write the answer there (``-``: only
    return its text)."""
    if write and output is not None:
        raise UsageError("give --write or -o FILE, not both")
    if write and deck == "-":
        raise UsageError("--write needs a deck file, not standard input (use -o FILE)")
    loaded = load_deck(deck, context)
    counts = _owned_counts(owned, loaded, context) if owned is not None else None
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
    if write:
        path = Path(deck)
        saved = backup_file(path)
        if _edited_in_place(path, loaded, result.changes, context):
            text = path.read_text(encoding="utf-8", errors="replace")
        else:
            text = _text_of(loaded, answer, path)
            write_atomically(path, text, force=True)
        return dataclasses.replace(result, text=text, written_to=str(path), backup=str(saved))
    if output is not None:
        if str(output) == "-":
            return dataclasses.replace(result, text=_text_of(loaded, answer, None))
        text = _text_of(loaded, answer, output)
        write_atomically(output, text, force=force)
        return dataclasses.replace(result, text=text, written_to=str(output))
    return result


def _edited_in_place(
    path: Path, loaded: LoadedDeck, changes: Sequence[Change], context: Context
) -> bool:
    """Apply the fix to the file line by line, keeping its comments, order and format, where
    the file's format can be edited so and the order of its cards does not matter (a Drake
    stack may be reordered by the fix: it is written anew). False: write it anew instead."""
    from deckcheck.decks.rewrite import Change as EditChange
    from deckcheck.export.inplace import apply_changes

    if loaded.game.spec.ordered:
        return False
    try:
        apply_changes(
            path,
            [EditChange(c.card, c.delta) for c in changes if c.delta],
            Context(context.overlays, loaded.game.id, loaded.variant.name),
        )
    except DeckcheckError:
        return False  # a format the editor does not write (CSV, Markdown, gemp)
    return True


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
