"""What a spelling in a deck file names: one card, several (ambiguous), or a refusal.

Shared by every game. A game may ship a table of other spellings of its cards (the names
another program uses, each pointing at a card id and, for a two-sided card, a face); the
resolver asks the game first and falls back on the catalog's own names, then on spellings that
differ only in punctuation and spacing (:func:`squash`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.text import fold, squash
from deckcheck.core.values import frozen


@frozen
class NameMatch:
    """The cards a spelling may name (best first, none when it names no card), or why a near
    match is refused.

    ``face`` is set (``"back"``) when the spelling named the other face of a two-sided card
    (``Deep Space 9`` is the back of Terok Nor). ``refused`` explains why ``cards`` are only
    candidates, never taken silently (a set code that names none of them).
    """

    cards: tuple[Card, ...]
    face: str | None = None
    refused: str | None = None
    note: str | None = None  # said beside the verdict: how a doubtful spelling was read
    fields: Mapping[str, Any] | None = None  # card fields the spelling gives its copies


@frozen
class NameRow:
    """One row of a game's name table: a spelling, the card id, the face, extra columns."""

    name: str
    card_id: str
    face: str = ""
    extra: tuple[str, ...] = ()


class NameTable:
    """Other spellings of cards (another program's names), looked up folded or squashed.

    A row without a card id is a card the other program knows and the catalog does not: its
    name is refused rather than matched to a look-alike. A card's first row is its preferred
    spelling (what an export to that program writes). The lookups are built on first use; the
    catalog cache provides a subclass that reads them ready-made and makes only the rows asked
    for.
    """

    def __init__(self, rows: Iterable[NameRow] = ()) -> None:
        self._rows: tuple[NameRow, ...] = tuple(rows)
        self._by_fold: dict[str, list[int]] | None = None
        self._by_squash: dict[str, list[int]] | None = None
        self._preferred: dict[tuple[str, str], NameRow] | None = None

    @property
    def rows(self) -> tuple[NameRow, ...]:
        """Every row, in the table's order."""
        return self._rows

    def _index(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        if self._by_fold is None or self._by_squash is None:
            self._by_fold, self._by_squash = name_keys(row.name for row in self.rows)
        return self._by_fold, self._by_squash

    def find(self, spelling: str) -> list[NameRow]:
        """Rows whose name folds like ``spelling``."""
        return [self.rows[p] for p in self._index()[0].get(fold(spelling), ())]

    def find_squashed(self, spelling: str) -> list[NameRow]:
        """Rows whose name squashes like ``spelling`` (punctuation and spacing ignored)."""
        return [self.rows[p] for p in self._index()[1].get(squash(spelling), ())]

    def preferred(self, card_id: str, face: str = "") -> NameRow | None:
        """The preferred row of a card (or of its other face)."""
        if self._preferred is None:
            preferred: dict[tuple[str, str], NameRow] = {}
            for row in self.rows:
                if row.card_id:
                    preferred.setdefault((row.card_id, row.face), row)
            self._preferred = preferred
        return self._preferred.get((card_id, face))

    def __len__(self) -> int:
        return len(self.rows)


def name_keys(names: Iterable[str]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """The positions of ``names`` by folded and by squashed spelling."""
    by_fold: dict[str, list[int]] = {}
    by_squash: dict[str, list[int]] = {}
    for position, name in enumerate(names):
        by_fold.setdefault(fold(name), []).append(position)
        by_squash.setdefault(squash(name), []).append(position)
    return by_fold, by_squash


def read_name_table(text: str, columns: Sequence[str] = ("name", "id", "face")) -> NameTable:
    """A name table from tab-separated text: ``#`` comments, a header row naming at least
    ``columns``, then one row per spelling (further columns kept as ``extra``)."""
    body = _body(text)
    reader = csv.reader(io.StringIO("\n".join(body)), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, [])
    index = {name: i for i, name in enumerate(header)}
    missing = [c for c in columns if c not in index]
    if missing:
        raise ValueError(f"name table lacks the column(s) {', '.join(missing)}")
    rest = [i for i, name in enumerate(header) if name not in columns]
    rows = []
    for cells in reader:
        cells = cells + [""] * (len(header) - len(cells))
        rows.append(
            NameRow(
                cells[index[columns[0]]],
                cells[index[columns[1]]],
                cells[index[columns[2]]],
                tuple(cells[i] for i in rest),
            )
        )
    return NameTable(rows)


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def cards_of(rows: Iterable[NameRow], catalog: Catalog) -> tuple[list[Card], str | None]:
    """The catalog cards a table's rows point at (in order, without repeats) and their face
    (``None`` when the rows name the card itself or disagree)."""
    cards: list[Card] = []
    faces: set[str] = set()
    for row in rows:
        card = catalog.by_id(row.card_id) if row.card_id else None
        if card is not None and card not in cards:
            cards.append(card)
        if card is not None:
            faces.add(row.face)
    face = faces.pop() if len(faces) == 1 else None
    return cards, face or None
