"""Export: a deck in the formats other tools read, written without ever losing a file."""

from __future__ import annotations

from pathlib import Path

from deckcheck.core.result import ILLEGAL, OK, Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Status
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded, with_hint
from deckcheck.export.formats import render_with_notes
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.inplace.atomic import write_atomically


@frozen
class ExportResult:
    """What export did: the text (None when refused), the validation, where it went."""

    report: Report
    text: str | None
    written_to: Path | None
    refused: bool
    format: str = ""
    notes: tuple[str, ...] = ()  # what the format could not hold

    @property
    def exit_code(self) -> int:
        """1 when an illegal deck was refused, else 0."""
        return ILLEGAL if self.refused else OK

    def to_json(self) -> dict[str, Json]:
        """The validation, the format, where the text went (or the text itself), and notes on
        what the format could not hold."""
        return {
            "format": self.format,
            "refused": self.refused,
            "written_to": None if self.written_to is None else str(self.written_to),
            "text": self.text if self.written_to is None else None,
            "validation": self.report.to_json(),
            "notes": list(self.notes),
        }


def export_deck(
    loaded: LoadedDeck,
    fmt: str,
    *,
    output: str | Path | None = None,
    force: bool = False,
    allow_illegal: bool = False,
) -> ExportResult:
    """Validate a loaded deck, then render and (with ``output``) write atomically; an illegal
    deck is refused unless ``allow_illegal``."""
    report = validate_loaded(loaded)
    if report.status is Status.ILLEGAL and not allow_illegal:
        # As validate says it: the variants the deck passes (the one way to export it legal).
        return ExportResult(with_hint(loaded, report), None, None, True, fmt)
    out_path = None if output is None else Path(output)
    written = render_with_notes(loaded, fmt, out_path)
    if output is not None:
        write_atomically(output, written.text, force=force)  # as given: "x.html/" is refused
    return ExportResult(report, written.text, out_path, False, fmt, written.notes)


@frozen
class ExportRequest:
    """``deck`` opened in ``context`` in the format ``fmt``, written to ``output`` (None or
    ``-``: the text only; ``force`` replaces a file), refused when illegal unless
    ``allow_illegal``."""

    deck: str
    fmt: str
    output: str | Path | None = None
    force: bool = False
    allow_illegal: bool = False
    context: Context = NO_CONTEXT


def run(request: ExportRequest) -> ExportResult:
    """The export of ``request`` (:func:`export_deck`)."""
    r = request
    output = None if r.output is not None and str(r.output) == "-" else r.output
    loaded = load_deck(r.deck, r.context)
    return export_deck(loaded, r.fmt, output=output, force=r.force, allow_illegal=r.allow_illegal)
