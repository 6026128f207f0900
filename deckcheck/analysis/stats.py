"""``stats``: a deck's composition by the dimensions its game declares, and per category what
the opening hand holds of it (exact, with the game's mulligan).

Dimensions come from ``[[dimensions]]`` in the game's ``game.toml`` (type, faction, cost, ...);
``zone`` is where the rules put a card before play (the draw pile, or set aside: a planet,
seed cards, starting miners). A card with several values of a field (a ship that is also a
unit, a card of two affiliations) counts once for each of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any

from deckcheck.analysis.categories import Category, with_categories
from deckcheck.analysis.odds import OddsOptions, compute_odds
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.values import frozen
from deckcheck.games.base import Game
from deckcheck.games.spec import DimensionModel

ZONE = "zone"
PILE_ZONE = "draw pile"
NOT_GIVEN = "(not given)"


@frozen
class HandOdds:
    """What the opening hand holds of one category: the expected number (before any
    mulligan, which depends on what the player aims for) and the chance of at least one,
    with the game's mulligan aimed at it and without."""

    condition: str
    in_pile: int
    cards_seen: int
    expected: Fraction
    p_at_least_one: float
    p_at_least_one_without_mulligan: float
    p_at_least_one_exact: str | None
    exact: bool

    def to_json(self) -> dict[str, Any]:
        """The per-category odds fields of ``stats --json``."""
        return {
            "condition": self.condition,
            "in_pile": self.in_pile,
            "expected_in_hand": float(self.expected),
            "expected_in_hand_exact": _fraction(self.expected),
            "p_at_least_one": self.p_at_least_one,
            "p_at_least_one_exact": self.p_at_least_one_exact,
            "p_at_least_one_without_mulligan": self.p_at_least_one_without_mulligan,
            "exact": self.exact,
        }


