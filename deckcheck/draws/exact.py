"""Exact draw odds: hypergeometric dynamic programmes and exact mulligan / look-ahead policies.

Everything here works with exact integers (numbers of ways, or numbers of ordered card
sequences) and turns them into one :class:`~fractions.Fraction` at the very end, so results are
exact and decisions (the optimal mulligan) compare exact values, never rounded floats.

Three engines share one reduced view of the problem (:class:`_Reduced`):

* the *plain* programme: a dynamic programme over groups whose state is (cards taken so far,
  per-selector counts capped where the conditions stop caring); weights are products of
  binomial coefficients;
* the *redraw* programme (Ren Dhark): the same over groups, but each group is split into the
  cards in the opening hand and the cards drawn later, so that "no trigger in the hand" and "the
  conditions hold over all seen cards" are judged jointly;
* the *sequential* engine: a memoised recursion over (cards gone from the pile, capped counts
  held, cards held, look-ahead spent) that draws one card at a time. It is what the look-ahead
  (Planetary Conquerors' kuk phase) needs, because there a decision depends on what was
  already seen. Classes whose cards can no longer change any count are pooled into one, which
  keeps long queries small.

The return-``count`` mulligan is solved exactly on top of these: the value of returning cards
depends only on the part kept, so it is tabulated once per kept part and each opening hand
takes the best of keeping and its kept parts. Work is counted against a budget; past it,
:class:`Intractable` tells the caller to simulate instead.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from deckcheck.draws import policies
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    OddsResult,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)

#: Most units of work an exact computation may spend before it gives up with
#: :class:`Intractable`: steps of the sequential engine (one per transition, memo hits
#: included) plus compositions enumerated for a mulligan. Measured at roughly 3-5 µs a unit,
#: so the budget bounds a hopeless exact attempt to a few seconds before the simulation.
STATE_BUDGET = 1_000_000

_LOWER_OPS = (">=", ">")
_Vec = tuple[int, ...]
_Kept = tuple[int, ...] | None  # the part of a hand kept by a return mulligan; None = keep all


class Intractable(Exception):
    """The exact computation would exceed its work budget; fall back to simulation."""


# --------------------------------------------------------------------------------------------
# The reduced problem
# --------------------------------------------------------------------------------------------


def _cap(test: CountTest) -> int:
    """Largest count a test can tell apart from all larger ones.

    ``>= t`` and ``< t`` cannot tell ``t`` from ``t + 5``; ``<= t``, ``> t`` and ``= t`` need to
    see ``t + 1``. Counting further only multiplies states.
    """
    if test.op in (">=", "<"):
        return max(0, test.threshold)
    return max(0, test.threshold + 1)


@dataclass(frozen=True)
class _Tracked:
    """Capped counts of a set of selectors: which selectors, their caps, and the tests on them."""

    selectors: tuple[int, ...]
    caps: tuple[int, ...]
    tests: tuple[tuple[int, CountTest], ...]  # (position in the vector, test)
    class_positions: tuple[tuple[int, ...], ...]  # per class: positions its cards count for

    @property
    def zero(self) -> _Vec:
        return (0,) * len(self.selectors)

    def bump(self, vec: _Vec, cls: int, k: int) -> _Vec:
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

    def all_hold(self, vec: _Vec) -> bool:
        return all(t.holds(vec[p]) for p, t in self.tests)

    def any_holds(self, vec: _Vec) -> bool:
        return any(t.holds(vec[p]) for p, t in self.tests)

    def doomed(self, vec: _Vec, reach: Sequence[int]) -> bool:
        """Whether some test can no longer hold, with at most ``reach[p]`` more for ``p``.

        Counts only grow: an upper bound once broken stays broken.
        """
        for p, t in self.tests:
            c, op, th = vec[p], t.op, t.threshold
            if (op in ("<=", "=", "==") and c > th) or (op == "<" and c >= th):
                return True
            if op not in ("<=", "<") and c + reach[p] < (th + 1 if op == ">" else th):
                return True
        return False

    def of(self, comp: Sequence[int]) -> _Vec:
        """The capped vector of a composition over classes."""
        vec = self.zero
        for cls, k in enumerate(comp):
            vec = self.bump(vec, cls, k)
        return vec


def _tracked(tests: Sequence[CountTest], class_rows: Sequence[tuple[bool, ...]]) -> _Tracked:
    selectors = tuple(sorted({t.selector for t in tests}))
    index = {s: i for i, s in enumerate(selectors)}
    caps = [0] * len(selectors)
    for t in tests:
        caps[index[t.selector]] = max(caps[index[t.selector]], _cap(t))
    positions = tuple(tuple(i for i, s in enumerate(selectors) if row[s]) for row in class_rows)
    return _Tracked(
        selectors,
        tuple(caps),
        tuple((index[t.selector], t) for t in tests),
        positions,
    )


@dataclass(frozen=True)
class _Reduced:
    """Groups merged into *classes*: cards matching the same relevant selectors.

    Merging is exact (a hypergeometric draw does not care how a class is split) and it is what
    keeps 16 catalogue groups from becoming 16 dimensions. The class matching no relevant
    selector, usually the largest, comes last so the plain programme can take it by force.
    """

    sizes: tuple[int, ...]
    class_of: tuple[int, ...]  # original group -> class
    rows: tuple[tuple[bool, ...], ...]  # per class: the membership row of a representative
    cond: _Tracked
    trig: _Tracked

    def to_classes(self, comp: Sequence[int]) -> tuple[int, ...]:
        out = [0] * len(self.sizes)
        for g, k in enumerate(comp):
            out[self.class_of[g]] += k
        return tuple(out)


def _reduce(problem: DrawProblem, triggers: Sequence[CountTest]) -> _Reduced:
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
    return _Reduced(
        new_sizes,
        class_of,
        new_rows,
        _tracked(problem.conditions, new_rows),
        _tracked(tuple(triggers), new_rows),
    )


# --------------------------------------------------------------------------------------------
# Compositions
# --------------------------------------------------------------------------------------------


def _count_compositions(bounds: Sequence[int], total: int) -> list[int]:
    """How many vectors ``0 <= x <= bounds`` sum to each ``t`` in ``0..total``."""
    poly = [1] + [0] * total
    for b in bounds:
        new = [0] * (total + 1)
        for t, w in enumerate(poly):
            if w:
                for k in range(min(b, total - t) + 1):
                    new[t + k] += w
        poly = new
    return poly


def _compositions(bounds: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every vector ``0 <= x <= bounds`` summing to ``total``, each once, in a fixed order.

    Only ever asked for hand-sized totals. Walks whichever is smaller: the multisets of
    ``total`` indices among the non-empty classes (dropping those over a bound), or the
    ``total``-subsets of the bounded cards themselves (dropping repeats); both are much
    faster in Python than a recursive generator.
    """
    n = len(bounds)
    if total < 0 or total > sum(bounds):
        return
    classes = [c for c in range(n) if bounds[c] > 0]
    cards = [c for c in classes for _ in range(bounds[c])]
    if math.comb(len(cards), total) <= math.comb(len(classes) + total - 1, total):
        done: set[tuple[int, ...]] = set()
        for picks in itertools.combinations(cards, total):
            if picks not in done:
                done.add(picks)
                comp = [0] * n
                for c in picks:
                    comp[c] += 1
                yield tuple(comp)
        return
    for picks in itertools.combinations_with_replacement(classes, total):
        comp = [0] * n
        for c in picks:
            comp[c] += 1
        if all(comp[c] <= bounds[c] for c in picks):
            yield tuple(comp)


