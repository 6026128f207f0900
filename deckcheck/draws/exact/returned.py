"""The return mulligan's table over every opening hand at once, with numpy.

The optimal return-``count`` mulligan asks, of every hand ``H``, the best of keeping it
(its value ``V(H)``: the chance of what follows, the look-ahead played optimally) and of
each kept part ``K`` of ``hand - count`` cards: ``R(K)``, the draws of ``count`` cards from
the pile without ``K`` weighed by the value of the hand they make. Overlapping selectors
(``type:``, ``rarity:``, costs, each card counted by several) split a deck into some twenty
classes of one to twenty cards, none alike, and a Python walk over their ~300,000 hands and
each hand's kept parts takes seconds. Here the hands are rows of class indices in increasing
order (a multiset of classes), enumerated a card at a time; a hand's kept parts are its
position subsets, each found in a dense table of kept parts by its rank among the multisets
(the combinatorial number system). What keeps it to sums over those rows:

- Most hands are settled by their capped counts alone (an upper bound already broken, or
  every test met whatever follows): their value is 0 or the whole, asked once per distinct
  counts. The others are valued by the caller's recursion once per distinct counts and cards
  held of the classes that can still change a count (the others' cards are one pool, as the
  recursion's states have them).
- ``ways(H - K; sizes - K) = ways(H) * m(H, K) / ways(K)``, with ``m(H, K)`` the position
  subsets of ``H`` that are ``K`` (``C(s, h) C(h, k) = C(s, k) C(s - k, h - k)`` per class).
  So ``R(K) * ways(K)`` is the sum, over every hand of some value and each of its position
  subsets that is ``K``, of the hand's ways times its value: one weighted count per subset
  position, counted in floats by limbs of the values small enough that every sum stays
  below 2^53 (where a float counts integers exactly).
- A hand's best is the largest over its position subsets and keeping, compared by the rank
  of each exact value among all of them.

Every value is an exact integer. The choice per hand is found on asking, in the walk's order
(ties keep, then the first kept part in :func:`~.compositions.compositions` order), from the
same values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from itertools import combinations
from typing import TYPE_CHECKING

from deckcheck.draws.exact.compositions import compositions, count_compositions
from deckcheck.draws.exact.reduced import Reduced, Vec

if TYPE_CHECKING:
    from deckcheck.core.numeric import npt

#: Largest integer a float64 sum counts exactly.
_EXACT_FLOAT = 1 << 53
#: (hand, kept part) pairs one unit of exact work stands for (a unit is about 2 µs): numpy
#: ranks and sums them at 8-14 ns a pair (16 on tables of a few thousand hands, their
#: calls' share); the hands themselves are charged apart
#: (:data:`HANDS_PER_UNIT`). The hands the caller's recursion values are charged as its calls.
PAIRS_PER_UNIT = 150

#: Hands one unit stands for besides their kept parts: each one's cards enumerated and its
#: counts found and capped (0.15-0.4 µs a hand, as measured on 12,000 to 230,000 hands; the
#: hands are sorted by rank only when a choice is asked of the table).
HANDS_PER_UNIT = 5
#: Units of exact work per capped count vector settled (a Python call, about 2 µs).
SETTLE_UNITS = 1
#: Cells (capped count vectors times classes and counts) one unit stands for where the
#: vectors are settled and their live classes found at once (``fates``, numpy: about
#: 0.017 µs a cell), and the units of its few dozen numpy calls.
SETTLE_CELLS_PER_UNIT = 100
SETTLE_CALL_UNITS = 150
#: Units per count vector left open, whose live classes are found (about 20-40 µs).
LIVE_UNITS = 15
#: Cells (open hands times classes and one) of the live keys one unit stands for: numpy
#: reads each hand's key (a digit per live class, one integer) and sorts them at about
#: 0.01-0.02 µs a cell, and the units of its numpy calls.
CELLS_PER_UNIT = 100
OPEN_CALL_UNITS = 50

#: Most (hand, kept part) pairs a table holds: each one's rank is kept (8 bytes), so this
#: bounds its memory to about 130 MB.
MOST_PAIRS = 1 << 24

#: Per capped count vector of a hand: True (won whatever follows), False (lost), None.
Settle = Callable[[Vec], "bool | None"]
#: Per capped count vector: the classes whose cards held the value still reads.
Live = Callable[[Vec], tuple[int, ...]]
#: The value of a hand (cards per class) not settled by its counts.
HandValue = Callable[[tuple[int, ...]], int]
#: Charges units of exact work before they are done (raising when over the limit).
Charge = Callable[[int], None]
#: The values of many hands at once (a row of cards per class each), in their order.
HandValues = Callable[["npt.NDArray"], list[int]]
#: :data:`Settle` and :data:`Live` of many capped count vectors at once (a row each, held
#: cards as many as a hand's): per row 1 (won), 0 (lost) or -1, and per row a column per
#: class, whether it is live.
Fates = Callable[["npt.NDArray", int], "tuple[npt.NDArray, npt.NDArray]"]


class ReturnHands:
    """The optimal return of ``count`` cards from every hand of ``hand`` cards over ``n``:
    built by :meth:`run`, read by :attr:`numerator` and :meth:`kept_value`.

    ``full``: a won hand's value; ``settle``, ``live``, ``value``: see :data:`Settle`,
    :data:`Live`, :data:`HandValue` (``value`` is asked only of hands ``settle`` leaves
    open); ``charge``: told the units of each step :meth:`work` could not count (the distinct
    counts, the open hands' keys) before it is done, so a table over the limit stops there;
    ``values``: when given, asked for the open hands' values all at once instead of
    ``value`` one by one (:data:`HandValues`); ``fates``: when given, asked to settle the
    hands' distinct counts and find their live classes all at once instead of ``settle``
    and ``live`` one by one (:data:`Fates`)."""

    def __init__(
        self,
        red: Reduced,
        n: int,
        hand: int,
        count: int,
        full: int,
        settle: Settle,
        live: Live,
        value: HandValue,
        charge: Charge | None = None,
        values: HandValues | None = None,
        fates: Fates | None = None,
    ) -> None:
        self.red = red
        self.n = n
        self.hand = hand
        self.count = count
        self.keep = hand - count
        self.full = full
        self._settle, self._live, self._value = settle, live, value
        self._values = values
        self._fates = fates
        self._charge = charge
        #: Units of those steps already paid for (a caller that charged more than
        #: :meth:`work` before starting): spent first.
        self.prepaid = 0
        sizes = red.sizes
        self._classes = len(sizes)
        n_hands = self.hands = count_compositions(sizes, hand)[hand]
        self.pairs = n_hands * max(1, math.comb(hand, self.keep))
        # Each kept part's hands, weighed, sum to ways(K) * comb(N - keep, count), at most
        # comb(N, keep) times that: a limb of the values times it stays below 2^53.
        bound = max(math.comb(n, self.keep) * math.comb(n - self.keep, count), math.comb(n, hand))
        self._limb = 52 - bound.bit_length()
        #: Whether the table can be counted so: limbs of some bits, ranks and ways in 64 bits.
        self.fits = (
            0 < count <= hand <= n
            and self._limb >= 8
            and math.comb(n, hand) * max(sizes, default=1) < 1 << 62
            and math.comb(self._classes + hand, hand) < 1 << 31
            and math.prod(cap + 1 for cap in red.cond.caps) < 1 << 62
            and self.pairs <= MOST_PAIRS
        )
        self.numerator = 0
        #: The hands' values summed, each times its ways: no mulligan, over ``comb(N, hand)``
        #: times a hand's whole value.
        self.kept_numerator = 0
        self._done = False
        self._kept: dict[int, int] = {}
        self._fresh = 0
        # Per hand (in the order of the sorted hands' ranks): its value (times the redraws'
        # ways) and its best, as :meth:`run` found them, for :meth:`hand_best`.
        self._hand_ranks: npt.NDArray | None = None
        self._hand_keep: npt.NDArray | None = None
        self._hand_best: npt.NDArray | None = None
        self._best_of: list[int] = []
        # Until :meth:`_by_rank` sorts them: the hands (as :func:`_multisets` lists them),
        # per hand the index of its value and of its best.
        self._unsorted: tuple[npt.NDArray, npt.NDArray, npt.NDArray] | None = None
        self._kept_at: npt.NDArray | None = None  # per kept part's rank, its value's index

    def work(self) -> int:
        """Units of exact work :meth:`run` is charged before starting (:data:`PAIRS_PER_UNIT`);
        the steps whose size only the hands tell are charged as they are known (``charge``)."""
        return 1 + self.pairs // PAIRS_PER_UNIT + self.hands // HANDS_PER_UNIT

    def run(self) -> None:
        """Every hand, its value, and the best of keeping and returning: :attr:`numerator`
        over ``comb(N, hand) * comb(N - keep, count)`` times a hand's whole value (and
        :attr:`kept_numerator`). Once."""
        if self._done:
            return
        from deckcheck.core.numeric import np

        sizes = np.asarray(self.red.sizes, dtype=np.int64)
        rows, weights = _multisets(sizes, self.hand)
        which, values = self._hand_values(rows)
        by_value = np.bincount(which, weights=weights.astype(np.float64))
        self.kept_numerator = _weighed(by_value, values)
        redraw = math.comb(self.n - self.keep, self.count)
        if self.keep == 0:
            # Returning the whole hand: every hand may take a fresh hand's chance.
            self._fresh = self.kept_numerator
            best_of = sorted({v * redraw for v in values} | {self._fresh})
            order = {v: i for i, v in enumerate(best_of)}
            kept_at = np.asarray([order[v * redraw] for v in values], dtype=np.int64)[which]
            best = np.maximum(kept_at, order[self._fresh])
        else:
            ranks = self._ranks(rows)
            kept_rows, kept_ways = _multisets(sizes, self.keep)
            at = self._rank(kept_rows).tolist()
            sums = self._kept_sums(ranks, which, values, weights)
            kept_values = []
            for r, w in zip(at, kept_ways.tolist(), strict=True):
                total, rest = divmod(sums[r], w)
                if rest:
                    raise ArithmeticError("a kept part's draws are not its hands' ways")
                self._kept[r] = total
                kept_values.append(total)
            best_of = sorted({v * redraw for v in values} | set(kept_values))
            order = {v: i for i, v in enumerate(best_of)}
            by_rank = np.zeros(math.comb(self._classes + self.keep - 1, self.keep), np.int32)
            by_rank[at] = [order[v] for v in kept_values]
            kept_at = np.asarray([order[v * redraw] for v in values], dtype=np.int32)[which]
            best = kept_at.copy()
            for r in ranks:
                np.maximum(best, np.take(by_rank, r), out=best)  # take: no index copy
            self._kept_at = by_rank
        counted = np.bincount(best, weights=weights.astype(np.float64), minlength=len(best_of))
        self.numerator = _weighed(counted, best_of)
        # Each hand's value and best, found by its rank when a choice is asked
        # (:meth:`_by_rank`): an answer that asks none never sorts the hands.
        self._unsorted = (rows, kept_at, best)
        self._best_of = best_of
        self._done = True

    def _by_rank(self) -> tuple[npt.NDArray, npt.NDArray, npt.NDArray]:
        """The hands' ranks in increasing order, and per hand so ordered the index of its
        value (kept) and of its best among :attr:`_best_of`. After :meth:`run`."""
        from deckcheck.core.numeric import np

        if self._hand_ranks is None or self._hand_keep is None or self._hand_best is None:
            if self._unsorted is None:
                raise ValueError("the table has not run")
            rows, keep, best = self._unsorted
            hand_ranks = self._rank(rows)
            by = np.argsort(hand_ranks)
            self._hand_ranks, self._hand_keep, self._hand_best = hand_ranks[by], keep[by], best[by]
            self._unsorted = None
        return self._hand_ranks, self._hand_keep, self._hand_best

    def hand_best(self, hand: tuple[int, ...]) -> tuple[int, int]:
        """Of ``hand`` (cards per class), as :meth:`run` found them: the value of keeping it
        (times the redraws' ways, as :meth:`kept_value` counts) and the best of keeping and
        each kept part. After :meth:`run`."""
        hand_ranks, hand_keep, hand_best = self._by_rank()
        rank = _rank_of(hand)
        at = int(hand_ranks.searchsorted(rank))
        if at >= len(hand_ranks) or int(hand_ranks[at]) != rank:
            raise KeyError(hand)
        best_of = self._best_of
        return best_of[int(hand_keep[at])], best_of[int(hand_best[at])]

    def kept_parts(self, rows: npt.NDArray) -> npt.NDArray:
        """Per hand (a row of its cards' classes in increasing order), the kept part the walk
        over :func:`~.compositions.compositions` picks, as :meth:`hand_best` reads it: the
        index of its position subset in ``combinations(range(hand), keep)`` (those list the
        same parts in the same order), or -1 where keeping is best (ties keep). After
        :meth:`run`, for every hand at once."""
        from deckcheck.core.numeric import np

        hand_ranks, hand_keep, hand_best = self._by_rank()
        ranks = self._rank(rows)
        at = np.minimum(hand_ranks.searchsorted(ranks), len(hand_ranks) - 1)
        if (hand_ranks[at] != ranks).any():
            raise KeyError("not a hand of the table")
        best = hand_best[at]
        todo = best != hand_keep[at]
        out = np.where(todo, 0, -1)
        if self._kept_at is None:  # the whole hand goes back: one kept part, the empty one
            return out
        for i, kept in enumerate(self._ranks(rows)):
            hit = todo & (self._kept_at[kept] == best)
            out[hit] = i
            todo &= ~hit
        if todo.any():
            raise ArithmeticError("no kept part is worth the hand's best")
        return out

    def kept_value(self, kept: tuple[int, ...]) -> int:
        """``R(K)``: the draws of ``count`` cards after keeping ``kept`` (per class), each
        weighed by its ways and the value of the hand it makes."""
        if self.keep == 0:
            return self._fresh
        return self._kept[_rank_of(kept)]

    def _hand_values(self, rows: npt.NDArray) -> tuple[npt.NDArray, list[int]]:
        """Per hand the index of its value among the distinct ones (0 first, then the
        whole), and those values."""
        from deckcheck.core.numeric import np

        cond = self.red.cond
        caps = np.asarray(cond.caps, dtype=np.int64)
        radix = self.hand + 1
        if radix ** len(caps) < 1 << 62:
            # Each card adds its positions' digits (no digit passes the hand's size): the
            # distinct hands' counts, capped once each.
            digit = radix ** np.arange(len(caps), dtype=np.int64)
            weight = np.zeros(self._classes, dtype=np.int64)
            for c, positions in enumerate(cond.class_positions):
                weight[c] = digit[list(positions)].sum()
            codes = weight[rows[:, 0]]
            for i in range(1, rows.shape[1]):
                codes = codes + weight[rows[:, i]]
            distinct, per_code = np.unique(codes, return_inverse=True)
            counts = np.minimum(distinct[:, None] // digit % radix, caps)
        else:
            member = np.zeros((self._classes, len(caps)), dtype=np.int64)
            for c, positions in enumerate(cond.class_positions):
                member[c, list(positions)] = 1
            counts = member[rows[:, 0]]
            for i in range(1, rows.shape[1]):
                counts += member[rows[:, i]]
            np.minimum(counts, caps, out=counts)
            per_code = np.arange(len(rows))
        flat = np.zeros(len(counts), dtype=np.int64)
        for p in range(len(caps)):
            flat = flat * (caps[p] + 1) + counts[:, p]
        distinct_flat, per_vector = np.unique(flat, return_inverse=True)
        per_hand = per_vector.reshape(-1)[per_code]
        n_vectors = len(distinct_flat)
        self._spend(
            n_vectors * SETTLE_UNITS
            if self._fates is None
            else SETTLE_CALL_UNITS
            + n_vectors * (self._classes + len(caps)) // SETTLE_CELLS_PER_UNIT
        )
        # Each distinct vector's counts, read back from its index (the last count lowest).
        capped = np.empty((n_vectors, len(caps)), dtype=np.int64)
        rest = distinct_flat
        for p in range(len(caps) - 1, -1, -1):
            rest, capped[:, p] = np.divmod(rest, caps[p] + 1)
        values = [0, self.full]
        live_of: npt.NDArray | None = None
        if self._fates is not None:
            fates, live_of = self._fates(capped, self.hand)
        else:
            fates = np.asarray(
                [
                    -1 if f is None else int(f)
                    for f in map(self._settle, map(tuple, capped.tolist()))
                ],
                dtype=np.int64,
            )
        open_vectors = np.flatnonzero(fates < 0)
        which = fates[per_hand]
        open_hands = np.flatnonzero(which < 0)
        if open_hands.size:
            cells = open_hands.size * (self._classes + 1)
            live_units = 0 if live_of is not None else len(open_vectors) * LIVE_UNITS
            self._spend(OPEN_CALL_UNITS + live_units + cells // CELLS_PER_UNIT)
            if live_of is not None:
                live = live_of.astype(np.int64)
            else:
                live = np.zeros((n_vectors, self._classes), dtype=np.int64)
                for i in open_vectors.tolist():
                    live[i, list(self._live(tuple(capped[i].tolist())))] = 1
            vector = per_hand[open_hands]
            some, alike = _alike(rows[open_hands], vector, live, self.red.sizes, self.hand)
            held = np.zeros((len(some), self._classes), dtype=np.int64)
            for i in range(rows.shape[1]):
                np.add.at(held, (np.arange(len(some)), rows[open_hands[some], i]), 1)
            index = {0: 0, self.full: 1}
            found = []
            if self._values is not None:
                got = self._values(held)
            else:
                got = [self._value(tuple(row)) for row in held.tolist()]
            for v in got:
                found.append(index.setdefault(v, len(index)))
                if len(values) < len(index):
                    values.append(v)
            which[open_hands] = np.asarray(found, dtype=np.int64)[alike]
        return which, values

    def _spend(self, units: int) -> None:
        paid = min(units, self.prepaid)
        self.prepaid -= paid
        if self._charge is not None and units > paid:
            self._charge(units - paid)

    def _kept_sums(
        self, ranks: list[npt.NDArray], which: npt.NDArray, values: list[int], weights: npt.NDArray
    ) -> dict[int, int]:
        """Per kept part's rank, ``R(K) * ways(K)``: the hands' ways times values summed
        over each position subset, limb by limb."""
        from deckcheck.core.numeric import np

        hit = np.flatnonzero(which != 0)
        size = math.comb(self._classes + self.keep - 1, self.keep)
        sums = [0] * size
        if not hit.size:
            return dict(enumerate(sums))
        bits = self._limb
        mask = (1 << bits) - 1
        index, ways = which[hit], weights[hit].astype(np.float64)
        at = [r[hit] for r in ranks]
        limbs = -(-max(values).bit_length() // bits)
        for j in range(limbs):
            limb = np.asarray([(v >> (bits * j)) & mask for v in values], dtype=np.float64)
            weighed = ways * limb[index]
            total = np.zeros(size, dtype=np.float64)
            for r in at:
                total += np.bincount(r, weights=weighed, minlength=size)
            for k in np.flatnonzero(total).tolist():
                sums[k] += int(total[k]) << (bits * j)
        return dict(enumerate(sums))

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
        found once per ``(i, j)``; subsets sharing their first positions share their sum.
        In 32 bits (every rank fits, see :attr:`fits`): half the memory read."""
        from deckcheck.core.numeric import np

        tables = [self._binomials(i).astype(np.int32) for i in range(self.keep)]
        part = {
            (i, j): tables[i][rows[:, j] + i]
            for i in range(self.keep)
            for j in range(i, self.hand - self.keep + i + 1)
        }
        sums: dict[tuple[int, ...], npt.NDArray] = {}

        def summed(subset: tuple[int, ...]) -> npt.NDArray:
            got = sums.get(subset)
            if got is None:
                last = part[len(subset) - 1, subset[-1]]
                got = last if len(subset) == 1 else summed(subset[:-1]) + last
                sums[subset] = got
            return got

        out = []
        for subset in combinations(range(self.hand), self.keep):
            out.append(summed(subset))
            sums.pop(subset, None)  # each whole subset is read once
        return out


def _alike(
    rows: npt.NDArray, vector: npt.NDArray, live: npt.NDArray, sizes: tuple[int, ...], hand: int
) -> tuple[npt.NDArray, npt.NDArray]:
    """The hands ``rows`` (class indices) of capped count vectors ``vector`` told apart by
    their vector and their cards of the classes ``live`` marks for it (a row per vector):
    one hand of each kind (its index) and each hand's kind. A kind is one integer (mixed
    radix, a digit per class) where that fits, else a row of counts."""
    from deckcheck.core.numeric import np

    radix = [min(s, hand) + 1 for s in sizes]
    total = math.prod(radix)
    if len(live) * total < 1 << 62:
        place = np.cumprod([1, *radix[:-1]]).astype(np.int64)
        live_place = live * place[None, :]
        key = vector * total
        for i in range(rows.shape[1]):
            key = key + live_place[vector, rows[:, i]]
        _, some, alike = np.unique(key, return_index=True, return_inverse=True)
        return some, alike.reshape(-1)
    held = np.zeros((len(rows), len(sizes)), dtype=np.int64)
    for i in range(rows.shape[1]):
        np.add.at(held, (np.arange(len(rows)), rows[:, i]), 1)
    keys = np.column_stack([vector, held * live[vector]])
    _, some, alike = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return some, alike.reshape(-1)


def _rank_of(comp: tuple[int, ...]) -> int:
    """The rank of ``comp`` (cards per class) among the multisets of its size, as
    :meth:`ReturnHands._rank` finds a row's."""
    rank, i = 0, 0
    for c, k in enumerate(comp):
        for _ in range(k):
            rank += math.comb(c + i, i + 1)
            i += 1
    return rank


def _weighed(counts: npt.NDArray, values: list[int]) -> int:
    """``sum(counts[i] * values[i])`` exactly (``counts``: float sums of ways, exact)."""
    return sum(int(c) * v for c, v in zip(counts.tolist(), values, strict=False) if c)


def _multisets(sizes: npt.NDArray, total: int) -> tuple[npt.NDArray, npt.NDArray]:
    """Every hand of ``total`` cards over classes of ``sizes``, as rows of class indices in
    increasing order, and the ways each is drawn (``prod C(size, held)``)."""
    from deckcheck.core.numeric import np

    if total == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1, dtype=np.int64)
    n = len(sizes)
    present = np.flatnonzero(sizes > 0)
    rows = present[:, None].copy()
    run = np.ones(len(rows), dtype=np.int64)
    weights = sizes[present].copy()
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
    """:meth:`ReturnHands.kept_value` per kept part, as the walk's table of them."""

    def __init__(self, table: ReturnHands) -> None:
        self._table = table
        #: The table the values are read from (its choices for many hands at once).
        self.hands = table
        # A walk over every hand asks each kept part again and again (several per hand):
        # each found once, at most the kept parts there are.
        self._known: dict[tuple[int, ...], int] = {}

    def __getitem__(self, kept: tuple[int, ...]) -> int:
        got = self._known.get(kept)
        if got is not None:
            return got
        sizes = self._table.red.sizes
        if (
            len(kept) != len(sizes)
            or sum(kept) != self._table.keep
            or any(not 0 <= k <= s for k, s in zip(kept, sizes, strict=True))
        ):
            raise KeyError(kept)
        got = self._known[kept] = self._table.kept_value(kept)
        return got

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return compositions(self._table.red.sizes, self._table.keep)

    def __len__(self) -> int:
        return count_compositions(self._table.red.sizes, self._table.keep)[self._table.keep]
