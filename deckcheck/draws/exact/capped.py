"""The plain draw, exactly, by a programme over classes whose state is the capped counts.

A plain draw (no choice left to the player: no look-ahead, no mulligan aiming at the query)
does not care about order, so the classes of cards that matter (see
:mod:`~deckcheck.draws.exact.reduced`) are taken one after another and the state after each is only
what the conditions can still tell apart:

* per condition selector, the count seen so far, up to the threshold that settles it: a count
  that has met its lower bound, and can no longer break its upper bound with the cards of the
  classes still to come, is *settled* (marked ``-1``) and stops splitting states;
* a state in which some condition is already doomed (an upper bound broken, or a lower bound
  out of reach of the cards left) is dropped; one in which every condition is settled is
  *decided*: its ways are set aside and finished at the end with one binomial coefficient;
* the ways of each state, per number of cards taken so far, are one polynomial in ``x`` (the
  number of cards). It is held as a single integer with a fixed-width field per power of
  ``x`` (Kronecker substitution), and all the numbers of cards seen (a by-turn table) come
  out of one pass;
* the numbers ``k`` of cards of a class that lead from a state to one same state (past its
  thresholds a count's fate no longer changes) form a *run*, taken as one multiplication by
  the sum of their binomials: a transition is a run, not a card.

So the states grow with the product of the thresholds, never with the compositions of the
hand over the classes, and a deck of 12,000 cards costs what one of 40 does. The transitions
are counted before starting (:meth:`PlainProgramme.work`), for every number of cards seen at
once when a table asks (:meth:`PlainProgramme.reach`), so a caller decides between this and a
simulation without running it. Everything is exact integer arithmetic.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Sequence

from deckcheck.draws.exact.compositions import count_compositions
from deckcheck.draws.exact.reduced import Reduced, Tracked, Vec
from deckcheck.draws.model import CountTest, per_object

#: A settled count: the tests on it pass whatever the classes still to come bring.
SETTLED = -1
#: ``progress(done, total)`` as the engines call it.
Progress = Callable[[int, int], None]

_NO_LIMIT = 1 << 62

#: Runs of a class's numbers of cards that reach one same state: ``(lo, hi, counts)``.
Runs = tuple[tuple[int, int, Vec], ...]
Moves = Runs
#: ``within(most, counted, projected)``: whether a most is in reach (see ``PlainProgramme._walk``).
Within = Callable[[int, Sequence[int], Sequence[int]], bool]


class _Bounds:
    """The tests of ``red.cond`` as one interval per position, and what each class reaches."""

    def __init__(self, red: Reduced, sizes: Sequence[int]) -> None:
        cond = red.cond
        n_pos = len(cond.selectors)
        order = class_order(cond.class_positions, sizes)
        #: The classes in the order the programme takes them (the empty ones left out).
        self.order = tuple(order)
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
        # Per class: the runs of its cards from a sub-state (the counts it touches), and the
        # moves from a whole state (see :meth:`moves`), kept for every programme on this pile.
        self._runs: list[dict[Vec, Runs]] = [{} for _ in sizes]
        self._moves: list[dict[Vec, Moves]] = [{} for _ in sizes]
        self._needs: list[dict[Vec, int]] = [{} for _ in range(len(sizes) + 1)]
        self._shorts: dict[Vec, tuple[int, int]] = {}  # per state: its largest and total shortfall
        # Per class: the counts it touches, picked out of a state as a tuple.
        self._pick: list[Callable[[Vec], Vec]] = [_picker(ps) for ps in self.positions]

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
        the most counts one card adds to (worked out once per state, for every programme on
        this pile)."""
        cache = self._needs[c]
        got = cache.get(vec)
        if got is None:
            got = cache[vec] = self._need(vec, c)
        return got

    def _need(self, vec: Vec, c: int) -> int:
        # The shortfalls depend on the state alone (a state is met at many classes): worked
        # out once per state, the class only says how many counts one card may add to.
        got = self._shorts.get(vec)
        if got is None:
            # A settled count (-1) is short of nothing.
            shorts = [least - x for x, least in zip(vec, self.lo, strict=True) if least > x >= 0]
            got = self._shorts[vec] = (max(shorts), sum(shorts)) if shorts else (0, 0)
        largest, total = got
        if not total:
            return 0
        return max(largest, -(-total // max(1, self.cover[c])))

    def moves(self, vec: Vec, c: int) -> Moves:
        """The runs of numbers of cards ``k`` of class ``c`` that lead from state ``vec`` to
        one same state: ``(lo, hi, state)`` for ``lo <= k <= hi``, by rising ``lo``; the ``k``
        that doom every way are left out. A class that changes nothing is one run."""
        cache = self._moves[c]
        got = cache.get(vec)
        if got is not None:
            return got
        positions = self.positions[c]
        sub = self._pick[c](vec) if positions else ()
        if not positions or sub.count(SETTLED) == len(sub):  # nothing it brings changes
            got = ((0, self.sizes[c], vec),)
        else:
            runs = self._runs[c].get(sub)
            if runs is None:
                runs = self._runs[c][sub] = self._sub_runs(c, sub)
            out = []
            for lo, hi, new in runs:
                if new == sub:  # the counts it touches unchanged: the same state
                    out.append((lo, hi, vec))
                    continue
                full = list(vec)
                for p, x in zip(positions, new, strict=True):
                    full[p] = x
                out.append((lo, hi, tuple(full)))
            got = tuple(out)
        cache[vec] = got
        return got

    def _sub_runs(self, c: int, sub: Vec) -> Runs:
        """:meth:`moves` on the counts class ``c`` touches alone.

        Past the last threshold a count can cross (its lower bound met, its upper bound
        broken), a count's fate no longer changes with more cards: the numbers of cards are
        walked only up to there, and the last run takes the rest of the class.
        """
        positions = self.positions[c]
        reach = self.reach[c + 1]
        size = self.sizes[c]
        turn = 0  # the most cards after which some count's fate can still change
        for p, x in zip(positions, sub, strict=True):
            if x != SETTLED:
                hi = self.hi[p]
                turn = max(turn, self.lo[p] - x, hi - x + 1 if hi < _NO_LIMIT else 0)
        out: list[tuple[int, int, Vec]] = []
        last: Vec | None = None
        start = 0
        for k in range(min(size, turn) + 1):
            new: Vec | None = None
            got: list[int] = []
            for p, x in zip(positions, sub, strict=True):
                if x == SETTLED:
                    got.append(x)
                    continue
                fate = self.settle(x + k, p, reach[p])
                if fate is None:
                    break
                got.append(fate)
            else:
                new = tuple(got)
            if k and new != last:
                if last is not None:
                    out.append((start, k - 1, last))
                start = k
            last = new
        if last is not None:
            out.append((start, size, last))
        return tuple(out)


#: The bounds kept, the latest made last: a table's rows, the query of its own and the
#: estimate before each share one pile, so its moves are made once. Keyed by the problem's
#: identity (see :func:`~deckcheck.draws.model.per_object`).
_BOUNDS: dict[tuple[int, tuple[int, ...]], tuple[Reduced, _Bounds]] = {}
#: Bounds kept for a query without alternatives; one with alternatives keeps two for each
#: conjunction of them (every hand of a table asks each of them in turn), up to
#: :data:`_MOST_BOUNDS`.
_FEW_BOUNDS = 4
_MOST_BOUNDS = 64


def _bounds(red: Reduced, sizes: tuple[int, ...], keep: int = _FEW_BOUNDS) -> _Bounds:
    """The bounds of ``red``'s tests over a pile of ``sizes``, made once while they stay
    among the last ``keep`` made (at least :data:`_FEW_BOUNDS`, at most :data:`_MOST_BOUNDS`)."""
    key = (id(red), sizes)
    got = _BOUNDS.get(key)
    if got is not None and got[0] is red:
        return got[1]
    made = _Bounds(red, sizes)
    room = min(max(keep, _FEW_BOUNDS), _MOST_BOUNDS)
    while len(_BOUNDS) >= room:
        _BOUNDS.pop(next(iter(_BOUNDS)))
    _BOUNDS[key] = (red, made)
    return made


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


def _picker(positions: tuple[int, ...]) -> Callable[[Vec], Vec]:
    """``vec -> tuple(vec[p] for p in positions)``, made once."""
    if not positions:
        return lambda vec: ()
    if len(positions) == 1:
        (only,) = positions
        return lambda vec: (vec[only],)
    return operator.itemgetter(*positions)


@per_object(maxsize=16)
def _parts(red: Reduced) -> tuple[tuple[int, Reduced], ...]:
    """Inclusion–exclusion over ``red``'s alternatives: (sign, the problem asking all the
    tests of a conjunction of them), conjunctions asking the same tests summed, zeros left
    out. Kept per problem, so that every hand's programme shares the parts (and their
    bounds)."""
    alternatives = red.cond.alternatives
    signs: dict[tuple[int, ...], int] = {}
    for size in range(1, len(alternatives) + 1):
        for subset in itertools.combinations(alternatives, size):
            tests = tuple(sorted({i for alt in subset for i in alt}))
            signs[tests] = signs.get(tests, 0) + (1 if size % 2 else -1)
    return tuple(
        (sign, dataclasses.replace(red, cond=red.cond.only(tests)))
        for tests, sign in signs.items()
        if sign
    )


def _decided(vec: Vec) -> bool:
    return vec.count(SETTLED) == len(vec)


class PlainProgramme:
    """One plain draw of up to ``most`` cards from a pile (cards per class, default the whole
    pile), with ``start`` (capped counts already held, default none).

    :meth:`work` counts the cost before anything is computed, :meth:`reach` finds the most
    cards whose cost stays within a limit (every smaller number from the same walk), and
    :meth:`ways` computes. They walk the same states and runs of cards, made once.

    A query of alternatives (``A | B``, see :attr:`~.reduced.Tracked.alternatives`) is the
    signed sum of one programme per conjunction of alternatives (inclusion–exclusion, exact
    for a draw without choices: P(A or B) = P(A) + P(B) - P(A and B)); conjunctions asking the
    same tests are one programme.

    ``shared``: ``pile`` is part of ``red``'s own pile (what an opening hand leaves of it),
    and the programme walks the states and runs of cards of ``red``'s own pile, made once
    for every such pile (thousands of opening hands), taking from each class only the cards
    ``pile`` has. A count settled or doomed by the larger pile's cards still to come is so
    by the smaller's, so the ways are the same; only :meth:`ways` is asked of it.
    """

    def __init__(
        self,
        red: Reduced,
        most: int,
        pile: Sequence[int] | None = None,
        start: Vec | None = None,
        *,
        shared: bool = False,
        _keep: int = _FEW_BOUNDS,
    ) -> None:
        self.red = red
        self.most = most
        own = tuple(red.sizes if pile is None else pile)
        parts = _parts(red) if red.cond.alternatives else ()
        # every conjunction's bounds and this one's stay while the parts take turns
        keep = max(_keep, 2 * (len(parts) + 1))
        self.bounds = _bounds(red, tuple(red.sizes) if shared else own, keep)
        #: The pile's cards per class, in the order the programme takes the classes.
        self.sizes = tuple(own[c] for c in self.bounds.order) if shared else self.bounds.sizes
        self.start = start
        self.pile_size = sum(self.sizes)
        self.width = _width(self.pile_size, most)
        self.transitions: int | None = None
        self.done = 0  # transitions made by :meth:`ways` (as :meth:`work` counts them)
        #: Units of work counted for the first number of cards :meth:`reach` found out of
        #: reach (a count cut short: just over the limit).
        self.cut = 0
        self._counted: dict[int, int] = {}  # transitions counted by :meth:`reach`, per most
        #: (sign, programme) per conjunction of alternatives; empty: this one is an AND.
        self.parts: list[tuple[int, PlainProgramme]] = []
        if parts:
            self.parts = [
                (sign, PlainProgramme(part, most, pile, start, shared=shared, _keep=keep))
                for sign, part in parts
            ]

    def upto(self, most: int) -> PlainProgramme:
        """The same programme for at most ``most`` cards (no more than this one's), sharing
        the states' moves already made (and the count, when :meth:`reach` stopped there)."""
        other = copy.copy(self)
        other.parts = [(sign, part.upto(most)) for sign, part in self.parts]
        other.most = most
        other.width = _width(self.pile_size, most)
        other.transitions = self._counted.get(most)
        other.done = 0
        return other

    def unit(self, most: int | None = None) -> int:
        """Work units per transition for at most ``most`` cards (default this programme's):
        one, plus one per 2,000 bits of a state's polynomial (the integer arithmetic grows
        with the cards seen and the pile's size: measured at about 5 µs a transition for 27
        cards seen from 9,667, whose polynomials hold 7,000 bits)."""
        if most is None:
            return 1 + self.width * (self.most + 1) // 2000
        return 1 + _width(self.pile_size, most) * (most + 1) // 2000

    def work(self, limit: int | None = None) -> int | None:
        """Units of work :meth:`ways` takes (transitions times :meth:`unit`), counted by
        walking the states without the arithmetic; None as soon as it passes ``limit``."""
        if self.parts:
            total = 0
            for _sign, part in self.parts:
                left = None if limit is None else limit - total
                got = part.work(left)
                if got is None:
                    return None
                total += got
            return total
        if self.transitions is None and self.reach(limit, self.most) < self.most:
            return None
        assert self.transitions is not None
        work = self.transitions * self.unit()
        return None if limit is not None and work > limit else work

    def reach(self, limit: int | None = None, least: int = 0, rows: Sequence[int] = ()) -> int:
        """The most cards, from ``least`` up to this programme's, whose :meth:`work` stays
        within ``limit``; ``least - 1`` when none does. One walk of the states counts every
        number of cards at once (see :meth:`_walk`); :meth:`upto` then gives the programme.

        ``rows``: the numbers of cards a table asks about; then the rows up to a most share
        ``limit``, each costed as if computed on its own (as a table computed row by row
        would spend it), though one programme answers them all.
        """
        if self.parts:
            share = None if limit is None else max(1, limit // len(self.parts))
            top = self.most
            for _sign, part in self.parts:
                top = min(top, part.upto(top).reach(share, least, rows))
                self.cut = max(self.cut, part.cut)
            return top
        units: dict[int, int] = {}

        def unit(m: int) -> int:
            got = units.get(m)
            if got is None:
                got = units[m] = self.unit(m)
            return got

        wanted = sorted(set(rows))

        def within(top: int, counted: Sequence[int], projected: Sequence[int]) -> bool:
            if limit is None:
                return True
            work = projected[top] * unit(top)
            if wanted:
                # The rows before the last one in play are charged what is counted so far
                # (their projections would charge the same states again and again).
                upto = [r for r in wanted if r <= top]
                if upto:
                    last = upto.pop()
                    work = projected[last] * unit(last)
                    work += sum(counted[r] * unit(r) for r in upto)
            if work <= limit:
                return True
            self.cut = work
            return False

        top = self._walk(least, within)
        if top < least:
            return least - 1
        if top == self.most:
            self.transitions = self._counted[top]
        return top

    def _walk(self, least: int, within: Within) -> int:
        """Count the transitions of :meth:`ways` for every most ``m`` from ``least`` up, and
        return the largest ``m`` whose counts pass ``within(m, counted, projected)``
        (``counted[m]``: the transitions for a most of ``m`` so far, ``projected[m]`` with
        each state still open passing the classes left); below ``least``: none.

        A state reached with ``f`` cards at the fewest lives, for a most ``m``, when ``f``
        plus the cards it still needs is at most ``m`` (the fewest cards that reach it are
        the same for every ``m`` it lives for: the need never drops by more than the cards
        taken), and a run of ``lo`` to ``hi`` cards is taken from it when ``f + lo <= m``. So
        each transition is counted once, for the least ``m`` that makes it, and a running sum
        gives every ``m``'s count. As soon as the count for ``m``, or its projection (each
        state still open passing the classes left), fails ``within``, the walk drops every
        ``m`` from there up (counts only grow with ``m``) and goes on with fewer states.
        """
        bounds = self.bounds
        sizes = bounds.sizes
        n = len(sizes)
        top = self.most
        first = bounds.origin(self.start)
        if first is None or n <= 1 or not self.red.cond.tests:
            while top >= least and not within(top, [1] * (top + 1), [1] * (top + 1)):
                top -= 1
            self._counted[top] = 1
            return top
        made = [0] * (top + 1)  # made[m]: transitions made from a most of m up
        states: dict[Vec, tuple[int, int]] = {first: (0, 0)}  # fewest cards, least most
        n_pos = len(first)
        for c in range(n - 1):
            new: dict[Vec, int] = {}
            # The bounds' caches read here directly: a walk asks them once per state.
            known_moves = bounds._moves[c]
            for vec, (fewest, least_most) in states.items():
                if vec.count(SETTLED) == n_pos:  # decided
                    continue
                room = top - fewest
                moves = known_moves.get(vec)
                if moves is None:
                    moves = bounds.moves(vec, c)
                for lo, _hi, nv in moves:
                    if lo > room:
                        break
                    cards = fewest + lo
                    made[cards if cards > least_most else least_most] += 1
                    got = new.get(nv)
                    if got is None or cards < got:
                        new[nv] = cards
            states = {}
            living = [0] * (top + 1)
            known_needs = bounds._needs[c + 1]
            for nv, cards in new.items():
                need = known_needs.get(nv)
                at = cards + (bounds.need(nv, c + 1) if need is None else need)
                if at <= top:
                    states[nv] = (cards, at)
                    living[at] += 1
            lower = _lower(top, least, made, living, n - 2 - c, within)
            if lower < least:
                return lower
            if lower < top:
                top = lower
                states = {v: fa for v, fa in states.items() if fa[1] <= top}
        for _f, at in states.values():
            made[at] += 1  # the last class: one transition a state
        top = _lower(top, least, made, [0] * (top + 1), 0, within)
        if top >= least:
            self._counted[top] = sum(made[: top + 1])
        return top

    def ways(self, progress: Progress | None = None) -> list[int]:
        """``out[s]``: the ``s``-card subsets of the pile on which all conditions hold, for
        every ``s`` from 0 to ``most``. ``progress(done, total)`` hears after each class, in
        transitions when :meth:`work` ran first, else in classes.

        A run of ``lo`` to ``hi`` cards of a class that lead to one same state is one
        multiplication, by the sum of its binomials."""
        if self.parts:
            summed = [0] * (self.most + 1)
            for sign, part in self.parts:
                for s, w in enumerate(part.ways(progress)):
                    summed[s] += sign * w
            return summed
        most, bounds = self.most, self.bounds
        sizes = self.sizes
        n = len(sizes)
        self.done = 1  # the walk counts one transition for these
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
            last_term = len(terms) - 1
            sums: dict[tuple[int, int], int] = {}
            new: dict[Vec, int] = {}
            known_moves = bounds._moves[c]
            for vec, poly in states.items():
                if _decided(vec):
                    decided[c] += poly
                    continue
                lowest = (poly & -poly).bit_length() - 1
                top = most - lowest // width
                moves = known_moves.get(vec)
                if moves is None:
                    moves = bounds.moves(vec, c)
                for lo, hi, nv in moves:
                    if lo > top or lo > last_term:  # past the most asked or the class's cards
                        break
                    done += 1
                    key = (lo, min(hi, top, last_term))
                    run = sums.get(key)
                    if run is None:
                        run = sums[key] = sum(terms[lo : key[1] + 1])
                    new[nv] = new.get(nv, 0) + poly * run
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
            for lo, hi, nv in bounds.moves(vec, last):
                if _decided(nv):
                    finish += sum(terms[lo : hi + 1])
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


def _lower(
    top: int,
    least: int,
    made: Sequence[int],
    living: Sequence[int],
    classes: int,
    within: Within,
) -> int:
    """The largest most from ``top`` down whose counts so far (``made``), with each of its
    ``living`` states passing ``classes`` more classes, pass ``within``."""
    counted = []
    projected = []
    count = alive = 0
    for m in range(top + 1):
        count += made[m]
        alive += living[m]
        counted.append(count)
        projected.append(count + alive * classes)
    while top >= least and not within(top, counted, projected):
        top -= 1
    return top


def _width(pile: int, most: int) -> int:
    """Bits of one field of a programme's polynomials: one more than the largest coefficient,
    which counts subsets of the pile: at most max_s C(N, s), which C(N, s) reaches at the s
    nearest N / 2 (binomials rise to the middle)."""
    return math.comb(pile, min(most, pile // 2)).bit_length() + 1


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


#: Most products a :class:`Factored` draw may walk for one group of classes tied by tests
#: (the numbers of cards of its classes, up to the most drawn): past it, the programme, which
#: caps counts and so walks a large group faster than the plain product (docs/performance.md).
FACTOR_LIMIT = 1024


class Factored:
    """The plain draw of :class:`PlainProgramme` as a product, for a query without
    alternatives: classes whose counts no test ties together are drawn independently, so the
    ways of ``s`` cards are the coefficient of ``x^s`` in the product, over each group of
    classes the tests tie together (classes sharing a count), of that group's ways per number
    of its cards (the tests on its counts passing), times the binomials of the classes no test
    reads. A group's polynomial depends only on its classes' cards in the pile and its counts
    already held, so the many piles of a table of opening hands (and of decks alike) share
    them. Exact integers, the same as :meth:`PlainProgramme.ways`.
    """

    def __init__(self, cond: Tracked, most: int) -> None:
        self.most = most
        n = len(cond.class_positions)
        owner: dict[int, int] = {}  # position -> a class counting for it
        parent = list(range(n))

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c

        for c, positions in enumerate(cond.class_positions):
            for p in positions:
                if p in owner:
                    parent[root(c)] = root(owner[p])
                else:
                    owner[p] = c
        members: dict[int, list[int]] = {}
        for c, positions in enumerate(cond.class_positions):
            if positions:
                members.setdefault(root(c), []).append(c)
        tests: dict[int, list[CountTest]] = {}
        for p, t in cond.tests:
            tests.setdefault(p, []).append(t)
        self.groups = tuple(
            (
                tuple(classes),
                tuple(sorted({p for c in classes for p in cond.class_positions[c]})),
            )
            for classes in members.values()
        )
        self.free = tuple(c for c, positions in enumerate(cond.class_positions) if not positions)
        counted = {p for classes, positions in self.groups for p in positions}
        #: tests on counts no class of the pile adds to: decided by the counts held
        self.held = tuple((p, t) for p, t in cond.tests if p not in counted)
        self.class_positions = cond.class_positions
        self.tests = tests
        self.exact = not cond.alternatives
        #: Whether piles that differ can share a group's ways: no group holds every class
        #: (one that does is asked once per pile, and the programme walks it faster).
        self.shares = all(len(classes) < n for classes, _positions in self.groups)
        self._memo: dict[tuple[int, Vec, Vec], list[int]] = {}

    def fits(self, pile: Sequence[int]) -> bool:
        """Whether every group's walk stays within :data:`FACTOR_LIMIT` for this pile."""
        if not self.exact:
            return False
        for classes, _positions in self.groups:
            walk = 1
            for c in classes:
                walk *= min(pile[c], self.most) + 1
            if walk > FACTOR_LIMIT:
                return False
        return True

    def charge(
        self, sizes: Sequence[int], hands: Iterable[Vec], of: Callable[[Vec], Vec]
    ) -> tuple[int, int]:
        """For the piles opening hands ``hands`` (cards per class) leave of ``sizes``: how
        many :meth:`ways` cannot take (:meth:`fits` fails: they go to the programme), and
        the partial draws of the group walks it would make for the others, counted before
        any is made: each group's walk once per cards and counts (a walk already made costs
        nothing). ``of``: the capped counts of a hand. A group's part of a hand, and so its
        walk, depends only on the hand's cards of the group's classes: each is looked at once.
        """
        n = len(sizes)
        fitting: list[dict[Vec, bool]] = [{} for _ in self.groups]
        picks = [_picker(classes) for classes, _positions in self.groups]
        used: list[set[Vec]] = [set() for _ in self.groups]
        programmes = 0
        for hand in hands:
            parts = [pick(hand) for pick in picks]
            fit = True
            for g, part in enumerate(parts):
                got = fitting[g].get(part)
                if got is None:
                    classes = self.groups[g][0]
                    walk = 1
                    for c, k in zip(classes, part, strict=True):
                        walk *= min(sizes[c] - k, self.most) + 1
                    got = fitting[g][part] = walk <= FACTOR_LIMIT
                fit = fit and got
            if not fit or not self.exact:
                programmes += 1
                continue
            for g, part in enumerate(parts):
                used[g].add(part)
        steps = 0
        for g, (classes, positions) in enumerate(self.groups):
            for part in used[g]:
                alone = [0] * n
                for c, k in zip(classes, part, strict=True):
                    alone[c] = k
                held = of(tuple(alone))
                pile = tuple(sizes[c] - k for c, k in zip(classes, part, strict=True))
                if (g, pile, tuple(held[p] for p in positions)) not in self._memo:
                    steps += _partial_draws(pile, self.most)
        return programmes, steps

    def ways(self, pile: Sequence[int], start: Vec) -> list[int]:
        """``out[s]``: the ``s``-card subsets of ``pile`` (cards per class) on which every test
        passes, holding ``start`` (capped counts) already, for ``s`` up to the most cards
        asked or the pile's size, whichever is less (:meth:`fits` first)."""
        most = min(self.most, sum(pile))
        if not all(t.holds(start[p]) for p, t in self.held):
            return [0] * (most + 1)
        poly = [1] + [0] * most
        for g, (classes, positions) in enumerate(self.groups):
            key = (g, tuple(pile[c] for c in classes), tuple(start[p] for p in positions))
            factor = self._memo.get(key)
            if factor is None:
                factor = self._memo[key] = self._group(classes, positions, key[1], key[2])
            poly = _times(poly, factor, most)
            if not any(poly):
                return poly
        rest = sum(pile[c] for c in self.free)
        return _times(poly, [math.comb(rest, k) for k in range(min(rest, most) + 1)], most)

    def _group(
        self, classes: Sequence[int], positions: Sequence[int], sizes: Vec, held: Vec
    ) -> list[int]:
        """A group's ways per number of its cards drawn (up to the most asked)."""
        most = self.most
        out = [0] * (most + 1)
        where = {p: i for i, p in enumerate(positions)}
        touches = [[where[p] for p in self.class_positions[c]] for c in classes]
        checks = [(where[p], t) for p in positions for t in self.tests.get(p, ())]
        # Class by class, the partial draws of up to the most asked, those with the same
        # cards and counts taken together: a small most walks few, however many classes.
        partial: dict[tuple[int, Vec], int] = {(0, tuple(held)): 1}
        for size, hit in zip(sizes, touches, strict=True):
            row = [math.comb(size, k) for k in range(min(size, most) + 1)]
            grown: dict[tuple[int, Vec], int] = {}
            for (total, seen), ways in partial.items():
                for k in range(min(size, most - total) + 1):
                    if k and hit:
                        bumped = list(seen)
                        for i in hit:
                            bumped[i] += k
                        key = (total + k, tuple(bumped))
                    else:
                        key = (total + k, seen)
                    grown[key] = grown.get(key, 0) + ways * row[k]
            partial = grown
        for (total, seen), ways in partial.items():
            if all(t.holds(seen[i]) for i, t in checks):
                out[total] += ways
        return out


@functools.lru_cache(maxsize=1024)
def _partial_draws(sizes: Vec, most: int) -> int:
    """The partial draws :meth:`Factored._group` makes over classes of ``sizes``: for each
    class, the numbers of its cards and of the classes' before it, up to ``most`` in all
    (those of the same counts are merged as it goes: this leans high)."""
    return sum(sum(count_compositions(sizes[:j], most)) for j in range(1, len(sizes) + 1))


def _times(a: Sequence[int], b: Sequence[int], most: int) -> list[int]:
    """The product of two polynomials (coefficient lists), up to ``x^most``."""
    out = [0] * (most + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: most + 1 - i]):
                if y:
                    out[i + j] += x * y
    return out


@functools.lru_cache(maxsize=16)
def factored(cond: Tracked, most: int) -> Factored:
    """The :class:`Factored` draw of ``cond``'s tests up to ``most`` cards, made once per
    query and kept: the optimiser asks it of hundreds of decks whose classes differ in size
    only, and their opening hands leave piles that share groups' polynomials."""
    return Factored(cond, most)


def hands_ways(
    red: Reduced, later: int, hands: Sequence[tuple[int, ...]], limit: int | None = None
) -> dict[tuple[int, ...], int] | None:
    """Per opening hand (a composition over ``red``'s classes, all of one size): the
    ``later``-card subsets of the pile it leaves on which the conditions hold over the hand
    and those cards together, the same as ``PlainProgramme(red, later, pile,
    red.cond.of(hand), shared=True).ways()[later]`` for each hand, for all of them in one walk
    of the whole pile's states.

    The walk takes the classes in the programme's order, each hand's cards of a class with
    the later cards of it (the states count the cards seen, hand and later together), and
    hands that agree on the classes taken so far share the states' polynomials (a trie of
    the hands): only where they part are the states copied. ``limit``: work units
    (transitions, as :meth:`PlainProgramme.work` counts them), counted by a first walk
    without the arithmetic; None when that passes ``limit`` (nothing computed then).
    """
    if not hands:
        return {}
    programme = PlainProgramme(red, later, shared=True)
    if programme.parts:
        summed: dict[tuple[int, ...], int] = dict.fromkeys(hands, 0)
        spent = 0
        for sign, part in programme.parts:
            left = None if limit is None else limit - spent
            walk = _HandsWalk(part.red, part.bounds, later, hands)
            if left is not None and walk.count(left) is None:
                return None
            spent += walk.counted
            for comp, ways in walk.ways().items():
                summed[comp] += sign * ways
        return summed
    walk = _HandsWalk(red, programme.bounds, later, hands)
    if limit is not None and walk.count(limit) is None:
        return None
    return walk.ways()


class _HandsWalk:
    """:func:`hands_ways` for one conjunction of tests (see there)."""

    def __init__(
        self, red: Reduced, bounds: _Bounds, later: int, hands: Sequence[tuple[int, ...]]
    ) -> None:
        self.red = red
        self.bounds = bounds
        self.later = later
        self.sizes = bounds.sizes
        n = len(self.sizes)
        self.remaining = [sum(self.sizes[c:]) for c in range(n + 1)]
        self.hand = sum(hands[0])
        # The hands as a trie over the classes in the walk's order; a leaf holds its hand.
        self.trie: dict[object, object] = {}
        for comp in hands:
            node = self.trie
            for c in bounds.order:
                node = node.setdefault(comp[c], {})  # type: ignore[assignment]
            node[None] = comp
        self.width = _width(self.remaining[0], later)
        self.counted = 0
        self._weights: dict[tuple[int, int, int, int], int] = {}

    def _weight(self, c: int, h: int, lo: int, hi: int) -> int:
        """The later cards of class ``c`` (``x^k`` for ``k`` of them, in ways) when the hand
        holds ``h`` of its cards and ``lo`` to ``hi`` of them are seen in all."""
        key = (c, h, lo, hi)
        got = self._weights.get(key)
        if got is None:
            free, width = self.sizes[c] - h, self.width
            top = min(hi, h + self.later)
            got = sum(
                math.comb(free, t - h) << (width * (t - h)) for t in range(max(lo, h), top + 1)
            )
            self._weights[key] = got
        return got

    def count(self, limit: int) -> int | None:
        """Transitions of :meth:`ways` (stopping just past ``limit``), or None past it."""
        bounds, later, last = self.bounds, self.later, len(self.sizes) - 1
        first = bounds.origin(None)
        if first is None or _decided(first):
            return 0
        counted = 0
        moves, need = bounds.moves, bounds.need  # (the loops below are the walk's hot path)
        stack: list[tuple[int, dict[Vec, int], int, dict[object, object]]] = [
            (0, {first: 0}, self.hand, self.trie)
        ]
        while stack:
            c, states, left, node = stack.pop()
            if c == last:
                counted += len(states)
            else:
                for h, child in node.items():
                    if h is None:
                        continue
                    assert isinstance(h, int) and isinstance(child, dict)
                    new: dict[Vec, int] = {}
                    get = new.get
                    for vec, fewest in states.items():
                        most = later - fewest + h  # the most cards of the class seen in all
                        for lo, hi, nv in moves(vec, c):
                            if hi < h or lo > most:
                                continue
                            counted += 1
                            cards = fewest + lo - h if lo > h else fewest
                            got = get(nv)
                            if got is None or cards < got:
                                new[nv] = cards
                    room = later + left - h
                    kept = {
                        v: f
                        for v, f in new.items()
                        if v.count(SETTLED) != len(v) and f + need(v, c + 1) <= room
                    }
                    stack.append((c + 1, kept, left - h, child))
            if counted > limit:
                self.counted = counted
                return None
        self.counted = counted
        return counted

    def ways(self) -> dict[tuple[int, ...], int]:
        """Per hand, the ways of its ``later`` cards on which the conditions hold."""
        bounds, later, width = self.bounds, self.later, self.width
        last = len(self.sizes) - 1
        field = (1 << width) - 1
        mask = (1 << (width * (later + 1))) - 1
        out: dict[tuple[int, ...], int] = {}
        first = bounds.origin(None)
        if first is None or _decided(first):
            full = first is not None
            for each in _leaves(self.trie):
                out[each] = math.comb(self.remaining[0] - self.hand, later) if full else 0
            return out

        def finished(poly: int, c: int, left: int) -> int:
            # decided before class c: the later cards still to come are any of the rest
            free = self.remaining[c] - left
            return sum(
                ((poly >> (width * k)) & field) * math.comb(free, later - k)
                for k in range(later + 1)
            )

        moves, weights = bounds.moves, self._weights  # (the walk's hot path, as in count)
        stack: list[tuple[int, dict[Vec, int], int, int, dict[object, object]]] = [
            (0, {first: 1}, 0, self.hand, self.trie)
        ]
        while stack:
            c, states, acc, left, node = stack.pop()
            if c == last:
                leaf = node.get(left)
                if not isinstance(leaf, dict):
                    continue
                comp = leaf[None]
                assert isinstance(comp, tuple)
                total = acc
                for vec, poly in states.items():
                    finish = 0
                    for lo, hi, nv in bounds.moves(vec, c):
                        if _decided(nv):
                            finish += self._weight(c, left, lo, hi)
                    if finish:
                        total += ((poly * finish) >> (width * later)) & field
                out[comp] = total
                continue
            for h, child in node.items():
                if h is None:
                    continue
                assert isinstance(h, int) and isinstance(child, dict)
                new: dict[Vec, int] = {}
                get = new.get
                for vec, poly in states.items():
                    for lo, hi, nv in moves(vec, c):
                        if hi >= h:
                            weight = weights.get((c, h, lo, hi))
                            if weight is None:
                                weight = self._weight(c, h, lo, hi)
                            if weight:
                                new[nv] = get(nv, 0) + poly * weight
                rest = left - h
                now = acc
                kept: dict[Vec, int] = {}
                for vec, poly in new.items():
                    poly &= mask
                    if not poly:
                        continue
                    if _decided(vec):
                        now += finished(poly, c + 1, rest)
                        continue
                    room = later + rest - bounds.need(vec, c + 1)
                    if room < 0:
                        continue
                    if room < later:
                        poly &= (1 << (width * (room + 1))) - 1
                    if poly:
                        kept[vec] = poly
                stack.append((c + 1, kept, now, rest, child))
        return out


def _leaves(node: dict[object, object]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for key, child in node.items():
        if key is None:
            assert isinstance(child, tuple)
            out.append(child)
        else:
            assert isinstance(child, dict)
            out.extend(_leaves(child))
    return out
