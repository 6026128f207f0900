"""TOML parsing with deckcheck's error messages (file and line) instead of tomllib's."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from deckcheck.core.errors import DeckcheckError

_LINE = re.compile(r"at line (\d+)")


def parse_toml(
    text: str, label: str, error: type[DeckcheckError] = DeckcheckError
) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes ``error`` naming the file and line."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise error("is nested too deeply to be a deck or catalog", source=label) from None
    except tomllib.TOMLDecodeError as exc:
        found = _LINE.search(str(exc))
        message = _LINE.sub("", str(exc)).replace("(, column", "(column").strip()
        raise error(
            f"is not valid TOML: {message}",
            source=label,
            line=int(found.group(1)) if found else None,
        ) from None


def table_lines(text: str, array_name: str) -> list[int]:
    """1-based line numbers of each ``[[array_name]]`` header, in order."""
    header = re.compile(r"^\s*\[\[\s*" + re.escape(array_name) + r"\s*\]\]")
    return [i for i, line in enumerate(text.split("\n"), start=1) if header.match(line)]


def key_line(text: str, start: int | None, key: str) -> int | None:
    """The line of ``key = …`` in the table that begins at line ``start`` (None if not found)."""
    if start is None:
        return None
    lines = text.split("\n")
    pattern = re.compile(r"""^\s*["']?""" + re.escape(key) + r"""["']?\s*=""")
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.lstrip().startswith("["):
            break
        if pattern.match(line):
            return number
    return start