def _ways(sizes: Sequence[int], comp: Sequence[int]) -> int:
    w = 1
    for s, k in zip(sizes, comp, strict=True):
        w *= math.comb(s, k)
    return w


# --------------------------------------------------------------------------------------------
# Plain and redraw programmes (order does not matter: multivariate hypergeometric)
# --------------------------------------------------------------------------------------------


def _reach(sizes: Sequence[int], tracked: _Tracked) -> list[tuple[int, ...]]:
    """``reach[c][p]``: cards of classes ``c, c+1, ...`` that count for position ``p``."""
    rows = [tuple(0 for _ in tracked.selectors)]
    for c in range(len(sizes) - 1, -1, -1):
        row = list(rows[0])
        for p in tracked.class_positions[c]:
            row[p] += sizes[c]
        rows.insert(0, tuple(row))
    return rows


def _plain_ways(
    red: _Reduced, seen: int, pile: Sequence[int] | None = None, start: _Vec | None = None
) -> int:
    """Number of ``seen``-card subsets of the pile on which all conditions hold.

    ``pile`` (cards per class, default the whole pile) and ``start`` (capped counts already
    held, default none) let a mulligan ask the same of what is left after a kept part.

    State: capped counts -> ways per number of cards taken so far (a list), so that each
    (counts, cards of this class) step updates one target with a tight loop. Doomed counts
    (an upper bound broken, or a lower bound out of reach of the classes left) are dropped.
    """
    cond = red.cond
    sizes = red.sizes if pile is None else pile
    origin = cond.zero if start is None else start
    n = len(sizes)
    if n == 0:
        return 1 if seen == 0 and cond.all_hold(origin) else 0
    reach = _reach(sizes, cond)
    if cond.doomed(origin, reach[0]):
        return 0
    states: dict[_Vec, list[int]] = {origin: [1] + [0] * seen}
    for c in range(n - 1):
        size = sizes[c]
        combs = [math.comb(size, k) for k in range(min(size, seen) + 1)]
        new: dict[_Vec, list[int]] = {}
        for vec, ways in states.items():
            filled = [(t, w) for t, w in enumerate(ways) if w]
            for k, ck in enumerate(combs):
                nv = cond.bump(vec, c, k)
                if cond.doomed(nv, reach[c + 1]):
                    continue
                target = new.get(nv)
                if target is None:
                    target = new[nv] = [0] * (seen + 1)
                for t, w in filled:
                    if t + k > seen:
                        break
                    target[t + k] += w * ck
        states = new
    # The last class (usually the "matches nothing" remainder) takes whatever is left.
    last = n - 1
    size = sizes[last]
    total = 0
    for vec, ways in states.items():
        for taken, w in enumerate(ways):
            k = seen - taken
            if w and k <= size and cond.all_hold(cond.bump(vec, last, k)):
                total += w * math.comb(size, k)
    return total


