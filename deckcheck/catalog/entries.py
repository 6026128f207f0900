"""A built catalog and a name table as lines of JSON, and back: the payload of a catalog cache
entry (:mod:`deckcheck.catalog.cache` verifies and writes the files). Reading back makes a card
or a row only when it is first asked for, so that a start that needs a few of STCCG's 4,155
cards makes those few.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, cast, overload

from deckcheck.catalog.load import card_from_mapping
from deckcheck.catalog.model import Card, CardIndex, Cards, Catalog, FieldSpec
from deckcheck.catalog.names import NameRow, NameTable, name_keys
from deckcheck.catalog.selectors import value_keys
from deckcheck.core.text import fold, squash

LOOKUP_LINES = 2
"""Lines of lookups before the cards or rows, in a catalog's or a name table's lines."""


def json_line(line: bytes) -> Any:
    """One line of JSON, decoded while the garbage collector waits: thousands of fresh
    containers that cannot form cycles would otherwise set off a collection of everything the
    program has made so far."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return json.loads(line)
    finally:
        if paused:
            gc.enable()


class Positions(Mapping[str, Sequence[int]]):
    """Spelling -> positions as an entry keeps them: one position as a number, several as a
    list (which spares thousands of one-element lists)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Mapping[str, int | list[int]]) -> None:
        self._raw = raw

    def __getitem__(self, key: str) -> Sequence[int]:
        value = self._raw[key]
        return (value,) if isinstance(value, int) else value

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def compact(positions: Mapping[str, Sequence[int]]) -> dict[str, int | list[int]]:
    """Positions as :class:`Positions` reads them."""
    return {k: v[0] if len(v) == 1 else list(v) for k, v in positions.items()}


# --- a catalog's entry -----------------------------------------------------------------------
#
# Line 1: {"ids": [each card's id], "folded_ids": [...], "names": {folded name: positions}}
# Line 2: the value index, {field: {folded value: position of a card holding it}}, decoded
#         when a selector first asks whether a value exists.
# Then one card table per line, in catalog order.


def open_cards(lines: list[bytes], fields: Mapping[str, FieldSpec]) -> CachedCards:
    """The cards of a verified entry, with its lookups."""
    lookups = json_line(lines[0])
    positions = range(len(lines) - LOOKUP_LINES)
    index = CardIndex(
        dict(zip(lookups["ids"], positions, strict=True)),
        dict(zip(lookups["folded_ids"], positions, strict=True)),
        Positions(lookups["names"]),
    )
    return CachedCards(lines[LOOKUP_LINES:], index, lines[1], fields)


class CachedCards(Cards):
    """The cards of a verified cache entry, each made from its line when first asked for."""

    def __init__(
        self, texts: list[bytes], index: CardIndex, values: bytes, fields: Mapping[str, FieldSpec]
    ) -> None:
        super().__init__()
        self._texts = texts
        self._made: list[Card | None] = [None] * len(texts)
        self._unmade = len(texts)
        self._lock = threading.Lock()
        self._index = index
        self._values_line = values
        self._values: dict[str, dict[str, int]] | None = None
        self._fields = fields

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, position: int) -> Card: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Card]: ...

    def __getitem__(self, position: int | slice) -> Card | Sequence[Card]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        card = self._made[position]
        if card is None:
            position %= len(self._made)
            raw = json.loads(self._texts[position])
            made = card_from_mapping(raw, position, self._fields)
            # The builder's background jobs read the catalog while the screen does: the first
            # thread to make a card keeps it, and only that one counts it as made.
            with self._lock:
                card = self._made[position]
                if card is None:
                    card = self._made[position] = made
                    self._unmade -= 1
        return card

    def __iter__(self) -> Iterator[Card]:
        if not self._unmade:  # every card made: the solver and the rules walk them often
            return iter(cast(list[Card], self._made))
        return self._making()

    def _making(self) -> Iterator[Card]:
        # One card at a time: a search that stops at its first match makes only the cards it
        # looks at.
        for position in range(len(self)):
            yield self[position]

    def any_card(self, predicate: Callable[[Card], bool], field: str, keys: Iterable[str]) -> bool:
        """See :meth:`Cards.any_card`: the value index names a card to look at; only a value
        the index does not know is searched for card by card."""
        if self._values is None:
            self._values = json_line(self._values_line)
        witnesses = self._values.get(field, {})
        for key in sorted(keys):
            position = witnesses.get(key)
            if position is not None and predicate(self[position]):
                return True
        return any(predicate(card) for card in self)


def card_lookups(cards: Sequence[Card]) -> dict[str, Any]:
    """A catalog entry's first line: what :func:`_open_cards` makes the lookups of."""
    return {
        "ids": [card.id for card in cards],
        "folded_ids": [fold(card.id) for card in cards],
        "names": compact(CardIndex.of(cards).by_name),
    }


