"""What ``fix`` and ``optimize`` answer alike: a deck's new counts, as changes to the deck.

Both solvers end with card id -> copies; :func:`answer_deck` turns that into the deck written
out and the :class:`Change` of each card, and :class:`CountChanges` is what their results
share: the changes, their totals, the answer's validation and where it was written, in the
same JSON. :func:`resolve_cards` reads the cards ``--keep`` names, for both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.errors import UsageError
from deckcheck.core.result import ILLEGAL, OK, Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import lookup, pick
from deckcheck.inplace.edit import Written

UNREACHABLE = "unreachable"
"""The status of a result with no legal deck to answer with."""


@frozen
class SolverLimits:
    """What ``fix`` and ``optimize`` may change, as the user gives it: the cards ``keep``
    (names or ids) never removed; every card's copies within the collection ``owned`` (a deck
    file listing it), or within what ``collection`` holds beyond what the ``reserve`` decks
    need; at most ``changes`` copies added plus removed and ``time_limit`` seconds of search
    (``optimize``; None: no limit)."""

    keep: tuple[str, ...] = ()
    owned: str | Path | None = None
    changes: int | None = None
    time_limit: float | None = None
    collection: str | Path | None = None
    reserve: tuple[str | Path, ...] = ()


NO_LIMITS = SolverLimits()


@frozen
class Change:
    """One card's copies before and after."""

    card: Card
    before: int
    after: int

    @property
    def delta(self) -> int:
        """Copies added (positive) or removed (negative)."""
        return self.after - self.before

    def to_json(self) -> dict[str, Json]:
        """``{"id", "name", "before", "after"}``."""
        return {
            "id": self.card.id,
            "name": self.card.name,
            "before": self.before,
            "after": self.after,
        }


@frozen
class Move:
    """Copies of one card moved from one zone of the deck file to another (one change each):
    a seeded card put in the draw deck."""

    card: Card
    source: str | None
    target: str | None
    count: int
    source_role: str | None = None
    target_role: str | None = None

    def to_json(self) -> dict[str, Json]:
        """``{"card", "id", "from", "to", "count", "from_zone", "to_zone"}``: ``from`` and
        ``to`` are the zones' roles (``seed``, ``draw``), the ``_zone`` fields the file's
        zone names."""
        return {
            "card": self.card.name,
            "id": self.card.id,
            "from": self.source_role or self.source,
            "to": self.target_role or self.target,
            "count": self.count,
            "from_zone": self.source,
            "to_zone": self.target,
        }

    def wording(self) -> str:
        """``Data: seed → draw (Seed+Dil → Deck)``; the zones alone where they have no
        roles."""
        if self.source_role and self.target_role:
            return (
                f"{self.card.name}: {self.source_role} → {self.target_role} "
                f"({self.source} → {self.target})"
            )
        return f"{self.card.name}: {self.source} → {self.target}"


Edit = tuple[Card, int, str | None]
"""Copies of a card added (positive) or removed in one zone (None: a game without zones)."""


