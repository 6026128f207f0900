"""Reading other programs' deck files: Lackey's ``.dek`` XML, gemp's stored deck, and a
spreadsheet's CSV (deckcheck's own CSV export among them).

Both keep a deck in zones (Lackey's superzones, gemp's sub-decks); the zone names are kept as
each line's section and mapped to the game's zones when the deck is resolved.

``.dek``::

    <deck version="0.8">
      <meta><game>…</game></meta>
      <superzone name="Deck">
        <card><name id="IMAGE">Card Name</name><set>SET</set></card>   (one per copy)
      </superzone>
    </deck>

gemp: one line ``ZONE|id,id,…|ZONE|id,…`` (blueprint ids, one per copy).

CSV: a heading row with a count column and an id or name column (``game,count,id,name,type``
as deckcheck writes it; ``,`` ``;`` or tab between cells); ``game``, ``variant``, ``zone`` and
``catalog`` (overlay files, relative to the CSV file) columns are read too.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deckcheck.core.errors import DeckFormatError
from deckcheck.core.inputs import MAX_INPUT_BYTES
from deckcheck.decks.counts import parse_count
from deckcheck.decks.model import DeckLine, DeckSource

MAX_XML_CARDS = 100_000
"""Most ``<card>`` elements read from one ``.dek`` file (a real deck holds under a hundred)."""

_GEMP = re.compile(r"^[A-Z][A-Z0-9_]*\|[^|\n]*(\|[A-Z][A-Z0-9_]*\|[^|\n]*)*\|?$")
_GEMP_ID = re.compile(r"^[A-Za-z0-9_.*-]+$")
_DTD = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.I)
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def looks_like_dek(text: str) -> bool:
    """An XML document whose root is ``<deck``."""
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<?xml"):
        body = body[body.find("?>") + 2 :].lstrip() if "?>" in body else body
    return body.startswith("<deck") or (body.startswith("<!") and "<deck" in body[:2000])


def looks_like_gemp(text: str) -> bool:
    """One line of ``ZONE|ids|ZONE|ids``."""
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines() if line.strip()]
    return len(lines) == 1 and bool(_GEMP.match(lines[0]))


class _DekReader:
    """An expat pass over a ``.dek`` file that refuses document type declarations (so no
    entity can expand) and keeps each card's line."""

    def __init__(self, label: str) -> None:
        from xml.parsers import expat  # only a .dek file needs it (start-up time)

        self.label = label
        self.parser = expat.ParserCreate()
        self.parser.StartDoctypeDeclHandler = self._refuse
        self.parser.EntityDeclHandler = self._refuse
        self.parser.ExternalEntityRefHandler = self._refuse_entity
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._text
        self.zone: str | None = None
        self.in_card = False
        self.name: list[str] | None = None
        self.card_name = ""
        self.card_line = 0
        self.cards: list[tuple[str | None, str, int]] = []
        self.root_seen = False
        self.open: list[str] = []  # the elements the parser is in
        self.game: list[str] | None = None  # <meta><game>: the Lackey plugin's name

    def _refuse(self, *_args: object) -> None:
        raise DeckFormatError(
            "holds a document type or entity declaration; deckcheck does not read those in "
            "deck files",
            source=self.label,
            line=self.parser.CurrentLineNumber,
        )

    def _refuse_entity(self, *_args: object) -> int:
        self._refuse()
        return 0

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        if not self.root_seen:
            self.root_seen = True
            if tag != "deck":
                raise DeckFormatError(
                    f"is XML but not a Lackey deck (its root is <{tag}>, not <deck>)",
                    source=self.label,
                )
        self.open.append(tag)
        if tag == "game" and self.open[-3:-1] == ["deck", "meta"]:
            self.game = []
        if tag == "superzone":
            self.zone = (attrs.get("name") or "").strip() or None
        elif tag == "card":
            self.in_card, self.card_name, self.card_line = True, "", self.parser.CurrentLineNumber
        elif tag == "name" and self.in_card:
            self.name = []

    def _end(self, tag: str) -> None:
        if self.open:
            self.open.pop()
        if tag == "name" and self.name is not None:
            self.card_name, self.name = "".join(self.name).strip(), None
        elif tag == "card" and self.in_card:
            self.in_card = False
            if not self.card_name:
                raise DeckFormatError(
                    "a <card> has no <name>", source=self.label, line=self.card_line
                )
            if len(self.cards) >= MAX_XML_CARDS:
                raise DeckFormatError(f"holds more than {MAX_XML_CARDS:,} cards", source=self.label)
            self.cards.append((self.zone, self.card_name, self.card_line))
        elif tag == "superzone":
            self.zone = None

    def _text(self, data: str) -> None:
        if self.name is not None:
            self.name.append(data)
        if self.game is not None and self.open[-1:] == ["game"]:
            self.game.append(data)


