"""STCCG's community formats (modern, open, traditional, warp-speed): the card pools from the
catalog's legality tags, each format's structure rule breaking alone and all at once, the
file's seed zone against placement by type, ``--format`` and ``format:``, the draw pile of
``odds``, and ``fix`` under modern and warp-speed, proven minimal.

Decks are written to ``tmp_path`` from the bundled catalog's own cards.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck import api
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import make_context
from deckcheck.games.stccg import GAME

CATALOG = GAME.bundled_catalog()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "stccg-1e"


@functools.cache
def _legal_everywhere(kind: str, affiliation: str | None) -> tuple[str, ...]:
    """The names of the Premiere cards of a type (and affiliation) legal in every format, in
    the catalog's order (read once: the decks below ask for them again and again)."""
    return tuple(
        c.name
        for c in CATALOG
        if c.get("premiere")
        and c.has_type(kind)
        and {"Modern", "Trad", "Warp"} <= set(c.get("legal") or ())
        and (affiliation is None or affiliation in (c.get("affiliation") or ()))
    )


def _names(kind: str, n: int, *, affiliation: str | None = None, start: int = 0) -> list[str]:
    """The names of ``n`` Premiere cards of a type (and affiliation) legal in every format."""
    found = _legal_everywhere(kind, affiliation)
    assert len(found) >= start + n, (kind, affiliation)
    return list(found[start : start + n])


def cc_deck(
    *,
    missions: int = 6,
    dilemmas: int = 14,
    draw: int = 30,
    outposts: Sequence[str] = ("Federation Outpost",),
    extra: Sequence[str] = (),
) -> list[str]:
    """Lines of a Federation deck: missions, Outposts, dilemmas and ``draw`` Personnel."""
    lines = [f"1 {n}" for n in _names("Mission", missions)]
    lines += [f"1 {n}" for n in outposts]
    lines += [f"1 {n}" for n in _names("Dilemma", dilemmas)]
    lines += [f"1 {n}" for n in _names("Personnel", draw, affiliation="Federation")]
    return lines + list(extra)


