"""Real STCCG deck files: Lackey zones and names, Lackey ``.dek`` XML, gemp's stored deck,
pasted lists, and the partial verdict beside unknown lines.

The six real Lackey decks and the plugin's name table come from ``shared/data/stccg-1e`` next
to (or above) the repository; those tests are skipped where it is absent.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from stccg_build import built, run_script
from typer.testing import CliRunner

from deckcheck.cli.app import app
from deckcheck.commands.validate import validate_paths
from deckcheck.core.errors import DeckFormatError, UnknownCardsError
from deckcheck.decks.load import LoadedDeck, load_deck, resolve_source
from deckcheck.decks.parse import parse_deck
from deckcheck.decks.resolve import PartlyResolvedError, lookup, pick
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.formats import render, render_with_notes
from deckcheck.games.context import make_context
from deckcheck.games.stccg import GAME, placed_deck
from deckcheck.games.stccg.lackey import name_table

ROOT = Path(__file__).resolve().parents[2]
SHARED = next(
    (p / "shared" / "data" / "stccg-1e" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
    ROOT / "missing",
)
LACKEY_DECKS = sorted((SHARED / "lackey-decks").glob("*.txt"))
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared/data is not present")
CATALOG = GAME.bundled_catalog()
runner = CliRunner()

SIDE_ZONES = ["QsTent", "Aside", "Outside", "Ref", "Tribbles", "Tactics", "Sites", "Flash", "Dyson"]
KLINGON = (ROOT / "examples" / "stccg-1e" / "legal-klingon.txt").read_text(encoding="utf-8")


def _load(text: str, name: str = "deck.txt", **kwargs: object) -> LoadedDeck:
    return resolve_source(parse_deck(text, name), make_context(game="stccg-1e", **kwargs))  # type: ignore[arg-type]


def _one(spelling: str) -> tuple[str | None, str | None, str | None]:
    """(card id or None, face, why refused) for one spelling."""
    match = lookup(spelling, CATALOG, GAME)
    card = pick(match.cards, GAME) if match.cards and not match.refused else None
    return (card.id if card else None), match.face, match.refused


# --- zones -----------------------------------------------------------------------------------


@pytest.mark.parametrize("zone", SIDE_ZONES)
def test_side_zone_is_listed_and_never_counted(zone: str) -> None:
    legal = _load(KLINGON)
    text = KLINGON + f"\n{zone}:\n3 Worf\n2 Klingon Outpost\n1 Explore Black Cluster\n"
    loaded = _load(text)
    assert loaded.deck.size == legal.deck.size == 60
    assert loaded.deck.counts() == legal.deck.counts()
    assert loaded.deck.side_zones() == {zone: 6}
    report = validate_loaded(loaded)
    assert report.violations == validate_loaded(legal).violations  # still 6 missions, 60 cards
    assert report.to_json()["side_zones"] == {zone: 6}


@pytest.mark.parametrize("header", ["Missions", "Seed+Dil", "Deck"])
def test_counted_zones_count(header: str) -> None:
    loaded = _load(KLINGON + f"\n{header}:\n1 Worf\n")
    assert loaded.deck.size == 61
    assert loaded.deck.side_zones() == {}
    worf = [e for e in loaded.deck if e.card.name == "Worf"]
    assert worf[0].zone == header


def test_unknown_section_counts_in_the_deck() -> None:
    loaded = _load(KLINGON + "\nPersonnel:\n1 Worf\n")
    assert loaded.deck.size == 61 and loaded.deck.side_zones() == {}


def test_side_zones_in_text_and_json_report(tmp_path: Path) -> None:
    path = tmp_path / "tent.txt"
    path.write_text(KLINGON + "\nQsTent:\n13 Worf\nAside:\n1 Kurak\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "not counted: QsTent 13, Aside 1" in result.stdout
    data = json.loads(runner.invoke(app, ["validate", str(path), "--json"]).stdout)
    assert data["card_count"] == 60 and data["side_zones"] == {"QsTent": 13, "Aside": 1}


def _zoned_deck() -> LoadedDeck:
    text = (
        KLINGON + "\nMissions:\n1 Fever Emergency\nSeed+Dil:\n1 Klingon Outpost\n"
        "QsTent:\n2 Worf\n1 Kurak\nAside:\n1 Deep Space 9\nTribbles:\n1 Kurak\n"
    )
    return _load(text, variant="advanced")


def _by_zone(loaded: LoadedDeck) -> dict[str | None, Counter[tuple[str, str | None]]]:
    """Zone → copies per (card, face), every line placed where a Lackey export puts it."""
    return {
        zone: Counter({(c.id, f): n for c, f, n in items})
        for zone, items in placed_deck(loaded.deck).zoned(lambda e: e.zone).items()
    }


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("lackey", ".txt"), ("lackey", ".dek"), ("dek", ".xml"), ("text", ".txt")]
)
def test_round_trip_keeps_every_zone(tmp_path: Path, fmt: str, suffix: str) -> None:
    loaded = _zoned_deck()
    out = tmp_path / f"out{suffix}"
    out.write_text(render(loaded, fmt, out), encoding="utf-8", newline="")
    back = load_deck(out, make_context(game="stccg-1e", variant="advanced"))
    assert back.deck.counts() == loaded.deck.counts()
    assert (
        back.deck.side_zones()
        == loaded.deck.side_zones()
        == {
            "QsTent": 3,
            "Aside": 1,
            "Tribbles": 1,
        }
    )
    assert _by_zone(back) == _by_zone(loaded)


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_toml_and_json_keep_zones(tmp_path: Path, fmt: str) -> None:
    loaded = _zoned_deck()
    out = tmp_path / f"out.{fmt}"
    out.write_text(render(loaded, fmt, out), encoding="utf-8")
    back = load_deck(out, make_context(variant="advanced"))
    assert back.deck.counts() == loaded.deck.counts()
    assert _by_zone(back) == _by_zone(loaded)


def test_gemp_round_trip_keeps_the_zones_gemp_has(tmp_path: Path) -> None:
    loaded = _zoned_deck()
    written = render_with_notes(loaded, "gemp")
    assert written.text.startswith("DRAW_DECK|") and "|QS_TENT|" in written.text
    assert "|TRIBBLE|" in written.text and "Aside" not in written.text
    assert any("no Aside zone" in note for note in written.notes)
    out = tmp_path / "deck.gemp"
    out.write_text(written.text, encoding="utf-8")
    back = load_deck(out, make_context(game="stccg-1e", variant="advanced"))
    assert back.source.format == "gemp"
    assert back.deck.counts() == loaded.deck.counts()
    assert back.deck.side_zones() == {"QsTent": 3, "Tribbles": 1}


def test_lackey_text_writes_each_zone_under_its_header() -> None:
    text = render(_zoned_deck(), "lackey")
    lines = text.split("\r\n")
    headers = [line for line in lines if line.endswith(":")]
    assert headers == ["Missions:", "Seed+Dil:", "QsTent:", "Aside:", "Tribbles:"]
    qs = lines.index("QsTent:")
    assert lines[qs + 1 : qs + 3] == ["2\tWorf", "1\tKurak"]
    assert "1\tDeep Space 9 (back)" in lines


# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "card_id"),
    [
        ("Armus - Sticky Situation", "111_002"),  # " - " for ": "
        ("Armus: Sticky Situation", "111_002"),
        ('"God"', "126_003"),  # a title in quotes
        ("GOD", "126_003"),
        ("I.K.C. Bortas", "101_344"),  # today's plugin name of I.K.S. Bortas
        ("I.K.S. Bortas", "101_344"),
        ("IKS Bortas", "101_344"),
        ("Red Alert", "101_090"),  # punctuation and spacing folded
        ("Hyper Aging", "101_028"),
        ("Horgahn", "101_002"),
        ("Mr. Scott *TMP", "126_061"),
        ("Rusot *VP", "132_027"),
        ("Data *SFL", "245_028"),
        ("Koral *TNG", "155_093"),
        ("Dukat 2E (Things Past)", "132_029"),  # the plugin's own name
    ],
)
def test_name_forms_resolve(spelling: str, card_id: str) -> None:
    assert _one(spelling) == (card_id, None, None)


@pytest.mark.parametrize("spelling", ["Deep Space 9", "Deep Space 9 (back)", "DEEP SPACE 9"])
def test_other_face_is_terok_nor(spelling: str) -> None:
    assert _one(spelling) == ("112_083", "back", None)


def test_folded_name_shared_by_two_cards_is_refused_with_candidates() -> None:
    with pytest.raises(UnknownCardsError) as info:
        _load("1 PLA NET\n")
    (line,) = info.value.unresolved
    assert line.reason == "ambiguous name"
    assert (
        any("Pla-Net" in c or "Planet" in c for c in line.candidates) or len(line.candidates) == 2
    )


@pytest.mark.parametrize(
    ("spelling", "printings"),
    # a virtual alternate's re-issue ("Name* *VP") is another card: refused, the nearest named
    [("Worf *TNG", {"101_251", "109_114", "119_092"}), ("Seven of Nine* *VP", {"123_171"})],
)
def test_set_code_never_picks_a_different_card(spelling: str, printings: set[str]) -> None:
    card, _face, refused = _one(spelling)
    assert card is None and refused
    with pytest.raises(UnknownCardsError) as info:
        _load(f"1 {spelling}\n")
    (line,) = info.value.unresolved
    assert printings <= {c.split()[0] for c in line.candidates}
    assert line.reason == refused


def test_a_printing_the_catalog_lacks_is_read_as_its_twin_with_a_note() -> None:
    loaded = _load("1 NAVIGATIONAL HAZARDS *VOY\n")
    assert [e.card.id for e in loaded.deck] == ["115_012"]
    assert any("NAVIGATIONAL HAZARDS *VOY" in n for n in loaded.deck.notes)


def test_lackey_alternate_is_read_as_the_base_card_with_a_note() -> None:
    loaded = _load("1 Kira**\n")
    assert [e.card.id for e in loaded.deck] == ["119_048"]
    assert loaded.deck.notes and "Kira**" in loaded.deck.notes[0]


def test_name_table_ships_names_and_ids_only() -> None:
    table = name_table()
    assert len(table) > 4000
    for row in table.rows:
        assert len(row.extra) == 3  # image id, set code and legality tags
        assert "\t" not in row.name and len(row.name) < 120


@needs_shared
def test_every_plugin_name_with_an_id_resolves_to_that_card() -> None:
    with (SHARED / "lackey-names.csv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["blueprint_id"] or r["other_face_of"]]
    wrong = []
    for row in rows:
        want = row["blueprint_id"] or row["other_face_of"]
        face = "back" if row["other_face_of"] else None
        if _one(row["lackey_name"]) != (want, face, None):
            wrong.append((row["lackey_name"], want, _one(row["lackey_name"])))
    share = 1 - len(wrong) / len(rows)
    print(f"\nLackey names resolving to their card: {len(rows) - len(wrong)}/{len(rows)}")
    assert len(rows) > 4600
    assert share == 1.0, wrong[:20]


def test_exported_names_are_the_plugins() -> None:
    names = {(row.name, row.card_id, row.face) for row in name_table().rows}
    loaded = _zoned_deck()
    text = render(loaded, "lackey")
    for line in text.split("\r\n"):
        if "\t" in line:
            name = line.split("\t", 1)[1]
            assert any(n == name for n, _i, _f in names), name
    assert "*" not in text  # no invented "Name *CODE" spellings


def test_dukat_things_past_exports_under_its_plugin_name() -> None:
    loaded = _load("1 Dukat (Things Past)\n")
    text = render(loaded, "lackey")
    assert "\tDukat (Things Past)\r\n" in text and "*VP" not in text


# --- .dek and gemp -----------------------------------------------------------------------------

DEK = """<?xml version="1.0" encoding="UTF-8"?>
<deck version="0.8">
\t<meta><game>startrek1e</game></meta>
\t<superzone name="Deck">
\t\t<card><name id="worf">Worf</name><set>premiere</set></card>
\t\t<card><name id="worf">Worf</name><set>premiere</set></card>
\t\t<card><name id="kurak">Kurak</name><set>premiere</set></card>
\t</superzone>
\t<superzone name="Missions">
\t\t<card><name id="x">Explore Black Cluster</name><set>premiere</set></card>
\t</superzone>
\t<superzone name="QsTent">
\t\t<card><name id="y">Horga&apos;hn</name><set>premiere</set></card>
\t</superzone>
</deck>
"""


def test_dek_is_read_by_content_with_zones_and_lines() -> None:
    source = parse_deck(DEK, "deck.txt")  # the extension does not matter
    assert source.format == "dek"
    assert [(x.name, x.count, x.line, x.section) for x in source.lines] == [
        ("Worf", 2, 5, "Deck"),
        ("Kurak", 1, 7, "Deck"),
        ("Explore Black Cluster", 1, 10, "Missions"),
        ("Horga'hn", 1, 13, "QsTent"),
    ]
    loaded = resolve_source(source, make_context(game="stccg-1e"))
    assert loaded.deck.size == 4 and loaded.deck.side_zones() == {"QsTent": 1}


@pytest.mark.parametrize(
    "text",
    [
        '<!DOCTYPE deck [<!ENTITY a "aaaa">]><deck><superzone name="Deck">'
        "<card><name>&a;</name></card></superzone></deck>",
        '<deck><!ENTITY x SYSTEM "file:///etc/passwd"></deck>',
    ],
)
def test_dek_refuses_document_types_and_entities(text: str) -> None:
    with pytest.raises(DeckFormatError, match="document type or entity"):
        parse_deck(text, "evil.dek")


def test_dek_errors_name_the_line() -> None:
    with pytest.raises(DeckFormatError) as info:
        parse_deck('<deck>\n<superzone name="Deck">\n<card><name>Worf</card>\n</deck>', "b.dek")
    assert info.value.line == 3 and "well-formed" in info.value.message
    with pytest.raises(DeckFormatError, match="no <name>"):
        parse_deck("<deck><superzone><card></card></superzone></deck>", "b.dek")


def test_export_to_dek_file_writes_xml_the_reader_takes(tmp_path: Path) -> None:
    deck = tmp_path / "klingon.txt"
    deck.write_text(KLINGON, encoding="utf-8")
    out = tmp_path / "klingon.dek"
    result = runner.invoke(app, ["export", str(deck), "--to", "lackey", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith('<deck version="0.8">') and "<game>startrek1e</game>" in text
    assert text.count("<card>") == 60
    assert '<superzone name="Missions">' in text and '<superzone name="Seed+Dil">' in text
    assert load_deck(out).deck.counts() == load_deck(deck).deck.counts()
    stdout = runner.invoke(app, ["export", str(deck), "--to", "lackey"])
    assert "<deck" not in stdout.stdout and "\nMissions:" in stdout.stdout


def test_gemp_is_read_by_content() -> None:
    text = "DRAW_DECK|101_251,101_251,101_277|MISSIONS|101_155|SEED_DECK|101_105|QS_TENT|101_002\n"
    source = parse_deck(text, "deck.txt")
    assert source.format == "gemp"
    loaded = resolve_source(source, make_context(game="stccg-1e"))
    assert loaded.deck.counts() == Counter({"101_251": 2, "101_277": 1, "101_155": 1, "101_105": 1})
    assert loaded.deck.side_zones() == {"QsTent": 1}


def test_gemp_with_empty_zones_and_bad_ids() -> None:
    source = parse_deck("DRAW_DECK|101_251|SEED_DECK|\n", "g.txt")
    assert [x.name for x in source.lines] == ["101_251"]
    with pytest.raises(DeckFormatError, match="not a card id"):
        parse_deck("DRAW_DECK|101_251,<script>\n", "g.txt")


# --- the six real decks ------------------------------------------------------------------------


@needs_shared
@pytest.mark.parametrize("path", LACKEY_DECKS, ids=lambda p: p.name)
def test_real_lackey_deck_gets_a_verdict(path: Path) -> None:
    result = runner.invoke(app, ["validate", str(path), "--game", "stccg-1e", "--json"])
    assert result.exit_code in (0, 1, 3), result.output
    data = json.loads(result.stdout)
    assert data["status"] in ("legal", "illegal", "unverified")
    text = path.read_text(encoding="utf-8")
    for zone in ("Aside", "QsTent"):
        listed = text.split(f"{zone}:")[1].split(":")[0] if f"{zone}:" in text else ""
        count = sum(int(x.split("\t")[0]) for x in listed.splitlines() if "\t" in x)
        assert data["side_zones"].get(zone, 0) == count


@needs_shared
def test_deep_space_9_in_a_real_deck_is_terok_nors_other_face() -> None:
    loaded = load_deck(
        SHARED / "lackey-decks" / "simple-bajoran.txt", make_context(game="stccg-1e")
    )
    ds9 = [e for e in loaded.deck.all_entries() if e.card.id == "112_083"]
    assert {(e.zone, e.face) for e in ds9} == {("Seed+Dil", "back"), ("Aside", None)}


@needs_shared
@pytest.mark.parametrize("path", LACKEY_DECKS, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["lackey", "dek", "text"])
def test_real_deck_round_trips(tmp_path: Path, path: Path, fmt: str) -> None:
    loaded = load_deck(path, make_context(game="stccg-1e"))
    out = tmp_path / "out.txt"
    out.write_text(render(loaded, fmt, out), encoding="utf-8", newline="")
    back = load_deck(out, make_context(game="stccg-1e"))
    assert back.deck.counts() == loaded.deck.counts()
    assert _by_zone(back) == _by_zone(loaded)


# --- pasted lists ----------------------------------------------------------------------------

PASTE = """Here is my Klingon list for Saturday, I think it is pretty strong actually.
- 2x Worf
* Gowron (2)
• Koral x3
1. Kurak
2) K'Ehleyr [foil, signed]
(2) Duras
| Count | Card | Type |
|---:|---|---|
| 2 | Kurn | Personnel |
| 1 | I.K.S. Bortas | Ship |
See https://example.org/my-deck for pictures
"""


def test_forgiving_paste_import() -> None:
    loaded = _load(PASTE)
    got = {e.card.name: e.count for e in loaded.deck}
    assert got == {
        "Worf": 2,
        "Gowron": 2,
        "Koral": 3,
        "Kurak": 1,
        "K'Ehleyr": 1,
        "Duras": 2,
        "Kurn": 2,
        "I.K.S. Bortas": 1,
    }
    prose = [n for n in loaded.deck.notes if "prose" in n]
    assert [n.split(":")[0] for n in prose] == ["line 1", "line 12"]


@pytest.mark.parametrize("game", ["ren-dhark", "dorn", "the-drake", "planetary-conquerors"])
def test_paste_import_works_for_every_game(game: str) -> None:
    from deckcheck.games.registry import get_game

    card = next(iter(get_game(game).bundled_catalog()))
    prose = "This line is a sentence about the deck, not a card."
    text = f"- 1x {card.name}\n| 1 | {card.name} |\n{prose}\n"
    loaded = resolve_source(parse_deck(text, "paste.txt"), make_context(game=game))
    assert loaded.deck.counts()[card.id] == 2
    assert any("prose" in n for n in loaded.deck.notes)


def test_a_card_whose_name_reads_like_prose_is_still_a_card() -> None:
    loaded = _load("1 What Does God Need With a Starship?\n")
    assert [e.card.name for e in loaded.deck] == ["What Does God Need With a Starship?"]


# --- the partial verdict ---------------------------------------------------------------------


def test_unknown_line_keeps_exit_2_and_shows_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "one-bad.txt"
    path.write_text(KLINGON.replace("1 Worf", "1 Worff Son of Moog", 1) + "1 Qzxwv\n", "utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "Qzxwv" in result.stderr
    assert "without the 1 unknown line" in result.stdout
    assert "ILLEGAL" not in result.stdout  # the other 60 cards are a legal deck
    data = json.loads(runner.invoke(app, ["validate", str(path), "--json"]).stdout)
    assert data["status"] == "error"
    assert [u["text"] for u in data["unknown_lines"]] == ["Qzxwv"]
    assert data["partial"]["without_unknown_lines"] == 1
    assert data["partial"]["status"] == "legal" and data["partial"]["card_count"] == 60


def test_partial_verdict_carries_the_findings(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(KLINGON + "1 Qzxwv\n3 Kurak\n", "utf-8")
    (outcome,) = validate_paths([path]).outcomes
    assert outcome.exit_code == 2 and isinstance(outcome.error, PartlyResolvedError)
    assert outcome.report is not None and outcome.report.unknown_lines == 1
    assert [v.code for v in outcome.report.violations if v.severity == "error"] == ["stccg.size"]


def test_without_game_the_nearly_knowing_game_names_the_unknown_lines(tmp_path: Path) -> None:
    path = tmp_path / "nogame.txt"
    body = "\n".join(line for line in KLINGON.splitlines() if not line.startswith("game:"))
    path.write_text(body + "\n1 Qzxwv Ploonk\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert [u["text"] for u in data["unknown_lines"]] == ["Qzxwv Ploonk"]
    assert data["partial"]["game"] == "stccg-1e"
    assert "game: stccg-1e" in data["error"]


@needs_shared
def test_builder_reproduces_the_name_table(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    done, folder = built(SHARED / "cards.csv", tmp_path_factory)
    assert done.code == 0, done.stderr
    shipped = ROOT / "catalogs" / "stccg-1e" / "lackey-names.tsv"
    assert (folder / "lackey-names.tsv").read_bytes() == shipped.read_bytes(), (
        "catalogs/stccg-1e/lackey-names.tsv is stale: re-run tools/build_stccg_catalog.py"
    )
    missing = tmp_path / "none.csv"
    done = run_script(SHARED / "cards.csv", "--names", missing, "-o", tmp_path / "x" / "cards.toml")
    assert done.code == 2 and "none.csv" in done.stderr
