"""The optimal look-ahead on named cards, a level of states at a time (numpy).

For a query whose every tracked class is counted by one selector of its own (``name:X``
tests: ``>=``, ``<=``, ``=`` in any mix, all of which must hold), a state of the look-ahead
is a *multiset*: how many classes of each kind (the interval of counts its tests allow) hold
``h`` cards with ``k`` left in the pile. Classes alike but for their name and size are then
one state, as in :mod:`~deckcheck.draws.exact.sequential`, and drawing a card of a class in
a given (kind, ``h``, ``k``) moves the multiset by a fixed amount: a state is one integer (a
digit per (kind, ``h``, ``k``)), and its children are that integer plus a constant. So every
state with the same cards held, cards gone and look spent (a *level*) is valued at once with
array operations: the children merged into the next level (where each lands kept as it is
listed), a look's two branches compared, the values summed.

Exact all the same: values are carried modulo a few primes (their product above every value
the recursion can reach) and as floating-point probabilities; a look keeps the branch the
floats say is larger, which they say right unless the two are within a relative 10^-9 of
each other (the rounding of a few dozen sums stays below 10^-13). There the residues decide:
equal, the branches are worth the same and either may be kept; unequal, the level engine
gives up (:class:`Ambiguous`) and the recursion is used. The answer is read back from the
residues by the Chinese remainder theorem and checked against the float.

States are settled as the recursion settles them by their counts: a class whose cards left
cannot bring it to its least is lost, as are more cards needed than are still to draw; no
class needing cards, none that can still break and no losing cards left is won. A class at
the most its tests allow loses on one more card: its cards left are one pool; a class that
can no longer break its most (too few cards left) and needs none is inert, like the cards no
test reads. A won state is not gone on from: one reached only through won states is added
as won when asked for (:meth:`LevelEngine._ensure`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from deckcheck.core.numeric import np, npt
from deckcheck.draws.exact.hands import Hands
from deckcheck.draws.exact.named import Interval

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
#: Rows, weights and where children are, kept from listing a level to valuing it.
Small = npt.NDArray[np.int32]
#: A level: (cards held, cards gone, look spent).
Level = tuple[int, int, bool]
#: Where a part of a level's children lands: the child level and the part's index there.
Part = tuple[Level, int]

#: Relative gap below which a look's two branches are compared by their residues.
_CLOSE = 1e-9
#: Share of a level's open states past which a move is weighed over all of them (its
#: children's values gathered for every state, 0 for those it does not move) rather than
#: over those it moves (their sums then scattered back, which costs more per state).
_DENSE = 0.4


class Ambiguous(Exception):
    """Two branches of a look too close for the floats and not equal: the recursion decides."""


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _moduli(bits: int, above: int) -> tuple[int, ...]:
    """Primes below ``2**bits``, largest first, whose product is above ``above``."""
    out: list[int] = []
    product = 1
    n = (1 << bits) - 1
    while product <= above:
        while not _is_prime(n):
            n -= 2
        out.append(n)
        product *= n
        n -= 2
    return tuple(out)


def _drift(moves: int, reads: int) -> float:
    """A bound on the relative error of every state's float: along a deal at most ``reads``
    levels, each of at most ``moves`` products, as many sums of values that are not negative
    and a division: ``gamma_K = K u / (1 - K u)`` of ``K`` roundings (u = 2**-53), bounded
    by ``2 K u`` (K u at most a half). A look's max adds none; a won state's 1.0 is exact."""
    roundings = (2 * moves + 1) * (reads + 1)
    return 2 * roundings * 2.0**-53 if roundings * 2.0**-53 <= 0.5 else math.inf


def _reach(full: int, drift: float) -> int:
    """What the moduli's product must be above, for values up to ``full``.

    With floats that drift at most a quarter of :data:`_CLOSE`, less than every value: two
    values the residues say are equal are compared only when their floats are within
    :data:`_CLOSE` (differing by at most ``2 * _CLOSE * full``), and a value is read back
    as the one of its residues nearest its float (within ``drift * full``); so a product
    above ``4 * _CLOSE * full`` (rounded up, plus 2) tells them apart. Otherwise above twice
    every value, as the residues alone read it."""
    if 4 * drift <= _CLOSE:
        return math.ceil(4 * Fraction(_CLOSE) * full) + 2
    return 2 * full


def _lift(residue: int, product: int, f: float, full: int) -> int:
    """The value of scale ``full`` whose residue modulo ``product`` is ``residue`` nearest
    its float ``f`` (see :func:`_reach`: the only one within its drift)."""
    if product > 2 * full:
        return residue
    a, b = f.as_integer_ratio()  # f * full = a * full / b, exactly: integers all along
    gap = a * full - residue * b
    return residue + product * ((2 * gap + b * product) // (2 * b * product))


def _running(flags: npt.NDArray[np.bool_]) -> Small:
    """How many of ``flags`` are set up to each (integers summed in place: numpy's running
    sum of booleans casts as it goes, slower; 32 bits, as a level's rows are)."""
    out = flags.astype(np.int32)
    return np.cumsum(out, out=out)


def _gather(
    acc: tuple[Floats, Ints],
    rows: Small,
    dense: bool,
    f: Floats,
    r: Ints,
    w: Small,
    own: bool = True,
) -> None:
    """Add a move's children's values ``f`` and residues ``r`` times its weights ``w`` to
    the level's sums ``acc``: over every open state (``dense``), or at ``rows``. ``own``:
    ``f`` and ``r`` are the move's own (multiplied in place), else left as they are.

    No reduction until the end: the weights add up to the pile, so the sum stays below pile
    * modulus < 2**62 (see the moduli's bits)."""
    acc_f, acc_r = acc
    if own:
        f *= w
        r *= w
    else:
        f = f * w
        r = r * w
    if dense:
        acc_f += f
        acc_r += r
    else:
        acc_f[rows] += f
        # A row at a time: numpy's indexing along the second axis of two is slower.
        for acc_row, r_row in zip(acc_r, r, strict=True):
            acc_row[rows] += r_row


def _reduced(acc: Ints, moduli: Sequence[int]) -> Ints:
    """``acc`` (a row per modulus, none negative) modulo each row's modulus, in place: a
    division by one integer at a time, numpy's fast one (its remainder is not)."""
    quotient = np.empty_like(acc[0])
    for row, p in zip(acc, moduli, strict=True):
        np.floor_divide(row, p, out=quotient)
        quotient *= p
        row -= quotient
    return acc


def _home(level: Level) -> Level:
    """Where ``level``'s states are listed: a level that has spent its turn's look (only a
    turn's first draw can look) with the one that has not. Both hold the same cards with as
    many gone, so the same states reach them, and a state's kept children are the same: the
    states are listed once, and valued for each of the two that a deal reaches."""
    held, gone, looked = level
    return (held, gone, False) if looked else level


def _add(
    pending: dict[Level, list[Ints]],
    reached: dict[Level, set[bool]],
    level: Level,
    needles: Ints,
) -> Part:
    """Put ``needles`` among the children of ``level`` (listed at its :func:`_home`): where
    they will be found."""
    home = _home(level)
    reached.setdefault(home, set()).add(level[2])
    parts = pending.setdefault(home, [])
    parts.append(needles)
    return level, len(parts) - 1


class LevelEngine:
    """The optimal look-ahead's values for every state, a level at a time.

    ``sizes``: cards per class; ``kinds``: per class its interval (:func:`named_kinds`);
    ``n``: pile size; ``hand``, ``seen``, ``reads``, ``per_turn``: as the sequential engine's;
    ``charge(units)``: told of the work before each level is done (raises to stop it).
    """

    #: Whether types are counted over the classes (:mod:`~deckcheck.draws.exact.typed`).
    typed = False
    #: Units (a state of a level times the moves it makes, see :meth:`run`) one call of the
    #: recursion stands for in the work counted against the exact limit; units each move of
    #: a level is charged whatever the level's size (its own steps, a dozen numpy calls);
    #: units a run is charged once (its first numpy steps and tables): each engine's own,
    #: measured by ``bench/bench_level_charge.py`` so that every query measured is charged
    #: at least its time (figures in ``docs/performance.md``).
    units_per_call = 72
    move_units = 1_170
    run_units = 90_000

    def __init__(
        self,
        sizes: tuple[int, ...],
        kinds: list[tuple[int, Interval]],
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
        # The kinds: classes with a test, grouped by interval.
        by_interval: dict[Interval, list[int]] = {}
        for c, (p, interval) in enumerate(kinds):
            if p >= 0 and interval != (0, None):
                by_interval.setdefault(interval, []).append(c)
        self.interval_of: dict[int, Interval] = {}
        # Digits: (interval, h, k) for every live (h, k); radix the kind's classes + 1.
        self.digit: dict[tuple[Interval, int, int], int] = {}
        radices: list[int] = []
        infos: list[tuple[int, int, int, int | None]] = []  # (h, k, lo, hi) per digit
        for interval, members in by_interval.items():
            lo, hi = interval
            for c in members:
                self.interval_of[c] = interval
            biggest = max(sizes[c] for c in members)
            for h in range((lo if hi is None else hi) + 1):
                for k in range(biggest - h + 1):
                    if self._classify(lo, hi, h, k)[0] == "live":
                        self.digit[(interval, h, k)] = len(radices)
                        radices.append(1 << len(members).bit_length())
                        infos.append((h, k, lo, hi))
        self._place(radices, infos, sum(sizes))
        # Per digit: the change of the key when a card of it is kept / put under (None: lost).
        self.keep_delta: list[int | None] = []
        self.under_delta: list[int | None] = []
        for d, (h, k, lo, hi) in enumerate(infos):
            self.keep_delta.append(self._delta(d, lo, hi, h + 1, k - 1))
            self.under_delta.append(self._delta(d, lo, hi, h, k - 1))
        self._start()

    def _place(
        self, radices: list[int], infos: list[tuple[int, int, int, int | None]], losing: int
    ) -> None:
        """Each digit a few bits of the key (radices are powers of two: shifts, not
        divisions), then the losing cards (at most ``losing``)."""
        self.shifts: list[int] = []
        self.masks: list[int] = []
        self.weights: list[int] = []
        bit = 0
        for r in radices:
            self.shifts.append(bit)
            self.masks.append(r - 1)
            self.weights.append(1 << bit)
            bit += r.bit_length() - 1
        self.losing_shift = bit
        self.losing_weight = 1 << bit
        self.losing_bits = max(1, losing).bit_length()
        self.fits = bit + self.losing_bits < 62
        self.radices = radices
        self.infos = infos
        #: The digits a card can move: those with cards left (not a group's count).
        self.moving = [d for d, info in enumerate(infos) if info[1]]
        self.tables = self._byte_tables() if self.fits else None

    def _start(self) -> None:
        """The moduli and the empty tables of levels and values."""
        # Residues: w * r below 2**62 for every weight w (at most the pile).
        bits = 61 - max(1, self.n).bit_length()
        self.drift = _drift(len(self.moving) + 2, self.reads)
        self.moduli = _moduli(bits, _reach(math.perm(self.n, self.reads), self.drift))
        self.levels: dict[tuple[int, int, bool], Ints] = {}
        #: The open states of the level being listed and their :meth:`_held_apart`.
        self._listed: tuple[Ints, tuple[Ints, Ints]] = (
            np.zeros(0, np.int64),
            (np.zeros(0, np.int64),) * 2,
        )
        self.won: dict[tuple[int, int, bool], npt.NDArray[np.bool_]] = {}
        self.values: dict[tuple[int, int, bool], tuple[Floats, Ints]] = {}
        #: Per class, what it adds to a key, by cards held and left (-1: lost); see keys_of.
        self.parts: dict[int, Ints] = {}

    def _normal(self, d: int, keys: Ints, kept: bool) -> Ints:
        """The children ``keys`` of a move of digit ``d`` (-1: the losing or the other
        cards), the card kept or put under, in their normal form; -1 for a lost one (none
        here: see the typed engine)."""
        return keys

    @staticmethod
    def _classify(lo: int, hi: int | None, h: int, k: int) -> tuple[str, int]:
        """What a class of interval (lo, hi) holding ``h`` with ``k`` left is: ``lost``,
        ``inert`` (no card of it can change the answer), ``losing`` (one more kept loses:
        its ``k`` cards join the losing pool) or ``live``."""
        if hi is not None and (h > hi or lo > hi):
            return "lost", 0  # past its most, or a most below its least
        if h + k < lo:
            return "lost", 0
        if h >= lo and (hi is None or h + k <= hi):
            return "inert", 0
        if hi is not None and h == hi:
            return "losing", k
        return "live", 0

    def _delta(self, d: int, lo: int, hi: int | None, h: int, k: int) -> int | None:
        interval = (lo, hi)
        what, pooled = self._classify(lo, hi, h, k)
        if what == "lost":
            return None
        out = -self.weights[d]
        if what == "live":
            out += self.weights[self.digit[(interval, h, k)]]
        elif what == "losing":
            out += pooled * self.losing_weight
        return out

    def _part(self, c: int, h: int, k: int) -> int | None:
        """What class ``c`` holding ``h`` with ``k`` left adds to a key; None when lost."""
        interval = self.interval_of[c]
        lo, hi = interval
        if hi is None:
            h = min(h, lo)
        what, pooled = self._classify(lo, hi, h, k)
        if what == "lost":
            return None
        if what == "live":
            return self.weights[self.digit[(interval, h, k)]]
        return pooled * self.losing_weight if what == "losing" else 0

    def key_of(self, held: Sequence[int], left: Sequence[int] | None = None) -> int | None:
        """The state holding ``held`` (cards per class) with ``left`` in the pile (by
        default all the others); None when it is lost."""
        key = 0
        for c in self.interval_of:
            part = self._part(c, held[c], self.sizes[c] - held[c] if left is None else left[c])
            if part is None:
                return None
            key += part
        return key

    def keys_of(self, held: Ints, left: Ints) -> Ints:
        """:meth:`key_of` of every column of ``held`` and ``left`` (a row per class); -1
        where lost."""
        keys = np.zeros(held.shape[1], dtype=np.int64)
        lost = np.zeros(held.shape[1], dtype=bool)
        for c in self.interval_of:
            got = self._part_table(c, self._part)[held[c] * (self.sizes[c] + 1) + left[c]]
            keys += got
            lost |= got < 0
        return np.where(lost, -1, keys)

    def _part_table(self, c: int, part_of: Callable[[int, int, int], int | None]) -> Ints:
        """Class ``c``'s part of a key for each (held ``h``, left ``k``), at row
        ``h * (size + 1) + k``, -1 where it has none: ``part_of(c, h, k)``, worked out once per
        class (h + k above the class's size is no state: held and left are apart)."""
        table = self.parts.get(c)
        if table is None:
            side = self.sizes[c] + 1
            found = [
                part_of(c, h, k) if h + k < side else None for h in range(side) for k in range(side)
            ]
            table = self.parts[c] = np.array([-1 if p is None else p for p in found])
        return table

    # -- per level ----------------------------------------------------------------------

    def _byte_tables(self) -> list[Ints] | None:
        """Per byte of a key, the four sums of :meth:`_sums` its bits add, packed in one
        integer (a field each); None when a field would not fit.

        Each sum is linear in the digits, so in the key's bits: a digit of ``m`` adds ``m``
        times its coefficient, and ``m``'s bit of weight ``2**b`` adds ``2**b`` times it,
        whatever byte it falls in. Every sum is at most the pile, and every byte's share is
        not negative, so the fields never carry into each other."""
        width = max(1, self.n).bit_length()
        if 4 * width > 63:
            return None
        bits = self.losing_shift + self.losing_bits
        weight = [0] * (8 * ((bits + 7) // 8))
        for d, (h, k, lo, _) in enumerate(self.infos):
            coefficient = k << width  # live
            coefficient += ((lo - h) << (2 * width)) if h < lo else (k << (3 * width))
            for b in range(self.masks[d].bit_length()):
                weight[self.shifts[d] + b] += coefficient << b
        for j in range(self.losing_shift, len(weight)):
            weight[j] += 1 << (j - self.losing_shift)
        byte = np.arange(256, dtype=np.int64)
        ones = (byte[:, None] >> np.arange(8, dtype=np.int64)) & 1
        return [
            ones @ np.array(weight[i : i + 8], dtype=np.int64) for i in range(0, len(weight), 8)
        ]

    def _counts(self, keys: Ints) -> list[Ints]:
        """Per digit its count."""
        return [(keys >> s) & m for s, m in zip(self.shifts, self.masks, strict=True)]

    def _sums(self, keys: Ints) -> tuple[Ints, Ints, Ints, Ints]:
        """The losing cards; live cards left; cards still needed; cards left of the classes
        that can still break."""
        if self.tables is not None:
            packed = np.take(self.tables[0], keys & 255)
            for i, table in enumerate(self.tables[1:], 1):
                packed += np.take(table, (keys >> (8 * i)) & 255)
            width = max(1, self.n).bit_length()
            mask = (1 << width) - 1
            return (
                packed & mask,
                (packed >> width) & mask,
                (packed >> (2 * width)) & mask,
                packed >> (3 * width),
            )
        losing = keys >> self.losing_shift
        live = np.zeros_like(keys)
        need = np.zeros_like(keys)
        risky = np.zeros_like(keys)
        for m, (h, k, lo, _) in zip(self._counts(keys), self.infos, strict=True):
            live += m * k
            if h < lo:
                need += m * (lo - h)
            else:
                risky += m * k
        return losing, live, need, risky

    def _held_apart(self, keys: Ints) -> tuple[Ints, Ints]:
        """The losing cards and the live cards left (:meth:`_sums`' first two, which a
        group's count leaves as they are) of the open states ``keys``: those of the level
        being listed are known from settling it (:meth:`_settle`)."""
        listed, sums = self._listed
        if listed is keys:
            return sums
        losing, live, _, _ = LevelEngine._sums(self, keys)
        return losing, live

    def _settle(self, held: int, keys: Ints) -> tuple[Ints, Bools, Bools, tuple[Ints, Ints]]:
        """The states not lost, which of them are won, which of ``keys`` were kept, and the
        open states' losing cards and live cards left (:meth:`_sums`' first two, which
        listing them needs; none when no card is left to draw)."""
        losing, live, need, risky = self._sums(keys)
        to_draw = self.seen - held
        if to_draw == 0:
            keep = need == 0
            none = np.zeros(0, dtype=np.int64)
            return keys[keep], np.ones(int(keep.sum()), dtype=bool), keep, (none, none)
        keep = need <= to_draw
        losing, live = losing[keep], live[keep]
        won = (need[keep] == 0) & (risky[keep] == 0) & (losing == 0)
        return keys[keep], won, keep, (losing[~won], live[~won])

    def _look(self, held: int, looked: bool) -> bool:
        return (
            not looked
            and held >= self.hand
            and held < self.seen
            and (held - self.hand) % self.per_turn == 0
        )

    def own_steps(self) -> int:
        """Units the levels' own steps would be charged if every level a deal can reach had
        states to go on from (:meth:`~.levels.LevelEngine.run` charges each such level its
        steps, whatever its size): many levels of few states each (a long deal) are the
        recursion's to answer."""
        levels = {(0, 0, False)}
        todo = [(0, 0, False)]
        while todo:
            held, gone, looked = todo.pop()
            if held == self.seen or gone == self.reads:
                continue
            children = [(held + 1, gone + 1, False)]
            if self._look(held, looked):
                children.append((held, gone + 1, True))
            for child in children:
                if child not in levels:
                    levels.add(child)
                    todo.append(child)
        homes = {_home(lv) for lv in levels if lv[0] < self.seen and lv[1] < self.reads}
        steps = len(homes)
        return steps * self.move_units * (len(self.radices) + 2) + self.run_units

    def run(self) -> None:
        """Every level's states (from no card drawn), then their values (from the last).

        Listing a level's children also finds where each lands in its level (the children
        of all levels before it merged at once), so valuing a level is a gather per move. A
        level that has spent its look is listed with the one that has not (:func:`_home`).
        """
        start = (0, 0, False)
        root = self.key_of((0,) * len(self.sizes))
        found = np.array([] if root is None else [root], dtype=np.int64)
        keys, won, _, open_sums = self._settle(0, found)
        self.levels[start], self.won[start] = keys, won
        # Per level to list, its open states' losing cards and live cards left.
        apart: dict[Level, tuple[Ints, Ints]] = {start: open_sums}
        # Per listed level, whether the deal reaches it with its look spent, or not.
        reached: dict[Level, set[bool]] = {start: {False}}
        order: list[tuple[int, int, bool]] = []
        once = self.run_units  # charged with the first level
        # Per level, its moves: (rows of its open states, their weights, where the kept and
        # the put-under children are: a child level and the index of its part there).
        plans: dict[Level, list[tuple[Small, Small, Part | None, Part | None]]] = {}
        # Per listed child level, the parts of keys that reach it, then each part's rows in it.
        where: dict[Level, list[Small]] = {}
        for gone in range(self.reads + 1):
            pending: dict[Level, list[Ints]] = {}

            for level in [lv for lv in self.levels if lv[1] == gone]:
                order.append(level)
                held = level[0]
                keys = self.levels[level][~self.won[level]]
                self._listed = (keys, apart.pop(level))
                if held == self.seen or not len(keys):
                    continue
                look = False in reached[level] and self._look(held, False)
                # A state's moves: each digit with cards left (a group's count has none) whose
                # card has a child (kept, or put under when the turn looks), the losing cards
                # when it looks (put under), and the cards no test reads. A move with no child
                # is not made, and is charged per level only (its steps as
                # :meth:`own_steps` counts them), not per state.
                moving = [
                    d
                    for d in self.moving
                    if self.keep_delta[d] is not None or (look and self.under_delta[d] is not None)
                ]
                steps = self.move_units * (len(self.radices) + 2)
                self.charge(len(keys) * (len(moving) + 1 + look) + steps + once)
                once = 0
                losing, live = self._held_apart(keys)
                pool = (self.n - gone) - live - losing
                kept = (held + 1, gone + 1, False)
                under = (held, gone + 1, True)
                plan: list[tuple[Small, Small, Part | None, Part | None]] = []
                # Per move: its states' counts (a digit's classes, the losing cards, the
                # cards no test reads; none negative), the cards each of its classes has left
                # (the weight is count times that), where its kept and put-under cards go.
                moves: list[tuple[int, int, int | None, int | None, int]] = [
                    (
                        d,
                        self.infos[d][1],
                        self.keep_delta[d],
                        self.under_delta[d] if look else None,
                        d,
                    )
                    for d in moving
                ]
                if look:
                    moves.append((-1, 1, None, -self.losing_weight, -1))
                moves.append((-2, 1, 0, 0 if look else None, -1))
                for which, each, keep_delta, under_delta, d in moves:
                    if which >= 0:
                        count = (keys >> self.shifts[which]) & self.masks[which]
                    else:
                        count = losing if which == -1 else pool
                    # Which states move: found from booleans (numpy's search for the
                    # nonzero in 64-bit integers is slower).
                    rows = np.flatnonzero(count != 0)
                    if not len(rows):
                        continue
                    base = keys[rows]
                    to_kept = (
                        None
                        if keep_delta is None
                        else _add(pending, reached, kept, self._normal(d, base + keep_delta, True))
                    )
                    to_under = (
                        None
                        if under_delta is None
                        else _add(
                            pending, reached, under, self._normal(d, base + under_delta, False)
                        )
                    )
                    # Most states move: weighed whole (no rows picked out, none scattered).
                    dense = len(rows) > _DENSE * len(keys)
                    # Kept until the level is valued: 32 bits (rows and weights are small).
                    w = (count if dense else count[rows]).astype(np.int32)
                    if each != 1:
                        w *= each
                    plan.append((rows.astype(np.int32), w, to_kept, to_under))
                plans[level] = plan
            for level, parts in pending.items():
                merged = np.concatenate(parts)
                # Each part is sorted (a sorted level plus a constant): merged runs.
                by_key = np.argsort(merged, kind="stable")
                ordered = merged[by_key]
                first = np.empty(len(ordered), dtype=bool)
                first[:1] = True
                np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
                starts = np.flatnonzero(first)
                distinct = ordered[starts]
                keys, won, kept_mask, apart[level] = self._settle(level[0], distinct)
                self.levels[level], self.won[level] = keys, won
                # A child's row in the level; a lost one the zero row after the last state.
                row = np.where(kept_mask, _running(kept_mask) - 1, len(keys)).astype(
                    np.int32, copy=False
                )
                # Each distinct child's row, repeated for each time it was reached (its run
                # in the sorted children), then put back in the children's order.
                at = np.empty(len(merged), dtype=np.int32)
                at[by_key] = np.repeat(row, np.diff(starts, append=len(ordered)))
                cuts = np.cumsum([len(part) for part in parts])[:-1]
                where[level] = np.split(at, cuts)
        for level in reversed(order):
            self._value_level(level, plans.pop(level, []), where, reached[level])
        for level in order:
            held, gone, _ = level
            if True in reached[level]:
                spent = (held, gone, True)
                self.levels[spent], self.won[spent] = self.levels[level], self.won[level]
            if False not in reached[level]:
                del self.levels[level], self.won[level]

    def _full(self, gone: int) -> int:
        return math.perm(self.n - gone, self.reads - gone)

    def _won_residues(self, gone: int) -> Ints:
        full = self._full(gone)
        return np.array([[full % p] for p in self.moduli], dtype=np.int64)

    @staticmethod
    def _rows(at: Small, rows: Small, size: int, zero: int) -> Small:
        """Where a move's children are: ``at`` for ``rows``; for every open state when the
        move is weighed whole (``size`` of them), the zero row for those that do not move."""
        if len(at) == size:
            return at
        out = np.full(size, zero, dtype=np.int32)
        out[rows] = at
        return out

    def _value_level(
        self,
        level: Level,
        plan: list[tuple[Small, Small, Part | None, Part | None]],
        where: dict[Level, list[Small]],
        variants: set[bool],
    ) -> None:
        """The values of the listed ``level``'s states for each of ``variants`` the deal
        reaches (its look spent or not): the same kept children, and with the look the
        better of keeping and putting under."""
        gone = level[1]
        keys = self.levels[level]
        won = self.won[level]
        mods = np.array(self.moduli, dtype=np.int64)[:, None]
        open_ = np.flatnonzero(~won)
        pile = self.n - gone
        spent = True in variants
        looks = False in variants
        # Per variant the sums of its moves' weighed values (floats, residues).
        sums: dict[bool, tuple[Floats, Ints]] = {}
        if plan:
            for variant in variants:
                sums[variant] = (
                    np.zeros(len(open_)),
                    np.zeros((len(mods), len(open_)), dtype=np.int64),
                )
        for rows, w, to_kept, to_under in plan:
            dense = len(w) == len(open_)
            size = len(w)
            if to_kept is not None:
                kf, kr = self.values[to_kept[0]]
                home = _home(to_kept[0])
                at = self._rows(where[home][to_kept[1]], rows, size, len(kf) - 1)
                cf = np.take(kf, at)
                cr = np.take(kr, at, axis=1)
            else:
                cf = np.zeros(size)
                cr = np.zeros((len(mods), size), dtype=np.int64)
            if spent:
                # The look spent: the card is kept (the values left as they are for the
                # look's choice, made from them next).
                if looks:
                    _gather(sums[True], rows, dense, cf, cr, w, own=False)
                else:
                    _gather(sums[True], rows, dense, cf, cr, w)
            if not looks:
                continue
            if to_under is not None:
                uf_all, ur_all = self.values[to_under[0]]
                home = _home(to_under[0])
                uat = self._rows(where[home][to_under[1]], rows, size, len(uf_all) - 1)
                uf = np.take(uf_all, uat)
                larger = np.maximum(uf, cf)
                # Floats add up values that are not negative: 0 is exactly 0.
                close = np.flatnonzero((np.abs(uf - cf) <= _CLOSE * larger) & (larger > 0))
                if len(close) and (np.take(ur_all, uat[close], axis=1) != cr[:, close]).any():
                    raise Ambiguous
                under = np.flatnonzero(uf > cf)
                if len(under):
                    cf[under] = uf[under]
                    got = np.take(ur_all, uat[under], axis=1)
                    for cr_row, got_row in zip(cr, got, strict=True):
                        cr_row[under] = got_row
            _gather(sums[False], rows, dense, cf, cr, w)
        for variant in variants:
            # One more state of zeros: the value of a state not in the level (lost).
            # Residues a row per modulus (a gather along a row is numpy's fast one).
            f = np.zeros(len(keys) + 1)
            r = np.zeros((len(mods), len(keys) + 1), dtype=np.int64)
            f[:-1][won] = 1.0
            r[:, :-1][:, won] = self._won_residues(gone)
            if variant in sums:
                acc_f, acc_r = sums[variant]
                f[open_] = acc_f / pile
                for r_row, acc_row in zip(r, _reduced(acc_r, self.moduli), strict=True):
                    r_row[open_] = acc_row
            self.values[(level[0], gone, variant)] = (f, r)

    def _ensure(self, level: tuple[int, int, bool], needles: Ints) -> None:
        """Add to ``level`` the states of ``needles`` it lacks that are won: a won state is
        not gone on from, so one reached only through won states was never listed (its value
        is the whole scale). The others it lacks are lost (worth 0)."""
        keys = self.levels.get(level, np.zeros(0, dtype=np.int64))
        needles = needles[needles >= 0]
        if len(keys):
            idx = np.searchsorted(keys, needles)
            idx[idx == len(keys)] = 0
            needles = needles[keys[idx] != needles]
        if not len(needles):
            return
        missing = np.sort(needles)
        missing = missing[np.concatenate(([True], missing[1:] != missing[:-1]))]
        losing, _, need, risky = self._sums(missing)
        won = need == 0
        if level[0] < self.seen:
            won &= (risky == 0) & (losing == 0)
        add = missing[won]
        if not len(add):
            return
        f, r = self.values.get(level, (np.zeros(1), np.zeros((len(self.moduli), 1), np.int64)))
        merged = np.concatenate([keys, add])
        order = np.argsort(merged, kind="stable")
        f_new = np.concatenate([f[:-1], np.ones(len(add))])[order]
        r_add = np.repeat(self._won_residues(level[1]), len(add), axis=1)
        r_new = np.concatenate([r[:, :-1], r_add], axis=1)[:, order]
        self.levels[level] = merged[order]
        self.won[level] = np.concatenate(
            [self.won.get(level, np.zeros(0, dtype=bool)), np.ones(len(add), dtype=bool)]
        )[order]
        self.values[level] = (
            np.concatenate([f_new, [0.0]]),
            np.concatenate([r_new, np.zeros((len(self.moduli), 1), np.int64)], axis=1),
        )

    def at_least(
        self,
        first: tuple[tuple[int, int, bool], int | None],
        second: tuple[tuple[int, int, bool], int | None],
    ) -> bool:
        """Whether the state ``first`` (level, key) is worth at least ``second``, of the
        same level's scale (a look's two branches): by the floats where they tell, else
        exactly."""
        a, b = self._float(*first), self._float(*second)
        if abs(a - b) > _CLOSE * max(a, b):
            return a > b
        return self.exact(*first) >= self.exact(*second)

    def at_least_many(self, first: Level, a: Ints, second: Level, b: Ints) -> tuple[Bools, Bools]:
        """:meth:`at_least` of the states ``a`` of ``first`` and ``b`` of ``second`` (-1:
        lost), pair by pair; and the pairs it leaves to :meth:`at_least` (floats within the
        margin, residues unequal: the values must be read back to compare them)."""
        fa, ra, _ = self._read(first, a)
        fb, rb, _ = self._read(second, b)
        close = np.abs(fa - fb) <= _CLOSE * np.maximum(fa, fb)
        same = (ra == rb).all(axis=1)
        return np.where(close, same, fa > fb), close & ~same

    def _row(self, level: tuple[int, int, bool], key: int | None) -> int | None:
        """Where state ``key`` of ``level`` stands in its level's arrays; None for a state
        worth nothing (lost, or never reached)."""
        if key is None:
            return None
        self._ensure(level, np.array([key], dtype=np.int64))
        keys = self.levels.get(level)
        if keys is None:
            return None
        i = int(np.searchsorted(keys, key))
        if i == len(keys) or int(keys[i]) != key:
            return None
        return i

    def _float(self, level: tuple[int, int, bool], key: int | None) -> float:
        i = self._row(level, key)
        return 0.0 if i is None else float(self.values[level][0][i])

    def exact(self, level: tuple[int, int, bool], key: int | None) -> int:
        """The exact value (successful ordered continuations) of state ``key`` of ``level``."""
        i = self._row(level, key)
        if i is None:
            return 0
        f, rs = self.values[level]
        value = 0
        product = 1
        for r, p in zip(rs[:, i], self.moduli, strict=True):
            # Garner's step: value + product * t = r (mod p).
            t = (int(r) - value) * pow(product, -1, p) % p
            value += product * t
            product *= p
        full = self._full(level[1])
        value = _lift(value, product, float(f[i]), full)
        if not 0 <= value <= full or not math.isclose(
            value / full, float(f[i]), rel_tol=1e-9, abs_tol=1e-300
        ):
            raise ArithmeticError("residues and floats disagree")
        return value

    # -- the return mulligan --------------------------------------------------------------

    def _exact_all(self, level: tuple[int, int, bool]) -> list[int]:
        """Every state's exact value in ``level`` (the zero row after the last included)."""
        fs, rs = self.values[level]
        out: list[int] = []
        inverses = [1]
        product = 1
        for p in self.moduli[:-1]:
            product *= p
            inverses.append(product)
        product *= self.moduli[-1]
        inv = [pow(inverses[i] % p, -1, p) for i, p in enumerate(self.moduli)]
        full = self._full(level[1])
        for row, f in zip(rs.T.tolist(), fs.tolist(), strict=True):
            value = 0
            for i, (r, p) in enumerate(zip(row, self.moduli, strict=True)):
                value += inverses[i] * ((r - value) * inv[i] % p)
            value = _lift(value, product, f, full)
            if not 0 <= value <= full or not math.isclose(
                value / full, f, rel_tol=1e-9, abs_tol=1e-300
            ):
                raise ArithmeticError("residues and floats disagree")
            out.append(value)
        return out

    def _states(self, comps: Ints) -> Ints:
        """The state of holding ``comps`` (rows) with the rest in the pile; -1 when lost."""
        sizes = np.asarray(self.sizes, dtype=np.int64)
        return self.keys_of(comps.T, sizes[:, None] - comps.T)

    def _read(self, level: tuple[int, int, bool], states: Ints) -> tuple[Floats, Ints, Ints]:
        """Floats, residues and row (the zero row for a lost state) of ``states``."""
        self._ensure(level, states)
        keys = self.levels.get(level, np.zeros(0, dtype=np.int64))
        f, r = self.values.get(level, (np.zeros(1), np.zeros((len(self.moduli), 1), np.int64)))
        idx = np.searchsorted(keys, states)
        idx[idx == len(keys)] = 0
        if len(keys):
            idx[(keys[idx] != states) | (states < 0)] = len(keys)
        else:
            idx[:] = 0
        return f[idx], r[:, idx].T, idx

    def _alike(self) -> list[list[int]]:
        """The classes by orbit: alike when they have the same tests (for types, the same
        group too) and size: the same states for as many cards held."""
        by: dict[tuple[object, ...], list[int]] = {}
        for c, size in enumerate(self.sizes):
            by.setdefault((*self._kind(c), size), []).append(c)
        return list(by.values())

    def _kind(self, c: int) -> tuple[object, ...]:
        """What class ``c``'s part of a state depends on, besides its size and counts."""
        return (self.interval_of.get(c),)

    def _hand_states(self, hands: Hands, alike: list[list[int]], size: int) -> Ints:
        """The state of holding each hand of ``size`` cards of ``hands`` with the rest in
        the pile; -1 when lost."""
        rows = hands.rows[size]
        if self.typed:
            # A key is not a sum of parts here: each hand as one composition it stands for.
            comps = np.zeros((len(rows), len(self.sizes)), dtype=np.int64)
            for o, members in enumerate(alike):
                comps[:, members] = hands.spread(o, len(members))[hands.column(size, o)]
            return self._states(comps)
        base = self.key_of([0] * len(self.sizes))
        if base is None:
            return np.full(len(rows), -1, dtype=np.int64)
        key = np.full(len(rows), base, dtype=np.int64)
        lost = np.zeros(len(rows), dtype=np.int64)
        for o, members in enumerate(alike):
            c = members[0]
            if c not in self.interval_of:
                continue
            side = self.sizes[c]
            zero = self._part(c, 0, side)
            parts = [self._part(c, x, side - x) for x in range(min(side, self.hand) + 1)]
            shift = [0 if p is None or zero is None else p - zero for p in parts]
            column = hands.column(size, o)
            key += hands.table(o, shift)[column]
            lost += hands.table(o, [int(p is None) for p in parts])[column]
        return np.where(lost > 0, -1, key)

    def return_numerator(self, hand: int, count: int) -> int:
        """The return mulligan's optimal numerator over ``comb(N, hand) * comb(N - kept,
        count) * perm(N - hand, reads - hand)``: per opening hand the best of keeping it and
        each kept part of ``hand - count`` cards, weighed by the hand's ways.

        A kept part's value is its state's in the level holding it (its ordered draws, each
        ``count!`` times); the best kept part of each hand is found a card at a time (the best
        part of a hand is the best of those of the hands one card smaller), by floats checked
        by residues as a look's branches are (:class:`Ambiguous`). Hands are taken up to
        exchanging alike classes (:mod:`~deckcheck.draws.exact.hands`): the same values, their
        ways counting the hands each stands for."""
        keep = hand - count
        alike = self._alike()
        hands = Hands([(len(m), self.sizes[m[0]]) for m in alike], hand)
        if not hands.fits:
            raise Ambiguous  # no table of such hands in 64 bits: the walk
        kept_level = (keep, keep, False)
        kept_states = self._hand_states(hands, alike, keep)
        self._ensure(kept_level, kept_states)
        f_best, r_best, src = self._read(kept_level, kept_states)
        for j in range(keep + 1, hand + 1):
            size = len(hands.rows[j])
            best_f = np.full(size, -1.0)
            best_r = np.zeros((size, len(self.moduli)), dtype=np.int64)
            best_src = np.zeros(size, dtype=np.int64)
            for has, at in hands.smaller(j):
                cf, cr, cs = f_best[at], r_best[at], src[at]
                old_f, old_r = best_f[has], best_r[has]
                larger = np.maximum(cf, old_f)
                close = (np.abs(cf - old_f) <= _CLOSE * larger) & (larger > 0) & (old_f >= 0)
                if close.any() and (cr[close] != old_r[close]).any():
                    raise Ambiguous
                better = cf > old_f
                best_f[has] = np.where(better, cf, old_f)
                best_r[has] = np.where(better[:, None], cr, old_r)
                best_src[has] = np.where(better, cs, best_src[has])
            f_best, r_best, src = best_f, best_r, best_src
        hf, hr, hsrc = self._read((hand, hand, False), self._hand_states(hands, alike, hand))
        larger = np.maximum(hf, f_best)
        close = (np.abs(hf - f_best) <= _CLOSE * larger) & (larger > 0)
        if close.any():
            # The same probability when the residues say so (each side's own scale).
            redraw = [math.comb(self.n - keep, count) % p for p in self.moduli]
            fact = [pow(math.factorial(count), -1, p) for p in self.moduli]
            for i in np.flatnonzero(close).tolist():
                for m, p in enumerate(self.moduli):
                    keep_all = int(hr[i, m]) * redraw[m] % p
                    kept = int(r_best[i, m]) * fact[m] % p
                    if keep_all != kept:
                        raise Ambiguous
        returns = f_best > hf  # ties keep
        ways = hands.ways(hand)
        hand_level = (hand, hand, False)
        num = 0
        for level, mask, rows, scale in (
            (hand_level, ~returns, hsrc, math.comb(self.n - keep, count)),
            (kept_level, returns, src, 1),
        ):
            weighed = np.zeros(int(rows.max(initial=0)) + 1, dtype=np.int64)
            np.add.at(weighed, rows[mask], ways[mask])
            exact = self._exact_all(level) if level in self.values else [0]
            part = 0
            for row in np.flatnonzero(weighed).tolist():
                part += int(weighed[row]) * exact[row]
            if level == kept_level:
                part, rest = divmod(part, math.factorial(count))
                if rest:
                    raise ArithmeticError("kept parts' ordered draws are not count! each")
            num += part * scale
        return num