def parse_dek(text: str, label: str, path: Path | None = None) -> DeckSource:
    """A Lackey ``.dek`` deck: one line per card and zone, copies counted, in file order."""
    if _DTD.search(text):
        raise DeckFormatError(
            "holds a document type or entity declaration; deckcheck does not read those in "
            "deck files",
            source=label,
        )
    from xml.parsers import expat

    reader = _DekReader(label)
    # The text is decoded already: an encoding named in the XML declaration no longer applies.
    body = _DECLARATION.sub("", text.lstrip("\ufeff"), count=1)
    try:
        reader.parser.Parse(body, True)
    except expat.ExpatError as exc:
        raise DeckFormatError(
            f"is not well-formed XML: {expat.ErrorString(exc.code)}",
            source=label,
            line=exc.lineno,
        ) from None
    hint = "".join(reader.game or []).strip() or None
    return DeckSource(label, path, "dek", {}, _merged(reader.cards), game_hint=hint)


def _merged(cards: list[tuple[str | None, str, int]]) -> tuple[DeckLine, ...]:
    """One line per (zone, name), counting its copies, at the first copy's place."""
    counts: dict[tuple[str | None, str], list[int]] = {}
    for zone, name, line in cards:
        counts.setdefault((zone, name), [line, 0])[1] += 1
    return tuple(DeckLine(name, n, line, name, zone) for (zone, name), (line, n) in counts.items())


def parse_gemp(text: str, label: str, path: Path | None = None) -> DeckSource:
    """gemp's stored deck: ``ZONE|id,id,…`` pairs; every id is one copy."""
    body = next(line.strip() for line in text.lstrip("\ufeff").splitlines() if line.strip())
    parts = body.split("|")
    cards: list[tuple[str | None, str, int]] = []
    for i in range(0, len(parts), 2):
        zone = parts[i].strip()
        ids = parts[i + 1].split(",") if i + 1 < len(parts) else []
        for card_id in (c.strip() for c in ids):
            if not card_id:
                continue
            if not _GEMP_ID.match(card_id):
                raise DeckFormatError(
                    f"{card_id!r} in zone {zone} is not a card id", source=label, line=1
                )
            cards.append((zone, card_id, 1))
            if len(cards) > MAX_XML_CARDS:
                raise DeckFormatError(f"holds more than {MAX_XML_CARDS:,} cards", source=label)
    return DeckSource(label, path, "gemp", {}, _merged(cards))


_CSV_COUNT = frozenset({"count", "qty", "quantity", "copies", "number", "počet", "pocet"})
_CSV_ID = frozenset({"id", "card id", "number id"})
_CSV_NAME = frozenset({"name", "card", "card name", "karta", "název", "nazev"})


def _long_fields() -> None:
    """Let the csv module read a cell as long as a whole input file: its default limit
    (128 KiB) would make a long first line (a one-line JSON deck, a long comment) an error
    while the format is only being sniffed. Inputs are bounded by MAX_INPUT_BYTES anyway."""
    if csv.field_size_limit() < MAX_INPUT_BYTES:
        csv.field_size_limit(MAX_INPUT_BYTES)


def _csv_heading(text: str) -> tuple[str, list[str]] | None:
    """The delimiter and the folded cells of a CSV heading row, if the first line is one."""
    first = next((line for line in text.lstrip("\ufeff").splitlines() if line.strip()), "")
    _long_fields()
    for delimiter in (",", ";", "\t"):
        try:
            row = next(csv.reader([first], delimiter=delimiter), [])
        except csv.Error:
            continue  # not a row csv reads (a stray quote): not a heading
        cells = [c.strip().casefold() for c in row]
        if len(cells) >= 2 and set(cells) & _CSV_COUNT and set(cells) & (_CSV_ID | _CSV_NAME):
            return delimiter, cells
    return None


def looks_like_csv(text: str) -> bool:
    """A first line that is a CSV heading row with a count and a card column."""
    return _csv_heading(text) is not None


