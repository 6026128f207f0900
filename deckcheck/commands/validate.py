"""``validate``: every rule of each deck's variant, all findings reported together."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.errors import DeckcheckError
from deckcheck.decks.load import load_deck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.decks.verdict import Outcome, Validation, validate_loaded, validate_partly
from deckcheck.games.context import NO_CONTEXT, Context


def validate_paths(paths: Sequence[str | Path], context: Context = NO_CONTEXT) -> Validation:
    """Validate several deck files, each opened in ``context``; a broken file does not stop the
    others."""
    outcomes = []
    for path in paths:
        try:
            loaded = load_deck(path, context)
            outcomes.append(Outcome(str(path), report=validate_loaded(loaded)))
        except PartlyResolvedError as exc:
            outcomes.append(Outcome(str(path), report=validate_partly(exc), error=exc))
        except DeckcheckError as exc:
            outcomes.append(Outcome(str(path), error=exc))
    return Validation(tuple(outcomes))
