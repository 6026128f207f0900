"""The sequential engine: exact odds that need card-by-card order (look-ahead, return mulligan).

A memoised recursion over (cards of each class left in the pile, capped counts held, cards
held, look-ahead spent, cards gone) draws one card at a time. It is what the look-ahead (a
keep-or-put-under decision on each turn's top card) needs, because there a decision depends
on what was already seen. What keeps long queries small, each step exact: classes whose
cards can no longer change any count are one pool, and so are the cards that lose when kept;
classes alike but for their size share states (a card put under is gone for good, so a class
of five with one put under is a class of four); a state is settled as soon as what the pile
still holds decides it.

A query on named cards alone (each class counted by a selector of its own, every test to
hold) that takes the recursion more than :data:`LEVEL_TRIAL` calls goes to
:mod:`~deckcheck.draws.exact.levels` instead: the same states, valued a level at a time with
numpy, exact by residues; it then answers the hands, the returns and the looks. So does
:mod:`~deckcheck.draws.exact.typed` for types over named cards (``type:building>=2`` with
``name:Stone Bunker>=1``): a type's count and its other cards kept per type.

Where no level engine takes the query (each card counted by several selectors: ``type:``,
``rarity:``, costs) and the return table values every hand at once
(:mod:`~deckcheck.draws.exact.returned`), the states past the hands are valued a level at a
time by :mod:`~deckcheck.draws.exact.attributes` instead, from the hands the table leaves
open, charged as it goes; it then answers the looks (:meth:`SequentialEngine.keep_top`).

The return-``count`` mulligan is solved exactly on top of it: the value of returning cards
depends only on the part kept, so it is tabulated once per kept part and each opening hand
takes the best of keeping and its kept parts. A kept part's value is read from the state
holding it, which the plain pass has valued (its ordered draws of ``count`` cards, each
unordered one ``count!`` times): the draws after it are never walked. Work is counted
against a budget; past it, :class:`~deckcheck.draws.answer.Intractable` tells the caller to
simulate instead.
"""

from __future__ import annotations

import functools
import importlib.util
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from deckcheck.draws.answer import Intractable, OutOfReach, Reach, Stage
from deckcheck.draws.exact.capped import PlainProgramme, Progress
from deckcheck.draws.exact.compositions import (
    compositions,
    count_compositions,
    count_up_to_exchange,
    ways,
)
from deckcheck.draws.exact.hypergeometric import plain_ways, redraw_table
from deckcheck.draws.exact.named import Interval, TypedClass, named_kinds, typed_kinds
from deckcheck.draws.exact.reduced import Orbit, Reduced, Tracked, Vec, orbits, reduce_problem
from deckcheck.draws.model import CountTest, DrawProblem, LookaheadPolicy, Procedure, Query
from deckcheck.draws.policies import lookahead_keep

if TYPE_CHECKING:
    from deckcheck.draws.exact.attributes import AttributeLevels
    from deckcheck.draws.exact.levels import Bools, Ints, LevelEngine
    from deckcheck.draws.exact.returned import ReturnHands

#: Most units of work an exact computation may spend before it gives up with
#: :class:`Intractable`: steps of the sequential engine (one per transition, memo hits
#: included) plus compositions enumerated for a mulligan. Measured at roughly 3-5 µs a unit,
#: so the budget bounds a hopeless exact attempt to a few seconds before the simulation.
STATE_BUDGET = 1_000_000

_UNLIMITED = 1 << 62
#: More cards than any query draws: what :meth:`SequentialEngine._need` says of counts with
#: which the query can no longer hold.
_NEVER = 1 << 30
#: Units of the estimate (about 2 µs each) one call of the look-ahead recursion stands for:
#: a call, with its share of the mulligan's tables, measured at 2.4-3.3 µs (12 named cards,
#: mixed and either-or queries, idle machine; up to about 4.5 µs with the cores shared).
CALL_UNITS = 2
#: Calls the recursion is given, on a query the level engine takes
#: (:mod:`~deckcheck.draws.exact.levels`), before that engine is used instead: a query
#: answered within them is answered as before, without numpy.
LEVEL_TRIAL = 5_000
#: After its trial, the recursion goes on for this fraction (one over it) of what the level
#: engine's own steps would be charged before that engine runs
#: (:meth:`SequentialEngine._by_levels`): a long deal whose few states the recursion ends
#: within it costs less than the level engine; any other costs the level engine's charge
#: plus that share.
LEVEL_SHARE = 8
#: Microseconds of CPU one call of the look-ahead recursion stands for in the work counted
#: against :attr:`SequentialEngine.budget` (a call with its share of the tables, with the
#: cores shared): what the level engines' charges
#: (:attr:`~deckcheck.draws.exact.levels.LevelEngine.units_per_call`) are measured against.
CALL_MICROSECONDS = 4.0
#: Classes a call of the recursion is charged :data:`CALL_MICROSECONDS` for, all told; past
#: them each class adds :data:`STATE_CLASS_MICROSECONDS` to every new state the recursion
#: values (one not found known): a new state's children and their canonical forms are tuples
#: of a class each, and it walks its live classes, so a query of many classes costs more a
#: call. Measured by ``bench/bench_call_charge.py`` (figures in ``docs/performance.md``).
CALL_CLASSES = 13
STATE_CLASS_MICROSECONDS = 2.0


def state_calls(classes: int) -> float:
    """Calls (of :data:`CALL_MICROSECONDS`) a new state of the recursion over ``classes``
    classes is charged on top of its own call."""
    return max(0, classes - CALL_CLASSES) * STATE_CLASS_MICROSECONDS / CALL_MICROSECONDS


#: Units of the Python walk of the return table (:meth:`SequentialEngine.return_work`) past
#: which a query the level engine takes has its return table computed by it instead.
LEVEL_RETURN_FROM = 20_000

#: The engine's tables that depend only on :meth:`SequentialEngine.tables_key`.
_SHARED_TABLES = (
    "memo",
    "_split_cache",
    "_losing_cache",
    "_canonical_cache",
    "_moves_cache",
    "_kept_forms",
    "_steps",
    "_plans",
    "_needs",
    "_decisions",
    "_holding",
    "_inert_kept",
)

#: What a level engine is built from: per class its interval (the named cards'), or per
#: class its position, interval and group and per group its interval (types over them).
LevelKinds = list[tuple[int, Interval]] | tuple[list[TypedClass], list[Interval]]

#: The part of a hand kept by a return mulligan (cards per class); None = keep all.
Kept = tuple[int, ...] | None


class ReturnChoice(Mapping[tuple[int, ...], Kept]):
    """The optimal return per opening hand (cards per class): the kept part, or None to keep
    all. Found on first asking from the tabulated values, as a loop over every hand finds it
    (ties keep, then the first kept part in order); hands alike by exchange share the value,
    not the choice, which names their own cards."""

    def __init__(
        self, sizes: tuple[int, ...], hand: int, pick: Callable[[tuple[int, ...]], Kept]
    ) -> None:
        self._sizes = sizes
        self._hand = hand
        self._pick = pick
        self._known: dict[tuple[int, ...], Kept] = {}

    def __getitem__(self, hand: tuple[int, ...]) -> Kept:
        try:
            return self._known[hand]
        except KeyError:
            pass
        if (
            len(hand) != len(self._sizes)
            or sum(hand) != self._hand
            or any(not 0 <= k <= s for k, s in zip(hand, self._sizes, strict=True))
        ):
            raise KeyError(hand)
        got = self._known[hand] = self._pick(hand)
        return got

    def remember(self, hand: tuple[int, ...], kept: Kept) -> None:
        """Record the choice already found for ``hand``."""
        self._known[hand] = kept

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return compositions(self._sizes, self._hand)

    def __len__(self) -> int:
        return count_compositions(self._sizes, self._hand)[self._hand]


class EveryKeptPart(Mapping[tuple[int, ...], int]):
    """One value for every kept part of ``keep`` cards over classes of ``sizes``."""

    def __init__(self, sizes: tuple[int, ...], keep: int, value: int) -> None:
        self._sizes = sizes
        self._keep = keep
        self._value = value

    def __getitem__(self, kept: tuple[int, ...]) -> int:
        if (
            len(kept) != len(self._sizes)
            or sum(kept) != self._keep
            or any(not 0 <= k <= s for k, s in zip(kept, self._sizes, strict=True))
        ):
            raise KeyError(kept)
        return self._value

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return compositions(self._sizes, self._keep)

    def __len__(self) -> int:
        return count_compositions(self._sizes, self._keep)[self._keep]


class KeptPartValues(EveryKeptPart):
    """Every kept part's value, worked out by ``value(kept)`` when first asked for: ``odds``
    asks for none (the return table's probability is all it needs), the mulligan guide and
    the simulator's player for those they meet."""

    def __init__(
        self, sizes: tuple[int, ...], keep: int, value: Callable[[tuple[int, ...]], int]
    ) -> None:
        super().__init__(sizes, keep, 0)
        self._of = value
        self._known: dict[tuple[int, ...], int] = {}

    def __getitem__(self, kept: tuple[int, ...]) -> int:
        got = self._known.get(kept)
        if got is None:
            super().__getitem__(kept)  # KeyError for what is no kept part
            got = self._known[kept] = self._of(kept)
        return got


