"""Every Ren Dhark rule (RULES.md §1) passing and failing, on small deck texts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from deckcheck.core.violations import Report, Severity, Status, Violation
from deckcheck.decks.load import resolve_source
from deckcheck.decks.parse import parse_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import make_context

# The blue cards (RULES.md §1): 14 ship-only, I/11 ship-and-unit, 12 person/unit-only.
BLUE_SHIPS = [
    "I/13",
    "I/14",
    "I/15",
    "I/16",
    "I/17",
    "I/18",
    "I/19",
    "I/20",
    "I/21",
    "I/22",
    "I/24",
    "I/25",
    "I/26",
    "I/27",
]
BLUE_PERSONS = [
    "I/1",
    "I/2",
    "I/3",
    "I/4",
    "I/5",
    "I/6",
    "I/23",
    "I/7",
    "I/8",
    "I/9",
    "I/10",
    "I/12",
]
BLUE_ACTIONS = ["I/28", "I/29", "I/30", "I/31", "I/32", "I/33"]
BLUE_PLANET = "I/67"
SWARM = "I/11"
RED_SHIPS = [f"I/{n}" for n in range(46, 61)]
RED_PERSONS = [f"I/{n}" for n in range(34, 46)]
RED_ACTIONS = [f"I/{n}" for n in range(61, 67)]
RED_PLANET = "I/68"

COMBAT = BLUE_SHIPS + BLUE_PERSONS + [SWARM] + RED_SHIPS + RED_PERSONS


def points_overlay(tmp_path: Path, values: Mapping[str, int], name: str = "points.toml") -> Path:
    """A catalog overlay giving resource points to the listed cards."""
    body = "".join(
        f'[[cards]]\nid = "{cid}"\nresource_points = {v}\n\n' for cid, v in values.items()
    )
    path = tmp_path / name
    path.write_text('[catalog]\ngame = "ren-dhark"\nname = "test"\n\n' + body, encoding="utf-8")
    return path


def all_fours(**changes: int) -> dict[str, int]:
    """4 points for every combat card, with some changed (keys: ids with '_' for '/')."""
    values = dict.fromkeys(COMBAT, 4)
    values.update({k.replace("_", "/"): v for k, v in changes.items()})
    return values


def deck_text(counts: Mapping[str, int], variant: str = "custom") -> str:
    lines = [f"game: ren-dhark\nvariant: {variant}\nname: test\n"]
    lines += [f"{n} {cid}\n" for cid, n in counts.items() if n]
    return "".join(lines)


def blue_deck(**extra: int) -> dict[str, int]:
    """The legal base: planet, 14 ships + I/11 as a ship, 12 persons/units, 6 actions.

    27 combat cards: with 4 points each (all_fours) that is 108; set I/13 to 5..8 for 109..112.
    """
    counts = {BLUE_PLANET: 1, SWARM: 1}
    counts.update(dict.fromkeys(BLUE_SHIPS, 1))
    counts.update(dict.fromkeys(BLUE_PERSONS, 1))
    counts.update(dict.fromkeys(BLUE_ACTIONS, 1))
    for key, n in extra.items():
        cid = key.replace("_", "/")
        counts[cid] = counts.get(cid, 0) + n
    return counts


def check(
    counts: Mapping[str, int],
    overlays: Sequence[Path] = (),
    variant: str = "custom",
) -> Report:
    source = parse_deck(deck_text(counts, variant), "deck.txt")
    return validate_loaded(resolve_source(source, make_context(catalogs=overlays)))


def of(report: Report, code: str) -> list[Violation]:
    return [v for v in report.violations if v.code == code]


def codes(report: Report) -> set[str]:
    return {v.code for v in report.violations}


@pytest.fixture
def points(tmp_path: Path) -> Path:
    """Points making the blue base deck total 110."""
    return points_overlay(tmp_path, all_fours(I_13=6))


# --------------------------------------------------------------------------------------------
# the legal base


def test_base_deck_is_legal(points: Path) -> None:
    report = check(blue_deck(), [points])
    assert report.violations == ()
    assert report.status is Status.LEGAL
    assert report.exit_code == 0
    assert report.card_count == 34
    assert report.variant == "custom"
    assert set(report.rules_checked) == {
        "rd.copies",
        "rd.points",
        "rd.ships",
        "rd.persons",
        "rd.actions",
        "rd.planet",
        "rd.colour",
    }


# --------------------------------------------------------------------------------------------
# rd.copies


def test_copies_two_is_fine(points: Path) -> None:
    # 24 cards at 4, I/13 at 10, two I/25 and two I/2 at 1: 110
    overlay = points_overlay(points.parent, all_fours(I_13=10, I_25=1, I_2=1), "p2.toml")
    report = check(blue_deck(I_25=1, I_2=1), [overlay])
    assert of(report, "rd.copies") == []
    assert report.status is Status.LEGAL


def test_copies_three_is_an_error(points: Path) -> None:
    report = check(blue_deck(I_25=2), [points])
    [v] = of(report, "rd.copies")
    assert v.severity is Severity.ERROR
    assert v.cards == ("I/25",)
    assert "3" in v.message and "2" in v.message
    assert report.status is Status.ILLEGAL


def test_copies_add_up_across_lines(points: Path) -> None:
    text = deck_text(blue_deck()) + "2 POINT OF\n"
    report = validate_loaded(
        resolve_source(parse_deck(text, "d.txt"), make_context(catalogs=[points]))
    )
    [v] = of(report, "rd.copies")
    assert v.cards == ("I/25",)
    assert "3" in v.message


# --------------------------------------------------------------------------------------------
# rd.points


@pytest.mark.parametrize("total", [109, 110, 111, 112])
def test_points_in_range(tmp_path: Path, total: int) -> None:
    overlay = points_overlay(tmp_path, all_fours(I_13=4 + total - 108))
    report = check(blue_deck(), [overlay])
    assert of(report, "rd.points") == []


@pytest.mark.parametrize("total", [104, 108, 113, 130])
def test_points_out_of_range(tmp_path: Path, total: int) -> None:
    overlay = points_overlay(tmp_path, all_fours(I_13=4 + total - 108))
    report = check(blue_deck(), [overlay])
    [v] = of(report, "rd.points")
    assert v.severity is Severity.ERROR
    assert str(total) in v.message
    assert "109" in v.message and "112" in v.message
    assert report.status is Status.ILLEGAL


def test_points_count_copies(tmp_path: Path) -> None:
    # 108 + one more I/13 at 4 points = 112 (two copies of I/13 are allowed)
    overlay = points_overlay(tmp_path, all_fours())
    assert of(check(blue_deck(I_13=1), [overlay]), "rd.points") == []
    [v] = of(check(blue_deck(I_13=1, I_14=1), [overlay]), "rd.points")
    assert "116" in v.message


def test_points_of_actions_count_where_known(tmp_path: Path) -> None:
    values = all_fours(I_13=5)  # 109
    assert of(check(blue_deck(), [points_overlay(tmp_path, values)]), "rd.points") == []
    values["I/28"] = 4  # an action with a value: 113
    [v] = of(check(blue_deck(), [points_overlay(tmp_path, values)]), "rd.points")
    assert v.severity is Severity.ERROR
    assert "113" in v.message


def test_points_unknown_without_overlay() -> None:
    report = check(blue_deck())
    [v] = of(report, "rd.points")
    assert v.severity is Severity.UNKNOWN
    assert set(v.cards) == {*BLUE_SHIPS, *BLUE_PERSONS, SWARM}
    assert len(v.cards) == 27
    assert "27" in v.message
    assert report.status is Status.UNVERIFIED
    assert report.exit_code == 3


def test_points_unknown_lists_only_the_cards_lacking_a_value(tmp_path: Path) -> None:
    values = all_fours(I_13=6)
    del values["I/25"], values["I/7"]
    report = check(blue_deck(), [points_overlay(tmp_path, values)])
    [v] = of(report, "rd.points")
    assert v.severity is Severity.UNKNOWN
    assert sorted(v.cards) == ["I/25", "I/7"]  # not the actions or the planet
    assert "2 card" in v.message
    assert "102" in v.message  # the known part: 110 - 4 - 4
    assert report.status is Status.UNVERIFIED


def test_points_known_part_already_above_the_maximum(tmp_path: Path) -> None:
    values = all_fours(I_13=4 + 10)  # known part 118 without I/25
    del values["I/25"]
    report = check(blue_deck(), [points_overlay(tmp_path, values)])
    [v] = of(report, "rd.points")
    assert v.severity is Severity.ERROR
    assert "114" in v.message  # 118 - 4 for the missing I/25
    assert report.status is Status.ILLEGAL


def test_points_known_part_low_is_still_unknown(tmp_path: Path) -> None:
    values = dict.fromkeys(COMBAT, 1)
    del values["I/25"]
    report = check(blue_deck(), [points_overlay(tmp_path, values)])
    [v] = of(report, "rd.points")
    assert v.severity is Severity.UNKNOWN
    assert v.cards == ("I/25",)


# --------------------------------------------------------------------------------------------
# rd.ships / rd.persons, with I/11 as ship or as unit


def test_swarm_counts_as_ship(tmp_path: Path) -> None:
    # 14 ship-only + 12 person-only + I/11: I/11 must be the 15th ship.
    overlay = points_overlay(tmp_path, all_fours(I_13=6))
    report = check(blue_deck(), [overlay])
    assert of(report, "rd.ships") == [] and of(report, "rd.persons") == []
    without = blue_deck()
    del without[SWARM]
    [v] = of(check(without, [overlay]), "rd.ships")
    assert v.severity is Severity.ERROR
    assert "14" in v.message and "15" in v.message
    assert of(check(without, [overlay]), "rd.persons") == []


def test_swarm_counts_as_unit(tmp_path: Path) -> None:
    # 15 ship-only (one ship twice) + 11 person-only + I/11: I/11 must be the 12th unit.
    overlay = points_overlay(tmp_path, all_fours(I_13=5))  # 25 x 4 + 2 x 5 = 110
    counts = blue_deck(I_13=1)
    counts["I/12"] = 0
    report = check(counts, [overlay])
    assert of(report, "rd.ships") == [] and of(report, "rd.persons") == []
    assert report.status is Status.LEGAL, report.violations
    counts[SWARM] = 0
    [v] = of(check(counts, [overlay]), "rd.persons")
    assert v.severity is Severity.ERROR
    assert "11" in v.message and "12" in v.message
    assert of(check(counts, [overlay]), "rd.ships") == []


def test_two_swarms_split_between_ship_and_unit(tmp_path: Path) -> None:
    # 14 ship-only, 11 person-only, 2 x I/11: one ship, one unit.
    counts = blue_deck(I_11=1)
    counts["I/12"] = 0
    report = check(counts, [points_overlay(tmp_path, all_fours(I_13=6))])
    assert of(report, "rd.ships") == [] and of(report, "rd.persons") == []


def test_one_swarm_cannot_be_both(tmp_path: Path) -> None:
    # 14 ship-only, 11 person-only, 1 x I/11: either minimum alone is met, both together not.
    counts = blue_deck()
    counts["I/12"] = 0
    report = check(counts, [points_overlay(tmp_path, all_fours(I_13=8))])
    found = of(report, "rd.ships") + of(report, "rd.persons")
    assert found
    assert all(v.severity is Severity.ERROR for v in found)
    assert all(v.cards == (SWARM,) for v in found)
    assert any("14" in v.message and "11" in v.message for v in found)
    assert report.status is Status.ILLEGAL


def test_too_few_ships_and_persons(tmp_path: Path) -> None:
    counts = {
        BLUE_PLANET: 1,
        **dict.fromkeys(BLUE_SHIPS[:10], 1),
        **dict.fromkeys(BLUE_PERSONS[:8], 1),
    }
    report = check(counts, [points_overlay(tmp_path, all_fours())])
    [s] = of(report, "rd.ships")
    [p] = of(report, "rd.persons")
    assert "10" in s.message and "15" in s.message
    assert "8" in p.message and "12" in p.message
    assert s.severity is p.severity is Severity.ERROR


# --------------------------------------------------------------------------------------------
# rd.actions


def test_six_actions_fine_seven_not(points: Path) -> None:
    assert of(check(blue_deck(), [points]), "rd.actions") == []
    report = check(blue_deck(I_29=1), [points])
    [v] = of(report, "rd.actions")
    assert v.severity is Severity.ERROR
    assert "7" in v.message and "6" in v.message
    assert set(v.cards) == set(BLUE_ACTIONS)


def test_no_actions_is_fine(points: Path) -> None:
    counts = {k: v for k, v in blue_deck().items() if k not in BLUE_ACTIONS}
    assert of(check(counts, [points]), "rd.actions") == []


# --------------------------------------------------------------------------------------------
# rd.planet


def test_no_planet(points: Path) -> None:
    counts = blue_deck()
    counts[BLUE_PLANET] = 0
    [v] = of(check(counts, [points]), "rd.planet")
    assert v.severity is Severity.ERROR
    assert "0" in v.message and "1" in v.message


def test_two_planets(points: Path) -> None:
    report = check(blue_deck(I_67=1), [points])
    [v] = of(report, "rd.planet")
    assert v.severity is Severity.ERROR
    assert "2" in v.message
    assert v.cards == (BLUE_PLANET,)
    assert of(report, "rd.copies") == []


# --------------------------------------------------------------------------------------------
# rd.colour


def test_one_red_card_in_a_blue_deck(points: Path) -> None:
    overlay = points_overlay(points.parent, all_fours(I_13=2), "p2.toml")
    report = check(blue_deck(I_46=1), [overlay])  # +1 red ship at 4 points: 110
    [v] = of(report, "rd.colour")
    assert v.severity is Severity.WARNING  # the rulebook does not require one colour
    assert v.cards == ("I/46",)
    assert "blue" in v.message and "red" in v.message
    assert codes(report) == {"rd.colour"}
    assert report.status is Status.LEGAL


def test_red_deck_passes_colour(tmp_path: Path) -> None:
    counts = {
        RED_PLANET: 1,
        **dict.fromkeys(RED_SHIPS, 1),
        **dict.fromkeys(RED_PERSONS, 1),
        **dict.fromkeys(RED_ACTIONS, 1),
    }
    report = check(counts, [points_overlay(tmp_path, all_fours(I_46=6))])
    assert report.violations == ()
    assert report.status is Status.LEGAL


def test_colour_unknown_is_left_out(tmp_path: Path) -> None:
    overlay = tmp_path / "mine.toml"
    overlay.write_text(
        '[catalog]\ngame = "ren-dhark"\n\n[[cards]]\nname = "Homebrew Ship"\ntype = "ship"\n'
        "resource_points = 2\n",
        encoding="utf-8",
    )
    counts = blue_deck()
    text = deck_text(counts) + "Homebrew Ship\n"
    loaded = resolve_source(
        parse_deck(text, "d.txt"),
        make_context(catalogs=[points_overlay(tmp_path, all_fours(I_13=4)), overlay]),
    )
    report = validate_loaded(loaded)
    # A warning rule never leaves a deck unverified: a card of unknown colour is left out.
    assert of(report, "rd.colour") == []
    assert report.status is Status.LEGAL, report.violations


# --------------------------------------------------------------------------------------------
# rd.starter


def blue_starter() -> dict[str, int]:
    return {BLUE_PLANET: 1, SWARM: 1, **dict.fromkeys(BLUE_SHIPS + BLUE_PERSONS + BLUE_ACTIONS, 1)}


def test_starters_pass() -> None:
    assert check(blue_starter(), variant="starter").violations == ()
    red = {RED_PLANET: 1, **dict.fromkeys(RED_SHIPS + RED_PERSONS + RED_ACTIONS, 1)}
    report = check(red, variant="starter")
    assert report.violations == ()
    assert report.rules_checked == ("rd.starter",)
    assert report.card_count == 34


def test_starter_missing_card() -> None:
    counts = blue_starter()
    counts["I/25"] = 0
    [v] = of(check(counts, variant="starter"), "rd.starter")
    assert v.severity is Severity.ERROR
    assert v.cards == ("I/25",)
    assert "1" in v.message


def test_starter_extra_and_doubled_cards() -> None:
    counts = blue_starter()
    counts["I/46"] = 1
    counts["I/13"] = 2
    report = check(counts, variant="starter")
    found = of(report, "rd.starter")
    assert all(v.severity is Severity.ERROR for v in found)
    cards = {c for v in found for c in v.cards}
    assert {"I/46", "I/13"} <= cards
    assert report.status is Status.ILLEGAL


def test_custom_rules_do_not_run_for_starter() -> None:
    report = check(blue_starter(), variant="starter")
    assert "rd.points" not in codes(report)  # no points needed for the starter variant
    assert report.status is Status.LEGAL
