"""Output never hides what a user came for, at 60, 80 and 120 columns, piped or on a terminal,
with or without colour: the verdict, whole game and card ids, cards by name; and a terminal
that cannot show a character gets a stand-in, never a traceback."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli
from process_helpers import run_forked

from deckcheck.cli import render
from deckcheck.games.registry import all_games

WIDTHS = (60, 80, 120)
MODES = ("piped", "terminal", "terminal-no-color")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

RD = EXAMPLES / "ren-dhark"


@pytest.fixture(params=[(w, m) for w in WIDTHS for m in MODES], ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """deckcheck's consoles as a terminal of this width (or a pipe) would set them up."""
    width, mode = request.param
    monkeypatch.setenv("COLUMNS", str(width))
    if mode != "piped":
        monkeypatch.setenv("FORCE_COLOR", "1")  # rich: behave as on a terminal
    if mode == "terminal-no-color":
        monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(render, "out", render.make_console())
    monkeypatch.setattr(render, "err", render.make_console(stderr=True))
    yield width


def shown(args: list[str | Path]) -> tuple[int, str]:
    """Exit code and what a person sees (standard output and error, colour codes removed)."""
    result = run_cli(args)
    return result.exit_code, _ANSI.sub("", result.stdout + result.stderr)


def laid_out(args: list[str | Path]) -> str:
    """Standard output alone, colour codes removed (error messages are left unwrapped, for
    the terminal to wrap: a path broken in two cannot be copied)."""
    return _ANSI.sub("", run_cli(args).stdout)


def words(text: str) -> set[str]:
    return set(re.split(r"[\s,│|]+", text))


def test_the_verdict_is_always_in_view(screen: int, tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-rather-long-name-" * 4) / "and-another-one"
    deep.mkdir(parents=True)
    (deep / "resource-points.toml").write_bytes((RD / "resource-points.toml").read_bytes())
    illegal = deep / "my-deck-with-everything-wrong-in-it.txt"
    illegal.write_bytes((RD / "illegal-mixed.txt").read_bytes())
    unreadable = deep / "unreadable.txt"
    unreadable.write_bytes(b"\xff\xfe\x00garbage")
    code, text = shown(
        ["validate", illegal, RD / "terra-custom.txt", RD / "terra-unverified.txt", unreadable]
    )
    assert code == 2
    for verdict in ("ILLEGAL", "LEGAL", "UNVERIFIED"):
        assert verdict in words(text), text
    assert "error:" in text
    layout = laid_out(["validate", illegal])
    assert all(len(line) <= screen for line in layout.splitlines()), layout
    inside = [line.strip("│|").strip() for line in layout.splitlines()]
    # the path shortened from the left on one line, its file name whole
    assert any(line.startswith("…/") and line.endswith("/" + illegal.name) for line in inside), (
        layout
    )


def test_game_and_pile_ids_are_never_cut(screen: int) -> None:
    code, text = shown(["games"])
    assert code == 0
    listed = words(text)
    for game in all_games().values():
        assert game.id in listed, text
        for pile in game.spec.piles:
            assert f"{game.id}:{pile}" in listed, text
    assert "…" not in text


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "dorn"],
        ["cards", "planetary-conquerors", "-c", EXAMPLES / "planetary-conquerors/example-set.toml"],
        ["cards", "stccg-1e", "Enterprise"],
    ],
    ids=["dorn", "planetary-conquerors", "stccg-1e"],
)
def test_card_ids_are_never_cut(screen: int, args: list[str | Path]) -> None:
    code, text = shown(args)
    assert code == 0
    data = run_cli([*args, "--json"]).stdout
    listed = words(text)
    for card in json.loads(data):
        assert card["id"] in listed, card["id"]
    assert "…" not in text


def test_findings_name_cards_by_name(screen: int) -> None:
    code, text = shown(["validate", EXAMPLES / "dorn" / "illegal-monster-in-party.txt"])
    assert code == 1
    assert "Giant Rat" in text and "monster/giant-rat" not in text


def test_a_name_several_cards_share_comes_with_its_id(tmp_path: Path) -> None:
    (tmp_path / "resource-points.toml").write_bytes((RD / "resource-points.toml").read_bytes())
    deck = tmp_path / "shared.txt"
    # Two more of I/9 (three: one too many), with I/10 of the same name in the deck too.
    deck.write_text((RD / "terra-custom.txt").read_text(encoding="utf-8") + "2 I/9\n", "utf-8")
    result = run_cli(["validate", deck, "--json"])
    [copies] = [v for v in json.loads(result.stdout)["violations"] if v["code"] == "rd.copies"]
    assert copies["cards"] == ["I/9"]  # JSON keeps ids
    text = " ".join(run_cli(["validate", deck]).stdout.split())
    assert "Vesmírný sbor (I/9)" in text, text


def test_hands_name_cards_and_tell_apart_shared_names() -> None:
    data = json.loads(
        run_cli(["hand", RD / "terra-custom.txt", "--count", "40", "--seed", "1", "--json"]).stdout
    )
    text = run_cli(["hand", RD / "terra-custom.txt", "--count", "40", "--seed", "1"]).stdout
    assert "I/25" not in text.replace("(I/25)", "")  # ids only beside a shared name
    dealt = {card for h in data["hands"] for card in h["kept"]}
    assert {"I/9", "I/10"} & dealt  # Vesmírný sbor: two cards of one name in this deck
    assert "Vesmírný sbor (I/" in text


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["validate", RD / "illegal-mixed.txt", RD / "terra-unverified.txt"], 1),
        (["hand", RD / "terra-custom.txt", "--seed", "1"], 0),
    ],
    ids=["validate", "hand"],
)
def test_a_terminal_that_cannot_show_a_character(args: list[str | Path], code: int) -> None:
    """Czech names on a cp1252 console: stand-ins, the exit code stays the verdict."""
    done = run_forked(args, env={"PYTHONIOENCODING": "cp1252"})
    assert done.code == code, done.text
    assert "Traceback" not in done.text


def test_json_and_exports_stay_exact_on_such_a_terminal() -> None:
    for args in (
        ["validate", RD / "illegal-mixed.txt", "--json"],
        ["export", RD / "terra-custom.txt", "--to", "text"],
    ):
        narrow = run_forked(args, env={"PYTHONIOENCODING": "cp1252"})
        wide = run_cli(args)
        assert "Traceback" not in narrow.text
        if "--json" in args:
            assert narrow.stdout.isascii()  # escaped: the same JSON for any reader
            assert json.loads(narrow.stdout) == json.loads(wide.stdout)
        else:
            assert narrow.stdout == wide.stdout  # a file's content: UTF-8 whatever the console
