"""Dorn party rules: small pure functions."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.violations import Violation, error
from deckcheck.games.base import CodeRule, Variant
from deckcheck.games.linear import RuleConstraints


def hero(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """dorn.hero: every party member is one of the heroes."""
    kind = variant.param("hero_type")
    others = [e.card for e in deck if not e.card.has_type(kind)]
    if others:
        listed = ", ".join(f"{c.name} ({c.type_label})" for c in others)
        yield error("dorn.hero", f"not heroes: {listed}", [c.id for c in others])


# dorn.party-size and dorn.party-unique are data: [checks] in game.toml.
def hero_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """dorn.hero: every card that is not a hero is held 0 times."""
    kind = variant.param("hero_type")
    return RuleConstraints("dorn.hero", fixed={c.id: 0 for c in catalog if not c.has_type(kind)})


RULES = {"dorn.hero": CodeRule(hero, hero_constraints)}
