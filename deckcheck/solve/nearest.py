"""``fix``: the nearest legal deck, proven nearest, by mixed-integer programming.

Each rule of the deck's variant states itself as linear constraints over card counts
(:mod:`deckcheck.games.linear`); a rule that cannot is checked on the answer, and the result
says so. The unknowns are the final copies of every card of the catalog (of the collection,
with ``--owned``); the objective is the number of copies added plus removed. HiGHS (through
``scipy.optimize.milp``, imported only here) solves it; its "optimal" status is the proof
that no legal deck is nearer. Among the nearest decks a second solve prefers more copies of
cards already in the deck over new cards, and cards matching ``--prefer`` over others.

When no legal deck is reachable, removing rules one at a time finds a smallest set of rules
(with ``--keep`` and ``--owned`` among them) that cannot all be met, which the result names.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckcheck.analysis.conditions import parse_condition
from deckcheck.catalog.deck import DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import ConditionError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.inplace import Written
from deckcheck.games.linear import Linear, RuleConstraints
from deckcheck.games.setaside import pinned
from deckcheck.solve.changes import (
    UNREACHABLE,
    Change,
    CountChanges,
    answer_deck,
    resolve_cards,
)

TIME_LIMIT = 60.0
"""Seconds HiGHS may spend on one solve; beyond it the answer comes without a proof."""

KEEP = "--keep"
OWNED = "--owned"

# HiGHS's statuses through scipy.optimize.milp
_OPTIMAL, _LIMIT, _INFEASIBLE = 0, 1, 2


@frozen
class FixResult(CountChanges):
    """The nearest legal deck, or why there is none.

    ``status``: ``legal`` (nothing to change), ``fixed`` (``changes`` make it legal; ``proven``
    when the solver proved no legal deck is nearer), ``unreachable`` (``conflict`` names the
    rules that cannot all be met, ``reasons`` why). ``report`` validates the answer.
    """

    deck: str
    game: str
    variant: str
    status: str
    before: Report
    changes: tuple[Change, ...] = ()
    proven: bool = False
    report: Report | None = None
    conflict: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    written: Written | None = None
    cards: tuple[tuple[Card, int], ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Json]:
        """The fix as data: the changes, the proof, the answer's validation."""
        return {
            **self.heading_json(),
            "status": self.status,
            "status_before": str(self.before.status),
            **self.totals_json(),
            "proven_minimal": self.proven,
            "changes": self.changes_json(),
            "conflict": list(self.conflict),
            "reasons": list(self.reasons),
            **self.outcome_json(),
        }


# ------------------------------------------------------------------------------ the model


@dataclass
class _Model:
    """Variables (cards first, then helpers), their bounds, and the constraint rows by group
    (a rule's code, ``--keep`` or ``--owned``)."""

    names: list[str]
    index: dict[str, int]
    lower: list[float]
    upper: list[float]
    rows: list[tuple[str, dict[int, float], float, float]]  # group, terms, low, high
    bound_groups: dict[str, dict[int, tuple[float, float]]]  # group -> var -> (lo, hi)
    costs: dict[int, float]  # var -> cost per copy changed (stage 1)
    deck_counts: dict[str, int]


def _collect(
    loaded: LoadedDeck, codes: Sequence[str]
) -> tuple[dict[str, RuleConstraints], list[str]]:
    variant = loaded.variant
    if variant.set_aside is not None:
        # the file's own placement of its cards (a seed zone), as the rules will judge it
        own = pinned(loaded.deck, variant.set_aside)
        if own is not None:
            variant = dataclasses.replace(variant, set_aside=own)
    stated = {c: loaded.game.constraints(c, loaded.catalog, variant) for c in codes}
    unstated = [
        f"{code} is checked on the answer only ({rc.note or 'not stated as constraints'})"
        for code, rc in stated.items()
        if not rc.exact
    ]
    return stated, unstated


def _per_card_cap(loaded: LoadedDeck, stated: Mapping[str, RuleConstraints]) -> int:
    """A bound on any card's copies that no legal nearest deck needs to exceed."""
    numbers = [loaded.deck.size, 1]
    for rc in stated.values():
        for c in rc.linear:
            numbers += [abs(b) for b in (c.low, c.high) if b is not None]
        numbers += rc.fixed.values()  # a count a rule fixes (2 Clubmen) must be reachable
    return max(numbers)