class LookaheadOracle:
    """``policies.lookahead_keep`` on capped counts, cached.

    The policy reads only the selector totals of the held cards and the top card's membership.
    It is called on an auxiliary problem with one unit group per selector (holding exactly the
    capped totals) plus one group per class, so the decision is the shared policy's own; capped
    totals decide every test exactly as the true ones (see :meth:`Comparison.cap`).
    """

    def __init__(self, problem: DrawProblem, red: Reduced) -> None:
        n_sel = len(problem.membership[0]) if problem.membership else 0
        unit_rows = tuple(tuple(i == s for i in range(n_sel)) for s in range(n_sel))
        self._n_sel = n_sel
        self._n_cls = len(red.sizes)
        self._selectors = red.cond.selectors
        self._aux = DrawProblem(
            group_sizes=(0,) * (n_sel + self._n_cls),
            membership=unit_rows + red.rows,
            conditions=problem.conditions,
        )
        self._problem = problem
        self._cache: dict[tuple[Vec, int], bool] = {}

    def keep(self, vec: Vec, cls: int) -> bool:
        """Whether the policy keeps a top card of class ``cls`` over capped counts ``vec``."""
        key = (vec, cls)
        got = self._cache.get(key)
        if got is None:
            held = [0] * (self._n_sel + self._n_cls)
            for i, s in enumerate(self._selectors):
                held[s] = vec[i]
            got = lookahead_keep(self._aux, held, self._n_sel + cls)
            self._cache[key] = got
        return got


#: Per alternative of a query: each test as (position, least passing count, most or None),
#: and sets of positions no class counts for two of, with the least count each needs.
Bounds = tuple[tuple[tuple[int, int, int | None], ...], tuple[tuple[tuple[int, int], ...], ...]]


#: What one alternative still asks of the pile (:meth:`SequentialEngine._plan`): the fewest
#: more cards it needs; per lower bound not met, the cards it still needs and the live classes
#: counting for it; per upper bound, the cards it may still take and those classes.
Plan = tuple[int, tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[int, tuple[int, ...]], ...]]


def _bounds(cond: Tracked) -> tuple[Bounds, ...]:
    """The tests of each alternative of ``cond`` (every test, when it has none) as bounds on
    counts, and sets of their positions whose shortfalls add up (no card counts for two): one
    taken in position order, one taking first the positions fewest classes count for (a
    named card before its type)."""
    alts = cond.alternatives or (tuple(range(len(cond.tests))),)
    out = []
    for alt in alts:
        bounds = tuple(
            (p, t.op.least(t.threshold), t.op.most(t.threshold))
            for p, t in (cond.tests[i] for i in alt)
        )
        least: dict[int, int] = {}
        for p, low, _ in bounds:
            if low > 0:
                least[p] = max(least.get(p, 0), low)
        owners = {p: sum(p in ps for ps in cond.class_positions) for p in least}
        sets: list[tuple[tuple[int, int], ...]] = []
        for order in (sorted(least), sorted(least, key=lambda p: (owners[p], p))):
            chosen: list[tuple[int, int]] = []
            for p in order:
                if all(
                    not (p in positions and q in positions)
                    for q, _ in chosen
                    for positions in cond.class_positions
                ):
                    chosen.append((p, least[p]))
            if tuple(sorted(chosen)) not in sets:
                sets.append(tuple(sorted(chosen)))
        out.append((bounds, tuple(sets)))
    return tuple(out)


def _broken(cond: Tracked, vec: Vec) -> bool:
    """Whether every alternative of ``cond`` (every test, when it has none) has a test past
    its most: counts only grow, so the query can no longer hold."""
    tests = cond.tests
    alts = cond.alternatives or (tuple(range(len(tests))),)
    return all(
        any(tests[i][1].op.broken(vec[tests[i][0]], tests[i][1].threshold) for i in alt)
        for alt in alts
    )


def _freezable(cond: Tracked) -> tuple[tuple[int, int, int, int], ...]:
    """The classes whose cards count for one position only, which no other class counts for
    and which some test bounds from above: ``(class, position, least, most)``, the counts
    between ``least`` and ``most`` passing every test on it (see
    :meth:`SequentialEngine._frozen`)."""
    owners: dict[int, int] = {}
    for positions in cond.class_positions:
        for p in positions:
            owners[p] = owners.get(p, 0) + 1
    out = []
    for c, positions in enumerate(cond.class_positions):
        if len(positions) != 1 or owners[positions[0]] != 1:
            continue
        p = positions[0]
        tests = [t for q, t in cond.tests if q == p]
        tops = [t.op.most(t.threshold) for t in tests]
        if not any(m is not None for m in tops):
            continue
        least = max(t.op.least(t.threshold) for t in tests)
        most = min(m for m in tops if m is not None)
        if least <= most:
            out.append((c, p, least, most))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _walked(groups: tuple[tuple[int, int], ...], hand: int, count: int) -> int:
    """What :meth:`SequentialEngine.return_work` counts over ``groups`` (bound, classes
    alike), for a return of ``count`` from ``hand``: the kept parts weighed per hand alike by
    exchange. Only ``min(bound, hand)`` matters (a hand holds no more), so the decks of a
    search, whose classes hold more than a hand, ask the same."""
    keep = hand - count
    subs = count_up_to_exchange(groups, hand, lambda b, k: [1] * (min(k, keep) + 1), keep)
    return subs[keep]


