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
import hashlib
import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, pairwise
from typing import Any, NamedTuple

from deckcheck.catalog.model import Card
from deckcheck.core.values import Recent, frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.games.linear import Linear, RuleConstraints, split_zone
from deckcheck.games.setaside import placement, places
from deckcheck.games.variant import Variant
from deckcheck.solve.changes import cards_by_id

OPTIMAL, LIMIT, INFEASIBLE = 0, 1, 2
"""HiGHS's statuses through ``scipy.optimize.milp``."""

TIME_LIMIT = 60.0
"""Seconds HiGHS may spend on one solve unless told otherwise."""

MEMO_KEPT = 16
"""Sets of helpers (as good as variants) a catalog's layout keeps the rules' terms for."""

KEEP = "--keep"
OWNED = "--owned"
DISTANCE = "distance"
"""The objective counting changes: each copy added or removed, each copy moved, one."""

Terms = dict[int, float]

_SOLUTIONS: Recent[Any] = Recent(8)
"""The latest solutions (:attr:`Solved.x`, tuples) as read-only arrays: a solution is read
whole again and again (each tie-break's value, its cells, its totals), and turning a tuple of
every variable's value into an array costs more than the reading."""


SOLVES_KEPT = 64
"""Answers of HiGHS a process keeps, by the whole of what it was given (see :class:`Solves`)."""


class Solves:
    """HiGHS's latest answers by a digest of everything a solve gives it (objective, bounds,
    whole-ness, every row's entries and bounds, options): the same programme asked again in one
    process (the builder, ``validate --suggest`` of decks alike, a command run for its text and
    its JSON) gets the answer HiGHS gave, without solving again. Only proven answers (optimal,
    infeasible) are kept: one stopped by its time limit may go further another time. The oldest
    goes first once :data:`SOLVES_KEPT` are kept. Safe to share between threads."""

    def __init__(self, size: int) -> None:
        self._answers: dict[bytes, tuple[int, Any, float]] = {}
        self._size = size
        self._lock = threading.Lock()

    @staticmethod
    def key(arrays: Sequence[Any], numbers: Sequence[float]) -> bytes:
        """A digest of arrays (shape, type and bytes, each) and numbers, in order."""
        digest = hashlib.blake2b(repr(tuple(numbers)).encode(), digest_size=32)
        for array in arrays:
            digest.update(repr((array.shape, array.dtype.str)).encode())
            digest.update(array.tobytes())
        return digest.digest()

    def get(self, key: bytes) -> tuple[int, Any, float] | None:
        """The answer kept for ``key``: (status, solution or None, objective)."""
        with self._lock:
            return self._answers.get(key)

    def keep(self, key: bytes, status: int, x: Any, fun: float) -> None:
        """Keep a proven answer (``x`` is copied, read only)."""
        if status not in (OPTIMAL, INFEASIBLE) or self._size <= 0:
            return  # a size of 0 keeps nothing: the memo switched off
        kept = None if x is None else _read_only(x.copy())
        with self._lock:
            if key not in self._answers and len(self._answers) >= self._size:
                del self._answers[next(iter(self._answers))]
            self._answers[key] = (status, kept, fun)


SOLVES = Solves(SOLVES_KEPT)


def as_array(x: Sequence[float]) -> Any:
    """A solution's values as a float array (read only)."""
    from deckcheck.core.numeric import np

    if type(x) is not tuple:
        return np.asarray(x, dtype=float)
    return _SOLUTIONS.answer((), (x,), lambda: _read_only(np.asarray(x, dtype=float)))


