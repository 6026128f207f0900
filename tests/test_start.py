"""What a start imports: only what the command line asked for.

Each case runs ``python -X importtime -m deckcheck ...`` in a child process and reads the
modules it imported from the report (standard error). Nothing here measures time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import run_module

REPO = Path(__file__).resolve().parents[1]
DECK = REPO / "examples" / "ren-dhark" / "terra-custom.txt"
_IMPORTED = re.compile(r"^import time:\s*\d+ \|\s*\d+ \|\s*(\S+)$", re.MULTILINE)


def imported(*args: str | Path) -> tuple[int, set[str]]:
    """The exit code of ``deckcheck ARGS`` and the top-level packages it imported."""
    done = run_module(args, executable=(sys.executable, "-X", "importtime", "-m", "deckcheck"))
    return done.code, {name.split(".")[0] for name in _IMPORTED.findall(done.stderr)}


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


def test_an_answer_for_people_imports_rich() -> None:
    """The check above can fail: the panels are drawn with rich."""
    code, packages = imported("validate", DECK)
    assert code == 0 and "rich" in packages


def test_a_text_deck_from_a_warm_cache_parses_no_toml_and_no_xml() -> None:
    """The game's definition and catalog come from the cache; TOML and XML readers are
    imported only by decks and overlays written in those formats."""
    deck = REPO / "examples" / "the-drake" / "standard-stack.txt"
    assert imported("validate", deck)[0] == 0  # warms the cache
    code, packages = imported("validate", deck)
    assert code == 0 and "deckcheck" in packages
    assert not {"tomllib", "xml"} & packages
    code, packages = imported("validate", REPO / "examples" / "ren-dhark" / "terra-custom.txt")
    assert code == 0 and "tomllib" in packages  # its overlay is TOML: the check can fail
