"""Text folding used wherever a user's spelling meets a catalog's."""

from __future__ import annotations

import re
import unicodedata

_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
    }
)
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """The comparison key of a name: case, accents, curly quotes, dashes and spaces folded.

    >>> fold("  Blücher ") == fold("BLUCHER")
    True
    """
    text = unicodedata.normalize("NFKD", text.translate(_QUOTES))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _SPACES.sub(" ", text).strip().casefold()


def tidy(text: str) -> str:
    """Curly quotes, typographic dashes and odd spaces made plain, whitespace collapsed; case
    and accents kept (for display and for parsing names)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text.translate(_QUOTES))).strip()


def slug(text: str) -> str:
    """A lowercase ASCII identifier made of a name (for ids of user-defined cards)."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-") or "card"


def suggest(word: str, choices: list[str], limit: int = 3, cutoff: float = 60.0) -> list[str]:
    """Up to ``limit`` of ``choices`` that look like ``word`` (best first), for "did you mean".

    rapidfuzz is imported here, on the error path only, to keep start-up light.
    """
    from rapidfuzz import fuzz, process, utils

    folded: dict[str, str] = {}
    for choice in choices:
        folded.setdefault(fold(choice), choice)
    matches = process.extract(
        fold(word),
        list(folded),
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        limit=limit,
        score_cutoff=cutoff,
    )
    return [folded[m[0]] for m in matches]
