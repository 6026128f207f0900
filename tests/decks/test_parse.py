"""The deck parser (deckcheck.decks.parse): text, TOML, JSON and CSV decks, headers, notes for
zero counts and repeated cards, and encodings, through the library and ``validate``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.core.errors import DeckFormatError, InputFileError
from deckcheck.decks.load import load_deck
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import MAX_COPIES_PER_LINE, parse_deck, read_deck
from deckcheck.games.context import make_context

RED = "2 POINT OF\n2 NOGK\n"
CZECH = "game: ren-dhark\nname: Terra, zkušební balíček\n# šťastný žlutý kůň\n2 POINT OF\n"


def cards(source: DeckSource) -> list[tuple[str, int]]:
    """(name, count) of every card line, in file order."""
    return [(line.name, line.count) for line in source.lines]


# --------------------------------------------------------------------------------------------
# text decks: count forms


@pytest.mark.parametrize(
    ("line", "name", "count"),
    [
        ("2 POINT OF", "POINT OF", 2),
        ("3x NOGK", "NOGK", 3),
        ("3X NOGK", "NOGK", 3),
        ("3 x NOGK", "NOGK", 3),
        ("4\tRIOBE", "RIOBE", 4),
        ("4\t\tRIOBE", "RIOBE", 4),
        ("TERRA x2", "TERRA", 2),
        ("TERRA X5", "TERRA", 5),
        ("LUXOR", "LUXOR", 1),
        ("I/26", "I/26", 1),
        ("2x I/26", "I/26", 2),
        ("  12   Z-66  ", "Z-66", 12),
        ("Terra (Sol III)", "Terra (Sol III)", 1),
        ("1st Rule of Acquisition", "1st Rule of Acquisition", 1),
    ],
)
def test_count_forms(line: str, name: str, count: int) -> None:
    source = parse_deck(line + "\n", "deck.txt")
    assert source.format == "text"
    assert cards(source) == [(name, count)]
    assert source.lines[0].line == 1


def test_count_forms_together_keep_order_and_line_numbers() -> None:
    text = "2 POINT OF\n3x NOGK\n4\tRIOBE\nTERRA x2\nLUXOR\n"
    source = parse_deck(text, "deck.txt")
    assert cards(source) == [("POINT OF", 2), ("NOGK", 3), ("RIOBE", 4), ("TERRA", 2), ("LUXOR", 1)]
    assert [line.line for line in source.lines] == [1, 2, 3, 4, 5]


def test_zero_count_is_allowed() -> None:
    assert cards(parse_deck("0 POINT OF\n", "d.txt")) == [("POINT OF", 0)]


def test_count_then_name_starting_with_x() -> None:
    # regression: the x of "Nx" must not be taken from a name that begins with X
    text = "2 Xepolite Freighter\n2x Xepolite Freighter\nXepolite Freighter x2\n"
    assert cards(parse_deck(text, "d.txt")) == [("Xepolite Freighter", 2)] * 3


# --------------------------------------------------------------------------------------------
# headers, sections, comments


def test_header_lines_before_first_card() -> None:
    text = (
        "game: ren-dhark\nvariant: custom\nname: Terra rush\n"
        "catalog: points.toml, more.toml\n2 POINT OF\n"
    )
    source = parse_deck(text, "deck.txt", Path("/decks/deck.txt"))
    assert dict(source.headers) == {
        "game": "ren-dhark",
        "variant": "custom",
        "name": "Terra rush",
        "catalog": "points.toml, more.toml",
    }
    assert source.game == "ren-dhark"
    assert source.catalogs == (Path("/decks/points.toml"), Path("/decks/more.toml"))
    assert cards(source) == [("POINT OF", 2)]
    assert source.lines[0].line == 5


def test_header_keys_are_case_insensitive() -> None:
    source = parse_deck("Game: ren-dhark\nNAME: x\nNOGK\n", "d.txt")
    assert source.headers["game"] == "ren-dhark"
    assert source.headers["name"] == "x"


def test_header_after_first_card_is_a_card_line() -> None:
    source = parse_deck("POINT OF\nname: late\n", "d.txt")
    assert source.headers == {}
    assert cards(source) == [("POINT OF", 1), ("name: late", 1)]


def test_unknown_header_key_is_a_card_line() -> None:
    source = parse_deck("colour: blue\nNOGK\n", "d.txt")
    assert source.headers == {}
    assert cards(source)[0] == ("colour: blue", 1)


def test_header_after_a_section_is_a_card_line() -> None:
    source = parse_deck("Ships:\ngame: ren-dhark\n", "d.txt")
    assert source.headers == {}
    assert cards(source) == [("game: ren-dhark", 1)]


def test_card_name_with_colon_is_not_a_section() -> None:
    source = parse_deck("Treaty: Federation/Klingon\n", "d.txt")
    assert cards(source) == [("Treaty: Federation/Klingon", 1)]


def test_section_headers() -> None:
    text = "2\tDraw card\nMissions:\n1\tMission A\n1\tMission B\nSeed+Dil:\n3\tDilemma\n"
    source = parse_deck(text, "deck.dek")
    assert [(ln.name, ln.count, ln.section) for ln in source.lines] == [
        ("Draw card", 2, None),
        ("Mission A", 1, "Missions"),
        ("Mission B", 1, "Missions"),
        ("Dilemma", 3, "Seed+Dil"),
    ]
    assert [ln.line for ln in source.lines] == [1, 3, 4, 6]
    assert source.format == "lackey"


def test_sections_without_tabs_are_plain_text() -> None:
    source = parse_deck("Ships:\n2 POINT OF\nActions:\nAntisféra\n", "d.txt")
    assert source.format == "text"
    assert [ln.section for ln in source.lines] == ["Ships", "Actions"]


def test_comments_whole_line_and_trailing() -> None:
    text = (
        "# a comment\n"
        "// another\n"
        "   # indented comment\n"
        "2 POINT OF # two of them\n"
        "NOGK // the ship\n"
        "RIOBE x2 # trailing after a count-last form\n"
    )
    source = parse_deck(text, "d.txt")
    assert cards(source) == [("POINT OF", 2), ("NOGK", 1), ("RIOBE", 2)]
    assert [ln.line for ln in source.lines] == [4, 5, 6]


def test_hash_inside_a_name_is_not_a_comment() -> None:
    source = parse_deck("Card#1\nA//B\n", "d.txt")
    assert cards(source) == [("Card#1", 1), ("A//B", 1)]


def test_trailing_comment_without_space_after_marker() -> None:
    source = parse_deck("NOGK #note\n2 RIOBE //note\n", "d.txt")
    assert cards(source) == [("NOGK", 1), ("RIOBE", 2)]


def test_trailing_comment_on_header_lines() -> None:
    source = parse_deck("game: ren-dhark # my game\nvariant: starter // box\nNOGK\n", "d.txt")
    assert source.headers["game"] == "ren-dhark"
    assert source.headers["variant"] == "starter"


def test_trailing_comment_on_section_header() -> None:
    source = parse_deck("Ships: # the ships\nNOGK\n", "d.txt")
    assert [(ln.name, ln.section) for ln in source.lines] == [("NOGK", "Ships")]


def test_blank_lines_are_skipped_but_counted() -> None:
    source = parse_deck("\n\n   \n\t\nNOGK\n\n2 RIOBE\n\n", "d.txt")
    assert cards(source) == [("NOGK", 1), ("RIOBE", 2)]
    assert [ln.line for ln in source.lines] == [5, 7]


def test_empty_file_has_no_cards() -> None:
    assert parse_deck("", "d.txt").lines == ()
    assert parse_deck("# only a comment\n", "d.txt").lines == ()


# --------------------------------------------------------------------------------------------
# counts out of range


@pytest.mark.parametrize("text", ["-2 POINT OF\n", "POINT OF x-2\n"])
def test_negative_count_is_an_error_with_line(text: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck("NOGK\n" + text, "d.txt")
    assert info.value.line == 2
    assert "negative" in info.value.message
    assert "-2" in info.value.message
    assert str(info.value).startswith("d.txt:2:")


@pytest.mark.parametrize("text", [f"{10**12} POINT OF\n", f"POINT OF x{10**12}\n"])
def test_absurd_count_names_the_limit(text: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck(text, "d.txt")
    assert info.value.line == 1
    assert f"{MAX_COPIES_PER_LINE:,}" in info.value.message


def test_count_at_limit_is_accepted_and_one_above_is_not() -> None:
    assert cards(parse_deck(f"{MAX_COPIES_PER_LINE} NOGK\n", "d.txt")) == [
        ("NOGK", MAX_COPIES_PER_LINE)
    ]
    with pytest.raises(DeckFormatError):
        parse_deck(f"{MAX_COPIES_PER_LINE + 1} NOGK\n", "d.txt")


# --------------------------------------------------------------------------------------------
# encodings and line ends (through read_deck, i.e. from bytes on disk)


TEXT = "game: ren-dhark\nČerná garda\n2 Ömer Giray\n"
EXPECTED = [("Černá garda", 1), ("Ömer Giray", 2)]


def _read(tmp_path: Path, data: bytes) -> DeckSource:
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    return read_deck(path)


def test_utf8(tmp_path: Path) -> None:
    source = _read(tmp_path, TEXT.encode())
    assert cards(source) == EXPECTED
    assert source.game == "ren-dhark"


def test_crlf(tmp_path: Path) -> None:
    source = _read(tmp_path, TEXT.replace("\n", "\r\n").encode())
    assert cards(source) == EXPECTED
    assert source.headers["game"] == "ren-dhark"
    assert [ln.line for ln in source.lines] == [2, 3]


def test_utf8_bom(tmp_path: Path) -> None:
    source = _read(tmp_path, b"\xef\xbb\xbf" + TEXT.replace("\n", "\r\n").encode())
    assert source.headers["game"] == "ren-dhark"  # the BOM is not part of the key
    assert cards(source) == EXPECTED


def test_bom_in_text_before_a_card() -> None:
    source = parse_deck("\ufeffNOGK\n", "d.txt")
    assert cards(source) == [("NOGK", 1)]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom(tmp_path: Path, codec: str) -> None:
    data = ("\ufeff" + TEXT).encode(codec) if codec != "utf-16" else TEXT.encode(codec)
    source = _read(tmp_path, data)
    assert cards(source) == EXPECTED
    assert source.game == "ren-dhark"


def test_windows_1250_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as info:
        _read(tmp_path, TEXT.encode("cp1250"))
    assert "Windows-1250" in info.value.message
    assert "line 2" in info.value.message
    assert info.value.source == str(tmp_path / "deck.txt")


def test_utf16_without_bom_is_not_called_windows_1250(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as info:
        _read(tmp_path, TEXT.encode("utf-16-le"))
    assert "Windows-1250" not in info.value.message
    assert "UTF-16" in info.value.message


def test_binary_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as info:
        _read(tmp_path, bytes(range(128, 256)) * 8)
    assert "binary" in info.value.message


def test_directory_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as info:
        read_deck(tmp_path)
    assert "directory" in info.value.message
    assert info.value.source == str(tmp_path)


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    with pytest.raises(InputFileError) as info:
        read_deck(missing)
    assert "no such file" in info.value.message
    assert str(missing) in str(info.value)


class _FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(TEXT.replace("\n", "\r\n").encode()))
    source = read_deck("-")
    assert source.label == "<stdin>"
    assert source.path is None
    assert cards(source) == EXPECTED


def test_stdin_error_names_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _FakeStdin(b"-3 NOGK\n"))
    with pytest.raises(DeckFormatError) as info:
        read_deck("-")
    assert str(info.value).startswith("<stdin>:1:")


# --------------------------------------------------------------------------------------------
# TOML decks


TOML_DECK = """\
game = "ren-dhark"
variant = "custom"
name = "Terra rush"

