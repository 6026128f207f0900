"""Counts in deck files: one reading, with clear errors, for every format."""

from __future__ import annotations

from deckcheck.core.errors import DeckFormatError

MAX_COPIES_PER_LINE = 10_000
"""Largest count on one line; real decks hold a few copies, so more is surely a typo."""


def parse_count(raw: str, label: str, line: int | None) -> int:
    """A count from a deck file, with clear errors for negative and absurd values."""
    if len(raw) < 5 and raw.isascii() and raw.isdigit():
        return int(raw)  # a few digits: what nearly every line writes, never over the limit
    digits = raw.replace("_", "").replace(",", "")
    if len(digits.strip().lstrip("+-").lstrip("0")) > len(str(MAX_COPIES_PER_LINE)) + 1:
        # Never parsed: beyond a few thousand digits int() itself refuses (and slowly).
        shown = raw if len(raw) <= 24 else f"{raw[:12]}…{raw[-4:]} ({len(raw):,} characters)"
        if digits.strip().startswith("-") and digits.strip()[1:].isdigit():
            raise DeckFormatError(f"count {shown} is negative", source=label, line=line)
        if digits.strip().lstrip("+").isdigit():
            raise DeckFormatError(
                f"count {shown} is more than the limit of {MAX_COPIES_PER_LINE:,} copies per line",
                source=label,
                line=line,
            )
        raise DeckFormatError(f"count {shown!r} is not a whole number", source=label, line=line)
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
