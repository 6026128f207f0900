"""The programme ``fix`` and ``optimize`` both solve: a deck's legal neighbours as a
mixed-integer programme, solved by HiGHS (``scipy.optimize.milp``, imported only to solve).

:class:`Programme` holds variables, rows (each in a group: a rule's code, ``--keep``,
``--owned``, so that a conflict can name them), named objectives, and states a rule's
:class:`~deckcheck.games.linear.Linear` constraints (an indicator as a big-M row from the
variables' bounds) in one place. :func:`deck_programme` builds the model of one deck: a
variable for each card's copies in each zone of the deck file (its seed zone, its draw deck:
a rule counting a file's seed deck sees them apart), each rule's constraints, the collection,
the kept cards, and the distance: copies added, removed, or moved from one zone to another,
each one change.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.games.linear import Linear, RuleConstraints, split_zone
from deckcheck.games.setaside import placement, places
from deckcheck.games.variant import Variant

OPTIMAL, LIMIT, INFEASIBLE = 0, 1, 2
"""HiGHS's statuses through ``scipy.optimize.milp``."""

TIME_LIMIT = 60.0
"""Seconds HiGHS may spend on one solve unless told otherwise."""

KEEP = "--keep"
OWNED = "--owned"
DISTANCE = "distance"
"""The objective counting changes: each copy added or removed, each copy moved, one."""

Terms = dict[int, float]


@frozen
class Solved:
    """A solve's HiGHS status, the value of every variable (None: no solution) and the
    objective's value."""

    status: int
    x: tuple[float, ...] | None
    objective: float


