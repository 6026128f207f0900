"""``cards``: finding cards in a game's catalog."""

from __future__ import annotations

from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector, looks_like_field_value
from deckcheck.core.result import OK, Json
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import get_game


@frozen
class CardSearch:
    """Cards found, and for a single match the game's drawing of it (if it has one)."""

    game: Game
    search: str | None
    cards: tuple[Card, ...]
    art: str | None = None
    fields: tuple[str, ...] = ()
    variant_notes: tuple[str, ...] = ()  # what the chosen variant changes, for display

    exit_code = OK

    def to_json(self) -> list[Json]:
        """The matching cards as plain data (a card's fields as in the catalog)."""
        return [c.as_dict() for c in self.cards]


def find_cards(game_id: str, search: str | None, context: Context = NO_CONTEXT) -> CardSearch:
    """Cards whose name, alias or id contains ``search`` (folded), or that match
    ``field:value``; exact name or id matches come first. Under a ``variant`` the cards carry
    its changes (Dorn four-heroes: rituals cost 1 more blood) and its notes come along."""
    game = get_game(game_id)
    the_variant = game.variant(context.variant) if context.variant is not None else None
    catalog = game.catalog(context.overlays, the_variant)
    cards: list[Card]
    if not search:
        cards = list(catalog)
    else:
        by_id = catalog.by_id(search)
        exact = catalog.by_name(search) or ([by_id] if by_id else [])
        key = fold(search)
        # An exact name or id is the card asked for: shown alone, in full.
        cards = exact or [
            c
            for c in catalog
            if key in fold(c.name) or key in fold(c.id) or any(key in fold(a) for a in c.aliases)
        ]
        if not cards and looks_like_field_value(search):
            # field:value as odds reads it, with the same messages for a field or value typo
            selector = bind_selector(search, catalog, game.name_candidates)
            cards = [c for c in catalog if selector(c)]
    art = game.card_art(cards[0]) if game.card_art and len(cards) == 1 else None
    shown = (
        tuple(game.spec.list_fields)
        or tuple(
            f for f in game.field_specs if f not in ("type",) and game.field_specs[f].kind != "data"
        )[:4]
    )
    notes: tuple[str, ...] = ()
    if the_variant is not None:
        notes = (
            f"variant {the_variant.name}: {the_variant.description}",
            *(f"{c.field} {c.add:+d} for {c.select}: {c.why}" for c in the_variant.card_changes),
            *the_variant.notes,
        )
    return CardSearch(game, search, tuple(cards), art, shown, notes)
