"""Issue-20 reproductions: odds wording and digits, one set of condition messages, names read
in any case with suggestions."""

from __future__ import annotations

import re

import pytest
from conftest import EXAMPLES, run_cli, run_json

from deckcheck.cli.render import _percent, digits

RD = str(EXAMPLES / "ren-dhark/terra-custom.txt")
PC = str(EXAMPLES / "planetary-conquerors/legal-50.txt")
STCCG = str(EXAMPLES / "stccg-1e/legal-federation.txt")


def test_a_set_aside_type_is_said_never_drawn() -> None:
    data = run_json(["odds", RD, "type:planet>=1", "--json"])
    assert data["probability"] == 0
    assert any("never drawn" in line and "Terra" in line for line in data["assumptions"])


@pytest.mark.parametrize(
    ("p", "shown"),
    [(0.99996, "0.99996"), (0.999999996, "0.999999996"), (1.0, "1.0000"), (0.00004, "0.00004")],
)
def test_digits_tell_a_near_certainty_from_certainty(p: float, shown: str) -> None:
    assert digits(p, 4) == shown
    assert _percent(0.99996) == "99.996 %"


def test_redraws_without_a_redraw_rule_is_refused() -> None:
    result = run_cli(["odds", PC, "type:warrior>=1", "--redraws", "2"])
    assert result.exit_code == 2
    assert "--redraws" in result.stderr and "not a redraw" in result.stderr


@pytest.mark.parametrize(
    ("condition", "says"),
    [
        ("ship>=2", "did you mean: type:ship?"),
        ("colr:red>=1", "no field 'colr' (did you mean colour:red?)"),
        ("type:ship=>2", "did you mean 'type:ship>=2'?"),
        ("type:>=2", "names the field type but no value"),
    ],
)
@pytest.mark.parametrize("command", ["odds", "simulate", "hand"])
def test_one_set_of_condition_messages(command: str, condition: str, says: str) -> None:
    extra = ["--trials", "100"] if command == "simulate" else []
    result = run_cli([command, RD, condition, *extra])
    assert result.exit_code == 2
    assert says in " ".join(result.stderr.split())


def test_field_suggestion_for_an_abbreviated_field() -> None:
    result = run_cli(["odds", STCCG, "affil:klingon>=2"])
    assert result.exit_code == 2 and "affiliation:klingon" in result.stderr


def test_cards_rejects_a_field_as_odds_does() -> None:
    result = run_cli(["cards", "ren-dhark", "colr:red"])
    assert result.exit_code == 2 and "colour:red" in result.stderr


def test_cards_exact_match_is_shown_alone_in_full() -> None:
    found = run_json(["cards", "the-drake", "Monk", "--json"])
    assert [c["name"] for c in found] == ["Monk"]


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
    text = run_cli(["odds", "--help"], env={"COLUMNS": "200"}).stdout
    assert (
        "Cards set aside by the rules (a planet, seed cards, starting miners) are not drawn. "
        "With the game's mulligan" in " ".join(text.split())
    )
    import typer.main

    from deckcheck.cli.app import app

    group = typer.main.get_command(app)
    commands: list[list[str]] = [[]] + [[name] for name in group.commands]  # type: ignore[attr-defined]
    commands += [["catalog", "template"], ["catalog", "check"]]
    for command in commands:
        shown = run_cli([*command, "--help"], env={"COLUMNS": "200"}).stdout
        assert shown.lstrip().startswith("Usage: deckcheck"), command
        # Typer's own labels: a Python type in angle brackets, a required argument in braces.
        # (an option without metavar= in cli/app.py shows one: give it a placeholder there)
        assert not re.search(r"<(bool|int|str|float|path|list\[\w+\])[^>]*>", shown, re.I), command
        usage = shown.lstrip().splitlines()[0]
        assert "{" not in usage, usage
        assert "-v," not in shown and " -v " not in shown
    odds_usage = run_cli(["odds", "--help"], env={"COLUMNS": "200"}).stdout.lstrip()
    assert odds_usage.startswith("Usage: deckcheck odds [OPTIONS] DECK [CONDITIONS...]")
    assert run_cli(["validate", RD, "-v", "custom"]).exit_code == 2


def test_counts_in_messages_read_as_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """'1 card', never '1 card(s)': in data messages and in the games' own rules."""
    deck = tmp_path / "two.txt"
    deck.write_text("game: ren-dhark\n2 POINT OF\n", encoding="utf-8")
    report = run_json(["validate", str(deck), "--json"], code=1)
    messages = [v["message"] for v in report["violations"]]
    assert any("resource points unknown for 1 card," in m for m in messages), messages
    red = tmp_path / "red.txt"
    red.write_text("game: ren-dhark\nvariant: starter\n1 POINT OF\n", encoding="utf-8")
    report = run_json(["validate", str(red), "--json"], code=1)
    messages = [v["message"] for v in report["violations"]]
    assert not [m for m in messages if "(s)" in m], messages
    assert any("starter lacks" in m and "cards" in m for m in messages), messages


def test_catalog_check_counts_problems_in_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    overlay = tmp_path / "bad.toml"
    overlay.write_text('[[cards]]\nname = "My Ship"\n', encoding="utf-8")
    result = run_cli(["catalog", "check", str(overlay)])
    assert result.exit_code == 2 and "bad.toml: 1 problem\n" in result.stderr, result.stderr
