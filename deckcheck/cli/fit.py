"""Fitting what is shown into the screen's width without cutting what a reader needs: a path
shortened from the left (its file name kept whole), a title whose game and variant stay in
view, a table of plain lines whose cells wrap at spaces instead of running off the screen."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

ELLIPSIS = "…"
PANEL_FRAME = 4
"""Cells a panel's frame and padding take from a line: "│ " and " │"."""
TITLE_FRAME = 6
"""Cells a panel's top line takes around its title: "╭─ " and " ─╮"."""

_SEPARATOR = re.compile(r"[/\\]")


def cells(text: str) -> int:
    """The width of ``text`` on a terminal (wide characters count twice)."""
    if text.isascii() and text.isprintable():
        return len(text)  # a cell each, as rich counts them: the common case, without a call
    from rich.cells import cell_len

    return cell_len(text)


def shorten_path(path: str, room: int) -> str:
    """``path`` as is when it fits ``room`` cells, else its last components after an ellipsis
    (``…/ren-dhark/terra-custom.txt``): as many whole folders as fit, and the file name always
    whole (a file name longer than the room is given whole, for the terminal to wrap)."""
    if cells(path) <= room:
        return path
    parts = _SEPARATOR.split(path)
    seps = _SEPARATOR.findall(path)
    tail = parts[-1]
    if not seps or cells(ELLIPSIS + seps[-1] + tail) > room:
        return tail  # the file name alone, whole (no room for more)
    shown = tail
    for part, sep in zip(reversed(parts[:-1]), reversed(seps), strict=False):
        longer = part + sep + shown
        if cells(ELLIPSIS + sep + longer) > room:
            return ELLIPSIS + sep + shown
        shown = longer
    return shown


def fit_title(path: str, rest: Sequence[str], width: int) -> str:
    """A panel title ``path · rest…`` for a screen ``width`` cells wide: the path shortened
    from the left so that the rest (the game, the variant) stays in view."""
    tail = "".join(f" · {part}" for part in rest if part)
    room = width - TITLE_FRAME
    if cells(path + tail) <= room:
        return path + tail
    return shorten_path(path, max(room - cells(tail), 1)) + tail


def fit_columns(
    rows: Sequence[Sequence[str]], width: int, keep: int = 1, gap: int = 2, whole: int = 1
) -> list[list[str]]:
    """Plain lines of a table (the first row its heading) within ``width`` cells: columns
    narrowed down to their longest word and their cells wrapped at spaces (no word broken);
    where even that is too wide, the last columns beyond the first ``keep`` are left out.
    The first ``whole`` columns (ids) are never broken."""
    columns = len(rows[0])
    natural = [max(cells(r[i]) for r in rows) for i in range(columns)]
    least = [
        max((cells(t.strip()) for r in rows for t in _TOKEN.findall(r[i])), default=0)
        for i in range(columns)
    ]
    least = [min(a, b) for a, b in zip(least, natural, strict=True)]
    least[:whole] = natural[:whole]  # ids: what users type, never broken
    while sum(least[:columns]) + gap * (columns - 1) > width and columns > keep:
        columns -= 1
    natural, least = natural[:columns], least[:columns]
    widths = natural[:]
    spare = sum(widths) + gap * (columns - 1) - width
    while spare > 0:
        # Narrow the widest column that can still give a cell.
        candidates = [i for i in range(columns) if widths[i] > least[i]]
        if not candidates:
            break
        widest = max(candidates, key=lambda i: widths[i])
        widths[widest] -= 1
        spare -= 1
    lines: list[list[str]] = []
    for row in rows:
        wrapped = [[row[i]] if i < whole else wrap(row[i], widths[i]) for i in range(columns)]
        lines += row_lines(wrapped, widths)
    return lines


def row_lines(
    parts: Sequence[Sequence[str]], widths: Sequence[int], right: Sequence[bool] = ()
) -> list[list[str]]:
    """The lines of a table row whose cells are already wrapped (``parts``: each cell's
    lines): each cell padded to its column's width, on the left where ``right`` says."""
    lines: list[list[str]] = []
    for depth in range(max(len(p) for p in parts)):
        line = []
        for i, (p, w) in enumerate(zip(parts, widths, strict=True)):
            text = p[depth] if depth < len(p) else ""
            pad = " " * (w - cells(text))
            line.append(pad + text if i < len(right) and right[i] else text + pad)
        lines.append(line)
    return lines


_TOKEN = re.compile(r"\s*[^\s/]+/?|\s*/")
"""A word with the spaces before it; a word may also end after a slash
(``Federation/Romulan/Klingon`` breaks as ``Federation/`` ``Romulan/`` ``Klingon``)."""


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces and after slashes,
    never inside a word (a word longer than ``width`` has a line of its own)."""
    lines: list[str] = []
    line = ""
    for token in _TOKEN.findall(text):
        if line and cells(line + token) > width:
            lines.append(line)
            line = token.lstrip()
        else:
            line = line + token if line else token.lstrip()
    lines.append(line)
    return lines


def joined(line: Sequence[str], gap: int = 2) -> str:
    """A line of :func:`fit_columns` as text, trailing spaces removed."""
    return (" " * gap).join(line).rstrip()


def bullet(text: str, mark: str = "•", style: str = "", indent: int = 0) -> RenderableType:
    """``mark text`` whose wrapped lines hang under the text, not under the mark."""
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    # fold: a word longer than the column (a path) is broken, never cut off
    grid.add_row(
        Text(" " * indent + mark + " ", style=style), Text(text, style=style, overflow="fold")
    )
    return grid


def command_line(console: Console, text: str, indent: int = 4) -> None:
    """A command to paste, on its own line and never broken (the terminal may cut what does
    not fit, but a copied line is whole)."""
    from rich.text import Text

    console.print(
        Text(" " * indent + text, no_wrap=True, overflow="ignore"), soft_wrap=True, crop=False
    )


def middle_cut(text: str, room: int) -> str:
    """``text`` whole when it fits ``room`` cells, else its start and its end around an
    ellipsis (``illegal-warp-sp…outposts.txt``): both ends of a name tell it apart."""
    if cells(text) <= room:
        return text
    if room <= 1:
        return ELLIPSIS
    left = (room - 1 + 1) // 2
    right = room - 1 - left
    head = ""
    for char in text:
        if cells(head + char) > left:
            break
        head += char
    tail = ""
    for char in reversed(text):
        if cells(char + tail) > right:
            break
        tail = char + tail
    return head + ELLIPSIS + tail


def table_width(columns: Sequence[Sequence[str]], gap: int = 2) -> int:
    """The cells a table of ``columns`` (each its heading and cells) takes on a line, each
    column as wide as its widest cell."""
    return sum(max(cells(c) for c in column) for column in columns) + gap * (len(columns) - 1)
