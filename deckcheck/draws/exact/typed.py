"""The level engine for types over named cards: a type's count as a sum over classes.

A query such as ``type:building>=2 name:Stone Bunker>=1 name:Watchtower<=1`` counts a card of
a named building twice: for its name and for its type (its *group*). The level engine
(:mod:`~deckcheck.draws.exact.levels`) keeps a state as a multiset of classes by their
kind, cards held and cards left; here, next to it, each group keeps its count (capped where
its tests stop telling counts apart) and one *pool*: the cards left that move the group's
count and nothing else (the group's classes no name reads, and its named classes whose own
tests are settled). A named class of a group while the group's count still matters is a
digit of that group's; the rest as in the level engine.

When a group's count stops mattering (its least reached with no most, or no cards of it left
that could break its most), it is *settled*: its pool joins the cards no test reads, its named
classes become digits of no group (alike with the other named classes of their kind), and
its count is kept at its least. When its count reaches its most, every card of it loses when
kept: its cards join the losing pool (a named class of it still short of its least is lost).
So a state says only what can still change the answer, and every move of a card is a fixed
change of the key followed, for a card of a group, by that group's normal form
(:meth:`TypedLevels._normal`). Values, residues and the return table are the level engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deckcheck.core.numeric import np
from deckcheck.draws.exact.levels import Ints, LevelEngine
from deckcheck.draws.exact.named import Interval, TypedClass

#: More cards than any query draws: the cards a lost state needs.
_NEVER = 1 << 30
#: Named digits of the groups from which their sums are read by byte tables (a gather per
#: byte of the key) rather than digit by digit (a few steps per digit).
_TABLE_DIGITS = 4


def _without_implied(
    sizes: tuple[int, ...], classes: list[TypedClass], groups: list[Interval]
) -> tuple[list[TypedClass], list[Interval]]:
    """``classes`` and ``groups`` without the groups whose tests every hand that passes its
    named classes' tests passes: the named classes' leasts add up to the group's least or
    more (each of their cards is the group's), and the group has no more cards than its most.
    Such a group tells no hands apart: its cards count for their own tests only."""
    kept: dict[int, int] = {}
    for g, (lo, hi) in enumerate(groups):
        least = sum(interval[0] for p, interval, g2 in classes if g2 == g and p >= 0)
        size = sum(sizes[c] for c, (_, _, g2) in enumerate(classes) if g2 == g)
        if least < lo or (hi is not None and size > hi):
            kept[g] = len(kept)
    if len(kept) == len(groups):
        return classes, groups
    out = [(p, interval, kept.get(g, -1)) for p, interval, g in classes]
    return out, [groups[g] for g in kept]


class TypedLevels(LevelEngine):
    """The optimal look-ahead's values for every state, a level at a time, with groups.

    ``classes``: per class (its own position, interval, group) (:func:`~.named.typed_kinds`);
    ``groups``: per group its interval; the rest as :class:`~.levels.LevelEngine`'s.
    """

    typed = True
    #: This engine's own charges (:attr:`~.levels.LevelEngine.units_per_call`): a unit costs
    #: less here than the named engine's, a level's move more (its groups' normal forms).
    units_per_call = 90
    move_units = 1_575
    run_units = 270_000

    def __init__(
        self,
        sizes: tuple[int, ...],
        classes: list[TypedClass],
        groups: list[Interval],
        n: int,
        hand: int,
        seen: int,
        reads: int,
        per_turn: int,
        charge: Callable[[int], None],
    ) -> None:
        self.sizes = sizes
        self.n, self.hand, self.seen, self.reads, self.per_turn = n, hand, seen, reads, per_turn
        self.charge = charge
        self.classes, self.groups = _without_implied(sizes, classes, groups)
        classes, groups = self.classes, self.groups
        #: Classes with tests of their own.
        self.named = [c for c, (p, _, _) in enumerate(classes) if p >= 0]
        # Digits: (home, interval, h, k) for each live (h, k) a class of that interval can be
        # in: home a group (its named classes while it is not settled) or -1 (every named
        # class). A digit's radix holds the classes that can be in it (h + k is at most a
        # class's size).
        self.slot: dict[tuple[int, Interval, int, int], int] = {}
        radices: list[int] = []
        infos: list[tuple[int, int, int, int | None]] = []  # (h, k, lo, hi) per digit
        self.home: list[int] = []  # per digit its home
        for home in [-1, *range(len(groups))]:
            by_interval: dict[Interval, list[int]] = {}
            for c in self.named:
                _, interval, g = classes[c]
                if home in (-1, g):
                    by_interval.setdefault(interval, []).append(c)
            for interval, members in by_interval.items():
                lo, hi = interval
                for h in range((lo if hi is None else hi) + 1):
                    for k in range(max(sizes[c] for c in members) - h + 1):
                        fit = sum(1 for c in members if sizes[c] >= h + k)
                        if fit and self._classify(lo, hi, h, k)[0] == "live":
                            self.slot[(home, interval, h, k)] = len(radices)
                            radices.append(1 << fit.bit_length())
                            infos.append((h, k, lo, hi))
                            self.home.append(home)
        # Per group a count (no card of it left: k = 0) and a pool (a card each: k = 1).
        self.count_digit: list[int] = []
        self.pool_digit: list[int] = []
        losing = sum(sizes[c] for c in self.named if classes[c][1][1] is not None)
        for g, (lo, hi) in enumerate(groups):
            self.count_digit.append(len(radices))
            radices.append(1 << (lo if hi is None else hi).bit_length())
            infos.append((0, 0, 0, None))
            self.home.append(-2)
            self.pool_digit.append(len(radices))
            size = sum(sizes[c] for c, (_, _, g2) in enumerate(classes) if g2 == g)
            radices.append(1 << size.bit_length())
            infos.append((0, 1, 0, None))
            self.home.append(g)
            if hi is not None:
                losing += size
        self._place(radices, infos, losing)
        if not self.fits:
            # A key past 62 bits: the tables below would not fit numpy's integers, and the
            # caller hands the query back to the recursion.
            return
        self.keep_delta: list[int | None] = []
        self.under_delta: list[int | None] = []
        for d, (h, k, lo, hi) in enumerate(infos):
            home = self.home[d]
            if home == -2:  # a count: no card of it
                self.keep_delta.append(None)
                self.under_delta.append(None)
            elif d in self.pool_digit:
                self.keep_delta.append(self.weights[self.count_digit[home]] - self.weights[d])
                self.under_delta.append(-self.weights[d])
            else:
                h_kept = h + 1 if hi is not None else min(h + 1, lo)
                kept = self._moved(d, home, (lo, hi), h_kept, k - 1)
                if kept is not None and home >= 0:
                    kept += self.weights[self.count_digit[home]]
                self.keep_delta.append(kept)
                self.under_delta.append(self._moved(d, home, (lo, hi), h, k - 1))
        #: Per digit of a group's, its digit of no group.
        self.unhomed = {
            d: self.slot[(-1, (lo, hi), h, k)]
            for d, (h, k, lo, hi) in enumerate(infos)
            if self.home[d] >= 0 and d not in self.pool_digit
        }
        #: Per group, its named classes' digits.
        self.digits_of = [
            [d for d in self.unhomed if self.home[d] == g] for g in range(len(groups))
        ]
        # Per group, its digits' fields read at once (a column of shifts and masks) and what
        # each sum of its normal form is per card of a digit, so that a normal form is a few
        # array operations whatever the group's digits.
        self.group_shifts: list[Ints] = []
        self.group_masks: list[Ints] = []
        self.group_left: list[Ints] = []  # cards left per digit's class
        self.group_settle: list[Ints] = []  # the key's change per class when settled
        self.group_lose: list[Ints] = []  # the key's change per class when losing
        self.group_short: list[Ints] = []  # the digits short of their own least
        self.group_need: list[Ints] = []  # per digit's class, its cards short of its least
        for digits in self.digits_of:
            column = np.array([self.shifts[d] for d in digits], np.int64).reshape(-1, 1)
            self.group_shifts.append(column)
            self.group_masks.append(
                np.array([self.masks[d] for d in digits], np.int64).reshape(-1, 1)
            )
            self.group_left.append(np.array([self.infos[d][1] for d in digits], np.int64))
            self.group_settle.append(
                np.array(
                    [self.weights[self.unhomed[d]] - self.weights[d] for d in digits], np.int64
                )
            )
            self.group_lose.append(
                np.array(
                    [self.infos[d][1] * self.losing_weight - self.weights[d] for d in digits],
                    np.int64,
                )
            )
            self.group_short.append(
                np.array(
                    [i for i, d in enumerate(digits) if self.infos[d][0] < self.infos[d][2]],
                    np.int64,
                )
            )
            self.group_need.append(
                np.array([max(self.infos[d][2] - self.infos[d][0], 0) for d in digits], np.int64)
            )
        #: The groups bounded from below.
        self.short_groups = [g for g, (lo, _) in enumerate(groups) if lo]
        named_digits = sum(len(self.digits_of[g]) for g in self.short_groups)
        #: The bits of each sum of :meth:`_group_sums` in :attr:`group_tables` (one width for
        #: both, so the tables and their reading agree).
        self.sum_width = max(1, self.n).bit_length()
        #: Per byte of a key, the groups' sums of :meth:`_group_sums` packed in one integer:
        #: None when they would not fit, or when the groups have so few named digits that
        #: reading them one by one takes fewer steps.
        self.group_tables = (
            self._group_byte_tables() if self.fits and named_digits >= _TABLE_DIGITS else None
        )
        self._start()

    def _group_byte_tables(self) -> list[Ints] | None:
        """Per byte of a key, each group's two sums of :meth:`_group_sums` its bits add (a
        field each, as the level engine's byte tables): the group's count and its named
        classes' shortfalls; its count and its cards left. Both are linear in the digits and
        never negative, and at most the pile, so the fields of a live key never carry into
        each other (a lost key, -1, reads as garbage that :meth:`_sums` masks out)."""
        width = self.sum_width
        if 2 * len(self.short_groups) * width > 63:
            return None
        bits = self.losing_shift + self.losing_bits
        weight = [0] * (8 * ((bits + 7) // 8))
        for i, g in enumerate(self.short_groups):
            short, left = 2 * i * width, (2 * i + 1) * width
            coefficients = {self.count_digit[g]: (1 << short) + (1 << left)}
            coefficients[self.pool_digit[g]] = 1 << left
            for d in self.digits_of[g]:
                h, k, least, _ = self.infos[d]
                coefficients[d] = (max(least - h, 0) << short) + (k << left)
            for d, coefficient in coefficients.items():
                for b in range(self.masks[d].bit_length()):
                    weight[self.shifts[d] + b] += coefficient << b
        byte = np.arange(256, dtype=np.int64)
        ones = (byte[:, None] >> np.arange(8, dtype=np.int64)) & 1
        return [
            ones @ np.array(weight[i : i + 8], dtype=np.int64) for i in range(0, len(weight), 8)
        ]

    def _group_sums(self, keys: Ints) -> list[tuple[Ints, Ints]]:
        """Per group bounded from below (:attr:`short_groups`): its count plus its named
        classes' shortfalls, and its count plus its cards left."""
        if self.group_tables is None:
            out = []
            for g in self.short_groups:
                count = self._field(keys, self.count_digit[g])
                short = count.copy()
                left = count + self._field(keys, self.pool_digit[g])
                for d in self.digits_of[g]:
                    m = self._field(keys, d)
                    h, k, least, _ = self.infos[d]
                    left += m * k
                    if h < least:
                        short += m * (least - h)
                out.append((short, left))
            return out
        packed = np.take(self.group_tables[0], keys & 255)
        for i, table in enumerate(self.group_tables[1:], 1):
            packed += np.take(table, (keys >> (8 * i)) & 255)
        width = self.sum_width
        mask = (1 << width) - 1
        return [
            ((packed >> (2 * i * width)) & mask, (packed >> ((2 * i + 1) * width)) & mask)
            for i in range(len(self.short_groups))
        ]

    def _moved(self, d: int, home: int, interval: Interval, h: int, k: int) -> int | None:
        """The change of the key when the class in digit ``d`` comes to hold ``h`` with
        ``k`` left (None: lost)."""
        what, pooled = self._classify(*interval, h, k)
        if what == "lost":
            return None
        out = -self.weights[d]
        if what == "live":
            out += self.weights[self.slot[(home, interval, h, k)]]
        elif what == "losing":
            out += pooled * self.losing_weight
        elif home >= 0:  # inert by its own tests: its cards move the group's count only
            out += k * self.weights[self.pool_digit[home]]
        return out

    def _field(self, keys: Ints, d: int) -> Ints:
        return (keys >> self.shifts[d]) & self.masks[d]

    def _normal(self, d: int, keys: Ints, kept: bool) -> Ints:
        home = self.home[d] if d >= 0 else -1
        if home < 0:
            return keys
        lo, hi = self.groups[home]
        if hi is not None:
            return self._group_normal(home, keys)
        if not kept:
            return keys  # a count bounded from below only: lost by its reach in _sums
        info = self.infos[d]
        if d in self.unhomed and info[0] < info[2]:
            # A card its own class needs: the group's count and its named classes' shortfall
            # move together, and a group not settled before is not settled now.
            return keys
        # A count plus named shortfalls just come to its least settles the group.
        hit = np.flatnonzero(self._reached(home, keys) >= lo)
        if not len(hit):
            return keys
        out = keys.copy()
        out[hit] = self._settled(home, keys[hit])
        return out

    def _reached(self, g: int, keys: Ints) -> Ints:
        """Group ``g``'s count plus what its named classes still need of their least: the
        group's count in every hand in which each of them reaches its least. At the group's
        least, the group's own least holds wherever theirs do (each of their cards is the
        group's): it no longer tells hands apart."""
        count = self._field(keys, self.count_digit[g])
        if not len(self.group_need[g]):
            return count
        return count + self.group_need[g] @ self._group_fields(g, keys)

    def _settled(self, g: int, keys: Ints) -> Ints:
        """``keys`` with group ``g`` (bounded from below only, its count plus its named
        classes' shortfall at its least) settled: its count at its least, its pool one with
        the cards no test reads, its named classes of no group."""
        pool, count = self.pool_digit[g], self.count_digit[g]
        lo = self.groups[g][0]
        out = keys - self._field(keys, pool) * self.weights[pool]
        out += (lo - self._field(keys, count)) * self.weights[count]
        return out + self.group_settle[g] @ self._group_fields(g, keys)

    def _group_fields(self, g: int, keys: Ints) -> Ints:
        """Group ``g``'s named classes' digits of ``keys``: a row per digit."""
        return (keys >> self.group_shifts[g]) & self.group_masks[g]

    def _group_normal(self, g: int, keys: Ints) -> Ints:
        """``keys`` (-1: lost) with group ``g`` settled, losing or lost where it is so."""
        lo, hi = self.groups[g]
        live = keys >= 0
        count = self._field(keys, self.count_digit[g])
        pool = self._field(keys, self.pool_digit[g])
        fields = self._group_fields(g, keys)
        # Integer products summed in 64 bits: a settled or losing key's change is the new
        # key less the old, both below 2**62, so a sum that wraps on the way ends right.
        left = pool + self.group_left[g] @ fields
        lost = live & (count + left < lo)
        settled = live & ~lost
        if lo:  # its least holds wherever its named classes' do (see _reached)
            settled &= count + self.group_need[g] @ fields >= lo
        losing = np.zeros_like(live)
        if hi is not None:
            settled &= count + left <= hi
            losing = live & ~lost & ~settled & (count == hi)
        if not (lost.any() or settled.any() or losing.any()):
            return keys
        out = keys.copy()
        base = (lo - count) * self.weights[self.count_digit[g]]
        base -= pool * self.weights[self.pool_digit[g]]
        rows = np.flatnonzero(settled)
        if len(rows):
            out[rows] += base[rows] + self.group_settle[g] @ fields[:, rows]
        rows = np.flatnonzero(losing)
        if len(rows):
            # Short of its own least, and no card of the group can be kept any more.
            short = (fields[self.group_short[g]][:, rows] > 0).any(axis=0)
            lost[rows[short]] = True
            rows = rows[~short]
            moved = base[rows] + pool[rows] * self.losing_weight
            out[rows] += moved + self.group_lose[g] @ fields[:, rows]
        out[lost] = -1
        return out

    def _sums(self, keys: Ints) -> tuple[Ints, Ints, Ints, Ints]:
        """The level engine's sums, the cards needed raised by each group's shortfall past
        that of its named classes (each of their cards counts for both), and more than any
        deal draws for a lost state (-1)."""
        losing, live, need, risky = super()._sums(keys)
        lost = keys < 0
        for g, (got, left) in zip(self.short_groups, self._group_sums(keys), strict=True):
            lo = self.groups[g][0]
            need += np.maximum(lo - got, 0)
            lost |= left < lo  # the group's cards left cannot bring it to its least
        need[lost] = _NEVER
        return losing, live, need, risky

    # -- states from cards held and left ----------------------------------------------------

    def keys_of(self, held: Ints, left: Ints) -> Ints:
        """:meth:`key_of` of every column of ``held`` and ``left`` (a row per class); -1
        where lost."""
        width = held.shape[1]
        keys = np.zeros(width, dtype=np.int64)
        lost = np.zeros(width, dtype=bool)
        counts = [np.zeros(width, dtype=np.int64) for _ in self.groups]
        for c, (_, interval, g) in enumerate(self.classes):
            if g >= 0:
                counts[g] += held[c]
            if interval == (0, None):
                if g >= 0:
                    keys += left[c] * self.weights[self.pool_digit[g]]
                continue
            got = self._part_table(c, self._own)[held[c] * (self.sizes[c] + 1) + left[c]]
            keys += got
            lost |= got < 0
        for g, (lo, hi) in enumerate(self.groups):
            if hi is not None:
                lost |= counts[g] > hi
            keys += (
                np.minimum(counts[g], lo if hi is None else hi) * self.weights[self.count_digit[g]]
            )
        keys = np.where(lost, -1, keys)
        for g in range(len(self.groups)):
            keys = self._group_normal(g, keys)
        return keys

    def _own(self, c: int, h: int, k: int) -> int | None:
        """What named class ``c`` holding ``h`` with ``k`` left adds to a key before its
        group's normal form (its group not settled); None when lost."""
        _, (lo, hi), g = self.classes[c]
        if hi is None:
            h = min(h, lo)
        what, pooled = self._classify(lo, hi, h, k)
        if what == "lost":
            return None
        if what == "live":
            return self.weights[self.slot[(g, (lo, hi), h, k)]]
        if what == "losing":
            return pooled * self.losing_weight
        return k * self.weights[self.pool_digit[g]] if g >= 0 else 0

    def key_of(self, held: Sequence[int], left: Sequence[int] | None = None) -> int | None:
        """The state holding ``held`` (cards per class) with ``left`` in the pile (by
        default all the others); None when it is lost (:meth:`keys_of` of one column, in
        Python integers: a hand's state is asked for one at a time)."""
        key = 0
        counts = [0] * len(self.groups)
        for c, (_, interval, g) in enumerate(self.classes):
            h = held[c]
            k = self.sizes[c] - h if left is None else left[c]
            if g >= 0:
                counts[g] += h
            if interval == (0, None):
                key += k * self.weights[self.pool_digit[g]] if g >= 0 else 0
                continue
            part = self._own(c, h, k)
            if part is None:
                return None
            key += part
        for g, (lo, hi) in enumerate(self.groups):
            if hi is not None and counts[g] > hi:
                return None
            key += min(counts[g], lo if hi is None else hi) * self.weights[self.count_digit[g]]
        for g in range(len(self.groups)):
            got = self._group_normal_one(g, key)
            if got is None:
                return None
            key = got
        return key

    def _group_normal_one(self, g: int, key: int) -> int | None:
        """:meth:`_group_normal` of one key (None: lost)."""
        lo, hi = self.groups[g]
        count = self._one(key, self.count_digit[g])
        pool = self._one(key, self.pool_digit[g])
        left = pool
        for d in self.digits_of[g]:
            left += self._one(key, d) * self.infos[d][1]
        if count + left < lo:
            return None
        out = key + (lo - count) * self.weights[self.count_digit[g]]
        out -= pool * self.weights[self.pool_digit[g]]
        reached = count + sum(
            self._one(key, d) * max(self.infos[d][2] - self.infos[d][0], 0)
            for d in self.digits_of[g]
        )
        if reached >= lo and (hi is None or count + left <= hi):
            for d in self.digits_of[g]:
                out += self._one(key, d) * (self.weights[self.unhomed[d]] - self.weights[d])
            return out
        if hi is None or count != hi:
            return key
        out += pool * self.losing_weight
        for d in self.digits_of[g]:
            m = self._one(key, d)
            h, k, least, _ = self.infos[d]
            if m and h < least:
                return None
            out += m * (k * self.losing_weight - self.weights[d])
        return out

    def _kind(self, c: int) -> tuple[object, ...]:
        # Classes alike for the return table's hands: the same tests and the same group.
        p, interval, g = self.classes[c]
        return (p >= 0, interval, g)

    def _one(self, key: int, d: int) -> int:
        return (key >> self.shifts[d]) & self.masks[d]

    def _states(self, comps: Ints) -> Ints:
        """The state of holding ``comps`` (rows) with the rest in the pile; -1 when lost."""
        sizes = np.asarray(self.sizes, dtype=np.int64)
        return self.keys_of(comps.T, sizes[:, None] - comps.T)
