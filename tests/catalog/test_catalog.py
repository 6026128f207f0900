"""Catalog overlays (check_overlay / apply_overlay), `catalog check` and `catalog template`."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from conftest import EXAMPLES

from deckcheck.catalog.load import apply_overlay, check_overlay, parse_document
from deckcheck.catalog.model import Catalog
from deckcheck.commands.catalog_check import check_catalog_file
from deckcheck.commands.catalog_template import render_template
from deckcheck.core.errors import CatalogError, UsageError
from deckcheck.games.registry import all_games, get_game

RD_HEAD = '[catalog]\ngame = "ren-dhark"\nname = "mine"\n'
PC_HEAD = '[catalog]\ngame = "planetary-conquerors"\nname = "mine"\n'


def rd() -> Catalog:
    return get_game("ren-dhark").bundled_catalog()


def pc() -> Catalog:
    return get_game("planetary-conquerors").bundled_catalog()


def problems(base: Catalog, text: str) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for p in check_overlay(base, parse_document(text, "o.toml"))]


# --------------------------------------------------------------------------------------------
# applying overlays


def test_set_a_field_on_an_existing_card() -> None:
    text = RD_HEAD + '[[cards]]\nid = "I/25"\nresource_points = 5\n'
    assert problems(rd(), text) == []
    catalog = apply_overlay(rd(), parse_document(text, "o.toml"))
    card = catalog.by_id("I/25")
    assert card is not None
    assert card.get("resource_points") == 5
    assert card.name == "POINT OF"  # other fields kept
    assert card.get("colour") == "blue"
    assert len(catalog) == len(rd())
    assert rd().by_id("I/25").get("resource_points") is None  # type: ignore[union-attr]
    assert "o.toml" in catalog.sources


def test_change_an_existing_card_by_name() -> None:
    text = RD_HEAD + '[[cards]]\nname = "point of"\nresource_points = 7\n'
    assert problems(rd(), text) == []
    catalog = apply_overlay(rd(), parse_document(text, "o.toml"))
    assert catalog.by_id("I/25").get("resource_points") == 7  # type: ignore[union-attr]
    assert len(catalog) == len(rd())


def test_replace_a_field() -> None:
    text = RD_HEAD + '[[cards]]\nid = "I/25"\nfaction = "Other"\n'
    catalog = apply_overlay(rd(), parse_document(text, "o.toml"))
    assert catalog.by_id("I/25").get("faction") == "Other"  # type: ignore[union-attr]


def test_add_a_new_card() -> None:
    text = RD_HEAD + '[[cards]]\nname = "My Ship"\ntype = "ship"\ncolour = "blue"\n'
    assert problems(rd(), text) == []
    catalog = apply_overlay(rd(), parse_document(text, "o.toml"))
    assert len(catalog) == len(rd()) + 1
    [card] = catalog.by_name("my ship")
    assert card.has_type("ship")
    assert card.get("colour") == "blue"


def test_new_card_needs_a_type() -> None:
    found = problems(rd(), RD_HEAD + '[[cards]]\nname = "My Ship"\ncolour = "blue"\n')
    assert found == [(4, "card 'My Ship': a new card needs a type")]


def test_new_card_needs_a_name() -> None:
    found = problems(rd(), RD_HEAD + '[[cards]]\nid = "X/1"\ntype = "ship"\n')
    assert len(found) == 1
    assert found[0][0] == 5
    assert "needs a name" in found[0][1]


def test_entry_with_neither_id_nor_name() -> None:
    found = problems(rd(), RD_HEAD + "[[cards]]\nresource_points = 3\n")
    assert len(found) == 1
    assert found[0][0] == 4


def test_unknown_field_with_suggestion() -> None:
    found = problems(rd(), RD_HEAD + '[[cards]]\nid = "I/25"\nresource_point = 5\n')
    assert len(found) == 1
    line, message = found[0]
    assert line == 6
    assert "unknown field 'resource_point'" in message
    assert "did you mean 'resource_points'" in message


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("resource_points", "-1", "at least 0"),
        ("resource_points", "101", "at most 100"),
        ("resource_points", '"five"', "whole number"),
        ("resource_points", "true", "whole number"),
        ("resource_points", "2.5", "whole number"),
        ("colour", '"green"', "not one of"),
        ("colour", "3", "must be a text"),
        ("type", '"starship"', "not one of"),
        ("type", "[1]", "list of texts"),
    ],
)
def test_wrong_value(field: str, value: str, fragment: str) -> None:
    found = problems(rd(), RD_HEAD + f'[[cards]]\nid = "I/25"\n{field} = {value}\n')
    assert len(found) == 1
    assert found[0][0] == 6
    assert fragment in found[0][1]
    assert field in found[0][1]


def test_negative_number_in_planetary_conquerors() -> None:
    found = problems(pc(), PC_HEAD + '[[cards]]\nid = "pc/gold-miner"\ncost_gold = -2\n')
    assert len(found) == 1
    assert "at least 0" in found[0][1]
    assert "-2" in found[0][1]


@pytest.mark.parametrize("second", ['id = "I/25"', 'id = "i/25"', 'name = "POINT OF"'])
def test_duplicate_entries(second: str) -> None:
    text = (
        RD_HEAD + '[[cards]]\nid = "I/25"\nresource_points = 5\n\n'
        f"[[cards]]\n{second}\nresource_points = 6\n"
    )
    found = problems(rd(), text)
    assert len(found) == 1
    assert found[0][0] == 8
    assert "duplicate" in found[0][1]
    assert "line 4" in found[0][1]


def test_duplicate_new_cards() -> None:
    text = (
        RD_HEAD + '[[cards]]\nname = "New A"\ntype = "ship"\n\n'
        '[[cards]]\nname = "new  a"\ntype = "ship"\n'
    )
    found = problems(rd(), text)
    assert found
    assert all("duplicate" in message for _, message in found)
    assert {line for line, _ in found} <= {8, 9}


def test_new_card_may_not_take_an_existing_name() -> None:
    found = problems(rd(), RD_HEAD + '[[cards]]\nid = "NEW/1"\nname = "POINT OF"\ntype = "ship"\n')
    assert len(found) == 1
    assert "I/25" in found[0][1]


def test_change_by_ambiguous_name() -> None:
    found = problems(rd(), RD_HEAD + '[[cards]]\nname = "Vojáci"\nresource_points = 2\n')
    assert len(found) == 1
    for card_id in ("I/12", "I/43", "I/44"):
        assert card_id in found[0][1]


@pytest.mark.parametrize("field", ["cost_gold", "cost_cosmium", "cost_electricity"])
def test_cost_on_a_trap(field: str) -> None:
    text = PC_HEAD + f'[[cards]]\nname = "Pit"\ntype = "trap"\nrarity = 1\n{field} = 1\n'
    found = problems(pc(), text)
    assert found == [(8, f"card 'Pit': a trap card has no {field}")]


def test_cost_on_an_existing_card_turned_trap() -> None:
    text = PC_HEAD + '[[cards]]\nid = "pc/topdecker"\ntype = "trap"\ncost_gold = 2\n'
    found = problems(pc(), text)
    assert len(found) == 1
    assert "trap" in found[0][1]
    assert "cost_gold" in found[0][1]


def test_cost_on_a_miner_is_fine() -> None:
    text = PC_HEAD + '[[cards]]\nname = "Drill"\ntype = "miner"\nrarity = 1\ncost_gold = 1\n'
    assert problems(pc(), text) == []


def test_overlay_for_another_game() -> None:
    found = problems(rd(), PC_HEAD + '[[cards]]\nid = "pc/gold-miner"\nrarity = 1\n')
    assert (1, "is a catalog for 'planetary-conquerors', not for 'ren-dhark'") in found


def test_overlay_for_another_game_raises_on_apply() -> None:
    with pytest.raises(CatalogError) as info:
        apply_overlay(rd(), parse_document(PC_HEAD, "o.toml"))
    assert "planetary-conquerors" in str(info.value)


def test_missing_catalog_table() -> None:
    found = problems(rd(), '[[cards]]\nid = "I/25"\nresource_points = 1\n')
    assert found and "[catalog]" in found[0][1]


def test_broken_toml_names_the_line() -> None:
    with pytest.raises(CatalogError) as info:
        parse_document(RD_HEAD + '[[cards]]\nid = "I/25"\nresource_points = \n', "o.toml")
    assert info.value.line == 6
    assert str(info.value).startswith("o.toml:6:")


def test_apply_reports_every_problem_at_once() -> None:
    text = (
        RD_HEAD + '[[cards]]\nid = "I/25"\nresource_point = 5\n\n'
        '[[cards]]\nid = "I/26"\nresource_points = -3\n\n'
        '[[cards]]\nname = "New"\n'
    )
    with pytest.raises(CatalogError) as info:
        apply_overlay(rd(), parse_document(text, "o.toml"))
    assert "3 problems" in info.value.message
    assert len(info.value.details) == 3
    assert any(d.startswith("o.toml:6:") for d in info.value.details)
    assert any(d.startswith("o.toml:10:") for d in info.value.details)
    assert any(d.startswith("o.toml:12:") for d in info.value.details)


def test_new_cards_with_the_same_made_up_id_are_reported() -> None:
    text = (
        PC_HEAD + '[[cards]]\nname = "Pit-fall"\ntype = "trap"\nrarity = 1\n\n'
        '[[cards]]\nname = "Pit fall"\ntype = "spell"\nrarity = 3\n'
    )
    doc = parse_document(text, "o.toml")
    # Both names make the id "pit-fall": the clash is reported, never a silent replacement.
    found = check_overlay(pc(), doc)
    assert any("duplicate" in p.message and "pit-fall" in p.message for p in found), found


# --------------------------------------------------------------------------------------------
# catalog check (files)


def test_check_good_file() -> None:
    example = EXAMPLES / "planetary-conquerors" / "example-set.toml"
    result = check_catalog_file(example)
    assert result.ok, result.problems
    assert result.game == "planetary-conquerors"
    assert result.changed == 2
    assert result.added > 20


def test_check_bad_file_lists_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        RD_HEAD + '[[cards]]\nid = "I/25"\nresource_point = 5\n\n'
        '[[cards]]\nid = "I/26"\nresource_points = -3\n\n'
        '[[cards]]\nname = "New"\n',
        encoding="utf-8",
    )
    result = check_catalog_file(path)
    assert not result.ok
    assert [p.line for p in result.problems] == [6, 10, 12]


def test_check_unknown_game(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('[catalog]\ngame = "chess"\n', encoding="utf-8")
    result = check_catalog_file(path)
    assert not result.ok
    assert "chess" in result.problems[0].message
    assert "ren-dhark" in result.problems[0].message


# --------------------------------------------------------------------------------------------
# catalog template


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_template_parses_as_toml_and_checks_clean(game_id: str, tmp_path: Path) -> None:
    game = get_game(game_id)
    text = render_template(game, game.bundled_catalog())
    data = tomllib.loads(text)
    assert data["catalog"]["game"] == game_id
    path = tmp_path / "t.toml"
    path.write_text(text, encoding="utf-8")
    assert check_catalog_file(path).ok


def _uncomment_new_card(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("# Add a new card"))
    return lines[: start + 1] + [re.sub(r"^# ", "", ln) for ln in lines[start + 1 :]]


def test_template_new_card_filled_in_passes(tmp_path: Path) -> None:
    game = get_game("planetary-conquerors")
    lines = _uncomment_new_card(render_template(game, game.bundled_catalog()))
    assert "[[cards]]" in lines
    filled = [re.sub(r"^rarity = .*", "rarity = 2", ln) for ln in lines]
    filled = [re.sub(r"^type = .*", 'type = "warrior"', ln) for ln in filled]
    filled = [re.sub(r"^attack = .*", "attack = 3", ln) for ln in filled]
    path = tmp_path / "mine.toml"
    path.write_text("\n".join(filled), encoding="utf-8")
    result = check_catalog_file(path)
    assert result.ok, result.problems
    assert result.added == 1
    catalog = apply_overlay(game.bundled_catalog(), parse_document("\n".join(filled), "m"))
    [card] = catalog.by_name("My new card")
    assert card.get("rarity") == 2
    assert card.get("attack") == 3


@pytest.mark.parametrize(
    "game_id",
    [g for g in sorted(all_games())],
)
def test_template_new_card_uncommented_verbatim_passes(game_id: str, tmp_path: Path) -> None:
    game = get_game(game_id)
    lines = _uncomment_new_card(render_template(game, game.bundled_catalog()))
    path = tmp_path / "mine.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    result = check_catalog_file(path)
    assert result.ok, result.problems


def test_template_field_lists_every_ship_person_unit() -> None:
    game = get_game("ren-dhark")
    catalog = game.bundled_catalog()
    text = render_template(game, catalog, ["resource_points"])
    data = tomllib.loads(text)
    assert data["catalog"]["game"] == "ren-dhark"
    listed = re.findall(r'^id = "([^"]+)"', text, flags=re.M)
    combat = [c.id for c in catalog if any(c.has_type(t) for t in ("ship", "person", "unit"))]
    assert len(combat) == 54
    assert set(combat) <= set(listed)
    assert len(listed) == len(set(listed))
    assert "# resource_points = " in text


def test_template_field_filled_in_applies(tmp_path: Path) -> None:
    game = get_game("ren-dhark")
    text = render_template(game, game.bundled_catalog(), ["resource_points"])
    filled = text.replace("# resource_points = 0", "resource_points = 3")
    path = tmp_path / "points.toml"
    path.write_text(filled, encoding="utf-8")
    result = check_catalog_file(path)
    assert result.ok, result.problems
    catalog = game.catalog([path])
    assert catalog.by_id("I/11").get("resource_points") == 3  # type: ignore[union-attr]


def test_template_skips_cards_that_have_the_field(tmp_path: Path) -> None:
    overlay = tmp_path / "o.toml"
    overlay.write_text(RD_HEAD + '[[cards]]\nid = "I/25"\nresource_points = 5\n', encoding="utf-8")
    game = get_game("ren-dhark")
    text = render_template(game, game.catalog([overlay]), ["resource_points"])
    listed = re.findall(r'^id = "([^"]+)"', text, flags=re.M)
    assert "I/25" not in listed
    assert "I/26" in listed


def test_template_skips_types_without_the_field() -> None:
    game = get_game("planetary-conquerors")
    catalog = apply_overlay(
        game.bundled_catalog(),
        parse_document(PC_HEAD + '[[cards]]\nname = "Pit"\ntype = "trap"\nrarity = 1\n', "o"),
    )
    text = render_template(game, catalog, ["cost_gold"])
    listed = re.findall(r'^id = "([^"]+)"', text, flags=re.M)
    assert "pit" not in listed
    assert "pc/gold-miner" in listed


def test_template_unknown_field() -> None:
    game = get_game("ren-dhark")
    with pytest.raises(UsageError) as info:
        render_template(game, game.bundled_catalog(), ["resource_point"])
    assert "resource_points" in str(info.value)
