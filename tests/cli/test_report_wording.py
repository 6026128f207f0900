"""What reports say, and say once: no card name repeated under a finding that names it, no
"exact · exact", no mulligan for a game that has none nor two contradicting mulligan notes, the
odds figure in plain bold figures, bullets that wrap under their text, several decks in panels
of one width with a summary line, game aliases listed, Markdown in sections by type."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli, run_json

from deckcheck.cli import render

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RD = EXAMPLES / "ren-dhark"


@pytest.fixture(params=["80", "120"])
def terminal(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """deckcheck's consoles as a colour terminal of this width sets them up."""
    monkeypatch.setenv("COLUMNS", request.param)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(render, "out", render.make_console())
    monkeypatch.setattr(render, "err", render.make_console(stderr=True))
    yield int(request.param)


def _lines(args: list[str | Path]) -> list[str]:
    result = run_cli(args)
    return _ANSI.sub("", result.stdout).splitlines()


def test_a_card_named_in_the_finding_is_not_repeated_under_it() -> None:
    out = run_cli(["validate", EXAMPLES / "dorn" / "illegal-duplicate.txt"]).stdout
    assert "Ragnar is in the party 2 times" in out
    assert not [line for line in out.splitlines() if line.strip("│ ") == "Ragnar"], out


def test_odds_says_exact_once_in_plain_bold_figures(terminal: int) -> None:
    lines = _lines(["odds", RD / "terra-custom.txt", "type:ship>=2"])
    text = "\n".join(lines)
    assert "exact · exact" not in text
    assert "99.63 %" in lines[1]  # the figure itself, not segment art
    assert "|_" not in text


def test_wrapped_bullets_hang_under_their_text(terminal: int) -> None:
    lines = _lines(["odds", RD / "terra-custom.txt", "type:ship>=2"])
    inside = [line.strip("│").rstrip() for line in lines]
    start = next(i for i, line in enumerate(inside) if line.lstrip().startswith("• mulligan:"))
    mark = inside[start].index("•")
    follow = inside[start + 1]
    assert follow[: mark + 2].strip() == "" and follow[mark + 2] != " ", inside


def test_any_of_and_distribution_do_not_contradict_themselves() -> None:
    anyof = run_cli(["odds", RD / "terra-custom.txt", "type:ship>=2 | type:action>=1"]).stdout
    assert "no redraw: the mulligan is off" not in anyof and "mulligan: none" not in anyof
    assert "without the mulligan" in anyof
    dist = run_cli(["distribution", RD / "terra-custom.txt", "type:ship"], env={"COLUMNS": "120"})
    assert "with mulligan" in dist.stdout
    assert "no redraw: the mulligan is off" not in dist.stdout


def test_stccg_speaks_of_no_mulligan_in_stats_or_its_sheet(tmp_path: Path) -> None:
    deck = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
    stats = run_cli(["stats", deck], env={"COLUMNS": "120"}).stdout
    assert "mulligan" not in stats
    sheet = tmp_path / "k.html"
    assert run_cli(["export", deck, "--to", "html", "-o", sheet]).exit_code == 0
    assert "mulligan" not in sheet.read_text(encoding="utf-8").lower()


def test_several_decks_get_panels_of_one_width_and_a_summary(terminal: int) -> None:
    decks = [RD / "terra-custom.txt", RD / "illegal-mixed.txt", RD / "terra-unverified.txt"]
    lines = _lines(["validate", *decks])
    tops = [line for line in lines if line.startswith("╭")]
    assert len(tops) == 3 and len({len(line) for line in tops}) == 1
    assert lines[-1] == "3 decks: 1 legal, 1 unverified, 1 illegal"


def test_games_lists_the_aliases_that_did_you_mean_suggests() -> None:
    out = run_cli(["games"]).stdout
    assert "also: stccg, st1e" in out and "also: drake" in out
    wrong = run_cli(["cards", "st1", "Worf"])
    assert wrong.exit_code == 2


def test_validate_a_directory_says_so() -> None:
    result = run_cli(["validate", "examples/"])
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_markdown_export_in_sections_by_type_without_release_columns(tmp_path: Path) -> None:
    deck = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
    md = run_cli(["export", deck, "--to", "markdown"]).stdout
    assert "### Mission (6)" in md and "### Personnel (" in md
    assert "Release" not in md and "Premiere |" not in md.split("\n| 1")[0]
    copy = tmp_path / "k.md"
    copy.write_text(md, encoding="utf-8")
    assert run_cli(["validate", copy]).exit_code == 0


def test_a_reports_notes_hang_under_their_text(terminal: int, tmp_path: Path) -> None:
    deck = tmp_path / "pasted.txt"
    long_title = "Klingon Deck — by SomeUser (posted 2024) " + "with a rather long by-line " * 3
    deck.write_text(f"game: stccg-1e\n{long_title}\n1 Kurn\n", encoding="utf-8")
    inside = [line.strip("│").rstrip() for line in _lines(["validate", deck])]
    start = next(i for i, line in enumerate(inside) if line.lstrip().startswith("note: line 2"))
    assert inside[start + 1].startswith(" " * 7) and inside[start + 1][7] != " ", inside


@pytest.mark.parametrize(
    ("game", "cards", "expected", "wrong"),
    [
        ("dorn", ["Gor"], "1 party member, exactly 5", "1 party members"),
        ("stccg-1e", ["Gowron"], "1 card, exactly 60", "1 cards"),
        ("the-drake", ["Drake"], "1 troop, at least", "1 troops"),
        ("dorn", ["Gor", "Riel"], "2 party members, exactly 5", "2 party member,"),
    ],
)
def test_a_rule_says_its_count_with_the_noun_in_the_right_number(
    tmp_path: Path, game: str, cards: list[str], expected: str, wrong: str
) -> None:
    deck = tmp_path / "deck.txt"
    variant = "variant: custom\n" if game == "the-drake" else ""
    deck.write_text(f"game: {game}\n{variant}" + "".join(f"1 {c}\n" for c in cards), "utf-8")
    result = run_cli(["validate", str(deck)])
    assert expected in result.stdout and wrong not in result.stdout, result.stdout


def test_counts_in_messages_read_as_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """'1 card', never '1 card(s)': in data messages and in the games' own rules."""
    deck = tmp_path / "two.txt"
    deck.write_text("game: ren-dhark\n2 POINT OF\n", encoding="utf-8")
    report = run_json(["validate", str(deck), "--json"], code=1)
    messages = [v["message"] for v in report["violations"]]
    assert any("resource points unknown for 1 card," in m for m in messages), messages
    red = tmp_path / "red.txt"
    red.write_text("game: ren-dhark\nvariant: starter\n1 POINT OF\n", encoding="utf-8")
    report = run_json(["validate", str(red), "--json"], code=1)
    messages = [v["message"] for v in report["violations"]]
    assert not [m for m in messages if "(s)" in m], messages
    assert any("starter lacks" in m and "cards" in m for m in messages), messages
