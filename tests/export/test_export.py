"""Export: every readable format round-trips for every game's examples; files are never lost."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.commands.export import export_deck
from deckcheck.core.errors import InputFileError
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.formats import READABLE, formats_for, render, render_with_notes
from deckcheck.games.context import make_context
from deckcheck.inplace.atomic import write_atomically

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (REPO / "examples").glob("*/*.txt"))
RD = str(REPO / "examples/ren-dhark/terra-custom.txt")


@functools.cache
def _example(deck: Path) -> LoadedDeck:
    """An example deck, loaded once for both round trips (a loaded deck is a frozen value)."""
    return load_deck(deck)


def _signature(loaded: LoadedDeck) -> tuple[object, ...]:
    report = validate_loaded(loaded)
    cards = (
        [c.id for c in loaded.deck.sequence()]
        if loaded.game.spec.ordered
        else sorted(loaded.deck.counts().items())
    )
    return (
        loaded.game.id,
        loaded.variant.name,
        tuple(cards),
        report.status,
        tuple((v.code, v.severity, v.message, v.cards) for v in report.violations),
    )


@pytest.mark.parametrize("deck", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_readable_format_round_trips(deck: Path, tmp_path: Path) -> None:
    loaded = _example(deck)
    original = _signature(loaded)
    for fmt in sorted(READABLE | set(loaded.game.exporters)):
        out = (
            tmp_path
            / f"copy-{fmt}.{'toml' if fmt == 'toml' else 'json' if fmt == 'json' else 'txt'}"
        )
        text = render(loaded, fmt, out)
        out.write_text(text, encoding="utf-8", newline="")
        game = None if fmt != "lackey" else loaded.game.id
        again = load_deck(out, make_context(game=game, variant=loaded.variant.name))
        assert _signature(again) == original, fmt


def test_csv_and_markdown_hold_every_card() -> None:
    deck = REPO / "examples/ren-dhark/terra-custom.txt"
    loaded = load_deck(deck)
    csv_text = render(loaded, "csv")
    header, *rows = csv_text.strip().split("\n")
    assert header.startswith("game,variant,catalog,count,id,name,type")  # read back on its own
    assert "resource_points" in header
    assert sum(int(r.split(",")[3]) for r in rows) == loaded.deck.size
    md = render(loaded, "markdown")
    sections = md.count("\n### ")  # one table per card type, each with its header row
    assert sections == len({c.type_label for c in loaded.deck.cards().values()})
    assert md.count("\n| ") == len(loaded.deck.counts()) + sections
    assert "game: ren-dhark  \n" in md and "catalog: " in md
    assert "POINT OF" in md


def test_illegal_deck_is_refused_unless_allowed(tmp_path: Path) -> None:
    deck = str(REPO / "examples/ren-dhark/illegal-mixed.txt")
    out = tmp_path / "x.txt"
    result = invoke(["export", deck, "--to", "text", "-o", str(out)])
    assert result.exit_code == 1
    assert not out.exists()
    assert "rd.copies" in result.output
    result = invoke(["export", deck, "--to", "text", "-o", str(out), "--allow-illegal"])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("game: ren-dhark")


def test_unverified_deck_is_exported_with_a_warning() -> None:
    result = invoke(
        ["export", str(REPO / "examples/ren-dhark/terra-unverified.txt"), "--to", "json"]
    )
    assert result.exit_code == 0
    assert "unverified" in result.output
    start = result.output.index("{")
    data = json.loads(result.output[start:])
    assert data["game"] == "ren-dhark"


def test_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "deck.txt"
    out.write_text("precious\n")
    deck = str(REPO / "examples/the-drake/standard-stack.txt")
    result = invoke(["export", deck, "--to", "toml", "-o", str(out)])
    assert result.exit_code == 2
    assert "--force" in result.output
    assert out.read_text() == "precious\n"
    result = invoke(["export", deck, "--to", "toml", "-o", str(out), "--force"])
    assert result.exit_code == 0
    assert 'game = "the-drake"' in out.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]  # no temporary file left


def test_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "deck.txt"
    out.write_text("old\n")

    def boom(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(out, "new\n", force=True)
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]


def test_write_refuses_directories_and_missing_folders(tmp_path: Path) -> None:
    with pytest.raises(InputFileError):
        write_atomically(tmp_path, "x")
    with pytest.raises(InputFileError):
        write_atomically(tmp_path / "missing" / "deck.txt", "x")


def test_unknown_format_is_a_usage_error() -> None:
    result = invoke(["export", str(REPO / "examples/dorn/first-game-party.txt"), "--to", "lackey"])
    assert result.exit_code == 2
    assert "formats:" in result.output


def test_export_api_reports_validation() -> None:
    result = export_deck(load_deck(str(REPO / "examples/stccg-1e/legal-romulan.txt")), "lackey")
    assert not result.refused
    assert result.text is not None and "Missions:\r\n" in result.text


def test_diff_groups_changes_and_totals() -> None:
    a = str(REPO / "examples/ren-dhark/blue-starter.txt")
    b = str(REPO / "examples/ren-dhark/terra-custom.txt")
    result = invoke(["diff", a, b, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    totals = {t["label"]: t for t in data["totals"]}
    start, end = load_deck(a).deck, load_deck(b).deck
    assert totals["cards"]["before"] == start.size and totals["cards"]["after"] == end.size
    assert totals["resource points"]["before"] is None  # the starter names no overlay
    assert totals["resource points"]["after"] == 110
    changed = {c["id"]: c["delta"] for c in data["changed"] + data["added"] + data["removed"]}
    for card_id in set(start.counts()) | set(end.counts()):
        delta = end.counts().get(card_id, 0) - start.counts().get(card_id, 0)
        assert changed.get(card_id, 0) == delta


def test_diff_refuses_two_games() -> None:
    result = invoke(
        [
            "diff",
            str(REPO / "examples/dorn/first-game-party.txt"),
            str(REPO / "examples/the-drake/standard-stack.txt"),
        ],
    )
    assert result.exit_code == 2


def test_a_deck_s_categories_are_written_back_or_said_left_out(tmp_path: Path) -> None:
    """Text, TOML and JSON write the deck's own categories so that they read back the same;
    the formats with no place for them say so in a note (nothing the user wrote goes silently)."""
    source = (REPO / "examples/ren-dhark/blue-starter.txt").read_text(encoding="utf-8")
    head, _, rest = source.partition("\n\n")
    deck = tmp_path / "with-categories.txt"
    deck.write_text(
        head + "\ncategory: ships = type:ship\ncategory: picks = Antisféra; type:action\n\n" + rest,
        encoding="utf-8",
    )
    loaded = load_deck(deck)
    expected = {"ships": ("type:ship",), "picks": ("Antisféra", "type:action")}
    assert {c.name: c.members for c in loaded.source.categories} == expected
    for fmt in ("text", "toml", "json"):
        out = tmp_path / f"copy.{'txt' if fmt == 'text' else fmt}"
        written = render_with_notes(loaded, fmt, out)
        assert written.notes == (), fmt
        out.write_text(written.text, encoding="utf-8")
        again = load_deck(out)
        assert {c.name: c.members for c in again.source.categories} == expected, fmt
        assert again.deck.counts() == loaded.deck.counts()
    for fmt in ("csv", "markdown"):
        notes = render_with_notes(loaded, fmt).notes
        assert any("categories (ships, picks) are not written" in n for n in notes), fmt
    # A deck without categories gets no such note.
    assert (
        render_with_notes(load_deck(REPO / "examples/ren-dhark/blue-starter.txt"), "csv").notes
        == ()
    )


def test_export_dash_is_standard_output_with_overlays_relative_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(["export", RD, "--to", "text", "-o", "-"])
    assert result.exit_code == 0
    assert not (tmp_path / "-").exists()
    catalog_line = next(ln for ln in result.stdout.splitlines() if ln.startswith("catalog:"))
    overlay = Path(catalog_line.split(":", 1)[1].strip())
    assert not overlay.is_absolute() and (tmp_path / overlay).is_file()
    saved = tmp_path / "copy.txt"
    saved.write_text(result.stdout)
    assert invoke(["validate", str(saved)]).exit_code == 0


SHEETS = {"html"}
"""Formats for people to look at or print, not deck files: not read back."""


@pytest.mark.parametrize("deck", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_written_format_reads_back_without_options(deck: Path, tmp_path: Path) -> None:
    """Written to a file and read with no --game: the game, the variant and every card."""
    loaded = _example(deck)
    for fmt in sorted(set(formats_for(loaded)) - SHEETS):
        out = tmp_path / f"copy.{fmt}"
        out.write_text(render(loaded, fmt, out), encoding="utf-8", newline="")
        try:
            again = load_deck(out)
        except PartlyResolvedError as exc:  # pragma: no cover - the message says which
            pytest.fail(f"{fmt}: {exc}")
        assert again.game.id == loaded.game.id, fmt
        if fmt not in ("gemp", "dek", "lackey"):  # Lackey and gemp have no variant header
            assert again.variant.name == loaded.variant.name, fmt
        assert again.deck.counts() == loaded.deck.counts(), fmt


def test_csv_has_a_game_column_and_reads_back(tmp_path: Path) -> None:
    loaded = load_deck(REPO / "examples/stccg-1e/legal-klingon.txt")
    out = tmp_path / "deck.csv"
    out.write_text(render(loaded, "csv", out), encoding="utf-8")
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("game,variant,count,id,name,type")
    again = load_deck(out)
    assert again.source.format == "csv" and again.game.id == "stccg-1e"
    assert again.deck.counts() == loaded.deck.counts()


def test_markdown_export_reads_back_with_its_headers(tmp_path: Path) -> None:
    loaded = load_deck(REPO / "examples/ren-dhark/terra-custom.txt")
    out = tmp_path / "deck.md"
    out.write_text(render(loaded, "markdown", out), encoding="utf-8")
    again = load_deck(out)
    assert again.deck.counts() == loaded.deck.counts()
    assert again.deck.name == loaded.deck.name
    # the overlay travels along
    assert [Path(p).resolve() for p in again.catalog.sources] == [
        Path(p).resolve() for p in loaded.catalog.sources
    ]
