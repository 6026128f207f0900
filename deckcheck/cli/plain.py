"""A report written to a pipe or a file: plain lines, no frame, no colour, no rich.

Where standard output is no terminal (and the environment does not ask for one, as rich reads
it: ``FORCE_COLOR``, ``TTY_COMPATIBLE``, ``TTY_INTERACTIVE``), a validation report is its
verdict on one line and each paragraph on the lines after it, wrapped at the width a terminal
would have (``COLUMNS``, else the first standard stream that is a terminal, else 80) and
indented as the paragraph. A script is better served still by ``--json``. Importing rich's
console costs more than a short validation itself; this needs only :mod:`textwrap`.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from typing import Any

Paragraph = tuple[str, int]
"""A text and its indent in columns."""

TERMINAL_SETTINGS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
"""Variables with which rich treats standard output as a terminal: then rich draws."""


def piped_width(stream: Any) -> int | None:
    """The width to wrap plain lines at when ``stream`` is no terminal and nothing asks for
    one; None when the report is drawn for a terminal."""
    if stream is None or any(name in os.environ for name in TERMINAL_SETTINGS):
        return None
    isatty = getattr(stream, "isatty", None)
    try:
        if isatty is not None and isatty():
            return None
    except ValueError:  # a closed stream: no terminal
        pass
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and len(columns) <= 6 and int(columns) > 0:
        return int(columns)
    for fd in (0, 1, 2):  # a pipe's reader is often a terminal: its width, as rich takes it
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def plain_lines(title: str, body: Sequence[Paragraph], width: int) -> str:
    """``title`` on a line, then each paragraph wrapped at ``width`` (long words folded, so
    that no line is wider) and indented; a blank line ends the report."""
    lines = [title]
    for text, indent in body:
        room = max(1, width - indent)
        wrapped = textwrap.wrap(text, room, break_on_hyphens=False) or [""]
        lines += [" " * indent + line for line in wrapped]
    return "\n".join(lines) + "\n\n"
