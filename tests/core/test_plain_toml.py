"""The plain-line TOML reader gives what tomllib gives, or leaves the document to tomllib."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from deckcheck.core.tomlfile import parse_toml, plain_toml

ROOT = Path(__file__).resolve().parents[2]
STCCG = ROOT / "catalogs" / "stccg-1e" / "cards.toml"

PLAIN = [
    "",
    "# only a comment\n\n   \t\n",
    "a = -0\nb = 0\nc = 123456789012345678\nd = -7\ne = true\nf = false\n",
    'a = []\nb = ["x",]\nc = [ "x" , "y" ]\nd = ["",""]\n',
    "[t]\nk = 1\n[u]\n",
    "[[a]]\n[[a]]\nk = 1\n[[a]]\n[b]\nk = 2\n",
    'k = "tab\there"\nj = "q \\" back \\\\ end"\nl = ["\\"", "\\\\"]\n',
    'name = "Černá garda (5)"\n  indented = "x"  \n\t[[cards]]  \nid = "I/7"\n',
    "1 = 2\n_-x = 3\ntrue = false\n",
]

NOT_PLAIN = [
    "a = 1\na = 2\n",  # a key given twice
    "[a]\n[a]\n",
    "a = 1\n[a]\n",
    "[[a]]\n[a]\n",
    "[a]\n[[a]]\n",
    "a = [1]\n[[a]]\n",
    "a = 01\n",
    "a = +1\n",
    "a = 1.5\n",
    "a = 1_000\n",
    "a = 1234567890123456789\n",
    "a = true1\n",
    'a = "x" # a comment after a value\n',
    'a = "\\n"\n',
    "a = 'literal'\n",
    '"quoted" = 1\n',
    "a.b = 1\n",
    'a = """x"""\n',
    "a = 1\r\n",
    'a = "control \x01"\n',
    "# a control \x01 in a comment\n",
    "a = {b = 1}\n",
    'a = ["x"\n, "y"]\n',
    "\ufeffa = 1\n",
    "[ a ]\n",
    "[a.b]\n",
    "a = \n",
    "= 1\n",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_lines_read_as_tomllib_reads_them(text: str) -> None:
    assert plain_toml(text) == tomllib.loads(text)
    assert parse_toml(text, "t.toml") == tomllib.loads(text)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_any_other_document_is_left_to_tomllib(text: str) -> None:
    assert plain_toml(text) is None
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(Exception, match="is not valid TOML"):
            parse_toml(text, "t.toml")
    else:
        assert parse_toml(text, "t.toml") == expected


def test_the_stccg_catalog_is_plain_lines() -> None:
    """Its first 300 cards and every card with an escaped quote, against tomllib (the whole
    file through tomllib takes half a second; the lines are all of the same few shapes)."""
    head, *cards = STCCG.read_text(encoding="utf-8").split("\n[[cards]]\n")
    chosen = [card for i, card in enumerate(cards) if i < 300 or "\\" in card]
    assert len(chosen) > 300  # the escaped ones are there
    text = "\n[[cards]]\n".join([head, *chosen])
    assert plain_toml(text) == tomllib.loads(text)
    assert plain_toml(STCCG.read_text(encoding="utf-8")) is not None
