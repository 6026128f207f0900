"""`fix --write` edits the deck file in place: comments, order and untouched lines stay."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import invoke

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_fix_write_keeps_comments_and_untouched_lines(tmp_path: Path) -> None:
    for name in ("illegal-mixed.txt", "resource-points.toml"):
        shutil.copy(EXAMPLES / "ren-dhark" / name, tmp_path / name)
    deck = tmp_path / "illegal-mixed.txt"
    before = deck.read_text(encoding="utf-8").splitlines()
    result = invoke(["fix", str(deck), "--write"])
    assert result.exit_code == 0, result.output
    after = deck.read_text(encoding="utf-8").splitlines()
    assert (tmp_path / "illegal-mixed.txt.bak").read_text(encoding="utf-8").splitlines() == before
    comments = [line for line in before if line.startswith("#")]
    assert comments and [line for line in after if line.startswith("#")] == comments
    # every line the fix did not touch is still there, in the same order
    kept = [line for line in before if line in after]
    assert kept == [line for line in after if line in before]
    assert len(kept) >= len(before) - 12
    assert invoke(["validate", str(deck)]).exit_code == 0
