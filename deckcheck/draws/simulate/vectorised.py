"""Vectorised Monte Carlo simulation with numpy: the fast path behind ``deckcheck simulate``.

Only this module imports numpy (lazily, never at start-up). It follows the rules of
:mod:`deckcheck.draws.simulate.reference` on whole batches of trials, tracking only the cards
held of each group (arrays shaped ``(groups, trials)``) and, for the look-ahead, those put under.

Every trial is a real deal, never a draw from a table of the query's exact answer:

* the plain draw: the counts of the cards seen follow the multivariate hypergeometric law
  (:class:`FixedPileSampler`, by the method measured fastest for the shape: see
  :mod:`deckcheck.draws.simulate.sampling`);
* a redraw rule: the rows that may and do redraw are dealt again, repeatedly;
* a return rule: the choice is looked up once per distinct hand;
* later draws: per-row hypergeometric counts from what is left of each pile, or, with the
  look-ahead, a card-by-card loop over the whole batch.

Long runs are split into fixed chunks, each with its own stream from ``SeedSequence(seed).spawn``:
a seed gives the same result with one numpy version. Everything runs in this process.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import Any

from deckcheck.core.numeric import np, npt
from deckcheck.draws.answer import Answer, Fact, FactKind, Method
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
    per_object,
)
from deckcheck.draws.simulate.dealer import (
    REDRAW_CAP,
    KeepChooser,
    RedrawChooser,
    ReturnChooser,
    check_return,
    deal_shape,
)
from deckcheck.draws.simulate.sampling import SamplingMethod, sampling_method

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Trials per independent random stream (``SeedSequence(seed).spawn``): fixed, so a seed's
#: result does not depend on how the run is split.
CHUNK = 1 << 20
#: Trials sampled at once inside a chunk: large enough to amortise numpy's per-call overhead,
#: small enough that the working arrays stay in cache-friendly tens of megabytes.
BATCH = 1 << 16
#: Largest key space for which a decision table is a dense array (int32: 32 MB at most).
DENSE_KEYS = 1 << 23
#: Most keys :class:`_Lookup` keeps sorted past its dense table, counted in int64s (a key of
#: bytes as its share of them: 128 MB at most); past them it sorts each batch's keys afresh.
SORTED_KEYS = 1 << 23
#: Trials per batch with the look-ahead: its card-by-card loop makes many passes over the
#: batch, which pays off when the working arrays fit in the CPU cache.
LOOKAHEAD_BATCH = 1 << 14
#: Most count cells (groups times trials) a batch holds: 16 MB of counts, whatever the groups.
BATCH_CELLS = 1 << 21
MIN_BATCH = 1 << 10
#: From this many conditions on, their counts come from one matrix product (see
#: ``_Simulator.satisfied``); below, summing each one's groups is cheaper.
MATMUL_CONDITIONS = 4

ProgressCallback = Callable[[int, int], None]

#: Largest pile whose card positions are mapped to their groups by a table (8 bytes a card)
#: rather than by a binary search over the groups' ends.
POSITION_TABLE_MAX = 1 << 22

# Probabilities in the sampling tables are integers in units of 2**-53.
_BITS = 53
_ONE = 1 << _BITS


class FixedPileSampler:
    """Group counts of ``n`` cards dealt from a fixed pile, sampled for many trials at once.

    Groups are taken one after another: given the ``left`` cards still to deal, group ``g``'s
    count is hypergeometric (its cards against those of the groups after it). Each such
    conditional distribution is one row of a table built once, exactly, in integers: the
    cumulative probabilities in units of 2**-53, padded to a common width ``W`` and offset by
    ``left * 2**53``. A 53-bit uniform integer ``u`` then picks the count: how many entries of
    row ``left`` are at most ``left * 2**53 + u`` (a binary search over the rows tells). No
    floating point is involved, so no rounding can push a draw into the neighbouring row. The
    largest group goes last: it takes whatever is left, for free.
    """

    def __init__(self, sizes: Sequence[int], n: int, method: SamplingMethod | None = None) -> None:
        self.n_groups = len(sizes)
        self.n = n
        if n > sum(sizes):
            raise ValueError(f"cannot deal {n} cards from a pile of {sum(sizes)}")
        order = sorted(range(self.n_groups), key=lambda g: sizes[g])
        self.last = order[-1] if order else -1
        self.colours = np.asarray(sizes, dtype=np.int64)
        self.ends = np.cumsum(self.colours)  # a card position's group: the first end past it
        self._group_at: IntArray | None = None  # or each position's group, made when dealt
        self.total = int(sum(sizes))
        self.steps: list[tuple[int, IntArray, int]] = []
        # The method (see deckcheck.draws.simulate.sampling) depends on the pile and the cards dealt
        # (``method`` forces one, to compare them); tables are built only when it is theirs.
        self.method = sampling_method(sizes, n) if method is None else method
        rest = sum(sizes)
        for g in order[:-1] if self.method is SamplingMethod.TABLES else []:
            a = sizes[g]
            rest -= a
            width = min(a, n)
            if width == 0:
                continue  # always 0 cards of this group
            rows: list[int] = []
            mine = [math.comb(a, k) for k in range(width)]
            others = [math.comb(rest, j) for j in range(n + 1)]
            for left in range(n + 1):
                base = left << _BITS
                total = math.comb(a + rest, left)
                cumulative = 0
                for k in range(width):
                    if total == 0 or k >= left:
                        # Past the possible counts (or a `left` never reached): no key reaches.
                        rows.append(base + _ONE)
                        continue
                    cumulative += mine[k] * others[left - k]
                    # floor(P(count <= k) * 2**53): exact, and below 2**53 while P < 1.
                    rows.append(base + (cumulative << _BITS) // total)
            self.steps.append((g, np.asarray(rows, dtype=np.int64), width))

    @property
    def marginals(self) -> bool:
        """Whether numpy's marginal method deals (long deals from many groups)."""
        return self.method is SamplingMethod.MARGINALS

    @property
    def use_numpy(self) -> bool:
        """Whether numpy's own sampler deals (methods "count" and "marginals")."""
        return self.method in (SamplingMethod.COUNT, SamplingMethod.MARGINALS)

    def sample(self, rng: np.random.Generator, trials: int) -> IntArray:
        """Counts per group, shaped ``(groups, trials)``."""
        out = np.zeros((self.n_groups, trials), dtype=np.int64)
        if self.n_groups == 0:
            return out
        if self.method is SamplingMethod.POSITIONS:
            return self._by_position(rng, trials)
        if self.use_numpy:
            counts = rng.multivariate_hypergeometric(
                self.colours, self.n, size=trials, method=self.method.value
            )
            return np.ascontiguousarray(counts.T)
        left = np.full(trials, self.n, dtype=np.int64)
        for g, table, width in self.steps:
            key = rng.integers(0, _ONE, size=trials, dtype=np.int64) + (left << _BITS)
            if width << 12 <= trials:  # a long batch: a comparison per column beats a search
                k = sum((c[left] <= key for c in table.reshape(-1, width).T), np.zeros_like(left))
            else:
                k = np.searchsorted(table, key, side="right") - left * width
            out[g] = k
            left -= k
        out[self.last] = left
        return out

    def _by_position(self, rng: np.random.Generator, trials: int) -> IntArray:
        """Deal card positions, drawing again every position that repeats one earlier in its
        deal until none does. Only equality of positions decides what is drawn again, so the
        procedure treats every card alike, and the ``n`` distinct positions are a uniformly
        random subset of the pile, as a shuffle gives."""
        n = self.n
        positions = rng.integers(0, self.total, size=(trials, n), dtype=np.int64)
        rows = np.arange(trials)
        while len(rows):
            dealt = positions[rows]
            # Which deals repeat a position: a plain sort tells, and only those are ranked.
            ranked = np.sort(dealt, axis=1)
            repeats = (ranked[:, 1:] == ranked[:, :-1]).any(axis=1)
            if not repeats.any():
                break
            rows = rows[repeats]
            dealt = dealt[repeats]
            order = np.argsort(dealt, axis=1, kind="stable")  # equal positions: first stays
            ranked = np.take_along_axis(dealt, order, axis=1)
            again_ranked = np.zeros(ranked.shape, dtype=bool)
            again_ranked[:, 1:] = ranked[:, 1:] == ranked[:, :-1]
            again = np.zeros_like(again_ranked)
            np.put_along_axis(again, order, again_ranked, axis=1)
            dealt[again] = rng.integers(0, self.total, size=int(again.sum()), dtype=np.int64)
            positions[rows] = dealt
        # Counted straight into the (groups, trials) layout: cell group * trials + trial.
        if self.total <= POSITION_TABLE_MAX:
            if self._group_at is None:
                self._group_at = np.repeat(np.arange(self.n_groups, dtype=np.int64), self.colours)
            cells = self._group_at[positions]
        else:
            cells = np.searchsorted(self.ends, positions, side="right")
        cells *= trials
        cells += np.arange(trials, dtype=np.int64)[:, None]
        counts = np.bincount(cells.ravel(), minlength=self.n_groups * trials)
        return counts.reshape(self.n_groups, trials)


