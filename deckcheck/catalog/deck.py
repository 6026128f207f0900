"""A resolved deck: catalog cards and their counts, in file order.

It lives beside the catalog (not with the file readers in ``decks``) because games' rules take
it as input: games sit above the catalog and below the deck readers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from deckcheck.catalog.model import Card


@dataclass(frozen=True)
class DeckEntry:
    """A resolved line: a card and how many copies, with where it was written."""

    card: Card
    count: int
    line: int | None = None
    section: str | None = None


@dataclass(frozen=True)
class Deck:
    """A resolved deck: entries in file order (the order matters for stacks)."""

    label: str
    game: str
    variant: str
    entries: tuple[DeckEntry, ...]
    name: str | None = None
    format: str = "text"
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __iter__(self) -> Iterator[DeckEntry]:
        return iter(self.entries)

    @property
    def size(self) -> int:
        """Total number of cards."""
        return sum(e.count for e in self.entries)

    def counts(self) -> Counter[str]:
        """Copies per card id, lines of the same card added together."""
        total: Counter[str] = Counter()
        for e in self.entries:
            total[e.card.id] += e.count
        return total

    def cards(self) -> dict[str, Card]:
        """Card id → card, for the cards in the deck."""
        return {e.card.id: e.card for e in self.entries}

    def count_where(self, predicate: Callable[[Card], bool]) -> int:
        """How many cards (with copies) satisfy ``predicate``."""
        return sum(e.count for e in self.entries if predicate(e.card))

    def ids_where(self, predicate: Callable[[Card], bool]) -> list[str]:
        """Distinct ids of the deck's cards that satisfy ``predicate``, in deck order."""
        return list(dict.fromkeys(e.card.id for e in self.entries if predicate(e.card)))

    def sequence(self) -> list[Card]:
        """Every card, copies expanded, in file order (a Drake stack top first)."""
        return [e.card for e in self.entries for _ in range(e.count)]
