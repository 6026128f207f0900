"""Ren Dhark's deck rules: small pure functions of deck, catalog and variant."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.text import plural
from deckcheck.core.violations import Violation, error, warning
from deckcheck.games.base import CodeRule, Variant, clean_name, warnings_only
from deckcheck.games.limits import Amount
from deckcheck.games.linear import Helper, Linear, RuleConstraints, either, terms


def _is(kind: str) -> Callable[[Card], bool]:
    return lambda card: card.has_type(kind)


def _composition(deck: Deck, variant: Variant) -> tuple[int, int, int, list[str]]:
    """(ship-only, person/unit-only, dual) counts and the dual cards' ids."""
    ship = variant.param("ship_type")
    persons = variant.param("person_types")

    ships_only = persons_only = dual = 0
    dual_ids: dict[str, None] = {}  # in deck order, each once
    for e in deck.entries:  # one pass: asked of every deck fix and optimize weigh
        card = e.card
        is_ship = card.has_type(ship)
        is_person = any(card.has_type(t) for t in persons)
        if is_ship and is_person:
            dual += e.count
            dual_ids[card.id] = None
        elif is_ship:
            ships_only += e.count
        elif is_person:
            persons_only += e.count
    return ships_only, persons_only, dual, list(dual_ids)


def _dual_note(dual: int, dual_ids: list[str]) -> str:
    return (
        f" ({plural(dual, 'card')} that are ship and unit, {', '.join(dual_ids)}, count as either)"
        if dual
        else ""
    )


def _minimum(
    code: str,
    noun: str,
    own: int,
    other: int,
    dual: int,
    dual_ids: list[str],
    need_own: int,
    need_other: int,
    variant: Variant,
    ships_persons: tuple[int, int],
) -> Iterable[Violation]:
    """One of the two minimums (ships, persons/units) that dual ship/unit cards share."""
    if own + dual < need_own:
        yield error(
            code,
            f"{own + dual} {noun} cards, at least {need_own} needed" + _dual_note(dual, dual_ids),
            dual_ids,
        )
    elif other + dual >= need_other and own + other + dual < need_own + need_other:
        s, p = ships_persons
        yield error(
            code,
            f"{s} ships, {p} persons/units and {plural(dual, 'ship-or-unit card')} cannot make "
            f"both {variant.param('min_ships')} ships and "
            f"{variant.param('min_persons')} persons/units",
            dual_ids,
        )


