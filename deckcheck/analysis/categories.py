"""User-named categories of cards (``category: removal = Antisféra; type:action``).

A category is a name for the cards matching any of its members (card names, ids or
``field:value``). Conditions name it like a field value, ``category:removal>=1``, or by its name
alone, ``removal>=1``. Inside the draw maths a category is an ordinary card field: the pile's
cards carry ``category = [names]``, so every engine, policy and simulator sees it unchanged.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from types import MappingProxyType

from deckcheck.analysis.conditions import parse_condition
from deckcheck.analysis.setup import DrawSetup, SetAside, deck_setup, pile_setup
from deckcheck.catalog.model import Card, Catalog, FieldSpec
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import ConditionError, DeckFormatError
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.model import CategoryLine, DeckSource
from deckcheck.games.base import Game
from deckcheck.games.context import Pile

CATEGORY_FIELD = "category"


@frozen
class Category:
    """A named set of cards: those matching any member selector."""

    name: str
    members: tuple[str, ...]
    predicate: Callable[[Card], bool]

    def matches(self, card: Card) -> bool:
        """Whether ``card`` belongs to the category."""
        return self.predicate(card)

    @property
    def selector(self) -> str:
        """The selector naming the category in a condition."""
        return f"{CATEGORY_FIELD}:{self.name}"


def bind_category(
    name: str,
    members: Sequence[str],
    catalog: Catalog,
    game: Game,
    line: int | None = None,
    source: str | None = None,
) -> Category:
    """A category whose members are checked against ``catalog`` (an unknown card is an error
    naming the deck line)."""
    predicates = []
    for member in members:
        try:
            predicates.append(bind_selector(member, catalog, game.name_candidates))
        except ConditionError as exc:
            raise DeckFormatError(
                f"category {name!r}: {exc.message}", source=source, line=line, details=exc.details
            ) from None
    bound = tuple(predicates)
    return Category(name, tuple(members), lambda card: any(p(card) for p in bound))


def categories_of_source(source: DeckSource, catalog: Catalog, game: Game) -> list[Category]:
    """The categories a deck file declares, bound to its catalog."""
    return [_bind_line(c, catalog, game, source.label) for c in source.categories]


def _bind_line(line: CategoryLine, catalog: Catalog, game: Game, label: str) -> Category:
    if CATEGORY_FIELD in catalog.fields:
        raise DeckFormatError(
            f"{game.id} cards have a field {CATEGORY_FIELD!r}: user categories cannot be used",
            source=label,
            line=line.line,
        )
    return bind_category(line.name, line.members, catalog, game, line.line, label)


def with_categories(setup: DrawSetup, categories: Sequence[Category]) -> DrawSetup:
    """The setup whose cards (pile, set aside and catalog) carry their categories as a field,
    so conditions may name them."""
    if not categories:
        return setup

    def tagged(card: Card) -> Card:
        names = [c.name for c in categories if c.matches(card)]
        fields = dict(card.fields)
        fields[CATEGORY_FIELD] = names
        return dataclasses.replace(card, fields=MappingProxyType(fields))

    catalog = setup.catalog
    cards = {c.id: tagged(c) for c in catalog}
    specs = dict(catalog.fields)
    specs[CATEGORY_FIELD] = FieldSpec(
        CATEGORY_FIELD, "list", tuple(c.name for c in categories), description="your categories"
    )
    new_catalog = Catalog(
        catalog.game, catalog.name, tuple(cards.values()), MappingProxyType(specs), catalog.sources
    )

    def same(card: Card) -> Card:
        return cards.get(card.id) or tagged(card)

    return dataclasses.replace(
        setup,
        catalog=new_catalog,
        pile=tuple((same(c), n) for c, n in setup.pile),
        set_aside=tuple(SetAside(same(a.card), a.count, a.why) for a in setup.set_aside),
    )


_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def name_categories(conditions: Sequence[str], categories: Sequence[Category]) -> list[str]:
    """Conditions with a bare category name (``removal>=1``) written as ``category:removal``."""
    by_name = {fold(c.name): c for c in categories}
    out = []
    for text in conditions:
        try:
            cond = parse_condition(text)
        except ConditionError:
            out.append(text)  # the engine reports it with its own message
            continue
        cat = by_name.get(fold(cond.selector)) if _NAME.match(cond.selector) else None
        out.append(f"{cat.selector}{cond.op}{cond.count}" if cat else text)
    return out


def categorized(
    opened: LoadedDeck | Pile, conditions: Sequence[str]
) -> tuple[DrawSetup, list[str]]:
    """The draw setup of an opened deck (or pile) with the categories its file declares, and
    the conditions with bare category names spelled as selectors."""
    if isinstance(opened, Pile):
        return pile_setup(opened), list(conditions)
    categories = categories_of_source(opened.source, opened.catalog, opened.game)
    setup = with_categories(deck_setup(opened), categories)
    return setup, name_categories(conditions, categories)
