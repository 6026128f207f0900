"""Dorn party rules: small pure functions."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.violations import Violation, error
from deckcheck.games.base import Variant


def party_size(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """dorn.party-size: exactly ``party_size`` heroes."""
    want = variant.param("party_size")
    if deck.size != want:
        yield error("dorn.party-size", f"{deck.size} party members, exactly {want} required")


def party_unique(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """dorn.party-unique: no hero twice (one card and one figure per hero)."""
    cards = deck.cards()
    for card_id, n in deck.counts().items():
        if n > 1:
            yield error(
                "dorn.party-unique", f"{cards[card_id].name} is in the party {n} times", [card_id]
            )


def hero(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """dorn.hero: every party member is one of the heroes."""
    kind = variant.param("hero_type")
    others = [e.card for e in deck if not e.card.has_type(kind)]
    if others:
        listed = ", ".join(f"{c.name} ({c.type_label})" for c in others)
        yield error("dorn.hero", f"not heroes: {listed}", [c.id for c in others])


RULES = {"dorn.party-size": party_size, "dorn.party-unique": party_unique, "dorn.hero": hero}
