"""Star Trek CCG 1E deck rules: small pure functions of deck, catalog, variant."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import CatalogError
from deckcheck.core.text import fold, plural
from deckcheck.core.violations import Violation, error, undecided, warning
from deckcheck.games.base import CodeRule, Variant, clean_name, warnings_only
from deckcheck.games.limits import Amount
from deckcheck.games.linear import (
    Helper,
    Linear,
    RuleConstraints,
    either,
    in_zone,
    terms,
)
from deckcheck.games.setaside import SetAside, bound_rules, placement, set_aside, taken
from deckcheck.games.spec import SetAsideModel, checked


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def seed_cards(deck: Deck, catalog: Catalog, params: Mapping[str, Any]) -> tuple[SetAside, ...]:
    """The deck's seed cards: missions, dilemmas, artifacts, other facilities, and one Outpost
    per affiliation (further copies stay in the draw deck), as ``seed_cards`` in game.toml."""
    rules = [checked(SetAsideModel, r) for r in params["seed_cards"]]
    return set_aside(deck, catalog, rules)


def _seed_cards(deck: Deck, catalog: Catalog, variant: Variant) -> tuple[SetAside, ...]:
    """:func:`seed_cards` under a variant (its rules made once)."""
    return set_aside(deck, catalog, variant.tables("seed_cards", SetAsideModel))


def seed_half(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.seed-half: at most half the deck's cards are seed cards.

    The message breaks them down by type."""
    seeds = _seed_cards(deck, catalog, variant)
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
    n = sum(s.count for s in _seed_cards(deck, catalog, variant))
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
    seeded = {a.card.id for a in _file_only_seeds(deck, catalog, variant)}
    for t, ids in odd.items():
        ids = list(dict.fromkeys(ids))
        where = (
            "set aside as the file seeds it"
            if all(i in seeded for i in ids)
            else "counted in the draw deck"
        )
        yield warning(
            "stccg.type-outside-rules",
            f"{plural(len(ids), 'card')} of type {t}, which the Premiere rules do not describe; "
            + where,
            ids,
        )


_FILE_SEEDS = "the file's seed zone"
"""Why a card is set aside that only the file seeds (its seed or mission zone)."""


@functools.lru_cache(maxsize=16)
def _zone_rules(zones: tuple[str, ...]) -> tuple[SetAsideModel, ...]:
    """A rule setting aside what the file writes in each of ``zones``, as the file seeds."""
    return tuple(checked(SetAsideModel, {"zone": z, "why": _FILE_SEEDS}) for z in zones)


def _file_only_seeds(deck: Deck, catalog: Catalog, variant: Variant) -> list[SetAside]:
    """Copies the file writes in its seed or mission zone that the Premiere rules do not seed
    (they are set aside as the file says: never drawn)."""
    rules = variant.tables("seed_cards", SetAsideModel)
    zones = [variant.param("seed_zone"), variant.param("mission_zone")]
    extra = _zone_rules(tuple(zones))
    return [a for a in set_aside(deck, catalog, [*rules, *extra]) if a.why == _FILE_SEEDS]


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
    """stccg.seed-limits: a warning for cards the file seeds that the rules do not (kept out of
    the draw deck all the same), and for dilemma or artifact copies that cannot be seeded.

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
    odd = _file_only_seeds(deck, catalog, variant)
    if odd:
        yield warning(
            "stccg.seed-limits",
            f"{', '.join(a.card.name for a in odd)}: written in the file's seed zone, but the "
            "Premiere rules seed only missions, dilemmas, artifacts, one Outpost per "
            "affiliation and other facilities; set aside as the file says (never drawn), not "
            "counted as seed cards",
            [a.card.id for a in odd],
        )
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
    (an Outpost) counts -1 as a draw card, plus 2 for each copy seeded (:func:`_one_per_terms`:
    one per affiliation, a card of several affiliations taking those still free).
    """
    rules = variant.tables("seed_cards", SetAsideModel)
    coefficient: dict[str, int] = {}
    picks: list[tuple[Card, str]] = []
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
            picks.append((card, rule.one_per))
        else:
            coefficient[card.id] = 1
    seeded, linear, helpers, whole = _one_per_terms("stccg.seed-half", picks)
    for name, k in seeded.items():
        coefficient[name] = coefficient.get(name, 0) + 2 * k
    linear.append(Linear(coefficient, None, 0))
    return RuleConstraints(
        "stccg.seed-half",
        tuple(linear),
        tuple(helpers),
        exact=exact and whole,
    )


