"""``export --to html``: one self-contained sheet per game, parsed and checked for its parts."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.decks.load import load_deck

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHEETS = {
    "ren-dhark": "ren-dhark/terra-custom.txt",
    "stccg-1e": "stccg-1e/legal-federation.txt",
    "planetary-conquerors": "planetary-conquerors/legal-50.txt",
    "dorn": "dorn/first-game-party.txt",
    "the-drake": "the-drake/custom-stack.txt",
}


class Sheet(HTMLParser):
    """Tags, attributes and text of a document, and whether every tag was closed."""

    VOID = frozenset(
        {"meta", "br", "img", "input", "link", "hr", "rect", "line", "circle", "polyline"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.text: list[str] = []
        self.current: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.current.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())

    def ids(self) -> set[str]:
        return {a["id"] for _, a in self.tags if a.get("id")}

    def count(self, tag: str, **attrs: str) -> int:
        return sum(
            1 for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())
        )


def _sheet(game: str, tmp_path: Path) -> tuple[Sheet, str]:
    out = tmp_path / f"{game}.html"
    result = invoke(["export", str(EXAMPLES / SHEETS[game]), "--to", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    parser = Sheet()
    parser.feed(text)
    parser.close()
    return parser, text


@pytest.mark.parametrize("game", list(SHEETS))
def test_sheet_structure(game: str, tmp_path: Path) -> None:
    sheet, text = _sheet(game, tmp_path)
    assert not sheet.errors and not sheet.stack, (sheet.errors, sheet.stack)
    assert text.lstrip().lower().startswith("<!doctype html>")
    assert {"title", "list", "legality", "stats", "odds"} <= sheet.ids()
    # Self-contained: no scripts, no external style sheets, images or fonts.
    assert sheet.count("script") == 0 and sheet.count("link") == 0 and sheet.count("img") == 0
    for _tag, attrs in sheet.tags:
        for key in ("src", "href"):
            assert not attrs.get(key), attrs
    assert "url(" not in text and "@import" not in text
    assert "@media print" in text
    # The composition charts: one inline SVG figure per dimension shown.
    charts = sheet.count("figure", **{"class": "chart"})
    assert charts >= 1 and sheet.count("svg") >= charts
    assert sheet.count("rect") >= 1
    # Every card of the deck is listed, with its count.
    loaded = load_deck(EXAMPLES / SHEETS[game])
    for entry in loaded.deck:
        assert entry.card.name in sheet.text
    assert "LEGAL" in sheet.text


@pytest.mark.parametrize("game", ["ren-dhark", "stccg-1e", "planetary-conquerors"])
def test_decks_drawn_from_have_the_odds_curve(game: str, tmp_path: Path) -> None:
    sheet, _ = _sheet(game, tmp_path)
    assert sheet.count("figure", **{"data-chart": "odds-by-turn"}) == 1
    assert sheet.count("polyline", **{"class": "with"}) == 1
    assert sheet.count("circle") >= 2


@pytest.mark.parametrize("game", ["dorn", "the-drake"])
def test_decks_not_drawn_from_say_so(game: str, tmp_path: Path) -> None:
    sheet, _ = _sheet(game, tmp_path)
    assert sheet.count("polyline") == 0
    assert any("not drawn from" in t for t in sheet.text)


def test_illegal_deck_sheet_lists_the_findings(tmp_path: Path) -> None:
    out = tmp_path / "bad.html"
    deck = EXAMPLES / "ren-dhark/illegal-mixed.txt"
    result = invoke(["export", str(deck), "--to", "html", "-o", str(out), "--allow-illegal"])
    assert result.exit_code == 0, result.output
    sheet = Sheet()
    sheet.feed(out.read_text(encoding="utf-8"))
    assert "ILLEGAL" in sheet.text
    assert sheet.count("table", **{"class": "findings"}) == 1


def test_card_names_are_escaped(tmp_path: Path) -> None:
    _, text = _sheet("stccg-1e", tmp_path)
    assert "Birth of &quot;Junior&quot;" in text


def test_side_zones_are_listed_not_counted(tmp_path: Path) -> None:
    lackey = (EXAMPLES / "stccg-1e/legal-klingon-lackey.txt").read_text(encoding="utf-8")
    deck = tmp_path / "side.txt"
    deck.write_text(lackey + "\nQsTent:\n1\tData\n", encoding="utf-8")
    out = tmp_path / "side.html"
    result = invoke(["export", str(deck), "--to", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    sheet = Sheet()
    sheet.feed(out.read_text(encoding="utf-8"))
    assert "QsTent (not counted) (1)" in sheet.text
    assert "Data" in sheet.text
