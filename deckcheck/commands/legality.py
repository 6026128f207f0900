"""``legality``: a deck under every variant of its game, one verdict each (a legality panel)."""

from __future__ import annotations

from pathlib import Path

from deckcheck.core.result import ILLEGAL, OK, UNVERIFIED, Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Severity, Status
from deckcheck.decks.load import LoadedDeck, load_deck, resolve_source
from deckcheck.decks.verdict import validate_loaded, variant_verdicts
from deckcheck.games.context import NO_CONTEXT, Context


@frozen
class VariantVerdict:
    """One row: a variant, the deck's status under it, the codes of its findings."""

    variant: str
    status: str
    codes: tuple[str, ...]
    own: bool = False  # the deck's own variant

    def to_json(self) -> dict[str, Json]:
        """``{"variant", "status", "codes"}``."""
        return {"variant": self.variant, "status": self.status, "codes": list(self.codes)}


@frozen
class Legality:
    """A deck under every variant of its game."""

    deck: str
    game: str
    variant: str
    variants: tuple[VariantVerdict, ...]

    @property
    def exit_code(self) -> int:
        """0 when the deck passes some variant; else 3 when some could not be decided; else 1."""
        statuses = {v.status for v in self.variants}
        if str(Status.LEGAL) in statuses:
            return OK
        return UNVERIFIED if str(Status.UNVERIFIED) in statuses else ILLEGAL

    def to_json(self) -> dict[str, Json]:
        """``{"deck", "game", "variants": [{"variant", "status", "codes"}]}`` (and the deck's
        own ``variant``)."""
        return {
            "deck": self.deck,
            "game": self.game,
            "variant": self.variant,
            "variants": [v.to_json() for v in self.variants],
        }


def deck_legality(loaded: LoadedDeck, context: Context = NO_CONTEXT) -> Legality:
    """The loaded deck's verdict under each variant of its game, in the game's order: the
    variants that change cards are judged with their own catalog (the deck read again in
    ``context``, the one it was opened in), the others on the deck as read."""
    reports = dict(variant_verdicts(loaded))
    rows = []
    for name in loaded.game.variants:
        report = reports.get(name)
        if report is None:
            # a variant that changes cards reads the deck again under its catalog
            again = resolve_source(loaded.source, Context(context.overlays, loaded.game.id, name))
            report = validate_loaded(again)
        codes = tuple(
            dict.fromkeys(v.code for v in report.violations if v.severity is not Severity.WARNING)
        )
        rows.append(VariantVerdict(name, str(report.status), codes, name == loaded.variant.name))
    return Legality(loaded.deck.label, loaded.game.id, loaded.variant.name, tuple(rows))


@frozen
class LegalityRequest:
    """The deck file (or ``-``) to judge under every variant of its game, in ``context``."""

    deck: str | Path
    context: Context = NO_CONTEXT


def run(request: LegalityRequest) -> Legality:
    """The legality of ``request`` (:func:`deck_legality`)."""
    return deck_legality(load_deck(request.deck, request.context), request.context)
