"""Selectors pick cards: ``field:value``, ``id:I/25`` or a card's name.

The same selectors serve the user's conditions and a game's data (set-aside cards, mulligan
triggers, piles, totals), so there is one way to say "these cards".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from weakref import WeakKeyDictionary

from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.errors import ConditionError
from deckcheck.core.text import fold, suggest
from deckcheck.core.values import frozen


@frozen
class Selector:
    """A bound selector: its text and the predicate it stands for (``field``: the one field
    whose value alone decides it, if there is one)."""

    text: str
    predicate: Callable[[Card], bool]
    field: str | None = None

    def __call__(self, card: Card) -> bool:
        return self.predicate(card)


def _value_matches(value: object, wanted: frozenset[str]) -> bool:
    """Whether a card's field value is one of the ``wanted`` folded spellings."""
    if isinstance(value, list | tuple):
        return any(_value_matches(v, wanted) for v in value)
    if isinstance(value, bool):
        return bool(wanted & ({"true", "yes", "1"} if value else {"false", "no", "0"}))
    return fold(str(value)) in wanted


def _field_predicate(field_name: str, wanted: frozenset[str]) -> Callable[[Card], bool]:
    """``_value_matches(card.get(field_name), wanted)``, decided once per card and once per
    distinct value: a game's rules ask the same selector of the same cards for every deck and
    variant they check, and a catalog of thousands of cards holds a few dozen values of a
    field (folding each card's value again for every condition was most of what binding
    conditions cost)."""
    by_value: dict[object, bool] = {}
    by_card: dict[Card, bool] = {}  # cards compare by identity: a variant's changed card is new

    def predicate(card: Card) -> bool:
        got = by_card.get(card)
        if got is not None:
            return got
        value = card.get(field_name)
        key = value_key(value)
        if key is None:
            got = _value_matches(value, wanted)
        else:
            got = by_value.get(key)
            if got is None:
                got = by_value[key] = _value_matches(value, wanted)
        by_card[card] = got
        return got

    return predicate


_SCALARS = (str, int, float, bool, type(None))


