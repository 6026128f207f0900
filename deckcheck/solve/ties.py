"""Among equally good answers (as near, for ``fix``; as near and as likely, for
``optimize``), the one a player would choose: further objectives solved exactly like the
first, each held at its best for the next. In order: cards matching ``--prefer``; the fewest
new warnings (each warning rule's clean form under a 0/1 variable); cards of the deck's own
side (the affiliation, colour or faction most of its cards carry), then cards of that side
alone; the fewest of the deck's copies lost (a move keeps its copy); the fewest copies of new
cards; the fewest distinct new cards; each copy in the zone the game puts it."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.text import fold
from deckcheck.core.violations import Severity
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.base import clean_name
from deckcheck.solve.changes import answer_deck
from deckcheck.solve.programme import (
    DISTANCE,
    OPTIMAL,
    DeckProgramme,
    Programme,
    Solved,
    first_seen_groups,
)

WARNING_ROUNDS = 4
"""Solves spent steering clear of cards whose addition brings a new warning of a rule that
cannot state its clean form (see :func:`warning_helpers`)."""


def side_values(loaded: LoadedDeck) -> dict[str, str]:
    """Field -> the value most of the deck's cards carry, for each field the game names a
    card's side by (an affiliation, a colour); a field no card carries is left out."""
    out: dict[str, str] = {}
    for name in loaded.game.spec.game.side_fields:
        tally: Counter[str] = Counter()
        for e in loaded.deck.entries:
            for value in _field_values(e.card, name):
                tally[value] += e.count
        if tally:
            out[name] = min(tally.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return out


def _field_values(card: Card, name: str) -> set[str]:
    value = card.get(name)
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    return {fold(str(v)) for v in items if str(v)}


def _sides(card: Card, own: Mapping[str, str]) -> tuple[bool, bool]:
    """Whether the card is off the deck's side (:func:`off_side`), and whether it is mixed
    (:func:`mixed_side`), ``own`` the deck's :func:`side_values`."""
    off = mixed = False
    for name, value in own.items():
        values = _field_values(card, name)
        off = off or (bool(values) and value not in values)
        mixed = mixed or (value in values and len(values) > 1)
    return off, mixed


def off_side(loaded: LoadedDeck) -> Callable[[Card], bool]:
    """Whether a card carries a side field without the deck's own value of it (a Vulcan
    Outpost in a Federation deck); a card without the field is on no side."""
    own = side_values(loaded)
    return lambda card: _sides(card, own)[0]


def warning_helpers(model: DeckProgramme) -> dict[str, int]:
    """Rule code -> the 0/1 variable that is 1 only where the answer has no warning of that
    rule, for each warning rule that states its clean form (``Game.clean``) and warns nothing
    of the deck itself: stated on the model once, so that the answer's new warnings are a
    sum to minimise exactly."""
    loaded = model.loaded
    p = model.programme
    had = {v.code for v in validate_loaded(loaded).violations if v.severity is Severity.WARNING}
    out: dict[str, int] = {}
    for code in loaded.variant.rules:
        name = clean_name(code)
        if name in model.helpers:
            out[code] = model.helpers[name]
            continue
        if code in had:
            continue
        rc = loaded.game.clean(code, loaded.catalog, model.variant)
        if rc is None:
            continue
        total = float(model.cap * max(1, len(model.cells)))
        for h in rc.helpers:
            if h.name not in model.helpers:
                top = float(h.high) if h.high is not None else total
                model.helper(h.name, p.var(h.low, top))
        for c in rc.linear:
            p.state(c, model.lookup, f"{code} (warning)")
        out[code] = model.helpers[name]
    return out


def mixed_side(loaded: LoadedDeck) -> Callable[[Card], bool]:
    """Whether a card carries the deck's own value of a side field and another beside it (a
    Federation/Cardassian Outpost in a Cardassian deck): on the deck's side, but less so."""
    own = side_values(loaded)
    return lambda card: _sides(card, own)[1]


def tie_breaks(
    model: DeckProgramme,
    preferred: Callable[[Card], bool] | None,
    penalised: set[str],
    new_only: bool = True,
    warnings: bool = False,
) -> list[tuple[str, float]]:
    """The objectives that break a tie among equally good answers, in order, declared on the
    model: ``--prefer`` (most copies), new warnings (with ``warnings``, the warning rules'
    clean forms stated; cards in ``penalised``), cards off the deck's side, copies lost, new
    cards (fewest copies, fewest distinct). (name, factor) each. The objectives that depend
    on the model alone are declared by the first call, and kept."""
    p = model.programme
    own = {card_id for card_id, _ in model.held}
    order: list[tuple[str, float]] = []

    def weigh(name: str, factor: float, chosen: Callable[[str], bool] | None = None) -> None:
        if chosen is not None:
            p.weigh(name, {v: 1.0 for i, mine in model.by_card.items() if chosen(i) for v in mine})
        if p.weights[name]:
            order.append((name, factor))

    if preferred is not None:
        kept = model.preferred
        if kept is None or kept[0] is not preferred:  # a walk over every card: once a model
            chosen = {
                v: 1.0
                for i, mine in model.by_card.items()
                if preferred(model.card(i))
                for v in mine
            }
            kept = model.preferred = (preferred, chosen)
        p.weigh("prefer", kept[1])
        weigh("prefer", -1.0)
    clean = warning_helpers(model) if warnings else {}
    if clean:
        p.weigh("new warnings", dict.fromkeys(clean.values(), -1.0))
        order.append(("new warnings", 1.0))
    if penalised:
        weigh("warning", 1.0, lambda i: i in penalised and i not in own)
    else:
        p.weigh("warning", {})  # no card to steer clear of: no walk over the model's cards
        weigh("warning", 1.0)
    if "off-side" not in p.weights:
        off, mixed = _side_cards(model)
        p.weigh("off-side", {v: 1.0 for i in off for v in model.by_card[i]})
        p.weigh("mixed-side", {v: 1.0 for i in mixed for v in model.by_card[i]})
    weigh("off-side", 1.0)
    weigh("mixed-side", 1.0)
    # copies of the deck's own cards the answer holds no more (a move keeps its copy)
    if "lost" not in p.weights:
        lost: dict[int, float] = {}
        for card_id, n in model.loaded.deck.counts().items():
            mine = model.by_card.get(card_id)
            if mine:
                short = p.var(0, math.inf, integer=False)
                p.row({**dict.fromkeys(mine, 1.0), short: 1.0}, n, math.inf)
                lost[short] = 1.0
        p.weigh("lost", lost)
    weigh("lost", 1.0)
    if "new" not in p.weights:
        p.weigh("new", {v: 1.0 for i, mine in model.by_card.items() if i not in own for v in mine})
    weigh("new", 1.0)
    if "distinct" not in p.weights:
        p.weigh("distinct", distinct_new(model))
    weigh("distinct", 1.0)
    # copies of the deck's own cards gained where the game would not put them (a move to
    # the mission zone of a card the game seeds): the deck's cards only, new ones are settled
    if "placed" not in p.weights:
        where = _placed_zones(model)
        p.weigh(
            "placed",
            {v: 1.0 for (i, zone), v in model.gained.items() if zone != where.get(i, zone)},
        )
    weigh("placed", 1.0)
    return order


def _side_cards(model: DeckProgramme) -> tuple[list[str], list[str]]:
    """The model's cards new to the deck that are off its side (:func:`off_side`), and those
    on its side but mixed (:func:`mixed_side`), in the model's order."""
    own = {card_id for card_id, _ in model.held}
    sides = side_values(model.loaded)
    if not sides:
        return [], []
    catalog = model.loaded.catalog

    def sort_cards() -> tuple[frozenset[str], frozenset[str]]:
        found = {c.id: _sides(c, sides) for c in catalog}  # a card as :meth:`card` finds it
        return (
            frozenset(i for i, (off, _) in found.items() if off),
            frozenset(i for i, (off, mixed) in found.items() if mixed and not off),
        )

    off_cards, mixed_cards = catalog.derived(("solve: sides", *sorted(sides.items())), sort_cards)
    off = [i for i in model.by_card if i in off_cards and i not in own]
    mixed = [i for i in model.by_card if i in mixed_cards and i not in own]
    return off, mixed


_ZoneBounds = list[tuple[str | None, int | None, float]]
"""A class's bound in each zone: (zone, the zone's column in the cells where its cards are
regular, None otherwise; the bound)."""


def distinct_new(model: DeckProgramme) -> dict[int, float]:
    """Variables counting the distinct new cards an answer holds, stated on the model: new
    cards whose variables the solver sees as one (alike in every zone, with the same bounds)
    form a class, and a whole ``k`` of the class with ``copies in zone z <= k * bound`` for
    each zone counts its cards exactly (the copies are shared out one card after another,
    each to its bound, see :meth:`Programme.solve`, so ``k`` at its least is how many are
    used). A class keeps its variables alike, so the solver's work stays as it was."""
    from deckcheck.core.numeric import np

    p = model.programme
    own = {card_id for card_id, _ in model.held}
    of = p.merged_with()
    upper = p.limits()[1]
    zones = sorted(model.zones, key=str)  # a new card has a cell in each of the model's zones
    cards = [card_id for card_id in model.zoned if card_id not in own]
    # each card's variables in the zones' order, read at once (-1: a card with other cells);
    # a card with a cell in each of the model's zones and no other has them first, in order
    width = len(zones)
    mine = [model.by_card[i] for i in cards]
    regular = np.fromiter(
        (len(v) == len(model.zoned[i]) == width for i, v in zip(cards, mine, strict=True)),
        bool,
        len(cards),
    )
    found = np.full((len(cards), width), -1)
    if regular.any():
        picked = [v for v, r in zip(mine, regular.tolist(), strict=True) if r]
        found[regular] = np.array(picked)[:, [model.zones.index(z) for z in zones]]
    for r in np.flatnonzero(~regular).tolist():
        i = cards[r]
        found[r] = [model.zoned[i].get((i, zone), -1) for zone in zones]
    regular &= (found >= 0).all(axis=1)
    cells = np.where(found >= 0, found, 0)
    tops = upper[cells] + 0.0  # one zero, whatever its sign
    held_any = (tops > 0).any(axis=1)
    # a class: its cards' variables' groups and upper bounds, zone by zone (equal values);
    # the classes in the order of their first cards: (first card, members, bounds)
    found_classes: list[tuple[int, Any, _ZoneBounds]] = []
    chosen = np.flatnonzero(regular & held_any)  # irregular ones, or held by no answer: below
    if len(chosen):
        key = np.concatenate([of[cells].astype(float), tops], axis=1)[chosen]
        label, firsts = first_seen_groups(key, np)
        order = np.argsort(label, kind="stable")  # each class's cards together, in order
        ends = np.cumsum(np.bincount(label, minlength=len(firsts))).tolist()
        for g, first in enumerate(firsts.tolist()):
            members = chosen[order[(ends[g - 1] if g else 0) : ends[g]]]
            tops_r = tops[chosen[first]].tolist()
            bounds: _ZoneBounds = [(zone, j, tops_r[j]) for j, zone in enumerate(zones)]
            found_classes.append((int(chosen[first]), members, bounds))
    irregular: dict[tuple[tuple[str | None, int, float], ...], list[int]] = {}
    irregular_bounds: dict[tuple[tuple[str | None, int, float], ...], _ZoneBounds] = {}
    for r in np.flatnonzero(~regular).tolist():
        card_id = cards[r]
        by_zone = _by_zone(card_id, model.zoned[card_id], zones)
        key_r = tuple((zone, int(of[v]), float(upper[v])) for zone, v in by_zone)
        if all(u <= 0 for _, _, u in key_r):
            continue  # no answer holds it
        if key_r not in irregular:
            irregular_bounds[key_r] = [(zone, None, float(upper[v])) for zone, v in by_zone]
        irregular.setdefault(key_r, []).append(r)
    for key_r, rs in irregular.items():
        found_classes.append((rs[0], rs, irregular_bounds[key_r]))
    found_classes.sort(key=lambda c: c[0])
    weights: dict[int, float] = {}
    for _, members, bounds in found_classes:
        k = p.var(0, len(members))
        for zone, column, bound in bounds:
            if bound <= 0:
                continue
            row: dict[int, float]
            if column is not None:
                row = dict.fromkeys(cells[members, column].tolist(), 1.0)
            else:
                row = {model.zoned[cards[r]][(cards[r], zone)]: 1.0 for r in members}
            row[k] = -bound
            p.row(row, -math.inf, 0)
        weights[k] = 1.0
    return weights


def _by_zone(
    card_id: str, cells: Mapping[tuple[str, str | None], int], zones: Sequence[str | None]
) -> list[tuple[str | None, int]]:
    """A card's (zone, variable) in the order of its zones' names (``zones``: the model's, in
    that order, which a card with no other cell has)."""
    if len(cells) == len(zones):
        try:
            return [(zone, cells[(card_id, zone)]) for zone in zones]
        except KeyError:
            pass
    return [(zone, v) for (_, zone), v in sorted(cells.items(), key=lambda kv: str(kv[0][1]))]


def _placed_zones(model: DeckProgramme) -> dict[str, str | None]:
    """The zone the game puts each card of the deck in (where the game places cards)."""
    place = model.loaded.game.place
    if place is None or len(model.zones) < 2:
        return {}
    game, catalog, variant = model.loaded.game.id, model.loaded.catalog, model.variant.name
    # a card's zone, kept with the catalog: each card is placed once however many decks hold it
    known: dict[str, str | None] = catalog.derived(("solve: placed", game, variant, place), dict)
    out: dict[str, str | None] = {}
    for card_id in {i for i, _ in model.held}:
        if card_id not in known:
            card = catalog.by_id(card_id)
            if card is None:
                continue
            one = Deck("one", game, variant, (DeckEntry(card, 1),))
            known[card_id] = next((e.zone for e in place(one).entries), None)
        out[card_id] = known[card_id]
    return out


def lexicographic(
    model: DeckProgramme,
    first: Solved,
    order: Sequence[tuple[str, float]],
    combine: bool = False,
    **kw: Any,
) -> Solved:
    """Among the solutions as good as ``first`` on the distance, the best on each objective of
    ``order`` in turn, each held at its best for the next (a solve that fails keeps the
    last).

    With ``combine``, a solve is left out where a later one is certain to run with the same
    rows: the best values of several objectives in turn come from one solve of their sum,
    each weighed above all that the later ones could gain (:func:`best_values`), and an
    objective whose best value no solution can reach without a solve (:func:`_at_least`) is
    solved with the earlier ones held at those values, as it would have been one objective
    after another: the same solve, the same answer. Worth it where the solver's time goes to
    reading a large programme rather than to the objective (the warning rules' clean forms
    stated, see :func:`tie_broken`): elsewhere the sum costs more than the solves it saves."""
    p = model.programme
    distance = float(round(first.objective))
    held = [(DISTANCE, -math.inf, distance)]
    best = first
    known: dict[str, int] = {}
    ahead = -1  # a later objective whose solve is certain to run: those before it are known
    for k, (name, factor) in enumerate(order):
        value: int | None
        if k < ahead:
            value = known[name]
        else:
            value = None if k == ahead else _at_least(p, name, factor, best.x)
            if value is None and k > ahead:
                if combine and name not in known and len(order) - k >= COMBINED_FROM:
                    known.update(best_values(p, order[k:], held, distance, **kw))
                ahead = _certain(p, order, k, known)
                if ahead > k:
                    value = known[name]
            if value is None:
                got = p.solve({name: factor}, held=held, **kw)
                if got.status != OPTIMAL or got.x is None:
                    if known:  # the values found at once: the solves one after another
                        return lexicographic(model, first, order, **kw)
                    break
                best = got
                value = round(got.objective / factor)
        held.append((name, float(value), math.inf) if factor < 0 else (name, -math.inf, value))
    return best


COMBINED_FROM = 3
"""Objectives left, at least, for one solve of their weighed sum to find their best values
(two solves, that one and the last, in place of one a tie-break)."""

WEIGHT_LIMIT = 1 << 16
"""The largest weight of an objective in a weighed sum (the solver's tolerances stay far
below one unit of the last objective)."""

COUNTS_CHANGES = frozenset(
    {"warning", "off-side", "mixed-side", "lost", "new", "distinct", "placed"}
)
"""Tie-breaks that count changes, or copies a change brings or takes: none exceeds the
distance at a solution as good as can be on it (each counts new copies, lost copies, copies
moved, or distinct new cards; their helper variables are at their least there)."""


def _certain(
    p: Programme, order: Sequence[tuple[str, float]], k: int, known: Mapping[str, int]
) -> int:
    """The last objective after the ``k``-th whose best value is known, with every one
    before it, and beyond the least any solution could have: its solve is certain to run (no
    solution in hand can be at its best without one); -1 if none."""
    last = -1
    for j in range(k + 1, len(order)):
        name, factor = order[j]
        if name not in known:
            break
        if factor * known[name] > p.least(name, factor) + 1e-9:
            last = j
    return last


def best_values(
    p: Programme,
    order: Sequence[tuple[str, float]],
    held: Sequence[tuple[str, float, float]],
    distance: float,
    **kw: Any,
) -> dict[str, int]:
    """The best value of each of the first objectives of ``order`` in turn (each held at its
    best for the next), from one solve of their weighed sum: each objective's weight exceeds
    all that the later ones could differ by between two solutions, so that the sum's least
    is at the objectives' best in turn. The objectives are whole-valued at a least. Empty
    where fewer than two objectives fit within :data:`WEIGHT_LIMIT`, or the solve fails."""
    spans = [_span(p, name, factor, distance) for name, factor in order]
    weights: list[int] = []
    for m in range(2, len(order) + 1):
        w = [1] * m
        for j in range(m - 2, -1, -1):
            rest = sum(w[i] * spans[i] for i in range(j + 1, m))
            if not math.isfinite(rest):
                break
            w[j] = 1 + int(rest)
        else:
            if w[0] <= WEIGHT_LIMIT:
                weights = w
                continue
        break
    if not weights:
        return {}
    chosen = order[: len(weights)]
    objective = {name: w * factor for (name, factor), w in zip(chosen, weights, strict=True)}
    got = p.solve(objective, held=held, **kw)
    if got.status != OPTIMAL or got.x is None:
        return {}
    return {name: round(p.value(name, got.x)) for name, _ in chosen}


def _span(p: Programme, name: str, factor: float, distance: float) -> float:
    """How much an objective (times its factor) can differ between two solutions: over the
    variables' bounds, and at most the distance for those that count changes
    (:data:`COUNTS_CHANGES`)."""
    span = -p.least(name, -factor) - p.least(name, factor)
    if name in COUNTS_CHANGES:
        span = min(span, distance)
    return math.ceil(span) if math.isfinite(span) else math.inf


def _at_least(p: Programme, name: str, factor: float, x: Sequence[float] | None) -> int | None:
    """The objective's value in ``x`` where no solution can do better (its least over the
    variables' bounds): the solve it would take is skipped; None otherwise."""
    if x is None or len(x) < len(p.lower):
        return None
    value = p.value(name, x)
    if factor * value <= p.least(name, factor) + 1e-9:
        return round(value)
    return None


def settle(model: DeckProgramme, x: Sequence[float]) -> list[float]:
    """The solution with each new card's copies in the zone the game puts the card, where
    that zone is alike to the one the solver chose (a mission among the missions)."""
    place = model.loaded.game.place
    out = list(x)
    if place is None:
        return out
    own = {card_id for card_id, _ in model.held}
    by_card: dict[str, dict[str | None, int]] = {}
    for card_id, zone in model.values(out):
        if card_id not in own:
            by_card.setdefault(card_id, {})[zone] = model.cells[(card_id, zone)]
    for card_id, used in by_card.items():
        n = sum(round(out[v]) for v in used.values())
        deck = Deck(
            "new",
            model.loaded.game.id,
            model.variant.name,
            (DeckEntry(model.card(card_id), n),),
        )
        placed = place(deck)
        zone = next((e.zone for e in placed.entries), None)
        target = model.cells.get((card_id, zone))
        if target is None:
            continue
        for v in used.values():
            if v != target and model.programme.alike(v, target):
                out[target] += out[v]
                out[v] = 0.0
    return out


def tie_broken(
    model: DeckProgramme,
    first: Solved,
    preferred: Callable[[Card], bool] | None = None,
    **kw: Any,
) -> Solved:
    """Among the nearest decks, the one the tie-breaks choose. New warnings are minimised
    exactly for the rules that state their clean form; for any other warning rule, cards
    whose addition brings a new warning are learnt from the answers and steered clear of (and
    the model's notes say that this tie-break is not proven).

    The clean forms are stated only once an answer found without them adds a warning they
    state: an answer that adds none is as good on that tie-break as can be, and the later
    ones, each at its best without it, are at their best with it too (stating them costs the
    solver the merging of alike cards, see :meth:`Programme.size`)."""
    loaded = model.loaded
    had = {(v.code, c) for v in validate_loaded(loaded).violations for c in v.cards}
    had_codes = {c for c, _ in had}
    stateable = {
        code for code in loaded.variant.rules if loaded.game.states_clean(code)
    } - had_codes
    penalised: set[str] = set()
    best = first
    order = tie_breaks(model, preferred, penalised)
    exact: dict[str, int] = {}
    trial: set[str] = set()
    for _ in range(WARNING_ROUNDS + 1):
        # stated clean forms split alike cards: each solve is mostly HiGHS reading the model
        best = lexicographic(model, first, order, combine=bool(exact), **kw)
        assert best.x is not None
        totals = model.totals(best.x)
        added = {i for i, n in totals.items() if n > loaded.deck.counts().get(i, 0)}
        cells = model.values(settle(model, best.x))
        default = next((z.name for z in loaded.game.zones if z.counted), None)
        deck = answer_deck(loaded, cells, sorted(added), default).deck
        report = validate_loaded(dataclasses.replace(loaded, deck=deck))
        new = [
            v
            for v in report.violations
            if v.severity is Severity.WARNING and v.code not in {c for c, _ in had}
        ]
        if not exact and any(v.code in stateable for v in new):
            order = tie_breaks(model, preferred, penalised, warnings=True)
            exact = warning_helpers(model)
            continue
        wrong = {v.code for v in new if v.code in exact and round(best.x[exact[v.code]])}
        for code in sorted(wrong):  # the clean form said none, the check found one
            note = f"{code}: its stated form missed a warning: not proven the fewest"
            if note not in model.notes:
                model.notes.append(note)
        blamed = {
            card_id
            for v in report.violations
            if v.severity is Severity.WARNING and v.code not in stateable
            for card_id in v.cards
            if card_id in added and (v.code, card_id) not in had
        } - penalised
        trial |= {
            v.code
            for v in report.violations
            if v.severity is Severity.WARNING and v.code not in stateable and v.cards
        } - had_codes
        if not blamed:
            break
        penalised |= blamed
        order = tie_breaks(model, preferred, penalised, warnings=bool(exact))
    for code in sorted(trial):
        note = (
            f"{code}: a warning rule not stated as constraints; its new warnings were "
            "steered clear of by trial, not proven the fewest"
        )
        if note not in model.notes:
            model.notes.append(note)
    return best
