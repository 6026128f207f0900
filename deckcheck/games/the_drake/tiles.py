"""Draw The Drake's troop tiles as small character grids, and read such a grid back.

A side of a tile is a grid of cells around the troop's own square (its *pivot*), as on the
physical tile: one cell per square, the opponent's side (positive dy) at the top, offsets as the
BLUE player sees them. Symbols (Unicode / ASCII):

    troop square  ◆ / T        shift  ● / o        strike  × / x        empty  · / .
    slide         an arrow pointing the slide's way, drawn on its first step:
                  ↑ ↓ ← → ↗ ↖ ↘ ↙  /  ^ v < > / \\ \\ /

Pure module: no imports from the rest of deckcheck. An action is a mapping with the keys
``action`` ("shift", "slide" or "strike"), ``dx`` and ``dy`` (ints), as in the catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from deckcheck.core.values import frozen

__all__ = ["TileError", "legend", "parse_grid", "render_side", "render_tile"]

ACTIONS = ("shift", "slide", "strike")


class TileError(ValueError):
    """An action that cannot be drawn (unknown kind, no offset, two actions on one cell)."""


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


@frozen
class _Symbols:
    """One drawing alphabet: a character per cell kind, an arrow per slide direction."""

    troop: str
    shift: str
    strike: str
    empty: str
    arrows: dict[tuple[int, int], str]

    def for_kind(self, kind: str) -> str:
        """The character of a shift, strike, troop or empty cell."""
        return str(getattr(self, kind))


_UNICODE = _Symbols(
    troop="◆",
    shift="●",
    strike="×",
    empty="·",
    arrows={
        (0, 1): "↑",
        (0, -1): "↓",
        (-1, 0): "←",
        (1, 0): "→",
        (1, 1): "↗",
        (-1, 1): "↖",
        (1, -1): "↘",
        (-1, -1): "↙",
    },
)
_ASCII = _Symbols(
    troop="T",
    shift="o",
    strike="x",
    empty=".",
    arrows={
        (0, 1): "^",
        (0, -1): "v",
        (-1, 0): "<",
        (1, 0): ">",
        (1, 1): "/",
        (-1, -1): "/",
        (-1, 1): "\\",
        (1, -1): "\\",
    },
)

# Reading: every symbol of both sets (plus the common alternatives) to what it means.
_READ: dict[str, str] = {}
for _symbols in (_UNICODE, _ASCII):
    _READ[_symbols.troop] = "troop"
    _READ[_symbols.shift] = "shift"
    _READ[_symbols.strike] = "strike"
    _READ[_symbols.empty] = "empty"
    for _arrow in _symbols.arrows.values():
        _READ[_arrow] = "slide"
_READ.update(
    {
        "o": "shift",
        "O": "shift",
        "○": "shift",
        "x": "strike",
        "X": "strike",
        "►": "slide",
        "◄": "slide",
        "▲": "slide",
        "▼": "slide",
    }
)


def _offsets(
    actions: Iterable[Mapping[str, object]],
) -> dict[tuple[int, int], tuple[str, int, int]]:
    cells: dict[tuple[int, int], tuple[str, int, int]] = {}
    for act in actions:
        kind, dx, dy = act.get("action"), act.get("dx"), act.get("dy")
        if not isinstance(kind, str) or kind not in ACTIONS:
            raise TileError(f"unknown action {kind!r} (known: {', '.join(ACTIONS)})")
        if (
            not (isinstance(dx, int) and isinstance(dy, int))
            or isinstance(dx, bool)
            or isinstance(dy, bool)
        ):
            raise TileError(f"{kind} needs whole-number dx and dy, not dx={dx!r}, dy={dy!r}")
        if dx == 0 and dy == 0:
            raise TileError(f"{kind} at offset (0, 0) is the troop's own square")
        if (dx, dy) in cells and cells[(dx, dy)] != (kind, dx, dy):
            other = cells[(dx, dy)][0]
            raise TileError(f"two actions on one cell ({dx}, {dy}): {other} and {kind}")
        cells[(dx, dy)] = (kind, dx, dy)
    return cells


def _extent(cells: Iterable[tuple[int, int]], pivot: Sequence[int]) -> tuple[int, int, int]:
    """Half-width, lowest dy and highest dy of the grid.

    The tile is at least 3x3 with the troop's square at ``pivot`` (column, row counted from the
    bottom-left); it grows to show every offset, and stays symmetric about the troop's column.
    """
    px, py = int(pivot[0]), int(pivot[1])
    px, py = min(max(px, 0), 2), min(max(py, 0), 2)
    cells = list(cells)
    half = max(1, px, 2 - px, max((abs(dx) for dx, _ in cells), default=0))
    low = min(-py, min((dy for _, dy in cells), default=0))
    high = max(2 - py, max((dy for _, dy in cells), default=0))
    return half, low, high


def render_side(
    actions: list[dict], pivot: tuple[int, int] = (1, 1), *, ascii: bool = False
) -> list[str]:
    """One side of a tile: a list of rows, the top row first (the opponent's side).

    Cells are one character each, separated by one space.
    """
    symbols = _ASCII if ascii else _UNICODE
    cells = _offsets(actions)
    half, low, high = _extent(cells, pivot)
    rows = []
    for dy in range(high, low - 1, -1):
        row = []
        for dx in range(-half, half + 1):
            if (dx, dy) == (0, 0):
                row.append(symbols.troop)
            elif (dx, dy) in cells:
                kind = cells[(dx, dy)][0]
                if kind == "slide":
                    row.append(symbols.arrows[(_sign(dx), _sign(dy))])
                else:
                    row.append(symbols.for_kind(kind))
            else:
                row.append(symbols.empty)
        rows.append(" ".join(row))
    return rows


def legend(*, ascii: bool = False) -> str:
    """The one-line key to the symbols."""
    if ascii:
        return "T troop  o shift  >^</\\ slide (points the way, repeats)  x strike  . empty"
    return "◆ troop  ● shift  →↗↑ slide (points the way, repeats)  × strike  · empty"


def render_tile(
    front: list[dict],
    back: list[dict],
    front_pivot: tuple[int, int] = (1, 1),
    back_pivot: tuple[int, int] = (1, 1),
    name: str = "",
    *,
    ascii: bool = False,
) -> str:
    """A whole tile: the name, the front and back sides side by side, and a legend line."""
    sides = [
        ("front", render_side(front, front_pivot, ascii=ascii)),
        ("back", render_side(back, back_pivot, ascii=ascii)),
    ]
    widths = [max(len(title), *(len(r) for r in rows)) for title, rows in sides]
    height = max(len(rows) for _, rows in sides)
    gap = "    "
    lines = []
    if name:
        lines.append(name)
    columns = list(zip(sides, widths, strict=True))
    lines.append(gap.join(title.ljust(w) for (title, _), w in columns).rstrip())
    for i in range(height):
        parts = [(rows[i] if i < len(rows) else "").ljust(w) for (_, rows), w in columns]
        lines.append(gap.join(parts).rstrip())
    lines.append(legend(ascii=ascii))
    return "\n".join(lines) + "\n"


def parse_grid(lines: Sequence[str] | str) -> set[tuple[str, int, int]]:
    """Read one rendered side back to its actions: a set of (action, dx, dy).

    The troop's square (◆ or T) is the origin; the top row is the largest dy. A slide's arrow
    sits on its first step, so its (dx, dy) is the arrow's cell.
    """
    if isinstance(lines, str):
        lines = lines.splitlines()
    grid = [line.split() for line in lines if line.strip()]
    troop = [
        (r, c)
        for r, row in enumerate(grid)
        for c, cell in enumerate(row)
        if _READ.get(cell) == "troop"
    ]
    if len(troop) != 1:
        raise TileError(f"a side needs exactly one troop square, found {len(troop)}")
    tr, tc = troop[0]
    found: set[tuple[str, int, int]] = set()
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            meaning = _READ.get(cell)
            if meaning is None:
                raise TileError(f"unknown symbol {cell!r} in row {r + 1}")
            if meaning in ("shift", "slide", "strike"):
                found.add((meaning, c - tc, tr - r))
    return found