def _redraw_ways(red: _Reduced, hand: int, seen: int) -> tuple[int, int, int]:
    """Ways, over (hand, later draws) pairs, of: success; no trigger and success; trigger.

    The denominator is ``comb(N, hand) * comb(N - hand, seen - hand)``. State: (hand cards
    taken, capped trigger counts of the hand, capped condition counts of all cards) -> ways per
    later cards taken. Condition counts that are doomed collapse into one ``None`` state
    (kept, not dropped: P(trigger) still needs those hands).
    """
    cond, trig = red.cond, red.trig
    sizes = red.sizes
    later = seen - hand
    n = len(sizes)
    reach = _reach(sizes, cond)
    Key = tuple[int, _Vec, _Vec | None]
    states: dict[Key, list[int]] = {(0, trig.zero, cond.zero): [1] + [0] * later}
    for c in range(n):
        size = sizes[c]
        final = c == n - 1
        new: dict[Key, list[int]] = {}
        for (a_tot, tvec, cvec), ways in states.items():
            filled = [(t, w) for t, w in enumerate(ways) if w]
            a_hi = min(size, hand - a_tot)
            a_lo = a_hi if final else 0
            if final and a_hi != hand - a_tot:
                continue
            for a in range(a_lo, a_hi + 1):
                ca = math.comb(size, a)
                tvec2 = trig.bump(tvec, c, a)
                rest = size - a
                for b in range(min(rest, later) + 1):
                    if cvec is None:
                        cvec2 = None
                    else:
                        cvec2 = cond.bump(cvec, c, a + b)
                        if cond.doomed(cvec2, reach[c + 1]):
                            cvec2 = None
                    key = (a_tot + a, tvec2, cvec2)
                    target = new.get(key)
                    if target is None:
                        target = new[key] = [0] * (later + 1)
                    wab = ca * math.comb(rest, b)
                    for t, w in filled:
                        if t + b > later:
                            break
                        if final and t + b != later:
                            continue
                        target[t + b] += w * wab
        states = new
    success = clean_success = triggered = 0
    for (_a, tvec, cvec), ways in states.items():
        w = ways[later]
        ok = cvec is not None and cond.all_hold(cvec)
        if ok:
            success += w
        if trig.any_holds(tvec):
            triggered += w
        elif ok:
            clean_success += w
    return success, clean_success, triggered


