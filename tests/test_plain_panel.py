"""A report's panel drawn without rich's console is, byte for byte, the panel rich draws.

Where rich would write plain text (no terminal, nothing making one), deckcheck draws the
validation panel itself (:mod:`deckcheck.cli.panel`, for start-up time). Every example deck
and every hostile file of ``tests/nasty`` is validated at several widths both ways:
``TTY_COMPATIBLE=0`` changes nothing for rich (still no terminal) but leaves the drawing to it.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import EXAMPLES, TESTS, invoke

from deckcheck.cli import panel, render

DECKS = sorted(EXAMPLES.glob("*/*.txt")) + sorted(
    p for p in (TESTS / "nasty").iterdir() if p.is_file()
)
WIDTHS = (20, 37, 58, 80, 99, 100, 132)


def _shown(monkeypatch: pytest.MonkeyPatch, width: int, by_rich: bool) -> tuple[int, str, str]:
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
def test_plain_panels_are_the_panels_rich_draws(
    monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    drawn: list[Any] = []
    draw = panel.plain_panel

    def counted(*args: Any) -> str:
        drawn.append(args)
        return draw(*args)

    monkeypatch.setattr(panel, "plain_panel", counted)
    plain = _shown(monkeypatch, width, by_rich=False)
    plainly = len(drawn)
    by_rich = _shown(monkeypatch, width, by_rich=True)
    assert len(drawn) == plainly  # rich drew every panel of the second run
    assert plain == by_rich
    assert plain[1].count("╭─") > 30
    # Findings are a table from 100 columns on, drawn by rich: there, only the legal decks.
    assert plainly > (10 if width >= render.WIDE else 30)


def test_without_rich_s_line_breaking_rich_draws_every_panel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``rich._wrap`` is not rich's documented interface: were it gone, nothing fails and the
    panels are rich's."""
    import sys

    expected = _shown(monkeypatch, 80, by_rich=True)
    monkeypatch.setitem(sys.modules, "rich._wrap", None)  # import fails, as for a moved module
    drawn: list[Any] = []
    monkeypatch.setattr(panel, "plain_panel", lambda *args: drawn.append(args) or "")
    assert _shown(monkeypatch, 80, by_rich=False) == expected
    assert drawn == []
