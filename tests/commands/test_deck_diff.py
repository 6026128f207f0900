"""``diff`` of two files of the same name: the paths printed (shortened from the left) and told
apart as A and B, and a second deck that became illegal said so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

RD = EXAMPLES / "ren-dhark"


@pytest.mark.parametrize("columns", ["80", "120"])
def test_same_named_files_are_told_apart_and_illegal_said(tmp_path: Path, columns: str) -> None:
    later = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "v2"
    later.mkdir(parents=True)
    shutil.copy(RD / "resource-points.toml", later)
    deck = later / "terra-custom.txt"
    deck.write_text((RD / "terra-custom.txt").read_text("utf-8") + "3 NOGK\n", "utf-8")
    result = run_cli(["diff", RD / "terra-custom.txt", deck], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("A: ") and "ren-dhark/terra-custom.txt" in lines[0]
    assert lines[1].startswith("B: ") and lines[1].split()[1].endswith("/v2/terra-custom.txt")
    assert "B became illegal" in result.stdout and "rd.copies" in result.stdout
    assert all(len(line) <= int(columns) for line in lines), result.stdout
    data = json.loads(run_cli(["diff", RD / "terra-custom.txt", deck, "--json"]).stdout)
    assert (data["status_a"], data["status_b"]) == ("legal", "illegal")
    assert "rd.copies" in data["broken_b"]
