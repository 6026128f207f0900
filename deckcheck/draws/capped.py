"""The plain draw, exactly, by a programme over classes whose state is the capped counts.

A plain draw (no choice left to the player: no look-ahead, no mulligan aiming at the query)
does not care about order, so the classes of cards that matter (see
:mod:`~deckcheck.draws.reduced`) are taken one after another and the state after each is only
what the conditions can still tell apart:

* per condition selector, the count seen so far, up to the threshold that settles it: a count
  that has met its lower bound, and can no longer break its upper bound with the cards of the
  classes still to come, is *settled* (marked ``-1``) and stops splitting states;
* a state in which some condition is already doomed (an upper bound broken, or a lower bound
  out of reach of the cards left) is dropped; one in which every condition is settled is
  *decided*: its ways are set aside and finished at the end with one binomial coefficient;
* the ways of each state, per number of cards taken so far, are one polynomial in ``x`` (the
  number of cards). It is held as a single integer with a fixed-width field per power of
  ``x`` (Kronecker substitution), so taking ``k`` cards of a class is one multiplication and
  one shift, and all the numbers of cards seen (a by-turn table) come out of one pass.

So the states grow with the product of the thresholds, never with the compositions of the
hand over the classes, and a deck of 12,000 cards costs what one of 40 does. The number of
state transitions is counted before starting (:func:`transitions`), so a caller decides
between this and a simulation without running it. Everything is exact integer arithmetic.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

from deckcheck.draws.reduced import Reduced, Vec

#: A settled count: the tests on it pass whatever the classes still to come bring.
SETTLED = -1
#: ``progress(done, total)`` as the engines call it.
Progress = Callable[[int, int], None]

_NO_LIMIT = 1 << 62


class _Bounds:
    """The tests of ``red.cond`` as one interval per position, and what each class reaches."""

    def __init__(self, red: Reduced, sizes: Sequence[int]) -> None:
        cond = red.cond
        n_pos = len(cond.selectors)
        order = class_order(cond.class_positions, sizes)
        sizes = [sizes[c] for c in order]
        self.lo = [0] * n_pos
        self.hi = [_NO_LIMIT] * n_pos
        for p, t in cond.tests:
            self.lo[p] = max(self.lo[p], t.op.least(t.threshold))
            most = t.op.most(t.threshold)
            if most is not None:
                self.hi[p] = min(self.hi[p], most)
        self.sizes = tuple(sizes)
        self.positions = tuple(cond.class_positions[c] for c in order)
        # reach[c][p]: cards of classes c, c+1, ... that count for position p.
        reach = [[0] * n_pos]
        for c in range(len(sizes) - 1, -1, -1):
            row = list(reach[0])
            for p in self.positions[c]:
                row[p] += sizes[c]
            reach.insert(0, row)
        self.reach = reach
        # cover[c]: the most counts one card of classes c, c+1, ... adds to.
        cover = [0] * (len(sizes) + 1)
        for c in range(len(sizes) - 1, -1, -1):
            cover[c] = max(cover[c + 1], len(self.positions[c]))
        self.cover = cover
        self._step_cache: list[dict[tuple[tuple[int, ...], int], tuple[int, ...] | None]] = [
            {} for _ in sizes
        ]

    def settle(self, x: int, p: int, reach: int) -> int | None:
        """Count ``x`` at position ``p`` with ``reach`` more cards possible: None if doomed,
        :data:`SETTLED` if it passes whatever comes, else ``x``."""
        lo, hi = self.lo[p], self.hi[p]
        if x > hi or x + reach < lo:
            return None
        if x >= lo and x + reach <= hi:
            return SETTLED
        return x

    def origin(self, start: Vec | None) -> Vec | None:
        """The first state (``start``: capped counts already held), or None if doomed."""
        vec = [0] * len(self.lo) if start is None else list(start)
        for p, x in enumerate(vec):
            got = self.settle(x, p, self.reach[0][p])
            if got is None:
                return None
            vec[p] = got
        return tuple(vec)

    def need(self, vec: Vec, c: int) -> int:
        """Fewest further cards (of classes ``c``, ``c + 1``, ...) that meet every lower
        bound of state ``vec``: the largest shortfall, and the total shortfall spread over
        the most counts one card adds to."""
        lo = self.lo
        worst = total = 0
        for p, x in enumerate(vec):
            if x != SETTLED and x < lo[p]:
                short = lo[p] - x
                total += short
                if short > worst:
                    worst = short
        if not total:
            return 0
        return max(worst, -(-total // max(1, self.cover[c])))

    def inert(self, vec: Vec, c: int) -> bool:
        """Whether class ``c`` changes nothing in state ``vec`` (its counts are settled)."""
        return all(vec[p] == SETTLED for p in self.positions[c])

    def step(self, vec: Vec, c: int, k: int) -> Vec | None:
        """The state after ``k`` cards of class ``c`` (None: doomed)."""
        positions = self.positions[c]
        if not positions:
            return vec
        sub = tuple(vec[p] for p in positions)
        cache = self._step_cache[c]
        key = (sub, k)
        if key in cache:
            new = cache[key]
        else:
            reach = self.reach[c + 1]
            out: list[int] | None = []
            for p, x in zip(positions, sub, strict=True):
                if x == SETTLED:
                    out.append(x)  # type: ignore[union-attr]
                    continue
                got = self.settle(x + k, p, reach[p])
                if got is None:
                    out = None
                    break
                out.append(got)  # type: ignore[union-attr]
            new = None if out is None else tuple(out)
            cache[key] = new
        if new is None:
            return None
        if new == sub:
            return vec
        full = list(vec)
        for p, x in zip(positions, new, strict=True):
            full[p] = x
        return tuple(full)


def class_order(positions: Sequence[tuple[int, ...]], sizes: Sequence[int]) -> list[int]:
    """The order in which the programme takes the (non-empty) classes.

    A count splits the states from the first class that touches it until it settles, which
    for an upper bound is only after the last class that touches it. So classes are taken
    greedily to keep few counts open: next, the class that closes the most counts (is the
    last one left touching them) and opens the fewest; classes that touch nothing go last
    (the last class is taken by force, in one step).
    """
    return list(_class_order(tuple(positions), tuple(size > 0 for size in sizes)))


# The optimal redraw runs one programme per opening hand, thousands of piles that differ in
# their sizes but rarely in which classes are empty: the order depends on that alone.
@functools.lru_cache(maxsize=256)
def _class_order(
    positions: tuple[tuple[int, ...], ...], filled: tuple[bool, ...]
) -> tuple[int, ...]:
    left = [c for c in range(len(filled)) if filled[c]]
    remaining: dict[int, int] = {}
    touching: dict[int, list[int]] = {}  # position -> the live classes that count for it
    for c in left:
        for p in positions[c]:
            remaining[p] = remaining.get(p, 0) + 1
            touching.setdefault(p, []).append(c)
    inert = [c for c in left if not positions[c]]
    live = {c for c in left if positions[c]}
    # A class's score: the counts it would open, less those it would close (it is the last
    # live class touching them); kept up to date as classes are taken, so that each choice
    # is one pass over the live classes, not a recount (hundreds of classes in a big deck).
    score = {c: len(positions[c]) - sum(1 for p in positions[c] if remaining[p] == 1) for c in live}
    order: list[int] = []
    opened: set[int] = set()
    while live:
        best = min(live, key=lambda c: (score[c], -len(positions[c]), c))
        live.discard(best)
        order.append(best)
        for p in positions[best]:
            if p not in opened:
                opened.add(p)
                for c in touching[p]:
                    if c in live:
                        score[c] -= 1  # no longer opens p
            remaining[p] -= 1
            if remaining[p] == 1:
                for c in touching[p]:
                    if c in live:
                        score[c] -= 1  # now the last one: it closes p
    return (*order, *inert)


def _decided(vec: Vec) -> bool:
    return all(x == SETTLED for x in vec)


class PlainProgramme:
    """One plain draw of up to ``most`` cards from a pile (cards per class, default the whole
    pile), with ``start`` (capped counts already held, default none).

    :meth:`work` counts the cost before anything is computed; :meth:`ways` computes. Both walk
    the same states, and the second reuses the first's transitions.
    """

    def __init__(
        self,
        red: Reduced,
        most: int,
        pile: Sequence[int] | None = None,
        start: Vec | None = None,
    ) -> None:
        self.red = red
        self.most = most
        self.bounds = _Bounds(red, red.sizes if pile is None else pile)
        self.start = start
        self.pile_size = sum(self.bounds.sizes)
        # One field per number of cards 0..most, wide enough for the largest coefficient,
        # which counts subsets of the pile: at most max_s C(N, s), which C(N, s) reaches at
        # the s nearest N / 2 (binomials rise to the middle).
        top = min(most, self.pile_size // 2)
        self.width = math.comb(self.pile_size, top).bit_length() + 1
        self.transitions: int | None = None
        self.done = 0  # transitions made by :meth:`ways` (as :meth:`work` counts them)

    def unit(self) -> int:
        """Work units per transition: one, plus one per 2,000 bits of a state's polynomial
        (the integer arithmetic grows with the cards seen and the pile's size: measured at
        about 5 µs a transition for 27 cards seen from 9,667, whose polynomials hold 7,000
        bits)."""
        return 1 + self.width * (self.most + 1) // 2000

    def work(self, limit: int | None = None) -> int | None:
        """Units of work :meth:`ways` takes (transitions times :meth:`unit`), counted by
        walking the states without the arithmetic; None as soon as it passes ``limit``.

        Each state carries the fewest cards that reach it, so no transition takes more cards
        than ``most``, exactly as in :meth:`ways`.
        """
        unit = self.unit()
        cap = _NO_LIMIT if limit is None else limit // unit
        if self.transitions is not None:
            return None if self.transitions > cap else self.transitions * unit
        bounds, most = self.bounds, self.most
        sizes = bounds.sizes
        first = bounds.origin(self.start)
        if first is None or len(sizes) <= 1 or not self.red.cond.tests:
            self.transitions = 1
            return unit
        count = 0
        states: dict[Vec, int] = {first: 0}
        for c in range(len(sizes) - 1):
            new: dict[Vec, int] = {}
            for vec, fewest in states.items():
                if _decided(vec):
                    continue
                if bounds.inert(vec, c):
                    count += 1
                    got = new.get(vec)
                    if got is None or fewest < got:
                        new[vec] = fewest
                    continue
                top = min(sizes[c], most - fewest)
                count += top + 1
                for k in range(top + 1):
                    nv = bounds.step(vec, c, k)
                    if nv is not None:
                        got = new.get(nv)
                        if got is None or fewest + k < got:
                            new[nv] = fewest + k
            states = {v: f for v, f in new.items() if f + bounds.need(v, c + 1) <= most}
            # Stop as soon as the count, or its projection (each state still open passing the
            # classes left), is past the limit: a hopeless count is cut short.
            if count + len(states) * (len(sizes) - 2 - c) > cap:
                return None
        self.transitions = count + len(states)
        return self.transitions * unit

    def ways(self, progress: Progress | None = None) -> list[int]:
        """``out[s]``: the ``s``-card subsets of the pile on which all conditions hold, for
        every ``s`` from 0 to ``most``. ``progress(done, total)`` hears after each class, in
        transitions when :meth:`work` ran first, else in classes."""
        most, bounds = self.most, self.bounds
        sizes = bounds.sizes
        n = len(sizes)
        if not self.red.cond.tests:
            return [math.comb(self.pile_size, s) for s in range(most + 1)]
        first = bounds.origin(self.start)
        if first is None:
            return [0] * (most + 1)
        if n == 0:
            return [1] + [0] * most  # nothing to draw; origin() settled every test
        width = self.width
        fields = most + 1
        mask = (1 << (width * fields)) - 1
        field_mask = (1 << width) - 1
        total = self.transitions

        def binomials(size: int) -> list[int]:
            """C(size, k) placed at field k, for k up to ``most``: sum_k C(size, k) x^k."""
            return [math.comb(size, k) << (width * k) for k in range(min(size, most) + 1)]

        remaining = [sum(sizes[c:]) for c in range(n + 1)]
        # Decided states' ways, per class boundary: finished with C(cards still to come, k).
        decided: list[int] = [0] * (n + 1)
        states: dict[Vec, int] = {first: 1}
        done = 0
        for c in range(n - 1):
            terms = binomials(sizes[c])
            whole = sum(terms)
            new: dict[Vec, int] = {}
            for vec, poly in states.items():
                if _decided(vec):
                    decided[c] += poly
                    continue
                if bounds.inert(vec, c):
                    # Nothing this class brings changes a count: all its cards at once.
                    done += 1
                    new[vec] = new.get(vec, 0) + poly * whole
                    continue
                lowest = (poly & -poly).bit_length() - 1
                top = min(len(terms) - 1, most - lowest // width)
                done += top + 1
                for k in range(top + 1):
                    nv = bounds.step(vec, c, k)
                    if nv is not None:
                        new[nv] = new.get(nv, 0) + poly * terms[k]
            # Ways with more cards than ``most`` minus the cards still needed never finish.
            states = {}
            for vec, poly in new.items():
                room = most - bounds.need(vec, c + 1)
                kept = poly & ((1 << (width * (room + 1))) - 1) if room >= 0 else 0
                if kept:
                    states[vec] = kept
            if progress is not None:
                if total is not None:
                    progress(min(done, total), total)
                else:
                    progress(c + 1, n)
        # The last class (usually the "matches nothing" remainder) takes whatever is left:
        # every number k of its cards after which the tests hold.
        done += len(states)
        self.done = done
        last = n - 1
        terms = binomials(sizes[last])
        result = 0
        for vec, poly in states.items():
            if _decided(vec):
                decided[last] += poly
                continue
            finish = 0
            for k, term in enumerate(terms):
                nv = bounds.step(vec, last, k)
                if nv is not None and _decided(nv):
                    finish += term
            if finish:
                result += (poly * finish) & mask
        for c, poly in enumerate(decided):
            if poly:
                result += (poly * sum(binomials(remaining[c]))) & mask
        result &= mask
        if progress is not None:
            end = n if total is None else total
            progress(end, end)
        return [(result >> (width * s)) & field_mask for s in range(fields)]


def plain_ways_upto(
    red: Reduced,
    most: int,
    pile: Sequence[int] | None = None,
    start: Vec | None = None,
) -> list[int]:
    """``out[s]``: the ``s``-card subsets of the pile (cards per class, default the whole
    pile) on which all conditions hold, holding ``start`` already, for ``s`` = 0..``most``."""
    return PlainProgramme(red, most, pile, start).ways()


def plain_ways(
    red: Reduced, seen: int, pile: Sequence[int] | None = None, start: Vec | None = None
) -> int:
    """Number of ``seen``-card subsets of the pile on which all conditions hold."""
    return PlainProgramme(red, seen, pile, start).ways()[seen]