class CountChanges:
    """The part of a solver's result that is the change to the deck's counts (a base of the
    frozen results of ``fix`` and ``optimize``, which hold these fields).

    ``deck``: the deck's label (of ``game``, ``variant``); ``changes``: each card whose copies
    change; ``report``: the answer's validation; ``written``: where the answer went (None:
    nowhere).
    """

    deck: str
    game: str
    variant: str
    status: str
    changes: tuple[Change, ...]
    moved: tuple[Move, ...]
    edits: tuple[Edit, ...]
    report: Report | None
    notes: tuple[str, ...]
    seconds: float
    written: Written | None

    @property
    def text(self) -> str | None:
        """The answer's text when it was written, or asked for (``-o -``)."""
        return None if self.written is None else self.written.text

    @property
    def written_to(self) -> str | None:
        """The file the answer was written to."""
        return None if self.written is None else self.written.written_to

    @property
    def backup(self) -> str | None:
        """The old deck file's copy, when ``--write`` replaced it."""
        return None if self.written is None else self.written.backup

    @property
    def exit_code(self) -> int:
        """0 when the answer (or the deck as it is) is legal; 1 when no legal deck was
        found, or the answer breaks a rule that could only be checked on it."""
        if self.status == UNREACHABLE:
            return ILLEGAL
        if self.report is not None and self.report.status is Status.ILLEGAL:
            return ILLEGAL
        return OK

    @property
    def distance(self) -> int:
        """Copies added, removed and moved."""
        return sum(abs(c.delta) for c in self.changes) + sum(m.count for m in self.moved)

    @property
    def added(self) -> int:
        """Copies added."""
        return sum(c.delta for c in self.changes if c.delta > 0)

    @property
    def removed(self) -> int:
        """Copies removed."""
        return -sum(c.delta for c in self.changes if c.delta < 0)

    @property
    def moves(self) -> tuple[Edit, ...]:
        """Each changed card with its copies added (positive) or removed in a zone, as an edit
        of the deck file takes them."""
        return self.edits

    def heading_json(self) -> dict[str, Json]:
        """``{"deck", "game", "variant"}``: how each result's JSON begins."""
        return {"deck": self.deck, "game": self.game, "variant": self.variant}

    def totals_json(self) -> dict[str, Json]:
        """``{"distance", "added", "removed"}`` (the distance counts each copy moved too)."""
        return {"distance": self.distance, "added": self.added, "removed": self.removed}

    def changes_json(self) -> list[Json]:
        """Each change's ``{"id", "name", "before", "after"}``."""
        return [c.to_json() for c in self.changes]

    def moves_json(self) -> dict[str, Json]:
        """``{"moved", "moves"}``: the copies moved between zones, and each move's
        ``{"card", "id", "from", "to", "count"}``."""
        return {
            "moved": sum(m.count for m in self.moved),
            "moves": [m.to_json() for m in self.moved],
        }

    def outcome_json(self) -> dict[str, Json]:
        """``{"notes", "validation", "written_to", "backup", "solve_seconds"}``: how each
        result's JSON ends."""
        return {
            "notes": list(self.notes),
            "validation": None if self.report is None else self.report.to_json(),
            "written_to": self.written_to,
            "backup": self.backup,
            "solve_seconds": round(self.seconds, 3),
        }


Cell = tuple[str, str | None]
"""A card id and a zone of the deck file (None: a game without zones)."""


@frozen
class Answer:
    """A computed deck as the deck file will hold it: the deck, each card's change of
    copies, the moves between zones, and the edits per zone that make it."""

    deck: Deck
    changes: tuple[Change, ...]
    moved: tuple[Move, ...]
    edits: tuple[Edit, ...]


def cards_by_id(catalog: Catalog) -> Mapping[str, Card]:
    """The catalog's cards by id (where two share an id, the later one), made once per
    catalog: read only."""
    return catalog.derived("solve: cards by id", lambda: {c.id: c for c in catalog})


