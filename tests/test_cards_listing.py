"""`cards` listings: every card listed, large catalogs printed fast as plain lines."""

from __future__ import annotations

import time

from typer.testing import CliRunner

from deckcheck.cli.app import app
from deckcheck.games.registry import get_game

runner = CliRunner()


def test_whole_stccg_catalog_lists_every_card_quickly() -> None:
    get_game("stccg-1e").bundled_catalog()  # parse (or load the cache) outside the timing
    start = time.perf_counter()
    result = runner.invoke(app, ["cards", "stccg-1e"])
    elapsed = time.perf_counter() - start
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "4155 stccg-1e cards"
    assert lines[1].split()[:4] == ["id", "name", "type", "affiliation"]
    assert len(lines) == 2 + 4155
    assert elapsed < 5.0, elapsed


def test_listing_columns_come_from_game_toml() -> None:
    result = runner.invoke(app, ["cards", "ren-dhark", "type:action"])
    assert result.exit_code == 0
    assert "faction" in result.stdout and "colour" in result.stdout
    assert result.stdout.startswith("12 ren-dhark cards")
    assert result.stdout.count("action") >= 12  # both colours' six actions
