"""The plain draw simulated by its outcome classes, and the redraw rule by hand compositions.

A plain draw (no mulligan, no look-ahead) is settled by the counts of the condition selectors
among the cards seen, and only up to the caps past which no test changes its verdict
(:meth:`~deckcheck.draws.compare.Comparison.cap`). Those capped vectors, the *outcome
classes*, are few when the conditions are (tens to a few thousand), and their distribution
is computed once, before any deal: classes of cards (:mod:`~deckcheck.draws.exact.reduced`)
are taken one after another, each a hypergeometric step given the cards still to deal, with
every count capped as it grows. A deal is then one draw from that distribution by Walker's
alias method, and the test is read off the class drawn: one random word per deal and a look-up
or two, where dealing counts group by group costs a random number per group (numpy's
``multivariate_hypergeometric`` with method "count": one per card). Measured on one core
(numpy 2.4): 1.4 ns a deal with 16-bit words (up to 256 classes), 2.7 ns with 32-bit words;
numpy's "count" method took 6 to 150 ns on the bundled examples.

Exactness: the class probabilities are sums of products of hypergeometric probabilities, each
an exact ratio of integers rounded once to a double, all positive (no cancellation), so a
class's probability is off by a relative 1e-15 at most; the alias table holds them as integers
in units of ``2**-(fraction bits + 32)`` per bucket. A deal reads ``W`` random bits (16 or 32):
the top ``m`` pick one of ``2**m`` buckets, the rest are compared with the top of the bucket's
threshold and, in the rare tie, 32 more bits settle it, so the table's full precision is
honoured.

The redraw rule (:class:`RedrawSampler`) uses the same tables: the hand is one of the opening
hand's compositions, drawn by an alias table; the rule and the player's choice are looked up
per composition; the later draws are the outcome class of the whole holding, drawn from an
alias table per final hand. Tables are built only where they repay their cost over the run
(:func:`affordable`); elsewhere the simulator deals counts group by group.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from deckcheck.core.numeric import np, npt
from deckcheck.draws.exact.reduced import Reduced, reduce_problem
from deckcheck.draws.model import DrawProblem, RedrawRule
from deckcheck.draws.policies import triggers_held

#: Arrays of unsigned words (16 or 32 bits, chosen per table).
Words = npt.NDArray[Any]

#: Most outcome classes (the product of the capped counts' ranges) for which a table is built.
MAX_CLASSES = 1 << 14
#: What building a table costs, measured (numpy 2.4, Python 3.11, the project's machine): each
#: exact hypergeometric ratio about 1.6 µs, each state update about 4 ns, 0.2 ms to start
#: a table, 1 ms to start a sampler.
RATIO_SECONDS = 1.6e-6
UPDATE_SECONDS = 4e-9
TABLE_SECONDS = 2e-4
SAMPLER_SECONDS = 1e-3
#: Tables are built when they cost at most this much per deal of the run: a plain deal dealt
#: group by group costs 30 to 100 ns more than an outcome class, a deal under the redraw rule
#: 150 to 300 ns more than a hand composition (measured). A short run may always spend
#: ``MIN_BUILD_SECONDS``.
BUILD_SECONDS_PER_DEAL = 3e-8
REDRAW_BUILD_SECONDS_PER_DEAL = 1e-7
MIN_BUILD_SECONDS = 2e-3
#: Buckets up to 2**SHORT_BUCKET_BITS are drawn from 16-bit words (ties one deal in 2**8 or
#: rarer), more from 32-bit words.
SHORT_BUCKET_BITS = 8
#: Extra bits that settle a tie between a deal's word and its bucket's threshold.
_TIE_BITS = 32


def build_seconds(red: Reduced, n: int) -> float:
    """About how long :func:`_table` takes for ``n`` more cards (see RATIO_SECONDS)."""
    classes = math.prod(c + 1 for c in red.cond.caps)
    ratios = (n + 1) * sum(min(s, n) + 1 for s in red.sizes)
    return TABLE_SECONDS + ratios * RATIO_SECONDS + classes * ratios * UPDATE_SECONDS


def affordable(seconds: float, trials: int, per_deal: float = BUILD_SECONDS_PER_DEAL) -> bool:
    """Whether tables costing ``seconds`` to build repay themselves over ``trials`` deals,
    each dealt ``per_deal`` seconds faster than without them (see BUILD_SECONDS_PER_DEAL)."""
    return seconds <= max(MIN_BUILD_SECONDS, trials * per_deal)


def in_reach(problem: DrawProblem, n: int, trials: int) -> bool:
    """Whether the outcome table of ``n`` cards seen is small enough, and quick enough to
    build for a run of ``trials`` deals."""
    red = reduce_problem(problem)
    classes = math.prod(c + 1 for c in red.cond.caps)
    return classes <= MAX_CLASSES and affordable(SAMPLER_SECONDS + build_seconds(red, n), trials)


def _hypergeometric(size: int, rest: int, n: int) -> npt.NDArray[np.float64]:
    """``h[j, l]``: P(j cards of a class of ``size`` | ``l`` cards dealt from it and ``rest``
    others), for ``l <= n``; each an exact ratio of integers rounded once."""
    h = np.zeros((min(size, n) + 1, n + 1))
    for left in range(n + 1):
        total = math.comb(size + rest, left)
        if total == 0:
            continue  # more cards than the pile holds: a state never reached
        for j in range(min(size, left) + 1):
            ways = math.comb(size, j) * math.comb(rest, left - j)
            if ways:
                h[j, left] = ways / total
    return h


@functools.lru_cache(maxsize=1024)
def _table(
    sizes: tuple[int, ...],
    positions: tuple[tuple[int, ...], ...],
    caps: tuple[int, ...],
    n: int,
    start: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Probabilities of the capped vectors (mixed radix, first position fastest) after ``n``
    more cards from classes of ``sizes``, from the vector coded ``start``, and the vectors
    themselves (classes x positions)."""
    radix = [1]
    for c in caps:
        radix.append(radix[-1] * (c + 1))
    n_classes = radix[-1]
    codes = np.arange(n_classes, dtype=np.int64)
    vectors = np.stack([(codes // radix[p]) % (c + 1) for p, c in enumerate(caps)], axis=1).reshape(
        n_classes, len(caps)
    )
    caps_array = np.asarray(caps, dtype=np.int64)
    weights = np.asarray(radix[:-1], dtype=np.int64)
    # state[k, l]: probability of capped vector k with l cards still to deal.
    state = np.zeros((n_classes, n + 1))
    state[start, n] = 1.0
    rest = sum(sizes)
    for size, pos in zip(sizes, positions, strict=True):
        rest -= size
        h = _hypergeometric(size, rest, n)
        top = min(size, n)
        # Counts of this class past its largest cap move every vector alike.
        saturate = min(top, max((caps[p] for p in pos), default=0))
        mask = np.zeros(len(caps), dtype=np.int64)
        mask[list(pos)] = 1
        new = np.zeros_like(state)
        for jj in range(saturate + 1):
            # Everything that lands on vector + jj (capped), per cards left after the step.
            moved = np.zeros_like(state)
            for j in range(jj, top + 1) if jj == saturate else (jj,):
                moved[:, : n + 1 - j] += state[:, j:] * h[j, j:]
            if jj == 0:
                new += moved
                continue
            dest = np.minimum(vectors + jj * mask, caps_array) @ weights
            np.add.at(new, dest, moved)
        state = new
    return state[:, 0], vectors


class OutcomeSampler:
    """Deals the outcome class of ``n`` cards seen, for many deals at once (see the module).

    ``passes[k]`` says whether class ``k`` meets every condition; :meth:`successes` counts
    the deals whose class does, :meth:`classes` returns the classes themselves.
    """

    def __init__(self, problem: DrawProblem, n: int) -> None:
        red = reduce_problem(problem)
        self.n = n
        self.caps = red.cond.caps
        probabilities, self.vectors = _table(red.sizes, red.cond.class_positions, red.cond.caps, n)
        self.probabilities = probabilities
        passes = np.ones(len(probabilities), dtype=bool)
        for p, test in red.cond.tests:
            passes &= test.op.holds(self.vectors[:, p], test.threshold)
        self.passes = passes
        self._buffers: dict[str, npt.NDArray[Any]] = {}
        # One class of probability 1 (a pile of one group, say): every deal is that class and
        # needs no random bits, as dealing its counts needs none.
        live = np.flatnonzero(probabilities > 0)
        self.certain = bool(passes[live[0]]) if len(live) == 1 else None
        self._alias(probabilities)

    def _alias(self, probabilities: npt.NDArray[np.float64]) -> None:
        """Walker's alias table, in integers (Vose's construction)."""
        k = len(probabilities)
        m = max(1, (k - 1).bit_length())
        word = 16 if m <= SHORT_BUCKET_BITS else 32
        self.dtype = np.uint16 if word == 16 else np.uint32
        fraction = word - m
        self.shift = self.dtype(fraction)
        self.mask = self.dtype((1 << fraction) - 1)
        self.top = (1 << word) - 1
        buckets = 1 << m
        cap = 1 << (fraction + _TIE_BITS)  # one bucket's worth of probability
        threshold, alias = _vose(list(probabilities), buckets, cap)
        # At most 2**fraction, below 2**word as m >= 1.
        hi = np.asarray([t >> _TIE_BITS for t in threshold], dtype=self.dtype)
        self.hi = hi
        self.lo = np.asarray([t & ((1 << _TIE_BITS) - 1) for t in threshold], dtype=np.uint32)
        self.alias = np.asarray(alias, dtype=np.intp)
        passes = np.concatenate([self.passes, np.zeros(buckets - k, dtype=bool)])
        # successes() looks the verdict up at 2 * bucket + (the bucket's own class drawn).
        verdict = np.empty(2 * buckets, dtype=bool)
        verdict[0::2] = passes[self.alias]
        verdict[1::2] = passes
        self.verdict = verdict
        # Where both classes of a bucket give one verdict, which is drawn does not matter: a
        # threshold past every word (2**fraction) spares those buckets the ties.
        same = verdict[0::2] == verdict[1::2]
        self.hi_verdict = np.where(same, 1 << fraction, hi).astype(self.dtype)
        # With 16-bit words, every word's verdict fits one table of 2**16 bytes (0 fails,
        # 1 passes, 2 ties with its bucket's threshold): a deal is then one look-up.
        self.word_verdict: npt.NDArray[np.uint8] | None = None
        if word == 16:
            every: Words = np.arange(1 << 16, dtype=np.uint16)
            bucket = every >> self.shift
            below = every & self.mask
            limit: Words = self.hi_verdict.take(bucket)
            table = np.where(
                below < limit, verdict[1::2].take(bucket), verdict[0::2].take(bucket)
            ).astype(np.uint8)
            table[below == limit] = 2
            self.word_verdict = table

    def _words(self, rng: np.random.Generator, trials: int) -> tuple[Words, Words]:
        """Per deal: its bucket, and the bits below it (compared with the bucket's threshold)."""
        word = rng.integers(0, self.top, size=trials, dtype=self.dtype, endpoint=True)
        bucket = self._buffer("bucket", trials, self.dtype)
        np.right_shift(word, self.shift, out=bucket)
        np.bitwise_and(word, self.mask, out=word)
        return bucket, word

    def _buffer(self, name: str, trials: int, dtype: type) -> npt.NDArray[Any]:
        """A working array of ``trials`` values, kept from batch to batch: allocating them
        afresh for each batch cost up to three times the sampling itself, from 2**15 deals a
        batch on (measured with numpy 2.4 on Linux)."""
        got = self._buffers.get(name)
        if got is None or len(got) < trials:
            got = self._buffers[name] = np.empty(trials, dtype=dtype)
        return got[:trials]

    def _settle(
        self,
        rng: np.random.Generator,
        bucket: Words,
        word: Words,
        hi: Words,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """The deals whose word ties with their bucket's threshold, and whether each keeps
        the bucket's own class (32 more bits against the threshold's low part)."""
        tied = self._buffer("tied", len(word), np.bool_)
        np.equal(word, hi, out=tied)
        tie = np.flatnonzero(tied)
        if not tie.size:
            return tie, np.zeros(0, dtype=bool)
        more = rng.integers(0, 0xFFFFFFFF, size=tie.size, dtype=np.uint32, endpoint=True)
        return tie, more < self.lo.take(bucket[tie])

    def classes(self, rng: np.random.Generator, trials: int) -> npt.NDArray[np.intp]:
        """The outcome class of each of ``trials`` deals (rows of :attr:`vectors`)."""
        bucket, word = self._words(rng, trials)
        hi = self.hi.take(bucket)
        own = word < hi
        tie, keeps = self._settle(rng, bucket, word, hi)
        own[tie] = keeps
        out = self.alias.take(bucket)
        np.copyto(out, bucket, where=own, casting="unsafe")
        return out

    def successes(self, rng: np.random.Generator, trials: int) -> int:
        """How many of ``trials`` deals meet every condition.

        The same draws as :meth:`classes` (one word per deal, 32 more bits at a tie that
        matters), counted through one look-up per deal into kept arrays: the fewest passes
        over the batch measured (2.8 ns a deal against 6.7 for a class then its verdict).
        """
        if self.certain is not None:
            return trials if self.certain else 0
        if self.word_verdict is not None:
            return self._word_successes(rng, trials, self.word_verdict)
        bucket, word = self._words(rng, trials)
        hi = self.hi_verdict.take(bucket, out=self._buffer("hi", trials, self.dtype))
        index = np.left_shift(bucket, 1, out=self._buffer("index", trials, self.dtype))
        below = np.less(word, hi, out=self._buffer("below", trials, np.bool_))
        np.bitwise_or(index, below, out=index, casting="unsafe")
        tie, keeps = self._settle(rng, bucket, word, hi)
        if tie.size:
            index[tie] = (bucket[tie] << 1) | keeps
        verdict = self.verdict.take(index, out=self._buffer("verdict", trials, np.bool_))
        return int(np.count_nonzero(verdict))

    def _word_successes(
        self, rng: np.random.Generator, trials: int, table: npt.NDArray[np.uint8]
    ) -> int:
        """:meth:`successes` with 16-bit words: four deals' words from each 64-bit random
        number (numpy's fastest way to random bits), one look-up each in ``table``, and the
        ties settled by 32 more bits as in :meth:`_settle` (1.3 ns a deal against 2.7)."""
        raw = rng.integers(0, 2**64 - 1, size=-(-trials // 4), dtype=np.uint64, endpoint=True)
        words = raw.view(np.uint16)[:trials]
        code = table.take(words, out=self._buffer("code", trials, np.uint8))
        mark = self._buffer("mark", trials, np.bool_)
        passed = int(np.count_nonzero(np.equal(code, 1, out=mark)))
        tie = np.flatnonzero(np.equal(code, 2, out=mark))
        if tie.size:
            bucket = words[tie] >> self.shift
            more = rng.integers(0, 0xFFFFFFFF, size=tie.size, dtype=np.uint32, endpoint=True)
            own = more < self.lo.take(bucket)
            passed += int(np.count_nonzero(self.verdict.take((bucket.astype(np.intp) << 1) | own)))
        return passed


def exact_probability(sampler: OutcomeSampler) -> float:
    """The table's own probability that every condition holds (for checks)."""
    return float(sampler.probabilities[sampler.passes].sum())


def sampler_sizes(problem: DrawProblem) -> Sequence[int]:
    """The card classes' sizes the table walks (for the bench's labels)."""
    return reduce_problem(problem).sizes


def _vose(probabilities: Sequence[float], buckets: int, cap: int) -> tuple[list[int], list[int]]:
    """Walker's alias table in integers (Vose's construction): per bucket, the threshold
    (in units where a bucket holds ``cap``) below which it gives its own class, and the class
    it gives above. The weights sum to ``buckets * cap`` exactly (largest remainders)."""
    scaled = [float(p) for p in probabilities] + [0.0] * (buckets - len(probabilities))
    total = math.fsum(scaled)
    target = buckets * cap
    exact = [p / total * target for p in scaled]
    weights = [int(x) for x in exact]
    for i in sorted(range(buckets), key=lambda i: weights[i] - exact[i])[: target - sum(weights)]:
        weights[i] += 1
    threshold = [cap] * buckets
    alias = list(range(buckets))
    small = [i for i in range(buckets) if weights[i] < cap]
    large = [i for i in range(buckets) if weights[i] >= cap]
    while small and large:
        s = small.pop()
        g = large[-1]
        threshold[s] = weights[s]
        alias[s] = g
        weights[g] -= cap - weights[s]
        if weights[g] < cap:
            large.pop()
            small.append(g)
    return threshold, alias


class AliasRows:
    """Several alias tables of one width, one per *row* (a distribution over ``classes``
    outcomes each): a deal of row ``r`` draws one 32-bit word, whose top bits pick a bucket of
    row ``r`` and whose other bits (and 32 more at a tie) decide between the bucket's own
    class and its alias, as :class:`OutcomeSampler` does for one row."""

    def __init__(self, rows: npt.NDArray[np.float64]) -> None:
        classes = rows.shape[1]
        self.m = max(1, (classes - 1).bit_length())
        buckets = 1 << self.m
        fraction = 32 - self.m
        self.fraction = np.uint32(fraction)
        self.mask = np.uint32((1 << fraction) - 1)
        cap = 1 << (fraction + _TIE_BITS)
        hi: list[int] = []
        lo: list[int] = []
        alias: list[int] = []
        for row in rows:
            threshold, other = _vose(list(row), buckets, cap)
            hi += [t >> _TIE_BITS for t in threshold]
            lo += [t & ((1 << _TIE_BITS) - 1) for t in threshold]
            alias += other
        self.hi = np.asarray(hi, dtype=np.uint32)
        self.lo = np.asarray(lo, dtype=np.uint32)
        self.alias = np.asarray(alias, dtype=np.intp)

    def draw(self, rng: np.random.Generator, rows: npt.NDArray[np.intp] | int, n: int) -> Any:
        """The class of each of ``n`` deals, of row ``rows`` (one row for all, or one each)."""
        word = rng.integers(0, 0xFFFFFFFF, size=n, dtype=np.uint32, endpoint=True)
        bucket = (word >> self.fraction).astype(np.intp)
        np.bitwise_and(word, self.mask, out=word)
        index = bucket + (np.asarray(rows, dtype=np.intp) << self.m)
        hi = self.hi.take(index)
        own = word < hi
        tie = np.flatnonzero(word == hi)
        if tie.size:
            more = rng.integers(0, 0xFFFFFFFF, size=tie.size, dtype=np.uint32, endpoint=True)
            own[tie] = more < self.lo.take(index[tie])
        out = self.alias.take(index)
        np.copyto(out, bucket, where=own)
        return out


#: Most hand compositions (over the problem's groups) :class:`RedrawSampler` enumerates.
MAX_HANDS = 4096


def _compositions(sizes: Sequence[int], n: int, limit: int) -> list[tuple[int, ...]] | None:
    """Every way to hold ``n`` cards with at most ``sizes[g]`` of group ``g``; None past
    ``limit`` of them."""
    out: list[tuple[int, ...]] = []
    suffix = [0] * (len(sizes) + 1)
    for g in range(len(sizes) - 1, -1, -1):
        suffix[g] = suffix[g + 1] + sizes[g]

    def walk(g: int, left: int, prefix: tuple[int, ...]) -> bool:
        if g == len(sizes):
            out.append(prefix)
            return len(out) <= limit
        for k in range(max(0, left - suffix[g + 1]), min(sizes[g], left) + 1):
            if not walk(g + 1, left - k, (*prefix, k)):
                return False
        return True

    return out if walk(0, n, ()) else None


class RedrawSampler:
    """The redraw rule dealt by hand compositions: the hand drawn from an alias table over
    every composition of the opening hand (exact multivariate hypergeometric weights), the
    redraw decided by a table per composition (the rule's triggers, and the player's choice
    for each number of redraws left, asked once per composition), and the later draws, where
    there are any, as the outcome class of the whole holding drawn from one alias table per
    final hand (see :func:`_table`). Built only where those tables are small (:meth:`build`).
    """

    def __init__(
        self,
        problem: DrawProblem,
        hand: int,
        later: int,
        rule: RedrawRule,
        choose: Callable[[tuple[int, ...], int | None], bool] | None,
        hands: list[tuple[int, ...]],
    ) -> None:
        sizes = problem.group_sizes
        self.compositions = hands
        total = math.comb(sum(sizes), hand)
        weights = [
            math.prod(math.comb(s, k) for s, k in zip(sizes, c, strict=True)) / total for c in hands
        ]
        self.hands = AliasRows(np.asarray([weights]))
        self.triggered = np.asarray([bool(triggers_held(rule, problem, c)) for c in hands])
        limit = rule.max_redraws
        lefts: list[int | None] = [None] if limit is None else list(range(limit, 0, -1))
        # wants[r][c]: whether the player redraws composition c after r redraws.
        self.wants = [
            np.asarray([True if choose is None else bool(choose(c, left)) for c in hands])
            for left in lefts
        ]
        red = reduce_problem(problem)
        cond = red.cond
        if later == 0:
            self.verdict_rows = None
            self.passes = np.asarray([problem.satisfied(c) for c in hands])
            return
        radix = [1]
        for cap in cond.caps:
            radix.append(radix[-1] * (cap + 1))
        rows = []
        for c in hands:
            held = red.to_classes(c)
            start = sum(v * r for v, r in zip(cond.of(held), radix, strict=False))
            rest = tuple(s - k for s, k in zip(red.sizes, held, strict=True))
            probabilities, vectors = _table(rest, cond.class_positions, cond.caps, later, start)
            rows.append(probabilities)
        passes = np.ones(len(vectors), dtype=bool)
        for p, test in cond.tests:
            passes &= test.op.holds(vectors[:, p], test.threshold)
        self.verdict_rows = AliasRows(np.asarray(rows))
        self.passes = passes

    @classmethod
    def build(
        cls,
        problem: DrawProblem,
        hand: int,
        later: int,
        rule: RedrawRule,
        choose: Callable[[tuple[int, ...], int | None], bool] | None,
        trials: int,
    ) -> RedrawSampler | None:
        """The sampler, or None where its tables would be too large to build quickly for a
        run of ``trials`` deals."""
        hands = _compositions(problem.group_sizes, hand, MAX_HANDS)
        if hands is None:
            return None
        red = reduce_problem(problem)
        classes = math.prod(c + 1 for c in red.cond.caps)
        lefts = 1 if rule.max_redraws is None else rule.max_redraws
        # A choice asked per composition and redraws left, and a table per final hand.
        seconds = SAMPLER_SECONDS + len(hands) * (lefts * 10 + hand) * RATIO_SECONDS
        if later:
            seconds += len(hands) * build_seconds(red, later)
        if classes > MAX_CLASSES or not affordable(seconds, trials, REDRAW_BUILD_SECONDS_PER_DEAL):
            return None
        return cls(problem, hand, later, rule, choose, hands)

    def deal(self, rng: np.random.Generator, n: int) -> npt.NDArray[np.intp]:
        """The hand composition of ``n`` deals (indices into the compositions)."""
        return self.hands.draw(rng, 0, n)  # type: ignore[no-any-return]

    def verdict(self, rng: np.random.Generator, hands: npt.NDArray[np.intp]) -> Any:
        """Whether each deal whose hand is ``hands`` meets every condition after its later
        draws."""
        if self.verdict_rows is None:
            return self.passes.take(hands)
        return self.passes.take(self.verdict_rows.draw(rng, hands, len(hands)))
