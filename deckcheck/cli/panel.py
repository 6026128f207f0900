"""A report's panel laid out as rich lays it out, written without rich's console.

Importing rich's console costs more than a short validation itself. Where rich would write
plain text anyway (standard output is no terminal and nothing makes it one, UTF-8, on a POSIX
system) and the panel holds nothing rich would escape or break specially (tabs, line breaks,
control characters), :func:`plain_panel` draws it with rich's own measuring and
line-breaking functions (light modules) by the rules of rich's ``Panel``, ``Padding`` and
``Group``. Anything else is drawn by rich; tests compare the two byte for byte.

The line breaking is rich's ``rich._wrap.divide_line``, not part of its documented interface:
should a rich release move or change it, rich draws every panel (:func:`plain_width` says
None), so the output stays rich's and nothing fails.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

MIN_WIDTH = 20
"""Narrower than this, rich draws (its corner cases for tiny widths are not repeated here)."""

Paragraph = tuple[str, int]
"""A text and its indent in cells."""

_TERMINAL_SETTINGS = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")


def plain_width(stream: Any) -> int | None:
    """The width rich would lay ``stream`` out at, when it would write plain text to it (as
    ``rich.console.Console`` decides: not a terminal, nothing forcing one, UTF-8); None when
    rich must draw."""
    if stream is None or sys.platform == "win32" or {"IPython", "idlelib"} & sys.modules.keys():
        return None
    if not _rich_measures():
        return None
    if any(name in os.environ for name in _TERMINAL_SETTINGS):
        return None
    isatty = getattr(stream, "isatty", None)
    try:
        if isatty is not None and isatty():
            return None
    except ValueError:  # a closed stream: no terminal
        pass
    if not (getattr(stream, "encoding", "utf-8") or "utf-8").lower().startswith("utf"):
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isascii() and columns.isdigit() and len(columns) <= 6:
        width = int(columns)
    else:  # the first standard stream that is a terminal gives the width, as in rich
        width = 0
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd).columns
            except (AttributeError, ValueError, OSError):
                continue
            break
        width = width or 80
    return width if width >= MIN_WIDTH else None


def _rich_measures() -> bool:
    """Whether the rich functions the panel is drawn with are there, as this module uses them."""
    try:
        from rich._wrap import divide_line
        from rich.cells import cell_len, set_cell_size
    except ImportError:
        return False
    return all(callable(f) for f in (divide_line, cell_len, set_cell_size))


def plain_panel(title: str, body: Sequence[Paragraph], width: int) -> str:
    """``Panel(Group(*paragraphs), title=title, title_align="left", expand=False)`` printed on
    a console ``width`` cells wide with no colour, each paragraph a ``Text`` (wrapped at
    spaces, long words folded) inside ``Padding`` of its indent."""
    from rich.cells import cell_len

    most = width - 2  # what the panel offers its padded content
    widest = 0
    for text, indent in body:  # the measure of the group, as Measurement.get takes it
        measured = min(cell_len(text), most)
        if indent:
            measured = most if most - indent < 1 else min(measured + indent, most)
        widest = max(widest, measured)
    inner = min(widest + 2, most) if most - 2 >= 1 else most
    heading = f" {title} "
    inner = min(most, max(inner, cell_len(heading) + 2))
    lines = [_top(heading, inner + 2)]
    for text, indent in body:
        for line in _wrapped(text, inner - 2 - indent):
            lines.append(f"│ {' ' * indent}{line} │")
    lines.append(f"╰{'─' * inner}╯")
    return "\n".join(lines) + "\n"


def _top(heading: str, width: int) -> str:
    from rich.cells import cell_len, set_cell_size

    if cell_len(heading) > width - 4:
        heading = set_cell_size(heading, width - 4)
    return f"╭─{heading}{'─' * (width - 4 - cell_len(heading))}─╮"


def _wrapped(text: str, width: int) -> list[str]:
    """``Text(text).wrap(width)`` with each line padded to ``width``, as rich renders it."""
    from rich._wrap import divide_line
    from rich.cells import set_cell_size

    offsets = divide_line(text, width, fold=True)
    lines = []
    for start, end in zip([0, *offsets], [*offsets, len(text)], strict=True):
        line = text[start:end]
        if len(line) > width:  # Text.rstrip_end: trailing spaces beyond the width go
            spaces = len(line) - len(line.rstrip())
            line = line[: len(line) - min(spaces, len(line) - width)]
        line = set_cell_size(line, width)  # cropped (Text.truncate) and padded
        lines.append(line)
    return lines
