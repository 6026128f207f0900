"""Deck lists pasted from a web page: a title and by-line, headings with or without a count in
brackets (``Missions (6)``, ``Seeds``, ``Personnel (37)``), bullets and ``2×`` counts. The
headings are left out with a note, never read as cards, and the game is found without --game."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, run_json

PASTED = """\
Klingon Deck — by SomeUser (posted 2024)

Missions (6)
• 1x Cloaked Mission
• 1x Explore Black Cluster
Seeds
• 1x Klingon Outpost
Personnel (37)
  2× Kurn
  1× Gowron
Ships & Facilities (2)
  1× Klingon Outpost
"""


def _deck(tmp_path: Path, text: str = PASTED, name: str = "pasted.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_headings_and_title_are_notes_and_the_game_is_found(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    result = run_cli(["validate", deck], env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output  # illegal (short), but read: not exit 2
    out = result.stdout
    assert "stccg-1e" in out
    assert "unknown card" not in result.output
    for line in (1, 3, 6, 8, 11):
        assert f"line {line}: left out" in out, out
    assert "reads as a title" in out and "reads as a heading" in out


def test_the_headings_never_become_cards(tmp_path: Path) -> None:
    data = run_json(["export", _deck(tmp_path), "--to", "json", "--allow-illegal"], 0)
    names = sorted(c["name"] for c in data["cards"])
    assert names == [
        "Cloaked Mission",
        "Explore Black Cluster",
        "Gowron",
        "Klingon Outpost",
        "Kurn",
    ]
    counts = {c["name"]: c["count"] for c in data["cards"]}
    assert counts["Kurn"] == 2 and counts["Klingon Outpost"] == 2


def test_the_own_export_with_its_hashes_stripped_reads_back(tmp_path: Path) -> None:
    exported = run_cli(["export", "examples/stccg-1e/legal-klingon.txt", "--to", "text"]).stdout
    stripped = "\n".join(
        line.lstrip("# ") for line in exported.splitlines() if not line.startswith("game:")
    )
    result = run_cli(["validate", _deck(tmp_path, stripped)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Personnel (" in result.stdout  # left out with a note


def test_a_misspelt_card_is_still_an_error_not_a_heading(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "game: stccg-1e\nMissions (6)\n2 Kurnn\n")
    result = run_cli(["validate", deck])
    assert result.exit_code == 2
    assert "Kurnn" in result.output and "Missions" not in result.stderr


def test_a_card_named_like_a_heading_is_a_card(tmp_path: Path) -> None:
    # "Q's Tent" is a zone of STCCG (a heading word) and a card: the card wins.
    deck = _deck(tmp_path, "game: stccg-1e\nShips (2)\n1 Q's Tent\nPersonnel\n")
    data = run_json(["export", deck, "--to", "json", "--allow-illegal"], 0)
    assert [c["name"] for c in data["cards"]] == ["Q's Tent"]
    result = run_cli(["validate", deck], env={"COLUMNS": "200"})
    assert "line 2: left out" in result.stdout and "line 4: left out" in result.stdout