#: Samplers already built, per pile (cards per group): one built for ``n`` cards also deals
#: any fewer (its rows cover every number of cards left), so a by-turn table builds one.
_SAMPLERS: dict[tuple[int, ...], FixedPileSampler] = {}


def pile_sampler(sizes: Sequence[int], n: int) -> FixedPileSampler:
    """A :class:`FixedPileSampler` for ``n`` cards of the pile ``sizes``, built once per pile
    for the most cards asked so far (see :data:`_SAMPLERS`)."""
    key = tuple(sizes)
    got = _SAMPLERS.get(key)
    if got is None or got.n < n:
        got = FixedPileSampler(sizes, n)
        if len(_SAMPLERS) >= 8:
            _SAMPLERS.pop(next(iter(_SAMPLERS)))
        _SAMPLERS[key] = got
    if got.n == n:
        return got
    method = sampling_method(sizes, n, built_for=got.n)
    if method is SamplingMethod.TABLES and not got.steps:
        return FixedPileSampler(sizes, n)  # the shared sampler deals without tables
    view = copy.copy(got)
    view.n = n
    view.method = method
    return view


def draw_rowwise(
    rng: np.random.Generator, pile: IntArray, n: int, order: Sequence[int]
) -> IntArray:
    """Group counts of ``n`` cards dealt from each column's own pile (``pile``: groups x trials)."""
    out = np.zeros_like(pile)
    if n == 0 or pile.shape[1] == 0:
        return out
    left = np.full(pile.shape[1], n, dtype=np.int64)
    rest = pile.sum(axis=0)
    for g in order[:-1]:
        rest -= pile[g]
        k = rng.hypergeometric(pile[g], rest, left)
        out[g] = k
        left -= k
    out[order[-1]] = left
    return out


