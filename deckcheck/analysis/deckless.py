"""Odds without a deck file: a pile given as category counts, as hypergeometric calculators
take it (``--deck 60 --category ships=15 --category actions=6``).

Each category stands for that many interchangeable cards; the rest of the pile is "other
cards". A category named ``field:value`` (``type:ship=15``) is made of cards with that field,
so with ``--game`` the game's own mulligan triggers (``type:ship<2``) see them. Without a game
the cards are drawn plainly and ``--seen`` says how many.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card, Catalog, FieldSpec
from deckcheck.core.errors import UsageError
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import get_game
from deckcheck.games.spec import GameInfo, GameSpec, OpeningModel, VariantModel

MAX_DECK = 100_000
_LABEL = re.compile(r"^[^<>=|]+$")


@frozen
class CategoryCount:
    """``LABEL=COUNT`` from the command line."""

    label: str
    count: int


def parse_category(text: str) -> CategoryCount:
    """``ships=15`` or ``type:ship=15``."""
    label, sep, count = text.rpartition("=")
    label = label.strip()
    if (
        not sep
        or not label
        or not _LABEL.match(label)
        or not (count.strip().isascii() and count.strip().isdigit())
    ):
        raise UsageError(
            f"--category {text!r} is not NAME=COUNT (e.g. ships=15, or type:ship=15 so that "
            "the game's rules see the cards' type)"
        )
    if len(count.strip().lstrip("0")) > 9:
        raise UsageError(
            f"--category {label}: a count of {len(count.strip()):,} digits is beyond any pile"
        )
    return CategoryCount(label, int(count))


def _no_game() -> Game:
    """A game with no rules: the cards are simply drawn."""
    game = Game(directory=Path("."), rules={})
    game.__dict__["spec"] = GameSpec(
        game=GameInfo(
            id="any",
            name="any game",
            default_variant="plain",
            example_condition="ships>=2",
        ),
        variants={"plain": VariantModel()},
    )
    return game


def deckless_setup(
    size: int,
    categories: Sequence[str],
    *,
    context: Context = NO_CONTEXT,
    seen: int | None = None,
) -> DrawSetup:
    """A draw setup of ``size`` cards made of the given categories and other cards, of the
    context's game (with its overlays) if it names one."""
    game = context.game
    if not 1 <= size <= MAX_DECK:
        raise UsageError(f"--deck is the number of cards drawn from, 1 to {MAX_DECK:,}")
    parsed = [parse_category(c) for c in categories]
    if not parsed:
        raise UsageError("give the deck's categories: --category ships=15 (repeatable)")
    names = [fold(c.label) for c in parsed]
    if len(set(names)) != len(names):
        raise UsageError("each --category is named once")
    total = sum(c.count for c in parsed)
    if total > size:
        raise UsageError(f"the categories hold {total} cards, more than the deck's {size}")
    the_game = get_game(game) if game else _no_game()
    base = the_game.catalog(context.overlays) if game else None
    specs = dict(base.fields) if base else {}
    cards: list[tuple[Card, int]] = []
    for i, c in enumerate(parsed):
        key, colon, value = c.label.partition(":")
        key = key.strip()
        types: tuple[str, ...] = ()
        fields: dict[str, object] = {}
        name = c.label
        if colon and value.strip():
            if key == "type":
                types = (value.strip(),)
            elif key == "name":
                name = value.strip()
            else:
                fields[key] = _typed(value.strip(), specs.get(key))
                specs.setdefault(key, FieldSpec(key, "text"))
        card = Card(f"category/{i + 1}", name, types, MappingProxyType(fields))
        cards.append((card, c.count))
    if size > total:
        cards.append((Card("category/other", "other cards", ()), size - total))
    own = tuple(card for card, _ in cards)
    catalog = Catalog(
        the_game.id,
        "your categories",
        own + (tuple(base) if base else ()),
        MappingProxyType(specs),
    )
    label = f"a deck of {size}: " + ", ".join(f"{c.count} {c.label}" for c in parsed)
    spec = the_game.spec
    if game and spec.opening is not None:
        return DrawSetup(
            label, the_game, catalog, size, tuple(cards), (), spec.opening, spec.mulligan
        )
    if seen is None:
        raise UsageError(
            "say how many cards are drawn: --seen N"
            + ("" if game else " (or --game for a game's opening hand and mulligan)")
        )
    why = f"{seen} drawn" + (f"; {the_game.id} deals no hand from a deck" if game else "")
    opening = OpeningModel(hand_size=seen, description=why)
    return DrawSetup(
        label,
        the_game,
        catalog,
        size,
        tuple(cards),
        (),
        opening,
        None,
        builtin_pile="categories",
        pile_note="cards given as category counts",
    )


def _typed(value: str, spec: FieldSpec | None) -> object:
    """A value as the game's field holds it (a number for a number field)."""
    digits = value.lstrip("-")
    if (
        spec is not None
        and spec.kind == "int"
        and digits.isascii()
        and digits.isdigit()
        and len(digits) <= 18
    ):
        return int(value)
    if spec is not None and spec.kind == "bool":
        return fold(value) in {"true", "yes", "1"}
    if spec is not None and spec.kind == "list":
        return [value]
    return value
