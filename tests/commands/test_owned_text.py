"""``owned`` as a player reads it: the answer first, deck names never cut at any width (a name
wider than the screen loses its middle only), and the acquire table's figures those of --json."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke

from deckcheck.cli.fit import cells

ROOT = Path(__file__).resolve().parents[2]
STCCG = ROOT / "examples" / "stccg-1e"
COLLECTION = ROOT / "examples" / "my-collection.txt"


def _acquire_rows(text: str) -> list[dict[str, str]]:
    """The acquire table's rows, by heading (columns are two spaces or more apart)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("to acquire ("))
    heading = re.split(r" {2,}", lines[start + 1].strip())
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip() or line.startswith("•"):
            break
        rows.append(dict(zip(heading, re.split(r" {2,}", line.strip()), strict=True)))
    return rows


@functools.cache
def _owned_json() -> Any:
    """``owned --json`` on the examples (the same at every width: run once for the three)."""
    return json.loads(invoke(["owned", STCCG, "--collection", COLLECTION, "--json"]).stdout)


@pytest.mark.parametrize("width", [80, 100, 120])
def test_no_deck_name_is_cut_and_the_acquire_table_is_the_json(width: int) -> None:
    args = ["owned", STCCG, "--collection", COLLECTION]
    text = invoke(args, env={"COLUMNS": str(width)})
    data = _owned_json()
    assert text.exit_code == 1 == data["all_at_once"] + 1
    lines = text.stdout.splitlines()
    assert lines[0] == (
        f"all {len(data['decks'])} decks at once: no · acquire {data['extra_copies']} copies "
        f"of {len(data['short'])} cards (proven minimal)"
    )
    assert all(cells(line) <= width for line in lines)
    names = {Path(row["deck"]).name for row in data["decks"]}
    firsts = {line.split("  ")[0] for line in lines}
    assert names <= firsts  # each deck's row starts with its whole name
    rows = _acquire_rows(text.stdout)
    assert len(rows) == len(data["short"])
    for row, card in zip(rows, data["short"], strict=True):
        assert (row["card"], row["id"]) == (card["name"], card["id"])
        assert row["acquire"] == f"+{card['missing']}"
        assert row.get("need", str(card["needed"])) == str(card["needed"])
        assert row.get("own", str(card["owned"])) == str(card["owned"])
        count, _, shown = row.get("decks", row.get("decks contending", "")).partition(": ")
        assert int(count) == len(card["decks"])
        if shown:  # the first contending decks, named in the order of the JSON
            assert shown.startswith(Path(card["decks"][0]["deck"]).name)
            more = len(card["decks"]) - shown.count(",") - 1
            assert shown.endswith(f"…+{more} more") if more else "more" not in shown
    assert sum(int(r["acquire"]) for r in rows) == data["extra_copies"]


def _write(path: Path, counts: dict[str, int]) -> Path:
    lines = ["game: the-drake"] + [f"{n} {name}" for name, n in counts.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_name_wider_than_the_screen_loses_its_middle_only(tmp_path: Path) -> None:
    long = "a-deck-whose-name-is-far-too-long-for-any-narrow-screen-to-show.txt"
    collection = _write(tmp_path / "c.txt", {"Drake": 1})
    _write(tmp_path / long, {"Drake": 2, "Clubman": 1})
    _write(tmp_path / "b.txt", {"Drake": 1})
    shown = invoke(["owned", tmp_path, "--collection", collection], env={"COLUMNS": "40"})
    row = next(line for line in shown.stdout.splitlines() if line.startswith("a-deck"))
    assert "…" in row and row.split("  ")[0].endswith("to-show.txt")
    tables = [line for line in shown.stdout.splitlines() if str(tmp_path) not in line]
    assert all(cells(line) <= 40 for line in tables)  # a path in a line of text stays whole


def test_verbose_names_every_contending_deck(tmp_path: Path) -> None:
    collection = _write(tmp_path / "c.txt", {"Drake": 1})
    for d in range(5):
        _write(tmp_path / f"deck-{d}.txt", {"Drake": 1 + (d == 3)})
    args = ["owned", tmp_path, "--collection", collection]
    short = invoke(args, env={"COLUMNS": "80"}).stdout
    assert "5: deck-0.txt, deck-1.txt …+3 more" in short
    wide = invoke([*args, "--verbose"], env={"COLUMNS": "120"}).stdout
    assert "5: deck-0.txt, deck-1.txt, deck-2.txt, deck-3.txt ×2, deck-4.txt" in wide
    assert "acquire 5 copies of 1 card" in wide.splitlines()[0]
    # narrower, the list wraps within its column, each line under the first
    lines = invoke([*args, "--verbose"], env={"COLUMNS": "64"}).stdout.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("Drake"))
    column = lines[row].index("5: ")
    assert lines[row + 1].startswith(" " * column) and lines[row + 1][column] != " "
    assert all(cells(line) <= 64 for line in lines[row - 1 :])
