"""Cards a game takes out of the deck before the shuffle (a planet, seed cards, miners).

One function serves the draw pile of ``odds``/``simulate``/``hand`` and the rules that count
such cards (STCCG's seed half), so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.text import fold
from deckcheck.core.values import Recent, frozen
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


_RECENT: Recent[tuple[SetAside, ...]] = Recent(16)
"""The latest answers of :func:`set_aside`: a deck's rules ask for the same cards several times
(the seed deck, the draw deck, each variant the deck is tried under)."""


def set_aside(deck: Deck, catalog: Catalog, rules: Sequence[SetAsideModel]) -> tuple[SetAside, ...]:
    """Apply ``rules`` in order to the deck's cards (in deck order); a card taken by one rule
    is not seen by the next.

    A rule takes every matching copy, at most ``count`` copies in all, or, with ``one_per``,
    one copy per distinct value of that field (STCCG: one Outpost per affiliation; the cards of
    one value go first, then a copy with several values uses one not yet taken). A rule with
    a ``zone`` takes only copies the file wrote in that zone; a ``fallback`` rule applies only
    where the file wrote no card in any such zone (:func:`places`).
    """
    fixed = tuple(rules)
    # the rules by identity (a variant's own, however filtered): hashing them costs more
    return _RECENT.answer(
        len(fixed), (deck, catalog, *fixed), lambda: _set_aside(deck, catalog, fixed)
    )


def _set_aside(
    deck: Deck, catalog: Catalog, rules: tuple[SetAsideModel, ...]
) -> tuple[SetAside, ...]:
    remaining = dict(deck.counts())
    in_zone: dict[tuple[str, str | None], int] = {}
    for e in deck.entries:
        in_zone[(e.card.id, e.zone)] = in_zone.get((e.card.id, e.zone), 0) + e.count
    placed = places(deck, rules)
    # A rule by type takes its copies from the zones the rules name first (a file seeding a
    # card in its seed zone, and drawing another copy, seeds that one), then in file order.
    named = [rule.zone for rule in rules if rule.zone]
    file_zones = list(dict.fromkeys([*named, *(e.zone for e in deck.entries)]))
    cards = deck.cards()
    out: list[SetAside] = []
    for rule in rules:
        if rule.fallback and placed:
            continue
        used: set[str] = set()
        left = rule.count
        # The cards the rule selects (the order below is stable: selecting first keeps theirs).
        if rule.select:
            picks = bind_selector(rule.select, catalog).predicate
            order = [i for i in remaining if picks(cards[i])]
        else:
            order = list(remaining)
        if rule.one_per:
            # Cards of one value take theirs first, then a card of several (an Outpost of two
            # affiliations) takes those still free: the most cards seeded, whatever the
            # deck's order, so that the rules' linear constraints can state it.
            # Among them a card the file seeds (a copy in a zone the rules name) comes first:
            # the Outpost written in Seed+Dil is the one seeded, a drawn one of its
            # affiliation stays in the draw deck.
            order.sort(
                key=lambda i: (
                    len(set(_values(cards[i], rule.one_per))) > 1,
                    not any(in_zone.get((i, z), 0) for z in named),
                )
            )
        for card_id in order:
            have = remaining[card_id]
            if rule.zone:
                have = min(have, in_zone.get((card_id, rule.zone), 0))
            if not have:
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
    else of its zones in file order (``zones``: each once)."""
    for where in [zone] if zone else zones:
        have = in_zone.get((card_id, where), 0)
        step = min(have, take)
        if step:
            in_zone[(card_id, where)] = have - step
            take -= step


def placement(rules: Sequence[SetAsideModel], placed: bool) -> tuple[SetAsideModel, ...]:
    """The rules as they apply to a deck that places its cards (``placed``: it wrote a card in
    a zone a rule names, :func:`places`) or does not: the ``fallback`` rules apply only to
    the second, the zone rules take something only from the first. Rules stated over card
    counts (``fix``, ``optimize``) are stated for one of the two."""
    if placed:
        return tuple(rule for rule in rules if not rule.fallback)
    return tuple(rule for rule in rules if not rule.zone)


class Taken(NamedTuple):
    """What set-aside rules take of one card's copies: every copy (``whole``), the copies in
    ``zones``, one per value of ``one_per``; ``partial``: a rule taking at most some number of
    copies in all (which ones is the deck's order: no linear statement). A named tuple: asked
    of every card of a catalog."""

    whole: bool = False
    zones: tuple[str, ...] = ()
    one_per: str = ""
    partial: bool = False


def taken(
    card: Card, rules: Sequence[tuple[SetAsideModel, Callable[[Card], bool] | None]]
) -> Taken:
    """What ``rules`` (each with its bound selector, None: any card), applied in order as
    :func:`set_aside` applies them, take of a card: the zone rules before the first rule that
    takes copies wherever they are."""
    zones: list[str] = []
    for rule, selects in rules:
        if selects is not None and not selects(card):
            continue
        if rule.zone:
            zones.append(rule.zone)
        elif rule.count == 0:
            continue
        elif rule.count is not None:
            return Taken(zones=tuple(zones), partial=True)
        elif rule.one_per:
            return Taken(zones=tuple(zones), one_per=rule.one_per)
        else:
            return Taken(whole=True, zones=tuple(zones))
    return Taken(zones=tuple(dict.fromkeys(zones)))


def bound_rules(
    rules: Sequence[SetAsideModel], catalog: Catalog
) -> list[tuple[SetAsideModel, Callable[[Card], bool] | None]]:
    """Each rule with its selector bound to the catalog (None: the rule selects any card)."""
    return [(r, bind_selector(r.select, catalog) if r.select else None) for r in rules]


def with_seeded_zones(
    rules: Sequence[SetAsideModel], zones: Sequence[ZoneModel]
) -> tuple[SetAsideModel, ...]:
    """``rules``, then one rule for each zone whose cards the file seeds (a Lackey
    ``Seed+Dil:``): what the file puts there is set aside whatever the rules would seed, so it
    is never drawn (the rules of the variant say, in their findings, what it may not seed)."""
    extra = (checked(SetAsideModel, {"zone": z.name, "why": z.seeded}) for z in zones if z.seeded)
    return (*rules, *extra)
