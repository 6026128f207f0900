"""A long table (the mulligan guide's ``--all``) is shown byte for byte as rich's own table
shows the same cells: at every width, in colour and not, whether a cell is laid out here or
left to rich (a style, a word wider than its column, a wide character, an emoji code)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from rich.text import Text

from deckcheck.cli.render import LongTable

COLUMNS = [("hand", "left"), ("dealt", "right"), ("play", "left"), ("margin", "right")]
WORDS = ["3", "faction:Terra", "&", "type:ship,", "1", "Nogkové", "type:person", "other", "2"]


def _rows(rng: random.Random, count: int, odd: bool) -> list[tuple[str | Text, ...]]:
    rows: list[tuple[str | Text, ...]] = []
    for _ in range(count):
        hand = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 9)))
        play: str | Text = Text(rng.choice(["keep", "no choice"]), style="")
        if rng.random() < 0.3:
            play = Text("return " + rng.choice(WORDS), style="bold")
        margin = "" if rng.random() < 0.3 else f"{rng.uniform(-50, 50):+.1f} pp"
        if odd and rng.random() < 0.2:
            hand = rng.choice(
                [
                    "a-word-wider-than-any-column-could-be-at-all-in-this-table x",
                    "星 wide characters 星星",
                    "two  blanks   between ",
                    " lead",
                ]
            )
        if odd and rng.random() < 0.05:
            play = Text.assemble(("re", "bold"), "draw")
        rows.append((hand, f"{rng.uniform(0, 100):.2f} %", play, margin))
    return rows


def _shown(renderable: object, width: int, colour: bool) -> str:
    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width,
        force_terminal=colour,
        color_system="truecolor" if colour else None,
        highlight=False,
        markup=False,
    )
    console.print(renderable)
    return buf.getvalue()


@pytest.mark.parametrize("width", [24, 40, 80, 120])
@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("odd", [False, True])
def test_a_long_table_is_shown_as_richs_table(width: int, colour: bool, odd: bool) -> None:
    rng = random.Random(width * 2 + colour + 7 * odd)
    rows = _rows(rng, 40, odd)
    table = LongTable(COLUMNS, rows)
    assert _shown(table, width, colour) == _shown(table.table(rows), width, colour)


@pytest.mark.parametrize(
    "cell", [":smile: ship", "tab\there", "", "line\nbreak", Text("x\ty", style="bold")]
)
def test_cells_rich_reads_differently_are_left_to_it(cell: str | Text) -> None:
    rows: list[tuple[str | Text, ...]] = [(cell, "1.00 %", "keep", ""), ("a b", "2 %", "x", "")]
    table = LongTable(COLUMNS, rows)
    for width in (20, 80):
        assert _shown(table, width, True) == _shown(table.table(rows), width, True)


def test_an_empty_long_table_shows_its_header() -> None:
    table = LongTable(COLUMNS, [])
    assert _shown(table, 80, False) == _shown(table.table([]), 80, False)
