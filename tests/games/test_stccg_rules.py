"""Star Trek CCG 1E (RULES.md §2): every ``stccg.*`` rule passing and failing, the ``missions``
override, Lackey name spellings, the six real Lackey decks and the Lackey export round trip.

Decks are built from real Premiere cards of the bundled catalog (picked by type and
affiliation), written to ``tmp_path`` and loaded through the ordinary deck loader.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from conftest import EXAMPLES, invoke

from deckcheck.catalog.model import Card
from deckcheck.core.errors import UnknownCardsError
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import LoadedDeck, load_deck, resolve_source
from deckcheck.decks.parse import parse_deck, read_deck
from deckcheck.decks.resolve import resolve_line
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import make_context
from deckcheck.games.spec import SetAsideModel
from deckcheck.games.stccg import GAME
from deckcheck.games.stccg.rules import seed_cards

LACKEY_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "stccg-1e" / "lackey-decks"
LACKEY_FILES = (
    "simple-bajoran.txt",
    "simple-cardassian.txt",
    "simple-federation.txt",
    "simple-ferengi.txt",
    "simple-klingon.txt",
    "simple-romulan.txt",
)

CATALOG = GAME.bundled_catalog()
PREMIERE: list[Card] = [c for c in CATALOG if c.get("premiere")]


def _premiere(kind: str, affiliation: str | None = None) -> list[str]:
    """Ids of Premiere cards of exactly this type (and exactly this one affiliation)."""
    ids = [
        c.id
        for c in PREMIERE
        if c.types == (kind,)
        and (affiliation is None or list(c.get("affiliation") or ()) == [affiliation])
    ]
    assert ids, f"no Premiere {kind} {affiliation or ''} in the catalog"
    return ids


MISSIONS = _premiere("Mission")
DILEMMAS = _premiere("Dilemma")
ARTIFACTS = _premiere("Artifact")
EVENTS = _premiere("Event")
INTERRUPTS = _premiere("Interrupt")
EQUIPMENT = _premiere("Equipment")
FED_PERSONNEL = _premiere("Personnel", "Federation")
KLINGON_PERSONNEL = _premiere("Personnel", "Klingon")
ROMULAN_PERSONNEL = _premiere("Personnel", "Romulan")
NA_PERSONNEL = _premiere("Personnel", "Non-Aligned")
FED_SHIPS = _premiere("Ship", "Federation")
KLINGON_SHIPS = _premiere("Ship", "Klingon")
NA_SHIPS = _premiere("Ship", "Non-Aligned")
FED_OUTPOST = "101_104"
KLINGON_OUTPOST = "101_105"
ROMULAN_OUTPOST = "101_106"
NEUTRAL_OUTPOST = "103_052"  # Non-Aligned (Alternate Universe)
MAJOR_RAKAL = "103_113"  # Personnel, Romulan and Federation
GARAK = "115_075"  # Personnel, Cardassian and Non-Aligned
INCIDENT = "114_003"  # Nightmare: an Incident, a type the Premiere rules do not describe
Q_DILEMMA = "105_087"  # a Q-card

# Neutral draw-deck filler: Federation personnel and ships, Non-Aligned personnel, events,
# interrupts, equipment (all Premiere).
FILLER = [
    *FED_PERSONNEL[:15],
    *NA_PERSONNEL[:3],
    *FED_SHIPS[:3],
    *EVENTS[:6],
    *INTERRUPTS[:6],
    *EQUIPMENT[:3],
]


def test_catalog_has_the_cards_these_tests_use() -> None:
    assert len(CATALOG) == 4155
    for card_id, kind in [
        (FED_OUTPOST, "Outpost"),
        (KLINGON_OUTPOST, "Outpost"),
        (ROMULAN_OUTPOST, "Outpost"),
        (NEUTRAL_OUTPOST, "Outpost"),
        (MAJOR_RAKAL, "Personnel"),
        (GARAK, "Personnel"),
        (INCIDENT, "Incident"),
        (Q_DILEMMA, "Q Dilemma"),
    ]:
        card = CATALOG.by_id(card_id)
        assert card is not None and card.has_type(kind), card_id
    for card_id in (FED_OUTPOST, KLINGON_OUTPOST, ROMULAN_OUTPOST):
        assert CATALOG.by_id(card_id).get("premiere") is True  # type: ignore[union-attr]
    assert set(CATALOG.by_id(MAJOR_RAKAL).get("affiliation")) == {  # type: ignore[union-attr]
        "Romulan",
        "Federation",
    }
    assert set(CATALOG.by_id(GARAK).get("affiliation")) == {  # type: ignore[union-attr]
        "Cardassian",
        "Non-Aligned",
    }
    assert len(MISSIONS) >= 10 and len(DILEMMAS) >= 30


def build(
    size: int = 60,
    *,
    missions: int = 6,
    dilemmas: int = 6,
    artifacts: int = 0,
    outposts: Sequence[str] = (FED_OUTPOST,),
    extra: Mapping[str, int] | None = None,
    filler: Sequence[str] = FILLER,
) -> Counter[str]:
    """A deck of exactly ``size`` real cards: seed cards as asked, then draw-deck filler."""
    cards: Counter[str] = Counter()
    for mission in MISSIONS[:missions]:
        cards[mission] += 1
    for outpost in outposts:
        cards[outpost] += 1
    for i in range(dilemmas):
        cards[DILEMMAS[i % len(DILEMMAS)]] += 1
    for i in range(artifacts):
        cards[ARTIFACTS[i % len(ARTIFACTS)]] += 1
    cards.update(extra or {})
    assert sum(cards.values()) <= size, "the fixed cards alone exceed the deck size"
    i = 0
    while sum(cards.values()) < size:
        cards[filler[i % len(filler)]] += 1
        i += 1
    return cards


def write(
    tmp_path: Path,
    cards: Mapping[str, int],
    *,
    variant: str | None = None,
    headers: Sequence[str] = (),
    name: str = "deck.txt",
) -> Path:
    lines = ["game: stccg-1e", *([f"variant: {variant}"] if variant else []), *headers, ""]
    lines += [f"{n} {card_id}" for card_id, n in cards.items()]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check(
    tmp_path: Path,
    cards: Mapping[str, int],
    variant: str | None = None,
    overrides: Mapping[str, int] | None = None,
) -> Report:
    loaded = load_deck(write(tmp_path, cards, variant=variant))
    if overrides:
        loaded = dataclasses.replace(loaded, variant=loaded.variant.with_params(overrides))
    return validate_loaded(loaded)


def found(report: Report, code: str) -> list[str]:
    return [v.message for v in report.violations if v.code == code]


def errors(report: Report) -> list[str]:
    return [v.code for v in report.violations if v.severity == Severity.ERROR]


# --------------------------------------------------------------------------- stccg.size


@pytest.mark.parametrize(
    ("variant", "size"), [(None, 60), ("standard", 60), ("short-55", 55), ("short-50", 50)]
)
def test_size_legal(tmp_path: Path, variant: str | None, size: int) -> None:
    report = check(tmp_path, build(size), variant)
    assert report.card_count == size
    assert report.status == Status.LEGAL, report.violations
    assert report.violations == ()
    assert "stccg.size" in report.rules_checked


@pytest.mark.parametrize(
    ("variant", "size", "want", "hint"),
    [
        ("standard", 59, 60, "add 1"),
        ("standard", 61, 60, "remove 1"),
        ("short-55", 60, 55, "remove 5"),
        ("short-55", 54, 55, "add 1"),
        ("short-50", 55, 50, "remove 5"),
        ("short-50", 49, 50, "add 1"),
    ],
)
def test_size_illegal(tmp_path: Path, variant: str, size: int, want: int, hint: str) -> None:
    report = check(tmp_path, build(size), variant)
    assert report.status == Status.ILLEGAL
    assert errors(report) == ["stccg.size"]
    (message,) = found(report, "stccg.size")
    assert f"{size} cards" in message and f"exactly {want}" in message and hint in message


@pytest.mark.parametrize("size", [60, 61, 73, 100])
def test_advanced_is_a_larger_deck_without_an_upper_limit(tmp_path: Path, size: int) -> None:
    report = check(tmp_path, build(size), "advanced")
    assert "stccg.size" in report.rules_checked
    assert report.status == Status.LEGAL, report.violations


@pytest.mark.parametrize(("size", "hint"), [(22, "add 38"), (40, "add 20"), (59, "add 1")])
def test_advanced_needs_at_least_sixty(tmp_path: Path, size: int, hint: str) -> None:
    report = check(tmp_path, build(size, dilemmas=3), "advanced")
    assert errors(report) == ["stccg.size"]
    (message,) = found(report, "stccg.size")
    assert f"{size} cards, at least 60 required ({hint})" == message


# --------------------------------------------------------------------------- stccg.missions


@pytest.mark.parametrize("variant", ["standard", "short-55", "short-50"])
@pytest.mark.parametrize(("missions", "legal"), [(6, True), (5, False), (7, False), (0, False)])
def test_missions_exactly_six(tmp_path: Path, variant: str, missions: int, legal: bool) -> None:
    size = {"standard": 60, "short-55": 55, "short-50": 50}[variant]
    report = check(tmp_path, build(size, missions=missions), variant)
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert errors(report) == ["stccg.missions"]
        (message,) = found(report, "stccg.missions")
        assert f"{missions} mission" in message and "exactly 6" in message


@pytest.mark.parametrize(
    ("missions", "legal"),
    [
        (6, True),
        (8, True),
        (10, True),
        (4, False),
        (5, False),
        (7, False),
        (9, False),
    ],
)
def test_missions_advanced_at_least_six_and_even(
    tmp_path: Path, missions: int, legal: bool
) -> None:
    report = check(tmp_path, build(64, missions=missions), "advanced")
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert errors(report) == ["stccg.missions"]
        (message,) = found(report, "stccg.missions")
        assert f"{missions} missions" in message
        assert "at least 6" in message and "even" in message


def test_missions_violation_lists_the_mission_cards(tmp_path: Path) -> None:
    report = check(tmp_path, build(missions=5))
    (violation,) = [v for v in report.violations if v.code == "stccg.missions"]
    assert set(violation.cards) == set(MISSIONS[:5])


# --------------------------------------------------------------------------- missions override


@pytest.mark.parametrize(
    ("variant", "missions", "legal"),
    [
        ("standard", 4, True),
        ("standard", 6, False),
        ("standard", 3, False),
        ("short-50", 4, True),
        ("short-50", 5, False),
        ("advanced", 4, True),
        ("advanced", 6, True),
        ("advanced", 5, False),
        ("advanced", 2, False),
    ],
)
def test_missions_override_with_params(
    tmp_path: Path, variant: str, missions: int, legal: bool
) -> None:
    size = 50 if variant == "short-50" else 60
    report = check(tmp_path, build(size, missions=missions), variant, overrides={"missions": 4})
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert errors(report) == ["stccg.missions"]
        assert "4" in found(report, "stccg.missions")[0]


def test_with_params_keeps_the_rest_and_rejects_unknown_settings() -> None:
    base = GAME.variant("standard")
    four = base.with_params({"missions": 4})
    assert four.param("missions") == 4
    assert four.param("min_cards") == 60 and four.rules == base.rules
    assert base.param("missions") == 6  # the original is unchanged
    from deckcheck.core.errors import UsageError

    with pytest.raises(UsageError, match="no setting"):
        base.with_params({"misions": 4})


def test_missions_cli_option(tmp_path: Path) -> None:
    path = write(tmp_path, build(missions=4))
    plain = invoke(["validate", str(path), "--json"])
    assert plain.exit_code == 1, plain.output
    assert [v["code"] for v in json.loads(plain.stdout)["violations"]] == ["stccg.missions"]
    four = invoke(["validate", str(path), "--missions", "4", "--json"])
    assert four.exit_code == 0, four.output
    assert json.loads(four.stdout)["status"] == "legal"
    six = invoke(
        [
            "validate",
            write(tmp_path, build(), name="six.txt").as_posix(),
            "--missions",
            "4",
            "--json",
        ],
    )
    assert six.exit_code == 1, six.output


def test_missions_cli_option_on_a_game_without_missions_is_a_usage_error(tmp_path: Path) -> None:
    deck = Path(__file__).resolve().parents[2] / "examples" / "dorn" / "first-game-party.txt"
    result = invoke(["validate", str(deck), "--missions", "4"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_missions_header_line(tmp_path: Path) -> None:
    path = write(tmp_path, build(missions=4), headers=["missions: 4"])
    report = validate_loaded(load_deck(path))
    assert report.status == Status.LEGAL, report.violations


# --------------------------------------------------------------------------- stccg.seed-half


@pytest.mark.parametrize(
    ("size", "variant", "seeds"),
    [
        (60, "standard", 30),
        (55, "short-55", 27),
        (50, "short-50", 25),
        (61, "advanced", 30),
    ],
)
def test_seed_half_at_the_limit_is_legal(
    tmp_path: Path, size: int, variant: str, seeds: int
) -> None:
    cards = build(size, dilemmas=seeds - 7)  # 6 missions + 1 outpost + dilemmas
    report = check(tmp_path, cards, variant)
    assert report.status == Status.LEGAL, report.violations


def test_seed_half_message_names_the_counts_by_type(tmp_path: Path) -> None:
    report = check(tmp_path, build(dilemmas=24))  # 6 + 1 + 24 = 31 of 60
    assert errors(report) == ["stccg.seed-half"]
    (message,) = found(report, "stccg.seed-half")
    assert "31 seed cards, at most 30" in message
    assert "6 missions" in message and "24 dilemmas" in message and "1 outpost" in message


def test_seed_half_counts_artifacts(tmp_path: Path) -> None:
    report = check(tmp_path, build(dilemmas=20, artifacts=4))  # 6 + 1 + 20 + 4 = 31
    (message,) = found(report, "stccg.seed-half")
    assert "31 seed cards" in message and "4 artifacts" in message


@pytest.mark.parametrize(
    ("size", "variant", "seeds"),
    [
        (55, "short-55", 28),
        (50, "short-50", 26),
        (61, "advanced", 31),
        (80, "advanced", 41),
    ],
)
def test_seed_half_over_the_limit(tmp_path: Path, size: int, variant: str, seeds: int) -> None:
    report = check(tmp_path, build(size, dilemmas=seeds - 7), variant)
    assert errors(report) == ["stccg.seed-half"]
    (message,) = found(report, "stccg.seed-half")
    assert f"{seeds} seed cards, at most {size // 2}" in message


def test_cards_outside_the_premiere_rules_are_not_seed_cards(tmp_path: Path) -> None:
    # 30 seed cards + Q-Dilemmas and an Incident: those count in the draw deck.
    cards = build(dilemmas=23, extra={Q_DILEMMA: 3, INCIDENT: 2})
    report = check(tmp_path, cards)
    assert errors(report) == []
    assert report.status == Status.LEGAL


# --------------------------------------------------------------------------- stccg.outposts


def test_outposts_covered(tmp_path: Path) -> None:
    report = check(tmp_path, build(outposts=(FED_OUTPOST,)))
    assert found(report, "stccg.outposts") == []


def test_outposts_missing_affiliation_is_named(tmp_path: Path) -> None:
    cards = build(extra={KLINGON_PERSONNEL[0]: 2, KLINGON_PERSONNEL[1]: 1})
    report = check(tmp_path, cards)
    assert errors(report) == ["stccg.outposts"]
    (violation,) = [v for v in report.violations if v.code == "stccg.outposts"]
    assert "Klingon" in violation.message and "Federation" not in violation.message
    assert set(violation.cards) == {KLINGON_PERSONNEL[0], KLINGON_PERSONNEL[1]}


def test_outposts_ships_count_too(tmp_path: Path) -> None:
    report = check(tmp_path, build(extra={KLINGON_SHIPS[0]: 1}))
    (message,) = found(report, "stccg.outposts")
    assert "Klingon" in message


def test_outposts_each_missing_affiliation_reported(tmp_path: Path) -> None:
    cards = build(outposts=(), extra={KLINGON_PERSONNEL[0]: 1, ROMULAN_PERSONNEL[0]: 1}, dilemmas=7)
    report = check(tmp_path, cards)
    messages = found(report, "stccg.outposts")
    assert len(messages) == 4  # no Outpost at all; Federation (filler), Klingon, Romulan
    assert messages[0].startswith("no Outpost:")
    for affiliation in ("Federation", "Klingon", "Romulan"):
        assert sum(affiliation in m for m in messages) == 1, messages


def test_outposts_all_affiliations_covered(tmp_path: Path) -> None:
    cards = build(
        outposts=(FED_OUTPOST, KLINGON_OUTPOST, ROMULAN_OUTPOST),
        extra={KLINGON_PERSONNEL[0]: 1, ROMULAN_PERSONNEL[0]: 1, KLINGON_SHIPS[0]: 1},
    )
    report = check(tmp_path, cards)
    assert report.status == Status.LEGAL, report.violations


def test_non_aligned_cards_need_an_outpost_of_any_kind(tmp_path: Path) -> None:
    na_only = [*NA_PERSONNEL, *NA_SHIPS, *EVENTS[:5]]
    cards = build(outposts=(), dilemmas=7, filler=na_only)
    assert not any(c in cards for c in FED_PERSONNEL)
    report = check(tmp_path, cards)
    # no affiliation lacks its Outpost, but nothing could ever report for duty
    assert errors(report) == ["stccg.outposts"]
    (message,) = found(report, "stccg.outposts")
    assert message.startswith("no Outpost:")
    with_one = build(outposts=(NEUTRAL_OUTPOST,), dilemmas=6, filler=na_only)
    assert check(tmp_path, with_one).status == Status.LEGAL


@pytest.mark.parametrize("outpost", [FED_OUTPOST, ROMULAN_OUTPOST])
def test_multi_affiliation_card_covered_by_either(tmp_path: Path, outpost: str) -> None:
    na_only = [*NA_PERSONNEL, *EVENTS[:5]]
    cards = build(outposts=(outpost,), extra={MAJOR_RAKAL: 1}, filler=na_only)
    report = check(tmp_path, cards)
    assert found(report, "stccg.outposts") == []


def test_multi_affiliation_card_without_any_of_its_outposts(tmp_path: Path) -> None:
    na_only = [*NA_PERSONNEL, *EVENTS[:5]]
    cards = build(outposts=(KLINGON_OUTPOST,), extra={MAJOR_RAKAL: 1}, filler=na_only)
    report = check(tmp_path, cards)
    (violation,) = [v for v in report.violations if v.code == "stccg.outposts"]
    assert "Federation" in violation.message and "Romulan" in violation.message
    assert violation.cards == (MAJOR_RAKAL,)


def test_multi_affiliation_card_covered_by_a_non_aligned_outpost(tmp_path: Path) -> None:
    # Garak (Cardassian/Non-Aligned): a Non-Aligned Outpost is an Outpost of one of his
    # affiliations (was a bug: Non-Aligned was dropped before matching outposts)
    na_only = [*NA_PERSONNEL, *EVENTS[:5]]
    cards = build(outposts=(NEUTRAL_OUTPOST,), extra={GARAK: 1}, filler=na_only)
    report = check(tmp_path, cards)
    assert found(report, "stccg.outposts") == []
    klingon = check(tmp_path, build(outposts=(KLINGON_OUTPOST,), extra={GARAK: 1}, filler=na_only))
    (violation,) = [v for v in klingon.violations if v.code == "stccg.outposts"]
    assert "Cardassian" in violation.message and violation.cards == (GARAK,)


# --------------------------------------------------------------------------- type outside rules


def test_type_outside_rules_is_a_warning_and_the_deck_stays_legal(tmp_path: Path) -> None:
    report = check(tmp_path, build(extra={INCIDENT: 2, Q_DILEMMA: 1}))
    warnings = [v for v in report.violations if v.code == "stccg.type-outside-rules"]
    assert {v.severity for v in warnings} == {Severity.WARNING}
    assert {c for v in warnings for c in v.cards} == {INCIDENT, Q_DILEMMA}
    assert any("Incident" in v.message for v in warnings)
    assert report.status == Status.LEGAL
    assert report.exit_code == 0


def test_premiere_types_give_no_warning(tmp_path: Path) -> None:
    dual = "108_006"  # an Interrupt/Event: both types are in the Premiere rules
    report = check(tmp_path, build(extra={dual: 1}, artifacts=2))
    assert found(report, "stccg.type-outside-rules") == []


def test_type_outside_rules_cli_exit_code(tmp_path: Path) -> None:
    path = write(tmp_path, build(extra={INCIDENT: 1}))
    result = invoke(["validate", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "legal"
    assert [(v["code"], v["severity"]) for v in data["violations"]] == [
        ("stccg.type-outside-rules", "warning")
    ]


def test_every_rule_reported_together(tmp_path: Path) -> None:
    cards = build(59, missions=5, dilemmas=26, extra={KLINGON_PERSONNEL[0]: 1, INCIDENT: 1})
    report = check(tmp_path, cards)
    assert sorted(errors(report)) == sorted(
        ["stccg.size", "stccg.missions", "stccg.seed-half", "stccg.outposts"]
    )
    assert found(report, "stccg.type-outside-rules")


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("spelling", "card_id"),
    [
        ("Mr. Scott *TMP", "126_061"),
        ("Mr. Scott", "119_071"),
        ("Kira**", "119_048"),
        ("Leeta*", None),
        ("Vash (The Next Generation)", "155_094"),
        ("Vash", "101_248"),
        ("KIVAS FAJO - COLLECTOR", "101_079"),
        ("kivas fajo - collector", "101_079"),
        ("% Vekor", "101_303"),
        ("FEDERATION OUTPOST", FED_OUTPOST),
    ],
)
def test_lackey_spellings_resolve(tmp_path: Path, spelling: str, card_id: str | None) -> None:
    text = f"Missions:\r\n1\t{MISSIONS[0]}\r\nSeed+Dil:\r\n1\t{spelling}\r\n"
    source = parse_deck(text, "spelling.txt")
    loaded = resolve_source(source, make_context(game="stccg-1e"))
    entry = loaded.deck.entries[1]
    assert entry.count == 1
    if card_id is not None:
        assert entry.card.id == card_id
    assert entry.section == "Seed+Dil"


def test_unknown_name_reported_with_suggestions(tmp_path: Path) -> None:
    path = tmp_path / "typo.txt"
    path.write_text(
        "game: stccg-1e\n3 Federaton Outpost\n2 Qzxwv Ploonk\n1 Kira**\n", encoding="utf-8"
    )
    with pytest.raises(UnknownCardsError) as info:
        load_deck(path)
    lines = {u.line: u for u in info.value.unresolved}
    assert set(lines) == {2, 3}
    assert "Federation Outpost" in lines[2].suggestions
    result = invoke(["validate", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- real Lackey decks


def _lackey(name: str) -> Path:
    path = LACKEY_DIR / name
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    return path


@pytest.mark.parametrize("name", LACKEY_FILES)
def test_lackey_file_loads_or_reports_every_unknown_line(name: str) -> None:
    path = _lackey(name)
    source = read_deck(path)
    assert source.format == "lackey"
    assert source.lines, "no card lines parsed"
    assert {line.section for line in source.lines} >= {None, "Missions"}
    unresolved_lines = [
        line for line in source.lines if resolve_line(line, CATALOG, GAME).card is None
    ]
    try:
        loaded = resolve_source(source, make_context(game="stccg-1e"))
    except UnknownCardsError as exc:
        assert unresolved_lines, "resolve_source failed although every line resolves"
        reported = {u.line for u in exc.unresolved}
        assert reported == {line.line for line in unresolved_lines}
        for u in exc.unresolved:
            assert u.suggestions or u.candidates, u.describe()
            assert u.source == source.label and u.line is not None
        return
    assert not unresolved_lines
    side = {"QsTent", "Aside", "Outside", "Ref", "Tribbles", "Tactics", "Sites", "Flash", "Dyson"}
    assert loaded.deck.size == sum(line.count for line in source.lines if line.section not in side)
    assert sum(loaded.deck.side_zones().values()) == sum(
        line.count for line in source.lines if line.section in side
    )
    missions = loaded.deck.count_where(lambda c: c.has_type("Mission"))
    # Lackey files may hold missions outside "Missions:" too (an "Aside:" section)
    assert missions >= sum(line.count for line in source.lines if line.section == "Missions")


def test_lackey_files_mostly_resolve() -> None:
    total = resolved = 0
    for name in LACKEY_FILES:
        for line in read_deck(_lackey(name)).lines:
            total += 1
            resolved += resolve_line(line, CATALOG, GAME).card is not None
    assert total > 300
    share = resolved / total
    assert share >= 0.95, f"only {resolved}/{total} Lackey lines resolve ({share:.1%})"


def test_lackey_mission_section_holds_missions() -> None:
    for name in LACKEY_FILES:
        source = read_deck(_lackey(name))
        for line in source.lines:
            card = resolve_line(line, CATALOG, GAME).card
            if card is not None and line.section == "Missions":
                assert card.has_type("Mission"), (name, line.text)


# --------------------------------------------------------------------------- Lackey export


def _round_trip(loaded: LoadedDeck) -> LoadedDeck:
    text = GAME.exporters["lackey"](loaded.deck, None)
    assert text.endswith("\r\n") and "\r\n" in text
    assert "Missions:\r\n" in text and "Seed+Dil:\r\n" in text
    source = parse_deck(text, "exported.txt")
    assert source.format == "lackey"
    return resolve_source(source, make_context(game="stccg-1e"))


def test_lackey_export_round_trip_built_deck(tmp_path: Path) -> None:
    cards = build(dilemmas=10, artifacts=2, extra={MAJOR_RAKAL: 2, INCIDENT: 1})
    loaded = load_deck(write(tmp_path, cards))
    back = _round_trip(loaded)
    assert back.deck.counts() == loaded.deck.counts() == Counter(cards)
    by_section: dict[str | None, set[str]] = {}
    for e in back.deck:
        by_section.setdefault(e.section, set()).add(e.card.id)
    assert by_section["Missions"] == set(MISSIONS[:6])
    assert FED_OUTPOST in by_section["Seed+Dil"]
    assert INCIDENT in by_section[None] and MAJOR_RAKAL in by_section[None]
    assert validate_loaded(back).violations == validate_loaded(loaded).violations


@pytest.mark.parametrize("name", LACKEY_FILES)
def test_lackey_export_round_trip_real_deck(name: str) -> None:
    source = read_deck(_lackey(name))
    keep = tuple(
        line for line in source.lines if resolve_line(line, CATALOG, GAME).card is not None
    )
    loaded = resolve_source(dataclasses.replace(source, lines=keep), make_context(game="stccg-1e"))
    back = _round_trip(loaded)
    assert back.deck.counts() == loaded.deck.counts()
    assert back.deck.size == loaded.deck.size
    assert back.deck.side_zones() == loaded.deck.side_zones()
    assert loaded.deck.size + sum(loaded.deck.side_zones().values()) == sum(
        line.count for line in keep
    )


def test_lackey_export_round_trip_names_starting_with_numbers(tmp_path: Path) -> None:
    cards = {
        "119_120": 2,
        "119_129": 1,
        "115_115": 3,
        "108_001": 1,
        "117_022": 4,
        MISSIONS[0]: 1,
        FED_OUTPOST: 1,
    }
    names = [CATALOG.by_id(c).name for c in cards]  # type: ignore[union-attr]
    assert "1 Tribble - Bonus" in names and "1,000 Tribbles - Bonus" in names
    loaded = load_deck(write(tmp_path, cards))
    back = _round_trip(loaded)
    assert back.deck.counts() == Counter(cards)


# --------------------------------------------------- seed cards: one Outpost per affiliation


def test_the_opening_sets_aside_exactly_the_seed_cards() -> None:
    spec = GAME.spec
    assert spec.opening is not None
    assert [r.model_dump() for r in spec.opening.set_aside] == [
        SetAsideModel.model_validate(r).model_dump() for r in spec.constants["seed_cards"]
    ]


def test_a_second_outpost_of_one_affiliation_is_not_a_seed_card(tmp_path: Path) -> None:
    # 6 missions + 2 Federation Outposts + 23 dilemmas: 31 cards, but only one Outpost seeds.
    cards = build(dilemmas=23, outposts=(FED_OUTPOST, FED_OUTPOST))
    assert cards[FED_OUTPOST] == 2
    report = check(tmp_path, cards)
    assert report.status == Status.LEGAL, report.violations
    one_more = build(dilemmas=24, outposts=(FED_OUTPOST, FED_OUTPOST))
    (message,) = found(check(tmp_path, one_more), "stccg.seed-half")
    assert "31 seed cards" in message and "1 outpost" in message


def test_one_outpost_per_affiliation_and_one_neutral(tmp_path: Path) -> None:
    outposts = (FED_OUTPOST, FED_OUTPOST, KLINGON_OUTPOST, NEUTRAL_OUTPOST, NEUTRAL_OUTPOST)
    loaded = load_deck(write(tmp_path, build(outposts=outposts)))
    seeded = {
        s.card.id: s.count for s in seed_cards(loaded.deck, loaded.catalog, GAME.spec.constants)
    }
    assert seeded[FED_OUTPOST] == 1 and seeded[KLINGON_OUTPOST] == 1
    assert seeded[NEUTRAL_OUTPOST] == 1


def test_the_draw_pile_keeps_the_second_outpost(tmp_path: Path) -> None:
    """The issue's example: two Federation Outposts draw from 39 cards, not 38."""
    from deckcheck.analysis.odds import OddsOptions, compute_odds
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    cards = build(dilemmas=14, outposts=(FED_OUTPOST, FED_OUTPOST))  # 6 + 1 + 14 = 21 seeds
    setup = draw_setup(open_deck(str(write(tmp_path, cards))))
    assert setup.deck_size == 60 and setup.pile_size == 39
    report = compute_odds(setup, [f"id:{FED_OUTPOST}>=1"], OddsOptions(turn=5))
    assert report.cards_seen == 11
    assert report.probability_exact == "11/39"  # one Outpost among 39 cards, 11 seen