def _one_per_terms(
    code: str, picks: Iterable[tuple[Card, str]]
) -> tuple[dict[str, int], list[Linear], list[Helper], bool]:
    """The copies a ``one_per`` rule sets aside, as a linear expression over helpers:
    (expression, the helpers' rows, the helpers, exact).

    As :func:`deckcheck.games.setaside.set_aside` takes them: the cards of one value first,
    one copy per value present (a 0/1 helper per value, 1 exactly while the deck holds such
    a card); then a card of several values (Klaestron Outpost: Federation and Cardassian)
    takes one copy per value still free, as many as it has copies: a helper ``t`` with
    ``t <= copies``, ``t <= values still free`` and, one of the two, ``t >= copies`` or
    ``t >= values still free``. Exact while no two such cards share a value (else which
    takes it is the deck's order: checked on the answer).
    """
    single: dict[str, list[str]] = {}
    multi: list[tuple[str, list[str]]] = []
    for card, field_name in picks:
        value = card.get(field_name)
        items = value if isinstance(value, list | tuple) else [] if value is None else [value]
        values = sorted({fold(str(v)) for v in items}) or [""]
        if len(values) == 1:
            single.setdefault(values[0], []).append(card.id)
        else:
            multi.append((card.id, values))
    seeded: dict[str, int] = {}
    linear: list[Linear] = []
    helpers: list[Helper] = []
    flag: dict[str, str] = {}
    for i, (value, ids) in enumerate(sorted(single.items())):
        yes, no, link = either(f"{code}:{i}")
        helpers += [yes, no]
        linear += [
            link,
            Linear(terms(ids), None, 0, when=no.name),
            Linear(terms(ids), 1, None, when=yes.name),
        ]
        seeded[yes.name] = 1
        flag[value] = yes.name
    exact = True
    claimed: set[str] = set()
    for j, (card_id, values) in enumerate(multi):
        if claimed & set(values):
            exact = False
        claimed |= set(values)
        took = Helper(f"{code}:several{j}", 0, len(values))
        full, short, link = either(f"{code}:several{j}")
        helpers += [took, full, short]
        free = {took.name: 1, **{flag[v]: 1 for v in values if v in flag}}
        linear += [
            Linear({took.name: 1, card_id: -1}, None, 0),
            Linear(free, None, len(values)),
            link,
            Linear({took.name: 1, card_id: -1}, 0, None, when=short.name),
            Linear(free, len(values), None, when=full.name),
        ]
        seeded[took.name] = 1
    return seeded, linear, helpers, exact


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


# --- the warning rules' clean forms (an answer's new warnings, minimised exactly) ------------


