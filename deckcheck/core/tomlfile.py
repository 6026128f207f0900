"""TOML parsing with deckcheck's error messages (file and line) instead of tomllib's.

Before parsing, a document is checked against bounds that no deck or catalog comes near,
because tomllib's work grows with the square of a dotted key's parts (a 20,000-part key takes
tens of seconds and gigabytes): :data:`MAX_KEY_PARTS` parts per key and :data:`MAX_KEYS` keys.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from deckcheck.core.errors import DeckcheckError
from deckcheck.core.values import frozen

MAX_KEY_PARTS = 64
"""Parts of one dotted key (``a.b.c`` has 3): decks and catalogs use one or two."""
MAX_KEYS = 100_000
"""Keys in one document: every card of the largest bundled catalog, field by field, is half."""

_LINE = re.compile(r"at line (\d+)")


@lru_cache(maxsize=1)
def _tokens() -> re.Pattern[str]:
    """What matters for the bounds, outside strings and comments: a dot between key parts (not
    in a number: 1.5, 1_000.5) and an equals sign; strings and comments are matched to be
    skipped. Compiled when a document is first checked (a start from the cache checks none)."""
    return re.compile(
        r'"""(?:[^"\\]|\\.|"(?!""))*"""'
        r"|'''(?:[^']|'(?!''))*'''"
        r'|"(?:[^"\\\n]|\\.)*"'
        r"|'[^'\n]*'"
        r"|#[^\n]*"
        r"|(?P<dot>(?<![0-9_])\.|\.(?![0-9]))"
        r"|(?P<eq>=)"
        r"|(?P<nl>\n)",
        re.DOTALL,
    )


def parse_toml(
    text: str, label: str, error: type[DeckcheckError] = DeckcheckError
) -> dict[str, Any]:
    """Parse TOML text; a syntax error, or a document beyond the bounds, becomes ``error``
    naming the file and line."""
    import tomllib  # a start that finds every definition and catalog in the cache parses none

    check_bounds(text, label, error)
    plain = plain_toml(text)
    if plain is not None:
        return plain
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise error("is nested too deeply to be a deck or catalog", source=label) from None
    except tomllib.TOMLDecodeError as exc:
        found = _LINE.search(str(exc))
        message = _LINE.sub("", str(exc)).replace("(, column", "(column").strip()
        raise error(
            f"is not valid TOML: {message}",
            source=label,
            line=int(found.group(1)) if found else None,
        ) from None
    except ValueError:
        # tomllib's own refusal of a number of more than 4,300 digits
        raise error("holds a number too long to read (thousands of digits)", source=label) from None


_BASIC = r'"(?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\["\\])*"'
# Possessive runs (*+): a line that fails must fail in time linear in its length, not try every
# split of a run of blanks between two parts that may both be empty.
_PLAIN_LINE = re.compile(
    r"[ \t]*+(?:"
    r"(?P<key>[A-Za-z0-9_-]+)[ \t]*+=[ \t]*+(?:"
    rf"(?P<text>{_BASIC})"
    r"|(?P<int>-?(?:0|[1-9][0-9]{0,17}))"
    r"|(?P<bool>true|false)"
    rf"|\[(?P<list>[ \t]*+(?:{_BASIC}[ \t]*+,[ \t]*+)*(?:{_BASIC}[ \t]*+)?)\]"
    r")"
    r"|\[\[(?P<array>[A-Za-z0-9_-]+)\]\]"
    r"|\[(?P<table>[A-Za-z0-9_-]+)\]"
    r"|(?:#[^\x00-\x08\x0a-\x1f\x7f]*+)?"
    r")[ \t]*+"
)
_ITEM = re.compile(_BASIC)
_ESCAPE = re.compile(r'\\(["\\])')


def plain_toml(text: str) -> dict[str, Any] | None:
    """What :func:`tomllib.loads` gives for a document of plain lines only, read a line at a
    time; None for any other document (tomllib reads it).

    Plain lines: blank, a comment, ``[name]``, ``[[name]]`` and ``key = value`` with a bare
    key and a value that is a one-line text (no escapes but ``\\"`` and ``\\\\``), a whole
    number of at most 18 digits, true or false, or a one-line list of such texts; names never
    given twice. The bundled catalogs are written so (STCCG's 4,155 cards are 48,000 such
    lines, which tomllib's general reader takes four times longer over)."""
    if "\r" in text:
        return None
    root: dict[str, Any] = {}
    table = root
    arrays: set[str] = set()
    for line in text.split("\n"):
        found = _PLAIN_LINE.fullmatch(line)
        if found is None:
            return None
        key, text_value, number, flag, items, array, name = found.groups()
        if key is not None:
            if key in table:
                return None
            if text_value is not None:
                value: Any = _unescaped(text_value[1:-1])
            elif number is not None:
                value = int(number)
            elif flag is not None:
                value = flag == "true"
            else:
                value = [_unescaped(item[1:-1]) for item in _ITEM.findall(items)]
            table[key] = value
        elif array is not None:
            if array in root and array not in arrays:
                return None
            arrays.add(array)
            table = {}
            root.setdefault(array, []).append(table)
        elif name is not None:
            if name in root:
                return None
            table = root[name] = {}
    return root


def _unescaped(text: str) -> str:
    return _ESCAPE.sub(r"\1", text) if "\\" in text else text


def check_bounds(text: str, label: str, error: type[DeckcheckError] = DeckcheckError) -> None:
    """Refuse, before parsing, a key of more than :data:`MAX_KEY_PARTS` parts or more than
    :data:`MAX_KEYS` keys. Linear in the text; a quick count settles ordinary files."""
    quick_parts = max((line.count(".") for line in text.split("\n")), default=0)
    if quick_parts < MAX_KEY_PARTS and text.count("=") <= MAX_KEYS:
        return
    keys = 0
    dots = 0
    line = 1
    for token in _tokens().finditer(text):
        kind = token.lastgroup
        if kind == "dot":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise error(
                    f"has a key of more than {MAX_KEY_PARTS} dotted parts; deckcheck reads "
                    f"keys of at most {MAX_KEY_PARTS} (a deck or catalog needs one or two)",
                    source=label,
                    line=line,
                )
        elif kind == "eq":
            keys += 1
            dots = 0
            if keys > MAX_KEYS:
                raise error(
                    f"holds more than {MAX_KEYS:,} keys; deckcheck reads at most {MAX_KEYS:,} "
                    "(is this the right file?)",
                    source=label,
                    line=line,
                )
        elif kind == "nl":
            line += 1
            dots = 0
        else:  # a string or comment: skipped, but count its lines
            line += token.group().count("\n")


def table_lines(text: str, array_name: str) -> list[int]:
    """1-based line numbers of each ``[[array_name]]`` header, in order."""
    header = re.compile(r"^\s*\[\[\s*" + re.escape(array_name) + r"\s*\]\]")
    return [i for i, line in enumerate(text.split("\n"), start=1) if header.match(line)]


_KEY = re.compile(r"""^\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")
_HEADER = re.compile(r"^\s*\[")


@frozen
class _KeyIndex:
    """Where each key is written: (line of its table's header, or 0, key) -> first line."""

    lines: int
    found: dict[tuple[int, str], int]
    headers: frozenset[int]


@lru_cache(maxsize=4)
def _key_index(text: str) -> _KeyIndex:
    """One pass over the text, shared by every :func:`key_line` on it (a deck with thousands
    of keys must not be scanned once per key)."""
    found: dict[tuple[int, str], int] = {}
    headers = {0}
    table = 0
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if _HEADER.match(line):
            table = number
            headers.add(number)
            continue
        match = _KEY.match(line)
        if match:
            key = next(g for g in match.groups() if g is not None)
            found.setdefault((table, key), number)
    return _KeyIndex(len(lines), found, frozenset(headers))


def key_line(text: str, start: int | None, key: str) -> int | None:
    """The line of ``key = …`` in the table that begins at line ``start`` (0: the top-level
    keys); ``start`` itself when the key is not found there, None when ``start`` is None."""
    if start is None:
        return None
    index = _key_index(text)
    if start in index.headers:
        return index.found.get((start, key), start)
    return _scan_key_line(text.split("\n"), start, key)


def _scan_key_line(lines: list[str], start: int, key: str) -> int:
    pattern = re.compile(r"""^\s*["']?""" + re.escape(key) + r"""["']?\s*=""")
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.lstrip().startswith("["):
            break
        if pattern.match(line):
            return number
    return start