def answer_deck(
    loaded: LoadedDeck,
    cells: Mapping[Cell, int],
    new_cards: Iterable[str],
    default_zone: str | None = None,
) -> Answer:
    """The deck with the copies ``cells`` gives each card in each zone, and what makes it.

    The deck's own lines stay in their order and zones: a line keeps what it has while its
    card's copies in its zone allow (the first lines first), copies added to a zone the card
    has a line in go to its first such line. Other copies follow as new lines, the deck's own
    cards first, then the new ones in the order of ``new_cards`` (ids). A line without a zone
    is in ``default_zone``. The changes list the deck's own cards first, in its order."""
    deck = loaded.deck
    cards = cards_by_id(loaded.catalog)
    zoned = any(e.zone for e in deck.entries)
    if not zoned:
        # a file that names no zone stays so (its rules placed the cards by type: the
        # answer's too): every copy in its one zone
        merged: dict[Cell, int] = {}
        for (card_id, _), n in cells.items():
            merged[(card_id, default_zone)] = merged.get((card_id, default_zone), 0) + n
        cells = merged
    left = dict(cells)
    first: dict[Cell, int] = {}
    held: dict[Cell, int] = {}
    entries: list[DeckEntry] = []
    for e in deck:
        cell = (e.card.id, (e.zone or default_zone) if default_zone is not None else None)
        held[cell] = held.get(cell, 0) + e.count
        keep = min(e.count, left.get(cell, 0))
        left[cell] = left.get(cell, 0) - keep
        first.setdefault(cell, len(entries))
        entries.append(dataclasses.replace(e, count=keep))
    for cell, extra in left.items():
        if extra and cell in first:
            at = first[cell]
            entries[at] = dataclasses.replace(entries[at], count=entries[at].count + extra)
            left[cell] = 0
    order = {card_id: k for k, card_id in enumerate(deck.counts())}
    for card_id in new_cards:
        order.setdefault(card_id, len(order))
    rest = sorted((c for c, n in left.items() if n > 0), key=lambda c: order.get(c[0], len(order)))
    for card_id, zone in rest:
        entries.append(DeckEntry(cards[card_id], left[(card_id, zone)], zone=zone))
    if zoned:
        # a file that names zones: its lines without one are its draw deck, and say so (an
        # export would otherwise place them by type)
        entries = [e if e.zone else dataclasses.replace(e, zone=default_zone) for e in entries]
    else:
        entries = [dataclasses.replace(e, zone=None) if e.zone else e for e in entries]
    before = deck.counts()
    after: dict[str, int] = {}
    for (card_id, _), n in cells.items():
        after[card_id] = after.get(card_id, 0) + n
    ids = sorted(set(before) | set(after), key=lambda i: order.get(i, len(order)))
    changes = tuple(
        Change(cards[i], before.get(i, 0), after.get(i, 0))
        for i in ids
        if before.get(i, 0) != after.get(i, 0)
    )
    moved: list[Move] = []
    edits: list[Edit] = []

    def role(zone: str | None) -> str | None:
        found = loaded.game.zone(zone) if zone is not None else None
        return found.role if found is not None else None

    zones: dict[str, list[str | None]] = {}
    for card_id, zone in [*held, *cells]:
        if zone not in zones.setdefault(card_id, []):
            zones[card_id].append(zone)
    for i in ids:
        gains: list[tuple[str | None, list[int]]] = []
        losses: list[tuple[str | None, list[int]]] = []
        for zone in zones.get(i, []):
            d = cells.get((i, zone), 0) - held.get((i, zone), 0)
            if d:
                edits.append((cards[i], d, zone))
            if d > 0:
                gains.append((zone, [d]))
            elif d < 0:
                losses.append((zone, [-d]))
        for source, lost in losses:  # a copy lost in one zone and gained in another is a move
            for target, gain in gains:
                step = min(lost[0], gain[0])
                if step:
                    moved.append(Move(cards[i], source, target, step, role(source), role(target)))
                    lost[0] -= step
                    gain[0] -= step
    kept = tuple(e for e in entries if e.count)
    return Answer(dataclasses.replace(deck, entries=kept), changes, tuple(moved), tuple(edits))


def resolve_cards(loaded: LoadedDeck, names: Sequence[str], option: str) -> list[str]:
    """Card names or ids as catalog ids (a name several cards share needs the id); ``option``
    names the option they came from in the errors."""
    ids = []
    for name in names:
        match = lookup(name.strip(), loaded.catalog, loaded.game)
        found = list(match.cards)
        card = pick(found, loaded.game) if found and not match.refused else None
        if card is None:
            if found:
                listed = ", ".join(c.id for c in found[:6])
                raise UsageError(f"{option} {name!r} names several cards; give the id: {listed}")
            hint = loaded.catalog.suggest_name(name)
            raise UsageError(
                f"{option} {name!r}: no {loaded.game.id} card of that name",
                details=[f"did you mean: {', '.join(hint)}?"] if hint else [],
            )
        ids.append(card.id)
    return ids
