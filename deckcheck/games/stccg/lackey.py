"""Lackey deck files: the STCCG community's interchange format.

Reading needs nothing special (the text parser understands ``COUNT<TAB>Name`` and section
headers); writing puts the draw deck first, then ``Missions:``, then ``Seed+Dil:``.
"""

from __future__ import annotations

from collections.abc import Callable

from deckcheck.catalog.model import Card
from deckcheck.decks.model import Deck


def write_lackey(deck: Deck, mission: Callable[[Card], bool], seed: Callable[[Card], bool]) -> str:
    """The deck as a Lackey file (CRLF, as Lackey writes them), sections by card type."""
    counts = deck.counts()
    cards = deck.cards()
    draw, missions, seeds = [], [], []
    for card_id, n in counts.items():
        card = cards[card_id]
        line = f"{n}\t{card.name}"
        (missions if mission(card) else seeds if seed(card) else draw).append(line)
    lines = [*draw, "Missions:", *missions, "Seed+Dil:", *seeds]
    return "\r\n".join(lines) + "\r\n"
