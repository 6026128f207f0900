"""``diff``: what changed between two decks of one game, and how the rule totals move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Severity
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.setaside import set_aside, with_seeded_zones


@frozen
class CardChange:
    """One card whose count differs."""

    card: Card
    before: int
    after: int

    @property
    def kind(self) -> str:
        """added, removed or changed."""
        return "added" if self.before == 0 else "removed" if self.after == 0 else "changed"


@frozen
class TotalChange:
    """A rule-relevant total before and after; None where unknown (values missing)."""

    label: str
    before: int | None
    after: int | None
    before_known_part: int = 0
    after_known_part: int = 0


@frozen
class DeckDiff:
    """Changes grouped by type, and totals."""

    deck_a: str
    deck_b: str
    game: str
    changes: tuple[CardChange, ...]
    totals: tuple[TotalChange, ...]
    status_a: str = ""  # each deck's verdict: legal, unverified, illegal
    status_b: str = ""
    broken_a: tuple[str, ...] = ()  # the rules each deck breaks (errors)
    broken_b: tuple[str, ...] = ()

    def by_type(self) -> dict[str, list[CardChange]]:
        """Changes grouped by the card's type label."""
        groups: dict[str, list[CardChange]] = {}
        for change in self.changes:
            groups.setdefault(change.card.type_label, []).append(change)
        return groups

    exit_code = OK

    def to_json(self) -> dict[str, Json]:
        """JSON: added/removed/changed lists and totals."""

        def item(c: CardChange) -> dict[str, Json]:
            return {
                "id": c.card.id,
                "name": c.card.name,
                "type": c.card.type_label,
                "before": c.before,
                "after": c.after,
                "delta": c.after - c.before,
            }

        return {
            "deck_a": self.deck_a,
            "deck_b": self.deck_b,
            "game": self.game,
            "added": [item(c) for c in self.changes if c.kind == "added"],
            "removed": [item(c) for c in self.changes if c.kind == "removed"],
            "changed": [item(c) for c in self.changes if c.kind == "changed"],
            "status_a": self.status_a,
            "status_b": self.status_b,
            "broken_a": list(self.broken_a),
            "broken_b": list(self.broken_b),
            "totals": [
                {
                    "label": t.label,
                    "before": t.before,
                    "after": t.after,
                    "delta": None if t.before is None or t.after is None else t.after - t.before,
                }
                for t in self.totals
            ],
        }


def _total(loaded: LoadedDeck, spec: Any) -> tuple[int | None, int]:
    """(total or None when a value is missing, the known part)."""
    deck = loaded.deck
    if spec.sum_field:
        required = [bind_selector(s, loaded.catalog) for s in spec.required_for]
        known, missing = 0, False
        for e in deck:
            v = e.card.get(spec.sum_field)
            if isinstance(v, int) and not isinstance(v, bool):
                known += v * e.count
            elif not required or any(p(e.card) for p in required):
                missing = True
        return (None if missing else known), known
    opening = loaded.game.opening(loaded.variant)
    if spec.set_aside and opening is not None:
        rules = with_seeded_zones(opening.set_aside, loaded.game.spec.zones)
        n = sum(a.count for a in set_aside(deck, loaded.catalog, rules))
        return n, n
    predicates = _bound(spec.select, loaded)
    if not predicates:
        return deck.size, deck.size
    also, unless = _bound(spec.also, loaded), _bound(spec.unless, loaded)
    n = deck.count_where(
        lambda c: (
            any(p(c) for p in predicates)
            and (not also or any(p(c) for p in also))
            and not any(p(c) for p in unless)
        )
    )
    return n, n


def _bound(select: str | list[str], loaded: LoadedDeck) -> list[Callable[[Card], bool]]:
    """A total's selectors (one, or any of a list) bound to the deck's catalog."""
    selects = [select] if isinstance(select, str) else list(select)
    return [bind_selector(s, loaded.catalog) for s in selects if s]


def diff_decks(left: LoadedDeck, right: LoadedDeck) -> DeckDiff:
    """Compare two loaded decks of the same game."""
    if left.game.id != right.game.id:
        a, b = left.source.label, right.source.label
        raise UsageError(
            f"{a} is a {left.game.id} deck and {b} a {right.game.id} deck: "
            "diff compares decks of one game"
        )
    ca, cb = left.deck.counts(), right.deck.counts()
    cards = {**left.deck.cards(), **right.deck.cards()}
    order = list(dict.fromkeys([*ca, *cb]))
    changes = tuple(
        CardChange(cards[i], ca.get(i, 0), cb.get(i, 0))
        for i in order
        if ca.get(i, 0) != cb.get(i, 0)
    )
    totals = []
    specs = left.game.spec.totals or []
    for spec in specs:
        before, bk = _total(left, spec)
        after, ak = _total(right, spec)
        totals.append(TotalChange(spec.label, before, after, bk, ak))
    if not specs:
        totals.append(
            TotalChange("cards", left.deck.size, right.deck.size, left.deck.size, right.deck.size)
        )
    verdicts = [validate_loaded(side) for side in (left, right)]
    broken = [
        tuple(dict.fromkeys(v.code for v in r.violations if v.severity is Severity.ERROR))
        for r in verdicts
    ]
    return DeckDiff(
        left.deck.label,
        right.deck.label,
        left.game.id,
        changes,
        tuple(totals),
        str(verdicts[0].status),
        str(verdicts[1].status),
        broken[0],
        broken[1],
    )


@frozen
class DiffRequest:
    """Two deck files of one game, opened in ``context``."""

    deck_a: str
    deck_b: str
    context: Context = NO_CONTEXT


def run(request: DiffRequest) -> DeckDiff:
    """The difference of ``request`` (:func:`diff_decks`)."""
    context = request.context
    return diff_decks(load_deck(request.deck_a, context), load_deck(request.deck_b, context))
