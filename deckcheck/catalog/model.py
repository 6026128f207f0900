"""Cards and catalogs as immutable values."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal, TypeVar, cast, overload

from deckcheck.core.text import Suggester, fold, squash
from deckcheck.core.values import frozen

FieldKind = Literal["text", "int", "bool", "list", "data"]

# Keys every catalog understands, whatever the game declares.
CORE_FIELDS = frozenset({"id", "name", "type", "aliases", "note"})


@frozen
class FieldSpec:
    """What a game allows in one card field (from ``[fields.NAME]`` of its game.toml)."""

    name: str
    kind: FieldKind = "text"
    values: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    not_for_types: tuple[str, ...] = ()
    description: str = ""
    synonyms: tuple[tuple[str, ...], ...] = ()  # groups of values that name the same thing
    label: str = ""

    @property
    def heading(self) -> str:
        """The column heading in listings: the game's label, else the name with spaces."""
        return self.label or self.name.replace("_", " ")

    def same_as(self, value: str) -> frozenset[str]:
        """``value`` folded, with every value the game declares to mean the same."""
        folded = fold(value)
        for group in self.synonyms:
            members = frozenset(fold(v) for v in group)
            if folded in members:
                return members
        return frozenset({folded})

    def check(self, value: Any) -> str | None:
        """Why ``value`` does not fit this field, or None when it does."""
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.name} must be a whole number, not {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"{self.name} must be at least {self.minimum}, not {value}"
            if self.maximum is not None and value > self.maximum:
                return f"{self.name} must be at most {self.maximum}, not {value}"
            return None
        if self.kind == "data":
            return None
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"{self.name} must be true or false"
        if self.kind == "list":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                return f"{self.name} must be a text or a list of texts, not {value!r}"
            return self._check_values(items)
        if not isinstance(value, str):
            return f"{self.name} must be a text, not {value!r}"
        return self._check_values([value])

    def _check_values(self, items: list[str]) -> str | None:
        if not self.values:
            return None
        allowed = _folded(self.values)
        bad = [v for v in items if fold(v) not in allowed]
        if bad:
            return f"{self.name} {bad[0]!r} is not one of: {', '.join(self.values)}"
        return None


@functools.lru_cache(maxsize=256)
def _folded(values: tuple[str, ...]) -> frozenset[str]:
    """A field's allowed values, folded once (each card of a catalog is checked against
    them)."""
    return frozenset(fold(v) for v in values)


@frozen(eq=False)
class Card:
    """One card (or troop, hero, token) of a catalog.

    ``types`` is a tuple because a card can have several (Ren Dhark's I/11 is ship and unit).
    ``fields`` holds every other field; a missing field means *unknown*, never zero.
    """

    id: str
    name: str
    types: tuple[str, ...]
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    aliases: tuple[str, ...] = ()
    order: int = 0

    def get(self, key: str, default: Any = None) -> Any:
        """A field's value (``type``, ``name`` and ``id`` included), or ``default``."""
        if key == "type":
            return list(self.types)
        if key == "name":
            return self.name
        if key == "id":
            return self.id
        return self.fields.get(key, default)

    def has_type(self, kind: str) -> bool:
        """Whether the card is of this type (case-insensitive)."""
        return fold(kind) in self.folded_types

    @functools.cached_property
    def folded_types(self) -> frozenset[str]:
        """The card's types folded (:func:`~deckcheck.core.text.fold`), for the rules that ask
        every card's type for every deck they check."""
        return frozenset(fold(t) for t in self.types)

    @property
    def type_label(self) -> str:
        """The types joined for display: ``ship/unit``."""
        return "/".join(self.types) if self.types else "?"

    def as_dict(self) -> dict[str, Any]:
        """The card as plain data (for JSON and TOML)."""
        data: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.types:
            data["type"] = self.types[0] if len(self.types) == 1 else list(self.types)
        if self.aliases:
            data["aliases"] = list(self.aliases)
        data.update(self.fields)
        return data


class CardIndex:
    """A catalog's lookups: exact id, folded id and folded spelling (name or alias) to the
    positions of the cards in catalog order.

    Built from the cards (:meth:`of`) or taken ready-made from the catalog cache, so that a
    warm start does not fold thousands of names again.
    """

    __slots__ = ("by_folded_id", "by_id", "by_name")

    def __init__(
        self,
        by_id: Mapping[str, int],
        by_folded_id: Mapping[str, int],
        by_name: Mapping[str, Sequence[int]],
    ) -> None:
        self.by_id = by_id
        self.by_folded_id = by_folded_id
        self.by_name = by_name

    @classmethod
    def of(cls, cards: Sequence[Card]) -> CardIndex:
        """The index of a list of cards (a later card wins an exact or folded id)."""
        by_id: dict[str, int] = {}
        by_folded_id: dict[str, int] = {}
        by_name: dict[str, list[int]] = {}
        for position, card in enumerate(cards):
            by_id[card.id] = position
            by_folded_id[fold(card.id)] = position
            for spelling in (card.name, *card.aliases):
                bucket = by_name.setdefault(fold(spelling), [])
                if position not in bucket:
                    bucket.append(position)
        return cls(by_id, by_folded_id, by_name)


class Cards(Sequence[Card]):
    """The cards of a catalog in catalog order, with the lookups by id and by folded name.

    The index is built on first use. The catalog cache provides a subclass that makes its
    cards only when they are asked for.
    """

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._cards: tuple[Card, ...] = tuple(cards)
        self._index: CardIndex | None = None
        self._squashed: dict[str, list[int]] | None = None

    def __len__(self) -> int:
        return len(self._cards)

    @overload
    def __getitem__(self, position: int) -> Card: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Card]: ...

    def __getitem__(self, position: int | slice) -> Card | Sequence[Card]:
        return self._cards[position]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def lookups(self) -> CardIndex:
        """The lookups (built once)."""
        if self._index is None:
            self._index = CardIndex.of(self._cards)
        return self._index

    def by_id(self, card_id: str) -> Card | None:
        """The card with this id (exact, then folded), or None."""
        index = self.lookups()
        position = index.by_id.get(card_id)
        if position is None:
            position = index.by_folded_id.get(fold(card_id))
        return None if position is None else self[position]

    def by_folded_name(self, key: str) -> list[Card]:
        """Every card with a name or alias whose folded form is ``key``."""
        return [self[position] for position in self.lookups().by_name.get(key, ())]

    def any_card(self, predicate: Callable[[Card], bool], field: str, keys: Iterable[str]) -> bool:
        """Whether some card satisfies ``predicate``, which looks in ``field`` for one of the
        folded values ``keys``; a catalog with an index of its values (the cache's) answers
        without making every card."""
        return any(predicate(card) for card in self)

    def by_squashed_name(self, key: str) -> list[Card]:
        """Every card with a name or alias whose squashed form (:func:`squash`) is ``key``."""
        if self._squashed is None:
            # Squashing a folded name needs no second fold: built from the index's keys.
            squashed: dict[str, list[int]] = {}
            for folded, positions in self.lookups().by_name.items():
                bucket = squashed.setdefault(squash(folded), [])
                bucket += [p for p in positions if p not in bucket]
            self._squashed = {k: sorted(v) for k, v in squashed.items()}
        return [self[position] for position in self._squashed.get(key, ())]


