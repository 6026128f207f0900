"""Counts in deck files: one reading, with clear errors, for every format."""

from __future__ import annotations

from deckcheck.core.errors import DeckFormatError

MAX_COPIES_PER_LINE = 10_000
"""Largest count on one line; real decks hold a few copies, so more is surely a typo."""


def parse_count(raw: str, label: str, line: int | None) -> int:
    """A count from a deck file, with clear errors for negative and absurd values."""
    digits = raw.replace("_", "").replace(",", "")
    try:
        value = int(digits)
    except ValueError:
        raise DeckFormatError(
            f"count {raw!r} is not a whole number", source=label, line=line
        ) from None
    if value < 0:
        raise DeckFormatError(f"count {value} is negative", source=label, line=line)
    if value > MAX_COPIES_PER_LINE:
        raise DeckFormatError(
            f"count {raw} is more than the limit of {MAX_COPIES_PER_LINE:,} copies per line",
            source=label,
            line=line,
        )
    return value
