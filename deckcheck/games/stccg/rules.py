"""Star Trek CCG 1E deck rules: small pure functions of deck, catalog, variant."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.text import fold, plural
from deckcheck.core.violations import Violation, error, warning
from deckcheck.games.base import CodeRule, Variant, warnings_only
from deckcheck.games.limits import Amount
from deckcheck.games.linear import Helper, Linear, RuleConstraints, either, terms
from deckcheck.games.setaside import SetAside, set_aside
from deckcheck.games.spec import SetAsideModel, checked


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seed_cards(deck: Deck, catalog: Catalog, params: Mapping[str, Any]) -> tuple[SetAside, ...]:
    """The deck's seed cards: missions, dilemmas, artifacts, other facilities, and one Outpost
    per affiliation (further copies stay in the draw deck), as ``seed_cards`` in game.toml."""
    rules = [checked(SetAsideModel, r) for r in params["seed_cards"]]
    return set_aside(deck, catalog, rules)


def seed_half(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.seed-half: at most half the deck's cards are seed cards.

    The message breaks them down by type."""
    seeds = seed_cards(deck, catalog, variant.params)
    n = sum(s.count for s in seeds)
    limit = deck.size // 2
    if n > limit:
        by_type: Counter[str] = Counter()
        for seed in seeds:
            by_type[seed.card.types[0].lower()] += seed.count
        parts = ", ".join(f"{k} {t}{'s' if k != 1 else ''}" for t, k in by_type.most_common())
        yield error(
            "stccg.seed-half",
            f"{n} seed cards, at most {limit} allowed ({deck.size} cards): {parts}",
            list(dict.fromkeys(seed.card.id for seed in seeds)),
        )


def seed_half_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The seed cards against half the deck, for the standing while a deck is built."""
    n = sum(s.count for s in seed_cards(deck, catalog, variant.params))
    return Amount("seed card", n, None, deck.size // 2)


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

    if not any(e.card.has_type(outpost) for e in deck):
        yield error(
            "stccg.outposts",
            "no Outpost: Personnel and Ships report for duty at an Outpost, so without one "
            "none of them can ever be played",
        )
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
            f"{plural(len(ids), 'card')} of type {t}, which the Premiere rules do not describe; "
            "counted in the draw deck",
            ids,
        )


def _copies(deck: Deck, kind: str) -> list[tuple[Card, int]]:
    counts = deck.counts()
    return [(c, counts[c.id]) for c in deck.cards().values() if c.has_type(kind)]


def outpost_mission(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.outpost-mission: a warning for an Outpost with no mission of the deck to stand at.

    An affiliation's Outpost stands at a mission showing that affiliation's icon (the
    missions' ``affiliation`` field holds their icons); a Neutral Outpost at a space mission.
    """
    neutral = {fold(a) for a in variant.param("neutral_affiliations")}
    missions = _copies(deck, variant.param("mission_type"))
    n_missions = sum(n for _, n in missions)
    icons = {fold(a) for m, _ in missions for a in m.get("affiliation") or ()}
    space_ok = variant.param("neutral_outpost_locations")
    space = sum(n for m, n in missions if m.get("mission_location") in space_ok)
    for card, _ in _copies(deck, variant.param("outpost_type")):
        affs = [a for a in card.get("affiliation") or () if fold(a) not in neutral]
        if affs and not any(fold(a) in icons for a in affs):
            yield warning(
                "stccg.outpost-mission",
                f"{card.name}: none of the deck's {_plural(n_missions, 'mission')} shows the "
                f"{' or '.join(affs)} icon, so it has nowhere of yours to stand",
                [card.id],
            )
        elif not affs and not space:
            yield warning(
                "stccg.outpost-mission",
                f"{card.name}: a Neutral Outpost stands only at a space mission, and none of "
                f"the deck's {_plural(n_missions, 'mission')} is one",
                [card.id],
            )


