"""Violations and validation reports: frozen values, every rule's findings together."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from enum import StrEnum

from deckcheck.core.result import BAD_INPUT, ILLEGAL, OK, UNVERIFIED, Json
from deckcheck.core.values import frozen


class Severity(StrEnum):
    """How a finding affects the deck's status."""

    ERROR = "error"  # the deck is illegal
    WARNING = "warning"  # worth knowing; the deck stays legal
    UNKNOWN = "unknown"  # the rule cannot be decided (catalog data missing)


class Status(StrEnum):
    """A deck's verdict."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNVERIFIED = "unverified"


@frozen
class Violation:
    """One finding of one rule: stable code, severity, a message with numbers, the cards."""

    code: str
    severity: Severity
    message: str
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Json]:
        """The documented JSON shape."""
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "cards": list(self.cards),
        }


def error(code: str, message: str, cards: Iterable[str] = ()) -> Violation:
    """An error violation (the deck is illegal)."""
    return Violation(code, Severity.ERROR, message, tuple(cards))


def warning(code: str, message: str, cards: Iterable[str] = ()) -> Violation:
    """A warning (the deck stays legal)."""
    return Violation(code, Severity.WARNING, message, tuple(cards))


def undecided(code: str, message: str, cards: Iterable[str] = ()) -> Violation:
    """A rule that cannot be decided for lack of catalog data (status ``unverified``)."""
    return Violation(code, Severity.UNKNOWN, message, tuple(cards))


@frozen
class Report:
    """The validation of one deck.

    ``side_zones`` counts the cards of each side zone (listed, never counted in the deck);
    ``notes`` say how doubtful lines were read. ``unknown_lines`` is set when some lines named
    no card: the findings are then those of the rest of the deck (a partial verdict).
    """

    deck: str
    game: str
    variant: str
    card_count: int
    violations: tuple[Violation, ...]
    rules_checked: tuple[str, ...] = ()
    deck_name: str | None = None
    card_names: Mapping[str, str] = field(default_factory=dict, compare=False)
    """How people read the cards the findings name (by id): the card's name, with its id beside
    it where the deck holds other cards of that name."""
    side_zones: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    unknown_lines: int = 0
    # other variants of the game the deck passes (said when it fails its own), and how a
    # user names one on the command line ("--format" for STCCG's formats)
    legal_under: tuple[str, ...] = ()
    variant_option: str = "--variant"

    @property
    def variant_noun(self) -> str:
        """What the game's players call a variant ("format")."""
        return self.variant_option.lstrip("-")

    @property
    def status(self) -> Status:
        """illegal if any error, else unverified if any rule was undecided, else legal."""
        severities = {v.severity for v in self.violations}
        if Severity.ERROR in severities:
            return Status.ILLEGAL
        if Severity.UNKNOWN in severities:
            return Status.UNVERIFIED
        return Status.LEGAL

    @property
    def exit_code(self) -> int:
        """0 legal, 1 illegal, 3 unverified; 2 for a partial verdict (some lines named no
        card, the rest was checked)."""
        if self.unknown_lines:
            return BAD_INPUT
        return {Status.LEGAL: OK, Status.ILLEGAL: ILLEGAL, Status.UNVERIFIED: UNVERIFIED}[
            self.status
        ]

    @property
    def partial(self) -> str:
        """ "without the N unknown lines" for a partial verdict, else empty."""
        if not self.unknown_lines:
            return ""
        n = self.unknown_lines
        return f"without the {n} unknown line{'s' if n != 1 else ''}"

    def to_json(self) -> dict[str, Json]:
        """The documented JSON shape (plus ``rules_checked``, ``name``, ``side_zones``,
        ``notes``; a partial verdict adds ``without_unknown_lines``)."""
        data: dict[str, Json] = {
            "deck": self.deck,
            "game": self.game,
            "variant": self.variant,
            "status": str(self.status),
            "card_count": self.card_count,
            "violations": [v.to_json() for v in self.violations],
            "rules_checked": list(self.rules_checked),
            "name": self.deck_name,
            "side_zones": dict(self.side_zones),
            "notes": list(self.notes),
        }
        if self.unknown_lines:
            data["without_unknown_lines"] = self.unknown_lines
        if self.legal_under:
            data["legal_under"] = list(self.legal_under)
        return data

    @property
    def legal_under_hint(self) -> str:
        """One line when the deck fails its variant but passes others of its game."""
        if not self.legal_under:
            return ""
        return (
            f"legal under {', '.join(self.legal_under)}: "
            f"{self.variant_option} {self.legal_under[0]}"
        )