def type_outside_rules_clean(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.type-outside-rules warns of nothing: no card of a type the rules do not know."""
    code = "stccg.type-outside-rules"
    known = {fold(t) for t in variant.param("premiere_types")}
    odd = [c.id for c in catalog if any(fold(t) not in known for t in c.types)]
    ok = Helper(clean_name(code), 0, 1)
    return RuleConstraints(code, (Linear(terms(odd), None, 0, when=ok.name),), (ok,))


def outpost_mission_clean(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.outpost-mission warns of nothing: each affiliation's Outposts have a mission
    showing one of its icons, Neutral Outposts a space mission (``absent`` helpers: the
    Outposts of one set of affiliations are left out)."""
    code = "stccg.outpost-mission"
    neutral = {fold(a) for a in variant.param("neutral_affiliations")}
    missions = [c for c in catalog if c.has_type(variant.param("mission_type"))]
    space_ok = variant.param("neutral_outpost_locations")
    by_affs: dict[frozenset[str], list[str]] = {}
    for card in catalog:
        if card.has_type(variant.param("outpost_type")):
            affs = frozenset(
                fold(a) for a in card.get("affiliation") or () if fold(a) not in neutral
            )
            by_affs.setdefault(affs, []).append(card.id)
    ok = Helper(clean_name(code), 0, 1)
    helpers = [ok]
    linear: list[Linear] = []
    for k, (affs, ids) in enumerate(sorted(by_affs.items(), key=lambda kv: sorted(kv[0]))):
        if affs:
            icons = [(m.id, {fold(a) for a in m.get("affiliation") or ()}) for m in missions]
            stands = [i for i, shown in icons if affs & shown]
        else:
            stands = [m.id for m in missions if m.get("mission_location") in space_ok]
        absent = Helper(f"{code}:absent{k}", 0, 1)
        helpers.append(absent)
        linear.append(Linear(terms(ids), None, 0, when=absent.name))
        linear.append(Linear({**terms(stands), absent.name: 1}, 1, None, when=ok.name))
    return RuleConstraints(code, tuple(linear), tuple(helpers))


def seed_limits_clean(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.seed-limits warns of nothing: no dilemma's copies beyond the deck's missions, no
    artifact's beyond its planet missions, and nothing in the file's seed or mission zone
    that the rules do not seed (an Outpost there takes an affiliation of its own: a flow of
    its copies to its affiliations, one each)."""
    code = "stccg.seed-limits"
    ok = Helper(clean_name(code), 0, 1)
    n_missions = Helper(f"{code}:missions")
    n_planets = Helper(f"{code}:planets")
    helpers = [ok, n_missions, n_planets]
    missions = [c for c in catalog if c.has_type(variant.param("mission_type"))]
    planet_at = variant.param("planet_locations")
    linear = [
        Linear({**terms(m.id for m in missions), n_missions.name: -1}, 0, 0),
        Linear(
            {
                **terms(m.id for m in missions if m.get("mission_location") in planet_at),
                n_planets.name: -1,
            },
            0,
            0,
        ),
    ]
    for kind, room in (("dilemma_type", n_missions), ("artifact_type", n_planets)):
        for card in catalog:
            if card.has_type(variant.param(kind)):
                linear.append(Linear({card.id: 1, room.name: -1}, None, 0, when=ok.name))
    zones = [variant.param("seed_zone"), variant.param("mission_zone")]
    rules = variant.tables("seed_cards", SetAsideModel)
    unlimited = [bind_selector(r.select, catalog) for r in rules if r.select and not r.one_per]
    per = [(bind_selector(r.select, catalog), r.one_per) for r in rules if r.select and r.one_per]
    stray: list[str] = []
    flows: dict[str, dict[str, int]] = {}
    for card in catalog:
        if any(match(card) for match in unlimited):
            continue
        field_ = next((f for match, f in per if match(card)), None)
        if field_ is None:
            stray += [in_zone(card.id, z) for z in zones]
            continue
        value = card.get(field_)
        items = value if isinstance(value, list | tuple) else [] if value is None else [value]
        row = {in_zone(card.id, z): 1 for z in zones}
        for v in dict.fromkeys(fold(str(i)) for i in items):
            flow = Helper(f"{code}:flow:{card.id}:{v}", 0, 1)
            helpers.append(flow)
            row[flow.name] = -1
            flows.setdefault(v, {})[flow.name] = 1
        linear.append(Linear(row, 0, 0, when=ok.name))
    linear += [Linear(f, None, 1) for f in flows.values()]
    if stray:
        linear.append(Linear(dict.fromkeys(stray, 1), None, 0, when=ok.name))
    return RuleConstraints(code, tuple(linear), tuple(helpers))


RULES.update(
    {
        "stccg.type-outside-rules": CodeRule(
            type_outside_rules,
            warnings_only("stccg.type-outside-rules"),
            clean=type_outside_rules_clean,
        ),
        "stccg.outpost-mission": CodeRule(
            outpost_mission, warnings_only("stccg.outpost-mission"), clean=outpost_mission_clean
        ),
        "stccg.seed-limits": CodeRule(
            seed_limits, warnings_only("stccg.seed-limits"), clean=seed_limits_clean
        ),
    }
)


# --- the Continuing Committee's formats (modern, open, traditional, warp-speed) --------------


def entry_tags(entry: DeckEntry, field: str) -> tuple[str, ...] | None:
    """A line's legality tags: its own (a Lackey ``Name *VP`` re-issue's, see the name table)
    where the line gave them, else its card's; None when neither has any (a user's own card)."""
    value = entry.fields.get(field) if entry.fields else None
    if value is None:
        value = entry.card.get(field)
    if value is None:
        return None
    items = value if isinstance(value, list | tuple) else [value]
    return tuple(map(str, items))


@functools.lru_cache(maxsize=1024)
def _folded(tags: tuple[str, ...]) -> frozenset[str]:
    """A card's legality tags folded (a catalog's cards share a few dozen sets of tags, asked
    of every deck under every format)."""
    return frozenset(fold(t) for t in tags)


def _pool_reason(tags: Iterable[str], card: Card, variant: Variant) -> str:
    """Why a card's tags keep it out of the variant's pool: the first reason whose ``tag`` it
    has, or whose ``field`` holds its ``value`` (a virtual promo's release, ``VP``, where its
    tags do not say ``Virtual``)."""
    held = {fold(t) for t in tags}
    for reason in variant.param("pool_reasons"):
        if "tag" in reason and fold(reason["tag"]) in held:
            return str(reason["why"])
        if "field" in reason:
            value = card.get(reason["field"])
            items = value if isinstance(value, list | tuple) else [value]
            if fold(str(reason["value"])) in {fold(str(v)) for v in items if v is not None}:
                return str(reason["why"])
    return "not in its card pool"


def _as_written(entry: DeckEntry) -> str:
    """A line's card as the file names it: ``line 10: 'Rusot *VP' (Rusot (Things Past))``
    where the line's spelling is not the card's name, else the name."""
    if entry.written is None:
        return entry.card.name
    where = f"line {entry.line}: " if entry.line is not None else ""
    return f"{where}{entry.written!r} ({entry.card.name})"


def pool(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.pool: every card (side decks too) in the format's card pool.

    A card is in the pool when its legality tags (``legal``) hold the format's; one finding per
    card outside it, saying why (banned, a virtual card, …)."""
    field, tag, name = (variant.param(k) for k in ("pool_field", "pool", "pool_name"))
    skipped = {fold(z) for z in variant.param("pool_skips_zones")}
    entries = [*deck.entries, *(e for e in deck.side if fold(e.zone or "") not in skipped)]
    seen: set[tuple[str, tuple[str, ...] | None]] = set()
    unknown: list[str] = []
    wanted = fold(tag)
    # in card id order: the findings do not depend on how a file orders its zones
    for e in sorted(entries, key=lambda e: e.card.id):
        tags = entry_tags(e, field)
        if (e.card.id, tags) in seen:
            continue
        seen.add((e.card.id, tags))
        if tags is None:
            unknown.append(e.card.id)
        elif wanted not in _folded(tags):
            yield error(
                "stccg.pool",
                f"{_as_written(e)}: not legal in {name}: {_pool_reason(tags, e.card, variant)}",
                [e.card.id],
            )
    if unknown:
        ids = list(dict.fromkeys(unknown))
        cards = {e.card.id: e.card for e in entries}
        names = ", ".join(cards[i].name for i in ids[:5])
        yield undecided(
            "stccg.pool",
            f"{plural(len(ids), 'card')} without legality tags ({names}): whether they are "
            f"legal in {name} is unknown (give their '{field}' with --catalog)",
            ids,
        )