def test_diff_counts_seed_cards_as_the_opening_does(tmp_path: Path) -> None:
    from deckcheck.commands.diff import diff_decks

    a = write(tmp_path, build(dilemmas=10), name="a.txt")
    b = write(tmp_path, build(dilemmas=10, outposts=(FED_OUTPOST, FED_OUTPOST)), name="b.txt")
    totals = {
        t.label: (t.before, t.after)
        for t in diff_decks(load_deck(str(a)), load_deck(str(b))).totals
    }
    assert totals["seed cards"] == (17, 17)


def test_lackey_export_puts_the_second_outpost_in_the_draw_deck(tmp_path: Path) -> None:
    path = write(tmp_path, build(outposts=(FED_OUTPOST, FED_OUTPOST)))
    result = invoke(["export", str(path), "--to", "lackey"])
    assert result.exit_code == 0, result.output
    text = result.stdout.replace("\r\n", "\n")
    draw, rest = text.split("Missions:\n")
    assert "1\tFederation Outpost" in draw  # the Lackey plugin's own spelling
    assert "1\tFederation Outpost" in rest.split("Seed+Dil:\n")[1]


# --------------------------------------------------------------- stccg.outpost-mission


def _missions(affiliation: str, location: str | None = None) -> list[str]:
    ids = [
        c.id
        for c in PREMIERE
        if c.types == ("Mission",)
        and list(c.get("affiliation") or ()) == [affiliation]
        and (location is None or c.get("mission_location") == location)
    ]
    assert ids
    return ids