class _Lookup:
    """Apply a Python function once per distinct column of an integer matrix, with a cache.

    Used for the decisions that live in :mod:`deckcheck.draws.policies` (the look-ahead) or in a
    caller's table (the return choice): calling the very same Python code keeps the two
    simulators and the exact engine in agreement, and distinct compositions are few. Results
    must be hashable; each distinct result gets a small integer code, and :meth:`codes` maps
    every column to the code of its result.
    """

    def __init__(self, bounds: Sequence[int], fn: Callable[[tuple[int, ...]], Any]) -> None:
        self.fn = fn
        self.many: Callable[[IntArray], Any] | None = None  # fn of many columns, or None
        self.values: list[Any] = []
        self._code_of: dict[Any, int] = {}
        self._cache: dict[tuple[int, ...], Any] = {}  # fn's result per column
        radix = [1]
        for b in bounds[:-1]:
            radix.append(radix[-1] * b)
        space = math.prod(bounds)
        # A column is one key: mixed-radix integers (a dense table where the space is small), or
        # past int64 its bytes (uint8 where all values are below 255; a row-wise unique: 35x).
        self.radix = np.asarray(radix, dtype=np.int64) if space < 2**62 else None
        self.dense = np.full(space, -1, dtype=np.int32) if space <= DENSE_KEYS else None
        self.byte = np.dtype(np.uint8 if max(bounds) <= 255 else np.int64)
        # Past the dense table: the keys met so far, sorted (then one above any, no count being
        # 255 or negative: every search lands on a key), and their codes; Python is asked only
        # for keys never met (the look-ahead meets the same few thousand states every batch).
        top = np.full(len(bounds) * self.byte.itemsize, 255, np.uint8)  # as a key's bytes
        self.known = top.view(f"V{top.size}") if self.radix is None else np.full(1, 2**63 - 1)
        self.known_codes = np.zeros(1, dtype=np.int32)

    def _sorted_codes(self, keys: IntArray, mat: IntArray) -> npt.NDArray[np.int32]:
        """:meth:`codes` through the sorted keys met so far (see ``known``)."""
        # Searched in order, the keys' binary searches share their paths in the cache.
        by = np.argsort(keys)
        ordered = keys[by]
        at = np.searchsorted(self.known, ordered)
        missing = np.flatnonzero(self.known.take(at) != ordered)
        if missing.size:
            # In order already: each new key's first column, and where it goes among the known.
            first = missing[np.r_[True, ordered[missing[1:]] != ordered[missing[:-1]]]]
            found = self._new(mat[:, by[first]])
            self.known = np.insert(self.known, at[first], ordered[first])
            self.known_codes = np.insert(self.known_codes, at[first], found)
            at = np.searchsorted(self.known, ordered)
        out = np.empty(len(keys), dtype=np.int32)
        out[by] = self.known_codes.take(at)
        return out

    def _new(self, cols: IntArray) -> npt.NDArray[np.int32]:
        """The codes of the columns ``cols``: by :attr:`many` when it answers (coded a
        distinct answer at a time), else by ``fn`` once per column ever met."""
        got = None if self.many is None else self.many(cols)
        inverse: Any = slice(None)
        if got is None:
            cache = self._cache
            columns = map(tuple, cols.T.tolist())
            got = [cache[c] if c in cache else cache.setdefault(c, self.fn(c)) for c in columns]
        else:  # decisions, or rows of a return per hand: each one a hashable value
            got, inverse = np.unique(got, return_inverse=True, axis=0 if got.ndim > 1 else None)
            got = [tuple(v) if isinstance(v, list) else v for v in got.tolist()]
        codes = [self._code_of.setdefault(value, len(self._code_of)) for value in got]
        self.values = list(self._code_of)  # in the order of their codes
        return np.asarray(codes, dtype=np.int32)[inverse]

    def codes(self, mat: IntArray) -> npt.NDArray[np.int32]:
        """Per column of ``mat``, the code of ``fn(column)``; decode through :attr:`values`."""
        if self.radix is None:
            keys = np.ascontiguousarray(mat.T, self.byte).view(self.known.dtype).ravel()
        else:
            keys = self.radix @ mat
        if self.dense is None and self.known.nbytes > 8 * SORTED_KEYS:
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            return self._new(mat[:, first])[inverse.reshape(-1)]
        if self.dense is None:
            return self._sorted_codes(keys, mat)
        got = self.dense[keys]
        missing = np.flatnonzero(got < 0)
        if missing.size:
            new_keys, first = np.unique(keys[missing], return_index=True)
            self.dense[new_keys] = self._new(mat[:, missing[first]])
            got = self.dense[keys]
        return got


