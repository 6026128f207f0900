"""Editing a deck file in place: add or remove copies of cards, keeping everything else.

The file keeps its format (deckcheck text, Lackey text, Lackey ``.dek``, TOML, JSON), its
encoding, comments, order, zones and line ends: only the lines of the cards that change are
touched (a count rewritten, a line added next to cards of the same type, a line removed when
its count reaches 0). This module only turns old bytes into new bytes; writing them (atomically)
and checking the result is the caller's.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import escape, unescape

from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckFormatError, UsageError
from deckcheck.core.inputs import decode, refuse_nul, refuse_unreadable, surely_cp1250
from deckcheck.core.values import frozen
from deckcheck.decks.parse import card_count_span

Spelling = Callable[[Card], str]
"""How a new line names a card in this file's format (the plugin's name in a Lackey file)."""

EDITABLE = ("text", "lackey", "dek", "toml", "json")
"""The deck formats edited in place."""


@frozen
class Change:
    """Add (``delta`` > 0) or remove copies of a card in a zone of the game (None: the zone
    the card is in, else the first)."""

    card: Card
    delta: int
    zone: str | None = None


@frozen
class Held:
    """A card line of the file as it resolved: the card (None: it named none), its copies, its
    1-based line (a JSON deck: its element's number), zone, type and face."""

    card_id: str | None
    count: int
    line: int
    zone: str | None = None
    type_label: str = ""
    face: str | None = None


@frozen
class Encoded:
    """How a file's text was stored: its codec and byte-order mark."""

    codec: str
    bom: bytes = b""

    def encode(self, text: str) -> bytes:
        """The text as the file stored it."""
        return self.bom + text.encode(self.codec)


def decode_keeping(data: bytes, label: str) -> tuple[str, Encoded]:
    """The text of a deck file with its line ends as they are, and how to store it again
    (refused, as the reader refuses it, where it holds NUL bytes)."""
    text, encoded = _decoded_keeping(data, label)
    refuse_nul(text, label)
    return text, encoded


def _decoded_keeping(data: bytes, label: str) -> tuple[str, Encoded]:
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8"), Encoded("utf-8", codecs.BOM_UTF8)
    for bom, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom) :].decode(codec), Encoded(codec, bom)
    refuse_unreadable(data, label)  # the reader's own message for a file it cannot read
    try:
        return data.decode("utf-8"), Encoded("utf-8")
    except UnicodeDecodeError:
        czech = surely_cp1250(data)
        if czech is None:
            decode(data, label)  # raises the reader's message for these bytes
            raise DeckFormatError(
                "is not UTF-8 and its encoding cannot be told; re-save it as UTF-8", source=label
            ) from None
        return czech, Encoded("cp1250")


_LINE_END = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[tuple[str, str]]:
    """(line, its end) for each line, numbered as the deck reader numbers them."""
    out: list[tuple[str, str]] = []
    start = 0
    for match in _LINE_END.finditer(text):
        out.append((text[start : match.start()], match.group()))
        start = match.end()
    if start < len(text) or not out:
        out.append((text[start:], ""))
    return out


def _line_end(lines: Sequence[tuple[str, str]]) -> str:
    return next((end for _, end in lines if end), "\n")


# --- shared planning --------------------------------------------------------------------------


def _mine(entries: Sequence[Held], change: Change, first_zone: str | None) -> list[Held]:
    """The lines holding the changed card in the changed zone."""
    same = [e for e in entries if e.card_id == change.card.id and e.face is None]
    if change.zone is None:
        zones = {e.zone or first_zone for e in same}
        if len(zones) > 1:
            raise UsageError(
                f"{change.card.name} is in several zones ({', '.join(sorted(map(str, zones)))});"
                " say which with --zone"
            )
        return same
    return [e for e in same if (e.zone or first_zone) == change.zone]


