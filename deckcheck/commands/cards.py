"""``cards``: finding cards in a game's catalog."""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Callable, Sequence

from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector, looks_like_field_value
from deckcheck.core.errors import ConditionError
from deckcheck.core.result import OK, Json
from deckcheck.core.text import fold, suggest
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
    suggestions: tuple[str, ...] = ()  # no match: the names nearest the search's words
    # An exact name shown alone: the other cards its words are part of (TERRA's "Terra (Sol
    # III)", Rusot's virtual re-issue "Rusot (Things Past)").
    also: tuple[Card, ...] = ()
    # ...and the fields that hold the name as a value, with how many cards do (Terra is also
    # a faction: ("faction", 25)).
    also_values: tuple[tuple[str, int], ...] = ()

    exit_code = OK

    def to_json(self) -> list[Json]:
        """The matching cards as plain data (a card's fields as in the catalog)."""
        return [c.as_dict() for c in self.cards]


_COMPARISON = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*(<=|>=|!=|==|<|>|=)\s*(-?\d+)\s*$")
_MAX_DIGITS = 18  # beyond any card's number (and int() refuses 4,300 digits)
_OPERATORS: dict[str, Callable[[int, int], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
}


def search_terms(search: str | Sequence[str] | None) -> tuple[str, ...]:
    """The terms of a search: each argument one term, except that an argument holding only
    ``field:value`` and ``field<=N`` words separated by spaces (``'type:ship
    affiliation:klingon'``) is those words."""
    if search is None:
        return ()
    arguments = [search] if isinstance(search, str) else list(search)
    terms: list[str] = []
    for argument in arguments:
        words = argument.split()
        if len(words) > 1 and all(looks_like_field_value(w) or _COMPARISON.match(w) for w in words):
            terms.extend(words)
        elif argument.strip():
            terms.append(argument.strip())
    return tuple(terms)


def _term_predicate(term: str, catalog: Catalog, game: Game) -> Callable[[Card], bool]:
    """What one term asks of a card: ``field<=N`` on a number field, ``field:value``, else
    a part of its name, alias or id."""
    comparison = _COMPARISON.match(term)
    if comparison:
        key, op, number = comparison.groups()
        numbers = sorted(f for f, spec in game.field_specs.items() if spec.kind == "int")
        field = next((f for f in numbers if fold(f) == fold(key)), None)
        if field is None:
            hint = suggest(key, numbers, limit=1)
            raise ConditionError(
                f"{key!r} is no number field of {game.id}"
                + (f" (did you mean {hint[0]}{op}{number}?)" if hint else ""),
                details=[
                    f"number fields: {', '.join(numbers)}"
                    if numbers
                    else f"{game.id} cards have no number fields"
                ],
            )
        digits = number.lstrip("-").lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise ConditionError(
                f"{key}{op}: a number of {len(digits):,} digits is beyond any card's {field}"
            )
        compare, wanted = _OPERATORS[op], int(number)

        def holds(card: Card) -> bool:
            value = card.get(field)
            return isinstance(value, int) and not isinstance(value, bool) and compare(value, wanted)

        return holds
    if looks_like_field_value(term) and fold(term.partition(":")[0]) != "name":
        # field:value as odds reads it, with the same messages for a field or value typo
        return bind_selector(term, catalog, game.name_candidates)
    key = fold(term.partition(":")[2] if fold(term.partition(":")[0]) == "name" else term)
    return lambda c: (
        key in fold(c.name) or key in fold(c.id) or any(key in fold(a) for a in c.aliases)
    )


def find_cards(
    game_id: str, search: str | Sequence[str] | None, context: Context = NO_CONTEXT
) -> CardSearch:
    """Cards matching every term of ``search`` (see :func:`search_terms`): a part of a name,
    alias or id (folded), ``field:value``, or ``field<=N`` (``<``, ``>``, ``>=``, ``=``,
    ``!=``) on a number field. One term that is exactly a name or id is that card alone. Under
    a ``variant`` the cards carry its changes (Dorn four-heroes: rituals cost 1 more blood)
    and its notes come along. With no match, the names nearest the search's words are
    suggested."""
    game = get_game(game_id)
    the_variant = game.variant(context.variant) if context.variant is not None else None
    catalog = game.catalog(context.overlays, the_variant)
    terms = search_terms(search)
    cards: list[Card] = []
    suggestions: tuple[str, ...] = ()
    exact: list[Card] = []
    if len(terms) == 1:
        by_id = catalog.by_id(terms[0])
        # An exact name or id is the card asked for: shown alone, in full.
        exact = catalog.by_name(terms[0]) or ([by_id] if by_id else [])
    also: tuple[Card, ...] = ()
    also_values: tuple[tuple[str, int], ...] = ()
    if exact:
        cards = exact
        part = _term_predicate(f"name:{terms[0]}", catalog, game)
        also = tuple(c for c in catalog if part(c) and c not in exact)
        also_values = _holding(terms[0], catalog, game)
    else:
        predicates = [_term_predicate(t, catalog, game) for t in terms]
        cards = [c for c in catalog if all(p(c) for p in predicates)]
        if not cards:
            words = [t for t in terms if not _COMPARISON.match(t) and not looks_like_field_value(t)]
            names = list(catalog.names())
            suggestions = tuple(dict.fromkeys(n for w in words for n in suggest(w, names, limit=3)))
    shown_search = search if isinstance(search, str) or search is None else " ".join(search)
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
    return CardSearch(
        game, shown_search, tuple(cards), art, shown, notes, suggestions, also, also_values
    )


def _holding(value: str, catalog: Catalog, game: Game) -> tuple[tuple[str, int], ...]:
    """The text fields a listing shows (the game's ``list_fields``) that some card holds
    ``value`` in (folded), with how many cards do; one pass over the catalog."""
    specs = game.field_specs
    fields = tuple(
        f for f in game.spec.list_fields if f in specs and specs[f].kind in ("text", "list")
    )
    counts = catalog.derived(("cards-holding", fields), lambda: _held_values(catalog, fields))
    key = fold(value)
    return tuple((name, counts[name][key]) for name in fields if counts[name][key])


def _held_values(catalog: Catalog, fields: Sequence[str]) -> dict[str, Counter[str]]:
    """Per field, each folded value with the number of cards holding it: counted in one pass
    over the catalog, kept with it for every later search that names a card."""
    counts = {name: Counter[str]() for name in fields}
    for card in catalog:
        for name in fields:
            v = card.get(name)
            items = v if isinstance(v, list | tuple) else [] if v is None else [v]
            counts[name].update({fold(str(i)) for i in items})
    return counts


@frozen
class CardsRequest:
    """The cards of ``game`` matching every term of ``search``, as the context's variant (if
    any) changes them, with its overlays laid on."""

    game: str
    search: tuple[str, ...] | str | None = None
    context: Context = NO_CONTEXT


def run(request: CardsRequest) -> CardSearch:
    """The search of ``request`` (:func:`find_cards`)."""
    return find_cards(request.game, request.search, request.context)
