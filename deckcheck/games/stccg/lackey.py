"""Lackey deck files: the STCCG community's interchange format.

Reading needs nothing special (the text parser understands ``COUNT<TAB>Name`` and section
headers); writing puts the draw deck first, then ``Missions:``, then ``Seed+Dil:``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card
from deckcheck.catalog.names import NameTable, read_name_table
from deckcheck.core.errors import CatalogError
from deckcheck.games.base import game_directory
from deckcheck.games.stccg.names import SET_SUFFIXES

NAME_TABLE = "lackey-names.tsv"
"""The Lackey plugin's card names joined to the catalog's ids, shipped beside the catalog."""


@cache
def name_table() -> NameTable:
    """The Lackey name table (read once per process); extra columns are image id and set."""
    path = game_directory("stccg-1e") / NAME_TABLE
    try:
        return read_name_table(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(
            f"the Lackey name table is unreadable: {exc}", source=str(path)
        ) from None


_LABEL = re.compile(r"^(?P<base>.+?)\s*\((?P<label>[^()]+)\)$")
# "(The Motion Pictures)" -> "TMP": the shortest code Lackey files use for a set.
_CODES: dict[str, str] = {}
for _code, _labels in sorted(SET_SUFFIXES.items(), key=lambda kv: (len(kv[0]), kv[0])):
    for _label in _labels:
        _CODES.setdefault(_label, _code.upper())


def lackey_name(card: Card, title_case: Callable[[Card], bool]) -> str:
    """A card's name as Lackey files spell it: a later printing as ``Name *CODE`` instead of
    the card database's ``Name (Set Name)``, and upper case except for ``title_case`` cards
    (Personnel and Ships in the community's files)."""
    name = card.name
    match = _LABEL.match(name)
    if match and match.group("label") in _CODES:
        name = f"{match.group('base')} *{_CODES[match.group('label')]}"
    return name if title_case(card) else name.upper()


def write_lackey(
    deck: Deck,
    mission: Callable[[Card], bool],
    seeded: Mapping[str, int],
    name_of: Callable[[Card], str] = lambda card: card.name,
) -> str:
    """The deck as a Lackey file (CRLF, as Lackey writes them), sections by card type.

    ``seeded`` gives the seeded copies per card id; the rest of a card's copies (a second
    Outpost of one affiliation) go to the draw deck."""
    counts = deck.counts()
    cards = deck.cards()
    draw: list[str] = []
    missions: list[str] = []
    seeds: list[str] = []
    for card_id, n in counts.items():
        card = cards[card_id]
        if mission(card):
            missions.append(f"{n}\t{name_of(card)}")
            continue
        seed = min(seeded.get(card_id, 0), n)
        if seed:
            seeds.append(f"{seed}\t{name_of(card)}")
        if n - seed:
            draw.append(f"{n - seed}\t{name_of(card)}")
    lines = [*draw, "Missions:", *missions, "Seed+Dil:", *seeds]
    return "\r\n".join(lines) + "\r\n"