def _build(
    loaded: LoadedDeck,
    stated: Mapping[str, RuleConstraints],
    keep: Iterable[str],
    owned: Mapping[str, int] | None,
) -> _Model:
    deck_counts = dict(loaded.deck.counts())
    cap = _per_card_cap(loaded, stated)
    # Every card of the catalog is a variable, even with a collection: --owned is a group of
    # bounds like the rules' groups, so that a conflict can name it.
    universe = [c.id for c in loaded.catalog]
    names = list(universe)
    index = {name: i for i, name in enumerate(names)}
    lower = [0.0] * len(names)
    upper = [float(cap)] * len(names)
    bound_groups: dict[str, dict[int, tuple[float, float]]] = {}
    for code, rc in stated.items():
        fixed = {index[i]: (float(n), float(n)) for i, n in rc.fixed.items() if i in index}
        if fixed:
            bound_groups[code] = fixed
        for h in rc.helpers:
            if h.name not in index:
                index[h.name] = len(names)
                names.append(h.name)
                lower.append(float(h.low))
                upper.append(float(h.high) if h.high is not None else float(cap * len(universe)))
    kept = {index[i]: (float(deck_counts[i]), float(cap)) for i in keep if i in deck_counts}
    if kept:
        bound_groups[KEEP] = kept
    if owned is not None:
        bound_groups[OWNED] = {index[i]: (0.0, float(owned.get(i, 0))) for i in universe}
    rows: list[tuple[str, dict[int, float], float, float]] = []
    for code, rc in stated.items():
        for c in rc.linear:
            rows.append((code, *_row(c, index, lower, upper)))
    costs = {index[i]: 1.0 for i in universe}
    return _Model(names, index, lower, upper, rows, bound_groups, costs, deck_counts)


def _row(
    c: Linear, index: Mapping[str, int], lower: Sequence[float], upper: Sequence[float]
) -> tuple[dict[int, float], float, float]:
    """One constraint as (terms, low, high); an indicator becomes a big-M row whose M comes
    from the variables' bounds (cards missing from the model count as 0)."""
    row = {index[v]: float(k) for v, k in c.terms.items() if v in index and k}
    low = -math.inf if c.low is None else float(c.low)
    high = math.inf if c.high is None else float(c.high)
    if c.when is None or c.when not in index:
        return row, low, high
    least = sum(k * (lower[v] if k > 0 else upper[v]) for v, k in row.items())
    most = sum(k * (upper[v] if k > 0 else lower[v]) for v, k in row.items())
    h = index[c.when]
    if c.low is not None and c.high is not None:
        raise ValueError("an indicator constraint takes one bound")
    if c.low is not None:
        big = max(0.0, low - least)
        return {**row, h: -big}, low - big, math.inf
    big = max(0.0, most - high)
    return {**row, h: big}, -math.inf, high + big


@frozen
class _Solved:
    status: int
    values: dict[str, int]
    objective: float


def _solve(
    model: _Model,
    groups: set[str] | None,
    objective: Mapping[int, float] | None,
    extra_rows: Sequence[tuple[dict[int, float], float, float]] = (),
    copies: Mapping[int, float] | None = None,
    copies_rows: Sequence[tuple[dict[int, float], float, float]] = (),
) -> _Solved:
    """Solve with the rows and bounds of ``groups`` (None: all) and the given objective over
    the change variables; the change of a card from its deck count is split into added and
    removed parts so that the objective counts copies changed. ``copies`` and
    ``copies_rows`` weigh the copies themselves (the cards the answer holds), not their
    change: an objective term, and rows."""
    from deckcheck.core.numeric import np  # first: scipy would load numpy its own way

    # isort: split
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array

    n = len(model.names)
    lower, upper = list(model.lower), list(model.upper)
    for group, bounds in model.bound_groups.items():
        if groups is not None and group not in groups:
            continue
        for v, (lo, hi) in bounds.items():
            lower[v], upper[v] = max(lower[v], lo), min(upper[v], hi)
    if any(lo > hi for lo, hi in zip(lower, upper, strict=True)):
        return _Solved(_INFEASIBLE, {}, math.nan)
    # added[i], removed[i] for each card of the deck: x_i - added_i + removed_i = count_i.
    deck_vars = [model.index[i] for i in model.deck_counts if i in model.index]
    extra = {v: (n + 2 * k, n + 2 * k + 1) for k, v in enumerate(deck_vars)}
    total = n + 2 * len(deck_vars)
    rows_i: list[int] = []
    cols: list[int] = []
    data: list[float] = []
    lows: list[float] = []
    highs: list[float] = []

    def add(terms: Mapping[int, float], low: float, high: float) -> None:
        r = len(lows)
        for col, k in terms.items():
            rows_i.append(r)
            cols.append(col)
            data.append(k)
        lows.append(low)
        highs.append(high)

    for group, terms, low, high in model.rows:
        if groups is None or group in groups:
            add(terms, low, high)
    names = model.names
    for v, (a, r) in extra.items():
        count = float(model.deck_counts[names[v]])
        add({v: 1.0, a: -1.0, r: 1.0}, count, count)
    cost = np.zeros(total)
    for v, weight in (objective or {}).items():
        if v in extra:
            a, r = extra[v]
            cost[a] = weight
            cost[r] = weight
        else:
            cost[v] = weight
    for terms, low, high in extra_rows:
        expanded: dict[int, float] = {}
        for v, k in terms.items():
            if v in extra:
                a, r = extra[v]
                expanded[a] = expanded.get(a, 0.0) + k
                expanded[r] = expanded.get(r, 0.0) + k
            else:
                expanded[v] = expanded.get(v, 0.0) + k
        add(expanded, low, high)
    for v, weight in (copies or {}).items():
        cost[v] += weight
    for terms, low, high in copies_rows:
        add(dict(terms), low, high)
    lb = np.array(lower + [0.0] * (2 * len(deck_vars)))
    ub = np.array(upper + [np.inf] * (2 * len(deck_vars)))
    matrix = coo_array((data, (rows_i, cols)), shape=(len(lows), total)).tocsc()
    groups_of = _alike_columns(matrix, cost, lb)
    # One variable per group of alike columns: their copies count only as a sum.
    reps = [members[0] for members in groups_of]
    size = np.array([len(members) for members in groups_of], dtype=float)
    merged_ub = np.array([ub[members].sum() for members in groups_of])
    constraints = []
    if lows:
        reduced = matrix[:, reps]
        constraints = [LinearConstraint(reduced, np.array(lows), np.array(highs))]
    result = milp(
        cost[reps],
        integrality=np.ones(len(reps)),
        bounds=Bounds(lb[reps] * size, merged_ub),
        constraints=constraints,
        options={"disp": False, "time_limit": TIME_LIMIT},
    )
    if result.x is None:
        return _Solved(int(result.status), {}, math.nan)
    x = _spread(groups_of, [round(float(v)) for v in result.x], lb, ub)
    values = {names[v]: x[v] for v in range(n)}
    return _Solved(int(result.status), values, float(result.fun))