@per_object(maxsize=8)
def _arrays(problem: DrawProblem) -> tuple[IntArray, list[int], IntArray, BoolArray]:
    """The pile's group sizes (a column), the groups smallest first (as a list and an array)
    and the membership matrix: made once for the rows of a by-turn table."""
    sizes = problem.group_sizes
    order = sorted(range(len(sizes)), key=lambda g: sizes[g])
    arrays = (
        np.asarray(sizes, dtype=np.int64).reshape(-1, 1),
        np.asarray(order, dtype=np.int64),
        np.asarray(problem.membership, dtype=bool).reshape(len(sizes), -1),
    )
    for shared in arrays:
        shared.setflags(write=False)  # shared by every simulator of the problem
    return arrays[0], order, arrays[1], arrays[2]


@per_object(maxsize=8)
def _selector_groups(problem: DrawProblem, rule: object) -> dict[int, list[int]]:
    """Per selector the conditions and the redraw's triggers read: the groups it matches
    (computed once for the rows of a by-turn table, which share the problem)."""
    tests = list(problem.conditions) + (list(rule.triggers) if isinstance(rule, RedrawRule) else [])
    return {
        t.selector: [g for g, row in enumerate(problem.membership) if row[t.selector]]
        for t in tests
    }


class _Simulator:
    """Everything precomputed for one (problem, procedure, query); runs batches of trials."""

    def __init__(
        self,
        problem: DrawProblem,
        procedure: Procedure,
        query: Query,
        choose_return: ReturnChooser | None,
        choose_redraw: RedrawChooser | None = None,
        keep_top: KeepChooser | None = None,
    ) -> None:
        self.problem = problem
        self.shape = deal_shape(problem, procedure, query)
        sizes = problem.group_sizes
        self.n_groups = len(sizes)
        self.sizes, self.order, self.order_array, self.member = _arrays(problem)
        batch = LOOKAHEAD_BATCH if self.shape.lookahead else BATCH
        # Hundreds of groups would make a batch's count arrays hundreds of megabytes.
        self.batch = min(batch, max(MIN_BATCH, BATCH_CELLS // max(1, self.n_groups)))
        rule = self.shape.rule
        self.selector_groups = _selector_groups(problem, rule)
        plain = rule is None and not self.shape.lookahead
        seen = self.shape.hand + self.shape.later
        # A plain draw deals the counts of the cards seen at once; otherwise the hand, then
        # what follows it.
        self.seen_sampler = pile_sampler(sizes, seen) if plain else None
        self.hand_sampler = None if plain else pile_sampler(sizes, self.shape.hand)
        # The rule of thumb is computed on whole arrays (see _rule_of_thumb); a supplied
        # decision is looked up once per distinct (held, gone, top card) column.
        if keep_top is None:
            self.keep = None
        else:
            n = self.n_groups
            many = getattr(keep_top, "many", None)  # the decisions in bulk, where offered
            # A deal holds at most the cards seen, and has taken at most those and one card
            # put under per look from the pile: bounds that keep the key space of a short
            # deal small enough for a dense table (Planetary Conquerors' legal-80 by turn 3:
            # 5 million keys instead of 10**9, a gather per look-up instead of a search).
            seen = self.shape.hand + self.shape.later
            looks = -(-self.shape.later // self.shape.per_turn)
            self.keep = _Lookup(
                [min(s, seen) + 1 for s in sizes]
                + [min(s, seen + looks) + 1 for s in sizes]
                + [max(n, 1)],
                lambda key: bool(keep_top(key[:n], key[n : 2 * n], key[-1])),
            )
            if many is not None:
                self.keep.many = lambda m: many(m[:n], m[n : 2 * n], m[-1])
        self.redraws: _Lookup | None = None
        if isinstance(rule, RedrawRule) and choose_redraw is not None:
            # Key: the hand and the redraws left (the last slot; unlimited rules use slot 0).
            limit = rule.max_redraws
            self.redraws = _Lookup(
                [s + 1 for s in sizes] + [1 if limit is None else limit + 1],
                lambda key: bool(
                    choose_redraw(key[:-1], None if limit is None else key[-1])  # type: ignore[arg-type]
                ),
            )
        self.returns: _Lookup | None = None
        # The greedy return (no choice supplied) is computed on whole arrays, as the rule of
        # thumb of the look-ahead: a Python call per distinct hand is what made it slow.
        self.greedy = isinstance(rule, ReturnRule) and choose_return is None
        if isinstance(rule, ReturnRule) and choose_return is not None:
            chooser, count = choose_return, rule.count
            self.returns = _Lookup(
                [s + 1 for s in sizes], lambda hand: check_return(hand, chooser(hand), count)
            )
            self.returns.many = getattr(chooser, "many", None)  # a row per hand, in bulk
        # Per condition: the selector's membership column (groups) and the lower-bound test.
        conds = problem.conditions
        # As floats: a matrix product of floats is a BLAS call, one of integers is not.
        self.cond_member = (
            self.member[:, [c.selector for c in conds]].astype(np.float32)
            if conds
            else np.zeros((self.n_groups, 0), dtype=np.float32)
        )

    # -- conditions ---------------------------------------------------------------------------

    def _totals(self, selector: int, held: IntArray) -> IntArray:
        groups = self.selector_groups[selector]
        if not groups:
            return np.zeros(held.shape[1], dtype=np.int64)
        if len(groups) == 1:
            return held[groups[0]]
        return held[groups].sum(axis=0)

    def _test(self, test: CountTest, held: IntArray) -> BoolArray:
        return test.op.holds(self._totals(test.selector, held), test.threshold)  # type: ignore[no-any-return]

    def satisfied(self, held: IntArray) -> BoolArray:
        """Per column: whether the query holds (every condition, or every condition of one
        alternative of ``any_of``)."""
        if not self.problem.any_of:
            ok = np.ones(held.shape[1], dtype=bool)
            for row in self._holding(held):
                ok &= row
            return ok
        holds = self._holding(held)
        ok = np.zeros(held.shape[1], dtype=bool)
        for alt in self.problem.any_of:
            both = np.ones(held.shape[1], dtype=bool)
            for i in alt:
                both &= holds[i]
            ok |= both
        return ok

    def _holding(self, held: IntArray) -> list[BoolArray]:
        """Per condition, per column: whether it holds."""
        conds = self.problem.conditions
        if len(conds) < MATMUL_CONDITIONS:
            return [self._test(test, held) for test in conds]
        # Every condition's count from one matrix product instead of a sum over a copy of
        # its groups' rows each. float32 is exact here: counts and their sums stay below 2**24
        # (no pile comes near 16 million cards).
        totals = self.cond_member.T @ held.astype(np.float32)
        return [test.op.holds(totals[i], test.threshold) for i, test in enumerate(conds)]

    def triggered(self, rule: RedrawRule, held: IntArray) -> BoolArray:
        """Per column: whether the redraw rule allows a redraw (any trigger holds)."""
        hit = np.zeros(held.shape[1], dtype=bool)
        for test in rule.triggers:
            hit |= self._test(test, held)
        return hit

    # -- dealing ------------------------------------------------------------------------------

    def later(self, rng: np.random.Generator, held: IntArray) -> IntArray:
        """The holding after the draws that follow the hand; the pile is everything not held."""
        if self.shape.later == 0:
            return held
        if self.shape.lookahead:
            return self._lookahead(rng, held)
        return held + draw_rowwise(rng, self.sizes - held, self.shape.later, self.order)

    def _take(
        self,
        rng: np.random.Generator,
        pile: IntArray,
        left: IntArray,
        under: IntArray,
        head: IntArray,
        cols: IntArray | None,
    ) -> IntArray:
        """Deal the top card of the columns ``cols`` (None: all): from the shuffled pile while it
        lasts, then from the cards put under it, in the order they went there. ``left`` holds
        each column's cards still in the shuffled pile and is kept up to date."""
        sub = pile if cols is None else pile[:, cols]
        total = left if cols is None else left[cols]
        n = sub.shape[1]
        if n and total.min() == 0:
            # Rare: some piles are used up and deal from the cards put under them.
            fresh = np.flatnonzero(total > 0)
            stale = np.flatnonzero(total == 0)
            every = np.arange(n) if cols is None else cols
            card = np.empty(n, dtype=np.int64)
            if fresh.size:
                card[fresh] = self._take(rng, pile, left, under, head, every[fresh])
            c = every[stale]
            card[stale] = under[head[c], c]
            head[c] += 1
            return card
        # The next card of a uniformly shuffled pile is a uniform pick among its cards. Scaling
        # a uniform double by a total of at most a few hundred is uniform to within 2**-45.
        r = (rng.random(n) * total).astype(np.int64)
        acc = sub[self.order[0]].copy()
        card = np.zeros(n, dtype=np.int64)
        for g in self.order[1:]:
            # `card` counts the groups whose cumulative count is <= r, i.e. the group index in
            # `order`; mapped back to real group numbers below.
            card += acc <= r
            acc += sub[g]
        card = self.order_array[card]
        at = np.arange(n) if cols is None else cols
        pile[card, at] -= 1
        left[at] -= 1
        return card

    def _rule_of_thumb(self, held: IntArray, card: IntArray) -> BoolArray:
        """:func:`~deckcheck.draws.policies.lookahead_keep` for every column at once: a top
        card that breaks a holding upper bound goes under, one that advances an unmet
        condition is kept, any other only while some upper bound is one card from breaking."""
        n = held.shape[1]
        hurts = np.zeros(n, dtype=bool)
        advances = np.zeros(n, dtype=bool)
        near = np.zeros(n, dtype=bool)
        for test in self.problem.conditions:
            count = self._totals(test.selector, held)
            op, th = test.op, test.threshold
            member = self.member[card, test.selector]
            if op.is_upper_bound:
                breaks = op.holds(count, th) & ~op.holds(count + 1, th)
                hurts |= member & breaks
                near |= breaks
            if op.is_lower_bound:
                advances |= member & ~op.holds(count, th) & (count < op.least(th))
        return ~hurts & (advances | near)

    def _lookahead(self, rng: np.random.Generator, held: IntArray) -> IntArray:
        held = held.copy()
        pile = self.sizes - held
        left = pile.sum(axis=0)
        trials = held.shape[1]
        per_turn = self.shape.per_turn
        looks = -(-self.shape.later // per_turn)
        under = np.zeros((looks, trials), dtype=np.int64)  # cards put at the bottom, in order
        head = np.zeros(trials, dtype=np.int64)
        tail = np.zeros(trials, dtype=np.int64)
        every = np.arange(trials)
        for j in range(self.shape.later):
            card = self._take(rng, pile, left, under, head, None)
            if j % per_turn == 0:
                if self.keep is None:
                    kept = self._rule_of_thumb(held, card)
                else:
                    codes = self.keep.codes(np.vstack([held, self.sizes - pile, card]))
                    kept = np.asarray(self.keep.values, dtype=bool)[codes]
                moved = np.flatnonzero(~kept)
                if moved.size:
                    under[tail[moved], moved] = card[moved]
                    tail[moved] += 1
                    card[moved] = self._take(rng, pile, left, under, head, moved)
            held[card, every] += 1
        return held

    def _redraw(
        self, rng: np.random.Generator, rule: RedrawRule, hand: IntArray
    ) -> tuple[IntArray, IntArray, int]:
        """Apply the redraw rule; returns the final hands, the redrawn columns and how many
        columns hit the redraw cap."""
        assert self.hand_sampler is not None
        hand = hand.copy()
        redrawn = np.zeros(hand.shape[1], dtype=bool)
        active = np.flatnonzero(self.triggered(rule, hand))
        rounds = 0
        while active.size and (rule.max_redraws is None or rounds < rule.max_redraws):
            if rounds >= REDRAW_CAP:
                return hand, np.flatnonzero(redrawn), int(active.size)
            active = active[self._wants_redraw(rule, hand[:, active], rounds)]
            if not active.size:
                break
            new = self.hand_sampler.sample(rng, active.size)
            hand[:, active] = new
            redrawn[active] = True
            rounds += 1
            active = active[self.triggered(rule, new)]
        return hand, np.flatnonzero(redrawn), 0

    def _wants_redraw(self, rule: RedrawRule, hands: IntArray, rounds: int) -> BoolArray:
        """Per column of allowed hands: whether the player's policy redraws it."""
        if self.redraws is None:
            return np.ones(hands.shape[1], dtype=bool)
        left = 0 if rule.max_redraws is None else rule.max_redraws - rounds
        keys = np.vstack([hands, np.full((1, hands.shape[1]), left, dtype=np.int64)])
        codes = self.redraws.codes(keys)
        return np.asarray(self.redraws.values, dtype=bool)[codes]

    def greedy_returns(self, hand: IntArray, count: int) -> IntArray:
        """:func:`~deckcheck.draws.policies.greedy_return` for every column at once: cards
        returned per group (all zero for a hand kept). A hand that meets the query is kept;
        otherwise ``count`` times the first group (in group order) holding a card that
        advances no condition the hand would miss without it goes back, else the first group
        holding a card at all."""
        held = hand.copy()
        returned = np.zeros_like(hand)
        trials = hand.shape[1]
        active = ~self.satisfied(hand)
        conds = self.problem.conditions
        for _ in range(count):
            if not active.any():
                break
            needed = np.zeros((len(conds), trials), dtype=np.float32)
            for i, c in enumerate(conds):
                if c.op.is_lower_bound:
                    # Without one of its cards, the count would be short of the least needed.
                    needed[i] = self._totals(c.selector, held) - 1 < c.op.least(c.threshold)
            useful = (self.cond_member @ needed) > 0  # float sums of a few ones are exact
            has = held > 0
            useless = has & ~useful
            pick = np.where(useless.any(axis=0), useless.argmax(axis=0), has.argmax(axis=0))
            cols = np.flatnonzero(active & has.any(axis=0))
            held[pick[cols], cols] -= 1
            returned[pick[cols], cols] += 1
            active &= has.any(axis=0)
        return returned

    def _return(
        self, rng: np.random.Generator, rule: ReturnRule, hand: IntArray
    ) -> tuple[IntArray, IntArray]:
        """Apply the return rule; returns the new hands of the columns that returned cards, and
        those columns."""
        if self.greedy:
            returned = self.greedy_returns(hand, rule.count)
        else:
            assert self.returns is not None
            codes = self.returns.codes(hand)
            values = self.returns.values
            table = np.asarray(values, dtype=np.int64).reshape(len(values), self.n_groups)
            returned = table[codes].T
        cols = np.flatnonzero(returned.sum(axis=0) > 0)
        kept = hand[:, cols] - returned[:, cols]
        kept += draw_rowwise(rng, self.sizes - kept, rule.count, self.order)
        return kept, cols

    def run(
        self, rng: np.random.Generator, trials: int, progress: Callable[[int], None] | None = None
    ) -> tuple[int, int, int]:
        """Run ``trials`` trials in batches: (successes, successes without mulligan, capped)."""
        totals = [0, 0, 0]
        done = 0
        while done < trials:
            n = min(self.batch, trials - done)
            for i, v in enumerate(self._batch(rng, n)):
                totals[i] += v
            done += n
            if progress is not None:
                progress(n)
        return totals[0], totals[1], totals[2]

    def _batch(self, rng: np.random.Generator, trials: int) -> tuple[int, int, int]:
        rule = self.shape.rule
        if self.seen_sampler is not None:
            wins = int(np.count_nonzero(self.satisfied(self.seen_sampler.sample(rng, trials))))
            return wins, wins, 0
        assert self.hand_sampler is not None
        first = self.hand_sampler.sample(rng, trials)
        # The figure without the mulligan: the first hand and the cards under it. Columns the
        # mulligan leaves alone reuse it, which couples the two estimates like the reference.
        ok_plain = self.satisfied(self.later(rng, first))
        ok = ok_plain
        capped = 0
        if isinstance(rule, RedrawRule):
            hand, cols, capped = self._redraw(rng, rule, first)
            if cols.size:
                ok = ok_plain.copy()
                ok[cols] = self.satisfied(self.later(rng, hand[:, cols]))
        elif isinstance(rule, ReturnRule):
            kept, cols = self._return(rng, rule, first)
            if cols.size:
                ok = ok_plain.copy()
                ok[cols] = self.satisfied(self.later(rng, kept))
        return int(np.count_nonzero(ok)), int(np.count_nonzero(ok_plain)), capped


def simulate_vectorised(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    trials: int,
    seed: int | None,
    choose_return: ReturnChooser | None = None,
    progress: ProgressCallback | None = None,
    choose_redraw: RedrawChooser | None = None,
    keep_top: KeepChooser | None = None,
) -> Answer:
    """Estimate the query's probability from ``trials`` simulated deals, vectorised with numpy.

    Same rules and result fields as :func:`deckcheck.draws.simulate.reference.simulate_reference`.
    ``seed`` None draws a fresh seed (reported in the result). The run is split into chunks
    of :data:`CHUNK` deals, each from its own stream of ``SeedSequence(seed).spawn``, all in
    this process. ``progress(done, total)`` is called as trials complete.
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    # The simulator checks the query up front.
    sim = _Simulator(problem, procedure, query, choose_return, choose_redraw, keep_top)
    sizes = [CHUNK] * (trials // CHUNK) + ([trials % CHUNK] if trials % CHUNK else [])
    streams = np.random.SeedSequence(seed).spawn(len(sizes))
    facts = list(sim.shape.facts)
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, trials)

    successes = plain = capped = 0
    for n, stream in zip(sizes, streams, strict=True):
        won, won_plain, cut = sim.run(np.random.default_rng(stream), n, tick)
        successes, plain, capped = successes + won, plain + won_plain, capped + cut
    if capped:
        facts.append(Fact(FactKind.REDRAW_CAP_REACHED, limit=REDRAW_CAP, count=capped))
    return Answer.from_counts(successes, plain, trials, seed, Method.SIMULATION_VECTORISED, facts)
