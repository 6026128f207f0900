"""A resolved deck: catalog cards and their counts, in file order.

It lives beside the catalog (not with the file readers in ``decks``) because games' rules take
it as input: games sit above the catalog and below the deck readers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any

from deckcheck.catalog.model import Card
from deckcheck.core.values import frozen


@frozen
class DeckEntry:
    """A resolved line: a card and how many copies, with where it was written.

    ``zone`` is the game's zone the line sits in (None where the game has no zones);
    ``face`` is set (``"back"``) when the line named the other face of a two-sided card;
    ``fields`` are card fields the line's own spelling gives its copies (a Lackey virtual
    re-issue ``Name *VP`` read as the card ``Name`` keeps its own legality tags).
    """

    card: Card
    count: int
    line: int | None = None
    section: str | None = None
    zone: str | None = None
    face: str | None = None
    fields: Mapping[str, Any] | None = None
    # The name as the line wrote it, where it reads differently from the card's (a Lackey
    # "Rusot *VP"): findings name the line as the user knows it. Not part of the entry's value.
    written: str | None = field(default=None, compare=False)


@frozen
class Deck:
    """A resolved deck: entries in file order (the order matters for stacks).

    ``entries`` are the cards the rules count; ``side`` the cards of side zones (a side deck,
    cards set aside), kept for reports and exports and never counted. ``notes`` say how
    doubtful lines were read (a merged duplicate, a stand-in printing).
    """

    label: str
    game: str
    variant: str
    entries: tuple[DeckEntry, ...]
    name: str | None = None
    format: str = "text"
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    side: tuple[DeckEntry, ...] = ()
    notes: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[DeckEntry]:
        return iter(self.entries)

    @property
    def size(self) -> int:
        """Total number of cards."""
        return sum(e.count for e in self.entries)

    def counts(self) -> Counter[str]:
        """Copies per card id, lines of the same card added together (a new Counter: the
        caller's to change)."""
        # Asked by every rule of every check: added up once per deck (the deck never changes).
        kept: dict[str, int] | None = self.__dict__.get("_counts")
        if kept is None:
            kept = {}
            for e in self.entries:
                card_id = e.card.id
                kept[card_id] = kept.get(card_id, 0) + e.count
            self.__dict__["_counts"] = kept
        return Counter(kept)

    def cards(self) -> dict[str, Card]:
        """Card id → card, for the cards in the deck."""
        return {e.card.id: e.card for e in self.entries}

    def count_where(self, predicate: Callable[[Card], bool]) -> int:
        """How many cards (with copies) satisfy ``predicate``."""
        return sum(e.count for e in self.entries if predicate(e.card))

    def ids_where(self, predicate: Callable[[Card], bool]) -> list[str]:
        """Distinct ids of the deck's cards that satisfy ``predicate``, in deck order."""
        return list(dict.fromkeys(e.card.id for e in self.entries if predicate(e.card)))

    def side_zones(self) -> dict[str, int]:
        """Side zone → number of cards in it, in file order."""
        zones: dict[str, int] = {}
        for e in self.side:
            zones[e.zone or "side"] = zones.get(e.zone or "side", 0) + e.count
        return zones

    def all_entries(self) -> tuple[DeckEntry, ...]:
        """Counted and side entries, in file order (what an export writes)."""
        if not self.side:
            return self.entries
        return tuple(sorted((*self.entries, *self.side), key=lambda e: e.line or 0))

    def zoned(
        self, place: Callable[[DeckEntry], str | None]
    ) -> dict[str | None, list[tuple[Card, str | None, int]]]:
        """Zone → (card, face, copies) in file order, copies of one card in one zone merged;
        ``place`` names each entry's zone (side zones included)."""
        counts: dict[str | None, Counter[tuple[str, str | None]]] = {}
        cards: dict[str, Card] = {}
        for e in self.all_entries():
            counts.setdefault(place(e), Counter())[(e.card.id, e.face)] += e.count
            cards[e.card.id] = e.card
        return {
            zone: [(cards[card_id], face, n) for (card_id, face), n in items.items()]
            for zone, items in counts.items()
        }

    def sequence(self) -> list[Card]:
        """Every card, copies expanded, in file order (a Drake stack top first)."""
        return [e.card for e in self.entries for _ in range(e.count)]
