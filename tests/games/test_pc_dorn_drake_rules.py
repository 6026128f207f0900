"""Planetary Conquerors, Dorn and The Drake rules (RULES.md §3–5), passing and failing, and their
revisions: the second player's sixth card, Dorn's four-heroes variant (15.f) and the Drake's
minimum stack as our decision (expected odds from the bundled catalogs and ``math.comb``).

Planetary Conquerors decks use the illustrative example set
(examples/planetary-conquerors/example-set.toml) laid over the bundled catalog, as a user would.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.analysis.odds import OddsOptions, compute_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.commands.cards import find_cards
from deckcheck.core.errors import UnknownCardsError, UsageError
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import load_deck, open_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import make_context
from deckcheck.games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SET = ROOT / "examples" / "planetary-conquerors" / "example-set.toml"


def write(
    tmp_path: Path,
    game: str,
    lines: Sequence[str],
    *,
    variant: str | None = None,
    name: str = "deck.txt",
) -> Path:
    head = [f"game: {game}", *([f"variant: {variant}"] if variant else []), ""]
    path = tmp_path / name
    path.write_text("\n".join([*head, *lines]) + "\n", encoding="utf-8")
    return path


def validate(path: Path, catalogs: Sequence[Path] = (), variant: str | None = None) -> Report:
    return validate_loaded(load_deck(path, make_context(catalogs=catalogs, variant=variant)))


def codes(report: Report, severity: Severity | None = None) -> list[str]:
    return [v.code for v in report.violations if severity is None or v.severity == severity]


def messages(report: Report, code: str) -> list[str]:
    return [v.message for v in report.violations if v.code == code]


# =========================================================================== Planetary Conquerors


def pc_lines(
    size: int = 50, extra: Mapping[str, int] | None = None, miners: bool = True
) -> list[str]:
    """A deck of ``size`` cards: both starting miners, ``extra``, then 1-star filler."""
    cards: dict[str, int] = {}
    if miners:
        cards.update({"Gold Miner": 1, "Collector of Cosmium": 1})
    cards.update(extra or {})
    filler = ["Trooper", "Raider", "Mud Hut", "Pitfall", "Quick Repair", "Deep Drill"]
    total = sum(cards.values())
    assert total <= size
    i = 0
    while total < size:
        name = filler[i % len(filler)]
        cards[name] = cards.get(name, 0) + 1
        total += 1
        i += 1
    return [f"{n} {name}" for name, n in cards.items()]


def pc(tmp_path: Path, lines: Sequence[str], name: str = "deck.txt") -> Report:
    return validate(write(tmp_path, "planetary-conquerors", lines, name=name), [EXAMPLE_SET])


@pytest.mark.parametrize(
    ("size", "legal"), [(49, False), (50, True), (65, True), (80, True), (81, False), (30, False)]
)
def test_pc_size(tmp_path: Path, size: int, legal: bool) -> None:
    report = pc(tmp_path, pc_lines(size))
    assert report.card_count == size
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert codes(report) == ["pc.size"]
        (message,) = messages(report, "pc.size")
        assert f"{size} cards" in message and "50" in message and "80" in message


@pytest.mark.parametrize(
    ("extra", "legal"),
    [
        ({"Lancer": 3}, True),  # 2 stars, 3 copies
        ({"Lancer": 4}, False),  # 2 stars, 4 copies
        ({"Iron Warlord": 1}, True),  # 3 stars, 1 copy
        ({"Iron Warlord": 2}, False),  # 3 stars, 2 copies
        ({"Trooper": 30}, True),  # 1 star: any number
        ({"Lancer": 3, "Shield Bearer": 3, "Sky Citadel": 1, "Meteor Strike": 1}, True),
    ],
)
def test_pc_rarity(tmp_path: Path, extra: dict[str, int], legal: bool) -> None:
    report = pc(tmp_path, pc_lines(50, extra))
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert codes(report) == ["pc.rarity"]
        (violation,) = report.violations
        name, n = next(iter(extra.items()))
        assert violation.message.startswith(f"{name}: {n} copies")
        assert "at most" in violation.message


def test_pc_rarity_counts_copies_over_several_lines(tmp_path: Path) -> None:
    lines = [*pc_lines(48, {"Lancer": 2}), "2 Lancer"]
    report = pc(tmp_path, lines)
    assert codes(report) == ["pc.rarity"]
    assert "Lancer: 4 copies" in messages(report, "pc.rarity")[0]


def test_pc_rarity_reports_each_card_over_its_cap(tmp_path: Path) -> None:
    report = pc(tmp_path, pc_lines(60, {"Lancer": 4, "Iron Warlord": 2, "Sky Citadel": 3}))
    found = messages(report, "pc.rarity")
    assert len(found) == 3
    assert any("Sky Citadel: 3 copies of a 3-star card, at most 1" in m for m in found)


def test_pc_unknown_rarity_is_undecided(tmp_path: Path) -> None:
    report = pc(tmp_path, pc_lines(50, {"Topdecker": 2}))
    assert [(v.code, v.severity) for v in report.violations] == [("pc.rarity", Severity.UNKNOWN)]
    assert "Topdecker" in report.violations[0].message
    assert report.violations[0].cards == ("pc/topdecker",)
    assert report.status == Status.UNVERIFIED
    assert report.exit_code == 3


def test_pc_unknown_rarity_and_an_error_is_illegal(tmp_path: Path) -> None:
    report = pc(tmp_path, pc_lines(50, {"Topdecker": 2, "Iron Warlord": 2}))
    assert sorted((v.code, str(v.severity)) for v in report.violations) == [
        ("pc.rarity", "error"),
        ("pc.rarity", "unknown"),
    ]
    assert report.status == Status.ILLEGAL


def test_pc_miners_without_overlay_rarity_is_unverified(tmp_path: Path) -> None:
    # Without the example set the bundled miners have no rarity: the rule cannot be decided.
    path = write(tmp_path, "planetary-conquerors", ["25 Gold Miner", "25 Collector of Cosmium"])
    report = validate(path)
    assert report.status == Status.UNVERIFIED
    assert codes(report, Severity.UNKNOWN) == ["pc.rarity"]


@pytest.mark.parametrize(
    ("drop", "missing"),
    [("Collector of Cosmium", "Collector of Cosmium"), ("Gold Miner", "Gold Miner")],
)
def test_pc_miners_missing_one(tmp_path: Path, drop: str, missing: str) -> None:
    lines = [line for line in pc_lines(50) if not line.endswith(drop)]
    lines.append("1 Trooper")
    report = pc(tmp_path, lines)
    assert report.card_count == 50
    assert codes(report) == ["pc.miners"]
    (violation,) = report.violations
    assert missing in violation.message


def test_pc_miners_missing_both(tmp_path: Path) -> None:
    report = pc(tmp_path, pc_lines(50, miners=False))
    assert codes(report) == ["pc.miners", "pc.miners"]
    assert {v.cards for v in report.violations} == {
        ("pc/gold-miner",),
        ("pc/collector-of-cosmium",),
    }


def test_pc_other_miners_do_not_count(tmp_path: Path) -> None:
    report = pc(tmp_path, pc_lines(50, {"Deep Drill": 3, "Cosmium Siphon": 3}, miners=False))
    assert codes(report) == ["pc.miners", "pc.miners"]


def test_pc_cli_exit_codes(tmp_path: Path) -> None:
    legal = write(tmp_path, "planetary-conquerors", pc_lines(50), name="legal.txt")
    illegal = write(tmp_path, "planetary-conquerors", pc_lines(81), name="illegal.txt")
    unknown = write(
        tmp_path, "planetary-conquerors", pc_lines(50, {"Topdecker": 2}), name="unknown.txt"
    )
    cat = ["--catalog", str(EXAMPLE_SET)]
    for path, code, status in [
        (legal, 0, "legal"),
        (illegal, 1, "illegal"),
        (unknown, 3, "unverified"),
    ]:
        result = invoke(["validate", str(path), *cat, "--json"])
        assert result.exit_code == code, result.output
        assert json.loads(result.stdout)["status"] == status
    both = invoke(["validate", str(unknown), str(legal), *cat, "--json"])
    assert both.exit_code == 3
    worst = invoke(["validate", str(unknown), str(illegal), str(legal), *cat, "--json"])
    assert worst.exit_code == 1
    assert [d["status"] for d in json.loads(worst.stdout)] == ["unverified", "illegal", "legal"]


def test_pc_catalog_header_relative_to_the_deck(tmp_path: Path) -> None:
    (tmp_path / "set.toml").write_text(EXAMPLE_SET.read_text(encoding="utf-8"), encoding="utf-8")
    path = write(tmp_path, "planetary-conquerors", ["catalog: set.toml", *pc_lines(50)])
    # "catalog:" after the blank line is still a header (no card line before it)
    report = validate(path)
    assert report.status == Status.LEGAL, report.violations


# =========================================================================== Dorn

HEROES = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor", "Gor", "Guelin", "Riel", "Vargen"]


@pytest.mark.parametrize(
    ("variant", "n", "legal"),
    [
        (None, 5, True),
        ("standard", 5, True),
        ("standard", 4, False),
        ("standard", 6, False),
        ("four-heroes", 4, True),
        ("four-heroes", 5, False),
        ("four-heroes", 3, False),
    ],
)
def test_dorn_party_size(tmp_path: Path, variant: str | None, n: int, legal: bool) -> None:
    report = validate(write(tmp_path, "dorn", HEROES[:n], variant=variant))
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert codes(report) == ["dorn.party-size"]
        want = 4 if variant == "four-heroes" else 5
        assert messages(report, "dorn.party-size") == [
            f"{n} party members, exactly {want} required"
        ]


@pytest.mark.parametrize(
    "lines",
    [
        ["Ragnar", "Ragnar", "Choros", "Almanor", "Gor"],
        ["2 Ragnar", "Choros", "Almanor", "Gor"],
        ["hero/ragnar", "RAGNAR", "Choros", "Almanor", "Gor"],
    ],
)
def test_dorn_party_unique(tmp_path: Path, lines: list[str]) -> None:
    report = validate(write(tmp_path, "dorn", lines))
    assert codes(report) == ["dorn.party-unique"]
    (violation,) = report.violations
    assert violation.cards == ("hero/ragnar",)
    assert "Ragnar" in violation.message and "2 times" in violation.message


def test_dorn_all_nine_heroes_are_heroes(tmp_path: Path) -> None:
    report = validate(write(tmp_path, "dorn", HEROES))
    assert codes(report) == ["dorn.party-size"]  # 9 heroes: too many, but every one a hero


@pytest.mark.parametrize(
    ("intruder", "card_id", "kind"),
    [
        ("Giant Rat", "monster/giant-rat", "monster"),
        ("Vampire", "monster/vampire", "monster"),
        ("Bloodlust", "ritual/bloodlust", "ritual"),
    ],
)
def test_dorn_hero(tmp_path: Path, intruder: str, card_id: str, kind: str) -> None:
    report = validate(write(tmp_path, "dorn", [*HEROES[:4], intruder]))
    assert codes(report) == ["dorn.hero"]
    (violation,) = report.violations
    assert violation.cards == (card_id,)
    assert f"{intruder} ({kind})" in violation.message


def test_dorn_hero_cli(tmp_path: Path) -> None:
    path = write(tmp_path, "dorn", [*HEROES[:4], "Giant Rat"])
    result = invoke(["validate", str(path), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["status"] == "illegal" and data["game"] == "dorn"
    assert [v["code"] for v in data["violations"]] == ["dorn.hero"]


def test_dorn_unknown_hero(tmp_path: Path) -> None:
    with pytest.raises(UnknownCardsError):
        load_deck(write(tmp_path, "dorn", [*HEROES[:4], "Gandalf"]))


def test_dorn_game_detected_without_header(tmp_path: Path) -> None:
    path = tmp_path / "party.txt"
    path.write_text("\n".join(HEROES[:5]) + "\n", encoding="utf-8")
    loaded = load_deck(path)
    assert loaded.game.id == "dorn"
    assert validate_loaded(loaded).status == Status.LEGAL


# =========================================================================== The Drake

STANDARD = ["Drake", "Clubman", "Clubman", "Monk", "Spearman", "Swordsman", "Archer"]


@pytest.mark.parametrize(
    "lines",
    [
        STANDARD,
        ["Drake", "2 Clubman", *STANDARD[3:]],
        ["troop/drake", "2x clubman", "MONK", *STANDARD[4:]],
    ],
)
def test_drake_standard_stack(tmp_path: Path, lines: list[str]) -> None:
    report = validate(write(tmp_path, "the-drake", lines))
    assert report.variant == "basic"
    assert report.status == Status.LEGAL, report.violations


@pytest.mark.parametrize(
    ("lines", "detail"),
    [
        (["Clubman", "Drake", *STANDARD[2:]], "position 1 is Clubman"),
        ([*STANDARD[:5], "Archer", "Swordsman"], "position 6 is Archer"),
        (["Drake", "Monk", "Clubman", "Clubman", *STANDARD[4:]], "position 2 is Monk"),
        (STANDARD[:6], "6 troops"),
        ([*STANDARD, "Monk"], "8 troops"),
    ],
)
def test_drake_stack_wrong_order_or_size(tmp_path: Path, lines: list[str], detail: str) -> None:
    report = validate(write(tmp_path, "the-drake", lines))
    assert codes(report) == ["drake.stack"]
    (message,) = messages(report, "drake.stack")
    assert detail in message


def test_drake_basic_same_multiset_wrong_order_is_illegal(tmp_path: Path) -> None:
    shuffled = list(reversed(STANDARD))
    assert sorted(shuffled) == sorted(STANDARD)
    report = validate(write(tmp_path, "the-drake", shuffled))
    assert report.status == Status.ILLEGAL


@pytest.mark.parametrize(
    ("lines", "legal"),
    [
        (["Swordsman", "Spearman", "Clubman"], True),
        (["Monk", "Monk", "Monk"], True),
        (["Archer", *STANDARD], True),
        (["Swordsman", "Spearman"], False),
        (["Drake"], False),
    ],
)
def test_drake_custom_stack_size(tmp_path: Path, lines: list[str], legal: bool) -> None:
    report = validate(write(tmp_path, "the-drake", lines, variant="custom"))
    assert "drake.stack" not in report.rules_checked
    if legal:
        assert report.status == Status.LEGAL, report.violations
    else:
        assert codes(report) == ["drake.stack-size"]
        troops = "1 troop" if len(lines) == 1 else f"{len(lines)} troops"
        assert f"{troops}, at least 3" in messages(report, "drake.stack-size")[0]


def test_drake_variant_from_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, "the-drake", ["Swordsman", "Spearman", "Clubman"])
    assert validate(path).status == Status.ILLEGAL
    assert validate(path, variant="custom").status == Status.LEGAL
    result = invoke(["validate", str(path), "--variant", "custom", "--json"])
    assert result.exit_code == 0, result.output


def test_unknown_variant_is_a_usage_error(tmp_path: Path) -> None:
    path = write(tmp_path, "the-drake", STANDARD)
    with pytest.raises(UsageError, match="no variant"):
        load_deck(path, make_context(variant="chaos"))
    result = invoke(["validate", str(path), "--variant", "chaos"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_one_copy_of_an_unknown_rarity_cannot_break_the_copy_rule(tmp_path: Path) -> None:
    lines = [
        "game: planetary-conquerors",
        "1 Topdecker",
        "25 Gold Miner",
        "24 Collector of Cosmium",
    ]
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(lines) + "\n")
    one = invoke(["validate", str(deck), "--catalog", str(EXAMPLE_SET), "--json"])
    assert json.loads(one.stdout)["status"] == "legal", one.output
    deck.write_text(
        "\n".join([lines[0], "2 Topdecker", *lines[2:3], "23 Collector of Cosmium"]) + "\n"
    )
    two = invoke(["validate", str(deck), "--catalog", str(EXAMPLE_SET), "--json"])
    assert json.loads(two.stdout)["status"] == "unverified"


@pytest.mark.parametrize(("variant", "seen"), [(None, 5), ("standard", 5), ("four-heroes", 4)])
def test_blessings_seen_follow_the_party(variant: str | None, seen: int) -> None:
    setup = draw_setup(open_deck("dorn:blessings", make_context(variant=variant)))
    blessings = [c for c in get_game("dorn").bundled_catalog() if c.has_type("blessing")]
    assert setup.pile_size == len(blessings) == 12
    first = blessings[0].id
    report = compute_odds(setup, [f"id:{first}>=1"], OddsOptions())
    assert report.cards_seen == seen
    # one given blessing among `seen` of 12 drawn without replacement
    no = Fraction(math.comb(11, seen), math.comb(12, seen))
    assert report.probability_exact == str(1 - no)
    assert any(f"{seen}-hero party" in a for a in report.assumptions)


def test_heroes_pile_follows_the_party_too() -> None:
    assert (
        draw_setup(open_deck("dorn:heroes", make_context(variant="four-heroes"))).opening.hand_size
        == 4
    )
    assert draw_setup(open_deck("dorn:heroes")).opening.hand_size == 5


def test_cards_under_four_heroes_cost_one_more_blood() -> None:
    bundled = {c.id: c.get("blood_cost") for c in get_game("dorn").bundled_catalog()}
    plain = find_cards("dorn", "type:ritual")
    changed = find_cards("dorn", "type:ritual", make_context(variant="four-heroes"))
    assert len(changed.cards) == 12
    for card in changed.cards:
        assert card.get("blood_cost") == bundled[card.id] + 1
    for card in plain.cards:
        assert card.get("blood_cost") == bundled[card.id]
    notes = " ".join(changed.variant_notes)
    for words in ("1 more life", "3 weak monsters", "4 are drawn", "level-up"):
        assert words in notes
    assert plain.variant_notes == ()


def test_cards_variant_cli() -> None:
    result = invoke(["cards", "dorn", "Black Fountain", "--variant", "four-heroes", "--json"])
    assert result.exit_code == 0, result.output
    [card] = json.loads(result.stdout)
    bundled = get_game("dorn").bundled_catalog().by_id(card["id"])
    assert bundled is not None and card["blood_cost"] == bundled.get("blood_cost") + 1
    bad = invoke(["cards", "dorn", "--variant", "five-heroes"])
    assert bad.exit_code == 2 and "four-heroes" in bad.output


def test_odds_variant_cli_on_a_pile() -> None:
    result = invoke(
        ["odds", "dorn:blessings", "type:blessing>=1", "--variant", "four-heroes", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cards_seen"] == 4


@pytest.mark.parametrize(
    ("deck", "status"),
    [("four-heroes.txt", Status.LEGAL), ("first-game-party.txt", Status.LEGAL)],
)
def test_four_heroes_party_still_validates(deck: str, status: Status) -> None:
    report = validate_loaded(load_deck(ROOT / "examples" / "dorn" / deck))
    assert report.status is status


def test_the_drake_minimum_stack_is_stated_as_our_decision() -> None:
    custom = get_game("the-drake").variant("custom")
    assert custom.param("min_stack") == 3
    assert "our decision" in custom.description
    short = validate_loaded(load_deck(ROOT / "examples" / "the-drake" / "illegal-custom-short.txt"))
    assert short.status is Status.ILLEGAL
    assert [v.code for v in short.violations] == ["drake.stack-size"]
    ok = validate_loaded(load_deck(ROOT / "examples" / "the-drake" / "custom-stack.txt"))
    assert ok.status is Status.LEGAL


def test_second_player_sixth_card_says_two_players() -> None:
    deck = str(ROOT / "examples" / "planetary-conquerors" / "legal-50.txt")
    report = compute_odds(draw_setup(open_deck(deck)), ["type:miner>=1"], OddsOptions(second=True))
    assert report.cards_seen == 6
    assert any("two-player game" in a for a in report.assumptions)
    first = compute_odds(draw_setup(open_deck(deck)), ["type:miner>=1"], OddsOptions())
    assert not any("two-player" in a for a in first.assumptions)
    result = invoke(["odds", "--help"])
    assert "two-player" in result.output