def _with_missions(missions: Sequence[str], **kwargs: object) -> Counter[str]:
    cards = build(missions=0, **kwargs)  # type: ignore[arg-type]
    for m in missions:
        cards[m] += 1
        filler = next(c for c in reversed(cards) if c in FILLER and cards[c])
        cards[filler] -= 1
    return +cards


def test_outpost_mission_passes_with_an_icon_to_stand_on(tmp_path: Path) -> None:
    cards = _with_missions(_missions("Federation")[:6])
    report = check(tmp_path, cards)
    assert found(report, "stccg.outpost-mission") == []
    assert report.status == Status.LEGAL


def test_outpost_mission_warns_without_one(tmp_path: Path) -> None:
    cards = _with_missions(_missions("Federation")[:6], outposts=(FED_OUTPOST, KLINGON_OUTPOST))
    report = check(tmp_path, cards)
    [v] = [v for v in report.violations if v.code == "stccg.outpost-mission"]
    assert v.severity is Severity.WARNING and v.cards == (KLINGON_OUTPOST,)
    assert "Klingon Outpost" in v.message and "6 missions" in v.message and "Klingon" in v.message
    assert report.status == Status.LEGAL


def test_a_neutral_outpost_needs_a_space_mission(tmp_path: Path) -> None:
    planets = _missions("Federation", "planet")[:6]
    cards = _with_missions(planets, outposts=(FED_OUTPOST, NEUTRAL_OUTPOST))
    [v] = [v for v in check(tmp_path, cards).violations if v.code == "stccg.outpost-mission"]
    assert v.cards == (NEUTRAL_OUTPOST,) and "space mission" in v.message
    space = [*planets[:5], _missions("Federation", "space")[0]]
    cards = _with_missions(space, outposts=(FED_OUTPOST, NEUTRAL_OUTPOST))
    assert found(check(tmp_path, cards), "stccg.outpost-mission") == []