def check(tmp_path: Path, lines: Sequence[str], variant: str, name: str = "d.txt") -> Report:
    path = tmp_path / name
    path.write_text("game: stccg-1e\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return validate_loaded(load_deck(path, make_context(variant=variant)))


def codes(report: Report) -> list[str]:
    return sorted({v.code for v in report.violations if v.severity is Severity.ERROR})


# --- the card pools ---------------------------------------------------------------------------


def test_the_catalog_keeps_the_legality_tags_of_every_card() -> None:
    counts: dict[str, int] = {}
    for card in CATALOG:
        for tag in card.get("legal") or ():
            counts[tag] = counts.get(tag, 0) + 1
    assert counts["Open"] == 4152 and counts["Warp"] == 4152 and counts["Modern"] == 4124
    assert counts["Trad"] == 2392 and counts["Virtual"] == 1693 and counts["ban"] == 3
    banned = [c for c in CATALOG if "Open" in c.get("legal", ()) and "Modern" not in c.get("legal")]
    assert len(banned) == 28
    assert {"Time Travel Pod", "Tox Uthat", "Red Alert!", "General Quarters"} <= {
        c.name for c in banned
    }


def test_legal_is_searchable_by_tag_and_by_format_name() -> None:
    assert len(api.cards("stccg", "legal:modern").cards) == 4124
    assert len(api.cards("stccg", "legal:traditional").cards) == 2392
    assert len(api.cards("stccg", "legal:ban").cards) == 3


def test_a_modern_banned_card_is_named_with_why(tmp_path: Path) -> None:
    report = check(tmp_path, cc_deck(extra=["1 Tox Uthat"]), "modern")
    (finding,) = report.violations
    assert finding.code == "stccg.pool" and "Tox Uthat" in finding.message
    assert "not legal in Modern: banned" in finding.message
    assert check(tmp_path, cc_deck(extra=["1 Tox Uthat"]), "open").status is Status.LEGAL
    assert check(tmp_path, cc_deck(extra=["1 Tox Uthat"]), "traditional").status is Status.LEGAL


def test_a_virtual_card_is_refused_by_traditional_only(tmp_path: Path) -> None:
    virtual = ["1 Benjamin Sisko (Chain of Command)"]
    report = check(tmp_path, cc_deck(extra=virtual), "traditional")
    (finding,) = report.violations
    assert finding.code == "stccg.pool"
    assert "a CC virtual card: Traditional takes Decipher's printed cards only" in finding.message
    assert check(tmp_path, cc_deck(extra=virtual), "modern").status is Status.LEGAL


def test_a_card_banned_everywhere_fails_every_format(tmp_path: Path) -> None:
    for variant in ("modern", "open", "traditional", "warp-speed"):
        report = check(tmp_path, cc_deck(extra=["1 Raise the Stakes"]), variant)
        assert any(
            v.code == "stccg.pool" and "banned in every format" in v.message
            for v in report.violations
        ), variant


# --- the structure ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["modern", "open", "traditional"])
def test_a_legal_cc_deck_and_each_rule_breaking_alone(tmp_path: Path, variant: str) -> None:
    assert check(tmp_path, cc_deck(), variant).status is Status.LEGAL
    assert codes(check(tmp_path, cc_deck(missions=5), variant)) == ["stccg.missions"]
    assert codes(check(tmp_path, cc_deck(dilemmas=30), variant)) == ["stccg.seed-max"]
    assert codes(check(tmp_path, cc_deck(draw=29), variant)) == ["stccg.draw-min"]
    assert codes(check(tmp_path, cc_deck(outposts=()), variant)) == ["stccg.reporting"]
    twice = [*cc_deck(missions=5), f"1 {_names('Mission', 1)[0]}"]
    assert codes(check(tmp_path, twice, variant)) == ["stccg.mission-copies"]


def test_every_modern_rule_at_once(tmp_path: Path) -> None:
    lines = cc_deck(missions=6, dilemmas=31, draw=20, outposts=(), extra=["1 Tox Uthat"])
    lines.append(f"1 {_names('Mission', 1)[0]}")
    lines += ["QsTent:", *(f"1 {n}" for n in _names("Interrupt", 13)), "1 Red Alert!"]
    report = check(tmp_path, lines, "modern")
    assert codes(report) == [
        "stccg.draw-min",
        "stccg.mission-copies",
        "stccg.missions",
        "stccg.pool",
        "stccg.reporting",
        "stccg.seed-max",
        "stccg.side-decks",
    ]
    # the side deck's banned card is named too, and it is never counted
    assert sum("Red Alert!" in v.message for v in report.violations) == 1


def test_a_seeded_headquarters_is_a_reporting_facility(tmp_path: Path) -> None:
    hq = next(c for c in CATALOG if c.get("class") == "Headquarters" and "Modern" in c.get("legal"))
    report = check(tmp_path, cc_deck(outposts=(hq.name,)), "modern")
    assert report.status is Status.LEGAL, report.violations


def test_warp_speed_three_ten_twenty_and_one_outpost(tmp_path: Path) -> None:
    legal = cc_deck(missions=3, dilemmas=6, draw=20)
    assert check(tmp_path, legal, "warp-speed").status is Status.LEGAL
    assert codes(check(tmp_path, cc_deck(missions=4, dilemmas=6, draw=20), "warp-speed")) == [
        "stccg.missions"
    ]
    assert codes(check(tmp_path, cc_deck(missions=3, dilemmas=10, draw=20), "warp-speed")) == [
        "stccg.seed-max"
    ]
    assert codes(check(tmp_path, cc_deck(missions=3, dilemmas=6, draw=19), "warp-speed")) == [
        "stccg.draw-min"
    ]
    posts = ("Federation Outpost", "Klingon Outpost")
    two = cc_deck(missions=3, dilemmas=5, draw=20, outposts=posts)
    assert codes(check(tmp_path, two, "warp-speed")) == ["stccg.one-outpost"]
    none = cc_deck(missions=3, dilemmas=6, draw=20, outposts=())
    assert codes(check(tmp_path, none, "warp-speed")) == ["stccg.one-outpost"]


def test_the_files_seed_zone_is_the_seed_deck(tmp_path: Path) -> None:
    # 31 dilemmas, but the file seeds only 14 of them: the rest are in the draw deck.
    missions = _names("Mission", 6)
    dilemmas = _names("Dilemma", 31)
    people = _names("Personnel", 16, affiliation="Federation")
    lines = [*(f"1\t{n}" for n in people + dilemmas[14:]), "Missions:"]
    lines += [f"1\t{n}" for n in missions]
    lines += ["Seed+Dil:", "1\tFederation Outpost", *(f"1\t{n}" for n in dilemmas[:14])]
    assert check(tmp_path, lines, "modern").status is Status.LEGAL
    setup = api.odds(str(tmp_path / "d.txt"), ["type:personnel>=1"], variant="modern")
    assert setup.to_json()["probability"] > 0
    loaded = load_deck(tmp_path / "d.txt", make_context(variant="modern"))
    from deckcheck.analysis.setup import deck_setup

    assert deck_setup(loaded).pile_size == 16 + 17


def test_format_option_header_and_premiere_alias(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("game: stccg\nformat: warp\n" + "\n".join(cc_deck()) + "\n", encoding="utf-8")
    assert load_deck(path).variant.name == "warp-speed"
    assert load_deck(path, make_context(variant="premiere")).variant.name == "standard"
    result = invoke(["validate", str(path), "--format", "modern", "--json"])
    assert result.exit_code == 0, result.output
    path.write_text("format: modern\nvariant: open\n1 Federation Outpost\n", encoding="utf-8")
    result = invoke(["validate", str(path)])
    assert result.exit_code == 2 and "variant is given twice" in result.output


def test_the_draw_pile_under_a_format_is_the_draw_deck(tmp_path: Path) -> None:
    path = tmp_path / "d.txt"
    path.write_text("game: stccg-1e\n" + "\n".join(cc_deck()) + "\n", encoding="utf-8")
    report = api.odds(str(path), ["type:personnel>=7"], variant="modern").to_json()
    # 30 Personnel make the whole draw deck: every opening hand of 7 holds 7 of them
    assert report["probability"] == 1.0


# --- fix --------------------------------------------------------------------------------------


def test_fix_under_modern_is_proven_minimal(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    lines = cc_deck(draw=27, extra=["1 Tox Uthat"])
    path.write_text("game: stccg-1e\nformat: modern\n" + "\n".join(lines) + "\n", "utf-8")
    result = api.fix(str(path))
    assert result.status == "fixed" and result.proven
    # the banned artifact out (1), three draw cards in (3)
    assert result.distance == 4
    assert result.report is not None and result.report.status is Status.LEGAL


def test_fix_under_warp_speed_is_proven_minimal() -> None:
    result = api.fix(str(EXAMPLES / "illegal-warp-speed-two-outposts.txt"))
    assert result.status == "fixed" and result.proven
    # one Outpost and two dilemmas out: 13 seed cards become 10, one Outpost seeded
    assert result.distance == 3
    assert result.report is not None and result.report.status is Status.LEGAL


# --- the real Lackey decks --------------------------------------------------------------------

LACKEY_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "stccg-1e" / "lackey-decks"


@pytest.mark.parametrize("name", ["simple-bajoran.txt", "simple-ferengi.txt", "simple-klingon.txt"])
def test_the_plugins_lackey_decks_are_legal_under_modern(name: str) -> None:
    path = LACKEY_DIR / name
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    report = validate_loaded(load_deck(path, make_context(variant="modern")))
    assert report.status is Status.LEGAL, report.violations
    # under the default (Premiere) the same deck is judged as before: 60 cards and Outposts
    standard = validate_loaded(load_deck(path))
    assert {v.code for v in standard.violations if v.severity is Severity.ERROR} <= {
        "stccg.size",
        "stccg.outposts",
    }


# --- Lackey's virtual re-issues and .stdeck decks ---------------------------------------------


def test_a_vp_line_is_the_titled_card_with_the_reissues_own_tags(tmp_path: Path) -> None:
    lines = [*cc_deck(), "1 Spock *VP"]
    path = tmp_path / "vp.txt"
    path.write_text("game: stccg-1e\n" + "\n".join(lines) + "\n", encoding="utf-8")
    loaded = load_deck(path, make_context(variant="modern"))
    (entry,) = [e for e in loaded.deck if e.fields]
    assert entry.card.name == "Spock" and "Modern" in entry.fields["legal"]
    assert any("virtual re-issue (VP)" in n for n in loaded.deck.notes)


def test_a_vp_alternate_is_refused_with_the_nearest_names(tmp_path: Path) -> None:
    path = tmp_path / "vp.txt"
    path.write_text("game: stccg-1e\n1 Seven of Nine* *VP\n", encoding="utf-8")
    result = invoke(["validate", str(path)])
    assert result.exit_code == 2
    assert "virtual alternate" in result.output and "Seven of Nine" in result.output


STDECK = LACKEY_DIR.parent / "stdeck" / "Federation Premiere.stdeck"


def test_the_stdeck_sample_reads(tmp_path: Path) -> None:
    if not STDECK.is_file():
        pytest.skip(f"{STDECK} is not available")
    loaded = load_deck(STDECK)
    assert loaded.game.id == "stccg-1e" and loaded.source.format == "stdeck"
    assert any("Rogue Borg Mercenaries" in n for n in loaded.deck.notes)
    seeded = [e for e in loaded.deck if e.zone == "Seed+Dil"]
    assert sum(e.count for e in seeded) == 26


def test_fix_keeps_the_files_seed_zone_and_seeds_what_it_adds(tmp_path: Path) -> None:
    # Warp Speed from a Lackey file: 6 missions, 15 dilemmas seeded by the file, no Outpost.
    missions = _names("Mission", 6)
    lines = [*(f"1\t{n}" for n in _names("Personnel", 20, affiliation="Federation"))]
    lines += ["Missions:", *(f"1\t{n}" for n in missions)]
    lines += ["Seed+Dil:", *(f"1\t{n}" for n in _names("Dilemma", 15))]
    path = tmp_path / "w.txt"
    path.write_text("\r\n".join(["format: warp-speed", *lines]) + "\r\n", encoding="utf-8")
    result = api.fix(str(path))
    assert result.status == "fixed" and result.proven
    # 3 missions out, 6 dilemmas out (9 seeded), one Outpost in (seeded: 10)
    assert result.distance == 10
    assert result.report is not None and result.report.status is Status.LEGAL


def test_warp_speed_seeds_at_most_one_ship_personnel_or_equipment(tmp_path: Path) -> None:
    people = _names("Personnel", 22, affiliation="Federation")
    lines = [*(f"1\t{n}" for n in people[2:])]
    lines += ["Missions:", *(f"1\t{n}" for n in _names("Mission", 3))]
    seed = ["1\tFederation Outpost", *(f"1\t{n}" for n in _names("Dilemma", 5))]
    one = check(tmp_path, [*lines, "Seed+Dil:", *seed, f"1\t{people[0]}"], "warp-speed")
    assert one.status is Status.LEGAL, one.violations
    two = check(
        tmp_path, [*lines, "Seed+Dil:", *seed, *(f"1\t{n}" for n in people[:2])], "warp-speed"
    )
    assert codes(two) == ["stccg.seed-max"]
    assert "at most 1 allowed" in two.violations[0].message
