"""Parsing deck files: deckcheck text (and Lackey, its tab-separated cousin), TOML, JSON,
Lackey's ``.dek`` XML and gemp's stored deck.

The format is chosen by content, not only by extension: an XML ``<deck>`` is a ``.dek`` file,
one line of ``ZONE|ids|ZONE|ids`` is gemp's, a file whose first meaningful character is ``{``
is JSON, one with a ``[cards]`` table or ``key = value`` lines is TOML, anything else is text.
Lackey text files are text files with tab-separated counts and sections.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from deckcheck.catalog.load import too_many_overlays
from deckcheck.core.errors import DeckFormatError
from deckcheck.core.inputs import STDIN, decode_noted, read_bytes, source_label
from deckcheck.core.tomlfile import key_line, parse_toml
from deckcheck.decks.counts import MAX_COPIES_PER_LINE, parse_count
from deckcheck.decks.interchange import (
    looks_like_csv,
    looks_like_dek,
    looks_like_gemp,
    looks_like_stdeck,
    parse_csv,
    parse_dek,
    parse_gemp,
    parse_stdeck,
)
from deckcheck.decks.model import CategoryLine, DeckLine, DeckSource

HEADER_KEYS = frozenset(
    {
        "game",
        "variant",
        "name",
        "catalog",
        "author",
        "description",
        "format",
        "event",
        "date",
        "player",
    }
)
_HEADER = re.compile(r"^([A-Za-z][A-Za-z_-]*)\s*:\s*(\S.*)$")
CATEGORY_HEADER = "category"
_CATEGORY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_SECTION = re.compile(r"^([^:]+):$")
# "2 Name", "2x Name", "2 x Name", "2<TAB>Name"; an x belongs to the count only when it is
# glued to the digits or stands alone, so "2 Xepolite Freighter" keeps its X.
_COUNT_FIRST = re.compile(r"^(-?\d[\d_,]*)(?:[xX×]\s*|\s+[xX×]\s+|\s+)(\S.*)$")
_COUNT_LAST = re.compile(r"^(.+?)\s+[xX×]\s*(-?\d+)$")
_TRAILING_COMMENT = re.compile(r"\s+(#|//).*$")  # needs a space before it: "NOGK  # flagship"
_TOML_HINT = re.compile(r"^\s*(\[\s*cards\s*\]|\[\[\s*cards\s*\]\]|[A-Za-z_]+\s*=)", re.M)


def read_deck(path: str | Path) -> DeckSource:
    """Read and parse a deck file (or ``-`` for standard input)."""
    label = source_label(path)
    text, note = decode_noted(read_bytes(path), label)
    base = None if str(path) == STDIN else Path(path)
    source = parse_deck(text, label, base)
    return replace(source, notes=(note, *source.notes)) if note else source


def parse_deck(text: str, label: str, path: Path | None = None) -> DeckSource:
    """Parse deck text of any supported format (chosen by content and extension)."""
    stripped = text.lstrip("\ufeff \t\n")
    suffix = path.suffix.lower() if path else ""
    if looks_like_dek(text):
        return parse_dek(text, label, path)
    if looks_like_gemp(text):
        return parse_gemp(text, label, path)
    if suffix == ".csv" or looks_like_csv(text):
        return parse_csv(text, label, path)
    if stripped.startswith("{") or suffix == ".json":
        return _parse_json(text, label, path)
    if suffix == ".toml" or (_TOML_HINT.search(text) and not _looks_like_text_deck(text)):
        return _parse_toml(text, label, path)
    return _parse_text(text, label, path)


VARIANT_SYNONYMS = frozenset({"format"})
"""Header keys that mean ``variant``: players say "format" (``format: modern``)."""


def _header_key(written: str, headers: Mapping[str, str], label: str, line: int | None) -> str:
    """The header key a written one stands for (``format`` is ``variant``); a variant given
    twice under both names is refused."""
    key = written.lower()
    if key in VARIANT_SYNONYMS:
        key = "variant"
    if key == "variant" and key in headers:
        raise DeckFormatError(
            "the variant is given twice (variant: and format: mean the same); keep one",
            source=label,
            line=line,
        )
    return key


def _looks_like_text_deck(text: str) -> bool:
    """A text deck has count lines or header lines; TOML has ``=`` assignments."""
    for line in text.split("\n"):
        s = line.strip()
        if not s or s.startswith(("#", "//")):
            continue
        return "=" not in s or bool(_HEADER.match(s))
    return False


def _catalog_paths(value: Any, label: str, path: Path | None, line: int | None) -> tuple[Path, ...]:
    items = [value] if isinstance(value, str) else value
    if isinstance(items, list) and too_many_overlays(len(items)):
        raise DeckFormatError(str(too_many_overlays(len(items))), source=label, line=line)
    if not isinstance(items, list) or not all(isinstance(v, str) and v.strip() for v in items):
        raise DeckFormatError(
            "catalog must name a file (or a list of files)", source=label, line=line
        )
    base = path.parent if path else Path.cwd()
    return tuple(base / item.strip() for item in items)


def _parse_text(text: str, label: str, path: Path | None) -> DeckSource:
    headers: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    categories: list[CategoryLine] = []
    lines: list[DeckLine] = []
    section: str | None = None
    sections_seen = False
    table: _MarkdownTable | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        s = raw.strip().lstrip("\ufeff")
        if not s or s.startswith(("#", "//")):
            continue
        if "#" in s or "//" in s:
            s = _TRAILING_COMMENT.sub("", s)
        if s.startswith("|"):
            table = table or _MarkdownTable()
            row = table.row(s, raw, number, label, section)
            if row is not None:
                lines.append(row)
            continue
        table = None
        if section is None and all(line.header for line in lines):
            match = _HEADER.match(s)
            if match and match.group(1).lower() == CATEGORY_HEADER:
                categories.append(_category_header(match.group(2), label, number))
                continue
            if match and match.group(1).lower() in HEADER_KEYS:
                key = _header_key(match.group(1), headers, label, number)
                headers[key] = match.group(2).strip()
                header_lines[key] = number
                continue
            if match:
                # "title: Red rush": a setting of the game's variant (only the game can tell),
                # a card ("HQ: Secure Homeworld"), or else an unknown header (a note).
                setting = (match.group(1).lower(), match.group(2).strip())
                card = _card_line(s, raw, number, label, None)
                lines.append(replace(card, header=setting, doubt="header"))
                continue
        section_match = _SECTION.match(s)
        if section_match:
            section = section_match.group(1).strip()
            sections_seen = True
            continue
        lines.append(_card_line(s, raw, number, label, section))
    catalogs: tuple[Path, ...] = ()
    if "catalog" in headers:
        catalogs = _catalog_paths(
            [c for c in re.split(r"\s*[,;]\s*", headers["catalog"]) if c],
            label,
            path,
            header_lines["catalog"],
        )
    is_lackey = sections_seen and "\t" in text
    return DeckSource(
        label,
        path,
        "lackey" if is_lackey else "text",
        headers,
        tuple(lines),
        catalogs,
        header_lines,
        _unique_categories(categories, label),
    )


def _category_header(value: str, label: str, line: int) -> CategoryLine:
    """``category: NAME = member; member`` (members are names, ids or field:value)."""
    name, sep, rest = value.partition("=")
    members = [m.strip() for m in rest.split(";") if m.strip()]
    if not sep or not members:
        raise DeckFormatError(
            "a category header is 'category: NAME = card; card; field:value'",
            source=label,
            line=line,
        )
    return category_line(name.strip(), members, label, line)


def category_line(name: str, members: list[str], label: str, line: int | None) -> CategoryLine:
    """A checked category: a plain name (letters, digits, - and _) and at least one member."""
    if not _CATEGORY_NAME.match(name):
        raise DeckFormatError(
            f"category name {name!r} must start with a letter and hold only letters, digits, "
            "- and _",
            source=label,
            line=line,
        )
    if not members or not all(isinstance(m, str) and m.strip() for m in members):
        raise DeckFormatError(
            f"category {name!r} must list cards (names, ids or field:value)",
            source=label,
            line=line,
        )
    return CategoryLine(name, tuple(m.strip() for m in members), line)


def _unique_categories(found: list[CategoryLine], label: str) -> tuple[CategoryLine, ...]:
    names: set[str] = set()
    for cat in found:
        if cat.name.lower() in names:
            raise DeckFormatError(
                f"category {cat.name!r} is defined twice", source=label, line=cat.line
            )
        names.add(cat.name.lower())
    return tuple(found)


def _toml_categories(value: Any, text: str, label: str) -> tuple[CategoryLine, ...]:
    """``[categories]``: ``NAME = ["card", "field:value"]`` (or one text)."""
    start = next(
        (
            i
            for i, ln in enumerate(text.split("\n"), 1)
            if re.match(r"^\s*\[\s*categories\s*\]", ln)
        ),
        0,
    )
    if not isinstance(value, dict):
        raise DeckFormatError(
            'categories must be a table: NAME = ["card", "field:value"]',
            source=label,
            line=key_line(text, 0, "categories"),
        )
    found = []
    for name, members in value.items():
        line = key_line(text, start, name) if start else None
        items = [members] if isinstance(members, str) else members
        if not isinstance(items, list):
            raise DeckFormatError(
                f"category {name!r} must list cards (names, ids or field:value)",
                source=label,
                line=line,
            )
        found.append(category_line(name, items, label, line))
    return _unique_categories(found, label)


_BULLET = re.compile(r"^(?:[-*+•·▪►–]|\d{1,3}[.)])\s+(?=\S)")
_BRACKET_NOTE = re.compile(r"\s*(\[[^\[\]]*\]|\{[^{}]*\})$")
_PAREN_COUNT_FIRST = re.compile(r"^\((\d[\d_,]*)\)\s*(\S.*)$")
_PAREN_COUNT_LAST = re.compile(r"^(.+?)\s*\((\d[\d_,]*)\)$")
_URL = re.compile(r"https?://|www\.", re.I)
# A pasted list's title or by-line: "by SomeUser", a dash between words, "(posted 2024)".
_TITLE = re.compile(r"\bby\s+\S|\s[—–]\s|\((?:posted|updated|created)\b|\bdeck\s*$", re.I)
_SENTENCE_END = re.compile(r"[.!?…]$")
_COUNT_HEADINGS = frozenset({"count", "qty", "quantity", "copies", "#", "n", "x", "pocet", "počet"})
_NAME_HEADINGS = frozenset({"card", "name", "card name", "karta", "název", "nazev", "jméno"})


def _looks_like_prose(body: str) -> bool:
    """A sentence, not a card: a link, a long line of words, or several words ending like a
    sentence (a card whose name reads so is still found: such lines are only doubted)."""
    words = body.split()
    if _URL.search(body):
        return True
    return len(words) >= 10 or (len(words) >= 6 and bool(_SENTENCE_END.search(body)))


class _MarkdownTable:
    """Rows of a pasted Markdown table: the count, card (or id) and zone columns found from its
    heading row (deckcheck's own "| Count | Card | Id | Type |"), else the first number and the
    first text."""

    def __init__(self) -> None:
        self.count_col: int | None = None
        self.name_col: int | None = None
        self.id_col: int | None = None
        self.zone_col: int | None = None
        self.heading_seen = False
        self.heading: list[str] = []

    def row(
        self, s: str, raw: str, number: int, label: str, section: str | None
    ) -> DeckLine | None:
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s.strip("|"))]
        if all(re.fullmatch(r":?-{2,}:?", c) or not c for c in cells):
            return None  # the |---|---| line under the heading
        folded = [c.casefold() for c in cells]
        if self.heading_seen and folded == self.heading:
            return None  # the same heading again: a table per section (### Ship) in one list
        if not self.heading_seen and any(c in _NAME_HEADINGS | {"id"} for c in folded):
            self.heading_seen = True
            self.heading = folded
            find = lambda names: next((i for i, c in enumerate(folded) if c in names), None)  # noqa: E731
            self.name_col, self.id_col = find(_NAME_HEADINGS), find({"id"})
            self.count_col, self.zone_col = find(_COUNT_HEADINGS), find({"zone"})
            return None
        self.heading_seen = True
        name_col, count_col = self.name_col, self.count_col
        if name_col is None and self.id_col is None:
            count_col = next((i for i, c in enumerate(cells) if re.fullmatch(r"\d+", c)), None)
            name_col = next((i for i, c in enumerate(cells) if c and i != count_col), None)

        def cell(at: int | None) -> str:
            return cells[at] if at is not None and at < len(cells) else ""

        name = cell(self.id_col) or cell(name_col)
        if not name:
            return None
        count = parse_count(cell(count_col), label, number) if cell(count_col) else 1
        return DeckLine(name, count, number, raw.strip(), cell(self.zone_col) or section)


def card_count_span(raw: str) -> tuple[int, int] | None:
    """Where a card line's count is written (start and end in ``raw``), read as
    :func:`_card_line` reads it; None when the line has no count (one copy)."""
    lead = len(raw) - len(raw.lstrip())
    s = _TRAILING_COMMENT.sub("", raw.strip())
    bullet = _BULLET.match(s)
    offset = lead + (bullet.end() if bullet else 0)
    body = s[bullet.end() :] if bullet else s
    body = _BRACKET_NOTE.sub("", body).strip() or body
    for pattern, count_group in (
        (_COUNT_FIRST, 1),
        (_PAREN_COUNT_FIRST, 1),
        (_COUNT_LAST, 2),
        (_PAREN_COUNT_LAST, 2),
    ):
        match = pattern.match(body)
        if match:
            return offset + match.start(count_group), offset + match.end(count_group)
    return None


def _card_line(s: str, raw: str, number: int, label: str, section: str | None) -> DeckLine:
    """One card line, as written or pasted: bullets and list numbers, ``(2)``, ``2x``, ``x2``
    counts and trailing ``[notes]`` are read; a sentence is marked as doubtful prose."""
    bullet = _BULLET.match(s)
    body = s[bullet.end() :] if bullet else s
    if body.endswith(("]", "}")):
        body = _BRACKET_NOTE.sub("", body).strip() or body
    count, name = 1, body
    for pattern, count_group, name_group in (
        (_COUNT_FIRST, 1, 2),
        (_PAREN_COUNT_FIRST, 1, 2),
        (_COUNT_LAST, 2, 1),
        (_PAREN_COUNT_LAST, 2, 1),
    ):
        match = pattern.match(body)
        if match:
            count = parse_count(match.group(count_group), label, number)
            name = match.group(name_group).strip()
            break
    if not name:
        raise DeckFormatError(f"line {s!r} has a count but no card", source=label, line=number)
    doubt = None
    if name == body and _looks_like_prose(body):
        doubt = "prose"
    elif name == body and not bullet and _TITLE.search(body):
        doubt = "title"  # "Klingon Deck — by SomeUser (posted 2024)": a by-line, not a card
    return DeckLine(name, count, number, raw.strip(), section, None, doubt)


def _parse_toml(text: str, label: str, path: Path | None) -> DeckSource:
    data = parse_toml(text, label, DeckFormatError)
    cards = data.get("cards")
    if isinstance(cards, list) and cards and all(isinstance(c, str) for c in cards):
        raise DeckFormatError(
            "cards is a list of names; a TOML deck maps each card to its count in a [cards] "
            'table: [cards] then "' + cards[0].replace('"', "'") + '" = 1 (one line per card)',
            source=label,
            line=key_line(text, 0, "cards"),
        )
    if isinstance(data.get("catalog"), dict) or isinstance(cards, list):
        raise DeckFormatError(
            "is a catalog overlay ([catalog] and [[cards]]), not a deck: pass it with --catalog",
            source=label,
        )
    headers: dict[str, str] = {}
    for key in ("game", "variant", "format", "name", "author", "description"):
        if key in data:
            if not isinstance(data[key], str):
                raise DeckFormatError(
                    f"{key} must be a text, not {data[key]!r}",
                    source=label,
                    line=key_line(text, 0, key),
                )
            headers[_header_key(key, headers, label, key_line(text, 0, key))] = data[key]
    known = {*headers, "format", "catalog", "cards", "sequence", "categories", "zones"}
    unknown = [k for k in data if k not in known]
    if unknown:
        raise DeckFormatError(
            f"unknown key {unknown[0]!r} (a TOML deck has game, variant, name, catalog, "
            "a [cards] table and [zones.NAME] tables)",
            source=label,
            line=key_line(text, 0, unknown[0]),
        )
    catalogs: tuple[Path, ...] = ()
    if "catalog" in data:
        catalogs = _catalog_paths(data["catalog"], label, path, key_line(text, 0, "catalog"))
    categories = _toml_categories(data["categories"], text, label) if "categories" in data else ()
    if "sequence" in data and "cards" not in data:
        return DeckSource(
            label,
            path,
            "toml",
            headers,
            _toml_sequence(data["sequence"], text, label),
            catalogs,
            _toml_header_lines(text, headers),
            categories,
        )
    zones = data.get("zones", {})
    if not isinstance(cards, dict) and not (isinstance(zones, dict) and zones):
        raise DeckFormatError(
            'a TOML deck needs a [cards] table: "Card name" = count', source=label
        )
    if not isinstance(zones, dict) or not all(isinstance(t, dict) for t in zones.values()):
        raise DeckFormatError(
            'zones holds one table per zone: [zones."Seed+Dil"] then "Card name" = count',
            source=label,
            line=key_line(text, 0, "zones"),
        )
    tables: list[tuple[str | None, dict[str, Any], int | None]] = []
    if isinstance(cards, dict):
        tables.append((None, cards, _table_line(text, r"cards")))
    for zone, table in zones.items():
        tables.append((zone, table, _table_line(text, r"zones\s*\.\s*[\"']?" + re.escape(zone))))
    lines: list[DeckLine] = []
    problems: list[tuple[str, int | None]] = []
    for zone, table, start in tables:
        for name, value in table.items():
            number = key_line(text, start, name) if start else None
            if isinstance(value, bool) or not isinstance(value, int):
                problems.append(
                    (f"the count of {name!r} must be a whole number, not {value!r}", number)
                )
                continue
            try:
                count = parse_count(str(value), label, number)
            except DeckFormatError as exc:
                problems.append((exc.message, number))
                continue
            lines.append(DeckLine(name, count, number, f"{name} = {value}", zone))
    if problems:
        message, number = problems[0]
        raise DeckFormatError(
            message if len(problems) == 1 else f"{len(problems)} bad counts",
            source=label,
            line=number if len(problems) == 1 else None,
            details=[] if len(problems) == 1 else [f"line {n}: {m}" for m, n in problems],
        )
    return DeckSource(
        label,
        path,
        "toml",
        headers,
        tuple(lines),
        catalogs,
        _toml_header_lines(text, headers),
        categories,
    )


def _table_line(text: str, header: str) -> int | None:
    """The line of a ``[header]`` table (a regular expression for its name)."""
    pattern = re.compile(r"^\s*\[\s*" + header + r"[\"']?\s*\]")
    return next((i for i, ln in enumerate(text.split("\n"), 1) if pattern.match(ln)), None)


def _toml_header_lines(text: str, headers: dict[str, str]) -> dict[str, int]:
    found = {key: key_line(text, 0, key) for key in (*headers, "catalog")}
    return {key: line for key, line in found.items() if line}


def _toml_sequence(items: Any, text: str, label: str) -> tuple[DeckLine, ...]:
    """``sequence = ["Drake", "Clubman", …]``: one entry per copy, in order (a stack)."""
    line = key_line(text, 0, "sequence")
    if not isinstance(items, list) or not all(isinstance(i, str) and i.strip() for i in items):
        raise DeckFormatError(
            "sequence must be a list of card names or ids", source=label, line=line
        )
    if len(items) > MAX_COPIES_PER_LINE:
        raise DeckFormatError(
            f"sequence holds more than {MAX_COPIES_PER_LINE:,} cards", source=label, line=line
        )
    return tuple(DeckLine(i.strip(), 1, line, i) for i in items)


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different (json keeps the last of a repeated key
    silently, so a deck would lose what the first one said)."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _RepeatedKey(key)
        seen[key] = value
    return seen


def _second_line(text: str, key: str) -> int | None:
    """The line of ``key``'s second appearance as a JSON key."""
    found = list(re.finditer(re.escape(json.dumps(key, ensure_ascii=False)) + r"\s*:", text))
    return text.count("\n", 0, found[1].start()) + 1 if len(found) > 1 else None


def _parse_json(text: str, label: str, path: Path | None) -> DeckSource:
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except _RepeatedKey as exc:
        raise DeckFormatError(
            f"key {exc.key!r} is given twice in one object; keep one",
            source=label,
            line=_second_line(text, exc.key),
        ) from None
    except RecursionError:
        raise DeckFormatError("is nested too deeply to be a deck", source=label) from None
    except json.JSONDecodeError as exc:
        raise DeckFormatError(
            f"is not valid JSON: {exc.msg}", source=label, line=exc.lineno
        ) from None
    except ValueError:
        # json's own refusal of a number of more than 4,300 digits (no count is that long)
        raise DeckFormatError("holds a number too long to be a count", source=label) from None
    if looks_like_stdeck(data):
        return parse_stdeck(data, label, path)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise DeckFormatError(
            'a JSON deck is an object with "cards": [{"count": N, "id": …, "name": …}]',
            source=label,
        )
    headers = {k: data[k] for k in ("game", "variant", "name") if isinstance(data.get(k), str)}
    lines: list[DeckLine] = []
    for index, item in enumerate(data["cards"], start=1):
        if not isinstance(item, dict):
            raise DeckFormatError(f"card {index} is not an object", source=label)
        # The other face of a two-sided card is named by its face's name, not the card's id.
        ref = (item.get("name") or item.get("id")) if item.get("face") else None
        ref = ref or item.get("id") or item.get("name")
        count = item.get("count", 1)
        if not isinstance(ref, str) or isinstance(count, bool) or not isinstance(count, int):
            raise DeckFormatError(
                f'card {index} needs "id" or "name" (text) and a whole "count"', source=label
            )
        count = parse_count(str(count), label, None)
        zone = item.get("zone", item.get("section"))
        section = zone if isinstance(zone, str) else None
        lines.append(DeckLine(ref, count, None, f"card {index}: {ref}", section))
    catalogs: tuple[Path, ...] = ()
    if "catalog" in data:
        catalogs = _catalog_paths(data["catalog"], label, path, None)
    categories: tuple[CategoryLine, ...] = ()
    if "categories" in data:
        raw = data["categories"]
        if not isinstance(raw, dict):
            raise DeckFormatError(
                'categories must be an object: {"NAME": ["card", "field:value"]}', source=label
            )
        categories = _unique_categories(
            [
                category_line(
                    str(name), [members] if isinstance(members, str) else members, label, None
                )
                if isinstance(members, str | list)
                else category_line(str(name), [], label, None)
                for name, members in raw.items()
            ],
            label,
        )
    return DeckSource(label, path, "json", headers, tuple(lines), catalogs, {}, categories)
