"""The return mulligan on a hand that is the whole question, every hand at once with numpy.

When the cards seen are the opening hand (no later draw, no look-ahead), the optimal
return-``count`` mulligan asks, of every hand ``H``, the best of keeping it and of each kept
part ``K`` of ``hand - count`` cards: the ways ``R(K)`` to draw ``count`` cards from the pile
without ``K`` that make ``K`` a winning hand. Overlapping selectors (``type:``, ``rarity:``,
costs, each card counted by several) split a deck into some twenty classes of one to twenty
cards, none alike, and a Python walk over their ~300,000 hands and each hand's kept parts
takes seconds. Here the hands are rows of class indices in increasing order (a multiset of
classes), enumerated a card at a time; a hand's kept parts are its position subsets, each
found in a dense table of kept parts by its rank among the multisets (the combinatorial
number system). Two identities keep it to sums over those rows:

- ``ways(H - K; sizes - K) = ways(H) * m(H, K) / ways(K)``, with ``m(H, K)`` the position
  subsets of ``H`` that are ``K`` (``C(s, h) C(h, k) = C(s, k) C(s - k, h - k)`` per class).
  So ``R(K) * ways(K)`` is the sum, over every winning hand and each of its position subsets
  that is ``K``, of the hand's ways: one weighted count per subset position.
- A hand's best return is the largest ``R`` over its position subsets.

Every value is an integer; the sums are counted in floats only while they stay below 2^53
(where a float counts integers exactly), else :attr:`ReturnHands.fits` says no and the walk
is used. The choice per hand is found on asking, in the walk's order (ties keep, then the
first kept part in :func:`~.compositions.compositions` order), from the same values.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import TYPE_CHECKING

from deckcheck.draws.exact.compositions import compositions, count_compositions

if TYPE_CHECKING:
    from deckcheck.core.numeric import npt
    from deckcheck.draws.exact.reduced import Reduced

#: Largest integer a float64 sum counts exactly.
_EXACT_FLOAT = 1 << 53
#: (hand, kept part) pairs one unit of exact work stands for (a unit is about 2-5 µs; numpy
#: takes about 40-80 ns a pair here, the hands' enumeration and tests included).
PAIRS_PER_UNIT = 32


class ReturnHands:
    """The optimal return of ``count`` cards from every hand of ``hand`` cards, the hand being
    all the query sees: built by :meth:`run`, read by :attr:`numerator` and
    :meth:`kept_value`."""

    def __init__(self, red: Reduced, n: int, hand: int, count: int) -> None:
        self.red = red
        self.n = n
        self.hand = hand
        self.count = count
        self.keep = hand - count
        sizes = red.sizes
        self._classes = len(sizes)
        n_hands = count_compositions(sizes, hand)[hand]
        self.pairs = n_hands * math.comb(hand, self.keep)
        #: Whether the sums fit: every hand's ways times its subsets, and the numerator.
        self.fits = (
            0 < count <= hand <= n
            and math.comb(n, hand) * math.comb(hand, self.keep) < _EXACT_FLOAT
            and math.comb(n, hand) * math.comb(n - self.keep, count) < 1 << 62
            and math.comb(n, hand) * max(sizes, default=1) < 1 << 62
            and math.comb(self._classes + hand, hand) < 1 << 31
        )
        self.numerator = 0
        self._kept: dict[tuple[int, ...], int] = {}
        self._values: npt.NDArray | None = None

    def work(self) -> int:
        """Units of exact work :meth:`run` is charged (:data:`PAIRS_PER_UNIT`)."""
        return 1 + self.pairs // PAIRS_PER_UNIT

    def run(self) -> None:
        """Every hand, its test, and the best of keeping and returning: :attr:`numerator` over
        ``comb(N, hand) * comb(N - keep, count)``."""
        from deckcheck.core.numeric import np

        sizes = np.asarray(self.red.sizes, dtype=np.int64)
        rows, weights = _multisets(sizes, self.hand)
        won = self._holds(rows)
        redraw = math.comb(self.n - self.keep, self.count)
        if self.keep == 0:
            # Returning the whole hand: every hand may take the fresh deal's chance.
            fresh = int(weights[won].sum())
            self._values = np.asarray([fresh], dtype=np.int64)
            best = np.maximum(np.where(won, redraw, 0), fresh)
        else:
            ranks = self._ranks(rows)
            size = math.comb(self._classes + self.keep - 1, self.keep)
            hits = np.where(won, weights, 0).astype(np.float64)
            sums = np.zeros(size, dtype=np.float64)
            for r in ranks:
                sums += np.bincount(r, weights=hits, minlength=size)
            kept_rows, kept_ways = _multisets(sizes, self.keep)
            at = self._rank(kept_rows)
            totals = sums[at].astype(np.int64)
            values = np.zeros(size, dtype=np.int64)
            values[at], rest = np.divmod(totals, kept_ways)
            if rest.any():
                raise ArithmeticError("a kept part's draws are not its hands' ways")
            self._values = values
            best = np.where(won, redraw, 0)
            for r in ranks:
                np.maximum(best, values[r], out=best)
        self.numerator = int((weights * best).sum())

    def kept_value(self, kept: tuple[int, ...]) -> int:
        """``R(K)``: the ways to draw ``count`` cards after keeping ``kept`` (per class) that
        make the hand win."""
        values = self._values
        if values is None:
            raise RuntimeError("run() first")
        got = self._kept.get(kept)
        if got is None:
            if self.keep == 0:
                got = int(values[0])
            else:
                from deckcheck.core.numeric import np

                row = [c for c, k in enumerate(kept) for _ in range(k)]
                got = int(values[int(self._rank(np.asarray([row], dtype=np.int64))[0])])
            self._kept[kept] = got
        return got

    def _rank(self, rows: npt.NDArray) -> npt.NDArray:
        """Each row's rank among the multisets of its size (combinatorial number system:
        ``a_i + i`` strictly increases)."""
        from deckcheck.core.numeric import np

        out = np.zeros(len(rows), dtype=np.int64)
        for i in range(rows.shape[1]):
            out += self._binomials(i)[rows[:, i] + i]
        return out

    def _binomials(self, i: int) -> npt.NDArray:
        """``C(x, i + 1)`` for every ``x`` a rank reads (a class index plus a position)."""
        from deckcheck.core.numeric import np

        top = self._classes + self.hand
        return np.asarray([math.comb(x, i + 1) for x in range(top)], dtype=np.int64)

    def _ranks(self, rows: npt.NDArray) -> list[npt.NDArray]:
        """The rank (:meth:`_rank`) of each hand's kept part at each subset of positions:
        a kept part's ``i``-th card at the hand's position ``j`` adds ``C(a_j + i, i + 1)``,
        found once per ``(i, j)``."""
        tables = [self._binomials(i) for i in range(self.keep)]
        part = {
            (i, j): tables[i][rows[:, j] + i]
            for i in range(self.keep)
            for j in range(i, self.hand - self.keep + i + 1)
        }
        out = []
        for subset in combinations(range(self.hand), self.keep):
            rank = part[0, subset[0]].copy()
            for i in range(1, self.keep):
                rank += part[i, subset[i]]
            out.append(rank)
        return out

    def _holds(self, rows: npt.NDArray) -> npt.NDArray:
        """Whether the query holds on each hand (a row of class indices)."""
        from deckcheck.core.numeric import np

        cond = self.red.cond
        member = np.zeros((self._classes, len(cond.selectors)), dtype=np.int16)
        for c, positions in enumerate(cond.class_positions):
            member[c, list(positions)] = 1
        counts = member[rows[:, 0]]
        for i in range(1, rows.shape[1]):
            counts += member[rows[:, i]]
        np.minimum(counts, np.asarray(cond.caps, dtype=np.int16), out=counts)
        passes = []
        for p, test in cond.tests:
            table = np.asarray([test.holds(x) for x in range(cond.caps[p] + 1)], dtype=bool)
            passes.append(table[counts[:, p]])
        alternatives = cond.alternatives or (tuple(range(len(cond.tests))),)
        won = np.zeros(len(rows), dtype=bool)
        for alt in alternatives:
            every = np.ones(len(rows), dtype=bool)
            for i in alt:
                every &= passes[i]
            won |= every
        return won


def _multisets(sizes: npt.NDArray, total: int) -> tuple[npt.NDArray, npt.NDArray]:
    """Every hand of ``total`` cards over classes of ``sizes``, as rows of class indices in
    increasing order, and the ways each is drawn (``prod C(size, held)``)."""
    from deckcheck.core.numeric import np

    n = len(sizes)
    present = np.flatnonzero(sizes > 0)
    rows = present[:, None].copy()
    run = np.ones(len(rows), dtype=np.int64)
    weights = sizes[present].copy()
    if total == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1, dtype=np.int64)
    for _ in range(total - 1):
        last = rows[:, -1]
        many = n - last
        parent = np.repeat(np.arange(len(rows)), many)
        start = np.repeat(np.cumsum(many) - many, many)
        new = last[parent] + np.arange(len(parent)) - start
        grown = np.where(new == last[parent], run[parent] + 1, 1)
        ok = grown <= sizes[new]
        parent, new, grown = parent[ok], new[ok], grown[ok]
        # C(s, r) = C(s, r - 1) * (s - r + 1) / r: each step's product divides exactly.
        weights = weights[parent] * (sizes[new] - grown + 1) // grown
        rows = np.concatenate([rows[parent], new[:, None]], axis=1)
        run = grown
    return rows, weights


class KeptValues(Mapping[tuple[int, ...], int]):
    """:meth:`ReturnHands.kept_value` per kept part, as the walk's table of them (over
    ``comb(N - kept, count)``)."""

    def __init__(self, table: ReturnHands) -> None:
        self._table = table

    def __getitem__(self, kept: tuple[int, ...]) -> int:
        sizes = self._table.red.sizes
        if (
            len(kept) != len(sizes)
            or sum(kept) != self._table.keep
            or any(not 0 <= k <= s for k, s in zip(kept, sizes, strict=True))
        ):
            raise KeyError(kept)
        return self._table.kept_value(kept)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return compositions(self._table.red.sizes, self._table.keep)

    def __len__(self) -> int:
        return count_compositions(self._table.red.sizes, self._table.keep)[self._table.keep]