[cards]
"POINT OF" = 2
"I/26" = 2
NOGK = 1
"""


def test_toml_deck() -> None:
    source = parse_deck(TOML_DECK, "deck.toml", Path("deck.toml"))
    assert source.format == "toml"
    assert dict(source.headers) == {"game": "ren-dhark", "variant": "custom", "name": "Terra rush"}
    assert cards(source) == [("POINT OF", 2), ("I/26", 2), ("NOGK", 1)]
    assert [ln.line for ln in source.lines] == [6, 7, 8]


def test_toml_detected_by_content() -> None:
    source = parse_deck(TOML_DECK, "deck.txt", Path("deck.txt"))
    assert source.format == "toml"


def test_toml_catalog_paths_are_relative_to_the_deck(tmp_path: Path) -> None:
    text = 'game = "ren-dhark"\ncatalog = ["a.toml", "b.toml"]\n[cards]\nNOGK = 1\n'
    source = parse_deck(text, "deck.toml", tmp_path / "deck.toml")
    assert source.catalogs == (tmp_path / "a.toml", tmp_path / "b.toml")


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ('[cards]\n"POINT OF" = "two"\n', 3, "'two'"),
        ('[cards]\nNOGK = 1\n"POINT OF" = 1.5\n', 4, "1.5"),
        ('[cards]\n"POINT OF" = true\n', 3, "True"),
        ('[cards]\n"POINT OF" = [1]\n', 3, "[1]"),
    ],
)
def test_toml_wrong_count_type(body: str, line: int, fragment: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('game = "ren-dhark"\n' + body, "deck.toml", Path("deck.toml"))
    assert info.value.line == line
    assert "whole number" in info.value.message
    assert fragment in info.value.message


def test_toml_wrong_header_type() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('name = "x"\ngame = 5\n[cards]\nNOGK = 1\n', "deck.toml", Path("deck.toml"))
    assert info.value.line == 2
    assert "game" in info.value.message


def test_toml_unknown_key() -> None:
    text = 'game = "ren-dhark"\nauthr = "me"\n[cards]\nNOGK = 1\n'
    with pytest.raises(DeckFormatError) as info:
        parse_deck(text, "deck.toml", Path("deck.toml"))
    assert info.value.line == 2
    assert "authr" in info.value.message


def test_toml_negative_and_absurd_counts() -> None:
    with pytest.raises(DeckFormatError) as neg:
        parse_deck("[cards]\nNOGK = 1\nRIOBE = -1\n", "deck.toml", Path("deck.toml"))
    assert neg.value.line == 3
    assert "negative" in neg.value.message
    with pytest.raises(DeckFormatError) as big:
        parse_deck(f"[cards]\nNOGK = {10**12}\n", "deck.toml", Path("deck.toml"))
    assert big.value.line == 2
    assert f"{MAX_COPIES_PER_LINE:,}" in big.value.message


def test_toml_syntax_error_has_line() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('game = "ren-dhark"\n[cards]\nNOGK = \n', "deck.toml", Path("deck.toml"))
    assert info.value.line == 3
    assert "TOML" in info.value.message


def test_toml_without_cards_table() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('game = "ren-dhark"\n', "deck.toml", Path("deck.toml"))
    assert "[cards]" in info.value.message


# --------------------------------------------------------------------------------------------
# JSON decks


def test_json_deck() -> None:
    text = (
        '{"game": "ren-dhark", "variant": "custom", "name": "J", "cards": ['
        '{"id": "I/25", "count": 2}, {"name": "NOGK"}, '
        '{"name": "RIOBE", "count": 3, "section": "Ships"}]}'
    )
    source = parse_deck(text, "deck.json", Path("deck.json"))
    assert source.format == "json"
    assert dict(source.headers) == {"game": "ren-dhark", "variant": "custom", "name": "J"}
    assert cards(source) == [("I/25", 2), ("NOGK", 1), ("RIOBE", 3)]
    assert source.lines[2].section == "Ships"


def test_json_detected_by_content() -> None:
    source = parse_deck('\n  {"cards": [{"id": "I/25"}]}', "deck.txt")
    assert source.format == "json"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"cards": [{"id": "I/25", "count": -2}]}', "negative"),
        ('{"cards": [{"id": "I/25", "count": 1000000000000}]}', f"{MAX_COPIES_PER_LINE:,}"),
        ('{"cards": [{"id": "I/25", "count": "2"}]}', "count"),
        ('{"cards": [{"id": "I/25", "count": true}]}', "count"),
        ('{"cards": [3]}', "not an object"),
        ('{"cards": 3}', "cards"),
        ("[1, 2]", "cards"),
    ],
)
def test_json_errors(text: str, fragment: str) -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck(text, "deck.json", Path("deck.json"))
    assert fragment in info.value.message


def test_json_syntax_error_has_line() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('{\n"cards": [\n}', "deck.json", Path("deck.json"))
    assert info.value.line == 3


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


def test_csv_from_a_spreadsheet_with_semicolons_and_names(tmp_path: Path) -> None:
    out = tmp_path / "sheet.txt"
    out.write_text("Qty;Card Name;Type\n2;POINT OF;ship\n1;NOGK;ship\n", encoding="utf-8")
    loaded = load_deck(out, make_context(game="ren-dhark"))
    assert loaded.deck.counts() == {"I/25": 2, "I/16": 1}


def test_csv_rows_of_two_games_are_refused() -> None:
    with pytest.raises(DeckFormatError, match="several games"):
        parse_deck("game,count,id\nren-dhark,1,I/25\ndorn,1,x\n", "two.csv")


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