# ------------------------------------------------------------------ stccg.seed-limits


def test_seed_limits_pass_with_a_copy_per_mission(tmp_path: Path) -> None:
    cards = build(dilemmas=0, extra={DILEMMAS[0]: 6})
    report = check(tmp_path, cards)
    assert found(report, "stccg.seed-limits") == []


def test_seed_limits_warn_for_more_copies_than_missions(tmp_path: Path) -> None:
    cards = build(dilemmas=0, extra={DILEMMAS[0]: 7})
    report = check(tmp_path, cards)
    [v] = [v for v in report.violations if v.code == "stccg.seed-limits"]
    assert v.severity is Severity.WARNING and v.cards == (DILEMMAS[0],)
    assert "7 copies" in v.message and "6 missions" in v.message and "1 cannot" in v.message
    assert report.status == Status.LEGAL


def test_seed_limits_artifacts_count_planet_missions_only(tmp_path: Path) -> None:
    planets = _missions("Federation", "planet")[:4]
    space = _missions("Federation", "space")[:2]
    ok = _with_missions([*planets, *space], extra={ARTIFACTS[0]: 4, ARTIFACTS[1]: 3})
    # seven artifacts and four planet missions: different artifacts may share a mission
    assert found(check(tmp_path, ok), "stccg.seed-limits") == []
    too_many = _with_missions([*planets, *space], extra={ARTIFACTS[0]: 5})
    (message,) = found(check(tmp_path, too_many), "stccg.seed-limits")
    assert "5 copies of the artifact" in message and "4 planet missions (of 6)" in message


def test_missions_must_be_positive() -> None:
    result = invoke(
        [
            "validate",
            str(EXAMPLES / "stccg-1e/legal-federation.txt"),
            "--missions",
            "-3",
        ]
    )
    assert result.exit_code == 2
