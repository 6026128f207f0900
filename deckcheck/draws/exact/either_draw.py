"""The plain draw of an either-or question in one programme, without inclusion–exclusion.

:class:`~deckcheck.draws.exact.capped.PlainProgramme` answers a question of alternatives
(``A | B``) as the signed sum of one programme per conjunction of them: up to 255 programmes
for 8 alternatives, for every opening hand the optimal redraw tabulates. This programme takes
the classes one after another as that one does, with the whole capped count vector as its
state (every test of every alternative), and:

* drops a state every alternative of which is doomed (an upper bound broken, or a lower bound
  out of reach of the cards of the classes still to come);
* sets aside a state some alternative of which holds whatever comes (its lower bounds met, its
  upper bounds out of reach of the cards still to come), finished at the end with one
  binomial sum of the cards still to come;
* keeps the ways of each state per number of cards taken as one integer (a field per number,
  Kronecker substitution), and a run of numbers of a class's cards that lead to one same
  state as one multiplication.

So ``ways()[s]`` is the number of ``s``-card subsets of the pile on which the question holds
(with ``start`` counts already held), exactly, and :meth:`EitherProgramme.work` counts the
transitions before anything is computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from deckcheck.draws.exact.reduced import Reduced, Tracked, Vec
from deckcheck.draws.model import per_object


def _width(pile: int, most: int) -> int:
    """Bits of one field: one more than the largest coefficient, at most max_s C(N, s)."""
    return math.comb(pile, min(most, pile // 2)).bit_length() + 1


#: Per alternative, ``(position, least, most)`` of its tests.
_Bounds = tuple[tuple[tuple[int, int, int | None], ...], ...]
#: What one query's programmes share (:func:`_memo`).
_Memo = tuple[
    _Bounds,
    dict[tuple[Vec, Vec], bool | None],
    dict[tuple[int, int, int, Vec], list[tuple[int, int, Vec]]],
]


@per_object(maxsize=8)
def _memo(cond: Tracked) -> _Memo:
    """What every opening hand's programme of one query shares: the alternatives' bounds, a
    state's fate (:meth:`EitherProgramme._fate`) by its counts and the reach of the cards
    still to come, and the runs of a class's cards (:meth:`EitherProgramme._runs`) by the
    class, its cards, the most asked and the counts."""
    tests = cond.tests
    alternatives = cond.alternatives or (tuple(range(len(tests))),)
    bounds = tuple(
        tuple(
            (
                tests[i][0],
                tests[i][1].op.least(tests[i][1].threshold),
                tests[i][1].op.most(tests[i][1].threshold),
            )
            for i in alt
        )
        for alt in alternatives
    )
    return bounds, {}, {}


class EitherProgramme:
    """One plain draw of up to ``most`` cards from ``pile`` (cards per class of ``red``,
    default its own), ``start`` (capped counts already held) for a question of
    alternatives."""

    def __init__(
        self,
        red: Reduced,
        most: int,
        pile: Sequence[int] | None = None,
        start: Vec | None = None,
    ) -> None:
        self.red = red
        cond = red.cond
        sizes = tuple(red.sizes if pile is None else pile)
        # Classes no test reads come last, as one: they move no count.
        read = [c for c, s in enumerate(sizes) if s and cond.class_positions[c]]
        self.order = tuple(read)
        self.rest = sum(s for c, s in enumerate(sizes) if s and not cond.class_positions[c])
        self.sizes = tuple(sizes[c] for c in read)
        self.pile_size = sum(sizes)
        self.most = min(most, self.pile_size)
        self.start = cond.zero if start is None else tuple(start)
        # reach[i][p]: cards of the classes from the i-th in order on (and the rest) counting
        # for position p.
        n_pos = len(cond.selectors)
        reach: list[Vec] = [(0,) * n_pos]
        for c, size in zip(reversed(read), reversed(self.sizes), strict=True):
            row = list(reach[0])
            for p in cond.class_positions[c]:
                row[p] += size
            reach.insert(0, tuple(row))
        self.reach = reach
        self.alternatives, self._fates, self._known_runs = _memo(cond)
        self.cond: Tracked = cond
        self.transitions: int | None = None

    def _fate(self, vec: Vec, reach: Vec) -> bool | None:
        """True when some alternative holds whatever the classes still to come bring, False
        when none can hold any more, None when they decide."""
        key = (vec, reach)
        if key in self._fates:
            return self._fates[key]
        got = self._fates[key] = self._decide(vec, reach)
        return got

    def _decide(self, vec: Vec, reach: Vec) -> bool | None:
        open_ = False
        for alt in self.alternatives:
            won = True
            for p, least, most in alt:
                x = vec[p]
                if (most is not None and x > most) or x + reach[p] < least:
                    break  # this alternative is doomed
                if x < least or (most is not None and x + reach[p] > most):
                    won = False
            else:
                if won:
                    return True
                open_ = True
        return None if open_ else False

    def _runs(self, i: int, vec: Vec) -> list[tuple[int, int, Vec]]:
        """The runs ``(lo, hi, state)`` of numbers of cards of the ``i``-th class that lead
        from ``vec`` to one same state (``lo`` rising), up to the most asked."""
        c, size = self.order[i], self.sizes[i]
        key = (c, size, self.most, vec)
        got = self._known_runs.get(key)
        if got is None:
            got = self._known_runs[key] = self._make_runs(c, size, vec)
        return got

    def _make_runs(self, c: int, size: int, vec: Vec) -> list[tuple[int, int, Vec]]:
        bump = self.cond.bump
        out: list[tuple[int, int, Vec]] = []
        last: Vec | None = None
        top = min(size, self.most)
        for k in range(top + 1):
            nv = bump(vec, c, k)
            if nv == last:
                lo, _, _ = out[-1]
                out[-1] = (lo, k, nv)
            else:
                out.append((k, k, nv))
                last = nv
        return out

    def work(self, limit: int | None = None) -> int | None:
        """Transitions :meth:`ways` makes (a state times a run of its class's cards), counted
        by walking the states without the arithmetic; None as soon as they pass ``limit``."""
        if self.transitions is None:
            self.transitions = self._walk(limit)
        if self.transitions is None or (limit is not None and self.transitions > limit):
            return None
        return self.transitions

    def _walk(self, limit: int | None) -> int | None:
        first = self._fate(self.start, self.reach[0])
        if first is not None:
            return 1
        states: dict[Vec, int] = {self.start: 0}  # the fewest cards that reach it
        made = 0
        for i in range(len(self.order)):
            new: dict[Vec, int] = {}
            reach = self.reach[i + 1]
            for vec, fewest in states.items():
                for lo, _hi, nv in self._runs(i, vec):
                    if fewest + lo > self.most:
                        break
                    made += 1
                    if self._fate(nv, reach) is None:
                        got = new.get(nv)
                        if got is None or fewest + lo < got:
                            new[nv] = fewest + lo
            if limit is not None and made > limit:
                return None
            states = new
        return made + len(states)

    def ways(self) -> list[int]:
        """``out[s]``: the ``s``-card subsets of the pile on which the question holds, for
        every ``s`` from 0 to ``most``."""
        most, width = self.most, self.width
        fields = most + 1
        mask = (1 << (width * fields)) - 1

        def binomials(size: int) -> int:
            return sum(math.comb(size, k) << (width * k) for k in range(min(size, most) + 1))

        cards_after = [sum(self.sizes[i:]) + self.rest for i in range(len(self.sizes) + 1)]
        fate = self._fate(self.start, self.reach[0])
        if fate is not None:
            whole = binomials(self.pile_size) if fate else 0
            return [(whole >> (width * s)) & ((1 << width) - 1) for s in range(fields)]
        won = 0  # the ways of states won for good, times the cards still to come
        states: dict[Vec, int] = {self.start: 1}
        for i in range(len(self.order)):
            size = self.sizes[i]
            terms = [math.comb(size, k) << (width * k) for k in range(min(size, most) + 1)]
            new: dict[Vec, int] = {}
            reach = self.reach[i + 1]
            after = binomials(cards_after[i + 1]) if i + 1 < len(cards_after) else 1
            for vec, poly in states.items():
                lowest = (poly & -poly).bit_length() - 1
                room = most - lowest // width
                for lo, hi, nv in self._runs(i, vec):
                    if lo > room:
                        break
                    moved = (poly * sum(terms[lo : min(hi, room) + 1])) & mask
                    fate = self._fate(nv, reach)
                    if fate is None:
                        new[nv] = new.get(nv, 0) + moved
                    elif fate:
                        won += (moved * after) & mask
            states = {v: p for v, p in new.items() if p}
        # The classes no test reads: every number of their cards.
        tail = binomials(self.rest)
        total = won & mask
        holds = self.cond.all_hold
        for vec, poly in states.items():
            if holds(vec):
                total += (poly * tail) & mask
        total &= mask
        return [(total >> (width * s)) & ((1 << width) - 1) for s in range(fields)]

    @property
    def width(self) -> int:
        """Bits of one field of the polynomials."""
        return _width(self.pile_size, self.most)
