"""Validation: every rule of the deck's variant, all findings reported together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.core.errors import DeckcheckError
from deckcheck.core.violations import Report, Violation
from deckcheck.decks.load import LoadedDeck, load_deck


def validate_loaded(loaded: LoadedDeck) -> Report:
    """Run every rule of the variant over the deck (never stopping at the first finding)."""
    deck, game, variant = loaded.deck, loaded.game, loaded.variant
    violations: list[Violation] = []
    for code in variant.rules:
        violations.extend(game.rule(code)(deck, loaded.catalog, variant))
    return Report(
        deck.label, game.id, variant.name, deck.size, tuple(violations), variant.rules, deck.name
    )


@dataclass(frozen=True)
class Outcome:
    """One deck's result: a report, or the input error that stopped it."""

    path: str
    report: Report | None = None
    error: DeckcheckError | None = None

    @property
    def exit_code(self) -> int:
        """2 for an input error, else the report's code."""
        return 2 if self.report is None else self.report.exit_code


def validate_paths(
    paths: Sequence[str | Path],
    *,
    game: str | None = None,
    variant: str | None = None,
    catalogs: Sequence[str | Path] = (),
    params: Mapping[str, Any] | None = None,
) -> list[Outcome]:
    """Validate several deck files; a broken file does not stop the others."""
    outcomes = []
    for path in paths:
        try:
            loaded = load_deck(path, game=game, variant=variant, catalogs=catalogs, params=params)
            outcomes.append(Outcome(str(path), report=validate_loaded(loaded)))
        except DeckcheckError as exc:
            outcomes.append(Outcome(str(path), error=exc))
    return outcomes