class Programme:
    """Variables with bounds, rows ``low <= terms <= high`` by group, named objectives.

    ``merge``: alike variables are solved as one (see :meth:`size`); off, each stands alone
    (the same answers, more slowly)."""

    merge = True

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integer: list[bool] = []
        self.rows: list[tuple[Terms, float, float, str]] = []
        self.bound_groups: dict[str, dict[int, tuple[float, float]]] = {}
        self.weights: dict[str, Terms] = {}
        self._reduced: Any = None
        self._structure: Any = None
        self._bounds_of: dict[frozenset[str] | None, Any] = {}
        self._vectors: dict[str, Any] = {}
        self._order: Any = None

    def var(self, low: float, high: float, integer: bool = True) -> int:
        """A new variable's index."""
        self.lower.append(float(low))
        self.upper.append(float(high))
        self.integer.append(integer)
        self._forget(structure=True)
        return len(self.lower) - 1

    def row(self, terms: Mapping[int, float], low: float, high: float, group: str = "") -> None:
        """``low <= sum(k * x) <= high``, dropped with its group when a solve leaves it out."""
        self.rows.append(({v: float(k) for v, k in terms.items() if k}, low, high, group))
        self._forget(structure=True)

    def bound(self, group: str, v: int, low: float, high: float) -> None:
        """Bounds of a variable that hold while ``group`` does."""
        self.bound_groups.setdefault(group, {})[v] = (float(low), float(high))
        self._forget(structure=True)

    def weigh(self, name: str, terms: Mapping[int, float]) -> None:
        """An objective a solve may minimise (or hold within bounds), by name."""
        weights = {v: float(k) for v, k in terms.items() if k}
        if self.weights.get(name) != weights:
            self.weights[name] = weights
            self._forget()

    def _forget(self, structure: bool = False) -> None:
        """Drop what was worked out from the variables, rows and objectives."""
        self._reduced = None
        self._vectors = {}
        self._order = None
        if structure:
            self._structure = None
            self._bounds_of = {}

    def state(
        self, c: Linear, resolve: Callable[[str], Mapping[int, float]], group: str = ""
    ) -> None:
        """A rule's constraint as rows: ``resolve`` gives each of its names' variables; an
        indicator (``when``, a 0/1 variable) becomes a big-M row whose M comes from the
        variables' bounds; a ``when`` that names no variable holds always."""
        row: Terms = {}
        for name, k in c.terms.items():
            if not k:
                continue
            for v, w in resolve(name).items():
                row[v] = row.get(v, 0.0) + k * w
        low = -math.inf if c.low is None else float(c.low)
        high = math.inf if c.high is None else float(c.high)
        when = resolve(c.when) if c.when is not None else {}
        if len(when) != 1:
            self.row(row, low, high, group)
            return
        (h,) = when
        least = sum(k * (self.lower[v] if k > 0 else self.upper[v]) for v, k in row.items())
        most = sum(k * (self.upper[v] if k > 0 else self.lower[v]) for v, k in row.items())
        if c.low is not None:
            big = max(0.0, low - least)
            self.row({**row, h: -big}, low - big, math.inf, group)
        if c.high is not None:
            big = max(0.0, most - high)
            self.row({**row, h: big}, -math.inf, high + big, group)

    # -- solving -------------------------------------------------------------------------

    def _merged(self) -> Any:
        """Columns grouped where they are alike: the same entries in every row, the same
        weight in every objective, both whole or not, the same lower bound and no bound of a
        group raising it. Such variables enter every row and objective only through their
        sum, so one variable bounded by the sum of their bounds stands for them all (STCCG's
        4,155 cards fall into a few hundred groups, and the solver's work with them)."""
        if self._reduced is not None:
            return self._reduced
        matrix, keys, np = self._columns()
        n = len(self.lower)
        raised = {v for b in self.bound_groups.values() for v, (lo, _) in b.items() if lo > 0}
        weighed: dict[int, list[tuple[int, float]]] = {}
        for k, name in enumerate(sorted(self.weights)):
            for v, w in self.weights[name].items():
                weighed.setdefault(v, []).append((k, w))
        groups: dict[tuple[Any, ...], list[int]] = {}
        for col in range(n):
            if not self.merge or col in raised or not math.isfinite(self.lower[col]):
                groups[(col,)] = [col]
                continue
            key = (
                keys[col],
                tuple(weighed.get(col, ())),
                self.integer[col],
                self.lower[col],
            )
            groups.setdefault(key, []).append(col)
        members = list(groups.values())
        reps = [m[0] for m in members]
        of = np.empty(n, dtype=int)
        for g, m in enumerate(members):
            of[m] = g
        self._reduced = (members, reps, of, matrix[:, reps].tocsr(), np)
        return self._reduced

    def _columns(self) -> Any:
        """The rows as a sparse matrix, and each column's entries (the part of a column's
        likeness that does not change as objectives are declared)."""
        if self._structure is not None:
            return self._structure
        from deckcheck.core.numeric import np  # first: scipy would load numpy its own way

        # isort: split
        from scipy.sparse import coo_array

        rows_i: list[int] = []
        cols: list[int] = []
        data: list[float] = []
        for r, (terms, _, _, _) in enumerate(self.rows):
            for col, k in terms.items():
                rows_i.append(r)
                cols.append(col)
                data.append(k)
        n = len(self.lower)
        matrix = coo_array((data, (rows_i, cols)), shape=(len(self.rows), n)).tocsc()
        indptr, indices, values = matrix.indptr, matrix.indices, matrix.data
        keys = [
            (
                tuple(indices[indptr[c] : indptr[c + 1]].tolist()),
                tuple(values[indptr[c] : indptr[c + 1]].tolist()),
            )
            for c in range(n)
        ]
        self._structure = (matrix, keys, np)
        return self._structure

    def size(self) -> int:
        """How many variables the solver sees: alike ones merged (see :meth:`_merged`)."""
        return len(self._merged()[0])

    def merged_with(self) -> Any:
        """Each variable's group among the solver's variables (alike ones share one)."""
        return self._merged()[2]

    def limits(self) -> tuple[Any, Any]:
        """Every variable's bounds, those of every group of rows included, as arrays."""
        return self._bounds(None)

    def alike(self, v: int, w: int) -> bool:
        """Whether two variables are alike (one variable to the solver, see above)."""
        _, _, of, _, _ = self._merged()
        return bool(of[v] == of[w])

    def solve(
        self,
        objective: Mapping[str, float] | None = None,
        *,
        cost: Mapping[int, float] | None = None,
        bounds: Mapping[int, tuple[float, float]] | None = None,
        groups: set[str] | None = None,
        held: Sequence[tuple[str, float, float]] = (),
        relax: bool = False,
        time_limit: float = TIME_LIMIT,
    ) -> Solved:
        """Minimise the named objectives, each times its factor (a negative factor
        maximises), plus ``cost`` on single variables; with the rows and bounds of ``groups``
        only (None: all, a row of no group always), ``bounds`` narrowing variables that stand
        alone, and ``held``: (objective, low, high) rows over named objectives (the distance
        held at its least while a tie is broken)."""
        from scipy.optimize import Bounds, LinearConstraint, milp

        members, _, of, reduced, np = self._merged()
        lower, upper = self._bounds(groups)
        if bounds:
            lower, upper = lower.copy(), upper.copy()
            for v, (lo, hi) in bounds.items():
                if len(members[of[v]]) != 1:
                    raise ValueError("bounds of a variable merged with others")
                lower[v], upper[v] = max(lower[v], lo), min(upper[v], hi)
        if (lower > upper).any():
            return Solved(INFEASIBLE, None, math.nan)
        size = len(members)
        lb = np.bincount(of, weights=lower, minlength=size)
        ub = np.bincount(of, weights=upper, minlength=size)
        c = np.zeros(size)
        for name, factor in (objective or {}).items():
            c += factor * self._weight_vector(name)
        for v, k in (cost or {}).items():
            if len(members[of[v]]) != 1:
                raise ValueError("a cost on a variable merged with others")
            c[of[v]] += k
        keep = [
            r
            for r, (_, _, _, group) in enumerate(self.rows)
            if groups is None or not group or group in groups
        ]
        constraints = []
        if keep:
            lows = np.array([self.rows[r][1] for r in keep], dtype=float)
            highs = np.array([self.rows[r][2] for r in keep], dtype=float)
            matrix = reduced if len(keep) == len(self.rows) else reduced[keep, :]
            constraints.append(LinearConstraint(matrix, lows, highs))
        for name, low, high in held:
            row = self._weight_vector(name)
            constraints.append(LinearConstraint(row.reshape(1, -1), [low], [high]))
        integrality = np.zeros(size) if relax else self._integrality()
        result = milp(
            c,
            integrality=integrality,
            bounds=Bounds(lb, ub),
            constraints=constraints,
            options={"disp": False, "time_limit": time_limit},
        )
        if result.x is None:
            return Solved(int(result.status), None, math.nan)
        totals = result.x if relax else np.round(result.x)
        return Solved(int(result.status), self._spread(totals, lb, lower, upper), float(result.fun))

    def _bounds(self, groups: set[str] | None) -> tuple[Any, Any]:
        """Every variable's bounds with the bounds of ``groups`` (None: all), as arrays."""
        key = None if groups is None else frozenset(groups)
        cached = self._bounds_of.get(key)
        if cached is None:
            from deckcheck.core.numeric import np

            lower = np.array(self.lower, dtype=float)
            upper = np.array(self.upper, dtype=float)
            for group, given in self.bound_groups.items():
                if groups is not None and group not in groups:
                    continue
                for v, (lo, hi) in given.items():
                    lower[v], upper[v] = max(lower[v], lo), min(upper[v], hi)
            cached = self._bounds_of[key] = (lower, upper)
        return cached

    def _weight_vector(self, name: str) -> Any:
        """An objective over the solver's variables (a group's members share its weight)."""
        members, _, of, _, np = self._merged()
        cached = self._vectors.get(name)
        if cached is None:
            cached = np.zeros(len(members))
            for v, w in self.weights[name].items():
                cached[of[v]] = w
            self._vectors[name] = cached
        return cached

    def _integrality(self) -> Any:
        _, reps, _, _, np = self._merged()
        return np.array([int(self.integer[r]) for r in reps])

    def _spread(self, totals: Any, lb: Any, lower: Any, upper: Any) -> tuple[float, ...]:
        """Each group's total shared out among its members: every member its lower bound,
        then the rest in the members' order, each up to its upper bound (any split is as
        good: they are alike)."""
        members, _, of, _, np = self._merged()
        order = self._order
        if order is None:
            order = self._order = np.concatenate([np.array(m, dtype=int) for m in members])
        grp = of[order]
        low = lower[order]
        room = np.minimum(upper[order] - low, 1e12)
        ends = np.cumsum(room)
        starts = ends - room
        # the room of the group's members before each one (members are contiguous in order)
        first = np.zeros(len(members))
        firsts = np.flatnonzero(np.r_[True, grp[1:] != grp[:-1]])
        first[grp[firsts]] = starts[firsts]
        before = starts - first[grp]
        take = np.clip((totals - lb)[grp] - before, 0, room)
        x = np.zeros(len(self.lower))
        x[order] = low + take
        return tuple(x.tolist())