def _alike_columns(matrix: Any, cost: Any, lb: Any) -> list[list[int]]:
    """Columns grouped where they are alike: the same entries in every row, the same cost and
    the same lower bound (an upper bound may differ). Such variables enter every constraint
    and the objective only through their sum, so one integer variable bounded by the sum of
    their bounds stands for them all; STCCG's 4,155 cards fall into a few hundred groups, and
    the solver's work with them."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    indptr, indices, data = matrix.indptr, matrix.indices, matrix.data
    for col in range(matrix.shape[1]):
        start, end = indptr[col], indptr[col + 1]
        if not math.isfinite(lb[col]):
            groups[(col,)] = [col]  # shared out from its lower bound: only finite ones
            continue
        key = (
            tuple(indices[start:end].tolist()),
            tuple(data[start:end].tolist()),
            float(cost[col]),
            float(lb[col]),
        )
        groups.setdefault(key, []).append(col)
    return list(groups.values())


def _spread(groups: Sequence[Sequence[int]], totals: Sequence[int], lb: Any, ub: Any) -> list[int]:
    """Each group's total shared out among its columns: every column its lower bound, then
    the rest in column order up to each one's upper bound (any split is as good)."""
    x = [0] * sum(len(g) for g in groups)
    for members, total in zip(groups, totals, strict=True):
        if len(members) == 1:
            x[members[0]] = total
            continue
        left = total
        for col in members:
            x[col] = round(float(lb[col]))
            left -= x[col]
        for col in members:
            room = min(left, int(ub[col]) - x[col]) if math.isfinite(ub[col]) else left
            x[col] += max(room, 0)
            left -= max(room, 0)
    return x


def _secondary(model: _Model) -> dict[int, float]:
    """Tie-break among the nearest decks: new cards cost more than more copies of the deck's
    own."""
    return {v: 0.0 if model.names[v] in model.deck_counts else 1.0 for v in model.costs}


def _conflict(model: _Model, groups: Sequence[str]) -> list[str]:
    """A smallest set of groups that cannot all hold (deletion filter: drop each group whose
    absence leaves the rest still infeasible)."""
    kept = list(groups)
    for group in list(groups):
        trial = [g for g in kept if g != group]
        if _solve(model, set(trial), None).status == _INFEASIBLE:
            kept = trial
    return kept


# ---------------------------------------------------------------------------- the answer


def _prefer(loaded: LoadedDeck, text: str | None) -> Callable[[Card], bool] | None:
    if not text:
        return None
    try:
        selector = parse_condition(text).selector
    except ConditionError:
        selector = text
    return bind_selector(selector, loaded.catalog, loaded.game.name_candidates)


