"""``--verbose --json`` still says on standard error what could not be read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import EXAMPLES, run_cli


def test_owned_json_verbose_names_an_unreadable_deck(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "stccg-1e" / "legal-klingon.txt", tmp_path / "klingon.txt")
    (tmp_path / "bad.txt").write_text("game: stccg-1e\n2 Nonexistent Card Zzz\n")
    collection = EXAMPLES / "my-collection.txt"
    for extra in ([], ["--verbose"]):
        result = run_cli(["owned", tmp_path, "--collection", collection, "--json", *extra])
        assert result.exit_code == 2
        json.loads(result.stdout)
        assert "Nonexistent Card Zzz" in result.stderr, extra
