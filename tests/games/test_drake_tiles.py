"""The Drake tiles: each rendered side reads back to exactly the catalog's actions."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from deckcheck.games.the_drake.tiles import TileError, parse_grid, render_side, render_tile

ROOT = Path(__file__).resolve().parents[2]
_CANDIDATES = [
    ROOT / "catalogs" / "the-drake" / "cards.toml",
    ROOT / "deckcheck" / "catalogs" / "the-drake" / "cards.toml",
]
CATALOG = next((p for p in _CANDIDATES if p.exists()), _CANDIDATES[0])


def _troops() -> dict[str, dict]:
    with CATALOG.open("rb") as fh:
        data = tomllib.load(fh)
    return {card["name"]: card for card in data["cards"] if card["type"] == "troop"}


TROOPS = _troops()
SIDES = [(name, side) for name in TROOPS for side in ("front", "back")]


def _expected(card: dict, side: str) -> set[tuple[str, int, int]]:
    return {(a["action"], a["dx"], a["dy"]) for a in card[side]}


def _troop_cell(rows: list[str], mark: str) -> tuple[int, int]:
    hits = [
        (r, c) for r, row in enumerate(rows) for c, cell in enumerate(row.split()) if cell == mark
    ]
    assert len(hits) == 1, rows
    return hits[0]


def test_catalog_has_the_six_troops():
    assert sorted(TROOPS) == sorted(["Drake", "Clubman", "Monk", "Spearman", "Swordsman", "Archer"])


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize(("name", "side"), SIDES)
def test_rendered_side_reads_back_to_catalog_actions(name, side, ascii_mode):
    card = TROOPS[name]
    rows = render_side(card[side], tuple(card[f"{side}_pivot"]), ascii=ascii_mode)
    assert parse_grid(rows) == _expected(card, side)


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize(("name", "side"), SIDES)
def test_grid_shape_and_troop_square(name, side, ascii_mode):
    card = TROOPS[name]
    px, py = card[f"{side}_pivot"]
    actions = card[side]
    rows = render_side(actions, (px, py), ascii=ascii_mode)
    cells = [row.split() for row in rows]
    width = len(cells[0])
    assert all(len(r) == width for r in cells)
    assert width >= 3 and len(rows) >= 3 and width % 2 == 1
    r, c = _troop_cell(rows, "T" if ascii_mode else "◆")
    # horizontally centred; the rows above it reach the highest dy (at least 2 - pivot row)
    assert c == width // 2
    assert r == max(2 - py, max(a["dy"] for a in actions))
    assert len(rows) - 1 - r == max(py, max(-a["dy"] for a in actions))
    if ascii_mode:
        assert all(ch.isascii() for row in rows for ch in row)


def test_archer_back_pivot_is_bottom_middle():
    archer = TROOPS["Archer"]
    rows = render_side(archer["back"], tuple(archer["back_pivot"]))
    assert rows == ["· × ·", "× ● ×", "· ◆ ·"]


def test_slide_arrows_point_their_way():
    rows = render_side(TROOPS["Drake"]["front"], (1, 1))
    assert rows[1] == "← ◆ →"
    rows = render_side(TROOPS["Drake"]["back"], (1, 1), ascii=True)
    assert rows == [". ^ .", ". T .", ". v ."]


def test_grid_grows_for_far_offsets():
    rows = render_side([{"action": "strike", "dx": 2, "dy": 3}], (1, 1))
    assert len(rows) == 5 and len(rows[0].split()) == 5
    assert parse_grid(rows) == {("strike", 2, 3)}


def test_bad_actions_are_refused():
    with pytest.raises(TileError):
        render_side([{"action": "jump", "dx": 1, "dy": 0}], (1, 1))
    with pytest.raises(TileError):
        render_side([{"action": "shift", "dx": 0, "dy": 0}], (1, 1))
    with pytest.raises(TileError):
        clash = [{"action": "shift", "dx": 1, "dy": 0}, {"action": "strike", "dx": 1, "dy": 0}]
        render_side(clash, (1, 1))


MONK_TILE = """\
Monk
front    back
↖ · ↗    · ● ·
· ◆ ·    ● ◆ ●
↙ · ↘    · ● ·
◆ troop  ● shift  →↗↑ slide (points the way, repeats)  × strike  · empty
"""

MONK_TILE_ASCII = """\
Monk
front    back
\\ . /    . o .
. T .    o T o
/ . \\    . o .
T troop  o shift  >^</\\ slide (points the way, repeats)  x strike  . empty
"""


@pytest.mark.parametrize(
    ("ascii_mode", "expected"),
    [(False, MONK_TILE), (True, MONK_TILE_ASCII)],
    ids=["unicode", "ascii"],
)
def test_monk_tile_snapshot(ascii_mode, expected):
    monk = TROOPS["Monk"]
    tile = render_tile(
        monk["front"],
        monk["back"],
        tuple(monk["front_pivot"]),
        tuple(monk["back_pivot"]),
        monk["name"],
        ascii=ascii_mode,
    )
    assert tile == expected