def catalog_lines(catalog: Catalog, fields: Mapping[str, FieldSpec]) -> list[bytes]:
    """A built catalog's lines, as :func:`open_cards` reads them."""
    cards = list(catalog.cards)
    return [
        dump(card_lookups(cards)),
        dump(value_index(cards, fields)),
        *(dump(card.as_dict()) for card in cards),
    ]


def value_index(cards: Sequence[Card], fields: Iterable[str]) -> dict[str, dict[str, int]]:
    """Field -> each key of :func:`value_keys` of some card's ``card.get(field)`` -> the
    position of the first card that has it (``type`` and every field in ``fields``)."""
    values: dict[str, dict[str, int]] = {field: {} for field in ("type", *fields)}
    special = [f for f in values if f in ("type", "name", "id")]
    plain = set(values) - set(special)
    lacking = set(plain)  # fields no card seen so far lacks: card.get() is None there
    keys_of: dict[tuple[type, Any], frozenset[str]] = {}

    def add(witnesses: dict[str, int], value: Any, position: int) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                add(witnesses, item, position)
            return
        if isinstance(value, str | int | float | None):  # the usual, hashable values
            memo = (type(value), value)
            keys = keys_of.get(memo)
            if keys is None:
                keys = keys_of[memo] = value_keys(value)
        else:
            keys = value_keys(value)
        for key in keys:
            witnesses.setdefault(key, position)

    for position, card in enumerate(cards):
        for field in special:
            add(values[field], card.get(field), position)
        for field, value in card.fields.items():
            if field in plain:
                add(values[field], value, position)
        if lacking:
            for field in [f for f in lacking if f not in card.fields]:
                add(values[field], None, position)
                lacking.discard(field)
    return values


def dump(value: Any) -> bytes:
    """One line of JSON (a value JSON cannot hold, such as a TOML date, raises ``TypeError``)."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
    return encode(value).encode("utf-8")


# --- a name table's entry --------------------------------------------------------------------
#
# Line 1: {folded name: positions}; line 2: {squashed name: positions}, decoded on the first
# search with punctuation ignored. Then one row per line: [name, card id, face, extra...].


class CachedNames(NameTable):
    """The rows of a verified cached name table, each made from its line when first asked for."""

    def __init__(self, texts: list[bytes], by_fold: Positions, by_squash: bytes) -> None:
        super().__init__()
        self._texts = texts
        self._made: list[NameRow | None] = [None] * len(texts)
        self._cached_fold = by_fold
        self._squash_line = by_squash
        self._cached_squash: Positions | None = None

    @property
    def rows(self) -> tuple[NameRow, ...]:
        """Every row (each made)."""
        return tuple(self._row(p) for p in range(len(self._made)))

    def __len__(self) -> int:
        return len(self._made)

    def find(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find`."""
        return [self._row(p) for p in self._cached_fold.get(fold(spelling), ())]

    def find_squashed(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find_squashed`."""
        if self._cached_squash is None:
            self._cached_squash = Positions(json_line(self._squash_line))
        return [self._row(p) for p in self._cached_squash.get(squash(spelling), ())]

    def _row(self, position: int) -> NameRow:
        row = self._made[position]
        if row is None:
            cells = json.loads(self._texts[position])
            row = self._made[position] = NameRow(cells[0], cells[1], cells[2], tuple(cells[3:]))
        return row


def open_names(lines: list[bytes]) -> CachedNames:
    """The rows of a verified entry, with its lookups."""
    return CachedNames(lines[LOOKUP_LINES:], Positions(json_line(lines[0])), lines[1])


def name_lookups(rows: Sequence[NameRow]) -> list[dict[str, int | list[int]]]:
    """A name table entry's two lines of lookups, by folded and by squashed name."""
    return [compact(keys) for keys in name_keys(row.name for row in rows)]


def name_lines(table: NameTable) -> list[bytes]:
    """A name table's lines, as :func:`open_names` reads them."""
    rows = table.rows
    lines = [dump(lookups) for lookups in name_lookups(rows)]
    lines += [dump([row.name, row.card_id, row.face, *row.extra]) for row in rows]
    return lines