def seed_limits(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.seed-limits: a warning for dilemma or artifact copies that cannot be seeded.

    No two identical dilemmas or artifacts go under one mission, and artifacts go under planet
    missions only: copies of one card beyond the deck's missions (planet missions for an
    artifact) are removed from the game. Different artifacts may share a mission, so only the
    copies of one card are limited.
    """
    missions = _copies(deck, variant.param("mission_type"))
    total = sum(n for _, n in missions)
    planet_at = variant.param("planet_locations")
    planet = sum(n for m, n in missions if m.get("mission_location") in planet_at)
    checks = [
        (card, n, "dilemma", total, "") for card, n in _copies(deck, variant.param("dilemma_type"))
    ]
    checks += [
        (card, n, "artifact", planet, "planet ")
        for card, n in _copies(deck, variant.param("artifact_type"))
    ]
    for card, n, kind, room, where in checks:
        if n > room:
            yield warning(
                "stccg.seed-limits",
                f"{n} copies of the {kind} {card.name}, but the deck has "
                f"{_plural(room, where + 'mission')}"
                + (f" (of {total})" if where else "")
                + f": no two identical {kind}s go under one mission"
                + (", and artifacts go under planet missions only" if where else "")
                + f", so {n - room} cannot be seeded",
                [card.id],
            )


def seed_half_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.seed-half as constraints: 2 x seed cards - all cards <= 0.

    A card set aside whole counts +1 (2 - 1), any other card -1; a card of a ``one_per`` rule
    (an Outpost) counts -1 as a draw card, and each of its values (affiliations) +2 once it has
    a copy in the deck: a 0/1 helper per value that must be 1 while such copies are held. An
    Outpost of several affiliations is taken as one value (the set of them).
    """
    rules = [checked(SetAsideModel, r) for r in variant.param("seed_cards")]
    coefficient: dict[str, int] = {}
    per_value: dict[tuple[str, ...], list[str]] = {}
    exact = True
    selectors = [(r, bind_selector(r.select, catalog)) for r in rules]
    for card in catalog:
        rule = next((r for r, selects in selectors if selects(card)), None)
        if rule is None:
            coefficient[card.id] = -1
        elif rule.count is not None:
            exact = False  # "at most N copies" is not stated here: checked on the answer
            coefficient[card.id] = -1
        elif rule.one_per:
            coefficient[card.id] = -1
            value = card.get(rule.one_per)
            items = value if isinstance(value, list | tuple) else [] if value is None else [value]
            per_value.setdefault(tuple(sorted(fold(str(v)) for v in items)), []).append(card.id)
        else:
            coefficient[card.id] = 1
    linear: list[Linear] = []
    helpers: list[Helper] = []
    for i, (_value, ids) in enumerate(sorted(per_value.items())):
        yes, no, link = either(f"stccg.seed-half:{i}")
        helpers += [yes, no]
        linear += [link, Linear(terms(ids), None, 0, when=no.name)]
        coefficient[yes.name] = 2
    linear.append(Linear(coefficient, None, 0))
    return RuleConstraints(
        "stccg.seed-half",
        tuple(linear),
        tuple(helpers),
        exact=exact,
    )


def outposts_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.outposts as constraints: at least one Outpost; and for each set of affiliations
    of Personnel/Ships, either an Outpost of one of them or none of those cards (a 0/1 pair
    of helpers chooses)."""
    neutral = {fold(a) for a in variant.param("neutral_affiliations")}
    kinds = variant.param("affiliated_types")
    outpost = variant.param("outpost_type")
    posts = [c for c in catalog if c.has_type(outpost)]
    linear = [Linear(terms(c.id for c in posts), 1)]
    groups: dict[frozenset[str], list[str]] = {}
    for card in catalog:
        if not any(card.has_type(k) for k in kinds):
            continue
        every = frozenset(fold(a) for a in card.get("affiliation") or ())
        if every - neutral:
            groups.setdefault(every, []).append(card.id)
    helpers: list[Helper] = []
    for i, (every, ids) in enumerate(sorted(groups.items(), key=lambda kv: sorted(kv[0]))):
        covering = [o.id for o in posts if {fold(a) for a in o.get("affiliation") or ()} & every]
        yes, no, link = either(f"stccg.outposts:{i}")
        helpers += [yes, no]
        linear += [link, Linear(terms(covering), 1, when=yes.name)]
        linear.append(Linear(terms(ids), None, 0, when=no.name))
    return RuleConstraints("stccg.outposts", tuple(linear), tuple(helpers))


# stccg.size and stccg.missions are data: [checks] in game.toml.
RULES = {
    "stccg.seed-half": CodeRule(seed_half, seed_half_constraints, seed_half_amount),
    "stccg.outposts": CodeRule(outposts, outposts_constraints),
    "stccg.type-outside-rules": CodeRule(
        type_outside_rules, warnings_only("stccg.type-outside-rules")
    ),
    "stccg.outpost-mission": CodeRule(outpost_mission, warnings_only("stccg.outpost-mission")),
    "stccg.seed-limits": CodeRule(seed_limits, warnings_only("stccg.seed-limits")),
}