class SequentialEngine:
    """One exact computation: the reduced problem, the turn structure and the shared memo."""

    def __init__(
        self,
        problem: DrawProblem,
        procedure: Procedure,
        query: Query,
        triggers: Sequence[CountTest],
        budget: int,
        lookahead: LookaheadPolicy = "optimal",
    ) -> None:
        self.problem = problem
        self.hand = procedure.opening_size(query.second)
        self.seen = query.seen
        self.n = problem.pile_size
        if self.hand < 0 or self.hand > self.n:
            raise ValueError(f"an opening hand of {self.hand} from a pile of {self.n}")
        if not self.hand <= self.seen <= self.n:
            raise ValueError(
                f"cards seen must be between the opening hand ({self.hand}) and the pile "
                f"({self.n}); got {self.seen}"
            )
        self.red = reduce_problem(problem, triggers)
        self.budget = budget
        self.lookahead = procedure.lookahead and self.seen > self.hand
        self.per_turn = max(1, procedure.draws_per_turn)
        # One look-ahead per turn; a trailing partial turn starts with its look-ahead draw.
        self.looks = -(-(self.seen - self.hand) // self.per_turn) if self.lookahead else 0
        self.reads = self.seen + self.looks  # most cards ever taken off the pile
        if self.reads > self.n:
            # A put-under card could come round again; treating it as gone would be wrong.
            raise Intractable(
                OutOfReach(Reach.LOOKAHEAD_WRAPS, seen=self.seen, looks=self.looks, pile=self.n)
            )
        # The rule of thumb, when the look-ahead follows it; None: no look-ahead, or the best
        # decision for the query (the larger of the two values, see :meth:`value`).
        self.optimal = self.lookahead and lookahead == "optimal"
        self.lookahead_policy = (
            LookaheadOracle(problem, self.red) if self.lookahead and not self.optimal else None
        )
        # Classes that differ only by name, when the look-ahead is played optimally (the rule
        # of thumb is left its own order): states that differ by exchanging them share a value,
        # and so do states that differ in how the losing cards split (see :meth:`_pooled`).
        self._orbits: tuple[Orbit, ...] = orbits(self.red) if self.optimal else ()
        self._share_states(self.optimal)
        self.memo: dict[tuple[object, ...], int] = {}
        # The level engine, once it has valued every state instead of the recursion.
        self._levels: LevelEngine | None = None
        #: Whether the recursion may give way to the level engine (off: to compare against).
        self.use_levels = True
        #: Whether the open hands of a return table may be valued by the level engine over
        #: overlapping selectors (:mod:`~deckcheck.draws.exact.attributes`; off: to compare
        #: against), and that engine once it has valued them.
        self.use_attributes = True
        self._attributes: AttributeLevels | None = None
        self._attributes_made = False
        self._alternatives = _bounds(self.red.cond)
        self.work = 0
        # Calls each new state of the recursion is charged on top of its own (a fraction),
        # and the fraction of a call charged to none yet.
        self._state_calls = state_calls(len(self.red.sizes))
        self._owed = 0.0
        #: New states the recursion has valued (each charged :func:`state_calls`).
        self.valued = 0
        # Units of :attr:`work` already charged for what :meth:`spend` will be asked for (the
        # estimate, charged before starting so that the recursion cannot spend its share).
        self.prepaid = 0
        self._split_cache: dict[Vec, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._losing_cache: dict[Vec, tuple[int, ...]] = {}
        self._canonical_cache: dict[tuple[tuple[int, ...], Vec], tuple[tuple[int, ...], Vec]] = {}
        self._moves_cache: dict[Vec, tuple[tuple[int, tuple[int, ...]], ...]] = {}
        self._kept_forms: dict[tuple[tuple[int, ...], Vec, int], tuple[tuple[int, ...], Vec]] = {}
        # The classes one more card of which can break a test: those an upper bound counts.
        upper = {p for p, t in self.red.cond.tests if t.op.most(t.threshold) is not None}
        self._bounded = tuple(
            c for c, ps in enumerate(self.red.cond.class_positions) if upper.intersection(ps)
        )
        self._steps: dict[tuple[Vec, int], tuple[Vec, bool, bool, int]] = {}
        # Per capped count vector: per alternative not yet broken, what the pile must still
        # give (see :meth:`_plan`).
        self._plans: dict[Vec, tuple[Plan, ...]] = {}
        self._needs: dict[Vec, int] = {}
        self._decisions: dict[tuple[Vec, int], bool | None] = {}
        self._holding: dict[Vec, bool] = {}
        # Whether a look keeps an inert card, per capped count vector (set by _split).
        self._inert_kept: dict[Vec, bool] = {}
        # The plain programme :meth:`estimate` counted, reused by :meth:`without_mulligan`.
        self.plain: PlainProgramme | None = None
        # ``progress(done, total)`` hears every 2**12 steps (about 10 ms), against the last
        # estimate.
        self.progress: Progress | None = None
        self._report_at = 0x1000
        self.estimated = 0
        # Units the redraw table (a redraw rule without the look-ahead) may take: it cannot
        # be counted much faster than computed, so :meth:`estimate` leaves it out and it
        # stops itself past this (None: no limit).
        self.table_budget: int | None = None
        # Whether the tables of :data:`_SHARED_TABLES` are kept with other engines'.
        self._tables_shared = False
        # :meth:`return_work` per count: the estimate and the table both ask for it.
        self._return_works: dict[int, int] = {}
        # :meth:`_hands_return` per count, and the one the estimate counted: the plain pass
        # then reads the hands' values from it (:meth:`without_mulligan`).
        self._hands_tables: dict[int, ReturnHands | None] = {}
        self._hands_plain: ReturnHands | None = None
        # Units the hands' table charged as it ran, without the look-ahead (see
        # :meth:`charge_table`).
        self.hands_spent = 0
        self._walk_charged = False
        #: :attr:`estimated` had the return table been walked over every hand in Python: what
        #: a walk of every hand (the mulligan guide's) is weighed against.
        self.walked_estimate = 0
        #: After :meth:`return_table`: per kept part, the value of returning the rest (over
        #: ``comb(N - kept, count) * hand_scale()``), for a guide to the choice.
        self.kept_values: Mapping[tuple[int, ...], int] = {}

    @property
    def orbits(self) -> tuple[Orbit, ...]:
        """Classes alike (:func:`~.reduced.orbits`, by size). A state says how many cards of
        each class are left in the pile, so the recursion also shares states between classes
        alike but for their size (:attr:`families`); set to none, no sharing at all."""
        return self._orbits

    @orbits.setter
    def orbits(self, value: tuple[Orbit, ...]) -> None:
        # Given none, the engine shares no states at all (to compare against).
        self._orbits = value
        if self._tables_shared:
            # The tables kept with other engines were made with the states shared as before.
            self._tables_shared = False
            for name in _SHARED_TABLES:
                setattr(self, name, {})
        self._canonical_cache.clear()
        self._moves_cache.clear()
        self._kept_forms.clear()
        self._return_works.clear()
        self._share_states(bool(value) and self.optimal)

    def _share_states(self, share: bool) -> None:
        """States shared between classes alike but for their size (:attr:`families`) and
        classes frozen (:meth:`_frozen`), or none of that."""
        self.share = share
        self.families = orbits(self.red, by_size=False) if share else ()
        self._in_orbit = {c: (fam, i) for fam in self.families for i, (c, _) in enumerate(fam)}
        self._freezable = _freezable(self.red.cond) if share else ()
        self._freezing = {c: (p, least, most) for c, p, least, most in self._freezable}
        # Cards still to draw below which the frozen classes depend on them (see _frozen).
        self._horizon = max((most - least for _, _, least, most in self._freezable), default=0)

    def tables_key(self) -> tuple[object, ...]:
        """What the recursion's values (:attr:`memo`) and the tables behind them depend on:
        the classes' selectors and the tests on them, the pile's size, the cards dealt and
        read, the look-ahead and how it is played; not how many cards each class holds (a
        state says how many are left). Engines with the same key may keep them together
        (:meth:`share_tables`)."""
        red = self.red
        return (
            red.rows,
            red.cond,
            red.trig,
            self.n,
            self.hand,
            self.seen,
            self.per_turn,
            self.lookahead,
            self.optimal,
        )

    def share_tables(
        self, store: dict[tuple[object, ...], dict[str, dict[object, object]]]
    ) -> None:
        """Keep the recursion's values and the tables behind them in ``store``, with those of
        every engine kept there under the same :meth:`tables_key`: the decks a search scores
        differ by a few cards, and their states past the first cards are often the same.
        Call it before computing."""
        tables = store.setdefault(self.tables_key(), {})
        for name in _SHARED_TABLES:
            setattr(self, name, tables.setdefault(name, getattr(self, name)))
        self._tables_shared = True

    def signature(self) -> tuple[object, ...]:
        """What the recursion's values (:attr:`memo`) depend on: another engine with the same
        signature may start from them (the mulligan is not in it: it only reads them)."""
        return (self.problem, self.hand, self.seen, self.per_turn, self.lookahead, self.optimal)

    # -- estimates --------------------------------------------------------------------------

    def spend(self, work: int, stage: Stage) -> None:
        """Charge enumeration work up front, so hopeless tables fail before they start."""
        paid = min(work, self.prepaid)
        self.prepaid -= paid
        self.work += work - paid
        if self.work > self.budget:
            raise Intractable(OutOfReach(Reach.WORK, stage, self.work, self.budget))

    def estimate(self, return_count: int | None = None, limit: int | None = None) -> int:
        """Units of work the exact answer takes that can be counted before starting.

        A return mulligan's enumeration of hands and kept parts, as :meth:`return_table`
        charges it, and a redraw rule's hands; without a look-ahead, the plain programme's
        transitions (:meth:`PlainProgramme.work`, stopping just past ``limit``). The
        look-ahead's recursion is not in it: it is counted as it runs, each call one unit
        against :attr:`budget` (:data:`CALL_UNITS` of the estimate's units, see
        :func:`~deckcheck.draws.facade.exact`). Measured at 2-5 µs a unit.
        """
        sizes = self.red.sizes
        extra = walked = 0
        if return_count is not None and 0 < return_count <= self.hand:
            h, count = self.hand, return_count
            table = self._hands_plain = self._hands_return(count)
            n_hands = count_compositions(sizes, h)[h]
            n_kept = count_compositions(sizes, h - count)[h - count]
            n_draws = count_compositions(sizes, count)[count]
            if self.lookahead:
                extra += self.return_work(count)
                if table is not None:
                    walked = self._return_walk(count) - self.return_work(count)
            else:
                walk = n_hands * min(math.comb(h, count), n_draws)
                # one plain programme per kept part, over the cards drawn after it
                drawn = count + self.seen - h
                share = None if limit is None else max(1, limit // max(1, n_kept))
                walk += n_kept * self._plain_work(drawn, share)
                extra += walk if table is None else table.work()
                walked = 0 if table is None else walk - table.work()
        elif self.lookahead and self.red.trig.tests:
            extra += 2 * count_compositions(sizes, self.hand)[self.hand]  # see redraw_parts
        # The look-ahead's recursion is counted as it runs (see :attr:`budget`): once classes
        # alike share their states, no cheap count comes near the states it visits.
        work = extra if self.lookahead else extra + self._plain_work(self.seen, limit)
        self.estimated = work
        self.walked_estimate = work + walked
        return work

    def return_work(self, count: int) -> int:
        """Units of work :meth:`return_table` takes with the look-ahead, its recursion's calls
        aside (they are counted as they run): a step per opening hand and per kept part, and
        one per kept part weighed for each hand alike by exchange (:attr:`orbits`). The draws
        after a kept part are not walked: the recursion has valued them already (see
        :meth:`return_table`)."""
        got = self._return_works.get(count)
        if got is None:
            got = self._return_works[count] = self._return_work(count)
        return got

    def _return_work(self, count: int) -> int:
        if self.settled_at_start() is not None:
            return 0  # nothing is walked (see :meth:`return_table`)
        hands = self._hands_return(count)
        if hands is not None:
            if self.seen - self.hand <= self.per_turn or self._attribute_levels() is not None:
                # One turn after the hand, the recursion values few states past it; more,
                # the level engine over overlapping selectors values them, charged as it
                # goes.
                return hands.work()
            # More turns: the recursion past the hands is not counted before it runs, and
            # grows with them: charged as the walk was, answered by the table (whose steps
            # counted as it runs come out of that charge first).
            walk = self._return_walk(count)
            hands.prepaid = max(0, walk - hands.work())
            return max(hands.work(), walk)
        walk = self._return_walk(count)
        if self._vector_return(walk):
            # The level engine's table: a row per opening hand, nothing walked.
            return count_compositions(self.red.sizes, self.hand)[self.hand]
        return walk

    def _return_walk(self, count: int) -> int:
        """Units of the return table's walk: a step per opening hand and per kept part, and
        one per kept part weighed for each hand alike by exchange (:attr:`orbits`)."""
        sizes = self.red.sizes
        h, keep = self.hand, self.hand - count
        in_orbit = {c for orbit in self._orbits for c, _ in orbit}
        # A class of more than a hand's cards counts as one of a hand's (see _walked).
        groups = [(min(sizes[orbit[0][0]], h), len(orbit)) for orbit in self._orbits]
        groups += [(min(s, h), 1) for c, s in enumerate(sizes) if c not in in_orbit]
        subs = _walked(tuple(groups), h, count)
        n_hands = count_compositions(sizes, h)[h]
        n_kept = count_compositions(sizes, keep)[keep]
        return n_hands + n_kept + subs

    def _vector_return(self, walk: int) -> bool:
        """Whether the return table whose walk takes ``walk`` units is the level engine's."""
        return walk > LEVEL_RETURN_FROM and self._level_kinds() is not None

    def _typed_levels(self) -> bool:
        """Whether the typed level engine has valued the states: its table of returns is
        then cheaper than walking the hands however few they are (a state's key is found
        card by card)."""
        return self._levels is not None and self._levels.typed

    def _level_kinds(self) -> LevelKinds | None:
        """The level engine's view of the query (:func:`named_kinds`, else the typed level
        engine's, :func:`typed_kinds`), when one takes it."""
        if not (self.optimal and self.use_levels) or importlib.util.find_spec("numpy") is None:
            return None
        sizes = self.red.sizes
        if math.prod(s + 1 for s in sizes) >= 1 << 62 or math.comb(self.n, self.hand) >= 1 << 62:
            return None
        return named_kinds(self.red) or typed_kinds(self.red)

    def settled_at_start(self) -> bool | None:
        """Whether the query holds (True) or fails (False) whatever is dealt and however it is
        played, or None. Every hand ends as ``seen`` cards of the deck (a return mulligan
        gives back as many as it takes; a card put under is not held), and the state before
        any card is dealt is settled by what any ``seen`` cards of the deck can hold."""
        full, zero = self._canonical(self.red.sizes, self.red.cond.zero)
        got = self._decided(zero, 0)
        return self._deck_settled(full, zero, 0) if got is None else got

    def _plain_work(self, most: int, limit: int | None) -> int:
        """:meth:`PlainProgramme.work` of a plain draw of ``most`` cards (just over ``limit``
        when it stops counting there)."""
        self.plain = PlainProgramme(self.red, most)
        work = self.plain.work(limit)
        return work if work is not None else (limit or 0) + 1

    # -- the sequential recursion -----------------------------------------------------------

    def _decided(self, vec: Vec, held: int) -> bool | None:
        """Success or failure already certain (counts only grow), else None."""
        key = (vec, held)
        if key in self._decisions:
            return self._decisions[key]
        got = self._decide(vec, held)
        self._decisions[key] = got
        return got

    def _decided_many(self, vecs: Ints, held: int) -> tuple[Ints, Bools]:
        """:meth:`_decided` of each row of capped counts ``vecs`` at once, as 1 (won), 0
        (lost) or -1 (open), and per row the classes :meth:`_split` finds live (some count
        of theirs below its cap), a column each: the hands' table settles its thousands of
        distinct counts so (numpy), with the optimal look-ahead."""
        from deckcheck.core.numeric import np

        left = self.seen - held
        won = np.zeros(len(vecs), dtype=bool)
        open_ = np.zeros(len(vecs), dtype=bool)
        for bounds, sets in self._alternatives:
            alive = np.ones(len(vecs), dtype=bool)
            sure = np.ones(len(vecs), dtype=bool)
            for disjoint in sets:
                short = np.zeros(len(vecs), dtype=np.int64)
                for p, least in disjoint:
                    short += np.maximum(least - vecs[:, p], 0)
                alive &= short <= left
            for p, least, most in bounds:
                count = vecs[:, p]
                alive &= count + left >= least
                sure &= count >= least
                if most is not None:
                    alive &= count <= most
                    sure &= count + left <= most
            won |= alive & sure
            open_ |= alive & ~sure
        cond = self.red.cond
        below = vecs < np.asarray(cond.caps, dtype=np.int64)
        member = np.zeros((len(cond.class_positions), len(cond.caps)), dtype=np.int64)
        for c, positions in enumerate(cond.class_positions):
            member[c, list(positions)] = 1
        live = below.astype(np.int64) @ member.T > 0
        return np.where(won, 1, np.where(open_, -1, 0)), live

    def _holds(self, vec: Vec) -> bool:
        """Whether every condition holds for capped counts ``vec`` (cached)."""
        got = self._holding.get(vec)
        if got is None:
            got = self._holding[vec] = self.red.cond.all_hold(vec)
        return got

    def _decide(self, vec: Vec, held: int) -> bool | None:
        left = self.seen - held
        return self._reach_settled(vec, [left] * len(vec), left)

    def _deck_settled(self, left_in: tuple[int, ...], vec: Vec, held: int) -> bool | None:
        """:meth:`_decided` with what the pile still holds: a count can grow by no more than
        the cards left that count for it, and tests on selectors no card shares need their
        shortfalls drawn one card each."""
        left = self.seen - held
        open_ = False
        for need, lows, highs in self._plans.get(vec) or self._plan(vec):
            if need > left:
                continue
            failed = False
            for gap, owners in lows:
                reach = 0
                for c in owners:
                    reach += left_in[c]
                if reach < gap:
                    failed = True
                    break
            if failed:
                continue
            if lows:
                open_ = True
                continue
            for room, owners in highs:
                reach = 0
                for c in owners:
                    reach += left_in[c]
                if reach > room and left > room:
                    open_ = True
                    break
            else:
                return True
        return None if open_ else False

    def _plan(self, vec: Vec) -> tuple[Plan, ...]:
        """What each alternative not yet broken still asks over capped counts ``vec``: the
        fewest more cards it needs (:meth:`_need`), and per lower bound not met and per upper
        bound the cards it still needs or may still take, with the live classes whose cards
        count for it (cached)."""
        got = self._plans.get(vec)
        if got is not None:
            return got
        positions = self.red.cond.class_positions
        live = (self._split_cache.get(vec) or self._split(vec))[0]
        plans: list[Plan] = []
        for bounds, sets in self._alternatives:
            if any(most is not None and vec[p] > most for p, _, most in bounds):
                continue
            need = 0
            for disjoint in sets:
                short = sum(least - vec[p] for p, least in disjoint if vec[p] < least)
                need = max(need, short)
            lows: list[tuple[int, tuple[int, ...]]] = []
            highs: list[tuple[int, tuple[int, ...]]] = []
            for p, least, most in bounds:
                owners = tuple(c for c in live if p in positions[c])
                if vec[p] < least:
                    lows.append((least - vec[p], owners))
                    need = max(need, least - vec[p])
                if most is not None:
                    highs.append((most - vec[p], owners))
            plans.append((need, tuple(lows), tuple(highs)))
        got = self._plans[vec] = tuple(plans)
        return got

    def _need(self, vec: Vec) -> int:
        """The fewest more cards with which the query can still hold over capped counts
        ``vec``, by the counts alone (:data:`_NEVER` when every alternative is broken): a
        state with fewer cards left to draw is lost, as :meth:`_decided` finds it (cached)."""
        got = self._needs.get(vec)
        if got is None:
            plans = self._plans.get(vec) or self._plan(vec)
            got = self._needs[vec] = min((need for need, _, _ in plans), default=_NEVER)
        return got

    def _reach_settled(self, vec: Vec, reach: list[int], left: int) -> bool | None:
        """Like :meth:`Tracked.settled`, with at most ``reach[p]`` more cards for position
        ``p`` and ``left`` more in all."""
        open_ = False
        for bounds, sets in self._alternatives:
            got: bool | None = True
            for disjoint in sets:
                short = 0
                for p, least in disjoint:
                    if vec[p] < least:
                        short += least - vec[p]
                if short > left:
                    got = False
                    break
            if got:
                for p, least, most in bounds:
                    c = vec[p]
                    if (most is not None and c > most) or c + reach[p] < least:
                        got = False
                        break
                    if c < least or (most is not None and c + reach[p] > most):
                        got = None
            if got:
                return True
            if got is None:
                open_ = True
        return None if open_ else False

    def _split(self, vec: Vec) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Classes that can still change a capped count (live) and those that cannot (inert).

        All inert classes act alike (no count moves, one look decision for all), so states that
        differ only in how the remaining inert cards split between those classes have the
        same value. States keep that split in one canonical form (:meth:`_canonical`) and
        draw an inert card as one pooled transition: this is what keeps long look-ahead
        queries in reach.
        """
        got = self._split_cache.get(vec)
        if got is None:
            caps = self.red.cond.caps
            inert_flags = [
                all(vec[p] == caps[p] for p in positions)
                for positions in self.red.cond.class_positions
            ]
            live = tuple(c for c, flag in enumerate(inert_flags) if not flag)
            inert = tuple(c for c, flag in enumerate(inert_flags) if flag)
            if self.lookahead_policy is not None and inert:
                decisions = {self.lookahead_policy.keep(vec, c) for c in inert}
                if len(decisions) > 1:
                    # Pooling needs one decision for every inert class.
                    raise Intractable(OutOfReach(Reach.POLICY))
                self._inert_kept[vec] = decisions.pop()
            got = (live, inert)
            self._split_cache[vec] = got
        return got

    def _canonical(self, left: tuple[int, ...], vec: Vec) -> tuple[tuple[int, ...], Vec]:
        """The state's canonical form: :meth:`_pooled`, classes alike but for their size
        (:attr:`families`) in sorted order, then :meth:`_cleared`.

        Only a change of the inert or the losing set (a count reaching its cap or its most)
        or a card of a class with others alike needs this.
        """
        key = (left, vec)
        got = self._canonical_cache.get(key)
        if got is None:
            if self.share:
                left = self._pooled(left, vec)
                left = self._merged(left, vec)
            if self.families:
                left, vec = self._sorted(left, vec)
            got = self._cleared(left, vec)
            if self._freezable:
                # Frozen by its cards left alone, whatever is still drawn (see :meth:`_frozen`).
                thawed = self._freeze(*got, _NEVER)
                if thawed is not None:
                    got = self._canonical(*thawed)
            self._canonical_cache[key] = got
        return got

    def _same_moves(self, vec: Vec) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Groups of live classes, none losing, whose cards now move the same counts (their
        positions not yet at the cap are the same), each with the class that holds the
        group's cards left in the canonical form (cached).

        A position at its cap stays there, so such classes move the same counts for the rest
        of the deal: their cards are alike, only their number matters (a named building held
        once is, for ``type:building>=2``, one more building card). The holder is the first
        of the group outside every family, else the first: sorting a family (:meth:`_sorted`)
        then leaves it where it is."""
        got = self._moves_cache.get(vec)
        if got is None:
            caps = self.red.cond.caps
            positions = self.red.cond.class_positions
            losing = self._losing(vec)
            by_moves: dict[tuple[int, ...], list[int]] = {}
            for c in (self._split_cache.get(vec) or self._split(vec))[0]:
                if c not in losing:
                    moves = tuple(p for p in positions[c] if vec[p] < caps[p])
                    by_moves.setdefault(moves, []).append(c)
            groups = []
            for members in by_moves.values():
                if len(members) > 1:
                    outside = [c for c in members if c not in self._in_orbit]
                    groups.append(((outside or members)[0], tuple(members)))
            got = self._moves_cache[vec] = tuple(groups)
        return got

    def _merged(self, left: tuple[int, ...], vec: Vec) -> tuple[int, ...]:
        """The cards left of each group of :meth:`_same_moves` all put on its holder."""
        out: list[int] | None = None
        for holder, members in self._same_moves(vec):
            total = 0
            for c in members:
                total += left[c]
            if left[holder] == total:
                continue
            if out is None:
                out = list(left)
            for c in members:
                out[c] = 0
            out[holder] = total
        return left if out is None else tuple(out)

    def _frozen(
        self, left: tuple[int, ...], vec: Vec, held: int
    ) -> tuple[tuple[int, ...], Vec] | None:
        """The state with its frozen classes made inert, in canonical form; None when it has
        none to make so.

        A class of :func:`_freezable` is frozen when its count passes every test on its
        position and no more of its cards can be held than the most allowed (its cards left,
        or the cards still to draw, whichever is fewer): its tests then pass whatever comes,
        as they would with the least passing count and no cards left (its cards one more
        inert pool, which no count reads; counts only grow and cards left only shrink, so
        it stays frozen). A ``name:X<=1`` with one card left, or one held and none left, is.
        Frozen by its cards left alone, a class is so in :meth:`_canonical` already; by the
        cards still to draw, only when they are fewer than the most its tests allow more
        (:attr:`_horizon`).
        """
        got = self._freeze(left, vec, self.seen - held)
        if got is None:
            return None
        form = self._canonical(*got)
        # Pooling the losing cards may leave another class with none: frozen in turn.
        return self._frozen(*form, held) or form

    def _freeze(
        self, left: tuple[int, ...], vec: Vec, to_draw: int
    ) -> tuple[tuple[int, ...], Vec] | None:
        """:meth:`_frozen` with ``to_draw`` cards still to draw, before the canonical form."""
        out_l: list[int] | None = None
        out_v: list[int] | None = None
        for c, p, least, most in self._freezable:
            k, x = left[c], vec[p]
            if (k or x != least) and least <= x and x + (k if k < to_draw else to_draw) <= most:
                if out_l is None or out_v is None:
                    out_l, out_v = list(left), list(vec)
                out_l[c] = 0
                out_v[p] = least
        if out_l is None or out_v is None:
            return None
        return tuple(out_l), tuple(out_v)

    def _losing(self, vec: Vec) -> tuple[int, ...]:
        """The classes one more card of which would break the query for good (every
        alternative an upper bound past its most), over capped counts ``vec`` (cached)."""
        got = self._losing_cache.get(vec)
        if got is None:
            cond = self.red.cond
            got = tuple(c for c in self._bounded if _broken(cond, cond.bump(vec, c, 1)))
            self._losing_cache[vec] = got
        return got

    def _pooled(self, left: tuple[int, ...], vec: Vec) -> tuple[int, ...]:
        """The cards left of the losing classes (:meth:`_losing`) all put on the first of
        them: a losing card loses when kept and only leaves the pile when put under,
        whichever class it is of, so how they split between those classes does not matter.
        Only the optimal look-ahead may be told so (the rule of thumb reads the class)."""
        losing = self._losing(vec)
        if len(losing) < 2:
            return left
        total = 0
        for c in losing:
            total += left[c]
        if left[losing[0]] == total:
            return left
        out = list(left)
        for c in losing:
            out[c] = 0
        out[losing[0]] = total
        return tuple(out)

    def _cleared(self, left: tuple[int, ...], vec: Vec) -> tuple[tuple[int, ...], Vec]:
        """The inert classes' cards left set to 0: their remaining cards are one pool, whose
        size the cards gone in all tell (see :meth:`value`)."""
        inert = self._split(vec)[1]
        if not inert:
            return left, vec
        out = list(left)
        for c in inert:
            out[c] = 0
        return tuple(out), vec

    def _resorted(
        self, left: tuple[int, ...], vec: Vec, alike: tuple[Orbit, int]
    ) -> tuple[tuple[int, ...], Vec]:
        """:meth:`_sorted` after one class of a sorted family gained a card: it moves right
        past the pairs now below its own."""
        family, i = alike
        c, p = family[i]
        mine = (vec[p], -left[c])
        j = i + 1
        while j < len(family) and (vec[family[j][1]], -left[family[j][0]]) < mine:
            j += 1
        if j == i + 1:
            return left, vec
        out_l, out_v = list(left), list(vec)
        for k in range(i, j - 1):
            (c1, p1), (c2, p2) = family[k], family[k + 1]
            out_l[c1], out_v[p1] = left[c2], vec[p2]
        c_last, p_last = family[j - 1]
        out_l[c_last], out_v[p_last] = -mine[1], mine[0]
        return tuple(out_l), tuple(out_v)

    def _sorted(self, left: tuple[int, ...], vec: Vec) -> tuple[tuple[int, ...], Vec]:
        """Each family's (count, -cards left) pairs in increasing order over its classes: an
        exchange of classes alike (a class's size no longer matters once its cards left are
        the state), so the value is the same. The inert ones (count at its cap) come last,
        where :meth:`_canonical` clears them."""
        out_l: list[int] | None = None
        out_v: list[int] | None = None
        for family in self.families:
            pairs = [(vec[p], -left[c]) for c, p in family]
            ordered = sorted(pairs)
            if ordered == pairs:
                continue
            if out_l is None or out_v is None:
                out_l, out_v = list(left), list(vec)
            for (c, p), (v, r) in zip(family, ordered, strict=True):
                out_v[p] = v
                out_l[c] = -r
        if out_l is None or out_v is None:
            return left, vec
        return tuple(out_l), tuple(out_v)

    def value(self, left: tuple[int, ...], vec: Vec, held: int, looked: bool, gone: int) -> int:
        """Successful ordered continuations, i.e. P(success) * perm(N - gone, reads - gone).

        ``left``: cards of each class still in the pile, in canonical form (0 for the inert
        classes: their remaining cards are one pool, ``N - gone`` less the live classes'
        cards left); ``vec``: capped counts of the held cards; ``held``: cards held;
        ``looked``: this turn's look-ahead is spent (the card was put under; the next one is
        drawn blind); ``gone``: cards gone from the pile in all (held or put under).
        """
        # Counting every call (not only new states) bounds the time, not just the memory.
        self.work += 1
        if self.work > self.budget:
            raise Intractable(OutOfReach(Reach.WORK, Stage.SEQUENTIAL, limit=self.budget))
        if self.progress is not None and self.lookahead and self.work >= self._report_at:
            # The budget is the most the recursion may take: the bar moves towards it.
            self._report_at = self.work + 0x1000
            self.progress(self.work, max(self.work, min(self.budget, STATE_BUDGET)))
        key = (left, vec, held, looked, gone)
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        if self._freezable and held < self.seen and self.seen - held <= self._horizon:
            frozen = self._frozen(left, vec, held)
            if frozen is not None:
                # Read as part of this call when known (as a known child is).
                fkey = (*frozen, held, looked, gone)
                got = memo.get(fkey)
                if got is None:
                    got = self.value(*fkey)
                memo[key] = got
                return got
        if held == self.seen:
            ok: bool | None = self._holds(vec)
        else:
            dkey = (vec, held)
            ok = self._decisions[dkey] if dkey in self._decisions else self._decided(vec, held)
            if ok is None:
                ok = self._deck_settled(left, vec, held)
        if ok is not None:
            result = math.perm(self.n - gone, self.reads - gone) if ok else 0
        else:
            look = (
                self.lookahead
                and not looked
                and held >= self.hand
                and (held - self.hand) % self.per_turn == 0
            )
            policy = self.lookahead_policy
            in_orbit = self._in_orbit
            child = self._child
            steps = self._steps
            kept_forms = self._kept_forms
            freezable = self._freezing
            live = (self._split_cache.get(vec) or self._split(vec))[0]
            last_draw = held + 1 == self.seen
            to_draw = self.seen - held - 1  # after this card
            full = math.perm(self.n - gone - 1, self.reads - gone - 1) if last_draw else 0
            result = 0
            pool = self.n - gone
            for c in live:
                k = left[c]
                if k <= 0:
                    continue
                pool -= k
                alike = in_orbit.get(c)
                if alike is not None:
                    # Classes alike in the same state (adjacent: the state is sorted) lead to
                    # the same states: the last of them stands for all.
                    family, i = alike
                    p = family[i][1]
                    if i + 1 < len(family):
                        c2, p2 = family[i + 1]
                        if left[c2] == k and vec[p2] == vec[p]:
                            continue
                    j = i - 1
                    while j >= 0 and left[family[j][0]] == k and vec[family[j][1]] == vec[p]:
                        j -= 1
                    k *= i - j
                after = (*left[:c], left[c] - 1, *left[c + 1 :])
                # Put under: gone for good while the pile cannot run out (checked above).
                if look and policy is not None and not policy.keep(vec, c):
                    sub = child((after, vec, held, True, gone + 1))
                else:
                    step = steps.get((vec, c))
                    if step is None:
                        step = self._step(vec, c)
                    grown = step[0]
                    if last_draw:
                        # The last card seen: the state after it is decided at once.
                        sub = full if self._holds(grown) else 0
                    elif step[3] > to_draw:
                        # Lost by the counts alone (a card that breaks an upper bound, or too
                        # few cards left for what is still needed): no state for it.
                        sub = 0
                    else:
                        kept, kept_vec = after, grown
                        if step[1]:
                            kept, kept_vec = self._canonical(after, grown)
                        elif grown != vec:
                            # The same child is reached from many states: its form is kept.
                            ckey = (after, vec, c)
                            known = kept_forms.get(ckey)
                            if known is None:
                                if alike is not None:
                                    kept, kept_vec = self._resorted(after, grown, alike)
                                if step[2]:
                                    kept, kept_vec = self._cleared(kept, kept_vec)
                                kept_forms[ckey] = (kept, kept_vec)
                            else:
                                kept, kept_vec = known
                        sub = child((kept, kept_vec, held + 1, False, gone + 1))
                    if look and self.optimal:
                        # One fewer left in the last of its run keeps the order; one fewer of
                        # a class bounded from above may freeze it (its normal form called).
                        under, under_vec = after, vec
                        bounded = freezable.get(c)
                        if bounded is not None:
                            # Only this class can have become frozen (cards left shrank).
                            p, least, most = bounded
                            x = vec[p]
                            if least <= x and x + min(after[c], to_draw + 1) <= most:
                                frozen = self._frozen(after, vec, held)
                                if frozen is not None:
                                    under, under_vec = frozen
                        sub = max(sub, child((under, under_vec, held, True, gone + 1)))
                result += k * sub
            if pool:
                # An inert card changes no count: held, unless the look puts it under.
                if look and policy is not None and not self._inert_kept.get(vec, False):
                    sub = child((left, vec, held, True, gone + 1))
                else:
                    if last_draw:
                        sub = full if self._holds(vec) else 0
                    elif self._need(vec) > to_draw:
                        sub = 0  # kept, it leaves too few cards for what is still needed
                    else:
                        sub = child((left, vec, held + 1, False, gone + 1))
                    if look and self.optimal:
                        sub = max(sub, child((left, vec, held, True, gone + 1)))
                result += pool * sub
        memo[key] = result
        self.valued += 1
        owed = self._owed + self._state_calls
        if owed >= 1:
            whole = int(owed)
            owed -= whole
            self.work += whole
            if self.work > self.budget:
                self._owed = owed
                raise Intractable(OutOfReach(Reach.WORK, Stage.SEQUENTIAL, limit=self.budget))
        self._owed = owed
        return result

    def _child(self, key: tuple[tuple[int, ...], Vec, int, bool, int]) -> int:
        """:meth:`value` of the state ``key``, a known one without the call (counted all
        the same)."""
        got = self.memo.get(key)
        if got is None:
            return self.value(*key)
        self.work += 1
        if self.work > self.budget:
            raise Intractable(OutOfReach(Reach.WORK, Stage.SEQUENTIAL, limit=self.budget))
        return got

    def _step(self, vec: Vec, c: int) -> tuple[Vec, bool, bool, int]:
        """The counts after a card of class ``c`` is kept, whether the state then needs its
        whole canonical form (the losing classes changed), whether the inert classes
        changed, and the fewest cards the query then still needs (:meth:`_need`), cached."""
        grown = self.red.cond.bump(vec, c, 1)
        whole = self.share and (
            self._losing(grown) != self._losing(vec)
            or self._same_moves(grown) != self._same_moves(vec)
        )
        got = (grown, whole, self._split(grown)[1] != self._split(vec)[1], self._need(grown))
        self._steps[(vec, c)] = got
        return got

    def _left(self, removed: Sequence[int]) -> tuple[int, ...]:
        """Cards left in the pile per class, with ``removed`` (per class) gone."""
        return tuple(s - r for s, r in zip(self.red.sizes, removed, strict=True))

    def hand_value(self, hand: tuple[int, ...]) -> int:
        """:meth:`value` just after the opening hand (or the post-mulligan hand) ``hand``."""
        if self._levels is not None:
            level = (self.hand, self.hand, False)
            return self._levels.exact(level, self._levels.key_of(hand))
        if self._attributes is not None and self._attributes.ran:
            got = self._attributes.lookup(hand)
            if got is not None:
                return got
        left, vec = self._canonical(self._left(hand), self.red.cond.of(hand))
        return self.value(left, vec, self.hand, False, self.hand)

    def _attribute_levels(self) -> AttributeLevels | None:
        """The level engine over overlapping selectors
        (:mod:`~deckcheck.draws.exact.attributes`), when it takes the query: the optimal
        look-ahead after the hand, no level engine of named cards, no trigger, and values and
        tables that fit; else None."""
        if self._attributes_made:
            return self._attributes
        self._attributes_made = True
        if (
            not (self.optimal and self.use_levels and self.use_attributes)
            or self.red.trig.tests
            or not self.hand < self.seen
            or importlib.util.find_spec("numpy") is None
            or self._level_kinds() is not None
        ):
            return None
        from deckcheck.draws.exact.attributes import AttributeLevels

        engine = AttributeLevels(
            self.red,
            self._alternatives,
            self.n,
            self.hand,
            self.seen,
            self.reads,
            self.per_turn,
            self.charge_table,
        )
        self._attributes = engine if engine.fits else None
        return self._attributes

    def _open_hand_values(self, held: Ints) -> list[int]:
        """:meth:`hand_value` of each row of ``held`` (cards per class): by the level engine
        over overlapping selectors when it takes the query (its work charged as it goes),
        else one by one."""
        engine = self._attribute_levels()
        if engine is not None:
            from deckcheck.draws.exact.attributes import Collision

            try:
                return engine.run(held)
            except Collision:
                self._attributes = None  # never expected: the recursion answers
        return [self.hand_value(tuple(row)) for row in held.tolist()]

    def _hand_value(self, hand: tuple[int, ...], known: dict[tuple[int, ...], int]) -> int:
        """:meth:`hand_value`, kept in ``known`` (one value per exchange of classes alike)."""
        got = known.get(hand)
        if got is None:
            twin = self._exchanged(hand)
            got = known.get(twin)
            if got is None:
                got = known[twin] = self.hand_value(twin)
            known[hand] = got
        return got

    def _return_by_levels(
        self, count: int
    ) -> tuple[Mapping[tuple[int, ...], Kept], Fraction] | None:
        """:meth:`return_table` by the level engine (run now if the recursion answered the
        plain pass): its probability from every hand at once, its choices and kept parts'
        values read on asking, as the walk finds them. None when the level engine cannot."""
        try:
            from deckcheck.draws.exact.levels import Ambiguous
        except ImportError:  # no numpy: the table is walked
            return None

        kinds = self._level_kinds()
        if kinds is None:
            return None
        if self._levels is None and self._by_levels(kinds) is None:
            return None
        levels = self._levels
        if levels is None:
            return None
        sizes, h, keep = self.red.sizes, self.hand, self.hand - count
        try:
            num = levels.return_numerator(h, count)
        except Ambiguous:
            return None
        kept_value = KeptPartValues(sizes, keep, lambda kept: self._kept_value(kept, count))
        self.kept_values = kept_value
        redraw_den = math.comb(self.n - keep, count)
        pick = self._picker(kept_value, keep, redraw_den)
        den = math.comb(self.n, h) * redraw_den * self.hand_scale()
        return ReturnChoice(sizes, h, pick), Fraction(num, den)

    def _picker(
        self, kept_value: Mapping[tuple[int, ...], int], keep: int, redraw_den: int
    ) -> Callable[[tuple[int, ...]], Kept]:
        """The choice per hand from the kept parts' values, as the walk finds it: ties keep,
        then the first kept part in order."""
        known: dict[tuple[int, ...], int] = {}

        def pick(hand: tuple[int, ...]) -> Kept:
            if self.lookahead:
                best = self._hand_value(hand, known) * redraw_den
            else:
                best = redraw_den if self._holds(self.red.cond.of(hand)) else 0
            choice: Kept = None  # ties keep
            for kept in compositions(hand, keep):
                if kept_value[kept] > best:
                    best, choice = kept_value[kept], kept
            return choice

        return pick

    def _kept_value(self, kept: tuple[int, ...], count: int) -> int:
        """The value of returning all but ``kept``: over ``comb(N - kept, count) *
        hand_scale()``, the draws of ``count`` cards after it weighed by their ways.

        The recursion's state holding ``kept`` (nothing gone but it, no look before the hand
        is whole) counts the ordered draws of those ``count`` cards and the hands they make:
        each unordered draw ``count!`` times. So its value divided by ``count!`` is the sum
        over the draws of their ways times the new hand's value, with nothing walked."""
        size = sum(kept)
        if self._levels is not None:
            level = (size, size, False)
            ordered = self._levels.exact(level, self._levels.key_of(kept))
        else:
            left, vec = self._canonical(self._left(kept), self.red.cond.of(kept))
            ordered = self.value(left, vec, size, False, size)
        total, rest = divmod(ordered, math.factorial(count))
        if rest:
            raise ArithmeticError("the ordered draws after a kept part are not count! each")
        return total

    def _hands_return(self, count: int) -> ReturnHands | None:
        """The return table of every hand at once (:mod:`~.returned`), when numpy is there,
        its sums fit and it is charged less than the walk: a hand that is all the query
        sees, or the optimal look-ahead on a query no level engine takes; else None."""
        if count in self._hands_tables:
            return self._hands_tables[count]
        got = self._hands_tables[count] = self._new_hands_return(count)
        return got

    def _new_hands_return(self, count: int) -> ReturnHands | None:
        h = self.hand
        if (
            self.red.trig.tests
            or not self.use_levels
            or not 0 < count <= h
            or importlib.util.find_spec("numpy") is None
        ):
            return None
        from deckcheck.draws.exact.returned import ReturnHands

        if self.lookahead:
            if not self.optimal or self._level_kinds() is not None:
                return None
            walk = self._return_walk(count)
            table = ReturnHands(
                self.red,
                self.n,
                h,
                count,
                self.hand_scale(),
                lambda vec: self._decided(vec, h),
                lambda vec: self._split(vec)[0],
                self.hand_value,
                self.charge_table,
                self._open_hand_values,
                None if self.lookahead_policy is not None else self._decided_many,
            )
        elif self.seen == h:
            n_hands = count_compositions(self.red.sizes, h)[h]
            n_draws = count_compositions(self.red.sizes, count)[count]
            walk = n_hands * min(math.comb(h, count), n_draws)
            table = ReturnHands(
                self.red,
                self.n,
                h,
                count,
                1,
                self._holds,
                lambda vec: (),
                self.hand_value,
                self.charge_table,
            )
        else:
            return None
        return table if table.fits and table.work() < walk else None

    def charge_table(self, units: int) -> None:
        """Charge ``units`` of the hands' table's work (:mod:`~.returned`) that its estimate
        could not count, or of a walk over its hands (:class:`Intractable` past the limit):
        with the look-ahead, as the recursion's calls are (:data:`CALL_UNITS` units each), on
        top of the estimate (which never counted it); without, against what the work limit
        left the tables (:attr:`table_budget`)."""
        if self.lookahead:
            self.work += -(-units // CALL_UNITS)
            spent, limit = self.work, self.budget
        else:
            self.hands_spent += units
            spent = self.hands_spent
            limit = self.budget if self.table_budget is None else self.table_budget
        if spent > limit:
            raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_MULLIGAN, spent, limit))

    def charge_walk(self) -> None:
        """Charge a walk over every hand and its kept parts in Python (a mulligan guide's, a
        simulated player's choices read hand by hand), when the return table came from every
        hand at once and so left it out: weighed against the work limit as the walked return
        table was (:class:`Intractable` when over it), and charged before the recursion
        values the hands, as it was. Once."""
        if (
            self._walk_charged
            or self.walked_estimate <= self.estimated
            or self.table_budget is None
        ):
            return
        limit = self.estimated + self.table_budget
        if self.walked_estimate > limit:
            raise Intractable(OutOfReach(Reach.ESTIMATE, Stage.EXACT, self.walked_estimate, limit))
        self._walk_charged = True
        self.charge_table(self.walked_estimate - self.estimated)

    def _return_by_hands(self, table: ReturnHands) -> tuple[ReturnChoice, Fraction]:
        """:meth:`return_table` from :class:`~.returned.ReturnHands`: the same probability,
        choices and kept parts' values."""
        from deckcheck.draws.exact.returned import KeptValues

        table.run()
        sizes, h, keep, count = self.red.sizes, self.hand, table.keep, table.count
        redraw_den = math.comb(self.n - keep, count)
        self.kept_values = kept_value = KeptValues(table)

        def pick(hand: tuple[int, ...]) -> Kept:
            # The table knows each hand's value and its best: a hand is walked only when
            # returning wins, to the first kept part worth the best (ties keep).
            stay, best = table.hand_best(hand)
            if best == stay:
                return None
            for kept in compositions(hand, keep):
                if kept_value[kept] == best:
                    return kept
            raise ArithmeticError("no kept part is worth the hand's best")

        den = math.comb(self.n, h) * redraw_den * self.hand_scale()
        return ReturnChoice(sizes, h, pick), Fraction(table.numerator, den)

    def _exchanged(self, comp: tuple[int, ...]) -> tuple[int, ...]:
        """``comp`` (cards per class) with each orbit's counts sorted: the same chances, as
        its classes hold as many cards each (:attr:`orbits`)."""
        out: list[int] | None = None
        for orbit in self._orbits:
            counts = [comp[c] for c, _ in orbit]
            ordered = sorted(counts)
            if ordered != counts:
                if out is None:
                    out = list(comp)
                for (c, _), k in zip(orbit, ordered, strict=True):
                    out[c] = k
        return comp if out is None else tuple(out)

    def keep_top(self, removed: Sequence[int], held: Sequence[int], top: int) -> bool:
        """The optimal look-ahead decision: keep a top card of class ``top`` (True) or put it
        under, for a player holding ``held`` (cards per class) with ``removed`` (per class,
        held or put under, the top card included) gone from the pile. Ties keep.
        """
        n_held = sum(held)
        gone = sum(removed)
        after = self._left(removed)
        if self._levels is not None:
            levels = self._levels
            with_top = [*held]
            with_top[top] += 1
            return levels.at_least(
                ((n_held + 1, gone, False), levels.key_of(with_top, after)),
                ((n_held, gone, True), levels.key_of(held, after)),
            )
        attributes = self._attributes
        if attributes is not None and attributes.ran and n_held >= self.hand:
            # The values the level engine over overlapping selectors found: no recursion.
            from deckcheck.core.numeric import np

            got, known = attributes.keeps(
                np.asarray(held, dtype=np.int64)[:, None],
                np.asarray(removed, dtype=np.int64)[:, None],
                n_held,
                gone,
                np.asarray([top], dtype=np.int64),
            )
            if known[0]:
                return bool(got[0])
        vec = self.red.cond.of(held)
        grown = self.red.cond.bump(vec, top, 1)
        keep = self.value(*self._canonical(after, grown), n_held + 1, False, gone)
        under = self.value(*self._canonical(after, vec), n_held, True, gone)
        return keep >= under

    def keep_top_many(self, removed: Ints, held: Ints, top: Ints) -> Bools | None:
        """:meth:`keep_top` for every column of ``removed`` and ``held`` (a row per class)
        and ``top`` (a class per column), in bulk; None without the level engine."""
        levels = self._levels
        if levels is None:
            return self._attribute_keeps(removed, held, top)
        from deckcheck.core.numeric import np

        n_held, gone = held.sum(axis=0), removed.sum(axis=0)
        after = np.asarray(self.red.sizes, dtype=np.int64)[:, None] - removed
        with_top = held.copy()
        with_top[top, np.arange(len(top))] += 1
        kept, under = levels.keys_of(with_top, after), levels.keys_of(held, after)
        out = np.zeros(len(top), dtype=bool)
        for h, g in np.unique(np.stack([n_held, gone]), axis=1).T.tolist():
            cols = np.flatnonzero((n_held == h) & (gone == g))
            got, unsettled = levels.at_least_many(
                (h + 1, g, False), kept[cols], (h, g, True), under[cols]
            )
            for i in np.flatnonzero(unsettled).tolist():
                c = int(cols[i])
                got[i] = self.keep_top(removed[:, c].tolist(), held[:, c].tolist(), int(top[c]))
            out[cols] = got
        return out

    def _attribute_keeps(self, removed: Ints, held: Ints, top: Ints) -> Bools | None:
        """:meth:`keep_top_many` by the values the level engine over overlapping selectors
        found (:meth:`~.attributes.AttributeLevels.keeps`), the columns they leave open by
        :meth:`keep_top`; None without that engine's values."""
        attributes = self._attributes
        if attributes is None or not attributes.ran:
            return None
        from deckcheck.core.numeric import np

        n_held, gone = held.sum(axis=0), removed.sum(axis=0)
        out = np.zeros(len(top), dtype=bool)
        for h, g in np.unique(np.stack([n_held, gone]), axis=1).T.tolist():
            cols = np.flatnonzero((n_held == h) & (gone == g))
            if h < self.hand:
                got, known = np.zeros(len(cols), dtype=bool), np.zeros(len(cols), dtype=bool)
            else:
                got, known = attributes.keeps(held[:, cols], removed[:, cols], h, g, top[cols])
            for i in np.flatnonzero(~known).tolist():
                c = int(cols[i])
                got[i] = self.keep_top(removed[:, c].tolist(), held[:, c].tolist(), int(top[c]))
            out[cols] = got
        return out

    def hand_scale(self) -> int:
        """Denominator of :meth:`hand_value`."""
        return math.perm(self.n - self.hand, self.reads - self.hand)

    # -- whole computations -----------------------------------------------------------------

    def without_mulligan(self, progress: Progress | None = None) -> Fraction:
        """Probability with no mulligan (with the look-ahead where there is one);
        ``progress(done, total)`` hears from the plain programme."""
        if not self.red.cond.tests:
            return Fraction(1)
        if not self.lookahead:
            plain = self.plain
            if plain is None or plain.most != self.seen:
                plain = PlainProgramme(self.red, self.seen)
            ways = plain.ways(progress)[self.seen]
            return Fraction(ways, math.comb(self.n, self.seen))
        if self._hands_plain is not None and self.settled_at_start() is None:
            # The return table values every hand: no mulligan is their weighed sum.
            self._hands_plain.run()
            den = math.comb(self.n, self.hand) * self.hand_scale()
            return Fraction(self._hands_plain.kept_numerator, den)
        full, zero = self._canonical(self.red.sizes, self.red.cond.zero)
        kinds = self._level_kinds()
        if kinds is None:
            num = self.value(full, zero, 0, False, 0)
            return Fraction(num, math.perm(self.n, self.reads))
        budget = self.budget
        self.budget = min(budget, self.work + LEVEL_TRIAL)
        try:
            num = self.value(full, zero, 0, False, 0)
        except Intractable as exc:
            if exc.reason.reach is not Reach.WORK:
                raise
            self.budget = budget
            got = self._by_levels(kinds, go_on=True)
            if got is not None:
                return got
            # The level engine could not decide a look: the recursion goes on.
            num = self.value(full, zero, 0, False, 0)
        finally:
            self.budget = budget
        return Fraction(num, math.perm(self.n, self.reads))

    def _by_levels(self, kinds: LevelKinds, go_on: bool = False) -> Fraction | None:
        """:meth:`without_mulligan` by the level engine, which then values the hands and the
        looks (:meth:`hand_value`, :meth:`keep_top`); None when it cannot (its states would
        not fit its integers, or two branches of a look too close for its floats) or should
        not (its levels' own steps past what the limit leaves; the typed engine's past half
        of it).

        ``go_on``: the recursion has had its trial (:data:`LEVEL_TRIAL`) and may go on. A
        level engine's charge is mostly its levels' own steps, known before it runs
        (:meth:`~.levels.LevelEngine.own_steps`); the recursion's is not known until it ends.
        So the recursion first goes on for a share of that charge (:data:`LEVEL_SHARE`, and
        no more than that share of what the limit leaves past it): a long deal of few states
        ends there, for less than the level engine would be charged; another costs the level
        engine that share more."""
        try:
            from deckcheck.draws.exact.levels import Ambiguous, LevelEngine
        except ImportError:  # no numpy: the recursion answers alone
            return None

        base = self.work
        units = [0]
        per_call = [1]  # the engine's units_per_call, once it is chosen

        def charge(more: int) -> None:
            work = base + (units[0] + more) // per_call[0]
            if work > self.budget:
                # Refused before the level is done: counted as the recursion's refusal is, one
                # call past the limit (the level's own work is not spent).
                self.work = self.budget + 1
                raise Intractable(OutOfReach(Reach.WORK, Stage.SEQUENTIAL, limit=self.budget))
            units[0] += more
            self.work = work
            if self.progress is not None:
                self.progress(self.work, max(self.work, min(self.budget, STATE_BUDGET)))

        sizes, n, hand, seen, reads, per_turn = (
            self.red.sizes,
            self.n,
            self.hand,
            self.seen,
            self.reads,
            self.per_turn,
        )
        levels: LevelEngine | None = None
        if not isinstance(kinds, tuple):
            levels = LevelEngine(sizes, kinds, n, hand, seen, reads, per_turn, charge)
            typed = None if levels.fits else typed_kinds(self.red)
        else:
            typed = kinds
        if typed is not None:
            # Types over named cards, or a class whose many (held, left) pairs would not fit
            # the level engine's digits.
            from deckcheck.draws.exact.typed import TypedLevels

            levels = TypedLevels(sizes, *typed, n, hand, seen, reads, per_turn, charge)
        if levels is None or not levels.fits:
            return None
        per_call[0] = levels.units_per_call
        steps = levels.own_steps() // per_call[0]
        left = self.budget - base
        if (steps > left or (typed is not None and 2 * steps > left)) and (
            self.settled_at_start() is None
        ):
            # Its levels' own steps alone would take what the limit leaves (the typed
            # engine's: half of it), unless the deal is settled before it starts (no level
            # then has a state to go on from, and none is charged): a long deal of few states
            # a level, the recursion's.
            return None
        trial = max(0, min(steps, left - steps)) // LEVEL_SHARE
        if go_on and LEVEL_TRIAL and trial > 0:
            budget = self.budget
            self.budget = base + trial
            try:
                full, zero = self._canonical(self.red.sizes, self.red.cond.zero)
                num = self.value(full, zero, 0, False, 0)
                return Fraction(num, math.perm(self.n, self.reads))
            except Intractable as exc:
                if exc.reason.reach is not Reach.WORK:
                    raise
            finally:
                self.budget = budget
            # Charged as spent: the level engine gets what is left.
            base = self.work
        try:
            levels.run()
        except Ambiguous:
            return None
        self._levels = levels
        num = levels.exact((0, 0, False), levels.key_of((0,) * len(self.red.sizes)))
        return Fraction(num, math.perm(self.n, self.reads))

    def redraw_parts(self, most: int | None = None) -> tuple[Fraction, Fraction, Fraction]:
        """(P(success), P(no trigger and success), P(trigger)) for one dealt hand; ``most``:
        the most cards a table of turns asks about (one pass answers all of them)."""
        if not self.lookahead:
            s, j, t = redraw_table(
                self.red, self.hand, self.seen, most or self.seen, self.table_budget
            )
            later = self.seen - self.hand
            den = math.comb(self.n, self.hand) * math.comb(self.n - self.hand, later)
            return Fraction(s, den), Fraction(j, den), Fraction(t, den)
        # With a look-ahead the later draws depend on the hand: enumerate hands.
        sizes = self.red.sizes
        n_hands = count_compositions(sizes, self.hand)[self.hand]
        self.spend(n_hands, Stage.REDRAW_LOOKAHEAD)
        s = j = t = 0
        for hand in compositions(sizes, self.hand):
            w = ways(sizes, hand)
            v = w * self.hand_value(hand)
            s += v
            if self.red.trig.any_holds(self.red.trig.of(hand)):
                t += w
            else:
                j += v
        den = math.comb(self.n, self.hand)
        scale = self.hand_scale()
        return Fraction(s, den * scale), Fraction(j, den * scale), Fraction(t, den)

    def return_table(self, count: int) -> tuple[Mapping[tuple[int, ...], Kept], Fraction]:
        """Optimal choice per opening hand (the kept part, or None to keep all) and P(success).

        Returning ``r`` from hand ``H`` leaves ``K = H - r``; the pile is then everything but
        ``K`` and ``count`` cards are drawn from it. So the value of a return depends on ``K``
        alone: tabulate it once per ``K``, then each hand takes the best of its sub-hands.
        """
        sizes = self.red.sizes
        h = self.hand
        keep = h - count
        if self.lookahead and (start := self.settled_at_start()) is not None:
            # No play can change it: every hand keeps (ties keep), and every kept part is
            # worth as much as keeping.
            scale = math.comb(self.n - keep, count) * self.hand_scale()
            self.kept_values = EveryKeptPart(sizes, keep, scale if start else 0)
            return ReturnChoice(sizes, h, lambda hand: None), Fraction(int(start))
        n_hands = count_compositions(sizes, h)[h]
        n_kept = count_compositions(sizes, keep)[keep]
        n_draws = count_compositions(sizes, count)[count]
        # Each hand weighs its sub-hands; each kept part, its draws (the new hands' values
        # counted again as they run): fail before starting when that alone is over budget.
        hands = self._hands_return(count)
        if self.lookahead:
            upfront = estimate = self.return_work(count)
        elif hands is not None:
            upfront = estimate = hands.work()
        else:
            upfront = n_hands * min(math.comb(h, count), n_draws)
            estimate = upfront + n_kept * len(sizes)
        if self.work + max(0, estimate - self.prepaid) > self.budget:
            raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_MULLIGAN, estimate, self.budget))
        self.spend(upfront, Stage.OPTIMAL_MULLIGAN)
        redraw_den = math.comb(self.n - keep, count)
        if hands is not None:
            return self._return_by_hands(hands)
        walk = self._return_walk(count) if self.lookahead else 0
        if self.lookahead and (self._vector_return(walk) or self._typed_levels()):
            table = self._return_by_levels(count)
            if table is not None:
                return table
            # The level engine could not: the walk, charged what the estimate left out.
            self.spend(walk - upfront, Stage.OPTIMAL_MULLIGAN)
        kept_value: dict[tuple[int, ...], int] = {}
        hand_values: dict[tuple[int, ...], int] = {}
        later = self.seen - h
        steps = n_kept + n_hands  # for progress: kept parts, then hands
        done = 0
        for kept in compositions(sizes, keep):
            done += 1
            if self.progress is not None and not self.lookahead and not done % 64:
                self.progress(done, steps)
            pile = tuple(s - k for s, k in zip(sizes, kept, strict=True))
            if not self.lookahead:
                # Without a look-ahead, the redraw and the later draws are one blind draw of
                # count + later cards: a single plain programme. Its denominator
                # comb(N - keep, count + later) times perm(count + later, later) is this
                # table's, redraw_den * hand_scale.
                good = plain_ways(self.red, count + later, pile, self.red.cond.of(kept))
                kept_value[kept] = good * math.perm(count + later, later)
                continue
            # Kept parts that exchange classes alike (same size) have the same value.
            twin = self._exchanged(kept)
            total = kept_value.get(twin, -1)
            if total < 0:
                total = kept_value[twin] = self._kept_value(twin, count)
            kept_value[kept] = total
        self.kept_values = kept_value

        def best_return(hand: tuple[int, ...]) -> tuple[int, Kept]:
            best = self._hand_value(hand, hand_values) * redraw_den
            pick: tuple[int, ...] | None = None  # ties keep: returning gains nothing
            for kept in compositions(hand, keep):
                v = kept_value[kept]
                if v > best:
                    best, pick = v, kept
            return best, pick

        choice = ReturnChoice(sizes, h, lambda hand: best_return(hand)[1])
        # Hands that exchange classes alike (same size) are as likely and score the same.
        weighed: dict[tuple[int, ...], int] = {}
        num = 0
        for hand in compositions(sizes, h):
            done += 1
            if self.progress is not None and not self.lookahead and not done % 256:
                self.progress(done, steps)
            twin = self._exchanged(hand)
            got = weighed.get(twin)
            if got is None:
                best, pick = best_return(twin)
                choice.remember(twin, pick)
                got = weighed[twin] = ways(sizes, twin) * best
            num += got
        den = math.comb(self.n, h) * redraw_den * self.hand_scale()
        return choice, Fraction(num, den)
