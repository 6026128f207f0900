"""Star Trek CCG 1E deck rules: small pure functions of deck, catalog, variant."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.text import fold
from deckcheck.core.violations import Violation, error, warning
from deckcheck.games.base import Variant


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def is_seed(card: Card, variant: Variant) -> bool:
    """Seed cards (missions, outposts and other facilities, artifacts, dilemmas)."""
    return any(card.has_type(t) for t in variant.param("seed_types"))


def size(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.size: exactly ``deck_size`` cards."""
    want = variant.param("deck_size")
    if deck.size != want:
        yield error(
            "stccg.size",
            f"{deck.size} cards, exactly {want} required "
            f"({'remove' if deck.size > want else 'add'} {abs(deck.size - want)})",
        )


def missions(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.missions: exactly ``missions`` missions (advanced: at least that many, even)."""
    want = variant.param("missions")
    kind = variant.param("mission_type")
    n = deck.count_where(lambda c: c.has_type(kind))
    ids = deck.ids_where(lambda c: c.has_type(kind))
    if variant.param("missions_rule") == "exactly":
        if n != want:
            yield error("stccg.missions", f"{_plural(n, 'mission')}, exactly {want} required", ids)
    elif n < want or n % 2:
        yield error(
            "stccg.missions",
            f"{_plural(n, 'mission')}: at least {want} and an even number required",
            ids,
        )


def seed_half(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.seed-half: at most half the deck are seed cards; the message breaks them down."""
    seeds = [e for e in deck if is_seed(e.card, variant)]
    n = sum(e.count for e in seeds)
    limit = deck.size // 2
    if n > limit:
        by_type: Counter[str] = Counter()
        for e in seeds:
            by_type[e.card.types[0].lower()] += e.count
        parts = ", ".join(f"{k} {t}{'s' if k != 1 else ''}" for t, k in by_type.most_common())
        yield error(
            "stccg.seed-half",
            f"{n} seed cards, at most {limit} allowed ({deck.size} cards): {parts}",
            list(dict.fromkeys(e.card.id for e in seeds)),
        )


def outposts(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.outposts: an Outpost for every non-neutral affiliation of Personnel and Ships.

    A card of several affiliations may be played as any of them, so an Outpost of any one of
    its affiliations covers it (a Non-Aligned Outpost covers a Cardassian/Non-Aligned card);
    a card that is only neutral needs none.
    """
    neutral = {fold(a) for a in variant.param("neutral_affiliations")}
    kinds = variant.param("affiliated_types")
    outpost = variant.param("outpost_type")

    def affiliations(card: Card) -> frozenset[str]:
        return frozenset(a for a in card.get("affiliation") or () if fold(a) not in neutral)

    covered: set[str] = set()
    for e in deck:
        if e.card.has_type(outpost):
            covered |= {fold(a) for a in e.card.get("affiliation") or ()}
    missing: dict[frozenset[str], list[Card]] = {}
    for e in deck:
        if not any(e.card.has_type(k) for k in kinds):
            continue
        affs = affiliations(e.card)
        every = {fold(a) for a in e.card.get("affiliation") or ()}
        if affs and not every & covered:
            missing.setdefault(affs, []).append(e.card)
    for affs, cards in sorted(missing.items(), key=lambda kv: sorted(kv[0])):
        names = ", ".join(c.name for c in cards[:5]) + (", …" if len(cards) > 5 else "")
        yield error(
            "stccg.outposts",
            f"no {' or '.join(sorted(affs))} Outpost for {len(cards)} "
            f"{'/'.join(sorted(affs))} Personnel/Ships ({names})",
            [c.id for c in cards],
        )


def type_outside_rules(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.type-outside-rules: a warning for types the Premiere rulebook does not describe."""
    known = {fold(t) for t in variant.param("premiere_types")}
    odd: dict[str, list[str]] = {}
    for e in deck:
        for t in e.card.types:
            if fold(t) not in known:
                odd.setdefault(t, []).append(e.card.id)
    for t, ids in odd.items():
        ids = list(dict.fromkeys(ids))
        yield warning(
            "stccg.type-outside-rules",
            f"{len(ids)} card(s) of type {t}, which the Premiere rules do not describe; "
            "counted in the draw deck",
            ids,
        )


RULES = {
    "stccg.size": size,
    "stccg.missions": missions,
    "stccg.seed-half": seed_half,
    "stccg.outposts": outposts,
    "stccg.type-outside-rules": type_outside_rules,
}
