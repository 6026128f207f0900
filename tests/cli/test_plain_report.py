"""A report written to a pipe is plain lines: no frame, no colour, no rich; what it says is
what rich's panel says on a terminal.

Every example deck and every hostile file of ``tests/hostile/nasty`` is validated at several widths
both ways: piped (plain lines) and with ``TTY_COMPATIBLE=0`` (rich's console, which then
still writes no colour, but draws the panel). Below the width from which findings are a
table (and from where rich would crop a title), the two hold the same characters in the same
order once the frame and the spaces are taken out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import EXAMPLES, TESTS, invoke

from deckcheck.cli import render
from deckcheck.commands import validate as validate_command
from deckcheck.decks.verdict import Validation
from deckcheck.games.context import NO_CONTEXT, Context

DECKS = sorted(EXAMPLES.glob("*/*.txt")) + sorted(
    p for p in (TESTS / "hostile" / "nasty").iterdir() if p.is_file()
)
# The narrowest (rich crops a panel's title), a narrow one and the usual 80: every width runs the
# same wrapping code, and each one renders every example and nasty deck twice.
WIDTHS = (20, 37, 80)
_FRAME = re.compile(r"[╭╮╰╯│─\s]")


_VALIDATED: list[tuple[tuple[str, ...], Context, Validation]] = []


def _validate_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command validates the decks once for all widths and both ways: what differs is how
    the same findings are written (validating is most of a run's cost, and is tested on its
    own in test_examples)."""
    validate_paths = validate_command.validate_paths

    def once(
        paths: Sequence[str | Path],
        context: Context = NO_CONTEXT,
        *,
        owned: str | Path | None = None,
    ) -> Validation:
        key = tuple(map(str, paths))
        for done, its_context, validation in _VALIDATED:
            if (done, its_context) == (key, context) and owned is None:
                return validation
        validation = validate_paths(paths, context, owned=owned)
        if owned is None:
            _VALIDATED.append((key, context, validation))
        return validation

    monkeypatch.setattr(validate_command, "validate_paths", once)


def _shown(monkeypatch: pytest.MonkeyPatch, width: int, by_rich: bool) -> tuple[int, str, str]:
    _validate_once(monkeypatch)
    monkeypatch.setenv("COLUMNS", str(width))
    if by_rich:
        monkeypatch.setenv("TTY_COMPATIBLE", "0")
    else:
        monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr(render, "out", render.make_console())
    monkeypatch.setattr(render, "err", render.make_console(stderr=True))
    result = invoke(["validate", *DECKS])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("width", WIDTHS)
def test_piped_reports_are_plain_lines_saying_what_the_panels_say(
    monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    code, plain, errors = _shown(monkeypatch, width, by_rich=False)
    rich_code, panels, rich_errors = _shown(monkeypatch, width, by_rich=True)
    assert (code, errors) == (rich_code, rich_errors)
    assert not re.search("[╭╮╰╯│]", plain)  # no frame
    assert "\x1b" not in plain  # no colour, and no escape from a file
    assert all(len(line) <= width for line in plain.splitlines()), plain
    if width > 20:  # narrower, rich crops a panel's title ("ILLEGAL (parti"); lines do not
        assert _FRAME.sub("", plain) == _FRAME.sub("", panels)
    for verdict in ("LEGAL", "ILLEGAL", "UNVERIFIED"):
        assert f"\n{verdict}\n" in f"\n{plain}"  # the verdict alone on a line


def test_a_report_for_a_terminal_is_rich_s_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(render, "out", render.make_console())
    result = invoke(["validate", EXAMPLES / "ren-dhark" / "terra-custom.txt"])
    assert result.exit_code == 0
    assert "╭─" in result.stdout and "╰" in result.stdout
