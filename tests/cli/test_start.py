"""What a start imports: only what the command line asked for.

Each case runs ``python -X importtime -m deckcheck ...`` in a child process and reads the
modules it imported from the report (standard error). Nothing here measures time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from afresh import afresh
from conftest import run_module
from process_helpers import call_forked

REPO = Path(__file__).resolve().parents[2]
DECK = REPO / "examples" / "ren-dhark" / "terra-custom.txt"
_IMPORTED = re.compile(r"^import time:\s*\d+ \|\s*\d+ \|\s*(\S+)$", re.MULTILINE)


def imported(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    """The exit code of ``deckcheck ARGS`` and the modules it imported, with the top-level
    packages among them."""
    command = (sys.executable, "-X", "importtime", "-m", "deckcheck")
    done = run_module(args, executable=command, env=env)
    modules = set(_IMPORTED.findall(done.stderr))
    return done.code, modules | {name.split(".")[0] for name in modules}


def warmed(*args: str | Path) -> int:
    """The exit code of ``deckcheck ARGS`` run to fill the run's cache: in a child forked from
    this one that reads every catalog afresh (through the cache, writing what it lacks), as a
    first start would; the start itself is not what this run is for."""
    return call_forked(afresh(args), " ".join(map(str, ["deckcheck", *args]))).code


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--json", DECK],
        ["validate", "--json", REPO / "examples" / "ren-dhark" / "illegal-mixed.txt"],
        ["games", "--json"],
        ["cards", "the-drake", "--json"],
    ],
)
def test_an_answer_in_json_does_not_import_rich(args: list[str | Path]) -> None:
    code, packages = imported(*args)
    assert code in (0, 1)
    assert "deckcheck" in packages and "typer" in packages  # the report was read
    assert "rich" not in packages


def test_a_report_written_to_a_pipe_does_not_import_rich() -> None:
    """Not a terminal: the report is plain lines (see test_plain_report.py); on a terminal
    (here: one forced), rich draws it, so the check can fail."""
    code, modules = imported("validate", DECK)
    assert code == 0 and "deckcheck.cli.plain" in modules
    assert "rich.console" not in modules
    code, modules = imported("validate", DECK, env={"FORCE_COLOR": "1"})
    assert code == 0 and "rich.console" in modules


def test_a_text_deck_from_a_warm_cache_parses_no_toml_and_no_xml() -> None:
    """The game's definition and catalog come from the cache; TOML and XML readers are
    imported only by decks and overlays written in those formats."""
    deck = REPO / "examples" / "the-drake" / "standard-stack.txt"
    assert warmed("validate", deck) == 0
    code, packages = imported("validate", deck)
    assert code == 0 and "deckcheck" in packages
    assert not {"tomllib", "xml"} & packages
    code, packages = imported("validate", REPO / "examples" / "ren-dhark" / "terra-custom.txt")
    assert code == 0 and "tomllib" in packages  # its overlay is TOML: the check can fail


def test_the_collector_runs_during_the_command_and_its_objects_are_set_aside_at_exit() -> None:
    """The command runs with the cycle collector on (a long query still frees its cycles); at
    the end the entry point sets what the process holds aside (gc.freeze), out of the
    interpreter's last collection."""
    import subprocess

    probe = (
        "import atexit, gc, sys\n"
        "import deckcheck.commands.games as command\n"
        "from deckcheck.cli import main\n"
        "games = command.run\n"
        "def spy(request=command.EVERY_GAME):\n"
        "    print('collector', gc.isenabled(), file=sys.stderr)\n"
        "    return games(request)\n"
        "command.run = spy\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000, file=sys.stderr))\n"
        "sys.argv = ['deckcheck', 'games', '--json']\n"
        "main.main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "collector True" in done.stderr and "frozen True" in done.stderr


def test_a_validation_from_a_warm_cache_builds_no_game_file_validators() -> None:
    """The game-file models' validators (pydantic) are built only when a game.toml is read:
    a validation from the cache, variant overrides and seed-card rules included, builds none."""
    import subprocess

    deck = str(REPO / "examples" / "stccg-1e" / "legal-klingon.txt")
    probe = (
        "import sys\n"
        "from deckcheck.games import spec\n"
        "from deckcheck.cli import main\n"
        f"sys.argv = ['deckcheck', 'validate', {deck!r}]\n"
        "try:\n"
        "    main.main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "built = [n for n in dir(spec) if getattr(getattr(spec, n), '__pydantic_complete__', 0)]\n"
        "print('built', built, file=sys.stderr)\n"
    )
    assert warmed("validate", deck) == 0
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "built []" in done.stderr, done.stderr
