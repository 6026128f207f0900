"""The optimal look-ahead over overlapping selectors, a level of states at a time (numpy).

Past the opening hand, the recursion of :mod:`~deckcheck.draws.exact.sequential` values
states of (cards left per class, capped counts held, cards held, look spent, cards gone) one
Python call at a time. Where each card counts for several selectors (``type:``,
``rarity:``, costs), some twenty classes split the pile, no two alike, and the level engines'
sharing of classes alike (:mod:`~deckcheck.draws.exact.levels`) has nothing to share. Here
every state with the same cards held, cards gone and look spent (a *level*) is valued at once
with array operations, from the hands the return table leaves open
(:mod:`~deckcheck.draws.exact.returned`).

A state is its capped counts and, per class, its cards left, in a normal form that keeps
only what the rest of the deal can tell apart (as the recursion's does):

- a class whose every count is at its cap changes nothing: its cards join the pool of
  cards no count reads;
- a class one more card of which breaks the query for good (every alternative past a most)
  loses when kept, whichever class it is: such cards are one count of losing cards (what
  the pile's size leaves);
- classes whose cards move the same counts (their counts not at their caps are the same)
  are one class: their cards left are put on the first of them.

All three depend on the capped counts alone, and each is kept once reached (counts only
grow), so they are tabulated once per capped count vector met (:meth:`AttributeLevels._ensure`).
A state is a key of one or a few 64-bit words: the capped counts' index (mixed radix, in the
low bits) and a field of bits per column (a class's cards left, the pool's), each wide
enough for every card that column can ever hold; the losing cards are the pile's cards in
no column (the level tells the pile's size). Keys are exact: two states whose words differ
are different, and states are merged by sorting one word mixed from a key's words, where
words that differ under one sort key are a collision (:class:`Collision`: the engine stops
and the recursion answers), never decided on. A card's move changes a key by a constant of
the tables; a child whose normal form changes (a count reaches its cap, a class starts to
lose) is put in it as it is made, by tables per capped count vector and class: the columns
that start to lose are cleared by a mask, those merged or pooled have their digits moved
(:meth:`AttributeLevels._renormal`).

The last turn is not listed: a level with at most two cards to draw and no look after its
own is valued in closed form from its states' cards per class (one card: a sum over the
classes of whether the query holds after one of theirs; two: over pairs of classes, one
product per capped count vector; a look: the better of its branches' sums, compared
exactly), so none of its children is made (:meth:`AttributeLevels._closed_sums`).

Values are exact integers: a state's value counts the orderings of the cards still to be
read under which the query holds, ``P(success) * perm(N - gone, reads - gone)``, as the
recursion's does, kept as limbs of :data:`LIMB_BITS` bits (64-bit integers, the carries
taken once per level), so a level's sums never overflow and a look's two branches are
compared exactly, limb by limb from the highest (ties keep, as the recursion's ``max``).

Work is charged before it is done (``charge``, raising past the limit): the tables for the
vectors met, each level's moves (states times moves) before they are made, each level's
children before they are merged, and each level valued in closed form (states times
classes) before its sums are worked out.

The levels' states and values are kept after the run: the simulated optimal player's
look-ahead decisions read a look's two children by their keys (:meth:`AttributeLevels.keeps`)
instead of the recursion's valuing them again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deckcheck.core.numeric import np, npt
from deckcheck.draws.exact.reduced import Reduced

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
#: A level: (cards held, cards gone, look spent).
Level = tuple[int, int, bool]
#: Per level, the parts of its children: each a key's words per child.
Pending = dict[Level, list[list[Ints]]]
#: Per alternative of a query: each test as (position, least passing count, most or None),
#: and sets of positions no class counts for two of, with the least count each needs (the
#: sequential engine's ``Bounds``).
Bounds = tuple[tuple[tuple[int, int, int | None], ...], tuple[tuple[tuple[int, int], ...], ...]]

#: Most capped count vectors the tables are made for (each a row of a table per class), and
#: most cells (vectors times classes) of a table: about 32 MB each, filled only where met.
MOST_VECTORS = 1 << 17
MOST_CELLS = 1 << 22
#: Bits of a limb of a value: a state's value is a few limbs (64-bit integers), so that a
#: level's sums of limbs times cards (at most the pile) stay far below ``2**63`` until their
#: carries are taken.
LIMB_BITS = 31
#: Most limbs of a value: values below ``2**124``.
MOST_LIMBS = 4
#: Most words of a state's key.
MOST_WORDS = 4
#: Bits of a word's digits (a key word stays positive, its moves' changes too).
WORD_BITS = 62
#: Largest integer a float64 sum counts exactly.
_EXACT_FLOAT = 1 << 53
#: More cards than any deal draws: what :attr:`AttributeLevels.need` says of counts with which
#: the query can no longer hold.
_NEVER = 1 << 30

#: Units of exact work (about 2 µs each) per table cell (capped count vectors times
#: classes): each tabulated at about 1 µs with its share of the level's look-ups.
TABLE_CELLS_PER_UNIT = 2
#: Moves per unit: a move of an open state (a card of a class it has, of its pool, of its
#: losing cards where the turn looks; kept and put under are two), made and weighed at
#: about 0.06 µs each.
MOVES_PER_UNIT = 28
#: State-classes per unit: each class of a level is looked for in every open state (a pass
#: over the states per class, the pool and the losing cards), about 0.03 µs each.
STATE_CLASSES_PER_UNIT = 48
#: Units per child merged into its level (sorted and compared), about 0.05 µs each.
CHILDREN_PER_UNIT = 34
#: Distinct states per unit, charged once the sort has told them (their digits read,
#: settled, kept), about 0.35 µs each.
STATES_PER_UNIT = 5
#: Units per level (its few dozen numpy calls, whatever its size).
LEVEL_UNITS = 400
#: Units per move's numpy calls (a class of a level, whatever its states).
MOVE_UNITS = 40
#: Most cards left to draw where a level is valued in closed form
#: (:meth:`AttributeLevels._closed`).
CLOSED_DRAWS = 2
#: Cells valued in closed form per unit, about 0.04 µs each (a state times a class some
#: state of its level has cards of, and :data:`CLOSED_STATE_CELLS` more a state; the pairs
#: of classes are worked out once per capped count vector), and two levels' units for its
#: numpy calls.
CLOSED_CELLS_PER_UNIT = 45
#: Cells a state of a closed-form level counts for whatever classes it holds (its own
#: sums and comparisons).
CLOSED_STATE_CELLS = 4


class Collision(Exception):
    """Two different states met under one sort key (never expected: the words decide)."""


@dataclass
class _Move:
    """One move of a level's open states: the states that make it (``rows``), the cards
    each has of it (``weight``), and per branch (kept, put under) either the child level and
    the index of its part there, or the values of the children settled at once."""

    rows: Ints
    weight: Ints
    kept: tuple[Level, int] | Ints | None
    under: tuple[Level, int] | None


class AttributeLevels:
    """The optimal look-ahead's values of every state past the hand, a level at a time.

    ``red``: the reduced problem; ``bounds``: its alternatives as bounds (the sequential
    engine's); ``n``: pile size; ``hand``, ``seen``, ``reads``, ``per_turn``: as the
    sequential engine's; ``charge(units)``: told of the work before it is done (raises to
    stop it)."""

    def __init__(
        self,
        red: Reduced,
        bounds: Sequence[Bounds],
        n: int,
        hand: int,
        seen: int,
        reads: int,
        per_turn: int,
        charge: Callable[[int], None],
    ) -> None:
        self.red = red
        self.bounds = tuple(bounds)
        self.n, self.hand, self.seen, self.reads, self.per_turn = n, hand, seen, reads, per_turn
        self.charge = charge
        caps = red.cond.caps
        self.vectors = math.prod(c + 1 for c in caps)
        self.limbs = max(1, -(-math.perm(n - hand, reads - hand).bit_length() // LIMB_BITS))
        #: Whether the engine takes the query: its values and tables fit.
        self.fits = (
            hand < seen
            and self.limbs <= MOST_LIMBS
            and n < 1 << (62 - LIMB_BITS - 8)
            and self.vectors <= MOST_VECTORS
            and self.vectors * len(red.sizes) <= MOST_CELLS
            and 0 < len(red.sizes) < 63
        )
        if self.fits:
            self._setup()
        #: Whether :meth:`run` has valued the hands (:meth:`lookup` reads them).
        self.ran = False
        #: States listed (each level's distinct ones, lost ones left out) and children made,
        #: by the last :meth:`run`.
        self.listed = 0
        self.made = 0
        # The hands' level: its distinct states' words and rows (until valued), then each
        # one's value by its words (:meth:`lookup`, a dict: asked a hand at a time).
        self._start: tuple[list[Ints], Ints] | None = None
        self._known: dict[tuple[int, ...], int] = {}
        self.values: dict[Level, Ints] = {}
        self.levels: dict[Level, list[Ints]] = {}
        # Per level, its states' sort keys in order (:meth:`_merge`); after :meth:`run`, per
        # level the sort keys, words and values of its states (:meth:`state_value`).
        self._keys: dict[Level, Ints] = {}
        self._valued: dict[Level, tuple[Ints, list[Ints], Ints]] = {}
        # Per part of a level's children that leaves out those lost by their counts: which
        # of its move's states have a child there.
        self._alive: dict[tuple[Level, int], Bools] = {}

    # -- tables per capped count vector ---------------------------------------------------

    def _setup(self) -> None:
        """The classes' counts and the key's digits (radices known before any state: a
        class holds at most its own cards and those of the later classes that share a count
        with it, the only ones that can ever move the same counts)."""
        cond = self.red.cond
        sizes = self.red.sizes
        n_cls, n_pos = len(sizes), len(cond.caps)
        self.caps = np.asarray(cond.caps, dtype=np.int64)
        self.vec_radix = self.caps + 1
        self.vec_place = np.cumprod(np.concatenate(([1], self.vec_radix[:-1]))).astype(np.int64)
        member = np.zeros((n_cls, n_pos), dtype=np.int64)
        for c, positions in enumerate(cond.class_positions):
            member[c, list(positions)] = 1
        self.member = member
        self.owners = [np.flatnonzero(member[:, p]).tolist() for p in range(n_pos)]
        shares = member @ member.T > 0
        tops = [
            sizes[c] + sum(sizes[d] for d in range(c + 1, n_cls) if shares[c, d])
            for c in range(n_cls)
        ]
        self.lose_col, self.pool_col = n_cls, n_cls + 1
        self._lay_out([int(r) for r in self.vec_radix], [t + 1 for t in tops] + [self.n + 1])
        self.pool_digit = n_pos + n_cls
        # Per column a card can be put in (a class's, the losing cards', the pool's): the
        # word its digit is in and its place there (the losing cards have none: -1 and 0),
        # and per class the bits of its digit in its word.
        at_pool = (self.word_of[self.pool_digit], self.place[self.pool_digit])
        self.column_word = np.asarray(
            [*self.word_of[n_pos : self.pool_digit], -1, at_pool[0]], dtype=np.int64
        )
        self.column_place = np.asarray(
            [*self.place[n_pos : self.pool_digit], 0, at_pool[1]], dtype=np.int64
        )
        self.column_bits = np.asarray(
            [
                self.mask[i] << (self.shift[i] + (self.vec_bits if self.word_of[i] == 0 else 0))
                for i in range(n_pos, self.pool_digit)
            ],
            dtype=np.int64,
        )
        # The tables, filled for the vectors met (:meth:`_ensure`): per vector the vector
        # after a card of each class, whether the query holds (now and after a card of each
        # class), the fewest more cards it needs, each class's column in the normal form
        # (itself, the class it is merged with, the losing cards or the pool), and which
        # columns a card of each class takes out of a state's normal form: merged or pooled
        # (their digits moved), or losing (their bits cleared, per word).
        size = self.vectors
        self.known = np.zeros(size, dtype=bool)
        self.grow = np.zeros((size, n_cls), dtype=np.int64)
        self.holds = np.zeros(size, dtype=bool)
        self.after = np.zeros((size, n_cls), dtype=np.int32)
        self.need = np.zeros(size, dtype=np.int64)
        self.target = np.zeros((size, n_cls), dtype=np.int64)
        self.places = [np.zeros((size, n_cls), dtype=np.int64) for _ in range(self.words)]
        self.changes_known = np.zeros(size, dtype=bool)
        self.changes = np.zeros((size, n_cls), dtype=np.int64)
        self.clears = [np.zeros((size, n_cls), dtype=np.int64) for _ in range(self.words)]

    def _fates(self, vec: Ints) -> tuple[Bools, Bools, Ints]:
        """Whether each row of capped counts ``vec`` is broken for good, holds, and the
        fewest more cards it needs."""
        size = len(vec)
        broken = np.ones(size, dtype=bool)
        holds = np.zeros(size, dtype=bool)
        need = np.full(size, _NEVER, dtype=np.int64)
        for tests, sets in self.bounds:
            alt_broken = np.zeros(size, dtype=bool)
            alt_holds = np.ones(size, dtype=bool)
            alt_need = np.zeros(size, dtype=np.int64)
            for p, least, most in tests:
                x = vec[:, p]
                if most is not None:
                    alt_broken |= x > most
                    alt_holds &= x <= most
                alt_holds &= x >= least
                np.maximum(alt_need, least - x, out=alt_need)
            for disjoint in sets:
                short = np.zeros(size, dtype=np.int64)
                for p, least in disjoint:
                    short += np.maximum(least - vec[:, p], 0)
                np.maximum(alt_need, short, out=alt_need)
            broken &= alt_broken
            holds |= alt_holds
            np.minimum(need, np.where(alt_broken, _NEVER, alt_need), out=need)
        return broken, holds, need

    def _ensure(self, vids: Ints) -> None:
        """Fill the tables for the vectors ``vids`` (charged before, per cell)."""
        new = np.unique(vids[~self.known[vids]])
        if not len(new):
            return
        n_cls = len(self.red.sizes)
        self.charge(1 + len(new) * (n_cls + 1) // TABLE_CELLS_PER_UNIT)
        caps = self.caps
        vec = new[:, None] // self.vec_place % self.vec_radix
        below = vec < caps
        grow = new[:, None] + (below * self.vec_place) @ self.member.T
        broken, holds, need = self._fates(vec)
        # Broken, and holding, after a card of each class: one call over the vectors grown
        # by each class in turn.
        grown_vec = np.minimum(vec[None, :, :] + self.member[:, None, :], caps)
        fate = self._fates(grown_vec.reshape(-1, len(caps)))
        broken_after = fate[0].reshape(n_cls, len(new)).T
        holds_after = fate[1].reshape(n_cls, len(new)).T
        # Each class's counts not yet at their caps, as bits; none: it changes nothing.
        bits = np.left_shift(1, np.arange(len(caps), dtype=np.int64))
        effect = (below * bits) @ self.member.T
        losing = broken_after & ~broken[:, None] & (effect != 0)
        eligible = (effect != 0) & ~losing
        # The first class of each run of classes moving the same counts: a stable sort of
        # each vector's classes by what they move (the others apart, each its own).
        lone = -1 - np.arange(n_cls, dtype=np.int64)
        moved = np.where(eligible, effect, lone)
        order = np.argsort(moved, axis=1, kind="stable")
        ordered = np.take_along_axis(moved, order, axis=1)
        starts = np.ones(ordered.shape, dtype=bool)
        starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        head_at = np.where(starts, np.arange(n_cls), 0)
        np.maximum.accumulate(head_at, axis=1, out=head_at)
        heads = np.take_along_axis(order, head_at, axis=1)
        target = np.empty_like(heads)
        np.put_along_axis(target, order, heads, axis=1)
        target[losing] = self.lose_col
        target[effect == 0] = self.pool_col
        self.grow[new], self.holds[new], self.need[new] = grow, holds, need
        self.after[new] = holds_after
        self.target[new] = target
        # Per word, the place a card of each class adds to it in the normal form (0 where
        # its column's digit is in another word, or it has none).
        for k, places in enumerate(self.places):
            places[new] = np.where(self.column_word[target] == k, self.column_place[target], 0)
        self.known[new] = True

    def _ensure_changes(self, vids: Ints) -> None:
        """Fill the tables, and which columns a card of each class takes out of a state's
        normal form (a class it keeps apart is then merged, losing or changes nothing: bits
        of a mask), for the vectors ``vids``."""
        self._ensure(vids)
        new = np.unique(vids[~self.changes_known[vids]])
        if not len(new):
            return
        grown = self.grow[new]
        self._ensure(grown.reshape(-1))
        n_cls = len(self.red.sizes)
        self.charge(1 + len(new) * n_cls // TABLE_CELLS_PER_UNIT + MOVE_UNITS * n_cls)
        own = np.arange(len(self.red.sizes))
        apart = self.target[new] == own
        bits = np.left_shift(1, own)
        in_word = [
            np.where(self.column_word[own] == k, self.column_bits, 0) for k in range(self.words)
        ]
        for c in range(len(own)):
            to = self.target[grown[:, c]]
            moved = apart & (to != own)
            losing = moved & (to == self.lose_col)
            self.changes[new, c] = (moved & ~losing) @ bits
            for k, clears in enumerate(self.clears):
                clears[new, c] = losing @ in_word[k]
        self.changes_known[new] = True

    def _lay_out(self, vector_radix: list[int], column_radix: list[int]) -> None:
        """The key's words: the first holds the capped counts' index (mixed radix) in its low
        :attr:`vec_bits` bits, then bits per column (a class's cards left, then the pool),
        each column's bits in one word and every word below ``2**WORD_BITS``: a column is
        read by a shift and a mask, cleared by a mask."""
        first = len(vector_radix)
        self.word_of: list[int] = [0] * first
        self.place: list[int] = [int(p) for p in self.vec_place]
        self.shift: list[int] = [0] * first
        self.mask: list[int] = [0] * first
        self.vec_bits = self.vectors.bit_length()
        word, bit, room = 0, 0, WORD_BITS - self.vec_bits
        for r in column_radix:
            width = max(1, (r - 1).bit_length())
            if bit + width > room:
                word, bit, room = word + 1, 0, WORD_BITS
            self.word_of.append(word)
            self.shift.append(bit)
            self.mask.append((1 << width) - 1)
            self.place.append(1 << (bit + (self.vec_bits if word == 0 else 0)))
            bit += width
        self.words = word + 1
        if self.words > MOST_WORDS or room <= 0:
            self.fits = False
        self.first_column = first

    # -- states ----------------------------------------------------------------------------

    def _normal(self, vids: Ints, left: Ints, gone: int) -> list[Ints]:
        """The keys (a list of words) of the states of capped count vectors ``vids`` with
        ``left`` (a row per class) in the pile and ``gone`` cards gone, put in their normal
        form: the cards of no class join the pool, those of losing classes are left out (as
        many as the rest of the pile leaves, see :meth:`_digits`)."""
        # A class's cards add to its column's digit: its place in its word (see _ensure).
        words = []
        no_class = (self.n - gone) - left.sum(axis=0)
        for k, places in enumerate(self.places):
            word = np.einsum("ij,ji->i", places[vids], left)
            if k == 0:
                word += vids
            if self.word_of[self.pool_digit] == k:
                word += no_class * self.place[self.pool_digit]
            words.append(word)
        return words

    def _digits(self, words: list[Ints], gone: int) -> tuple[Ints, Ints, Ints]:
        """The capped count vectors' indices, the cards left per class (a row each) and the
        losing cards (the pile's cards in no column nor the pool) of the states ``words``
        with ``gone`` cards gone."""
        vids = words[0] & ((1 << self.vec_bits) - 1)
        bits = [words[0] >> self.vec_bits, *words[1:]]
        n_cls = len(self.red.sizes)
        left = np.empty((n_cls, len(vids)), dtype=np.int64)
        for j in range(n_cls + 1):
            i = self.first_column + j
            got = (bits[self.word_of[i]] >> self.shift[i]) & self.mask[i]
            if j < n_cls:
                left[j] = got
            else:
                pool = got
        return vids, left, (self.n - gone) - left.sum(axis=0) - pool

    def _settle(self, vids: Ints, left: Ints, losing: Ints, to_draw: int) -> tuple[Bools, Bools]:
        """Which states are won (the query holds whatever follows) and which lost (it can no
        longer hold), by their counts and the cards their pile still holds."""
        if to_draw == 0:
            won = self.holds[vids]
            return won, ~won
        lost = self.need[vids] > to_draw
        won = np.zeros(len(vids), dtype=bool)
        lost_all = np.ones(len(vids), dtype=bool)
        reach: dict[int, Ints] = {}
        for tests, _ in self.bounds:
            alt_won = losing == 0
            alt_lost = np.zeros(len(vids), dtype=bool)
            for p, least, most in tests:
                x = vids // int(self.vec_place[p]) % int(self.vec_radix[p])
                got = reach.get(p)
                if got is None:
                    got = np.zeros(len(vids), dtype=np.int64)
                    for c in self.owners[p]:
                        got += left[c]
                    np.minimum(got, to_draw, out=got)
                    reach[p] = got
                if least > 0:
                    alt_lost |= x + got < least
                    alt_won &= x >= least
                if most is not None:
                    alt_lost |= x > most
                    alt_won &= x + got <= most
            won |= alt_won
            lost_all &= alt_lost
        lost |= lost_all
        return won & ~lost, lost

    # -- the run ---------------------------------------------------------------------------

    def _look(self, held: int, looked: bool) -> bool:
        return (
            not looked and self.hand <= held < self.seen and (held - self.hand) % self.per_turn == 0
        )

    def _full(self, gone: int) -> int:
        return math.perm(self.n - gone, self.reads - gone)

    def _closed(self, level: Level) -> tuple[int, bool] | None:
        """(cards still to draw, whether this level looks) where ``level``'s states are valued
        in closed form (:meth:`_closed_sums`): at most two cards to draw and no look after
        this level's own, and a pile small enough that the sums (below ``N**3``) times a limb
        stay below ``2**62``; else None."""
        held, _, looked = level
        to_draw = self.seen - held
        if not 0 < to_draw <= CLOSED_DRAWS or self.n**3 >= 1 << (62 - LIMB_BITS):
            return None
        if any(self._look(h, False) for h in range(held + 1, self.seen)):
            return None
        return to_draw, self._look(held, looked)

    def _closed_sums(
        self,
        vids: Ints,
        left: Ints,
        pool: Ints,
        losing: Ints,
        gone: int,
        closed: tuple[int, bool],
    ) -> tuple[Ints, int]:
        """The values of the states of capped counts ``vids`` with ``left`` (a row per class),
        ``pool`` cards no count reads and ``losing`` losing cards in the pile, ``gone`` cards
        gone, at a level valued in closed form (``closed``: :meth:`_closed`), as ``(sums,
        g)``: each value is its sum times ``perm(N - g, reads - g)``.

        With no look left, one card to draw is worth ``V1 = sum_j L_j H[v, j] + P h(v)``
        (``H[v, j]``: the query holds after a card of class ``j``; ``h``: it holds now); two
        are worth ``V2 = L.KL - sum_j L_j K_jj + 2 P H.L + P (P - 1) h`` with ``K[j, i]`` the
        query holding after a card of ``j`` and one of ``i`` (symmetric: capped counts add in
        any order). A look's two branches are the same sums with one card of the top's class
        fewer (kept: one draw fewer, the top's counts added), compared exactly once both
        are put over one ``perm``: ``perm(N - g, .)`` is ``(N - g)`` times the next. Exact
        whatever the normal form: a class merged, pooled or losing has the ``H`` and ``K``
        of its cards."""
        to_draw, look = closed
        # Only the classes some state has cards of (the others add nothing).
        live = np.flatnonzero(left.any(axis=1))
        if to_draw == 1:
            h = self.holds[vids].astype(np.int64)
            left = left[live]
            after = self.after[vids[:, None], live]
            hl = np.einsum("ij,ji->i", after, left).astype(np.int64)
            v1 = hl + pool * h
            if not look:
                return v1, gone + 1
            ratio = self.n - gone - 1
            top = after.T.astype(np.int64)
            best = np.maximum(ratio * top, v1 - top)
            sums = np.einsum("ji,ji->i", best, left)
            sums += pool * np.maximum(ratio * h, v1 - h) + losing * v1
            return sums, gone + 2
        # Few capped count vectors, many states each: the states sorted by their vector, K
        # of each vector once, applied to its states' cards left by one product; every sum
        # in floats (exact: below N**4 < 2**53), a row per state.
        order = np.argsort(vids, kind="stable")
        vids = vids[order]
        lt = left[live][:, order].T.astype(np.float64)
        h = self.holds[vids].astype(np.float64)
        pool_f, losing_f = pool[order].astype(np.float64), losing[order].astype(np.float64)
        top = self.after[vids[:, None], live].astype(np.float64)
        hl = np.einsum("ij,ij->i", top, lt)
        starts = np.flatnonzero(np.concatenate(([True], vids[1:] != vids[:-1])))
        bounds = [*starts.tolist(), len(vids)]
        distinct = vids[starts]
        grown = self.grow[distinct[:, None], live]
        self._ensure(np.unique(grown))
        pair = self.after[grown][:, :, live].astype(np.float64)
        diag = np.diagonal(pair, axis1=1, axis2=2)
        # Per state and class j: (K L)_j - K_jj, the pairs' sum less the card itself.
        kld = np.empty_like(lt)
        for d in range(len(distinct)):
            a, b = bounds[d], bounds[d + 1]
            np.subtract(lt[a:b] @ pair[d], diag[d], out=kld[a:b])
        v2 = np.einsum("ij,ij->i", kld, lt) + 2 * pool_f * hl + pool_f * (pool_f - 1) * h
        if look:
            # Keeping a top card of class j is worth kept_j (one draw left, over a perm
            # N - g - 2 times smaller), putting it under v2 - 2 kept_j (the pairs with it):
            # the better is v2 - 2 kept_j + max(0, (ratio + 2) kept_j - v2), summed over the
            # top's classes by their cards left (a few passes over one array, in place).
            ratio = self.n - gone - 2
            kept = np.multiply(top, pool_f[:, None], out=top)
            kept += kld  # kept_j, in place of the arrays no longer read
            total = lt.sum(axis=1)
            sum_kept = np.einsum("ij,ij->i", kept, lt)
            kept *= ratio + 2
            kept -= v2[:, None]
            np.maximum(kept, 0, out=kept)
            sums = total * v2 - 2 * sum_kept + np.einsum("ij,ij->i", kept, lt)
            kept_pool = hl + (pool_f - 1) * h
            sums += pool_f * np.maximum(ratio * kept_pool, v2 - 2 * kept_pool) + losing_f * v2
        else:
            sums = v2
        out = np.empty(len(vids), dtype=np.int64)
        out[order] = sums.astype(np.int64)
        return out, gone + (3 if look else 2)

    def _closed_charge(self, states: int, classes: int) -> int:
        """Units of valuing ``states`` states in closed form (:meth:`_closed_sums`), holding
        cards of ``classes`` classes between them."""
        cells = states * (classes + CLOSED_STATE_CELLS)
        return cells // CLOSED_CELLS_PER_UNIT + 2 * LEVEL_UNITS

    def _scaled(self, sums: Ints, gone: int) -> Ints:
        """``sums`` times ``perm(N - gone, reads - gone)``, as limbs (a column each)."""
        out = sums[None, :] * self._limbs(self._full(gone))
        for k in range(self.limbs - 1):
            out[k + 1] += out[k] >> LIMB_BITS
            out[k] &= (1 << LIMB_BITS) - 1
        return out

    def _value_closed(
        self,
        level: Level,
        state: tuple[Ints, Ints, Ints, Ints],
        won: Bools,
        closed: tuple[int, bool],
    ) -> None:
        """The values of ``level``'s states in closed form (:meth:`_closed_sums`), charged
        before: no child of theirs is made."""
        rows_open, vids, left, losing = state
        gone = level[1]
        self.charge(self._closed_charge(len(vids), int(left.any(axis=1).sum())))
        values = np.zeros((self.limbs, len(won) + 1), dtype=np.int64)
        values[:, :-1][:, won] = self._limbs(self._full(gone))
        if len(vids):
            pool = (self.n - gone) - left.sum(axis=0) - losing
            sums, scale = self._closed_sums(vids, left, pool, losing, gone, closed)
            values[:, rows_open] = self._scaled(sums, scale)
        self.values[level] = values

    def run(self, hands: Ints) -> list[int]:
        """The value of each hand (a row of cards per class, ``hand`` cards each) with the
        rest of the deck in the pile: over ``perm(N - hand, reads - hand)``."""
        if not self.fits:
            raise Collision("the key does not fit")
        start = (self.hand, self.hand, False)
        self.listed = self.made = 0
        words = self._hand_words(hands)
        pending: Pending = {start: [words]}
        where: dict[Level, list[Ints]] = {}
        open_states: dict[Level, tuple[Ints, Ints, Ints, Ints]] = {}
        won_of: dict[Level, Bools] = {}
        plans: dict[Level, list[_Move]] = {}
        order: list[Level] = []
        for gone in range(self.hand, self.reads + 1):
            layer = sorted(lv for lv in pending if lv[1] == gone)
            for level in layer:
                where[level] = self._merge(level, pending.pop(level), open_states, won_of)
            for level in layer:
                order.append(level)
                closed = self._closed(level)
                if closed is None:
                    plans[level] = self._moves(level, open_states.pop(level), pending)
                else:
                    self._value_closed(level, open_states.pop(level), won_of.pop(level), closed)
        for level in reversed(order):
            if level in plans:
                self._value(level, plans.pop(level), where, won_of.pop(level))
        values = self.values[start]
        if self._start is not None:
            distinct, row = self._start
            found = self._ints(values[:, row])
            states = zip(*(w.tolist() for w in distinct), strict=True)
            self._known = dict(zip(states, found, strict=True))
            self._start = None
        self._valued = {
            level: (self._keys[level], self.levels[level], self.values[level]) for level in order
        }
        self.levels = {}
        self.values = {}
        self._keys = {}
        self._alive = {}
        self.ran = True
        return self._ints(values[:, where[start][0]])

    def _distinct(self, words: list[Ints]) -> tuple[Ints, list[Ints], Ints]:
        """The distinct keys among ``words``: their sort keys in order, their words, and
        the index among them of each key given."""
        sort_key = self._sort_key(words)
        by = np.argsort(sort_key)
        ordered = sort_key[by]
        first = np.empty(len(ordered), dtype=bool)
        first[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        run = np.cumsum(first) - 1
        heads = by[starts]
        # Under one sort key, words equal but for the last are equal in the last too (it is
        # the sort key less the others' mix, below 2**62): the others are compared.
        for w in words[:-1]:
            if (w[by] != w[heads][run]).any():
                raise Collision("two states under one sort key")
        index = np.empty(len(ordered), dtype=np.int64)
        index[by] = run
        return ordered[starts], [w[heads] for w in words], index

    def _merge(
        self,
        level: Level,
        parts: list[list[Ints]],
        open_states: dict[Level, tuple[Ints, Ints, Ints, Ints]],
        won_of: dict[Level, Bools],
    ) -> list[Ints]:
        """The distinct states of ``parts`` (each a key's words per child, in their normal
        form), settled: the level's open states' words and digits, which of its states are
        won, and per part each child's row (a lost one's: the row after the last)."""
        sizes = [len(part[0]) for part in parts]
        self.charge(sum(sizes) // CHILDREN_PER_UNIT + 1)
        self.made += sum(sizes)
        words = [np.concatenate([part[i] for part in parts]) for i in range(self.words)]
        keys, distinct, index = self._distinct(words)
        self.charge(len(keys) // STATES_PER_UNIT + 1)
        vids, left, losing = self._digits(distinct, level[1])
        self._ensure(vids)
        won, lost = self._settle(vids, left, losing, self.seen - level[0])
        kept = ~lost
        row = np.where(kept, np.cumsum(kept) - 1, int(kept.sum()))
        if level == (self.hand, self.hand, False):
            self._start = (distinct, row)
        at = row[index]
        self.levels[level] = [w[kept] for w in distinct]
        self._keys[level] = keys[kept]
        self.listed += int(kept.sum())
        won_of[level] = won[kept]
        is_open = kept & ~won
        open_states[level] = (
            np.flatnonzero(~won[kept]),
            vids[is_open],
            left[:, is_open],
            losing[is_open],
        )
        return np.split(at, np.cumsum(sizes)[:-1])

    def _sort_key(self, words: list[Ints]) -> Ints:
        """One word to sort states by: the key's, or its words mixed (wrapping). Runs of
        equal words stay together; words that differ within a run are a collision
        (:class:`Collision`), never decided on."""
        if self.words == 1:
            return words[0]
        sort_key = words[0].copy()
        for i, w in enumerate(words[1:]):
            sort_key = sort_key * np.int64(0x5BD1E995 + 2 * i) + w
        return sort_key

    def _hand_words(self, hands: Ints) -> list[Ints]:
        """The states of holding each row of ``hands`` with the rest in the pile."""
        sizes = np.asarray(self.red.sizes, dtype=np.int64)
        held = np.asarray(hands, dtype=np.int64).reshape(-1, len(sizes))
        vec_place = self.vec_place
        caps = np.asarray(self.red.cond.caps, dtype=np.int64)
        vids = np.minimum(held @ self.member, caps) @ vec_place
        self._ensure(vids)
        return self._normal(vids, (sizes[None, :] - held).T, self.hand)

    def lookup(self, hand: Sequence[int]) -> int | None:
        """The value :meth:`run` found for the state of ``hand`` (cards per class), or None
        when no hand it valued is in that state (its key worked out in Python: a guide asks
        a hand at a time)."""
        if not self._known:
            return None
        left = [s - k for s, k in zip(self.red.sizes, hand, strict=True)]
        words = self._key(hand, left)
        return None if words is None else self._known.get(tuple(words))

    def _key(self, held: Sequence[int], left: Sequence[int]) -> list[int] | None:
        """The key's words of the state holding ``held`` with ``left`` in the pile (cards
        per class), or None when its capped counts were never met (no state of theirs
        valued)."""
        counts = [0] * len(self.caps)
        for c, k in enumerate(held):
            if k:
                for p in self.red.cond.class_positions[c]:
                    counts[p] += k
        vid = 0
        for x, cap, place in zip(counts, self.caps.tolist(), self.vec_place.tolist(), strict=True):
            vid += min(x, cap) * place
        if not self.known[vid]:
            return None
        words = [vid] + [0] * (self.words - 1)
        # The hand's cards of no class are not in the pile: the rest of them are the pool's.
        words[self.word_of[self.pool_digit]] += (self.n - self.hand - sum(left)) * self.place[
            self.pool_digit
        ]
        column_word, column_place = self.column_word.tolist(), self.column_place.tolist()
        for c, column in enumerate(self.target[vid].tolist()):
            if column != self.lose_col:
                words[column_word[column]] += left[c] * column_place[column]
        return words

    def states_values(self, level: Level, held: Ints, left: Ints) -> tuple[Ints, Bools]:
        """The values :meth:`run` found for the states of ``level`` holding each column of
        ``held`` with that of ``left`` in the pile (a row per class), as the recursion's, as
        limbs (a column each), and which of them are known: read from the level's states, or
        settled by their counts and pile (a state lost or won whatever follows is not kept,
        nor one after it). Unknown: a state no valued hand leads to, open."""
        m = held.shape[1]
        out = np.zeros((self.limbs, m), dtype=np.int64)
        known = np.zeros(m, dtype=bool)
        vids = np.minimum(held.T @ self.member, self.caps) @ self.vec_place
        # Counts no valued state met (past a state won or lost whatever follows): their
        # tables, charged as the run's are, to settle them.
        self._ensure(vids)
        closed = self._closed(level)
        if closed is not None:
            # Valued in closed form from the cards per class, as the run's are.
            self.charge(self._closed_charge(m, int(left.any(axis=1).sum())))
            pool = (self.n - level[1]) - left.sum(axis=0)
            losing = np.zeros(m, dtype=np.int64)
            sums, scale = self._closed_sums(vids, left, pool, losing, level[1], closed)
            return self._scaled(sums, scale), np.ones(m, dtype=bool)
        cols = np.arange(m)
        words = self._normal(vids, left, level[1])
        found = np.zeros(len(cols), dtype=bool)
        table = self._valued.get(level)
        if table is not None and len(table[0]):
            keys, stored, values = table
            sort_key = self._sort_key(words)
            at = np.minimum(np.searchsorted(keys, sort_key), len(keys) - 1)
            found = keys[at] == sort_key
            for s, w in zip(stored, words, strict=True):
                found &= s[at] == w
            out[:, cols[found]] = values[:, at[found]]
        rest = cols[~found]
        if len(rest):
            vids_r, digits, losing = self._digits([w[~found] for w in words], level[1])
            won, lost = self._settle(vids_r, digits, losing, self.seen - level[0])
            out[:, rest[won]] = self._limbs(self._full(level[1]))
            known[rest[won | lost]] = True
        known[cols[found]] = True
        return out, known

    def keeps(
        self, held: Ints, gone: Ints, n_held: int, n_gone: int, top: Ints
    ) -> tuple[Bools, Bools]:
        """Whether the optimal player keeps the top card of class ``top`` (a column each)
        holding ``held`` with ``gone`` gone from the pile (the top card included; a row per
        class, ``n_held`` and ``n_gone`` cards in every column), by the values :meth:`run`
        found (ties keep, as the recursion's), and which columns they decide."""
        m = len(top)
        left = np.asarray(self.red.sizes, dtype=np.int64)[:, None] - gone
        with_top = held.copy()
        with_top[top, np.arange(m)] += 1
        kept, kept_known = self.states_values((n_held + 1, n_gone, False), with_top, left)
        under, under_known = self.states_values((n_held, n_gone, True), held, left)
        return ~self._above(under, kept), kept_known & under_known

    def _add(self, pending: Pending, level: Level, words: list[Ints]) -> tuple[Level, int]:
        """Put ``words`` (in their normal form) among the children of ``level``: where they
        will be found."""
        parts = pending.setdefault(level, [])
        parts.append(words)
        return level, len(parts) - 1

    def _renormal(self, words: list[Ints], grown: Ints, moved: Ints) -> None:
        """Put children in their normal form, in place: ``words`` of states just grown to
        capped counts ``grown``, whose columns ``moved`` (bits of a mask, see
        :meth:`_ensure_changes`) are merged into another (the first class moving the same
        counts, a column kept as it is), join the losing cards or the pool. A column moved
        is never one moved into."""
        n_cls = len(self.red.sizes)
        every = int(np.bitwise_or.reduce(moved))
        for j in range(n_cls):
            bit = 1 << j
            if not every & bit:
                continue
            rows = np.flatnonzero(moved & bit)
            i = self.first_column + j
            k = self.word_of[i]
            bits = words[k][rows]
            if k == 0:
                bits = bits >> self.vec_bits
            digit = (bits >> self.shift[i]) & self.mask[i]
            # Its place in each word under the grown counts (see _ensure), less its own.
            cell = grown[rows] * n_cls + j
            for w, places in enumerate(self.places):
                change = digit * places.ravel()[cell]
                if w == k:
                    change -= digit * self.place[i]
                words[w][rows] += change

    def _moves(
        self,
        level: Level,
        state: tuple[Ints, Ints, Ints, Ints],
        pending: Pending,
    ) -> list[_Move]:
        """The moves of ``level``'s open states, their children put among the next levels'."""
        held, gone, looked = level
        rows_open, vids, left, losing = state
        if not len(vids):
            return []
        look = self._look(held, looked)
        self._ensure_changes(vids)
        pool = (self.n - gone) - left.sum(axis=0) - losing
        # Only the classes some open state has cards of are looked for.
        per_class = np.count_nonzero(left, axis=1)
        present = np.flatnonzero(per_class).tolist()
        made = int(per_class.sum()) + int(np.count_nonzero(pool))
        if look:
            made += made + int(np.count_nonzero(losing))
        self.charge(
            made // MOVES_PER_UNIT
            + len(vids) * (len(present) + 2) // STATE_CLASSES_PER_UNIT
            + LEVEL_UNITS
            + MOVE_UNITS * (len(present) + 2)
        )
        words = [w[rows_open] for w in self.levels[level]]
        kept_level = (held + 1, gone + 1, False)
        under_level = (held, gone + 1, True)
        last = held + 1 == self.seen
        to_draw = self.seen - held - 1
        full = self._limbs(self._full(gone + 1))
        moves: list[_Move] = []

        def kept_settled(child_vids: Ints) -> Ints | None:
            if last:
                return np.where(self.holds[child_vids], full, 0)
            return None

        for c in present:
            rows = np.flatnonzero(left[c])
            w = left[c, rows]
            v = vids[rows]
            grown = self.grow[v, c]
            i = self.first_column + c
            kept: tuple[Level, int] | Ints | None
            settled = kept_settled(grown)
            if settled is not None:
                kept = settled
            else:
                alive = self.need[grown] <= to_draw
                if not alive.any():
                    kept = np.zeros((self.limbs, len(rows)), dtype=np.int64)
                else:
                    sub = rows[alive]
                    g = grown[alive]
                    before = v[alive]
                    child = [wd[sub] for wd in words]
                    child[0] += g - before
                    child[self.word_of[i]] -= self.place[i]
                    # Put in their normal form where the card changed it: the columns
                    # that start to lose cleared, those merged or pooled moved; children
                    # lost by their counts are worth 0 (see _read).
                    for wd, clears in zip(child, self.clears, strict=True):
                        wd &= ~clears[before, c]
                    moved = self.changes[before, c]
                    if moved.any():
                        self._renormal(child, g, moved)
                    kept = self._add(pending, kept_level, child)
                    self._alive[kept] = alive
            under = None
            if look:
                child = [wd[rows] for wd in words]
                child[self.word_of[i]] = child[self.word_of[i]] - self.place[i]
                under = self._add(pending, under_level, child)
            moves.append(_Move(rows, w, kept, under))
        # The losing cards: kept, the query is lost; put under, gone (they are the pile's
        # cards in no column: the key is the same).
        if look:
            rows = np.flatnonzero(losing)
            if len(rows):
                under = self._add(pending, under_level, [wd[rows] for wd in words])
                lost = np.zeros((self.limbs, len(rows)), dtype=np.int64)
                moves.append(_Move(rows, losing[rows], lost, under))
        # The cards no count reads: kept, nothing changes but the cards held and the pool.
        rows = np.flatnonzero(pool)
        if len(rows):
            v = vids[rows]
            k, place = self.word_of[self.pool_digit], self.place[self.pool_digit]
            settled = kept_settled(v)
            if settled is not None:
                kept = settled
            else:
                alive = self.need[v] <= to_draw
                child = [wd[rows[alive]] for wd in words]
                child[k] = child[k] - place
                kept = self._add(pending, kept_level, child)
                self._alive[kept] = alive
            under = None
            if look:
                child = [wd[rows] for wd in words]
                child[k] = child[k] - place
                under = self._add(pending, under_level, child)
            moves.append(_Move(rows, pool[rows], kept, under))
        return moves

    def _limbs(self, value: int) -> Ints:
        """``value`` as limbs (a column), the lowest first."""
        mask = (1 << LIMB_BITS) - 1
        return np.array(
            [[(value >> (LIMB_BITS * k)) & mask] for k in range(self.limbs)], dtype=np.int64
        )

    def _ints(self, limbs: Ints) -> list[int]:
        """The values of the columns of ``limbs``."""
        out = [0] * limbs.shape[1]
        for k in range(self.limbs - 1, -1, -1):
            out = [(v << LIMB_BITS) + x for v, x in zip(out, limbs[k].tolist(), strict=True)]
        return out

    def _value(
        self, level: Level, moves: list[_Move], where: dict[Level, list[Ints]], won: Bools
    ) -> None:
        """The values of ``level``'s states (the row after the last: 0, a lost state's), as
        limbs: each move's children weighed by its cards (the better of keeping and putting
        under where the turn looks: compared limb by limb from the highest, exactly), summed
        limb by limb, then the carries taken."""
        gone = level[1]
        values = np.zeros((self.limbs, len(won) + 1), dtype=np.int64)
        values[:, :-1][:, won] = self._limbs(self._full(gone))
        open_rows = np.flatnonzero(~won)
        rows, parts = [], []
        for move in moves:
            kept = self._read(move.kept, where, len(move.rows))
            if move.under is not None:
                under = self._read(move.under, where, len(move.rows))
                kept = np.where(self._above(under, kept), under, kept)
            rows.append(move.rows)
            parts.append(move.weight * kept)
        total = np.zeros((self.limbs, len(open_rows)), dtype=np.int64)
        if parts and self.n << LIMB_BITS <= _EXACT_FLOAT:
            # A state's limbs times cards sum below N * 2**LIMB_BITS: counted in floats,
            # exactly, all moves at once.
            at, weighed = np.concatenate(rows), np.concatenate(parts, axis=1)
            for k in range(self.limbs):
                total[k] = np.bincount(at, weights=weighed[k], minlength=len(open_rows))
        else:
            for at, weighed in zip(rows, parts, strict=True):
                total[:, at] += weighed
        for k in range(self.limbs - 1):
            total[k + 1] += total[k] >> LIMB_BITS
            total[k] &= (1 << LIMB_BITS) - 1
        values[:, open_rows] = total
        self.values[level] = values

    @staticmethod
    def _above(a: Ints, b: Ints) -> Bools:
        """Whether each column of limbs ``a`` is worth more than ``b``'s."""
        above = np.zeros(a.shape[1], dtype=bool)
        tied = np.ones(a.shape[1], dtype=bool)
        for k in range(a.shape[0] - 1, -1, -1):
            above |= tied & (a[k] > b[k])
            tied &= a[k] == b[k]
        return above

    def _read(
        self, branch: tuple[Level, int] | Ints | None, where: dict[Level, list[Ints]], size: int
    ) -> Ints:
        """The values (limbs, a column each) of a move's children on one branch."""
        if branch is None:
            return np.zeros((self.limbs, size), dtype=np.int64)
        if not isinstance(branch, tuple):
            return branch
        level, part = branch
        got = self.values[level][:, where[level][part]]
        alive = self._alive.get(branch)
        if alive is None:
            return got
        out = np.zeros((self.limbs, size), dtype=np.int64)
        out[:, alive] = got
        return out
