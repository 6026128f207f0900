"""Cards a game takes out of the deck before the shuffle (a planet, seed cards, miners).

One function serves the draw pile of ``odds``/``simulate``/``hand`` and the rules that count
such cards (STCCG's seed half), so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.games.spec import SetAsideModel, ZoneModel, checked


@frozen
class SetAside:
    """Copies of one card taken out before the shuffle, and why."""

    card: Card
    count: int
    why: str


def _values(card: Card, field: str) -> list[str]:
    value = card.get(field)
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    return [fold(str(v)) for v in items] or [""]


def places(deck: Deck, rules: Sequence[SetAsideModel]) -> bool:
    """Whether the deck's file says where the cards go: a card in a zone a rule names."""
    zones = {rule.zone for rule in rules if rule.zone}
    return bool(zones) and any(e.zone in zones for e in deck.entries)


def set_aside(deck: Deck, catalog: Catalog, rules: Sequence[SetAsideModel]) -> tuple[SetAside, ...]:
    """Apply ``rules`` in order to the deck's cards (in deck order); a card taken by one rule
    is not seen by the next.

    A rule takes every matching copy, at most ``count`` copies in all, or, with ``one_per``,
    one copy per distinct value of that field (STCCG: one Outpost per affiliation; the cards of
    one value go first, then a copy with several values uses one not yet taken). A rule with
    a ``zone`` takes only copies the file wrote in that zone; a ``fallback`` rule applies only
    where the file wrote no card in any such zone (:func:`places`).
    """
    remaining = dict(deck.counts())
    in_zone: dict[tuple[str, str | None], int] = {}
    for e in deck.entries:
        in_zone[(e.card.id, e.zone)] = in_zone.get((e.card.id, e.zone), 0) + e.count
    placed = places(deck, rules)
    # A rule by type takes its copies from the zones the rules name first (a file seeding a
    # card in its seed zone, and drawing another copy, seeds that one), then in file order.
    named = [rule.zone for rule in rules if rule.zone]
    file_zones = [*named, *(e.zone for e in deck.entries)]
    cards = deck.cards()
    out: list[SetAside] = []
    for rule in rules:
        if rule.fallback and placed:
            continue
        selector = bind_selector(rule.select, catalog) if rule.select else None
        used: set[str] = set()
        left = rule.count
        order = list(remaining)
        if rule.one_per:
            # Cards of one value take theirs first, then a card of several (an Outpost of two
            # affiliations) takes those still free: the most cards seeded, whatever the
            # deck's order, so that the rules' linear constraints can state it.
            order.sort(key=lambda i: len(set(_values(cards[i], rule.one_per))) > 1)
        for card_id in order:
            have = remaining[card_id]
            if rule.zone:
                have = min(have, in_zone.get((card_id, rule.zone), 0))
            if not have or (selector is not None and not selector(cards[card_id])):
                continue
            take = have if left is None else min(left, have)
            if rule.one_per:
                free = [v for v in dict.fromkeys(_values(cards[card_id], rule.one_per))]
                free = [v for v in free if v not in used][:take]
                used.update(free)
                take = len(free)
            if take:
                remaining[card_id] -= take
                _taken(in_zone, card_id, rule.zone, take, file_zones)
                out.append(SetAside(cards[card_id], take, rule.why))
                if left is not None:
                    left -= take
            if left == 0:
                break
    return tuple(out)


def _taken(
    in_zone: dict[tuple[str, str | None], int],
    card_id: str,
    zone: str,
    take: int,
    zones: Sequence[str | None],
) -> None:
    """Count ``take`` copies of a card out of its zones: of ``zone`` when the rule named one,
    else of its zones in file order."""
    for where in [zone] if zone else list(dict.fromkeys(zones)):
        have = in_zone.get((card_id, where), 0)
        step = min(have, take)
        if step:
            in_zone[(card_id, where)] = have - step
            take -= step


def pinned(deck: Deck, rules: Sequence[SetAsideModel]) -> tuple[SetAsideModel, ...] | None:
    """Rules that set aside what ``rules`` set aside from this deck, written without zones, so
    that rules stated over card counts (``fix``) see the file's own placement: each card the
    file wrote wholly in a zone a rule names is taken (by id) as that rule takes it, each card
    wholly outside them is never taken, and any other card (one the answer adds) falls to the
    ``fallback`` rules, placed by type. None when the file places nothing (the rules stand)."""
    if not places(deck, rules):
        return None
    zone_rules = {rule.zone: rule for rule in rules if rule.zone}
    zones: dict[str, set[str | None]] = {}
    for e in deck.entries:
        zones.setdefault(e.card.id, set()).add(e.zone)
    out = [rule for rule in rules if not rule.zone and not rule.fallback]
    for card_id, where in zones.items():
        if len(where) != 1:
            continue  # copies in several zones: placed by type
        (zone,) = where
        rule = zone_rules.get(zone or "")
        if rule is not None:
            out.append(SetAsideModel(select=f"id:{card_id}", why=rule.why, fallback=True))
        else:
            out.append(SetAsideModel(select=f"id:{card_id}", count=0, fallback=True))
    out += [rule for rule in rules if rule.fallback]
    return tuple(out)


def with_seeded_zones(
    rules: Sequence[SetAsideModel], zones: Sequence[ZoneModel]
) -> tuple[SetAsideModel, ...]:
    """``rules``, then one rule for each zone whose cards the file seeds (a Lackey
    ``Seed+Dil:``): what the file puts there is set aside whatever the rules would seed, so it
    is never drawn (the rules of the variant say, in their findings, what it may not seed)."""
    extra = (checked(SetAsideModel, {"zone": z.name, "why": z.seeded}) for z in zones if z.seeded)
    return (*rules, *extra)
