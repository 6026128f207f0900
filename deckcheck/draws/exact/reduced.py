"""The reduced view of a draw problem that every exact engine works on.

Groups that match the same *relevant* selectors (those some condition or trigger reads) are
merged into *classes*: a hypergeometric draw does not care how a class is split, and it is
what keeps 16 catalogue groups from becoming 16 dimensions. Counts are tracked per selector
and capped where the tests stop telling counts apart (:meth:`Comparison.cap`).
"""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.core.values import frozen
from deckcheck.draws.model import CountTest, DrawProblem

#: Capped counts of the tracked selectors, in the order of :attr:`Tracked.selectors`.
Vec = tuple[int, ...]


@frozen
class Tracked:
    """Capped counts of a set of selectors: which selectors, their caps, and the tests on them."""

    selectors: tuple[int, ...]
    caps: tuple[int, ...]
    tests: tuple[tuple[int, CountTest], ...]  # (position in the vector, test)
    class_positions: tuple[tuple[int, ...], ...]  # per class: positions its cards count for
    #: An OR of ANDs (indices into ``tests``): success is some alternative's tests all
    #: passing; empty: every test must pass.
    alternatives: tuple[tuple[int, ...], ...] = ()

    @property
    def zero(self) -> Vec:
        """The vector of no cards."""
        return (0,) * len(self.selectors)

    def bump(self, vec: Vec, cls: int, k: int) -> Vec:
        """The vector after ``k`` more cards of class ``cls``."""
        positions = self.class_positions[cls]
        if not k or not positions:
            return vec
        out = list(vec)
        caps = self.caps
        for p in positions:
            x = out[p] + k
            out[p] = x if x < caps[p] else caps[p]
        return tuple(out)

    def all_hold(self, vec: Vec) -> bool:
        """Whether the query holds: every test passes (or every test of one alternative)."""
        if self.alternatives:
            tests = self.tests
            return any(
                all(tests[i][1].holds(vec[tests[i][0]]) for i in alt) for alt in self.alternatives
            )
        return all(t.holds(vec[p]) for p, t in self.tests)

    def only(self, indices: Sequence[int]) -> Tracked:
        """The same counts with only the tests ``indices``, all of which must pass."""
        return Tracked(
            self.selectors,
            self.caps,
            tuple(self.tests[i] for i in indices),
            self.class_positions,
        )

    def settled(self, vec: Vec, left: int) -> bool | None:
        """True when the query holds whatever the next ``left`` cards bring, False when it
        cannot hold any more (counts only grow), None when they decide."""
        if not self.alternatives:
            return _settled(self.tests, vec, left)
        open_ = False
        for alt in self.alternatives:
            got = _settled([self.tests[i] for i in alt], vec, left)
            if got:
                return True
            if got is None:
                open_ = True
        return None if open_ else False

    def any_holds(self, vec: Vec) -> bool:
        """Whether some test passes."""
        return any(t.holds(vec[p]) for p, t in self.tests)

    def doomed(self, vec: Vec, reach: Sequence[int]) -> bool:
        """Whether some test can no longer hold, with at most ``reach[p]`` more for ``p``.

        Counts only grow: an upper bound once broken stays broken. With alternatives: whether
        every alternative is doomed so.
        """
        if self.alternatives:
            return all(
                _doomed([self.tests[i] for i in alt], vec, reach) for alt in self.alternatives
            )
        return _doomed(self.tests, vec, reach)

    def of(self, comp: Sequence[int]) -> Vec:
        """The capped vector of a composition over classes."""
        out = [0] * len(self.selectors)
        positions = self.class_positions
        for cls, k in enumerate(comp):
            if k:
                for p in positions[cls]:
                    out[p] += k
        return tuple(x if x < cap else cap for x, cap in zip(out, self.caps, strict=True))


def _doomed(tests: Sequence[tuple[int, CountTest]], vec: Vec, reach: Sequence[int]) -> bool:
    for p, t in tests:
        c = vec[p]
        if t.op.broken(c, t.threshold) or t.op.out_of_reach(c, t.threshold, reach[p]):
            return True
    return False


def _settled(tests: Sequence[tuple[int, CountTest]], vec: Vec, left: int) -> bool | None:
    certain = True
    for p, t in tests:
        c, op, th = vec[p], t.op, t.threshold
        if op.broken(c, th) or op.out_of_reach(c, th, left):
            return False
        if not op.certain(c, th):
            certain = False
    return True if certain else None


def track(
    tests: Sequence[CountTest],
    class_rows: Sequence[tuple[bool, ...]],
    alternatives: tuple[tuple[int, ...], ...] = (),
) -> Tracked:
    """The capped counts ``tests`` need, for classes with membership rows ``class_rows``
    (``alternatives``: see :attr:`Tracked.alternatives`)."""
    selectors = tuple(sorted({t.selector for t in tests}))
    index = {s: i for i, s in enumerate(selectors)}
    caps = [0] * len(selectors)
    for t in tests:
        caps[index[t.selector]] = max(caps[index[t.selector]], t.op.cap(t.threshold))
    positions = tuple(tuple(i for i, s in enumerate(selectors) if row[s]) for row in class_rows)
    return Tracked(
        selectors,
        tuple(caps),
        tuple((index[t.selector], t) for t in tests),
        positions,
        alternatives,
    )


