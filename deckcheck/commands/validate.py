"""``validate``: every rule of each deck's variant, all findings reported together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from deckcheck.core.errors import DeckcheckError
from deckcheck.decks.load import load_deck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.decks.verdict import (
    Outcome,
    Validation,
    validate_loaded,
    validate_partly,
    with_hint,
)


def validate_paths(
    paths: Sequence[str | Path],
    *,
    game: str | None = None,
    variant: str | None = None,
    catalogs: Sequence[str | Path] = (),
    params: Mapping[str, str | int] | None = None,
) -> Validation:
    """Validate several deck files; a broken file does not stop the others."""
    outcomes = []
    for path in paths:
        try:
            loaded = load_deck(path, game=game, variant=variant, catalogs=catalogs, params=params)
            report = with_hint(loaded, validate_loaded(loaded))
            outcomes.append(Outcome(str(path), report=report))
        except PartlyResolvedError as exc:
            outcomes.append(Outcome(str(path), report=validate_partly(exc), error=exc))
        except DeckcheckError as exc:
            outcomes.append(Outcome(str(path), error=exc))
    return Validation(tuple(outcomes))
