"""Reading other programs' deck files: Lackey's ``.dek`` XML and gemp's stored deck.

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
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.parsers import expat

from deckcheck.core.errors import DeckFormatError
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
        if tag == "superzone":
            self.zone = (attrs.get("name") or "").strip() or None
        elif tag == "card":
            self.in_card, self.card_name, self.card_line = True, "", self.parser.CurrentLineNumber
        elif tag == "name" and self.in_card:
            self.name = []

    def _end(self, tag: str) -> None:
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


def parse_dek(text: str, label: str, path: Path | None = None) -> DeckSource:
    """A Lackey ``.dek`` deck: one line per card and zone, copies counted, in file order."""
    if _DTD.search(text):
        raise DeckFormatError(
            "holds a document type or entity declaration; deckcheck does not read those in "
            "deck files",
            source=label,
        )
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
    return DeckSource(label, path, "dek", {}, _merged(reader.cards))


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