def nearest_legal(
    loaded: LoadedDeck,
    *,
    keep: Sequence[str] = (),
    owned: Mapping[str, int] | None = None,
    prefer: str | None = None,
) -> FixResult:
    """The nearest legal deck to ``loaded`` (see the module's description).

    ``keep``: card names or ids never removed; ``owned``: card id -> the most copies the
    answer may hold (0 when absent; a legal deck beyond a cap is changed too); ``prefer``: a
    selector or condition whose cards are preferred among the nearest decks.
    """
    before = validate_loaded(loaded)
    base: dict[str, Any] = {
        "deck": loaded.deck.label,
        "game": loaded.game.id,
        "variant": loaded.variant.name,
    }
    codes = list(loaded.variant.rules)
    stated, unstated = _collect(loaded, codes)
    # The options are read first: a misspelt --keep is an error even on a legal deck.
    keep_ids = resolve_cards(loaded, keep, KEEP)
    preferred = _prefer(loaded, prefer)
    within = owned is None or all(n <= owned.get(i, 0) for i, n in loaded.deck.counts().items())
    if before.status is Status.LEGAL and within:
        return FixResult(**base, status="legal", before=before, report=before, proven=True)
    started = time.perf_counter()
    model = _build(loaded, stated, keep_ids, owned)
    first = _solve(model, None, model.costs)
    if first.status == _INFEASIBLE or not first.values:
        groups = [*codes, *(g for g in (KEEP, OWNED) if g in model.bound_groups)]
        conflict = _conflict(model, groups) if first.status == _INFEASIBLE else []
        seconds = time.perf_counter() - started
        reasons = [_reason(g, stated, loaded, len(conflict)) for g in conflict]
        if first.status != _INFEASIBLE:
            reasons = [f"the solver stopped without an answer (status {first.status})"]
        return FixResult(
            **base,
            status=UNREACHABLE,
            before=before,
            conflict=tuple(conflict),
            reasons=tuple(reasons),
            notes=tuple(unstated),
            seconds=seconds,
        )
    values = first.values
    proven = first.status == _OPTIMAL
    if proven:
        cards = {c.id: c for c in loaded.catalog}
        budget = ({v: 1.0 for v in model.costs}, -math.inf, float(round(first.objective)))
        held: list[tuple[dict[int, float], float, float]] = []
        if preferred is not None:
            # Lexicographic: among the decks at the least distance, the most copies of the
            # preferred cards (a solve of its own, the distance held at its optimum) ...
            matching = {v: 1.0 for v in model.costs if preferred(cards[model.names[v]])}
            most = _solve(model, None, None, [budget], {v: -1.0 for v in matching})
            if most.status == _OPTIMAL and most.values:
                values = most.values
                best = sum(values.get(model.names[v], 0) for v in matching)
                held = [(matching, float(best), math.inf)]
        # ... then, among those, the fewest cards new to the deck.
        second = _solve(model, None, _secondary(model), [budget], None, held)
        if second.status == _OPTIMAL and second.values:
            values = second.values
    seconds = time.perf_counter() - started
    order = next((rc.order for rc in stated.values() if rc.order), ())
    # new cards in catalog order, where the game puts them
    deck, changes = answer_deck(loaded, values, (c.id for c in loaded.catalog), place=not order)
    if order:
        # the rules fix the cards' order (a Drake stack): one line a card, in that order
        by_id = {c.id: c for c in loaded.catalog}
        deck = dataclasses.replace(deck, entries=tuple(DeckEntry(by_id[i], 1) for i in order))
    report = validate_loaded(dataclasses.replace(loaded, deck=deck))
    notes = list(unstated)
    notes += [f"{code}: {rc.note}" for code, rc in stated.items() if rc.note and rc.exact]
    if order and [c.id for c in deck.sequence()] != [c.id for c in loaded.deck.sequence()]:
        notes.append(
            "the cards are put in the order the rules want: "
            + ", ".join(c.name for c in deck.sequence())
        )
    if not proven:
        notes.append(f"the solver stopped at its limit of {TIME_LIMIT:.0f} s: not proven minimal")
    if report.status is Status.ILLEGAL:
        failing = sorted({v.code for v in report.violations if v.severity is Severity.ERROR})
        notes.append("the answer still breaks " + ", ".join(failing) + " (checked on the answer)")
    return FixResult(
        **base,
        status="fixed",
        before=before,
        changes=changes,
        proven=proven,
        report=report,
        notes=tuple(notes),
        seconds=seconds,
        cards=tuple((e.card, e.count) for e in deck),
    )


def _reason(
    group: str, stated: Mapping[str, RuleConstraints], loaded: LoadedDeck, groups: int = 2
) -> str:
    if group == KEEP:
        return "--keep: the kept cards cannot all stay"
    if group == OWNED:
        return "--owned: the collection lacks cards the rules need"
    note = stated[group].note
    if note:
        return f"{group}: {note}"
    # "with the others listed" only where others are listed
    return f"{group} cannot be met" + (" together with the others listed" if groups > 1 else "")
