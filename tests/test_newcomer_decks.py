"""What a newcomer met in deck files: an unknown header hiding the game line, exports that did
not read back, silent zero counts and merged lines, TOML count errors one at a time, a list
called a catalog, and a Windows-1250 file refused though it was recognised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.core.errors import DeckFormatError, InputFileError
from deckcheck.decks.load import load_deck
from deckcheck.decks.parse import parse_deck, read_deck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.export.formats import formats_for, render
from deckcheck.games.context import make_context

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((REPO / "examples").glob("*/*.txt"))
RED = "2 POINT OF\n2 NOGK\n"


# --- an unknown header before the first card (issue: `title:` hid `game:`) --------------------


def test_unknown_header_is_a_note_and_the_game_line_after_it_counts(tmp_path: Path) -> None:
    deck = tmp_path / "red.txt"
    deck.write_text("title: Red rush\ngame: ren-dhark\n" + RED, encoding="utf-8")
    source = read_deck(deck)
    assert source.game == "ren-dhark"
    result = invoke(["validate", str(deck), "--json"])
    assert result.exit_code == 1  # read in full: the verdict is the deck's (too small)
    outcome = json.loads(result.stdout)
    assert outcome["game"] == "ren-dhark" and outcome["card_count"] == 4
    (note,) = [n for n in outcome["notes"] if "title" in n]
    assert note.startswith("line 1: left out, 'title' is no header")
    assert "game" in note and "variant" in note
    human = invoke(["validate", str(deck)])
    assert "'title' is no header" in " ".join(human.stdout.split())


def test_with_game_option_the_game_line_is_no_card(tmp_path: Path) -> None:
    deck = tmp_path / "red.txt"
    deck.write_text("title: Red rush\ngame: ren-dhark\n" + RED, encoding="utf-8")
    result = invoke(["validate", str(deck), "--game", "ren-dhark", "--json"])
    outcome = json.loads(result.stdout)
    assert outcome["card_count"] == 4
    assert not [n for n in outcome["notes"] if "game" in n.split(",")[0]]


def test_a_misspelt_header_is_refused_with_the_spelling(tmp_path: Path) -> None:
    """A typo in `variant:` must not silently check the default variant."""
    deck = tmp_path / "red.txt"
    deck.write_text("game: ren-dhark\nVarient: custom\n" + RED, encoding="utf-8")
    result = invoke(["validate", str(deck), "--json"])
    assert result.exit_code == 2
    (line,) = json.loads(result.stdout)["unknown_lines"]
    assert line["line"] == 2 and line["reason"] == "unknown header"
    assert line["hint"].startswith("did you mean 'variant'?")


def test_a_header_like_line_that_names_a_card_is_a_card() -> None:
    source = parse_deck("HQ: Secure Homeworld\ngame: stccg-1e\n", "hq.txt")
    assert source.game == "stccg-1e"
    from deckcheck.decks.load import resolve_source

    loaded = resolve_source(source)
    assert [e.card.name for e in loaded.deck] == ["HQ: Secure Homeworld"]


# --- every format deckcheck writes reads back (CSV and Markdown included) ---------------------


SHEETS = {"html"}
"""Formats for people to look at or print, not deck files: not read back."""


def _formats(path: Path) -> list[str]:
    return sorted(set(formats_for(load_deck(path))) - SHEETS)


@pytest.mark.parametrize("deck", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_written_format_reads_back_without_options(deck: Path, tmp_path: Path) -> None:
    """Written to a file and read with no --game: the game, the variant and every card."""
    loaded = load_deck(deck)
    for fmt in _formats(deck):
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


def test_csv_from_a_spreadsheet_with_semicolons_and_names(tmp_path: Path) -> None:
    out = tmp_path / "sheet.txt"
    out.write_text("Qty;Card Name;Type\n2;POINT OF;ship\n1;NOGK;ship\n", encoding="utf-8")
    loaded = load_deck(out, make_context(game="ren-dhark"))
    assert loaded.deck.counts() == {"I/25": 2, "I/16": 1}


def test_csv_rows_of_two_games_are_refused() -> None:
    with pytest.raises(DeckFormatError, match="several games"):
        parse_deck("game,count,id\nren-dhark,1,I/25\ndorn,1,x\n", "two.csv")


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


# --- notes for 0 copies and a card on two lines; every TOML count error --------------------


def test_zero_copies_and_a_repeated_card_are_notes(tmp_path: Path) -> None:
    deck = tmp_path / "notes.txt"
    deck.write_text("game: ren-dhark\n0 GSAL\n2 POINT OF\n1 NOGK\n1 POINT OF\n", "utf-8")
    result = invoke(["validate", str(deck), "--json"])
    data = json.loads(result.stdout)
    assert result.exit_code in (1, 3)  # a verdict, not an error
    notes = data["notes"]
    assert any(n.startswith("line 2: 0 copies of GSAL") for n in notes)
    assert any(n.startswith("line 5: POINT OF is also on line 3") for n in notes)
    assert data["card_count"] == 4


def test_toml_deck_with_two_bad_counts_reports_both() -> None:
    text = 'game = "ren-dhark"\n[cards]\n"POINT OF" = "two"\n"NOGK" = 1.5\n"GSAL" = 1\n'
    with pytest.raises(DeckFormatError) as info:
        parse_deck(text, "bad.toml")
    assert info.value.message == "2 bad counts"
    assert info.value.details == (
        "line 3: the count of 'POINT OF' must be a whole number, not 'two'",
        "line 4: the count of 'NOGK' must be a whole number, not 1.5",
    )


def test_toml_cards_as_a_list_of_names_is_explained() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('game = "ren-dhark"\ncards = ["POINT OF", "NEMO"]\n', "list.toml")
    message = info.value.message
    assert "catalog overlay" not in message
    assert "list of names" in message and '"POINT OF" = 1' in message
    assert info.value.line == 2


# --- Windows-1250 ---------------------------------------------------------------------------

CZECH = "game: ren-dhark\nname: Terra, zkušební balíček\n# šťastný žlutý kůň\n2 POINT OF\n"


def test_windows_1250_deck_is_read_with_a_note(tmp_path: Path) -> None:
    deck = tmp_path / "cz.txt"
    deck.write_bytes(CZECH.encode("cp1250"))
    source = read_deck(deck)
    assert source.headers["name"] == "Terra, zkušební balíček"
    assert source.notes and "Windows-1250" in source.notes[0] and "line 2" in source.notes[0]
    data = json.loads(invoke(["validate", str(deck), "--json"]).stdout)
    assert any("Windows-1250" in n for n in data["notes"])


def test_an_encoding_that_cannot_be_told_apart_is_still_refused(tmp_path: Path) -> None:
    deck = tmp_path / "maybe.txt"
    deck.write_bytes("game: ren-dhark\nČerná garda\n".encode("cp1250"))  # È in Latin-1 too
    with pytest.raises(InputFileError, match="Windows-1250"):
        read_deck(deck)
    deck.write_bytes("game: ren-dhark\n# Grüße aus Köln\n2 POINT OF\n".encode("latin-1"))
    with pytest.raises(InputFileError, match="not UTF-8"):
        read_deck(deck)
