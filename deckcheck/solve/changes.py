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
from deckcheck.catalog.model import Card
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
        """Copies added plus copies removed."""
        return sum(abs(c.delta) for c in self.changes)

    @property
    def added(self) -> int:
        """Copies added."""
        return sum(c.delta for c in self.changes if c.delta > 0)

    @property
    def removed(self) -> int:
        """Copies removed."""
        return -sum(c.delta for c in self.changes if c.delta < 0)

    @property
    def moves(self) -> tuple[tuple[Card, int], ...]:
        """Each changed card with its copies added (positive) or removed, as an edit of the
        deck file takes them."""
        return tuple((c.card, c.delta) for c in self.changes)

    def heading_json(self) -> dict[str, Json]:
        """``{"deck", "game", "variant"}``: how each result's JSON begins."""
        return {"deck": self.deck, "game": self.game, "variant": self.variant}

    def totals_json(self) -> dict[str, Json]:
        """``{"distance", "added", "removed"}``."""
        return {"distance": self.distance, "added": self.added, "removed": self.removed}

    def changes_json(self) -> list[Json]:
        """Each change's ``{"id", "name", "before", "after"}``."""
        return [c.to_json() for c in self.changes]

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


def answer_deck(
    loaded: LoadedDeck,
    values: Mapping[str, int],
    new_cards: Iterable[str],
    *,
    place: bool = False,
) -> tuple[Deck, tuple[Change, ...]]:
    """The deck with the copies ``values`` gives each card id, and the changes that make it.

    The deck's own lines stay in their order and zones: a card's copies removed leave its last
    lines first, copies added go to its first line. The cards new to the deck follow in the
    order of ``new_cards`` (ids; those ``values`` gives no copies are left out), with
    ``place`` put where the game puts them when the file has zones. The changes list the
    deck's own cards first, in its order, then the new ones.
    """
    deck = loaded.deck
    counts = deck.counts()
    cards = {c.id: c for c in loaded.catalog}
    left = {i: values.get(i, 0) for i in counts}
    first: dict[str, int] = {}
    entries: list[DeckEntry] = []
    for e in deck:
        # each line keeps what it has while the card's new total allows, the first lines first
        keep = min(e.count, left[e.card.id])
        left[e.card.id] -= keep
        first.setdefault(e.card.id, len(entries))
        entries.append(dataclasses.replace(e, count=keep))
    for card_id, extra in left.items():
        if extra:
            at = first[card_id]
            entries[at] = dataclasses.replace(entries[at], count=entries[at].count + extra)
    entries = [e for e in entries if e.count]
    new_ids = [i for i in new_cards if i not in counts and values.get(i, 0)]
    new = [DeckEntry(cards[i], values[i]) for i in new_ids]
    if place and new and loaded.game.place is not None and any(e.zone for e in deck.entries):
        # where the file has zones, a card the answer adds goes where the game puts it
        new = list(loaded.game.place(dataclasses.replace(deck, entries=tuple(new))).entries)
    changes = tuple(
        Change(cards[i], counts.get(i, 0), values.get(i, 0))
        for i in [*counts, *new_ids]
        if values.get(i, 0) != counts.get(i, 0)
    )
    return dataclasses.replace(deck, entries=tuple(entries + new)), changes


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
