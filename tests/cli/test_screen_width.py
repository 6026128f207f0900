"""Every screen fits the terminal's width (80 and 120 columns), from a checkout or a deck whose
path is over 100 characters long: paths are shortened from the left (the file name, game and
variant kept whole, with an ellipsis), figures are never cut or wrapped inside a cell, labels
are never cut, long card lists wrap inside their columns."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck.cli import render

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(
    params=[(w, m) for w in (80, 120) for m in ("piped", "terminal")],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def width(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """deckcheck's consoles as a terminal (or a pipe) of this width sets them up."""
    columns, mode = request.param
    monkeypatch.setenv("COLUMNS", str(columns))
    if mode == "terminal":
        monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(render, "out", render.make_console())
    monkeypatch.setattr(render, "err", render.make_console(stderr=True))
    yield columns


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples under a folder whose path is well over 100 characters."""
    root = tmp_path_factory.mktemp("w") / ("a-rather-long-folder-name-" * 4) / "checkout"
    for game in ("ren-dhark", "planetary-conquerors", "stccg-1e"):
        shutil.copytree(EXAMPLES / game, root / game)
    assert len(str(root)) > 100
    return root


def screen(args: list[str | Path]) -> tuple[int, list[str]]:
    result = run_cli(args)
    return result.exit_code, _ANSI.sub("", result.stdout).splitlines()


def assert_fits(lines: list[str], width: int) -> None:
    from rich.cells import cell_len

    wide = [line for line in lines if cell_len(line) > width]
    assert not wide, "\n".join(wide)


def test_validate_keeps_the_file_name_whole(width: int, deep: Path) -> None:
    deck = deep / "ren-dhark" / "illegal-mixed.txt"
    code, lines = screen(["validate", deck, deep / "ren-dhark" / "terra-custom.txt"])
    assert code == 1
    assert_fits(lines, width)
    text = "\n".join(lines)
    assert "…/" in text and "ren-dhark/illegal-mixed.txt" in text
    assert "terra-custom.txt" in text


def test_odds_title_keeps_file_game(width: int, deep: Path) -> None:
    code, lines = screen(["odds", deep / "ren-dhark" / "terra-custom.txt", "type:ship>=2"])
    assert code == 0
    assert_fits(lines, width)
    assert "terra-custom.txt · ren-dhark" in lines[0] and "…" in lines[0]


def test_stats_title_keeps_file_game_and_variant(width: int, deep: Path) -> None:
    code, lines = screen(["stats", deep / "planetary-conquerors" / "legal-50.txt"])
    assert code == 0
    assert_fits(lines, width)
    assert "legal-50.txt · planetary-conquerors · variant standard" in lines[0]
    # a percentage stays on its line: no cell holds a lone "%"
    assert not [line for line in lines if re.search(r"(?<![\d.] )%", line)]
    assert any(">99.9 %" in line for line in lines)


def test_stccg_stats_labels_are_never_cut(width: int, deep: Path) -> None:
    code, lines = screen(["stats", deep / "stccg-1e" / "legal-klingon.txt"])
    assert code == 0
    assert_fits(lines, width)
    text = " ".join(" ".join(lines).split())
    assert "…" not in text.replace("…/", "")
    assert "seed card (one Outpost per affiliation)" in text or (
        "seed card (one Outpost" in text and "per affiliation)" in text
    )
    assert "mulligan" not in text  # STCCG has none


@pytest.mark.parametrize("search", ["type:ship", "Outpost"])
def test_stccg_card_lists_fit(width: int, search: str) -> None:
    code, lines = screen(["cards", "stccg", search])
    assert code == 0
    assert_fits(lines, width)
    assert any("101_105" in line or "I.K.S. Bortas" in line for line in lines)