# --------------------------------------------------------------------------------------------
# The sequential engine (look-ahead, return mulligan)
# --------------------------------------------------------------------------------------------


class _KukOracle:
    """``policies.kuk_keep`` on capped counts, cached.

    The policy reads only the selector totals of the held cards and the top card's membership.
    It is called on an auxiliary problem with one unit group per selector (holding exactly the
    capped totals) plus one group per class, so the decision is the shared policy's own; capped
    totals decide every test exactly as the true ones (see :func:`_cap`).
    """

    def __init__(self, problem: DrawProblem, red: _Reduced) -> None:
        n_sel = len(problem.membership[0]) if problem.membership else 0
        unit_rows = tuple(tuple(i == s for i in range(n_sel)) for s in range(n_sel))
        self._n_sel = n_sel
        self._n_cls = len(red.sizes)
        self._selectors = red.cond.selectors
        self._aux = DrawProblem(
            group_sizes=(0,) * (n_sel + self._n_cls),
            membership=unit_rows + red.rows,
            conditions=problem.conditions,
        )
        self._problem = problem
        self._cache: dict[tuple[_Vec, int], bool] = {}

    def keep(self, vec: _Vec, cls: int) -> bool:
        key = (vec, cls)
        got = self._cache.get(key)
        if got is None:
            held = [0] * (self._n_sel + self._n_cls)
            for i, s in enumerate(self._selectors):
                held[s] = vec[i]
            got = policies.kuk_keep(self._aux, held, self._n_sel + cls)
            self._cache[key] = got
        return got