def value_key(value: object) -> object:
    """A key that tells apart the field values a selector may answer differently (the type
    too: ``True`` and ``1`` are equal keys in a dict but match differently), or None."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if isinstance(value, list | tuple):
        items = tuple(value)
        if all(type(v) is str for v in items):
            return (str, items)  # texts alone, the usual list (no other key holds bare texts)
        keys = tuple(value_key(v) for v in items)
        return None if None in keys else (list, keys)
    return None


def value_keys(value: object) -> frozenset[str]:
    """The folded spellings a field value matches (``_value_matches(value, wanted)`` is true
    exactly when they meet ``wanted``): what the catalog cache indexes."""
    if isinstance(value, list | tuple):
        return frozenset().union(*(value_keys(v) for v in value))
    if isinstance(value, bool):
        return frozenset({"true", "yes", "1"} if value else {"false", "no", "0"})
    return frozenset({fold(str(value))})


def _as_list(value: object) -> list[object]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


_BOUND: WeakKeyDictionary[Catalog, dict[tuple[str, object], Selector]] = WeakKeyDictionary()
"""Each catalog's bound selectors: a game's own (set-aside rules, copy limits, totals) are
bound for every deck and variant checked, and keep what they decided card by card."""


def bind_selector(
    text: str,
    catalog: Catalog,
    name_candidates: Callable[[str], Sequence[str]] | None = None,
) -> Selector:
    """Turn selector text into a predicate over ``catalog``'s cards (bound once per catalog).

    ``field:value`` when the part before the colon is a field the catalog knows; otherwise the
    whole text is a card name (names may hold colons) or an id. ``name_candidates`` is the
    game's way of reading deck spellings (``Kira**``), so a condition accepts what a deck does.
    """
    bound = _BOUND.setdefault(catalog, {})
    key = (text, name_candidates)
    found = bound.get(key)
    if found is None:
        found = bound[key] = _bind(text, catalog, name_candidates)
    return found


def _bind(
    text: str,
    catalog: Catalog,
    name_candidates: Callable[[str], Sequence[str]] | None,
) -> Selector:
    raw = text.strip().strip("\"'").strip()
    if not raw:
        raise ConditionError("empty selector: write field:value, id:ID or a card name")
    key, sep, value = raw.partition(":")
    field_name = _field_named(catalog, key) if sep else None
    if field_name is None:
        return _by_name(raw, catalog, name_candidates)
    if not value.strip():
        listed = _values(catalog, field_name) if field_name not in ("name", "id") else []
        raise ConditionError(
            f"{raw!r} names the field {key.strip()} but no value",
            details=[f"values: {', '.join(listed[:12])}"],
        )
    if field_name == "id":
        card = catalog.by_id(value.strip())
        if card is None:
            raise ConditionError(f"no card has id {value.strip()!r}")
        target = card.id
        return Selector(raw, lambda c: c.id == target)
    if field_name == "name":
        ids = {c.id for c in catalog.by_name(value)}
        if not ids:
            hint = catalog.suggest_name(value)
            raise ConditionError(
                f"no {catalog.game} card is named {value.strip()!r}",
                details=[f"did you mean: {', '.join(hint)}?"] if hint else [],
            )
        return Selector(raw, lambda c: c.id in ids)
    spec = catalog.fields.get(field_name)
    wanted = spec.same_as(value) if spec else frozenset({fold(value)})
    selector = Selector(raw, _field_predicate(field_name, wanted), field_name)
    if not catalog.any_card(selector, field_name, wanted):
        raise _no_card_has(catalog, field_name, value)
    return selector


def _field_named(catalog: Catalog, key: str) -> str | None:
    """The field (of the catalog, or ``type``, ``name``, ``id``) that ``key`` names in any
    case or accents, or None."""
    folded = fold(key)
    return next((f for f in (*catalog.fields, "type", "name", "id") if fold(f) == folded), None)


def _by_name(
    raw: str, catalog: Catalog, name_candidates: Callable[[str], Sequence[str]] | None
) -> Selector:
    """The selector that names one card: by id, by name, by the game's readings of a name;
    else why ``raw`` selects nothing, with what it may have meant."""
    by_id = catalog.by_id(raw)
    if by_id is not None:
        target = by_id.id
        return Selector(raw, lambda c: c.id == target)
    named = {c.id for c in catalog.by_name(raw)}
    for candidate in name_candidates(raw) if name_candidates and not named else ():
        named = {c.id for c in catalog.by_name(candidate)}
        if named:
            break
    if named:
        return Selector(raw, lambda c: c.id in named)
    raise _not_a_selector(raw, catalog)


def _no_card_has(catalog: Catalog, field_name: str, value: str) -> ConditionError:
    """No card holds ``value`` in the field: the values that come near, or those it holds."""
    values = _values(catalog, field_name)
    hint = suggest(value, values) if values else []
    return ConditionError(
        f"no {catalog.game} card has {field_name} {value.strip()!r}",
        details=[f"did you mean: {', '.join(hint)}?"]
        if hint
        else [
            f"{field_name} values: {', '.join(values[:12])}"
            if values
            else f"no card has a {field_name}"
        ],
    )


def _not_a_selector(raw: str, catalog: Catalog) -> ConditionError:
    """``raw`` is no card and no field of the catalog: a misspelt field (``colr:red``), a
    field's value written alone (``red``, for ``colour:red``), or a misspelt name."""
    key, _, value = raw.partition(":")
    fields = sorted({"type", *catalog.fields} - {"name", "id"})
    if looks_like_field_value(raw):
        hint = suggest(key, fields, limit=1)
        return ConditionError(
            f"{catalog.game} cards have no field {key!r}"
            + (f" (did you mean {hint[0]}:{value}?)" if hint else ""),
            details=[f"fields: {', '.join(fields)}"],
        )
    folded = fold(raw)
    as_value = [f"{f}:{v}" for f in fields for v in _values(catalog, f) if fold(v) == folded]
    hint = catalog.suggest_name(raw)
    return ConditionError(
        f"{raw!r} is neither a card name nor field:value",
        details=[f"did you mean: {', '.join(as_value[:3] or hint)}?"]
        if as_value or hint
        else [f"fields: {', '.join(fields)}"],
    )


_FIELD_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def looks_like_field_value(text: str) -> bool:
    """``colr:red`` is meant as field:value, ``Espionage: Klingon`` as a name with a colon."""
    key, sep, value = text.strip().partition(":")
    return bool(sep) and bool(_FIELD_WORD.fullmatch(key)) and not value[:1].isspace()


_VALUES: WeakKeyDictionary[Catalog, dict[str, list[str]]] = WeakKeyDictionary()
"""Each catalog's values by field, for suggestions: read once (a deck of misspelt selectors
must not read every card again for each of them)."""


def _values(catalog: Catalog, field_name: str) -> list[str]:
    """The values the catalog's cards hold in a field (for suggestions)."""
    known = _VALUES.setdefault(catalog, {})
    if field_name not in known:
        known[field_name] = sorted({str(v) for c in catalog for v in _as_list(c.get(field_name))})
    return list(known[field_name])
