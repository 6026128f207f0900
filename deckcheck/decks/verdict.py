"""Validation: every rule of the deck's variant, all findings reported together."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from deckcheck.catalog.model import card_labels
from deckcheck.core.errors import DeckcheckError, UnknownCardsError
from deckcheck.core.result import BAD_INPUT, Json, worst_exit_code
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity, Status, Violation
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.games.base import Variant


def validate_loaded(loaded: LoadedDeck) -> Report:
    """Run every rule of the variant over the deck (never stopping at the first finding)."""
    deck, game, variant = loaded.deck, loaded.game, loaded.variant
    violations: list[Violation] = []
    for code in variant.rules:
        violations.extend(game.rule(code)(deck, loaded.catalog, variant))
    return Report(
        deck.label,
        game.id,
        variant.name,
        deck.size,
        tuple(violations),
        variant.rules,
        deck.name,
        card_names(loaded, (c for v in violations for c in v.cards)),
        deck.side_zones(),
        deck.notes,
        variant_option=game.spec.game.variant_option,
    )


def variant_verdicts(loaded: LoadedDeck) -> tuple[tuple[str, Report], ...]:
    """The deck's verdict under every variant of its game, in the game's order (its own
    variant with the deck's settings, the others with theirs). A variant that changes cards
    (its catalog differs, the deck must be read again) is left out."""
    game = loaded.game
    verdicts = []
    for name, variant in game.variants.items():
        if variant.card_changes:
            continue
        if name == loaded.variant.name:
            variant = loaded.variant  # with the deck's settings
        verdicts.append((name, validate_loaded(replace(loaded, variant=variant))))
    return tuple(verdicts)


def with_hint(loaded: LoadedDeck, report: Report | None = None) -> Report:
    """``report`` (by default the deck's verdict, :func:`validate_loaded`) with the other
    variants the deck passes, when it fails its own (a variant that deals the deck at random
    is no other way to build it, and one that changes cards would read the deck anew: neither
    is offered)."""
    report = validate_loaded(loaded) if report is None else report
    if report.status is not Status.ILLEGAL:
        return report
    game = loaded.game
    passing = tuple(
        name
        for name, variant in game.variants.items()
        if name != loaded.variant.name
        and not variant.card_changes
        and not game.spec.variants[name].random
        and legal_under(loaded, variant)
    )
    return replace(report, legal_under=passing, variant_option=game.spec.game.variant_option)


def legal_under(loaded: LoadedDeck, variant: Variant) -> bool:
    """Whether the deck is legal under ``variant``: its rules run only until one finds an
    error or cannot decide (a yes or no needs no more; a report needs every finding)."""
    for code in variant.rules:
        for finding in loaded.game.rule(code)(loaded.deck, loaded.catalog, variant):
            if finding.severity is not Severity.WARNING:
                return False
    return True


def card_names(loaded: LoadedDeck, ids: Iterable[str]) -> dict[str, str]:
    """Each id's card name, with the id beside it where the deck holds other cards of that
    name; an id the deck does not hold is named from the catalog, an unknown one left out."""
    wanted = list(ids)
    if not wanted:
        return {}  # a deck that breaks nothing names no card (most decks a solver weighs)
    labels = card_labels(entry.card for entry in loaded.deck)
    names: dict[str, str] = {}
    for card_id in wanted:
        card = loaded.catalog.by_id(card_id)
        if card_id in labels:
            names[card_id] = labels[card_id]
        elif card is not None:
            names[card_id] = card.name
    return names


def validate_partly(error: PartlyResolvedError) -> Report | None:
    """The verdict on the lines that did resolve, marked with how many did not (None when the
    deck could not be loaded that far)."""
    if error.loaded is None:
        return None
    return replace(validate_loaded(error.loaded), unknown_lines=len(error.unresolved))


@frozen
class Missing:
    """Copies of one card a deck holds beyond what a collection has."""

    id: str
    name: str
    needed: int
    owned: int

    @property
    def lacking(self) -> int:
        """Copies the collection lacks."""
        return self.needed - self.owned

    def to_json(self) -> dict[str, Json]:
        """``{"id", "name", "needed", "owned", "missing"}``."""
        return {
            "id": self.id,
            "name": self.name,
            "needed": self.needed,
            "owned": self.owned,
            "missing": self.lacking,
        }


def missing_copies(loaded: LoadedDeck, owned: Mapping[str, int]) -> tuple[Missing, ...]:
    """What a collection (card id -> copies) lacks to build the deck, card by card."""
    cards = loaded.deck.cards()
    return tuple(
        Missing(card_id, cards[card_id].name, n, owned.get(card_id, 0))
        for card_id, n in loaded.deck.counts().items()
        if n > owned.get(card_id, 0)
    )


@frozen
class Outcome:
    """One deck's result: a report, or the input error that stopped it; with a collection
    (``validate --owned``), the copies it lacks to build the deck (``missing``)."""

    path: str
    report: Report | None = None
    error: DeckcheckError | None = None
    missing: tuple[Missing, ...] | None = None

    @property
    def exit_code(self) -> int:
        """2 for an input error (even beside a partial verdict), else the report's code."""
        if self.report is None or self.error is not None:
            return BAD_INPUT
        return self.report.exit_code

    def to_json(self) -> dict[str, Json]:
        """The report's JSON, or ``{"deck", "status": "error", "error"}``; with unknown lines
        each of them (``unknown_lines``) and the verdict on the rest (``partial``)."""
        if self.error is None and self.report is not None:
            verdict = self.report.to_json()
            if self.missing is not None:
                verdict["missing"] = [m.to_json() for m in self.missing]
            return verdict
        data: dict[str, Json] = {"deck": self.path, "status": "error", "error": str(self.error)}
        if isinstance(self.error, UnknownCardsError):
            data["unknown_lines"] = [
                {
                    "line": u.line,
                    "text": u.text,
                    "reason": u.reason,
                    "suggestions": list(u.suggestions),
                    "candidates": list(u.candidates),
                    "hint": u.hint,
                }
                for u in self.error.unresolved
            ]
        if self.report is not None:
            data["partial"] = self.report.to_json()
        return data


def judge(path: str, loaded: LoadedDeck, owned: Mapping[str, int] | None = None) -> Outcome:
    """One opened deck's outcome: every rule's findings, the other variants it passes when it
    fails its own and, given a collection (card id -> copies), the copies it lacks."""
    missing = None if owned is None else missing_copies(loaded, owned)
    return Outcome(path, report=with_hint(loaded), missing=missing)


@frozen
class Validation:
    """The validation of several decks: each one's outcome, in the order given."""

    outcomes: tuple[Outcome, ...]

    @property
    def exit_code(self) -> int:
        """The worst deck's code: 2 over 1 over 3 over 0."""
        return worst_exit_code(o.exit_code for o in self.outcomes)

    @property
    def errors(self) -> tuple[DeckcheckError, ...]:
        """The errors of the decks that could not be read."""
        return tuple(o.error for o in self.outcomes if o.error is not None)

    def to_json(self) -> Json:
        """One deck: its object; several: a list of them."""
        items: list[Json] = [o.to_json() for o in self.outcomes]
        return items[0] if len(items) == 1 else items
