"""Results as values: every command's JSON and exit code come from the library result that
``deckcheck.api`` returns; variant settings through ``--set``; game words from game.toml."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_cli, run_json

from deckcheck import api
from deckcheck.core.errors import UsageError
from deckcheck.core.result import Result

RD = str(EXAMPLES / "ren-dhark/terra-custom.txt")
RD_ILLEGAL = str(EXAMPLES / "ren-dhark/illegal-mixed.txt")
STCCG = str(EXAMPLES / "stccg-1e/legal-federation.txt")
PC_SET = str(EXAMPLES / "planetary-conquerors/example-set.toml")


def _same(result: Result, argv: list[str], code: int) -> None:
    """The command prints exactly the result's JSON and exits with its code."""
    assert result.exit_code == code
    assert run_json([*argv, "--json"], code) == json.loads(json.dumps(result.to_json()))


CASES: list[tuple[str, Any, list[str], int]] = [
    ("games", lambda: api.games(), ["games"], 0),
    ("cards", lambda: api.cards("the-drake", "Monk"), ["cards", "the-drake", "Monk"], 0),
    ("validate", lambda: api.validate([RD]), ["validate", RD], 0),
    ("validate-2", lambda: api.validate([RD, RD_ILLEGAL]), ["validate", RD, RD_ILLEGAL], 1),
    (
        "odds",
        lambda: api.odds(RD, ["type:ship>=2"], turn=2),
        ["odds", RD, "type:ship>=2", "--turn", "2"],
        0,
    ),
    (
        "simulate",
        lambda: api.simulate(RD, ["type:ship>=2"], trials=500, seed=3),
        ["simulate", RD, "type:ship>=2", "--trials", "500", "--seed", "3"],
        0,
    ),
    (
        "hand",
        lambda: api.hand(RD, count=2, seed=5),
        ["hand", RD, "--count", "2", "--seed", "5"],
        0,
    ),
    ("diff", lambda: api.diff(RD, RD_ILLEGAL), ["diff", RD, RD_ILLEGAL], 0),
]


@pytest.mark.parametrize(("name", "call", "argv", "code"), CASES, ids=[c[0] for c in CASES])
def test_command_json_is_the_result_json(name: str, call: Any, argv: list[str], code: int) -> None:
    _same(call(), argv, code)


def test_results_without_json_option_still_have_json_and_codes(tmp_path: Path) -> None:
    refused = api.export(RD_ILLEGAL, "text")
    assert refused.exit_code == 1 and refused.to_json()["refused"] is True
    assert run_cli(["export", RD_ILLEGAL, "--to", "text"]).exit_code == 1
    written = api.export(RD, "toml", output=tmp_path / "deck.toml")
    assert written.exit_code == 0 and written.to_json()["written_to"] == str(tmp_path / "deck.toml")
    assert api.catalog_check(PC_SET).exit_code == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('[catalog]\ngame = "ren-dhark"\n[[cards]]\nid = "I/1"\ncolour = 5\n')
    checked = api.catalog_check(bad)
    assert checked.exit_code == 2 and checked.to_json()["problems"]
    template = api.catalog_template("ren-dhark", fields=["resource_points"])
    assert template.exit_code == 0
    assert run_cli(["catalog", "template", "ren-dhark", "-f", "resource_points"]).stdout == (
        template.text
    )


def test_unreadable_deck_is_an_outcome_with_its_error_on_stderr(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.txt")
    checked = api.validate([RD, missing])
    assert checked.exit_code == 2 and len(checked.errors) == 1
    result = run_cli(["validate", RD, missing, "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)[1]["status"] == "error"
    assert "missing.txt" in result.stderr


# ---------------------------------------------------------------- settings: --set KEY=VALUE


def test_set_changes_a_declared_setting() -> None:
    assert run_cli(["validate", STCCG]).exit_code == 0
    four = run_cli(["validate", STCCG, "--set", "missions=4"])
    assert four.exit_code == 1 and "exactly 4" in four.stdout
    alias = run_cli(["validate", STCCG, "--missions", "4"])
    assert alias.exit_code == 1 and "exactly 4" in alias.stdout


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        ([STCCG, "--set", "mision=4"], "did you mean 'missions'"),
        ([STCCG, "--set", "missions"], "KEY=VALUE"),
        ([STCCG, "--set", "missions=lots"], "'lots'"),
        ([STCCG, "--set", "missions=0"], "from 1 to 1000"),
        ([STCCG, "--set", "deck_size=50"], "settings: missions"),
        ([RD, "--missions", "4"], "no settings"),
    ],
)
def test_set_refuses_what_the_game_does_not_declare(argv: list[str], says: str) -> None:
    result = run_cli(["validate", *argv])
    assert result.exit_code == 2
    assert says in " ".join(result.stderr.split())


def test_a_setting_header_line_is_read_before_or_after_the_game_line(tmp_path: Path) -> None:
    body = [ln for ln in Path(STCCG).read_text().splitlines() if not ln.startswith(("game:", "#"))]
    for head in (["missions: 4", "game: stccg-1e"], ["game: stccg-1e", "missions: 4"]):
        deck = tmp_path / "deck.txt"
        deck.write_text("\n".join([*head, *body]) + "\n")
        data = run_json(["validate", deck, "--json"], 1)
        assert [v["code"] for v in data["violations"]] == ["stccg.missions"]
        assert "exactly 4" in data["violations"][0]["message"]


def test_a_setting_header_is_the_games_not_the_parsers(tmp_path: Path) -> None:
    """Ren Dhark has no ``missions`` setting: the line is no header there, and is left out
    with a note (STCCG reads it as its setting)."""
    deck = tmp_path / "deck.txt"
    body = [ln for ln in Path(RD).read_text().splitlines() if not ln.startswith("catalog:")]
    deck.write_text("\n".join(["missions: 4", *body]) + "\n")
    report = run_json(["validate", deck, "--json"], code=3)
    assert [n for n in report["notes"] if "'missions' is no header" in n]


def test_games_lists_settings() -> None:
    games = {g["id"]: g for g in run_json(["games", "--json"])}
    assert games["stccg-1e"]["settings"] == ["missions"]
    assert games["ren-dhark"]["settings"] == []
    text = run_cli(["games"]).stdout
    block = text[text.index("stccg-1e ") :].split("\nthe-drake")[0]  # the game's own lines
    assert "settings (--set KEY=VALUE): missions" in block, text


# ---------------------------------------------------------------- game words from game.toml


def test_listing_headings_come_from_the_game() -> None:
    listing = run_cli(["cards", "planetary-conquerors", "-c", PC_SET, "type:warrior"], env=None)
    header = next(line for line in listing.stdout.splitlines() if line.strip().startswith("id"))
    assert header.split()[3:5] == ["rarity", "gold"]


def test_example_condition_is_the_games() -> None:
    with pytest.raises(UsageError) as caught:
        api.odds("the-drake:stack", [])
    assert "name:Drake>=1" in caught.value.message and "ship" not in caught.value.message
