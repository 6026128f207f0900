"""Resolving deck lines to catalog cards, every failure collected and reported together."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.errors import UnknownCardsError, UnresolvedLine
from deckcheck.core.text import Suggester
from deckcheck.decks.model import DeckLine, DeckSource
from deckcheck.games.base import Game

MAX_REPORTED_LINES = 100
"""Unknown lines reported one by one; the lines after them are counted, not looked up (a
wrong file must fail fast: work stays bounded by this many lookups, whatever its length)."""

SUGGESTION_BUDGET = 100_000
"""Name comparisons a deck may spend on "did you mean" (one comparison: one deck spelling
against one catalog spelling, about a microsecond). Every listed line of a small catalog gets
suggestions; of STCCG's 4,155 spellings, the first two dozen lines do, the rest are listed
without (a deck that wrong is not a typo)."""

SUGGESTED_LENGTH = 200
"""Longer spellings get no suggestion: no card name is within reach of them."""


def lookup(name: str, catalog: Catalog, game: Game) -> list[Card]:
    """Cards a spelling may mean: an id, then each of the game's candidate names."""
    card = catalog.by_id(name)
    if card is not None:
        return [card]
    for candidate in game.name_candidates(name):
        found = catalog.by_name(candidate)
        if found:
            return found
    return []


def pick(cards: Sequence[Card], game: Game) -> Card | None:
    """One card for a name several cards share: the earliest printing, when all agree on every
    rule-relevant field; otherwise None (the user must write the id)."""
    if len(cards) == 1:
        return cards[0]
    fields = game.spec.identity_fields
    first = cards[0]
    if all(all(c.get(f) == first.get(f) for f in fields) for c in cards[1:]):
        return min(cards, key=lambda c: c.order)
    return None


def resolve_line(
    line: DeckLine, catalog: Catalog, game: Game
) -> tuple[Card | None, int, list[Card]]:
    """(card, count, candidates): the card a line names, or None with the candidates found."""
    cards = lookup(line.name, catalog, game)
    count = line.count
    if not cards and line.text != line.name:
        # A name may begin with a number ("1 Tribble - Bonus"): try the whole line as a name.
        whole = lookup(line.text, catalog, game)
        if whole:
            cards, count = whole, 1
    if not cards:
        return None, count, []
    card = pick(cards, game)
    return card, count, ([] if card else cards)


def resolve_deck(source: DeckSource, catalog: Catalog, game: Game, variant: str) -> Deck:
    """The deck with every line resolved; all unknown or ambiguous lines raise together."""
    entries: list[DeckEntry] = []
    unresolved: list[UnresolvedLine] = []
    suggester: Suggester | None = None
    spent = 0
    for index, line in enumerate(source.lines):
        if len(unresolved) >= MAX_REPORTED_LINES:
            unread = [later.line for later in source.lines[index:]]
            raise UnknownCardsError(unresolved, game.id, unread)
        card, count, candidates = resolve_line(line, catalog, game)
        if card is not None:
            if count:
                entries.append(DeckEntry(card, count, line.line, line.section))
            continue
        if candidates:
            unresolved.append(
                UnresolvedLine(
                    source.label,
                    line.line,
                    line.name,
                    reason="ambiguous name",
                    candidates=tuple(f"{c.id} ({c.type_label}, {_where(c)})" for c in candidates),
                )
            )
            continue
        if suggester is None:
            suggester = Suggester(catalog.names())
        hints: tuple[str, ...] = ()
        if spent + len(suggester) <= SUGGESTION_BUDGET and len(line.name) <= SUGGESTED_LENGTH:
            hints = tuple(suggester(line.name))
            spent += len(suggester)
        unresolved.append(UnresolvedLine(source.label, line.line, line.name, hints))
    if unresolved:
        raise UnknownCardsError(unresolved, game.id)
    return Deck(
        source.label,
        game.id,
        variant,
        tuple(entries),
        source.headers.get("name"),
        source.format,
        source.headers,
    )


def _where(card: Card) -> str:
    bits = [str(card.get(k)) for k in ("set", "affiliation", "faction", "colour") if card.get(k)]
    return "; ".join(bits) or card.name


def unknown_names(
    source: DeckSource, catalog: Catalog, game: Game, limit: int = MAX_REPORTED_LINES
) -> int:
    """How many lines of ``source`` name no card of ``catalog`` (for game detection), counted
    up to ``limit``: enough to tell a game that fits from one that does not."""
    missing = 0
    for line in source.lines:
        card, _, candidates = resolve_line(line, catalog, game)
        if card is None and not candidates:
            missing += 1
            if missing >= limit:
                break
    return missing