# ------------------------------------------------------------------------------ a deck


@dataclass
class DeckProgramme:
    """One deck's programme: ``cells`` (card id, zone) -> variable (zone None: a game
    without zones), the deck's own copies per cell, the rules as stated (by code), their
    helpers, and what every answer is measured by (``DISTANCE``)."""

    loaded: LoadedDeck
    programme: Programme
    zones: tuple[str | None, ...]
    cells: dict[tuple[str, str | None], int]
    held: dict[tuple[str, str | None], int]
    stated: dict[str, RuleConstraints]
    variant: Variant
    cap: int
    helpers: dict[str, int] = field(default_factory=dict)
    placed: bool = False
    by_card: dict[str, list[int]] = field(default_factory=dict)
    zoned: dict[str, dict[tuple[str, str | None], int]] = field(default_factory=dict)
    gained: dict[tuple[str, str | None], int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """What the tie-breaks could not prove (a warning rule stated by trial only)."""

    def copies(self, card_id: str) -> Terms:
        """The variables of a card's copies in every zone."""
        return dict.fromkeys(self.by_card.get(card_id, ()), 1.0)

    def resolve(self, name: str) -> Terms:
        """The variables a rule's name stands for: a helper, a card in every zone, or a card
        in one zone (nothing where the model has no such cell)."""
        if name in self.helpers:
            return {self.helpers[name]: 1.0}
        card_id, zone = split_zone(name)
        if zone is None:
            return self.copies(card_id)
        v = self.cells.get((card_id, zone))
        return {} if v is None else {v: 1.0}

    def values(self, x: Sequence[float]) -> dict[tuple[str, str | None], int]:
        """The copies of each cell in a solution (cells with none left out)."""
        out: dict[tuple[str, str | None], int] = {}
        for cell, v in self.cells.items():
            n = round(x[v])
            if n:
                out[cell] = n
        return out

    def totals(self, x: Sequence[float]) -> dict[str, int]:
        """Card id -> copies in a solution."""
        out: dict[str, int] = {}
        for (card_id, _), n in self.values(x).items():
            out[card_id] = out.get(card_id, 0) + n
        return out

    def distance(self, x: Sequence[float]) -> int:
        """The changes a solution makes: per card, the greater of copies gained and lost
        across its zones (a copy lost in one zone and gained in another is one move)."""
        got = self.values(x)
        up: dict[str, int] = {}
        down: dict[str, int] = {}
        for cell in set(got) | set(self.held):
            d = got.get(cell, 0) - self.held.get(cell, 0)
            if d > 0:
                up[cell[0]] = up.get(cell[0], 0) + d
            elif d < 0:
                down[cell[0]] = down.get(cell[0], 0) - d
        return sum(max(up.get(i, 0), down.get(i, 0)) for i in set(up) | set(down))


def model_zones(
    loaded: LoadedDeck, placed: bool | None = None
) -> tuple[tuple[str | None, ...], bool]:
    """The zones a card's copies may be in, and whether the deck places its cards (a card in
    a zone a set-aside rule names: its seed zone is its seed deck). A deck that does not place
    them stays so (the rules' zones are left out: the rules place its cards by type)."""
    counted = tuple(z.name for z in loaded.game.zones if z.counted)
    if not counted:
        return (None,), False
    rules = loaded.variant.set_aside or ()
    named = {r.zone for r in rules if r.zone}
    if placed is None:
        placed = places(loaded.deck, rules)
    if named and not placed:
        return tuple(z for z in counted if z not in named), False
    return counted, placed and bool(named)


def deck_programme(
    loaded: LoadedDeck,
    *,
    keep: Iterable[str] = (),
    owned: Mapping[str, int] | None = None,
    changes: int | None = None,
    numbers: Iterable[int] = (),
    prune: bool = False,
    placed: bool | None = None,
) -> DeckProgramme:
    """The programme of a deck's legal neighbours (see the module): ``keep`` card ids never
    lose copies, ``owned`` caps each card's copies in all zones (card id -> the most copies,
    0 when absent: the per-card caps of a collection), ``changes`` caps the distance;
    ``numbers`` are further counts a card may need to reach (cards seen); ``prune`` leaves out
    cards no answer may hold (a conflict search keeps them, to name the rule); ``placed``
    states the deck as placing its cards or not (None: as its file does)."""
    zones, placed_now = model_zones(loaded, placed)
    default = next((z.name for z in loaded.game.zones if z.counted), None)
    rules = loaded.variant.set_aside
    variant = loaded.variant
    if rules is not None:
        variant = dataclasses.replace(variant, set_aside=placement(rules, placed_now))
    stated = {
        code: loaded.game.constraints(code, loaded.catalog, variant)
        for code in loaded.variant.rules
    }
    held: dict[tuple[str, str | None], int] = {}
    for e in loaded.deck.entries:
        cell = (e.card.id, (e.zone or default) if default is not None else None)
        held[cell] = held.get(cell, 0) + e.count
    have: dict[str, int] = {}
    for (card_id, _), n in held.items():
        have[card_id] = have.get(card_id, 0) + n
    cap = max([loaded.deck.size, 1, *numbers, *_named_numbers(stated)])
    p = Programme()
    model = DeckProgramme(loaded, p, zones, {}, held, stated, variant, cap, placed=placed_now)
    fixed: dict[str, dict[str, int]] = {}
    for code, rc in stated.items():
        for card_id, n in rc.fixed.items():
            fixed.setdefault(card_id, {})[code] = n
    kept = set(keep)
    for card in loaded.catalog:
        i = card.id
        n = have.get(i, 0)
        limit = owned.get(i, 0) if owned is not None else None
        never = (limit is not None and limit <= 0) or 0 in fixed.get(i, {}).values()
        if prune and not n and never:
            continue
        high = float(cap if changes is None else changes)
        where = [z for z in zones]
        where += [z for (j, z) in held if j == i and z not in where]
        for zone in where:
            hold = held.get((i, zone), 0)
            top = (
                0.0
                if zone not in zones
                else max(high, float(hold))
                if changes is None
                else hold + high
            )
            v = p.var(0, top)
            model.cells[(i, zone)] = v
            model.by_card.setdefault(i, []).append(v)
            model.zoned.setdefault(i, {})[(i, zone)] = v
        mine = model.by_card[i]
        for code, count in fixed.get(i, {}).items():
            if len(mine) == 1:
                p.bound(code, mine[0], count, count)
            elif count == 0:
                for v in mine:
                    p.bound(code, v, 0, 0)
            else:
                p.row(dict.fromkeys(mine, 1.0), count, count, code)
        if i in kept and n:
            p.row(dict.fromkeys(mine, 1.0), n, math.inf, KEEP)
        if limit is not None:
            most = float(limit)  # strict: a deck's copies beyond its cap go too
            for v in mine:
                p.bound(OWNED, v, 0, most)
            if len(mine) > 1 and most > 0:
                p.row(dict.fromkeys(mine, 1.0), -math.inf, most, OWNED)
    total = float(sum(p.upper))
    for rc in stated.values():
        for h in rc.helpers:
            if h.name not in model.helpers:
                top = float(h.high) if h.high is not None else total
                model.helpers[h.name] = p.var(h.low, top)
    for code, rc in stated.items():
        for c in rc.linear:
            p.state(c, model.resolve, code)
    if placed_now:
        # the answer keeps a card in a zone the set-aside rules name, as the rules were stated
        named = {r.zone for r in rules or () if r.zone}
        p.row({v: 1.0 for (_, z), v in model.cells.items() if z in named}, 1, math.inf)
    _distance(model)
    if changes is not None:
        p.row(p.weights[DISTANCE], -math.inf, changes, "--changes")
    return model


def _named_numbers(stated: Mapping[str, RuleConstraints]) -> list[int]:
    numbers: list[int] = []
    for rc in stated.values():
        for c in rc.linear:
            numbers += [abs(b) for b in (c.low, c.high) if b is not None]
        numbers += rc.fixed.values()  # a count a rule fixes (2 Clubmen) must be reachable
    return numbers


def _distance(model: DeckProgramme) -> None:
    """The changes as an objective: a card new to the deck costs 1 a copy; a card of the deck
    costs the greater of the copies its zones gain and lose (``d >= gained``, ``d >=
    lost``, each zone's ``x - gained + lost = held``): a move is one change."""
    p = model.programme
    weights: Terms = {}
    cards = {card_id for card_id, _ in model.held}
    for card_id, mine in model.by_card.items():
        if card_id not in cards:
            for v in mine:
                weights[v] = 1.0
            continue
        d = p.var(0, math.inf, integer=False)
        gained: Terms = {d: 1.0}
        lost: Terms = {d: 1.0}
        for (i, zone), v in model.zoned[card_id].items():
            up = p.var(0, math.inf, integer=False)
            down = p.var(0, math.inf, integer=False)
            hold = float(model.held.get((i, zone), 0))
            p.row({v: 1.0, up: -1.0, down: 1.0}, hold, hold)
            model.gained[(i, zone)] = up
            gained[up] = -1.0
            lost[down] = -1.0
        p.row(gained, 0, math.inf)
        p.row(lost, 0, math.inf)
        weights[d] = 1.0
    p.weigh(DISTANCE, weights)