def _new_counts(lines: Sequence[Held], delta: int, name: str) -> list[tuple[Held, int]]:
    """Each line's new count: an addition goes to the first line, a removal takes from the
    last lines first."""
    if delta > 0:
        return [(lines[0], lines[0].count + delta)]
    held = sum(e.count for e in lines)
    if held < -delta:
        raise UsageError(
            f"the deck holds {held} {name}"
            + ("" if held == 1 else " copies")
            + f"; cannot remove {-delta}"
        )
    left = -delta
    out = []
    for entry in reversed(lines):
        take = min(left, entry.count)
        if take:
            out.append((entry, entry.count - take))
        left -= take
    return out


# --- text and Lackey text ------------------------------------------------------------------------


def edit_text(
    text: str,
    entries: Sequence[Held],
    changes: Sequence[Change],
    zones: Sequence[str],
    spell: Spelling,
    lackey: bool,
) -> str:
    """A text deck with the changes made, line by line."""
    lines = split_lines(text)
    end = _line_end(lines)
    first = zones[0] if zones else None
    edits: dict[int, str | None] = {}  # 0-based line -> new text (None: removed)
    inserts: dict[int, list[str]] = {}  # after 0-based line (-1: at the top) -> new lines
    appended: list[str] = []
    for change in changes:
        mine = _mine(entries, change, first)
        if mine:
            for entry, count in _new_counts(mine, change.delta, change.card.name):
                index = (entry.line or 0) - 1
                edits[index] = None if count == 0 else recount(lines[index][0], count, lackey)
            continue
        if change.delta < 0:
            raise UsageError(f"the deck holds no {change.card.name}" + _in_zone(change))
        new = (
            f"{change.delta}\t{spell(change.card)}"
            if lackey
            else (f"{change.delta} {spell(change.card)}")
        )
        where = _insert_after(entries, change, first, lines, zones)
        if where is None:
            appended += [f"{change.zone}:", new]
        else:
            inserts.setdefault(where, []).append(new)
    return _reassembled(lines, edits, inserts, appended, end)


def _in_zone(change: Change) -> str:
    return f" in {change.zone}" if change.zone else ""


def recount(line: str, count: int, lackey: bool) -> str:
    """The line with its count replaced (a line without one gets one in front)."""
    span = card_count_span(line)
    if span is None:
        indent = line[: len(line) - len(line.lstrip())]
        return f"{indent}{count}{chr(9) if lackey else ' '}{line.lstrip()}"
    return line[: span[0]] + str(count) + line[span[1] :]


def _insert_after(
    entries: Sequence[Held],
    change: Change,
    first: str | None,
    lines: Sequence[tuple[str, str]],
    zones: Sequence[str],
) -> int | None:
    """The 0-based line a new card line goes after: the last card of its type in its zone, else
    the zone's last line; -1 for the top; None when the zone has no header yet."""
    zone = change.zone or first
    in_zone = [e for e in entries if (e.zone or first) == zone and e.line]
    same_type = [e for e in in_zone if e.type_label == change.card.type_label]
    if same_type or in_zone:
        return max(e.line or 0 for e in (same_type or in_zone)) - 1
    if zone is None or zone == first:
        headed = [i for i, (line, _) in enumerate(lines) if _is_section(line, zones)]
        if headed:
            # Before the first zone header, after the last line above it that is not blank.
            above = [i for i in range(headed[0]) if lines[i][0].strip()]
            return above[-1] if above else -1
        return len(lines) - 1 if lines[-1][0].strip() else _last_filled(lines)
    for i, (line, _) in enumerate(lines):
        if _is_section(line, [zone]):
            # Below the comment that describes the zone (`new` writes one under its header).
            while i + 1 < len(lines) and lines[i + 1][0].strip().startswith(("#", "//")):
                i += 1
            return i
    return None


def _last_filled(lines: Sequence[tuple[str, str]]) -> int:
    filled = [i for i, (line, _) in enumerate(lines) if line.strip()]
    return filled[-1] if filled else -1