@frozen
class Reduced:
    """Groups merged into *classes*: cards matching the same relevant selectors.

    The class matching no relevant selector, usually the largest, comes last so the plain
    programme can take it by force.
    """

    sizes: tuple[int, ...]
    class_of: tuple[int, ...]  # original group -> class
    rows: tuple[tuple[bool, ...], ...]  # per class: the membership row of a representative
    cond: Tracked
    trig: Tracked

    def to_classes(self, comp: Sequence[int]) -> tuple[int, ...]:
        """A composition over the problem's groups as one over classes."""
        out = [0] * len(self.sizes)
        for g, k in enumerate(comp):
            out[self.class_of[g]] += k
        return tuple(out)

    def reach(self, sizes: Sequence[int] | None = None) -> list[tuple[int, ...]]:
        """``reach[c][p]``: cards of classes ``c, c+1, ...`` that count for condition ``p``."""
        sizes = self.sizes if sizes is None else sizes
        rows = [self.cond.zero]
        for c in range(len(sizes) - 1, -1, -1):
            row = list(rows[0])
            for p in self.cond.class_positions[c]:
                row[p] += sizes[c]
            rows.insert(0, tuple(row))
        return rows


def reduce_problem(problem: DrawProblem, triggers: Sequence[CountTest] = ()) -> Reduced:
    """Merge ``problem``'s groups into classes over the selectors its conditions and
    ``triggers`` read. ValueError for a test on a selector the problem does not have."""
    n_sel = len(problem.membership[0]) if problem.membership else 0
    for t in (*problem.conditions, *triggers):
        if not 0 <= t.selector < n_sel:
            raise ValueError(f"selector {t.selector} out of range (the problem has {n_sel})")
    relevant = sorted({t.selector for t in (*problem.conditions, *triggers)})
    key_of_group = [tuple(row[s] for s in relevant) for row in problem.membership]
    size_of: dict[tuple[bool, ...], int] = {}
    row_of: dict[tuple[bool, ...], tuple[bool, ...]] = {}
    for key, row, size in zip(key_of_group, problem.membership, problem.group_sizes, strict=True):
        size_of[key] = size_of.get(key, 0) + size
        row_of.setdefault(key, row)
    # Empty classes cost a loop each and add nothing; the none-class goes last (sort is stable).
    none_key = tuple(False for _ in relevant)
    order = sorted((k for k in size_of if size_of[k] > 0), key=lambda k: k == none_key)
    index = {k: i for i, k in enumerate(order)}
    class_of = tuple(index.get(k, 0) for k in key_of_group)
    new_sizes = tuple(size_of[k] for k in order)
    new_rows = tuple(row_of[k] for k in order)
    return Reduced(
        new_sizes,
        class_of,
        new_rows,
        track(problem.conditions, new_rows, problem.any_of),
        track(tuple(triggers), new_rows),
    )


#: Classes that behave alike: each ``(class, private position)``, in class order.
Orbit = tuple[tuple[int, int], ...]


def orbits(red: Reduced, by_size: bool = True) -> tuple[Orbit, ...]:
    """Groups of classes that differ only by name (at least two each).

    A class belongs to one when exactly one tracked selector counts it alone (its *private*
    position, ``name:Trooper`` say); two such classes are alike when they hold as many cards,
    count for the same other positions and triggers, and their private positions carry the
    same tests. Exchanging them (and their private counts) changes no chance of any event the
    conditions or triggers can tell, so an engine may keep one state per arrangement.

    ``by_size=False`` also groups classes that differ in how many cards they hold: for an
    engine whose states say how many cards of each class are *left* in the pile (not how
    many are gone), a class of five with one gone is a class of four.
    """
    cond = red.cond
    owners: dict[int, list[int]] = {}
    for c, positions in enumerate(cond.class_positions):
        for p in positions:
            owners.setdefault(p, []).append(c)
    by_key: dict[tuple[object, ...], list[tuple[int, int]]] = {}
    for c, positions in enumerate(cond.class_positions):
        private = [p for p in positions if owners[p] == [c]]
        if len(private) != 1:
            continue
        p = private[0]
        tests = tuple(sorted((str(t.op), t.threshold) for q, t in cond.tests if q == p))
        shared = tuple(q for q in positions if q != p)
        size = red.sizes[c] if by_size else None
        key = (size, shared, red.trig.class_positions[c], cond.caps[p], tests)
        by_key.setdefault(key, []).append((c, p))
    groups = list(by_key.values())
    if cond.alternatives:
        # Alternatives may read two such classes differently (A | (B and C)): only classes
        # whose exchange maps the alternatives onto themselves stay together. Exchanges that
        # keep the query form a group, so "exchangeable" splits a group into orbits.
        groups = [part for members in groups for part in _exchangeable(cond, members)]
    return tuple(tuple(members) for members in groups if len(members) > 1)


def _exchangeable(cond: Tracked, members: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """``members`` split into sets whose pairwise exchange keeps ``cond``'s alternatives."""
    parts: list[list[tuple[int, int]]] = []
    for member in members:
        for part in parts:
            if _swap_keeps(cond, part[0][1], member[1]):
                part.append(member)
                break
        else:
            parts.append([member])
    return parts


def _swap_keeps(cond: Tracked, p1: int, p2: int) -> bool:
    """Whether exchanging the counts at positions ``p1`` and ``p2`` maps the alternatives
    onto themselves (the two carry the same tests, in the same order)."""
    at1 = [i for i, (q, _) in enumerate(cond.tests) if q == p1]
    at2 = [i for i, (q, _) in enumerate(cond.tests) if q == p2]
    by1 = sorted(at1, key=lambda i: (str(cond.tests[i][1].op), cond.tests[i][1].threshold))
    by2 = sorted(at2, key=lambda i: (str(cond.tests[i][1].op), cond.tests[i][1].threshold))
    swap = dict(zip(by1, by2, strict=True)) | dict(zip(by2, by1, strict=True))
    alts = {frozenset(alt) for alt in cond.alternatives}
    return {frozenset(swap.get(i, i) for i in alt) for alt in alts} == alts