def ships(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """rd.ships: at least ``min_ships`` ships, dual ship/unit cards assigned where they help."""
    s, p, d, dual_ids = _composition(deck, variant)
    yield from _minimum(
        "rd.ships",
        "ship",
        s,
        p,
        d,
        dual_ids,
        variant.param("min_ships"),
        variant.param("min_persons"),
        variant,
        (s, p),
    )


def ships_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The ships the deck can field (dual ship/unit cards counted), against the minimum."""
    s, _, d, _ = _composition(deck, variant)
    return Amount("ship", s + d, variant.param("min_ships"), None)


def persons_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The persons/units the deck can field (dual cards counted), against the minimum."""
    _, p, d, _ = _composition(deck, variant)
    return Amount("person/unit", p + d, variant.param("min_persons"), None)


def persons(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """rd.persons: at least ``min_persons`` persons/units, dual cards assigned where they help."""
    s, p, d, dual_ids = _composition(deck, variant)
    yield from _minimum(
        "rd.persons",
        "person/unit",
        p,
        s,
        d,
        dual_ids,
        variant.param("min_persons"),
        variant.param("min_ships"),
        variant,
        (s, p),
    )


def colour(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """rd.colour: a warning when the cards mix colours.

    The rulebook's custom-deck rules limit copies, points, ships, persons/units and actions,
    not colours; colours matter in play (blue starts, some actions name a side), so a mixed
    deck is worth knowing about but stays legal. Cards of unknown colour are left out.
    """
    by_colour: dict[str, list[str]] = {}
    copies: dict[str, int] = {}
    for entry in deck:
        known = str(entry.card.get("colour") or "")
        if known:
            by_colour.setdefault(known, []).append(entry.card.id)
            copies[known] = copies.get(known, 0) + entry.count
    if len(by_colour) > 1:
        # Distinct cards and their copies, both named: "29 cards" alone reads as copies.
        parts = [
            f"{c}: {plural(len(ids), 'card')}, {plural(copies[c], 'copy')} "
            f"({', '.join(ids[:6])}{', …' if len(ids) > 6 else ''})"
            for c, ids in sorted(by_colour.items(), key=lambda kv: -len(kv[1]))
        ]
        minority = sorted(by_colour.items(), key=lambda kv: len(kv[1]))[0][1]
        yield warning(
            "rd.colour",
            "cards of more than one colour (allowed, but blue starts and some actions name "
            "a side): " + "; ".join(parts),
            minority,
        )


def colour_clean(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """rd.colour warns of nothing: every colour but one left out (a helper per colour)."""
    ok = Helper(clean_name("rd.colour"), 0, 1)
    by_colour: dict[str, list[str]] = {}
    for card in catalog:
        known = str(card.get("colour") or "")
        if known:
            by_colour.setdefault(known, []).append(card.id)
    helpers = [ok]
    linear: list[Linear] = []
    for k, ids in enumerate(by_colour[c] for c in sorted(by_colour)):
        absent = Helper(f"rd.colour:absent{k}", 0, 1)
        helpers.append(absent)
        linear.append(Linear(terms(ids), None, 0, when=absent.name))
    left_out = {h.name: 1 for h in helpers[1:]}
    linear.append(Linear({**left_out, ok.name: -max(0, len(by_colour) - 1)}, 0, None))
    return RuleConstraints("rd.colour", tuple(linear), tuple(helpers))


_RANGE = re.compile(r"^(.*?)(\d+)-\1(\d+)$")


def _expand(items: Iterable[str]) -> list[str]:
    ids: list[str] = []
    for item in items:
        m = _RANGE.match(item)
        if m:
            ids.extend(f"{m.group(1)}{n}" for n in range(int(m.group(2)), int(m.group(3)) + 1))
        else:
            ids.append(item)
    return ids


def starters(variant: Variant) -> dict[str, list[str]]:
    """The variant's starter decks: colour → card ids (none outside the starter variant)."""
    return {c: _expand(ids) for c, ids in variant.params.get("starters", {}).items()}


def starter(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """rd.starter: the deck is exactly one colour's starter cards, each once."""
    counts = deck.counts()
    starters = {c: _expand(ids) for c, ids in variant.param("starters").items()}
    best = max(starters, key=lambda c: sum(1 for i in starters[c] if i in counts))
    wanted = starters[best]
    missing = [i for i in wanted if i not in counts]
    extra = [i for i in counts if i not in wanted]
    doubled = [i for i in wanted if counts.get(i, 0) > 1]
    if missing:
        yield error(
            "rd.starter", f"the {best} starter lacks {plural(len(missing), 'card')}", missing
        )
    if extra:
        yield error("rd.starter", f"{plural(len(extra), 'card')} not in the {best} starter", extra)
    if doubled:
        yield error(
            "rd.starter", f"{plural(len(doubled), 'card')} more than once (each once)", doubled
        )


def _kinds(catalog: Catalog, variant: Variant) -> tuple[list[str], list[str], list[str]]:
    """Ids of the catalog's ship-only, person/unit-only and dual ship/unit cards."""
    ship = variant.param("ship_type")
    persons = variant.param("person_types")
    s: list[str] = []
    p: list[str] = []
    d: list[str] = []
    for card in catalog:
        is_ship = card.has_type(ship)
        is_person = any(card.has_type(t) for t in persons)
        (d if is_ship and is_person else s if is_ship else p if is_person else []).append(card.id)
    return s, p, d


def ships_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """rd.ships as its check says it: ships with every dual ship/unit card reach the minimum,
    and where the persons/units with every dual card reach theirs, all of them together reach
    both minimums (a dual card counts once). Where they do not, rd.persons says so; with it,
    the pair is exactly the deck that can field both."""
    s, p, d = _kinds(catalog, variant)
    min_ships, min_persons = variant.param("min_ships"), variant.param("min_persons")
    enough, short, link = either("rd.ships:persons-reached")
    return RuleConstraints(
        "rd.ships",
        (
            Linear({**terms(s), **terms(d)}, min_ships),
            link,
            Linear({**terms(p), **terms(d)}, min_persons, when=enough.name),
            Linear({**terms(s), **terms(p), **terms(d)}, min_ships + min_persons, when=enough.name),
            Linear({**terms(p), **terms(d)}, None, min_persons - 1, when=short.name),
        ),
        (enough, short),
    )


def persons_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """rd.persons: persons/units with every dual card (the pair is stated by rd.ships)."""
    _, p, d = _kinds(catalog, variant)
    return RuleConstraints(
        "rd.persons", (Linear({**terms(p), **terms(d)}, variant.param("min_persons")),)
    )


def starter_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """rd.starter: one helper per colour, exactly one of them 1; each starter card of that
    colour once, every other card none."""
    starters = {c: _expand(ids) for c, ids in variant.param("starters").items()}
    pick = {c: Helper(f"rd.starter:{c}", 0, 1) for c in starters}
    linear = [Linear({h.name: 1 for h in pick.values()}, 1, 1)]
    members: dict[str, list[str]] = {}
    for colour_name, ids in starters.items():
        for card_id in ids:
            members.setdefault(card_id, []).append(pick[colour_name].name)
    for card_id, helpers in members.items():
        linear.append(Linear({card_id: 1, **dict.fromkeys(helpers, -1)}, 0, 0))
    fixed = {c.id: 0 for c in catalog if c.id not in members}
    return RuleConstraints("rd.starter", tuple(linear), tuple(pick.values()), fixed)


# rd.copies, rd.points, rd.actions and rd.planet are data: [checks] in game.toml.
RULES = {
    "rd.ships": CodeRule(ships, ships_constraints, ships_amount),
    "rd.persons": CodeRule(persons, persons_constraints, persons_amount),
    "rd.colour": CodeRule(colour, warnings_only("rd.colour"), clean=colour_clean),
    "rd.starter": CodeRule(starter, starter_constraints),
}
