"""``catalog check`` tells an overlay that changes something from a template not filled in."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli


def test_an_unfilled_template_is_not_ok_with_cards_changed(tmp_path: Path) -> None:
    template = run_cli(["catalog", "template", "ren-dhark", "--field", "resource_points"])
    overlay = tmp_path / "pts.toml"
    overlay.write_text(template.stdout, encoding="utf-8")
    result = run_cli(["catalog", "check", overlay], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "changed" not in result.stdout and "not filled in" in result.stdout
    filled = template.stdout.replace("# resource_points = 0", "resource_points = 5", 1)
    overlay.write_text(filled, encoding="utf-8")
    result = run_cli(["catalog", "check", overlay], env={"COLUMNS": "200"})
    assert "ok: " in result.stdout and "1 card changed" in result.stdout
    assert "not filled in yet" in result.stdout


def test_check_json_counts_unfilled_entries(tmp_path: Path) -> None:
    template = run_cli(["catalog", "template", "ren-dhark", "--field", "resource_points"])
    overlay = tmp_path / "pts.toml"
    overlay.write_text(template.stdout, encoding="utf-8")
    from deckcheck import api

    data = api.catalog_check(str(overlay)).to_json()
    assert data["changed"] == 0 and data["unfilled"] > 0
    assert json.dumps(data)


def test_catalog_check_counts_problems_in_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    overlay = tmp_path / "bad.toml"
    overlay.write_text('[[cards]]\nname = "My Ship"\n', encoding="utf-8")
    result = run_cli(["catalog", "check", str(overlay)])
    assert result.exit_code == 2 and "bad.toml: 1 problem\n" in result.stderr, result.stderr
