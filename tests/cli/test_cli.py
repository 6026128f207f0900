"""The command line through typer's CliRunner: exit codes, JSON shapes, help, no tracebacks."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from conftest import EXAMPLES, invoke, run_cli, run_json
from typer.testing import Result

from deckcheck.cli.app import app
from deckcheck.commands.cards import find_cards
from deckcheck.games.registry import all_games

RD = str(EXAMPLES / "ren-dhark/terra-custom.txt")
PC_SET = str(EXAMPLES / "planetary-conquerors/example-set.toml")

BLUE = ["I/67", *(f"I/{n}" for n in range(1, 34))]

LEGAL = "game: ren-dhark\nvariant: starter\n" + "".join(f"{c}\n" for c in BLUE)
ILLEGAL = "game: ren-dhark\nvariant: starter\n" + "".join(f"{c}\n" for c in BLUE[:-1])
UNVERIFIED = "game: ren-dhark\nvariant: custom\n" + "".join(f"{c}\n" for c in BLUE)
UNKNOWN = "game: ren-dhark\nI/67\nNo Such Card\nNOGK\nAnother Missing\n"
DECKS = {
    "legal.txt": LEGAL,
    "illegal.txt": ILLEGAL,
    "unverified.txt": UNVERIFIED,
    "unknown.txt": UNKNOWN,
}


def run(args: list[str], stdin: str | None = None) -> Result:
    """Invoke the CLI, 200 columns wide; never a traceback, never an unhandled exception."""
    return run_cli(args, stdin, env={"COLUMNS": "200"})


@pytest.fixture
def decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The four decks in the working directory (short relative names in messages)."""
    monkeypatch.chdir(tmp_path)
    for name, text in DECKS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


# --------------------------------------------------------------------------------------------
# validate: exit codes


@pytest.mark.parametrize(
    ("deck", "code"),
    [("legal.txt", 0), ("illegal.txt", 1), ("unknown.txt", 2), ("unverified.txt", 3)],
)
def test_validate_exit_code(decks: Path, deck: str, code: int) -> None:
    result = run(["validate", deck])
    assert result.exit_code == code, result.output


def test_validate_legal_output(decks: Path) -> None:
    result = run(["validate", "legal.txt"])
    assert "legal.txt" in result.stdout
    assert "LEGAL" in result.stdout
    assert "rd.starter" in result.stdout


def test_validate_illegal_output_names_rule_and_card(decks: Path) -> None:
    result = run(["validate", "illegal.txt"])
    assert "ILLEGAL" in result.stdout
    assert "rd.starter" in result.stdout
    assert "Stopař Robonů" in result.stdout  # I/33, named as people know it


def test_validate_unknown_cards_all_reported(decks: Path) -> None:
    result = run(["validate", "unknown.txt"])
    assert result.exit_code == 2
    assert "unknown.txt:3" in result.stderr
    assert "unknown.txt:5" in result.stderr
    assert "No Such Card" in result.stderr
    assert "Another Missing" in result.stderr
    # the rest of the deck still gets its findings, marked as a partial verdict
    assert "without the 2 unknown lines" in result.stdout


def test_validate_missing_file(decks: Path) -> None:
    result = run(["validate", "nope.txt"])
    assert result.exit_code == 2
    assert "nope.txt" in result.stderr


def test_validate_stdin(decks: Path) -> None:
    result = run(["validate", "-", "--json"], stdin=LEGAL)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["status"] == "legal"
    assert data["card_count"] == 34


@pytest.mark.parametrize(
    ("names", "code"),
    [
        (["legal.txt", "legal.txt"], 0),
        (["legal.txt", "unverified.txt"], 3),
        (["unverified.txt", "legal.txt"], 3),
        (["unverified.txt", "illegal.txt", "legal.txt"], 1),
        (["illegal.txt", "unverified.txt"], 1),
        (["legal.txt", "unknown.txt", "illegal.txt", "unverified.txt"], 2),
        (["unknown.txt", "legal.txt"], 2),
        (["illegal.txt", "nope.txt"], 2),
    ],
)
def test_several_decks_worst_code_wins(decks: Path, names: list[str], code: int) -> None:
    result = run(["validate", *names])
    assert result.exit_code == code, result.output
    if code == 2:
        # a broken deck does not stop the others from being reported
        readable = [n for n in names if n not in ("unknown.txt", "nope.txt")]
        for name in readable:
            assert name in result.stdout


# --------------------------------------------------------------------------------------------
# validate --json


VIOLATION_KEYS = {"code", "severity", "message", "cards"}