def _is_section(line: str, zones: Sequence[str]) -> bool:
    s = line.strip()
    if not s.endswith(":") or s.startswith(("#", "//")):
        return False
    key = re.sub(r"[\W_]+", "", s[:-1]).casefold()
    return any(re.sub(r"[\W_]+", "", z).casefold() == key for z in zones)


def _replace_number(pattern: re.Pattern[str], text: str, count: int) -> str:
    """``text`` with the number ``pattern``'s last group matched replaced by ``count``."""
    match = pattern.search(text)
    if match is None:
        return text
    group = match.lastindex or 0
    return text[: match.start(group)] + str(count) + text[match.end(group) :]


# --- TOML -----------------------------------------------------------------------------------------

_TOML_COUNT = re.compile(r"(=\s*)(\d[\d_]*)")


def edit_toml(
    text: str,
    entries: Sequence[Held],
    changes: Sequence[Change],
    zones: Sequence[str],
    spell: Spelling | None = None,
) -> str:
    """A TOML deck with the changes made: a key's count rewritten, a key added to its table
    (named by ``spell``: the name that reads back to the card, its id where several cards
    share the name; else its name), or removed."""
    lines = split_lines(text)
    end = _line_end(lines)
    first = zones[0] if zones else None
    edits: dict[int, str | None] = {}
    inserts: dict[int, list[str]] = {}
    appended: list[str] = []
    for change in changes:
        mine = _mine(entries, change, first)
        if mine:
            for entry, count in _new_counts(mine, change.delta, change.card.name):
                index = (entry.line or 0) - 1
                line = lines[index][0]
                if not _TOML_COUNT.search(line):
                    raise DeckFormatError(
                        "the card's count is not on its key's line; edit it by hand",
                        line=entry.line,
                    )
                edits[index] = None if count == 0 else _replace_number(_TOML_COUNT, line, count)
            continue
        if change.delta < 0:
            raise UsageError(f"the deck holds no {change.card.name}" + _in_zone(change))
        key = spell(change.card) if spell is not None else change.card.name
        new = f"{json.dumps(key, ensure_ascii=False)} = {change.delta}"
        table = None if change.zone in (None, first) else change.zone
        header = _toml_table(lines, table)
        if header is None:
            name = "cards" if table is None else f"zones.{json.dumps(table, ensure_ascii=False)}"
            appended += ["", f"[{name}]", new]
            continue
        keys = [e.line - 1 for e in entries if e.line and (e.zone or first) == (table or first)]
        inserts.setdefault(max([header, *keys]), []).append(new)
    return _reassembled(lines, edits, inserts, appended, end)


def _toml_table(lines: Sequence[tuple[str, str]], zone: str | None) -> int | None:
    """The 0-based line of ``[cards]`` (zone None) or ``[zones."ZONE"]``."""
    if zone is None:
        pattern = re.compile(r"^\s*\[\s*cards\s*\]")
    else:
        pattern = re.compile(r"^\s*\[\s*zones\s*\.\s*[\"']?" + re.escape(zone) + r"[\"']?\s*\]")
    return next((i for i, (line, _) in enumerate(lines) if pattern.match(line)), None)


# --- JSON -----------------------------------------------------------------------------------------


def _skip_string(text: str, i: int) -> int:
    """The index after the JSON string starting at ``i`` (a quote)."""
    i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    raise DeckFormatError("is not valid JSON (a string never ends)")


def _value_end(text: str, i: int) -> int:
    """The index after the JSON value starting at ``i``."""
    if text[i] == '"':
        return _skip_string(text, i)
    if text[i] in "[{":
        depth = 0
        while i < len(text):
            ch = text[i]
            if ch == '"':
                i = _skip_string(text, i)
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise DeckFormatError("is not valid JSON (a bracket never closes)")
    match = re.compile(r"[^,\]}\s]+").match(text, i)
    return match.end() if match else i + 1