def _rows(reader: Any, label: str) -> Iterator[list[str]]:
    """The rows of a CSV reader, its errors (a quote never closed) as the deck's."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DeckFormatError(
                f"is not a CSV file deckcheck can read: {exc}", source=label, line=reader.line_num
            ) from None
        yield row


def parse_csv(text: str, label: str, path: Path | None = None) -> DeckSource:
    """A CSV deck: one card per row, the card by its id (else its name), the game from a
    ``game`` column (all rows must agree), the zone from a ``zone`` column."""
    found = _csv_heading(text)
    if found is None:
        raise DeckFormatError(
            "is not a CSV deck (no heading row with count and card)", source=label
        )
    delimiter, heading = found
    column = {name: i for i, name in reversed(list(enumerate(heading)))}
    count_at = next(column[c] for c in heading if c in _CSV_COUNT)
    id_at = next((column[c] for c in heading if c in _CSV_ID), None)
    name_at = next((column[c] for c in heading if c in _CSV_NAME), None)
    game_at, zone_at, catalog_at = column.get("game"), column.get("zone"), column.get("catalog")
    variant_at = column.get("variant")
    variants: set[str] = set()
    overlays: list[str] = []
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    next(reader)
    lines: list[DeckLine] = []
    games: set[str] = set()
    for cells in _rows(reader, label):
        number = reader.line_num
        if not any(c.strip() for c in cells):
            continue

        def cell(at: int | None, cells: list[str] = cells) -> str:
            return cells[at].strip() if at is not None and at < len(cells) else ""

        ref = cell(id_at) or cell(name_at)
        if not ref:
            raise DeckFormatError("the row names no card", source=label, line=number)
        count = parse_count(cell(count_at) or "1", label, number)
        if cell(game_at):
            games.add(cell(game_at))
        if cell(variant_at):
            variants.add(cell(variant_at))
        for overlay in (c.strip() for c in cell(catalog_at).split(";")):
            if overlay and overlay not in overlays:
                overlays.append(overlay)
        lines.append(DeckLine(ref, count, number, delimiter.join(cells), cell(zone_at) or None))
    if len(games) > 1:
        raise DeckFormatError(
            f"its rows name several games ({', '.join(sorted(games))}); a deck is of one game",
            source=label,
        )
    headers = {"game": games.pop()} if games else {}
    if len(variants) == 1:
        headers["variant"] = variants.pop()
    base = path.parent if path else Path.cwd()
    catalogs = tuple(base / overlay for overlay in overlays)
    return DeckSource(label, path, "csv", headers, tuple(lines), catalogs)


STDECK_PILES = (
    "seed",
    "draw",
    "qs_tent",
    "battle_bridge",
    "q_continuum",
    "site_pile",
    "tribble",
    "side",
)
"""The card arrays of a ``.stdeck`` file, in the order they are read (each a section)."""


def looks_like_stdeck(data: object) -> bool:
    """A parsed JSON object of a ``.stdeck`` deck: a ``"format"`` such as ``STCCG1E-Deck-v2``
    and card arrays (``seed``, ``draw``, …), no ``"cards"``."""
    return (
        isinstance(data, dict)
        and "cards" not in data
        and isinstance(data.get("format"), str)
        and any(isinstance(data.get(pile), list) for pile in STDECK_PILES)
    )


def parse_stdeck(data: dict[str, object], label: str, path: Path | None) -> DeckSource:
    """A ``.stdeck`` deck (a hobby client's JSON): each array is a section named by its key
    (the game's zones map them), each item ``{"name", "set", "type", "quantity"}`` a line whose
    name carries its set in parentheses (``Rogue Borg (PR)``), as other programs' set marks do,
    so that the game's own reading chooses the printing."""
    lines: list[DeckLine] = []
    for pile in STDECK_PILES:
        items = data.get(pile) or []
        if not isinstance(items, list):
            raise DeckFormatError(f'"{pile}" must be a list of cards', source=label)
        for index, item in enumerate(items, start=1):
            where = f"{pile} card {index}"
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise DeckFormatError(f'{where} needs a "name"', source=label)
            name = " ".join(item["name"].split())
            count = item.get("quantity", 1)
            if isinstance(count, bool) or not isinstance(count, int):
                raise DeckFormatError(f'{where}: "quantity" must be a whole number', source=label)
            count = parse_count(str(count), label, None)
            printing = item.get("set")
            spelled = name
            if isinstance(printing, str) and printing.strip():
                spelled = f"{name} ({' '.join(printing.replace('_', ' ').split())})"
            lines.append(DeckLine(spelled, count, None, f"{where}: {name}", pile))
    title = data.get("name")
    headers = {"name": title} if isinstance(title, str) else {}
    return DeckSource(label, path, "stdeck", headers, tuple(lines))
