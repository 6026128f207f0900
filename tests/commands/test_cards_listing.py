"""`cards` listings: every card listed, large catalogs printed as plain lines."""

from __future__ import annotations

from typing import Any

import pytest
import rich.table
from conftest import invoke


def test_whole_stccg_catalog_lists_every_card_as_plain_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rich table of thousands of rows takes seconds to lay out: a long listing is printed
    as plain aligned lines, no table at all."""
    tables: list[Any] = []

    class CountingTable(rich.table.Table):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            tables.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(rich.table, "Table", CountingTable)  # the renderer imports it when run
    result = invoke(["cards", "stccg-1e"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "4155 stccg-1e cards"
    assert lines[1].split()[:4] == ["id", "name", "type", "affiliation"]
    # one line per card; a long value wraps in its column on indented lines
    assert sum(1 for line in lines[2:] if not line.startswith((" ", "("))) == 4155
    assert tables == []
    invoke(["cards", "stccg-1e", "Kirk"])  # a short listing is a table (the counter works)
    assert len(tables) == 1


def test_listing_columns_come_from_game_toml() -> None:
    result = invoke(["cards", "ren-dhark", "type:action"])
    assert result.exit_code == 0
    assert "faction" in result.stdout and "colour" in result.stdout
    assert result.stdout.startswith("12 ren-dhark cards")
    assert result.stdout.count("action") >= 12  # both colours' six actions