def check_report_shape(item: dict[str, Any]) -> None:
    assert {"deck", "game", "variant", "status", "card_count", "violations"} <= set(item)
    assert isinstance(item["deck"], str)
    assert item["game"] == "ren-dhark"
    assert item["status"] in ("legal", "illegal", "unverified")
    assert isinstance(item["card_count"], int)
    assert isinstance(item["violations"], list)
    for v in item["violations"]:
        assert set(v) >= VIOLATION_KEYS
        assert isinstance(v["code"], str) and v["code"].startswith("rd.")
        assert v["severity"] in ("error", "warning", "unknown")
        assert isinstance(v["message"], str) and v["message"]
        assert isinstance(v["cards"], list)
        assert all(isinstance(c, str) for c in v["cards"])


def test_validate_json_one_deck(decks: Path) -> None:
    result = run(["validate", "illegal.txt", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    check_report_shape(data)
    assert data["deck"] == "illegal.txt"
    assert data["variant"] == "starter"
    assert data["status"] == "illegal"
    assert data["card_count"] == 33
    [v] = data["violations"]
    assert v == {**v, "code": "rd.starter", "severity": "error", "cards": ["I/33"]}


def test_validate_json_unverified(decks: Path) -> None:
    result = run(["validate", "unverified.txt", "--json"])
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    check_report_shape(data)
    assert data["status"] == "unverified"
    assert data["variant"] == "custom"
    points = [v for v in data["violations"] if v["code"] == "rd.points"]
    assert [v["severity"] for v in points] == ["unknown"]
    assert "I/25" in points[0]["cards"]


def test_validate_json_several_decks_is_an_array(decks: Path) -> None:
    result = run(["validate", "legal.txt", "unverified.txt", "illegal.txt", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    assert [d["deck"] for d in data] == ["legal.txt", "unverified.txt", "illegal.txt"]
    assert [d["status"] for d in data] == ["legal", "unverified", "illegal"]
    for item in data:
        check_report_shape(item)


def test_validate_json_stdout_is_only_json_even_with_errors(decks: Path) -> None:
    result = run(["validate", "legal.txt", "unknown.txt", "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)  # the error message went to stderr
    assert isinstance(data, list) and len(data) == 2
    assert "No Such Card" in result.stderr


# --------------------------------------------------------------------------------------------
# games, cards


def test_games_json() -> None:
    result = run(["games", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    assert {g["id"] for g in data} == set(all_games())
    for g in data:
        assert {"id", "name", "variants", "cards"} <= set(g)
        assert isinstance(g["name"], str) and g["name"]
        assert isinstance(g["variants"], list) and g["variants"]
        assert all(isinstance(v, str) for v in g["variants"])
        assert isinstance(g["cards"], int) and g["cards"] > 0
    rd = next(g for g in data if g["id"] == "ren-dhark")
    assert rd["cards"] == 68
    assert set(rd["variants"]) == {"custom", "starter"}


def test_games_table() -> None:
    result = run(["games"])
    assert result.exit_code == 0
    for game_id in all_games():
        assert game_id in result.stdout


def test_cards_search() -> None:
    result = run(["cards", "ren-dhark", "POINT"])
    assert result.exit_code == 0
    assert "POINT OF" in result.stdout
    assert "I/25" in result.stdout


def test_cards_json() -> None:
    result = run(["cards", "ren-dhark", "type:planet", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert sorted(c["id"] for c in data) == ["I/67", "I/68"]


def test_cards_drake_tile() -> None:
    result = run(["cards", "the-drake", "Monk"])
    assert result.exit_code == 0
    assert "Monk" in result.stdout
    art = find_cards("the-drake", "Monk").art
    assert art
    for line in art.splitlines():
        if line.strip():
            assert line.rstrip() in result.stdout


def test_cards_unknown_game() -> None:
    result = run(["cards", "chess"])
    assert result.exit_code == 2
    assert "ren-dhark" in result.stderr


# --------------------------------------------------------------------------------------------
# catalog check / template


def test_catalog_check_good(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("good.toml").write_text(
        '[catalog]\ngame = "ren-dhark"\n[[cards]]\nid = "I/25"\nresource_points = 5\n'
        '[[cards]]\nname = "New Ship"\ntype = "ship"\n',
        encoding="utf-8",
    )
    result = run(["catalog", "check", "good.toml"])
    assert result.exit_code == 0
    assert "ok" in result.stdout
    assert "1 card changed" in result.stdout
    assert "1 added" in result.stdout


def test_catalog_check_bad_lists_every_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.toml").write_text(
        '[catalog]\ngame = "ren-dhark"\n'
        '[[cards]]\nid = "I/25"\nresource_point = 5\n'
        '[[cards]]\nid = "I/26"\nresource_points = -3\n'
        '[[cards]]\nname = "New"\n',
        encoding="utf-8",
    )
    result = run(["catalog", "check", "bad.toml"])
    assert result.exit_code == 2
    assert "3 problem" in result.stderr
    for where in ("bad.toml:5:", "bad.toml:8:", "bad.toml:9:"):
        assert where in result.stderr
    assert "resource_points" in result.stderr


def test_catalog_check_broken_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.toml").write_text('[catalog]\ngame = "ren-dhark"\nname = \n', encoding="utf-8")
    result = run(["catalog", "check", "broken.toml"])
    assert result.exit_code == 2
    assert "broken.toml:3" in result.stderr


def test_catalog_template_field() -> None:
    result = run(["catalog", "template", "ren-dhark", "--field", "resource_points"])
    assert result.exit_code == 0
    assert 'id = "I/11"' in result.stdout
    assert "# resource_points = " in result.stdout


def test_catalog_template_unknown_field() -> None:
    result = run(["catalog", "template", "ren-dhark", "--field", "points"])
    assert result.exit_code == 2
    assert "resource_points" in result.stderr


# --------------------------------------------------------------------------------------------
# help


def _command_paths() -> list[tuple[list[str], bool]]:
    """Every command path and whether it is a group."""
    paths: list[tuple[list[str], bool]] = []

    def walk(command: Any, prefix: list[str]) -> None:
        subcommands = getattr(command, "commands", None)
        paths.append((prefix, subcommands is not None))
        for name, sub in (subcommands or {}).items():
            walk(sub, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return paths


def _help_params() -> list[Any]:
    params = []
    for path, _is_group in _command_paths():
        marks: list[Any] = []
        params.append(pytest.param(path, id=" ".join(path) or "deckcheck", marks=marks))
    return params


@functools.cache
def _help(path: tuple[str, ...]) -> Result:
    """``deckcheck PATH --help`` at 200 columns, run once per process: the two help tests below
    read the same pages."""
    return run([*path, "--help"])


@pytest.mark.parametrize("path", _help_params())
def test_help_has_an_example(path: list[str]) -> None:
    result = _help(tuple(path))
    assert result.exit_code == 0
    assert "Usage" in result.stdout
    assert "Example" in result.stdout


def test_every_contract_command_exists() -> None:
    paths = {" ".join(p) for p, _ in _command_paths()}
    assert {"games", "cards", "validate", "catalog template", "catalog check"} <= paths


def test_python_m_deckcheck() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "deckcheck", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Usage" in proc.stdout
    assert "validate" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_python_m_deckcheck_bad_input(tmp_path: Path) -> None:
    deck = tmp_path / "bad.txt"
    deck.write_bytes("game: ren-dhark\nČerná garda\n".encode("cp1250"))
    proc = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", str(deck)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "Windows-1250" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


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


def test_names_in_any_case_with_aliases_and_suggestions() -> None:
    assert run_cli(["validate", RD, "--variant", "CUSTOM"]).exit_code == 0
    assert run_cli(["cards", "STCCG", "Kirk"]).exit_code == 0
    assert run_json(["cards", "drake", "Monk", "--json"])[0]["name"] == "Monk"
    typo = run_cli(["validate", RD, "--variant", "custm"])
    assert typo.exit_code == 2 and "did you mean 'custom'" in typo.stderr
    dorn = run_cli(["validate", str(EXAMPLES / "dorn/four-heroes.txt"), "--variant", "Four Heroes"])
    assert dorn.exit_code in (0, 1, 3) and "four-heroes" in dorn.stdout
    assert run_cli(["export", RD, "--to", "MD"]).stdout.startswith("#")
    fmt = run_cli(["export", RD, "--to", "markdwn"])
    assert fmt.exit_code == 2 and "did you mean 'markdown'" in fmt.stderr


def test_help_reads_as_written() -> None:
    """Paragraphs wrap at the terminal's width, not the source's; no type names as metavars;
    -v is not --variant."""
    import typer.main

    from deckcheck.cli.app import app

    group = typer.main.get_command(app)
    commands: list[list[str]] = [[]] + [[name] for name in group.commands]  # type: ignore[attr-defined]
    commands += [["catalog", "template"], ["catalog", "check"]]
    helps = {tuple(command): _help(tuple(command)).stdout for command in commands}
    assert (
        "Cards set aside by the rules (a planet, seed cards, starting miners) are not drawn. "
        "With the game's mulligan" in " ".join(helps[("odds",)].split())
    )
    for command, shown in helps.items():
        assert shown.lstrip().startswith("Usage: deckcheck"), command
        # Typer's own labels: a Python type in angle brackets, a required argument in braces.
        # (an option without metavar= in cli/app.py shows one: give it a placeholder there)
        assert not re.search(r"<(bool|int|str|float|path|list\[\w+\])[^>]*>", shown, re.I), command
        usage = shown.lstrip().splitlines()[0]
        assert "{" not in usage, usage
        assert "-v," not in shown and " -v " not in shown
    odds_usage = helps[("odds",)].lstrip()
    assert odds_usage.startswith("Usage: deckcheck odds [OPTIONS] DECK [CONDITIONS...]")
    assert run_cli(["validate", RD, "-v", "custom"]).exit_code == 2
