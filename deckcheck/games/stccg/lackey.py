"""Lackey deck files, the STCCG community's interchange format, and gemp's stored deck.

Reading needs nothing special (the shared readers understand ``COUNT<TAB>Name`` with section
headers, ``.dek`` XML and ``ZONE|ids``); writing puts each zone where Lackey has it and every
card under the plugin's own name, from the name table shipped beside the catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from deckcheck.catalog.cache import load_name_table
from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card
from deckcheck.catalog.names import NameTable
from deckcheck.core.errors import CatalogError
from deckcheck.core.text import plural
from deckcheck.games.base import game_directory
from deckcheck.games.spec import ZoneModel

NAME_TABLE = "lackey-names.tsv"
"""The Lackey plugin's card names joined to the catalog's ids, shipped beside the catalog."""


@cache
def name_table() -> NameTable:
    """The Lackey name table (read once per process, through the catalog cache); extra columns
    are image id and set."""
    path = game_directory("stccg-1e") / NAME_TABLE
    try:
        return load_name_table("stccg-1e", str(path), path.read_bytes())
    except (OSError, ValueError) as exc:
        raise CatalogError(
            f"the Lackey name table is unreadable: {exc}", source=str(path)
        ) from None


LACKEY_GAME = "startrek1e"
"""The plugin's folder name, which a ``.dek`` file names in ``<meta><game>``."""

GEMP = "gemp"
"""The key of a zone's name in gemp-stccg's stored deck (``formats.gemp`` in game.toml)."""


def lackey_name(card: Card, face: str | None = None) -> str:
    """The plugin's own name of a card (or of its other face): the first name the name table
    gives it; a card the table does not know (a user's own card) keeps its catalog name."""
    row = name_table().preferred(card.id, face or "")
    return row.name if row is not None else card.name


def face_name(card: Card, face: str) -> str | None:
    """The plugin's name of a card's other face (``Deep Space 9 (back)``), if it has one."""
    row = name_table().preferred(card.id, face)
    return row.name if row is not None else None


def _zoned(
    deck: Deck, zones: Sequence[ZoneModel]
) -> list[tuple[ZoneModel, list[tuple[Card, str | None, int]]]]:
    """Every counted zone (even empty) and every side zone that holds cards, in the game's
    order, with its cards (a line without a zone is in the first zone)."""
    by_zone = deck.zoned(lambda e: e.zone or zones[0].name)
    return [
        (zone, by_zone.get(zone.name, []))
        for zone in zones
        if zone.counted or by_zone.get(zone.name)
    ]


def write_lackey(deck: Deck, zones: Sequence[ZoneModel]) -> str:
    """The deck as a Lackey text file (CRLF, as Lackey writes them): the draw deck first,
    then each zone under its header, every card under the plugin's own name."""
    out: list[str] = []
    for index, (zone, items) in enumerate(_zoned(deck, zones)):
        if index:
            out.append(f"{zone.name}:")
        out += [f"{n}\t{lackey_name(card, face)}" for card, face, n in items]
    return "\r\n".join(out) + "\r\n"


def write_dek(deck: Deck, zones: Sequence[ZoneModel]) -> str:
    """The deck as a Lackey ``.dek`` file: one ``<superzone>`` per zone, one ``<card>`` per
    copy, with the plugin's name, image id and set."""
    # Here, not at the top: saxutils imports urllib.request (and with it http, email and
    # ssl), which every STCCG validation would pay for at start-up.
    from xml.sax.saxutils import escape, quoteattr

    out = [
        '<deck version="0.8">',
        "\t<meta>",
        f"\t\t<game>{escape(LACKEY_GAME)}</game>",
        "\t</meta>",
    ]
    for zone, items in _zoned(deck, zones):
        out.append(f"\t<superzone name={quoteattr(zone.name)}>")
        for card, face, n in items:
            row = name_table().preferred(card.id, face or "")
            name = row.name if row is not None else card.name
            image = row.extra[0] if row is not None and row.extra else card.id
            release = row.extra[1] if row is not None and len(row.extra) > 1 else ""
            element = (
                f"\t\t<card><name id={quoteattr(image)}>{escape(name)}</name>"
                f"<set>{escape(release)}</set></card>"
            )
            out += [element] * n
        out.append("\t</superzone>")
    out.append("</deck>")
    return "\r\n".join(out) + "\r\n"


def write_gemp(deck: Deck, zones: Sequence[ZoneModel]) -> tuple[str, list[str]]:
    """The deck as gemp-stccg stores it (``ZONE|id,id,…|ZONE|…``, an id per copy), and notes
    on the cards of zones gemp does not have (they are left out)."""
    parts: list[str] = []
    notes: list[str] = []
    for zone, items in _zoned(deck, zones):
        ids = [card.id for card, _face, n in items for _ in range(n)]
        code = zone.formats.get(GEMP)
        if code is None:
            if ids:
                notes.append(
                    f"gemp has no {zone.name} zone: its {plural(len(ids), 'card')} left out "
                    "(they are never counted in the deck)"
                )
            continue
        parts += [code, ",".join(ids)]
    return "|".join(parts) + "\n", notes
