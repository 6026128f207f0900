"""Inputs whose cost grew with the square of their size: bounded before parsing, with a clear
message and exit code 2, and the per-key work made linear. Work is bounded by counts (lines of
Python run, parser calls), never by a stopwatch."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from conftest import lines_run, run_cli

from deckcheck.catalog.load import MAX_OVERLAYS
from deckcheck.core import tomlfile
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.tomlfile import MAX_KEY_PARTS, MAX_KEYS, check_bounds, key_line, parse_toml

REPO = Path(__file__).resolve().parents[2]
RD_DECK = REPO / "examples" / "ren-dhark" / "terra-custom.txt"
RD_OVERLAY = REPO / "examples" / "ren-dhark" / "resource-points.toml"


def refused(args: list[str | Path], *words: str) -> str:
    result = run_cli(args)
    assert result.exit_code == 2, result.output
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


@pytest.fixture
def no_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal must come before tomllib sees the large text (small game files may be
    parsed)."""
    real = tomllib.loads

    def parse(text: str) -> object:
        assert len(text) < 30_000, "tomllib was called on the large text"
        return real(text)

    monkeypatch.setattr(tomllib, "loads", parse)


# --- dotted keys -----------------------------------------------------------------------------


def test_deck_with_a_20000_part_key_refused_before_parsing(tmp_path: Path, no_parser: None) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "ren-dhark"\n[cards]\n' + "a." * 19_999 + "a = 1\n")
    refused(["validate", deck], f"{deck}:3:", "dotted parts")


def test_overlay_with_a_deep_dotted_key_refused(tmp_path: Path, no_parser: None) -> None:
    overlay = tmp_path / "overlay.toml"
    overlay.write_text('[catalog]\ngame = "ren-dhark"\n\n[[cards]]\nx' + ".x" * 20_000 + " = 1\n")
    refused(["catalog", "check", overlay], f"{overlay}:5:", "dotted parts")
    refused(["validate", RD_DECK, "--catalog", overlay], f"{overlay}:5:", "dotted parts")


def test_deep_key_inside_an_inline_table_refused() -> None:
    with pytest.raises(DeckcheckError, match="dotted parts") as caught:
        parse_toml("[cards]\nx = 1\ny = {" + "k." * 100 + "k = 1}\n", "t.toml")
    assert caught.value.line == 3


def test_key_parts_bound_is_exact() -> None:
    assert parse_toml(".".join(["a"] * MAX_KEY_PARTS) + " = 1\n", "t.toml")
    with pytest.raises(DeckcheckError, match="dotted parts"):
        parse_toml(".".join(["a"] * (MAX_KEY_PARTS + 1)) + " = 1\n", "t.toml")


@pytest.mark.parametrize(
    "text",
    [
        'name = "' + "." * 500 + '"\n',  # dots in a string
        "name = '" + "a." * 500 + "'\n",
        'note = """\n' + "." * 500 + "\n" + "x.y." * 200 + '\n"""\nafter = 1\n',  # multi-line
        "note = '''\n" + "." * 500 + "\n'''\n",
        "# " + "." * 500 + "\nx = 1\n",  # a comment
        "xs = [" + ", ".join(f"{i}.5" for i in range(500)) + "]\n",  # numbers
        "when = 1979-05-27T07:32:00.999999\nxs = [" + ", ".join(["1_000.5"] * 200) + "]\n",
    ],
)
def test_dots_outside_keys_are_not_key_parts(text: str) -> None:
    assert parse_toml(text, "t.toml") == tomllib.loads(text)


# --- key counts ------------------------------------------------------------------------------


def test_too_many_keys_refused_before_parsing(tmp_path: Path, no_parser: None) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(
        'game = "ren-dhark"\n[cards]\n' + "".join(f'"c{i}" = 1\n' for i in range(MAX_KEYS))
    )
    refused(["validate", deck], f"{deck}:{MAX_KEYS + 2}:", f"{MAX_KEYS:,} keys")


def test_equals_signs_in_strings_are_not_keys() -> None:
    text = 'x = "' + "=" * (MAX_KEYS + 5) + '"\n'
    check_bounds(text, "t.toml")  # no error


def test_deck_of_8000_card_keys_costs_linear_work(tmp_path: Path) -> None:
    """Every unknown key is located by line; locating them used to rescan the file per key."""
    deck = tmp_path / "deck.toml"

    def work(n: int) -> int:
        deck.write_text(
            'game = "ren-dhark"\n[cards]\n' + "".join(f'"Nope {i}" = 1\n' for i in range(n))
        )
        tomlfile._key_index.cache_clear()
        result, lines = lines_run(lambda: run_cli(["validate", deck]))
        assert result.exit_code == 2
        assert f"{deck}:3:" in result.stderr
        return lines

    small, large = work(1_000), work(8_000)
    assert large < 12 * small  # 8x the keys: linear work, with room for fixed costs


def test_key_line_finds_keys_in_their_table() -> None:
    text = 'a = 1\n[cards]\n"Card X" = 2\nplain = 3\n[other]\n"Card X" = 4\n'
    assert key_line(text, 0, "a") == 1
    assert key_line(text, 2, "Card X") == 3
    assert key_line(text, 2, "plain") == 4
    assert key_line(text, 5, "Card X") == 6
    assert key_line(text, 2, "missing") == 2
    assert key_line(text, None, "a") is None
    assert key_line(text, 3, "plain") == 4  # not a header: scanned as before


# --- overlays named again and again ----------------------------------------------------------


def test_header_naming_one_overlay_200000_times(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    names = ", ".join(["resource-points.toml"] * 200_000)
    deck.write_text(f"game: ren-dhark\nname: x\ncatalog: {names}\n1 I/25\n", encoding="utf-8")
    (tmp_path / "resource-points.toml").write_bytes(RD_OVERLAY.read_bytes())
    refused(["validate", deck], f"{deck}:3:", "200,000 catalog overlays", str(MAX_OVERLAYS))


def test_toml_deck_naming_too_many_overlays(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    names = ", ".join(['"o.toml"'] * (MAX_OVERLAYS + 1))
    deck.write_text(f'game = "ren-dhark"\ncatalog = [{names}]\n[cards]\n"I/25" = 1\n')
    refused(["validate", deck], f"{deck}:2:", "catalog overlays")


def test_too_many_overlays_on_the_command_line() -> None:
    args: list[str | Path] = ["validate", RD_DECK]
    for _ in range(MAX_OVERLAYS + 1):
        args += ["--catalog", RD_OVERLAY]
    refused(args, "catalog overlays")


def test_overlays_up_to_the_bound_still_work(tmp_path: Path) -> None:
    args: list[str | Path] = ["validate", RD_DECK]
    for _ in range(3):
        args += ["--catalog", RD_OVERLAY]
    assert run_cli(args).exit_code in (0, 1, 3)