def _read_only(array: Any) -> Any:
    array.flags.writeable = False
    return array


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
    (the same answers, more slowly).

    Rows and variables are only ever added; what the solver is given (the matrix, the groups
    of alike variables, the bounds, the objectives as vectors) is worked out from them when a
    solve asks, kept while nothing it depends on changes, and the matrix's rows already read
    are not read again."""

    merge = True

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integer: list[bool] = []
        self.rows: list[tuple[Terms, float, float, str]] = []
        self.bound_groups: dict[str, dict[int, tuple[float, float]]] = {}
        self.weights: dict[str, Terms] = {}
        # the rows read so far: (row of each entry, its column, its value, lows, highs)
        self._read = 0  # rows read into ``_read_matrix``
        self._read_matrix: tuple[Any, Any, Any] | None = None  # (matrix, lows, highs)
        self._grouped: _Grouped | None = None  # the last grouping (see :meth:`_merged`)
        self._structure: _Structure | None = None
        self._reduced: _Merged | None = None
        self._bounds_of: dict[frozenset[str] | None, tuple[Any, Any]] = {}
        self._bound_arrays: dict[str, tuple[Any, Any, Any]] = {}
        self._weight_arrays: dict[str, tuple[Any, Any]] = {}
        self._vectors: dict[str, Any] = {}
        # what solves of the same merging share: the rows HiGHS is given (by the groups kept
        # and the objectives held), each kept group's totals of the bounds, how a solution's
        # group totals are shared out (see :meth:`_solver_rows`, :meth:`_sharing`)
        self._given: dict[Any, Any] = {}

    def var(self, low: float, high: float, integer: bool = True) -> int:
        """A new variable's index."""
        self.lower.append(float(low))
        self.upper.append(float(high))
        self.integer.append(integer)
        self._forget(structure=True)
        return len(self.lower) - 1

    def vars(self, highs: Sequence[float], low: float = 0.0) -> range:
        """New whole variables from ``low``, one to each upper bound: their indices."""
        start = len(self.lower)
        self.lower += [float(low)] * len(highs)
        self.upper += [float(h) for h in highs]
        self.integer += [True] * len(highs)
        self._forget(structure=True)
        return range(start, len(self.lower))

    def row(self, terms: Mapping[int, float], low: float, high: float, group: str = "") -> None:
        """``low <= sum(k * x) <= high``, dropped with its group when a solve leaves it out."""
        self.rows.append(({v: float(k) for v, k in terms.items() if k}, low, high, group))
        self._forget(structure=True)

    def bound(self, group: str, v: int, low: float, high: float) -> None:
        """Bounds of a variable that hold while ``group`` does."""
        self.bounds(group, (v,), low, high)

    def bounds(self, group: str, variables: Iterable[int], low: float, high: float) -> None:
        """The same bounds of several variables, holding while ``group`` does."""
        given = self.bound_groups.setdefault(group, {})
        pair = (float(low), float(high))
        for v in variables:
            given[v] = pair
        self._bound_arrays.pop(group, None)
        self._forget(structure=True)

    def weigh(self, name: str, terms: Mapping[int, float]) -> None:
        """An objective a solve may minimise (or hold within bounds), by name."""
        weights = {v: float(k) for v, k in terms.items() if k}
        if self.weights.get(name) != weights:
            self.weights[name] = weights
            self._weight_arrays.pop(name, None)
            self._forget()

    def _forget(self, structure: bool = False) -> None:
        """Drop what was worked out from the variables, rows and objectives (the rows already
        read stay read: rows are only added)."""
        self._reduced = None
        if self._vectors:
            self._vectors = {}
        if self._given:
            self._given = {}
        if structure:
            self._structure = None
            if self._bounds_of:
                self._bounds_of = {}

    def state(
        self,
        c: Linear,
        resolve: Callable[[str], Mapping[int, float]],
        group: str = "",
        memo: dict[int, _Stated] | None = None,
    ) -> None:
        """A rule's constraint as rows: ``resolve`` gives each of its names' variables; an
        indicator (``when``, a 0/1 variable) becomes a big-M row whose M comes from the
        variables' bounds; a ``when`` that names no variable holds always. ``memo`` keeps
        each constraint's terms over the variables for programmes whose ``resolve`` gives
        the same (one per layout of the variables: see :func:`deck_programme`)."""
        known = memo.get(id(c)) if memo is not None else None
        if known is not None and known.constraint is c:
            row, when, clean = known.row, known.when, known.clean
        else:
            pairs = [
                (v, k * w) for name, k in c.terms.items() if k for v, w in resolve(name).items()
            ]
            row = dict(pairs)
            if len(row) < len(pairs):  # names sharing a variable (a card, its copies in a zone)
                row = {}
                for v, kw in pairs:
                    row[v] = row.get(v, 0.0) + kw
            when = dict(resolve(c.when)) if c.when is not None else {}
            clean = {v: float(k) for v, k in row.items() if k}
            if memo is not None:  # the constraint is kept with it: its id stays its own
                memo[id(c)] = _Stated(c, row, when, clean)
        low = -math.inf if c.low is None else float(c.low)
        high = math.inf if c.high is None else float(c.high)
        if len(when) != 1:
            # the row as :meth:`row` keeps it, shared with the memo's other programmes (rows
            # are only read)
            self.rows.append((clean, low, high, group))
            self._forget(structure=True)
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

    def _columns(self) -> _Structure:
        """The rows as a sparse matrix (one column a variable), with each row's bounds and
        group, and each column's likeness: columns with the same entries in every row share a
        number (the part of being alike that does not change as objectives are declared)."""
        if self._structure is not None:
            return self._structure
        from deckcheck.core.numeric import np  # first: scipy would load numpy its own way

        # isort: split
        from scipy.sparse import coo_array, csc_array, vstack

        n = len(self.lower)
        fresh = self.rows[self._read :]
        sizes = [len(terms) for terms, _, _, _ in fresh]
        count = sum(sizes)
        # the fresh rows by columns, stacked under those read before (columns added since
        # are empty there): the same matrix as all the rows read at once, read once each
        added = coo_array(
            (
                np.fromiter(chain.from_iterable(t.values() for t, _, _, _ in fresh), float, count),
                (
                    np.repeat(np.arange(len(fresh)), sizes),
                    np.fromiter(chain.from_iterable(t for t, _, _, _ in fresh), int, count),
                ),
            ),
            shape=(len(fresh), n),
        ).tocsc()
        lows = np.fromiter((low for _, low, _, _ in fresh), float, len(fresh))
        highs = np.fromiter((high for _, _, high, _ in fresh), float, len(fresh))
        before = self._read_matrix
        if before is not None:
            old, old_lows, old_highs = before
            if old.shape[1] < n:
                indptr = np.concatenate(
                    [old.indptr, np.full(n - old.shape[1], old.indptr[-1], old.indptr.dtype)]
                )
                old = csc_array((old.data, old.indices, indptr), shape=(old.shape[0], n))
            if len(fresh):
                added = vstack([old, added], format="csc")
                lows = np.concatenate([old_lows, lows])
                highs = np.concatenate([old_highs, highs])
            else:
                added, lows, highs = old, old_lows, old_highs
        matrix = added
        self._read = len(self.rows)
        self._read_matrix = (matrix, lows, highs)
        likeness = _likeness(matrix, np)
        groups = [group for _, _, _, group in self.rows]
        self._structure = _Structure(matrix, likeness, lows, highs, groups)
        return self._structure

    def _merged(self) -> _Merged:
        """Columns grouped where they are alike: the same entries in every row, the same
        weight in every objective, both whole or not, the same lower bound and no bound of a
        group raising it. Such variables enter every row and objective only through their
        sum, so one variable bounded by the sum of their bounds stands for them all (STCCG's
        4,155 cards fall into a few hundred groups, and the solver's work with them). The
        groups are numbered in the order of their first variables."""
        if self._reduced is not None:
            return self._reduced
        from deckcheck.core.numeric import np

        structure = self._columns()
        n = len(self.lower)
        base = self._grouped
        if (
            base is not None
            and base.structure is structure
            and base.merge == self.merge
            and all(self.weights.get(name) is w for name, w in base.weights.items())
        ):
            # objectives declared since the last grouping only split its groups further:
            # the groups of (last group, each new weight) are the groups of the whole key
            fresh = [name for name in self.weights if name not in base.weights]
            key = np.zeros((n, 1 + len(fresh)))
            key[:, 0] = base.of
            for k, name in enumerate(fresh):
                columns, values = self._weights_of(name)
                key[columns, 1 + k] = values
        else:
            lower = np.array(self.lower, dtype=float)
            alone = ~np.isfinite(lower)
            if not self.merge:
                alone[:] = True
            for group in self.bound_groups:
                columns, low, _ = self._group_bounds(group)
                alone[columns[low > 0]] = True
            names = sorted(self.weights)
            key = np.zeros((n, 3 + len(names)))
            key[:, 0] = structure.likeness
            key[:, 1] = self.integer
            key[:, 2] = np.where(alone, 0.0, lower)
            for k, name in enumerate(names):
                columns, values = self._weights_of(name)
                key[columns, 3 + k] = values
            key[alone, 0] = -1.0 - np.flatnonzero(alone)  # a group of its own
        of, reps = first_seen_groups(key, np)
        self._grouped = _Grouped(structure, self.merge, dict(self.weights), of)
        order = np.argsort(of, kind="stable")  # each group's members together, in order
        sizes = np.bincount(of, minlength=len(reps))
        integrality = np.array([int(self.integer[r]) for r in reps.tolist()])
        self._reduced = _Merged(of, reps, order, sizes, structure.matrix[:, reps], integrality)
        return self._reduced

    def size(self) -> int:
        """How many variables the solver sees: alike ones merged (see :meth:`_merged`)."""
        return len(self._merged().reps)

    def merged_with(self) -> Any:
        """Each variable's group among the solver's variables (alike ones share one)."""
        return self._merged().of

    def limits(self) -> tuple[Any, Any]:
        """Every variable's bounds, those of every group of rows included, as arrays."""
        return self._bounds(None)

    def value(self, name: str, x: Sequence[float]) -> float:
        """An objective's value in a solution."""
        from deckcheck.core.numeric import np

        columns, weights = self._weights_of(name)
        return float(np.dot(weights, as_array(x)[columns]))

    def least(self, name: str, factor: float = 1.0) -> float:
        """The least ``factor`` times an objective can be over the variables' bounds (those
        of every group included)."""
        from deckcheck.core.numeric import np

        lower, upper = self.limits()
        columns, weights = self._weights_of(name)
        scaled = factor * weights
        return float(np.minimum(scaled * lower[columns], scaled * upper[columns]).sum())

    def alike(self, v: int, w: int) -> bool:
        """Whether two variables are alike (one variable to the solver, see above)."""
        of = self._merged().of
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
        from deckcheck.core.numeric import np

        # isort: split
        from scipy.optimize import Bounds, LinearConstraint, milp

        merged = self._merged()
        of, sizes = merged.of, merged.sizes
        lower, upper = self._bounds(groups)
        size = len(sizes)
        if bounds:
            lower, upper = self._narrowed(groups, bounds, lower, upper)
        empty, lb, ub = self._totals(groups, lower, upper)
        if empty:
            return Solved(INFEASIBLE, None, math.nan)
        c = np.zeros(size)
        for name, factor in (objective or {}).items():
            c += factor * self._weight_vector(name)
        for v, k in (cost or {}).items():
            if sizes[of[v]] != 1:
                raise ValueError("a cost on a variable merged with others")
            c[of[v]] += k
        names = tuple(name for name, _, _ in held)
        matrix, lows, highs, given = self._solver_rows(groups, names)
        integrality = np.zeros(size) if relax else merged.integrality
        rows = [self._weight_vector(name) for name in names]
        arrays = [c, integrality, lb, ub, lows, highs, *rows]
        if len(lows):
            arrays += [matrix.indptr, matrix.indices, matrix.data]
        numbers = [*matrix.shape, len(lows), time_limit]
        numbers += chain.from_iterable((low, high) for _, low, high in held)
        key = SOLVES.key(arrays, numbers)
        known = SOLVES.get(key)
        if known is None:
            constraints = []
            if given is not None:
                # the held objectives' bounds under the rows' own: one constraint, as HiGHS
                # reads the rows and then each held objective (the same matrix, stacked once)
                low_held = [low for _, low, _ in held]
                high_held = [high for _, _, high in held]
                constraints.append(
                    LinearConstraint(
                        given,
                        np.concatenate([lows, np.array(low_held, dtype=float)]),
                        np.concatenate([highs, np.array(high_held, dtype=float)]),
                    )
                )
            # A relative gap of 0: HiGHS's default (1e-4) stops within a few changes of the
            # bound once a deck is tens of thousands of changes away, and "proven" would not
            # hold.
            result = milp(
                c,
                integrality=integrality,
                bounds=Bounds(lb, ub),
                constraints=constraints,
                options={"disp": False, "time_limit": time_limit, "mip_rel_gap": 0.0},
            )
            fun = math.nan if result.x is None else float(result.fun)
            known = (int(result.status), result.x, fun)
            SOLVES.keep(key, *known)
        status, x, fun = known
        if x is None:
            return Solved(status, None, math.nan)
        totals = x if relax else np.round(x)
        return Solved(status, self._spread(totals, lb, lower, upper), fun)

    def _narrowed(
        self,
        groups: set[str] | None,
        bounds: Mapping[int, tuple[float, float]],
        lower: Any,
        upper: Any,
    ) -> tuple[Any, Any]:
        """The bounds narrowed by ``bounds`` on variables that stand alone (the last
        narrowing kept: a tie-break's solves share theirs)."""
        key = (None if groups is None else frozenset(groups), tuple(bounds.items()))
        kept = self._given.get("narrowed")
        if kept is not None and kept[0] == key and kept[1] is lower:
            return kept[2]
        merged = self._merged()
        narrow_lower, narrow_upper = lower.copy(), upper.copy()
        for v, (lo, hi) in bounds.items():
            if merged.sizes[merged.of[v]] != 1:
                raise ValueError("bounds of a variable merged with others")
            narrow_lower[v] = max(narrow_lower[v], lo)
            narrow_upper[v] = min(narrow_upper[v], hi)
        self._given["narrowed"] = (key, lower, (narrow_lower, narrow_upper))
        return narrow_lower, narrow_upper

    def _totals(self, groups: set[str] | None, lower: Any, upper: Any) -> tuple[bool, Any, Any]:
        """Whether some variable's bounds leave it no value, and the solver's variables'
        bounds: each the total of its members' (kept for the bounds last asked)."""
        kept = self._given.get("totals")
        if kept is None or kept[0] is not lower or kept[1] is not upper:
            from deckcheck.core.numeric import np

            of, size = self._merged().of, len(self._merged().sizes)
            empty = bool((lower > upper).any())
            lb = np.bincount(of, weights=lower, minlength=size)
            ub = np.bincount(of, weights=upper, minlength=size)
            kept = self._given["totals"] = (lower, upper, empty, lb, ub)
        return kept[2], kept[3], kept[4]

    def _solver_rows(
        self, groups: set[str] | None, held: tuple[str, ...]
    ) -> tuple[Any, Any, Any, Any]:
        """The rows of ``groups`` (None: all; a row of no group always) over the solver's
        variables, their bounds, and the matrix HiGHS is given: those rows, then a row of
        each objective ``held`` (None: no row at all)."""
        key = ("rows", None if groups is None else frozenset(groups), held)
        kept = self._given.get(key)
        if kept is not None:
            return kept
        from deckcheck.core.numeric import np

        # isort: split
        from scipy.sparse import csc_array, vstack

        structure = self._columns()
        lows, highs = structure.lows, structure.highs
        matrix = self._merged().reduced
        if groups is not None:
            keep = [r for r, group in enumerate(structure.groups) if not group or group in groups]
            if not keep:
                lows = highs = lows[:0]
            elif len(keep) < len(structure.groups):
                lows, highs, matrix = lows[keep], highs[keep], matrix[keep, :]
        # each held objective a row of its own after the rows, as the matrix with a row
        # stacked under it for each (entries in each column by row, zeros left out)
        blocks = [matrix] if len(lows) else []
        if held:
            dense = np.vstack([self._weight_vector(name) for name in held])
            blocks += [csc_array(row.reshape(1, -1)) for row in dense]
        given = None
        if len(blocks) == 1:
            given = blocks[0]
        elif blocks:
            given = vstack(blocks, format="csc")
        kept = self._given[key] = (matrix, lows, highs, given)
        return kept

    def _group_bounds(self, group: str) -> tuple[Any, Any, Any]:
        """A group's bounds as arrays: (variables, lower bounds, upper bounds)."""
        cached = self._bound_arrays.get(group)
        if cached is None:
            from deckcheck.core.numeric import np

            given = self.bound_groups[group]
            cached = self._bound_arrays[group] = (
                np.fromiter(given, int, len(given)),
                np.fromiter((lo for lo, _ in given.values()), float, len(given)),
                np.fromiter((hi for _, hi in given.values()), float, len(given)),
            )
        return cached

    def _weights_of(self, name: str) -> tuple[Any, Any]:
        """An objective's weights as arrays: (variables, weights)."""
        cached = self._weight_arrays.get(name)
        if cached is None:
            from deckcheck.core.numeric import np

            weights = self.weights[name]
            cached = self._weight_arrays[name] = (
                np.fromiter(weights, int, len(weights)),
                np.fromiter(weights.values(), float, len(weights)),
            )
        return cached

    def _bounds(self, groups: set[str] | None) -> tuple[Any, Any]:
        """Every variable's bounds with the bounds of ``groups`` (None: all), as arrays."""
        key = None if groups is None else frozenset(groups)
        cached = self._bounds_of.get(key)
        if cached is None:
            from deckcheck.core.numeric import np

            lower = np.array(self.lower, dtype=float)
            upper = np.array(self.upper, dtype=float)
            for group in self.bound_groups:
                if groups is not None and group not in groups:
                    continue
                columns, low, high = self._group_bounds(group)
                lower[columns] = np.maximum(lower[columns], low)
                upper[columns] = np.minimum(upper[columns], high)
            cached = self._bounds_of[key] = (lower, upper)
        return cached

    def _weight_vector(self, name: str) -> Any:
        """An objective over the solver's variables (a group's members share its weight)."""
        cached = self._vectors.get(name)
        if cached is None:
            from deckcheck.core.numeric import np

            merged = self._merged()
            columns, values = self._weights_of(name)
            cached = np.zeros(len(merged.reps))
            cached[merged.of[columns]] = values
            self._vectors[name] = cached
        return cached

    def _spread(self, totals: Any, lb: Any, lower: Any, upper: Any) -> tuple[float, ...]:
        """Each group's total shared out among its members: every member its lower bound,
        then the rest in the members' order, each up to its upper bound (any split is as
        good: they are alike)."""
        from deckcheck.core.numeric import np

        order, grp, low, room, before = self._sharing(lower, upper)
        take = np.clip((totals - lb)[grp] - before, 0, room)
        x = np.zeros(len(self.lower))
        x[order] = low + take
        out = tuple(x.tolist())
        _SOLUTIONS.answer((), (out,), lambda: _read_only(x))
        return out

    def _sharing(self, lower: Any, upper: Any) -> tuple[Any, Any, Any, Any, Any]:
        """How :meth:`_spread` shares a group's total out, for these bounds: every variable
        in group order, its group, its lower bound, its room above it, and the room of the
        group's members before it (kept for the bounds most solves share)."""
        kept = self._given.get("sharing")
        if kept is not None and kept[0] is lower and kept[1] is upper:
            return kept[2]
        from deckcheck.core.numeric import np

        merged = self._merged()
        order, of = merged.order, merged.of
        grp = of[order]
        low = lower[order]
        room = np.minimum(upper[order] - low, 1e12)
        ends = np.cumsum(room)
        starts = ends - room
        # the room of the group's members before each one (members are contiguous in order)
        first = np.zeros(len(merged.reps))
        firsts = np.flatnonzero(np.r_[True, grp[1:] != grp[:-1]])
        first[grp[firsts]] = starts[firsts]
        before = starts - first[grp]
        sharing = (order, grp, low, room, before)
        self._given["sharing"] = (lower, upper, sharing)
        return sharing


