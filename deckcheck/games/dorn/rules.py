"""Dorn party rules: small pure functions."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.violations import Violation, error
from deckcheck.games.base import Variant


def hero(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """dorn.hero: every party member is one of the heroes."""
    kind = variant.param("hero_type")
    others = [e.card for e in deck if not e.card.has_type(kind)]
    if others:
        listed = ", ".join(f"{c.name} ({c.type_label})" for c in others)
        yield error("dorn.hero", f"not heroes: {listed}", [c.id for c in others])


# dorn.party-size and dorn.party-unique are data: [checks] in game.toml.
RULES = {"dorn.hero": hero}
