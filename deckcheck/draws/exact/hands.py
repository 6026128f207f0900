"""Opening hands and their parts up to exchanging alike classes, a size at a time (numpy).

The return mulligan's table (:meth:`~deckcheck.draws.exact.levels.LevelEngine.return_numerator`)
weighs every opening hand and finds each one's best kept part, the best of those of the hands
one card smaller. Classes *alike* (an *orbit*: the same size and tests, so the same part of a
state's key for as many cards held) can be exchanged in a hand without changing its value or
its ways, so a hand is kept as per orbit how many of its classes hold each count (a
*configuration*, one small integer per orbit), and the hands it stands for counted in its
ways. Twenty-six names of a few sizes are thousands of such hands where their compositions
are hundreds of thousands; an orbit of one class is its count, so with no two classes alike
these are the compositions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from deckcheck.core.numeric import np, npt

Ints = npt.NDArray[np.int64]


def _spread(members: int, most: int, cards: int) -> Iterator[tuple[int, ...]]:
    """Every (classes holding 1, ..., classes holding ``most``) of at most ``members`` classes
    and ``cards`` cards."""
    if most == 0:
        yield ()
        return
    for k in range(min(members, cards // most) + 1):
        for rest in _spread(members - k, most - 1, cards - k * most):
            yield (*rest, k)


class Orbit:
    """The configurations of ``members`` classes of ``size`` cards each holding at most
    ``hand`` in all: per configuration its cards, its ways (the hands it stands for times
    their draws), and its neighbours one card more or less in a class holding ``x``."""

    def __init__(self, members: int, size: int, hand: int) -> None:
        most = min(size, hand)
        # Per count 1..most, how many classes hold it.
        configs = list(_spread(members, most, hand))
        configs.sort(key=lambda n: (sum(x * k for x, k in enumerate(n, 1)), n))
        index = {n: i for i, n in enumerate(configs)}
        self.most = most
        self.configs = configs
        self.cards = np.array([sum(x * k for x, k in enumerate(n, 1)) for n in configs])
        ways: list[int] = []
        for n in configs:
            left, w = members, 1
            for x, k in enumerate(n, 1):
                w *= math.comb(left, k) * math.comb(size, x) ** k
                left -= k
            ways.append(w)
        self.ways = np.array(ways, dtype=np.int64)
        # add[x][i]: configuration i with a class holding x given one more card (-1: none);
        # drop[x][i]: one card fewer from a class holding x (x >= 1).
        self.add: list[Ints] = []
        self.drop: list[Ints] = []
        for x in range(most + 1):
            add, drop = [], []
            for n in configs:
                zero = members - sum(n)
                full = (zero, *n)
                add.append(self._moved(index, full, x, x + 1))
                drop.append(self._moved(index, full, x, x - 1))
            self.add.append(np.array(add, dtype=np.int64))
            self.drop.append(np.array(drop, dtype=np.int64))

    def _moved(
        self, index: dict[tuple[int, ...], int], full: tuple[int, ...], x: int, to: int
    ) -> int:
        if full[x] == 0 or not 0 <= to <= self.most:
            return -1
        moved = [*full]
        moved[x] -= 1
        moved[to] += 1
        return index.get(tuple(moved[1:]), -1)


class Hands:
    """Hands of 0 to ``hand`` cards over ``orbits`` (classes' sizes by orbit), up to exchange
    within an orbit: per size, its rows (a configuration per orbit), sorted by their codes."""

    def __init__(self, orbits: Sequence[tuple[int, int]], hand: int) -> None:
        self.orbits = [Orbit(members, size, hand) for members, size in orbits]
        radix = 1
        self.place: list[int] = []
        for orbit in self.orbits:
            self.place.append(radix)
            radix *= len(orbit.configs)
        #: Whether every code fits in 64 bits (else there is no such table).
        self.fits = radix < 1 << 62
        self.rows: list[Ints] = []
        self.codes: list[Ints] = []
        if self.fits:
            self._grow(hand)

    def _grow(self, hand: int) -> None:
        place = np.array(self.place, dtype=np.int64)
        rows = np.zeros((1, len(self.orbits)), dtype=np.int64)  # configuration 0: none held
        for size in range(hand + 1):
            codes = rows @ place
            self.rows.append(rows)
            self.codes.append(codes)
            if size == hand:
                break
            grown: list[Ints] = []
            for o, orbit in enumerate(self.orbits):
                for add in orbit.add:
                    nxt = add[rows[:, o]]
                    has = np.flatnonzero(nxt >= 0)
                    child = rows[has]
                    child[:, o] = nxt[has]
                    grown.append(child)
            every = np.concatenate(grown) if grown else rows[:0]
            _, first = np.unique(every @ place, return_index=True)
            rows = every[first]

    def smaller(self, size: int) -> Iterator[tuple[Ints, Ints]]:
        """Per way of giving back one card of the hands of ``size`` cards: which hands can
        (their rows) and where the hand one card smaller is among those of ``size - 1``."""
        rows, codes, below = self.rows[size], self.codes[size], self.codes[size - 1]
        for o, orbit in enumerate(self.orbits):
            for drop in orbit.drop[1:]:
                nxt = drop[rows[:, o]]
                has = np.flatnonzero(nxt >= 0)
                if len(has):
                    code = codes[has] + (nxt[has] - rows[has, o]) * self.place[o]
                    yield has, np.searchsorted(below, code)

    def ways(self, size: int) -> Ints:
        """Per hand of ``size`` cards, the ways to be dealt a hand it stands for."""
        rows = self.rows[size]
        out = np.ones(len(rows), dtype=np.int64)
        for o, orbit in enumerate(self.orbits):
            out *= orbit.ways[rows[:, o]]
        return out

    def table(self, o: int, per_count: Sequence[int]) -> Ints:
        """Per configuration of orbit ``o``, the sum over its classes of ``per_count[x]``
        for a class holding ``x`` (``per_count[0]`` is taken as 0)."""
        orbit = self.orbits[o]
        counts = np.array(orbit.configs, dtype=np.int64).reshape(-1, orbit.most)
        return counts @ np.array(per_count[1 : orbit.most + 1], dtype=np.int64)

    def spread(self, o: int, members: int) -> Ints:
        """Per configuration of orbit ``o``, one composition it stands for: its counts over
        the orbit's ``members`` classes, largest first."""
        orbit = self.orbits[o]
        out = np.zeros((len(orbit.configs), members), dtype=np.int64)
        for i, counts in enumerate(orbit.configs):
            held = [x for x in range(orbit.most, 0, -1) for _ in range(counts[x - 1])]
            out[i, : len(held)] = held
        return out

    def column(self, size: int, o: int) -> Ints:
        """Per hand of ``size`` cards, orbit ``o``'s configuration."""
        return self.rows[size][:, o]