class _Stated(NamedTuple):
    """A constraint's terms over a programme's variables (see :meth:`Programme.state`): as
    summed, the indicator's, and as :meth:`Programme.row` keeps them."""

    constraint: Linear
    row: Terms
    when: Terms
    clean: Terms


class _Structure(NamedTuple):
    """The rows as the solver reads them (see :meth:`Programme._columns`)."""

    matrix: Any
    likeness: Any
    lows: Any
    highs: Any
    groups: list[str]


class _Grouped(NamedTuple):
    """The last grouping of alike columns: the structure and objectives it was made from
    (each objective's weights, by identity: a changed objective is a new mapping), and each
    column's group."""

    structure: _Structure
    merge: bool
    weights: dict[str, Terms]
    of: Any


class _Merged(NamedTuple):
    """Alike variables as one (see :meth:`Programme._merged`): each variable's group (``of``),
    each group's first variable (``reps``), every variable in group order (``order``), the
    groups' sizes, the matrix over the groups (by columns, as HiGHS is given it: no conversion
    for each solve), and which groups are whole."""

    of: Any
    reps: Any
    order: Any
    sizes: Any
    reduced: Any
    integrality: Any


def _likeness(matrix: Any, np: Any) -> Any:
    """Each column's number among the distinct columns of a CSC matrix, numbered in the order
    of their first columns: columns share one exactly where their entries (rows and values, in
    order) are the same."""
    n = matrix.shape[1]
    indptr, rows, values = matrix.indptr, matrix.indices, matrix.data
    sizes = np.diff(indptr)
    # a hash of each column's entries (a sum: the same for the same entries), whose groups
    # are then checked entry by entry against each group's first column
    with np.errstate(over="ignore"):
        mixed = rows.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        mixed ^= values.view(np.uint64) + np.uint64(0x632BE59BD9B4E019)
        mixed ^= mixed >> np.uint64(31)
        mixed *= np.uint64(0xBF58476D1CE4E5B9)
        mixed ^= mixed >> np.uint64(29)
        hashes = sizes.astype(np.uint64) * np.uint64(0xD6E8FEB86659FD93)
        filled = sizes > 0
        if filled.any():
            hashes[filled] += np.add.reduceat(mixed, indptr[:-1][filled])
    _, firsts, of = np.unique(hashes, return_index=True, return_inverse=True)
    of = of.reshape(-1)
    first = firsts[of]
    alike = bool((sizes == sizes[first]).all())
    if alike:
        column = np.repeat(np.arange(n), sizes)
        same = indptr[first[column]] + (np.arange(len(rows)) - indptr[column])
        alike = bool((rows == rows[same]).all() and (values == values[same]).all())
    if alike:
        rank = np.empty(len(firsts), dtype=int)
        rank[np.argsort(firsts)] = np.arange(len(firsts))
        return rank[of]
    # two different columns with one hash: their entries as bytes (no entry is zero)
    entries = np.empty(len(rows), dtype=[("row", np.int64), ("value", np.float64)])
    entries["row"], entries["value"] = rows, values
    raw = entries.tobytes()
    ends = (indptr * entries.itemsize).tolist()
    seen: dict[bytes, int] = {}
    return np.fromiter((seen.setdefault(raw[a:b], len(seen)) for a, b in pairwise(ends)), int, n)


