"""What users expect of any command line: --version, shell completion, examples they can paste
(conditions in quotes), and a clear word when the shell has split a condition apart."""

from __future__ import annotations

import importlib.metadata

import pytest
import shellingham
from conftest import EXAMPLES, run_cli

import deckcheck

DECK = EXAMPLES / "ren-dhark" / "terra-custom.txt"


def test_version() -> None:
    result = run_cli(["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"deckcheck {deckcheck.__version__}"
    # One version: the package's metadata (pyproject) and the module agree.
    assert importlib.metadata.version("deckcheck") == deckcheck.__version__


def test_completion_is_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    help_text = run_cli(["--help"]).stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text
    # --show-completion takes the shell from the parent processes, and a plain sh (as make
    # starts the tests) is not one Typer has a script for: the user's shell here is bash.
    monkeypatch.setattr(shellingham, "detect_shell", lambda *args, **kwargs: ("bash", "/bin/bash"))
    script = run_cli(["--show-completion"])
    assert script.exit_code == 0, script.output
    assert "complete" in script.stdout and "deckcheck" in script.stdout


@pytest.mark.parametrize("command", ["odds", "simulate", "hand"])
def test_help_quotes_conditions(command: str) -> None:
    help_text = run_cli([command, "--help"], env={"COLUMNS": "200"}).stdout
    assert '"type:' in help_text  # an example to paste, quoted


def test_condition_error_examples_are_quoted() -> None:
    result = run_cli(["odds", DECK, ">=2"])
    assert result.exit_code == 2
    assert '"type:ship>=2"' in result.stderr.replace("\n", "")


@pytest.mark.parametrize(
    ("conditions", "says"),
    [
        # deckcheck odds deck type:ship >= 2: the shell sends the output to a file named "="
        (["type:ship", "2"], '"type:ship>=2"'),
        # deckcheck odds deck "type:ship>" 2
        (["type:ship>", "2"], '"type:ship>2"'),
        # deckcheck odds deck type:ship>=2: the shell sends the output to a file named "=2"
        (["type:ship"], "quote each condition"),
        (["type:ship>=2", "type:action"], "quote each condition"),
    ],
    ids=["spaced", "operator-then-count", "redirected", "second-redirected"],
)
def test_a_condition_split_by_the_shell_is_explained(conditions: list[str], says: str) -> None:
    for command in ("odds", "simulate", "hand"):
        result = run_cli([command, DECK, *conditions])
        assert result.exit_code == 2, result.output
        message = " ".join(result.stderr.split())
        assert says in message, message
        assert message.count("error:") == 1


def test_a_named_command_builds_alone_and_everything_else_gets_the_whole_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Start-up builds only the command a command line names; help, typos and completion
    see every command."""
    import typer.main

    from deckcheck.cli.app import app, app_for

    def names(argv: list[str]) -> set[str]:
        return set(typer.main.get_command(app_for(argv)).commands)  # type: ignore[attr-defined]

    every = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert len(every) > 10
    assert names(["validate", "deck.txt", "--json"]) == {"validate"}
    assert names(["catalog", "check", "x.toml"]) == {"catalog"}
    assert names(["--help"]) == names([]) == names(["validat", "x"]) == every
    monkeypatch.setenv("_DECKCHECK_COMPLETE", "complete_bash")
    assert names(["validate"]) == every