def pool_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.pool as constraints: every card without the format's tag is fixed at 0 copies."""
    field, tag = variant.param("pool_field"), fold(variant.param("pool"))
    fixed: dict[str, int] = {}
    for card in catalog:
        value = card.get(field)
        items = value if isinstance(value, list | tuple) else [] if value is None else [value]
        if tag not in {fold(str(t)) for t in items}:
            fixed[card.id] = 0
    return RuleConstraints("stccg.pool", fixed=fixed)


def _format_rules(variant: Variant) -> tuple[SetAsideModel, ...]:
    if variant.set_aside is None:
        raise CatalogError(f"variant {variant.name!r} sets nothing aside: it has no seed deck")
    return variant.set_aside


def seed_deck(deck: Deck, catalog: Catalog, variant: Variant) -> tuple[SetAside, ...]:
    """A CC format's seed deck: what the variant sets aside before the shuffle, missions apart
    (they are a pile of their own). The file's seed zone where it has one, else by type."""
    mission = variant.param("mission_type")
    aside = set_aside(deck, catalog, _format_rules(variant))
    return tuple(a for a in aside if not a.card.has_type(mission))


def _by_type(seeds: Iterable[SetAside]) -> str:
    kinds: Counter[str] = Counter()
    for seed in seeds:
        kinds[seed.card.types[0].lower()] += seed.count
    ranked = sorted(kinds.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{k} {t}{'s' if k != 1 else ''}" for t, k in ranked)


def seed_max(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.seed-max: a seed deck of at most 30 cards (Warp Speed: 10).

    At most ``max_seed`` cards in the seed deck; and at most ``max_seeded_draw_types`` cards
    of ``seeded_draw_types`` among them (Warp Speed: one ship, personnel or equipment) where
    the variant limits them."""
    seeds = seed_deck(deck, catalog, variant)
    n, limit = sum(s.count for s in seeds), variant.param("max_seed")
    if n > limit:
        yield error(
            "stccg.seed-max",
            f"{n} cards in the seed deck, at most {limit} allowed "
            f"(remove {n - limit}): {_by_type(seeds)}",
            sorted({s.card.id for s in seeds}),
        )
    kinds = variant.params.get("seeded_draw_types")
    if kinds:
        top = variant.param("max_seeded_draw_types")
        odd = [s for s in seeds if any(s.card.has_type(k) for k in kinds)]
        k = sum(s.count for s in odd)
        if k > top:
            yield error(
                "stccg.seed-max",
                f"{k} {'/'.join(kinds)} cards seeded, at most {top} allowed: {_by_type(odd)}",
                sorted({s.card.id for s in odd}),
            )


def draw_min(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.draw-min: a draw deck of at least 30 cards (Warp Speed: 20).

    At least ``min_draw`` cards in the draw deck: every counted card that is neither a mission
    nor in the seed deck."""
    aside = set_aside(deck, catalog, _format_rules(variant))
    draw = deck.size - sum(a.count for a in aside)
    low = variant.param("min_draw")
    if draw < low:
        yield error(
            "stccg.draw-min",
            f"{plural(draw, 'card')} in the draw deck, at least {low} required (add {low - draw})",
        )


def seed_max_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The seed deck against its most, for the standing while a deck is built."""
    n = sum(s.count for s in seed_deck(deck, catalog, variant))
    return Amount("seed card", n, None, variant.param("max_seed"))


def draw_min_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The draw deck against its least, for the standing while a deck is built."""
    aside = set_aside(deck, catalog, _format_rules(variant))
    return Amount(
        "draw card", deck.size - sum(a.count for a in aside), variant.param("min_draw"), None
    )


def reporting_amount(deck: Deck, catalog: Catalog, variant: Variant) -> Amount:
    """The seeded places where Personnel report (Outposts, Headquarters), at least one."""
    n = sum(s.count for s in seed_deck(deck, catalog, variant) if _reporting(s.card, variant))
    return Amount("reporting facility", n, 1, None)


def _reporting(card: Card, variant: Variant) -> bool:
    """An Outpost, or a facility of a reporting class (a Headquarters)."""
    if card.has_type(variant.param("outpost_type")):
        return True
    classes = {fold(c) for c in variant.param("reporting_classes")}
    facility = card.has_type(variant.param("facility_type"))
    return facility and fold(card.get("class") or "") in classes


def reporting(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.reporting: a seeded Outpost, Headquarters or Station, where Personnel report."""
    if not any(_reporting(s.card, variant) for s in seed_deck(deck, catalog, variant)):
        yield error(
            "stccg.reporting",
            "no seeded Outpost, Headquarters or Station: Personnel and Ships report for duty "
            "at a facility, so without one none of them can ever be played",
        )


def one_outpost(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.one-outpost: exactly one Outpost seeded (Warp Speed).

    Exactly ``outposts_seeded`` Outposts in the seed deck."""
    want = variant.param("outposts_seeded")
    outpost = variant.param("outpost_type")
    seeds = sorted(seed_deck(deck, catalog, variant), key=lambda s: s.card.id)
    posts = [s for s in seeds if s.card.has_type(outpost)]
    n = sum(s.count for s in posts)
    if n != want:
        yield error(
            "stccg.one-outpost",
            f"{plural(n, 'Outpost')} seeded, exactly {want} required"
            + (f": {', '.join(s.card.name for s in posts)}" if posts else ""),
            [s.card.id for s in posts],
        )


def mission_copies(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.mission-copies: a non-universal mission at most once.

    Copies of one card; the sources' rule of one mission per location is not checked: the data
    has no locations."""
    for card, n in _copies(deck, variant.param("mission_type")):
        if n > 1 and not card.get("universal"):
            yield error(
                "stccg.mission-copies",
                f"{n} copies of the mission {card.name}: a non-universal mission is allowed "
                "once (remove " + str(n - 1) + ")",
                [card.id],
            )


def mission_copies_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.mission-copies as constraints: at most 1 of each non-universal mission."""
    mission = variant.param("mission_type")
    return RuleConstraints(
        "stccg.mission-copies",
        tuple(
            Linear({c.id: 1}, None, 1)
            for c in catalog
            if c.has_type(mission) and not c.get("universal")
        ),
    )


def side_decks(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """stccg.side-decks: Q's Tent at most 13 cards, no two alike.

    Each side deck the variant limits (``side_decks``) within its limits; side decks are never
    counted in the deck."""
    for limit in variant.param("side_decks"):
        zone = fold(limit["zone"])
        entries = [e for e in deck.side if fold(e.zone or "") == zone]
        n = sum(e.count for e in entries)
        if n > limit["max"]:
            yield error(
                "stccg.side-decks",
                f"{limit['name']}: {n} cards, at most {limit['max']} allowed",
                list(dict.fromkeys(e.card.id for e in entries)),
            )
        if limit.get("distinct"):
            copies: Counter[str] = Counter()
            for e in entries:
                copies[e.card.id] += e.count
            twice = [i for i, k in copies.items() if k > 1]
            if twice:
                cards = deck.cards() | {e.card.id: e.card for e in entries}
                yield error(
                    "stccg.side-decks",
                    f"{limit['name']}: no two cards alike, but "
                    + ", ".join(f"{copies[i]} × {cards[i].name}" for i in twice),
                    twice,
                )


def _stated_rules(variant: Variant) -> tuple[SetAsideModel, ...]:
    """The set-aside rules the constraints are stated for: as the model passes them (for a
    deck that places its cards, or one that does not: :func:`placement`); a list holding both
    kinds is read as for a deck that does not."""
    rules = _format_rules(variant)
    if any(r.zone for r in rules) and any(r.fallback for r in rules):
        return placement(rules, placed=False)
    return rules


def _seed_terms(
    code: str, catalog: Catalog, variant: Variant
) -> tuple[dict[str, int], list[Linear], list[Helper], bool, dict[str, Card]]:
    """The seed deck as a linear expression: (coefficients, the helpers' links, the helpers,
    exact, the card each coefficient counts). A card a rule takes whole counts 1 a copy; a
    card whose copies the file's seed zones hold counts those zones' copies (:func:`in_zone`);
    an Outpost placed by type (a ``one_per`` rule) counts through :func:`_one_per_terms` (one
    copy of each affiliation is seeded, the rest drawn). Missions are a pile of their own."""
    mission = variant.param("mission_type")
    stated = _stated_rules(variant)
    # the cards' part is the same for every rule and every variant of these set-aside rules
    # (seed-max, draw-min, reporting, one-outpost): read once per catalog
    known, owners, picks, exact = catalog.derived(
        ("stccg: seed shapes", mission, stated), lambda: _seed_shapes(catalog, mission, stated)
    )
    coefficient = dict(known)
    seeded, linear, helpers, whole = _one_per_terms(code, picks)
    for name, k in seeded.items():
        coefficient[name] = coefficient.get(name, 0) + k
    return coefficient, linear, helpers, exact and whole, owners


def _seed_shapes(
    catalog: Catalog, mission: str, stated: tuple[SetAsideModel, ...]
) -> tuple[dict[str, int], dict[str, Card], tuple[tuple[Card, str], ...], bool]:
    """What :func:`_seed_terms` reads of the cards (read only): the coefficients of the cards
    a rule takes whole or in a seed zone, the card each counts, the cards a ``one_per`` rule
    places by type, and whether the rules take no card partly."""
    rules = bound_rules(stated, catalog)
    coefficient: dict[str, int] = {}
    owners: dict[str, Card] = {}
    picks: list[tuple[Card, str]] = []
    exact = True
    for card in catalog:
        if card.has_type(mission):
            continue
        shape = taken(card, rules)
        if shape.partial or (shape.one_per and shape.zones):
            exact = False  # "at most N copies" is not stated here: checked on the answer
        elif shape.whole:
            coefficient[card.id] = 1
            owners[card.id] = card
            continue
        for zone in shape.zones:
            name = in_zone(card.id, zone)
            coefficient[name] = 1
            owners[name] = card
        if shape.one_per:
            picks.append((card, shape.one_per))
    return coefficient, owners, tuple(picks), exact


def _of_cards(
    seed: Mapping[str, int], owners: Mapping[str, Card], keep: Callable[[Card], bool]
) -> dict[str, int]:
    """The terms of the seed expression that count copies of cards ``keep`` accepts
    (``owners``: the card each term counts)."""
    return {name: k for name, k in seed.items() if name in owners and keep(owners[name])}


def seed_max_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.seed-max as constraints: seed deck <= max_seed; and the seeded cards of
    ``seeded_draw_types`` at most ``max_seeded_draw_types`` where the variant limits them."""
    seed, linear, helpers, exact, owners = _seed_terms("stccg.seed-max", catalog, variant)
    linear.append(Linear(seed, None, variant.param("max_seed")))
    kinds = variant.params.get("seeded_draw_types")
    if kinds:
        odd = _of_cards(seed, owners, lambda c: any(c.has_type(k) for k in kinds))
        linear.append(Linear(odd, None, variant.param("max_seeded_draw_types")))
    return RuleConstraints("stccg.seed-max", tuple(linear), tuple(helpers), exact=exact)


def draw_min_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.draw-min as constraints: every card that is not a mission counts 1, minus the
    seed deck's expression, at least min_draw."""
    seed, linear, helpers, exact, _ = _seed_terms("stccg.draw-min", catalog, variant)
    mission = variant.param("mission_type")
    draw = {c.id: 1 for c in catalog if not c.has_type(mission)}
    for name, k in seed.items():
        draw[name] = draw.get(name, 0) - k
    linear.append(Linear({n: k for n, k in draw.items() if k}, variant.param("min_draw")))
    return RuleConstraints("stccg.draw-min", tuple(linear), tuple(helpers), exact=exact)


def reporting_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.reporting as constraints: at least one Outpost or Headquarters seeded. Placed by
    type every facility is seeded, and one copy of each Outpost's affiliation: any copy will
    do; a file's seed zones hold the seeded ones."""
    if any(r.zone for r in _stated_rules(variant)):
        seed, linear, helpers, exact, owners = _seed_terms("stccg.reporting", catalog, variant)
        linear.append(Linear(_of_cards(seed, owners, lambda c: _reporting(c, variant)), 1))
        return RuleConstraints("stccg.reporting", tuple(linear), tuple(helpers), exact=exact)
    ids = [c.id for c in catalog if _reporting(c, variant)]
    return RuleConstraints("stccg.reporting", (Linear(terms(ids), 1),))


def one_outpost_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """stccg.one-outpost as constraints: the seeded Outposts of the seed expression (the
    Outpost helpers placed by type, the Outposts of the file's seed zones), exactly
    ``outposts_seeded`` of them."""
    seed, linear, helpers, exact, owners = _seed_terms("stccg.one-outpost", catalog, variant)
    names = {h.name for h in helpers}
    outpost = variant.param("outpost_type")
    seeded = {name: k for name, k in seed.items() if name in names}
    seeded.update(_of_cards(seed, owners, lambda c: c.has_type(outpost)))
    want = variant.param("outposts_seeded")
    linear.append(Linear(seeded, want, want))
    return RuleConstraints("stccg.one-outpost", tuple(linear), tuple(helpers), exact=exact)


RULES.update(
    {
        "stccg.pool": CodeRule(pool, pool_constraints),
        "stccg.seed-max": CodeRule(seed_max, seed_max_constraints, seed_max_amount),
        "stccg.draw-min": CodeRule(draw_min, draw_min_constraints, draw_min_amount),
        "stccg.reporting": CodeRule(reporting, reporting_constraints, reporting_amount),
        "stccg.one-outpost": CodeRule(one_outpost, one_outpost_constraints),
        "stccg.mission-copies": CodeRule(mission_copies, mission_copies_constraints),
        # fix changes the counted deck only: a side deck is what it is (checked on the answer)
        "stccg.side-decks": CodeRule(side_decks, warnings_only("stccg.side-decks")),
    }
)