def first_seen_groups(key: Any, np: Any) -> tuple[Any, Any]:
    """The groups of equal rows of ``key``, numbered in the order of their first rows: each
    row's group, and each group's first row."""
    n = len(key)
    if not n:
        return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
    order = np.lexsort(key.T[::-1])  # stable: equal rows stay in order, the first one first
    ordered = key[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    label = np.empty(n, dtype=int)
    label[order] = np.cumsum(starts) - 1
    firsts = order[starts]
    rank = np.empty(len(firsts), dtype=int)
    rank[np.argsort(firsts)] = np.arange(len(firsts))
    return rank[label], np.sort(firsts)


# ------------------------------------------------------------------------------ a deck


class _Names(dict[str, Terms]):
    """A name -> its variables, each name looked up once (by ``find``) when first asked."""

    def __init__(self, find: Callable[[str], Terms]) -> None:
        super().__init__()
        self.find = find

    def __missing__(self, name: str) -> Terms:
        found = self[name] = self.find(name)
        return found


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
    preferred: tuple[Callable[[Card], bool], Terms] | None = field(default=None, repr=False)
    """The cards ``--prefer`` matches, as the tie-break weighs them (with what matched)."""
    _resolved: _Names = field(init=False, repr=False)
    _cards: Mapping[str, Card] = field(default_factory=dict, repr=False)
    _cell_vars: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._resolved = _Names(self._find)

    def card(self, card_id: str) -> Card:
        """The catalog's card of this id (of the model's cards, or the deck's)."""
        if not self._cards:
            self._cards = cards_by_id(self.loaded.catalog)
        return self._cards[card_id]

    def copies(self, card_id: str) -> Terms:
        """The variables of a card's copies in every zone."""
        return dict.fromkeys(self.by_card.get(card_id, ()), 1.0)

    def resolve(self, name: str) -> Mapping[int, float]:
        """The variables a rule's name stands for: a helper, a card in every zone, or a card
        in one zone (nothing where the model has no such cell). Read only: a card's are
        looked up once (the rules name every card of a catalog, several times over)."""
        helper = self.helpers.get(name)
        if helper is not None:
            return {helper: 1.0}
        return self._resolved[name]

    @property
    def lookup(self) -> Callable[[str], Mapping[int, float]]:
        """:meth:`resolve` as a plain lookup (a rule's constraints name thousands of cards):
        right while every helper is named through :meth:`helper`."""
        return self._resolved.__getitem__

    def helper(self, name: str, v: int) -> None:
        """Name a helper variable: the rules' name for it stands for ``v`` from now on."""
        self.helpers[name] = v
        self._resolved[name] = {v: 1.0}

    def _find(self, name: str) -> Terms:
        """What :meth:`resolve` gives a name that is no helper (or a helper, once named)."""
        helper = self.helpers.get(name)
        if helper is not None:
            return {helper: 1.0}
        card_id, zone = split_zone(name)
        if zone is None:
            return self.copies(card_id)
        v = self.cells.get((card_id, zone))
        return {} if v is None else {v: 1.0}

    def values(self, x: Sequence[float]) -> dict[tuple[str, str | None], int]:
        """The copies of each cell in a solution (cells with none left out)."""
        from deckcheck.core.numeric import np

        if self._cell_vars is None:  # the cells are all made with the model
            self._cell_vars = (
                list(self.cells),
                np.fromiter(self.cells.values(), int, len(self.cells)),
            )
        cells, variables = self._cell_vars
        counts = np.round(as_array(x)[variables])
        return {cells[k]: int(counts[k]) for k in np.flatnonzero(counts).tolist()}

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
    # zones of the file's own that the model has none of: the card's copies there may go only
    elsewhere: dict[str, list[str | None]] = {}
    for j, z in held:
        if z not in zones:
            elsewhere.setdefault(j, []).append(z)
    high = float(cap if changes is None else changes)
    ids = _card_ids(loaded)

    def never(i: str) -> bool:
        limit = owned.get(i, 0) if owned is not None else None
        return (limit is not None and limit <= 0) or 0 in fixed.get(i, {}).values()

    def constrain(i: str, mine: list[int]) -> None:
        """The rows and bounds of one card's own: fixed counts, --keep, --owned."""
        for code, count in fixed.get(i, {}).items():
            if len(mine) == 1:
                p.bound(code, mine[0], count, count)
            elif count == 0:
                p.bounds(code, mine, 0, 0)
            else:
                p.row(dict.fromkeys(mine, 1.0), count, count, code)
        n = have.get(i, 0)
        if i in kept and n:
            p.row(dict.fromkeys(mine, 1.0), n, math.inf, KEEP)
        if owned is not None:
            most = float(owned.get(i, 0))  # strict: a deck's copies beyond its cap go too
            p.bounds(OWNED, mine, 0, most)
            if len(mine) > 1 and most > 0:
                p.row(dict.fromkeys(mine, 1.0), -math.inf, most, OWNED)

    pruned = prune and any(
        never(i) and not have.get(i, 0) for i in (fixed if owned is None else ids)
    )
    layout = None if elsewhere or pruned else _layout(loaded, zones)
    if layout is not None:
        # every card a cell in each zone, in the catalog's order: the catalog's own layout
        model.by_card, model.zoned = dict(layout.by_card), dict(layout.zoned)
        model.cells = dict(layout.cells)
        tops = [high] * len(model.cells)
        # with a collection, the cards it lacks that nothing else names only go to 0: their
        # bounds are given together, in the cards' order (most of a catalog)
        lacking: list[int] = []
        for i in ids if owned is not None else [i for i in ids if i in have or i in fixed]:
            mine = model.by_card[i]
            if owned is not None and not (i in have or i in fixed or i in kept or owned.get(i)):
                lacking += mine
                continue
            if lacking:
                p.bounds(OWNED, lacking, 0, 0)
                lacking = []
            for zone, v in zip(zones, mine, strict=True):
                hold = held.get((i, zone), 0)
                tops[v] = max(high, float(hold)) if changes is None else hold + high
            constrain(i, mine)
        if lacking:
            p.bounds(OWNED, lacking, 0, 0)
    else:
        tops = []
        for i in ids:
            n = have.get(i, 0)
            if prune and not n and never(i):
                continue
            mine = model.by_card.setdefault(i, [])
            cells = model.zoned.setdefault(i, {})
            for zone in zones:
                hold = held.get((i, zone), 0)
                model.cells[(i, zone)] = cells[(i, zone)] = len(tops)
                mine.append(len(tops))
                tops.append(max(high, float(hold)) if changes is None else hold + high)
            for zone in elsewhere.get(i, ()):
                model.cells[(i, zone)] = cells[(i, zone)] = len(tops)
                mine.append(len(tops))
                tops.append(0.0)
            constrain(i, mine)
    p.vars(tops)
    total = float(sum(p.upper))
    for rc in stated.values():
        for h in rc.helpers:
            if h.name not in model.helpers:
                top = float(h.high) if h.high is not None else total
                model.helper(h.name, p.var(h.low, top))
    # the rules' terms over the variables depend on the layout and the helpers alone
    memo = None
    if layout is not None:
        if len(layout.stated) > MEMO_KEPT:  # a long session's variants and catalogs: bounded
            layout.stated.clear()
        memo = layout.stated.setdefault(tuple(model.helpers.items()), {})
        if len(memo) > MEMO_KEPT * 256:
            memo.clear()
    for code, rc in stated.items():
        for c in rc.linear:
            p.state(c, model.lookup, code, memo)
    if placed_now:
        # the answer keeps a card in a zone the set-aside rules name, as the rules were stated
        named = {r.zone for r in rules or () if r.zone}
        p.row({v: 1.0 for (_, z), v in model.cells.items() if z in named}, 1, math.inf)
    _distance(model)
    if changes is not None:
        p.row(p.weights[DISTANCE], -math.inf, changes, "--changes")
    return model


class _Layout(NamedTuple):
    """A catalog's cards with a cell in each of the zones, one after another in the
    catalog's order (a deck's model where no card has other cells and none is left out), and
    the rules' terms over them, by the helpers' variables (see :meth:`Programme.state`)."""

    by_card: dict[str, list[int]]
    zoned: dict[str, dict[tuple[str, str | None], int]]
    cells: dict[tuple[str, str | None], int]
    stated: dict[tuple[tuple[str, int], ...], dict[int, _Stated]]


def _layout(loaded: LoadedDeck, zones: tuple[str | None, ...]) -> _Layout | None:
    """The catalog's layout in ``zones`` (None where two cards share an id), kept with the
    catalog: read only."""
    catalog = loaded.catalog

    def make() -> _Layout | None:
        ids = _card_ids(loaded)
        if len(set(ids)) < len(ids):
            return None
        width = len(zones)
        by_card: dict[str, list[int]] = {}
        zoned: dict[str, dict[tuple[str, str | None], int]] = {}
        cells: dict[tuple[str, str | None], int] = {}
        for r, i in enumerate(ids):
            mine = by_card[i] = list(range(r * width, (r + 1) * width))
            zoned[i] = {(i, z): v for z, v in zip(zones, mine, strict=True)}
            cells.update(zoned[i])
        return _Layout(by_card, zoned, cells, {})

    return catalog.derived(("solve: layout", zones), make)


def _card_ids(loaded: LoadedDeck) -> list[str]:
    """The catalog's card ids in its order (read once per catalog)."""
    catalog = loaded.catalog
    return catalog.derived("solve: card ids", lambda: [card.id for card in catalog])


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