class _Engine:
    """One exact computation: the reduced problem, the turn structure and the shared memo."""

    def __init__(
        self,
        problem: DrawProblem,
        procedure: Procedure,
        query: Query,
        triggers: Sequence[CountTest],
        budget: int,
    ) -> None:
        self.problem = problem
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.n = problem.pile_size
        if self.hand < 0 or self.hand > self.n:
            raise ValueError(f"an opening hand of {self.hand} from a pile of {self.n}")
        if not self.hand <= self.seen <= self.n:
            raise ValueError(
                f"cards seen must be between the opening hand ({self.hand}) and the pile "
                f"({self.n}); got {self.seen}"
            )
        self.red = _reduce(problem, triggers)
        self.budget = budget
        self.lookahead = procedure.lookahead and self.seen > self.hand
        self.per_turn = max(1, procedure.draws_per_turn)
        # One look-ahead per turn; a trailing partial turn starts with its look-ahead draw.
        self.looks = -(-(self.seen - self.hand) // self.per_turn) if self.lookahead else 0
        self.reads = self.seen + self.looks  # most cards ever taken off the pile
        if self.reads > self.n:
            # A put-under card could come round again; treating it as gone would be wrong.
            raise Intractable(
                f"the look-ahead could run through the whole pile ({self.seen} seen plus up to "
                f"{self.looks} put under, from {self.n})"
            )
        self.kuk = _KukOracle(problem, self.red) if self.lookahead else None
        self.memo: dict[tuple[object, ...], int] = {}
        self.work = 0
        self._split_cache: dict[_Vec, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        # Whether a look keeps an inert card, per capped count vector (set by _split).
        self._inert_kept: dict[_Vec, bool] = {}

    # -- estimates --------------------------------------------------------------------------

    def spend(self, work: int, what: str) -> None:
        """Charge enumeration work up front, so hopeless tables fail before they start."""
        self.work += work
        if self.work > self.budget:
            raise Intractable(
                f"{what}: about {self.work:,} steps, over the exact budget of {self.budget:,}"
            )

    # -- the sequential recursion -----------------------------------------------------------

    def _decided(self, vec: _Vec, held: int) -> bool | None:
        """Success or failure already certain (counts only grow), else None."""
        left = self.seen - held
        certain = True
        for p, t in self.red.cond.tests:
            c = vec[p]
            op, th = t.op, t.threshold
            if (op in ("<=", "=", "==") and c > th) or (op == "<" and c >= th):
                return False
            need = th + 1 if op == ">" else th
            if op not in ("<=", "<") and c + left < need:
                return False
            if op not in _LOWER_OPS or not t.holds(c):
                certain = False
        return True if certain else None

    def _split(self, vec: _Vec) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Classes that can still change a capped count (live) and those that cannot (inert).

        All inert classes act alike (no count moves, one look decision for all), so states that
        differ only in how the remaining inert cards split between those classes have the
        same value. States keep that split in one canonical form (:meth:`_canonical`) and
        draw an inert card as one pooled transition: this is what keeps long look-ahead
        queries in reach.
        """
        got = self._split_cache.get(vec)
        if got is None:
            caps = self.red.cond.caps
            inert_flags = [
                all(vec[p] == caps[p] for p in positions)
                for positions in self.red.cond.class_positions
            ]
            live = tuple(c for c, flag in enumerate(inert_flags) if not flag)
            inert = tuple(c for c, flag in enumerate(inert_flags) if flag)
            if self.kuk is not None and inert:
                decisions = {self.kuk.keep(vec, c) for c in inert}
                if len(decisions) > 1:
                    # Pooling needs one decision for every inert class.
                    raise Intractable("the look-ahead policy treats inert cards differently")
                self._inert_kept[vec] = decisions.pop()
            got = (live, inert)
            self._split_cache[vec] = got
        return got

    def _canonical(self, removed: tuple[int, ...], vec: _Vec) -> tuple[int, ...]:
        """``removed`` with the inert classes' remaining cards packed into the first of them.

        Pooled draws take from the last inert class that still has cards, which keeps the
        packing, so only a change of the inert set (a count reaching its cap) needs this.
        """
        inert = self._split(vec)[1]
        if len(inert) < 2:
            return removed
        sizes = self.red.sizes
        left = sum(sizes[c] - removed[c] for c in inert)
        out = list(removed)
        for c in inert:
            keep = min(sizes[c], left)
            out[c] = sizes[c] - keep
            left -= keep
        return tuple(out)

    def value(self, removed: tuple[int, ...], vec: _Vec, held: int, looked: bool, gone: int) -> int:
        """Successful ordered continuations, i.e. P(success) * perm(N - gone, reads - gone).

        ``removed``: cards gone from the pile per class (held or put under), in canonical
        form; ``vec``: capped counts of the held cards; ``held``: cards held; ``looked``: this
        turn's look-ahead is spent (the card was put under; the next one is drawn blind).
        """
        # Counting every call (not only new states) bounds the time, not just the memory: the
        # number of states reachable is far below any cheap upper bound, so no estimate up
        # front is worth having for this recursion.
        self.work += 1
        if self.work > self.budget:
            raise Intractable(f"look-ahead / mulligan: over the exact budget of {self.budget:,}")
        key = (removed, vec, held, looked)
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        if held == self.seen:
            ok: bool | None = self.red.cond.all_hold(vec)
        else:
            ok = self._decided(vec, held)
        if ok is not None:
            result = math.perm(self.n - gone, self.reads - gone) if ok else 0
        else:
            look = (
                self.kuk is not None
                and not looked
                and held >= self.hand
                and (held - self.hand) % self.per_turn == 0
            )
            sizes = self.red.sizes
            cond = self.red.cond
            live, inert = self._split(vec)
            result = 0
            for c in live:
                left = sizes[c] - removed[c]
                if left <= 0:
                    continue
                after = (*removed[:c], removed[c] + 1, *removed[c + 1 :])
                if look and self.kuk is not None and not self.kuk.keep(vec, c):
                    # Put under: gone for good while the pile cannot run out (checked above).
                    sub = self.value(after, vec, held, True, gone + 1)
                else:
                    grown = cond.bump(vec, c, 1)
                    if grown != vec and self._split(grown)[1] != inert:
                        after = self._canonical(after, grown)
                    sub = self.value(after, grown, held + 1, False, gone + 1)
                result += left * sub
            pool = 0
            last = -1
            for c in inert:
                left = sizes[c] - removed[c]
                if left > 0:
                    pool += left
                    last = c
            if pool:
                after = (*removed[:last], removed[last] + 1, *removed[last + 1 :])
                # An inert card changes no count: held, unless the look puts it under.
                if look and not self._inert_kept.get(vec, False):
                    sub = self.value(after, vec, held, True, gone + 1)
                else:
                    sub = self.value(after, vec, held + 1, False, gone + 1)
                result += pool * sub
        memo[key] = result
        return result

    def hand_value(self, hand: tuple[int, ...]) -> int:
        """:meth:`value` just after the opening hand (or the post-mulligan hand) ``hand``."""
        vec = self.red.cond.of(hand)
        return self.value(self._canonical(hand, vec), vec, self.hand, False, self.hand)

    def hand_scale(self) -> int:
        """Denominator of :meth:`hand_value`."""
        return math.perm(self.n - self.hand, self.reads - self.hand)

    # -- whole computations -----------------------------------------------------------------

    def without_mulligan(self) -> Fraction:
        """Probability with no mulligan (with the look-ahead where there is one)."""
        if not self.red.cond.tests:
            return Fraction(1)
        if self.kuk is None:
            return Fraction(_plain_ways(self.red, self.seen), math.comb(self.n, self.seen))
        zero = (0,) * len(self.red.sizes)  # already canonical: every class is full
        num = self.value(zero, self.red.cond.zero, 0, False, 0)
        return Fraction(num, math.perm(self.n, self.reads))

    def redraw_parts(self) -> tuple[Fraction, Fraction, Fraction]:
        """(P(success), P(no trigger and success), P(trigger)) for one dealt hand."""
        if self.kuk is None:
            s, j, t = _redraw_ways(self.red, self.hand, self.seen)
            later = self.seen - self.hand
            den = math.comb(self.n, self.hand) * math.comb(self.n - self.hand, later)
            return Fraction(s, den), Fraction(j, den), Fraction(t, den)
        # With a look-ahead the later draws depend on the hand: enumerate hands.
        sizes = self.red.sizes
        n_hands = _count_compositions(sizes, self.hand)[self.hand]
        self.spend(n_hands, "redraw with look-ahead")
        s = j = t = 0
        for hand in _compositions(sizes, self.hand):
            w = _ways(sizes, hand)
            v = w * self.hand_value(hand)
            s += v
            if self.red.trig.any_holds(self.red.trig.of(hand)):
                t += w
            else:
                j += v
        den = math.comb(self.n, self.hand)
        scale = self.hand_scale()
        return Fraction(s, den * scale), Fraction(j, den * scale), Fraction(t, den)

    def return_table(self, count: int) -> tuple[dict[tuple[int, ...], _Kept], Fraction]:
        """Optimal choice per opening hand (the kept part, or None to keep all) and P(success).

        Returning ``r`` from hand ``H`` leaves ``K = H - r``; the pile is then everything but
        ``K`` and ``count`` cards are drawn from it. So the value of a return depends on ``K``
        alone: tabulate it once per ``K``, then each hand takes the best of its sub-hands.
        """
        sizes = self.red.sizes
        h = self.hand
        keep = h - count
        n_hands = _count_compositions(sizes, h)[h]
        n_kept = _count_compositions(sizes, keep)[keep]
        n_draws = _count_compositions(sizes, count)[count]
        # Each hand weighs its sub-hands; each kept part, its draws (one sequential call each,
        # counted again as they run): fail before starting when that alone is over budget.
        estimate = n_hands * min(math.comb(h, count), n_draws)
        estimate += n_kept * (n_draws if self.kuk is not None else len(sizes))
        if self.work + estimate > self.budget:
            raise Intractable(
                f"optimal mulligan: about {estimate:,} steps, over the exact budget of "
                f"{self.budget:,}"
            )
        self.spend(n_hands * min(math.comb(h, count), n_draws), "optimal mulligan")
        redraw_den = math.comb(self.n - keep, count)
        kept_value: dict[tuple[int, ...], int] = {}
        later = self.seen - h
        for kept in _compositions(sizes, keep):
            pile = tuple(s - k for s, k in zip(sizes, kept, strict=True))
            if self.kuk is None:
                # Without a look-ahead, the redraw and the later draws are one blind draw of
                # count + later cards: a single plain programme. Its denominator
                # comb(N - keep, count + later) times perm(count + later, later) is this
                # table's, redraw_den * hand_scale.
                ways = _plain_ways(self.red, count + later, pile, self.red.cond.of(kept))
                kept_value[kept] = ways * math.perm(count + later, later)
                continue
            total = 0
            for drawn in _compositions(pile, count):
                new_hand = tuple(k + d for k, d in zip(kept, drawn, strict=True))
                total += _ways(pile, drawn) * self.hand_value(new_hand)
            kept_value[kept] = total
        choice: dict[tuple[int, ...], _Kept] = {}
        num = 0
        for hand in _compositions(sizes, h):
            best = self.hand_value(hand) * redraw_den
            pick: tuple[int, ...] | None = None  # ties keep: returning gains nothing
            for kept in _compositions(hand, keep):
                v = kept_value[kept]
                if v > best:
                    best, pick = v, kept
            choice[hand] = pick
            num += _ways(sizes, hand) * best
        den = math.comb(self.n, h) * redraw_den * self.hand_scale()
        return choice, Fraction(num, den)


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _redraw_note(rule: RedrawRule) -> str:
    if rule.max_redraws is None:
        return "redraw whenever allowed, as often as allowed"
    times = "once" if rule.max_redraws == 1 else f"{rule.max_redraws} times"
    return f"redraw whenever allowed, at most {times}"


def exact_odds(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    *,
    budget: int = STATE_BUDGET,
) -> OddsResult:
    """Exact probability that all ``problem.conditions`` hold over the first ``query.seen`` cards.

    The opening hand has ``procedure.opening_size(query.second)`` cards; later draws bring the
    cards held up to ``query.seen``. ``probability`` applies the procedure's mulligan when
    ``query.use_mulligan`` is set; ``probability_without_mulligan`` never does (but keeps the
    look-ahead, which is not a mulligan). Raises :class:`Intractable` when the exact state
    space would exceed ``budget`` (the caller then simulates), ``ValueError`` for a query that
    makes no sense (more cards seen than the pile holds, fewer than the opening hand).

    Redraw rules: redraw whenever a trigger holds, up to ``max_redraws`` times; the last
    allowed hand is kept even if a trigger holds. With unlimited redraws the result is
    P(no trigger and success) / P(no trigger); if every hand triggers, redrawing changes
    nothing and the plain probability is returned. Return rules: the player keeps or returns
    whatever maximises this query's probability.
    """
    rule = procedure.mulligan if query.use_mulligan else None
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    engine = _Engine(problem, procedure, query, triggers, budget)
    notes: list[str] = []
    if engine.kuk is not None:
        notes.append(
            "look-ahead: the top card is kept or put under by policies.kuk_keep (harmful "
            "cards under, helpful ones kept)"
        )
    plain = engine.without_mulligan()
    method = "exact (look-ahead, dynamic programming)" if engine.kuk else "exact (hypergeometric)"
    p = plain
    if isinstance(rule, RedrawRule) and rule.triggers and problem.conditions:
        success, clean, trig = engine.redraw_parts()
        notes.append(_redraw_note(rule))
        method = (
            "exact (redraw rule, look-ahead, dynamic programming)"
            if engine.kuk
            else "exact (hypergeometric, redraw rule)"
        )
        if rule.max_redraws is None:
            if trig == 1:
                notes.append("every hand allows a redraw: redrawing changes nothing")
                p = success
            else:
                p = clean / (1 - trig)
        else:
            p = success
            for _ in range(rule.max_redraws):
                p = clean + trig * p
    elif isinstance(rule, ReturnRule) and problem.conditions:
        count = rule.count
        if 0 < count <= engine.hand:
            _, p = engine.return_table(count)
            notes.append("mulligan choice is optimal for this query")
            method = (
                "exact (optimal mulligan, look-ahead, dynamic programming)"
                if engine.kuk
                else "exact (optimal mulligan, dynamic programming)"
            )
        else:
            notes.append(f"the hand is too small to return {count} cards: no mulligan")
    return OddsResult(
        probability=float(p),
        probability_without_mulligan=float(plain),
        exact=True,
        method=method,
        probability_exact=_fraction_text(p),
        notes=tuple(notes),
    )


def optimal_return_choice(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    *,
    budget: int = STATE_BUDGET,
) -> Callable[[tuple[int, ...]], tuple[int, ...] | None]:
    """The optimal return-mulligan decision :func:`exact_odds` uses, for the simulator.

    The returned function maps an opening-hand composition (per group of ``problem``) to the
    composition of the cards to return (per group, summing to the rule's count), or None to
    keep the hand. The whole table is computed up front, so :class:`Intractable` is raised
    here, never by the returned function.
    """
    rule = procedure.mulligan
    if not isinstance(rule, ReturnRule):
        raise ValueError("optimal_return_choice needs a return-count mulligan rule")
    engine = _Engine(problem, procedure, query, (), budget)
    red = engine.red
    count = rule.count
    if problem.conditions and 0 < count <= engine.hand:
        table, _ = engine.return_table(count)
    else:
        table = {}

    def choose(hand: tuple[int, ...]) -> tuple[int, ...] | None:
        if len(hand) != len(problem.group_sizes) or sum(hand) != engine.hand:
            raise ValueError(f"not an opening hand of {engine.hand} over the problem's groups")
        kept = table.get(red.to_classes(hand))
        if kept is None:
            return None
        # Spread each class's returns over the hand's groups of that class (all equivalent).
        to_return = [h - k for h, k in zip(red.to_classes(hand), kept, strict=True)]
        out = [0] * len(hand)
        for g, k in enumerate(hand):
            cls = red.class_of[g]
            take = min(k, to_return[cls])
            out[g] = take
            to_return[cls] -= take
        return tuple(out)

    return choose


def distribution(problem: DrawProblem, seen: int, selector: int) -> list[Fraction]:
    """P(exactly k cards matching ``selector`` among ``seen``), for k = 0, 1, ... (plain draw)."""
    n = problem.pile_size
    if not 0 <= seen <= n:
        raise ValueError(f"cannot see {seen} cards of a pile of {n}")
    pairs = zip(problem.group_sizes, problem.membership, strict=True)
    hits = sum(size for size, row in pairs if row[selector])
    total = math.comb(n, seen)
    return [
        Fraction(math.comb(hits, k) * math.comb(n - hits, seen - k), total)
        for k in range(min(seen, hits) + 1)
    ]