@frozen
class Bucket:
    """One value of a dimension: how many cards have it, their share, the hand odds."""

    value: str
    count: int
    share: float
    number: int | None = None  # the value as a number, on a curve
    in_pile: int | None = None  # copies in the pile drawn from (None: nothing is drawn)
    hand: HandOdds | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"value", "count", "share", "in_pile", ...hand odds}``."""
        data: dict[str, Any] = {"value": self.value, "count": self.count, "share": self.share}
        if self.in_pile is not None:
            data["in_pile"] = self.in_pile
        if self.hand is not None:
            data.update(self.hand.to_json())
        return data


@frozen
class Dimension:
    """A deck broken down by one field (or a user's categories)."""

    field: str
    label: str
    curve: bool
    total: int  # cards in scope (those matching the dimension's selector)
    buckets: tuple[Bucket, ...]
    scope: str = ""
    overlapping: bool = False  # a card counted under several values
    sum: int | None = None  # on a curve: the field summed over the cards that have it
    mean: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The dimension as ``stats --json`` writes it."""
        data: dict[str, Any] = {
            "field": self.field,
            "label": self.label,
            "curve": self.curve,
            "total": self.total,
            "overlapping": self.overlapping,
        }
        if self.scope:
            data["scope"] = self.scope
        if self.curve:
            data.update(sum=self.sum, mean=self.mean)
        data["buckets"] = [b.to_json() for b in self.buckets]
        return data


@frozen
class StatsReport:
    """A deck's composition and opening-hand figures."""

    deck: str
    game: str
    variant: str | None
    size: int
    pile_size: int | None
    cards_seen: int | None
    second: bool
    opening: str
    mulligan: str
    dimensions: tuple[Dimension, ...]
    categories: Dimension | None = None
    notes: tuple[str, ...] = field(default=())
    variant_noun: str = "variant"  # what the game calls a variant ("format")

    exit_code = 0

    def to_json(self) -> dict[str, Any]:
        """The documented ``stats --json`` shape."""
        data: dict[str, Any] = {
            "deck": self.deck,
            "game": self.game,
            "variant": self.variant,
            "cards": self.size,
            "pile_size": self.pile_size,
            "cards_seen": self.cards_seen,
            "second": self.second,
            "opening": self.opening,
            "mulligan": self.mulligan,
            "dimensions": [d.to_json() for d in self.dimensions],
        }
        if self.categories is not None:
            data["categories"] = self.categories.to_json()
        data["notes"] = list(self.notes)
        return data


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def build_stats(
    label: str,
    game: Game,
    variant: str | None,
    cards: Sequence[tuple[Card, int]],
    setup: DrawSetup | None,
    categories: Sequence[Category] = (),
    *,
    second: bool = False,
    odds: bool = True,
    notes: Sequence[str] = (),
) -> StatsReport:
    """Stats of ``cards`` (card, copies) as the game declares them; hand figures from
    ``setup`` (None: the game does not draw from this deck)."""
    notes = list(notes)
    zones = _zones(cards, setup)
    if setup is not None and categories:
        setup = with_categories(setup, categories)
    probe = _Probe(setup, second) if setup is not None and odds else None
    dimensions = []
    for spec in game.spec.dimensions:
        dim = _dimension(spec, cards, zones, game, setup, probe)
        if dim is not None:
            dimensions.append(dim)
    user = _categories(categories, cards, probe) if categories else None
    if probe is not None:
        notes.extend(probe.notes)
    mulligan = ""
    opening = ""
    if setup is not None:
        opening = setup.pile_note if setup.builtin_pile else setup.opening.description
        if setup.mulligan is not None:
            mulligan = setup.mulligan.description
    if any(d.overlapping for d in dimensions):
        notes.append("a card with several values of a field counts once for each")
    return StatsReport(
        label,
        game.id,
        variant,
        sum(n for _, n in cards),
        setup.pile_size if setup is not None else None,
        probe.seen if probe is not None else None,
        second,
        opening,
        mulligan,
        tuple(dimensions),
        user,
        tuple(dict.fromkeys(notes)),
        variant_noun=game.spec.game.variant_noun,
    )


class _Probe:
    """Opening-hand odds of one selector at a time, through the exact engine."""

    def __init__(self, setup: DrawSetup, second: bool) -> None:
        self.setup = setup
        self.options = OddsOptions(second=second)
        self.seen: int | None = None
        self.notes: list[str] = []

    def odds(self, selector: str, in_pile: int) -> HandOdds | None:
        condition = f"{selector}>=1"
        try:
            report = compute_odds(self.setup, [condition], self.options)
        except DeckcheckError as exc:
            self.notes.append(f"no hand odds for {selector!r}: {exc.message}")
            return None
        self.seen = report.cards_seen
        pile = self.setup.pile_size
        expected = Fraction(report.cards_seen * in_pile, pile) if pile else Fraction(0)
        return HandOdds(
            condition,
            in_pile,
            report.cards_seen,
            expected,
            report.probability,
            report.probability_without_mulligan,
            report.probability_exact,
            report.exact,
        )


def _zones(
    cards: Sequence[tuple[Card, int]], setup: DrawSetup | None
) -> dict[str, list[tuple[str, int]]]:
    """Card id → (zone, copies): set-aside copies under the rule's reason, the rest in the pile."""
    aside: dict[str, list[tuple[str, int]]] = {}
    if setup is not None:
        for a in setup.set_aside:
            aside.setdefault(a.card.id, []).append((a.why or "set aside", a.count))
    zones: dict[str, list[tuple[str, int]]] = {}
    for card, n in cards:
        parts = aside.get(card.id, [])
        left = n - sum(k for _, k in parts)
        zones[card.id] = [*parts, *([(PILE_ZONE, left)] if left > 0 else [])]
    return zones


def _values(card: Card, name: str) -> list[str]:
    value = card.get(name)
    if value is None or value == []:
        return []
    items = value if isinstance(value, list | tuple) else [value]
    return [_show(v) for v in items]


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _selector_value(value: str, card: Card, name: str) -> str:
    """The selector text of a bucket: the field's raw value (``true`` for a bool)."""
    raw = card.get(name)
    if isinstance(raw, bool):
        return "true" if raw else "false"
    return value


def _dimension(
    spec: DimensionModel,
    cards: Sequence[tuple[Card, int]],
    zones: dict[str, list[tuple[str, int]]],
    game: Game,
    setup: DrawSetup | None,
    probe: _Probe | None,
) -> Dimension | None:
    name = spec.field
    scope = cards
    if spec.select:
        catalog = setup.catalog if setup is not None else game.bundled_catalog()
        try:
            selector = bind_selector(spec.select, catalog)
        except DeckcheckError:
            return None  # no card of the catalog is in scope (a user's overlay removed them)
        scope = [(c, n) for c, n in cards if selector(c)]
        if not scope:
            return None
    total = sum(n for _, n in scope)
    counts: dict[str, int] = {}
    in_pile: dict[str, int] = {}
    selector_of: dict[str, str] = {}
    overlapping = False
    curve_sum = curve_cards = 0
    for card, n in scope:
        if name == ZONE:
            placed = zones.get(card.id, [(PILE_ZONE, n)])
            for zone, k in placed:
                counts[zone] = counts.get(zone, 0) + k
            continue
        values = _values(card, name)
        if len(values) > 1:
            overlapping = True
        if spec.curve and values and _is_number(card.get(name)):
            curve_sum += card.get(name) * n
            curve_cards += n
        for value in values or [NOT_GIVEN]:
            counts[value] = counts.get(value, 0) + n
            pile_copies = sum(k for z, k in zones.get(card.id, []) if z == PILE_ZONE)
            in_pile[value] = in_pile.get(value, 0) + pile_copies
            if values and value not in selector_of:
                selector_of[value] = f"{name}:{_selector_value(value, card, name)}"
    if not counts or (name != ZONE and set(counts) == {NOT_GIVEN}):
        return None
    order = _order(counts, spec.curve)
    buckets = []
    for value in order:
        hand = None
        pile = in_pile.get(value) if setup is not None else None
        if name == ZONE and setup is not None:
            pile = counts[value] if value == PILE_ZONE else 0
        if probe is not None and value in selector_of and pile:
            hand = _checked_odds(probe, selector_of[value], pile)
        number = int(value) if spec.curve and _is_int_text(value) else None
        buckets.append(Bucket(value, counts[value], counts[value] / total, number, pile, hand))
    return Dimension(
        name,
        spec.label or name.replace("_", " "),
        spec.curve,
        total,
        tuple(buckets),
        spec.select,
        overlapping,
        curve_sum if spec.curve else None,
        (curve_sum / curve_cards if curve_cards else None) if spec.curve else None,
    )


def _checked_odds(probe: _Probe, selector: str, in_pile: int) -> HandOdds | None:
    """Hand odds of a bucket, only when its selector picks exactly the bucket's pile cards
    (a scoped dimension's value may also occur outside its scope)."""
    setup = probe.setup
    try:
        bound = bind_selector(selector, setup.catalog, setup.game.name_candidates)
    except DeckcheckError:
        return None
    if sum(n for c, n in setup.pile if bound(c)) != in_pile:
        return None
    return probe.odds(selector, in_pile)


def _categories(
    categories: Sequence[Category], cards: Sequence[tuple[Card, int]], probe: _Probe | None
) -> Dimension:
    total = sum(n for _, n in cards)
    buckets = []
    seen_cards: dict[str, int] = {}
    for cat in categories:
        count = sum(n for c, n in cards if cat.matches(c))
        for c, _n in cards:
            if cat.matches(c):
                seen_cards[c.id] = seen_cards.get(c.id, 0) + 1
        hand = None
        in_pile = None
        if probe is not None:
            in_pile = sum(n for c, n in probe.setup.pile if cat.matches(c))
            hand = probe.odds(cat.selector, in_pile) if in_pile else None
        buckets.append(
            Bucket(cat.name, count, count / total if total else 0.0, None, in_pile, hand)
        )
    return Dimension(
        "category",
        "your categories",
        False,
        total,
        tuple(buckets),
        overlapping=any(k > 1 for k in seen_cards.values()),
    )


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_int_text(text: str) -> bool:
    digits = text.lstrip("-")
    # ASCII only ("²" is a digit to Python, not to int) and short (int refuses 4,300 digits).
    return digits.isascii() and digits.isdigit() and len(digits) <= 18


def _order(counts: dict[str, int], curve: bool) -> Iterable[str]:
    """Buckets largest first (curves in numeric order), "not given" last."""
    given = [v for v in counts if v != NOT_GIVEN]
    if curve:
        ordered = sorted(
            given, key=lambda v: (not _is_int_text(v), int(v) if _is_int_text(v) else 0, v)
        )
    else:
        ordered = sorted(given, key=lambda v: -counts[v])
    return [*ordered, *([NOT_GIVEN] if NOT_GIVEN in counts else [])]