def _cards_array(text: str) -> tuple[int, int, list[tuple[int, int]]]:
    """(start of the ``cards`` array, its end, each element's span) in a JSON deck."""
    i = text.index("{")
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            end = _skip_string(text, i)
            key = text[i:end]
            j = end
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if depth == 1 and j < len(text) and text[j] == ":" and json.loads(key) == "cards":
                j += 1
                while text[j] in " \t\r\n":
                    j += 1
                start, stop = j, _value_end(text, j)
                return start, stop, _elements(text, start, stop)
            i = end
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        i += 1
    raise DeckFormatError('a JSON deck needs "cards"')


def _elements(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    spans = []
    i = start + 1
    while i < stop - 1:
        if text[i] in " \t\r\n,":
            i += 1
            continue
        end = _value_end(text, i)
        spans.append((i, end))
        i = end
    return spans


_JSON_COUNT = re.compile(r'(?<!\\)"count"\s*:\s*(\d+)')


def edit_json(
    text: str, entries: Sequence[Held], changes: Sequence[Change], zones: Sequence[str]
) -> str:
    """A JSON deck with the changes made: an element's count rewritten, an element added after
    the last of its zone, or removed."""
    first = zones[0] if zones else None
    # The JSON reader numbers no lines: its entries are in element order, one per element.
    start, stop, spans = _cards_array(text)
    if len(entries) != len(spans):
        raise DeckFormatError("its cards could not be matched to the file; edit it by hand")
    replaced: dict[int, str | None] = {}
    added: dict[int, list[str]] = {}  # after element index
    indexed = list(entries)
    for change in changes:
        mine = _mine(indexed, change, first)
        if mine:
            for entry, count in _new_counts(mine, change.delta, change.card.name):
                n = (entry.line or 0) - 1
                a, b = spans[n]
                element = text[a:b]
                if count == 0:
                    replaced[n] = None
                elif _JSON_COUNT.search(element):
                    replaced[n] = _replace_number(_JSON_COUNT, element, count)
                else:
                    replaced[n] = element.replace("{", '{"count": ' + str(count) + ", ", 1)
            continue
        if change.delta < 0:
            raise UsageError(f"the deck holds no {change.card.name}" + _in_zone(change))
        item: dict[str, object] = {
            "count": change.delta,
            "id": change.card.id,
            "name": change.card.name,
            "type": change.card.type_label,
        }
        if change.zone not in (None, first):
            item["zone"] = change.zone
        same = [n for n, e in enumerate(indexed) if (e.zone or first) == (change.zone or first)]
        after = same[-1] if same else len(spans) - 1
        added.setdefault(after, []).append(_json_like(text, spans, after, item))
    return _rebuild_json(text, start, stop, spans, replaced, added)


def _json_like(text: str, spans: Sequence[tuple[int, int]], after: int, item: object) -> str:
    """A new element written like its neighbour (one line, or indented over several)."""
    if spans:
        a, b = spans[max(after, 0)]
        neighbour = text[a:b]
        if "\n" in neighbour:
            indent = text[text.rfind("\n", 0, a) + 1 : a]
            inner = re.match(r"\{\s*\n([ \t]*)", neighbour)
            step = len(inner.group(1)) - len(indent) if inner else 2
            body = json.dumps(item, indent=max(step, 1), ensure_ascii=False)
            return body.replace("\n", "\n" + indent)
    return json.dumps(item, ensure_ascii=False)


def _rebuild_json(
    text: str,
    start: int,
    stop: int,
    spans: Sequence[tuple[int, int]],
    replaced: dict[int, str | None],
    added: dict[int, list[str]],
) -> str:
    kept: list[tuple[int, int, str]] = []  # (source start, source end, text)
    for n, (a, b) in enumerate(spans):
        new = replaced.get(n, text[a:b])
        if new is not None:
            kept.append((a, b, new))
        for extra in added.get(n, []):
            kept.append((b, b, extra))
    if not spans:
        inner = ", ".join(extra for extras in added.values() for extra in extras)
        return text[: start + 1] + inner + text[stop - 1 :]
    separator = _separator(text, spans)
    out = text[: spans[0][0]]
    for k, (_a, _b, new) in enumerate(kept):
        out += new
        if k < len(kept) - 1:
            out += separator
    return out + text[spans[-1][1] :]


def _separator(text: str, spans: Sequence[tuple[int, int]]) -> str:
    if len(spans) > 1:
        return text[spans[0][1] : spans[1][0]]
    # The only element: on a line of its own, the next goes on its own line indented alike;
    # after other text on its line ("cards": [{...}]), beside it.
    before = text[text.rfind("\n", 0, spans[0][0]) + 1 : spans[0][0]]
    return ",\n" + before if "\n" in text[: spans[0][0]] and not before.strip() else ", "


# --- Lackey .dek ------------------------------------------------------------------------------

_SUPERZONE = re.compile(r"<superzone\b[^>]*\bname\s*=\s*(['\"])(.*?)\1", re.S)
_CARD_NAME = re.compile(r"<card>.*?<name\b[^>]*>(.*?)</name>.*?</card>", re.S)


def edit_dek(
    text: str,
    entries: Sequence[Held],
    names: dict[tuple[str | None, str], str],
    changes: Sequence[Change],
    zones: Sequence[str],
    card_line: Callable[[Card], str],
) -> str:
    """A ``.dek`` deck with the changes made: one ``<card>`` line per copy, copied after the
    card's last line, or removed from the last."""
    lines = split_lines(text)
    end = _line_end(lines)
    first = zones[0] if zones else None
    zone_of_line: list[str | None] = []
    card_of_line: list[str | None] = []
    zone: str | None = None
    for line, _ in lines:
        opened = _SUPERZONE.search(line)
        if opened:
            zone = opened.group(2).strip()
        cards = _CARD_NAME.findall(line)
        if len(cards) > 1:
            raise DeckFormatError(
                "holds several <card> elements on one line; deckcheck edits .dek files with "
                "one card per line, as Lackey writes them"
            )
        zone_of_line.append(zone)
        card_of_line.append(names.get((zone, unescape(cards[0]).strip())) if cards else None)
        if "</superzone>" in line:
            zone = None
    removed: set[int] = set()
    inserts: dict[int, list[str]] = {}
    appended: list[str] = []
    for change in changes:
        want = change.zone or (
            next((e.zone or first for e in entries if e.card_id == change.card.id), first)
        )
        held = [
            i
            for i, card_id in enumerate(card_of_line)
            if card_id == change.card.id and _same_zone(zone_of_line[i], want, zones)
        ]
        if change.delta < 0:
            alive = [i for i in held if i not in removed]
            if len(alive) < -change.delta:
                raise UsageError(
                    f"the deck holds {len(alive)} {change.card.name}{_in_zone(change)}; "
                    f"cannot remove {-change.delta}"
                )
            removed.update(alive[change.delta :])
            continue
        if held:
            template = lines[held[-1]][0]
            inserts.setdefault(held[-1], []).extend([template] * change.delta)
            continue
        in_zone = [
            i for i, z in enumerate(zone_of_line) if card_of_line[i] and _same_zone(z, want, zones)
        ]
        indent = _indent(lines[in_zone[-1]][0]) if in_zone else "\t\t"
        element = indent + card_line(change.card)
        if in_zone:
            inserts.setdefault(in_zone[-1], []).extend([element] * change.delta)
            continue
        opened_at = next(
            (
                i
                for i, (line, _) in enumerate(lines)
                if (m := _SUPERZONE.search(line)) and _same_zone(m.group(2).strip(), want, zones)
            ),
            None,
        )
        if opened_at is not None:
            inserts.setdefault(opened_at, []).extend([element] * change.delta)
        else:
            appended += [
                f"\t<superzone name={json.dumps(want)}>",
                *[element] * change.delta,
                "\t</superzone>",
            ]
    out: list[str] = []
    for index, (line, line_end) in enumerate(lines):
        if appended and "</deck>" in line:
            out += [a + end for a in appended]
            appended = []
        if index not in removed:
            out.append(line + line_end)
        out += [extra + end for extra in inserts.get(index, [])]
    if appended:
        raise DeckFormatError("has no </deck> to add a zone before")
    return "".join(out)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _same_zone(written: str | None, zone: str | None, zones: Sequence[str]) -> bool:
    if written is None or zone is None:
        return written == zone
    key = re.sub(r"[\W_]+", "", written).casefold()
    return key == re.sub(r"[\W_]+", "", zone).casefold()


def dek_card_line(name: str, image: str, release: str) -> str:
    """One ``<card>`` element as Lackey writes it."""
    return (
        f'<card><name id="{escape(image, {chr(34): "&quot;"})}">{escape(name)}</name>'
        f"<set>{escape(release)}</set></card>"
    )


def _reassembled(
    lines: Sequence[tuple[str, str]],
    edits: Mapping[int, str | None],
    inserts: Mapping[int, Sequence[str]],
    appended: Sequence[str],
    end: str,
) -> str:
    """The file again: each line as edited (None: dropped), new lines after the line they follow
    (index -1: before the first), ``appended`` at the end; every line keeps its own ending."""
    out: list[str] = [new + end for new in inserts.get(-1, [])]
    for index, (line, line_end) in enumerate(lines):
        edited = edits.get(index, line)
        added = inserts.get(index, [])
        if edited is not None:
            out.append(edited + (line_end or (end if added else "")))
        for new in added:
            out.append(new + (end if (line_end or index < len(lines) - 1) else ""))
    if appended:
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += end
        out += [line + end for line in appended]
    return "".join(out)


# --- overlays recorded in a deck's header ----------------------------------------------------


def with_overlays(
    text: str,
    fmt: str,
    named: str | None,
    header_lines: Mapping[str, int],
    overlays: Sequence[str],
) -> str:
    """The deck's text with catalog ``overlays`` (paths as the header writes them, relative to
    the file) named in its header after those it names: a text or Lackey file's ``catalog:``
    line (``named``: its value now, None: no such line), a TOML deck's ``catalog`` key. A
    format with no place for them (JSON, ``.dek``), or a TOML deck that names overlays
    already, is refused: nothing is written."""
    if any(re.search(r"[,;]", o) for o in overlays) and fmt != "toml":
        raise UsageError(
            "a catalog overlay's path holds ',' or ';', which a deck's catalog: line cannot "
            "name; rename the file"
        )
    lines = split_lines(text)
    end = _line_end(lines)
    if fmt in ("text", "lackey"):
        at = header_lines.get("catalog")
        if at is not None and named is not None:
            line = lines[at - 1][0]
            stop = line.index(named, line.index(":")) + len(named) if named else len(line)
            new = line[:stop] + (", " if named else " ") + ", ".join(overlays) + line[stop:]
            return _reassembled(lines, {at - 1: new}, {}, [], end)
        written = f"catalog: {', '.join(overlays)}"
        return _reassembled(lines, {}, {_header_end(lines, header_lines): [written]}, [], end)
    if fmt == "toml" and named is None:
        written = f"catalog = {json.dumps(list(overlays), ensure_ascii=False)}"
        return _reassembled(lines, {}, {_header_end(lines, header_lines): [written]}, [], end)
    what = {
        "toml": "a TOML deck that names overlays already",
        "json": "a JSON deck",
        "dek": "a .dek file",
    }.get(fmt, f"a {fmt} deck")
    raise UsageError(
        f"deckcheck cannot name a catalog overlay in {what}; add "
        f"{', '.join(repr(o) for o in overlays)} to its catalog by hand (nothing was changed)"
    )


def _header_end(lines: Sequence[tuple[str, str]], header_lines: Mapping[str, int]) -> int:
    """The 0-based line a new header line goes after: the file's last header line, else the
    last comment above its first other line (-1: the top)."""
    if header_lines:
        return max(header_lines.values()) - 1
    above = -1
    for i, (line, _) in enumerate(lines):
        s = line.strip()
        if s and not s.startswith(("#", "//")):
            break
        if s:
            above = i
    return above