DERIVED_KEPT = 256
"""Values a catalog keeps of those worked out from it (:meth:`Catalog.derived`)."""

T = TypeVar("T")


@frozen(eq=False)
class Catalog:
    """All cards of one game, in catalog order (earliest printing first), with lookups.

    ``cards`` may be given as any sequence; it is kept as :class:`Cards`.
    """

    game: str
    name: str
    cards: Sequence[Card]
    fields: Mapping[str, FieldSpec]
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.cards, Cards):
            object.__setattr__(self, "cards", Cards(self.cards))

    @property
    def _cards(self) -> Cards:
        return cast(Cards, self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def by_id(self, card_id: str) -> Card | None:
        """The card with this id (exact, then folded), or None."""
        return self._cards.by_id(card_id)

    def by_name(self, name: str) -> list[Card]:
        """Every card whose name or alias folds to the same key as ``name``."""
        return self._cards.by_folded_name(fold(name))

    def by_squashed(self, name: str) -> list[Card]:
        """Every card whose name or alias differs from ``name`` only in case, accents,
        punctuation or spacing (``Hyper Aging`` finds ``Hyper-Aging``)."""
        key = squash(name)
        return self._cards.by_squashed_name(key) if key else []

    def any_card(self, predicate: Callable[[Card], bool], field: str, keys: Iterable[str]) -> bool:
        """See :meth:`Cards.any_card`."""
        return self._cards.any_card(predicate, field, keys)

    def names(self) -> Iterable[str]:
        """Every distinct spelling a card can be found by (names and aliases)."""
        for card in self.cards:
            yield card.name
            yield from card.aliases

    @functools.cached_property
    def types(self) -> frozenset[str]:
        """Every type a card of the catalog has, as written (read once per catalog: a cached
        catalog makes each of its cards to answer)."""
        return frozenset(kind for card in self.cards for kind in card.types)

    @functools.cached_property
    def suggest_name(self) -> Suggester:
        """ "Did you mean" over every spelling of the catalog's cards (``catalog.suggest_name(
        "Kirk")``), folded once per catalog however many decks and lines ask."""
        return Suggester(self.names())

    def derived(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make`` works out from the cards, kept with the catalog under ``key``, which
        names what it is and everything else it depends on: a catalog never changes, so it is
        worked out once however many decks ask (a rule's constraints, for each variant). The
        last :data:`DERIVED_KEPT` are kept; safe to share between threads."""
        kept, lock = self._derived
        with lock:
            if key in kept:
                kept.move_to_end(key)
                return cast(T, kept[key])
        value = make()
        with lock:
            kept[key] = value
            if len(kept) > DERIVED_KEPT:
                kept.popitem(last=False)
        return value

    @functools.cached_property
    def _derived(self) -> tuple[OrderedDict[Hashable, Any], threading.Lock]:
        return OrderedDict(), threading.Lock()


def card_labels(cards: Iterable[Card]) -> dict[str, str]:
    """Card id -> how people read it: the card's name, with the id beside it where several of
    ``cards`` (different ids) share that name (Ren Dhark's Černá garda is I/7 and I/8)."""
    ids_by_name: dict[str, set[str]] = {}
    for card in cards:
        ids_by_name.setdefault(card.name, set()).add(card.id)
    return {
        card_id: name if len(ids) == 1 else f"{name} ({card_id})"
        for name, ids in ids_by_name.items()
        for card_id in ids
    }
