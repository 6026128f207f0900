"""Regressions from the review: seeds, overlays and piles given as decks, stdout export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke

REPO = Path(__file__).resolve().parents[1]
RD = str(REPO / "examples/ren-dhark/terra-custom.txt")
PC_SET = str(REPO / "examples/planetary-conquerors/example-set.toml")


def test_a_reported_seed_can_be_passed_back() -> None:
    first = invoke(["simulate", RD, "type:ship>=2", "--trials", "2000", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert 0 <= data["seed"] < 2**31
    again = invoke(
        ["simulate", RD, "type:ship>=2", "--trials", "2000", "--json", "--seed", str(data["seed"])],
    )
    assert again.exit_code == 0
    assert json.loads(again.stdout)["probability"] == data["probability"]


def test_overlay_and_pile_given_as_decks_say_what_they_are() -> None:
    result = invoke(["validate", PC_SET])
    assert result.exit_code == 2 and "--catalog" in result.output
    result = invoke(["validate", "dorn:heroes"])
    assert result.exit_code == 2 and "random pile" in result.output


def test_wrong_game_overlay_is_one_problem() -> None:
    result = invoke(["validate", RD, "--catalog", PC_SET])
    assert result.exit_code == 2
    assert "1 problem" in result.output and "not for 'ren-dhark'" in result.output


def test_unknown_game_option_is_named_first() -> None:
    result = invoke(["validate", RD, "--game", "nope"])
    assert result.exit_code == 2 and "unknown game 'nope'" in result.output


def test_export_dash_is_standard_output_with_overlays_relative_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(["export", RD, "--to", "text", "-o", "-"])
    assert result.exit_code == 0
    assert not (tmp_path / "-").exists()
    catalog_line = next(ln for ln in result.stdout.splitlines() if ln.startswith("catalog:"))
    overlay = Path(catalog_line.split(":", 1)[1].strip())
    assert not overlay.is_absolute() and (tmp_path / overlay).is_file()
    saved = tmp_path / "copy.txt"
    saved.write_text(result.stdout)
    assert invoke(["validate", str(saved)]).exit_code == 0


def test_one_copy_of_an_unknown_rarity_cannot_break_the_copy_rule(tmp_path: Path) -> None:
    lines = [
        "game: planetary-conquerors",
        "1 Topdecker",
        "25 Gold Miner",
        "24 Collector of Cosmium",
    ]
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(lines) + "\n")
    one = invoke(["validate", str(deck), "--catalog", PC_SET, "--json"])
    assert json.loads(one.stdout)["status"] == "legal", one.output
    deck.write_text(
        "\n".join([lines[0], "2 Topdecker", *lines[2:3], "23 Collector of Cosmium"]) + "\n"
    )
    two = invoke(["validate", str(deck), "--catalog", PC_SET, "--json"])
    assert json.loads(two.stdout)["status"] == "unverified"


def test_missions_must_be_positive() -> None:
    result = invoke(
        ["validate", str(REPO / "examples/stccg-1e/legal-federation.txt"), "--missions", "-3"]
    )
    assert result.exit_code == 2
