"""The optimal redraw policy for a Ren Dhark-style redraw rule, solved exactly.

A :class:`~deckcheck.draws.model.RedrawRule` says when the player *may* reshuffle the opening
hand and draw a new one. :func:`deckcheck.draws.exact.odds.exact_odds` answers for the policy
"redraw whenever allowed"; this module answers for the best policy for one query: redraw an
allowed hand only when redrawing raises the chance that the query's conditions hold over the
cards seen (the opening hand plus the later draws up to ``query.seen``).

Every redraw is a fresh shuffle of the whole pile, so deals are independent and the problem is
a small optimal-stopping one over opening-hand *compositions* ``h`` (cards per class):

* ``p(h) = prod C(size_c, h_c) / C(N, hand)``, the chance of being dealt ``h``;
* ``keep(h)``: the chance of success if ``h`` is kept (a plain hypergeometric draw of the
  later cards from the rest of the pile, or the look-ahead engine's value when the procedure
  has one);
* ``V_0 = sum p(h) keep(h)`` and, with ``j`` redraws left,
  ``V_j = sum p(h) * (max(keep(h), V_{j-1}) if allowed(h) else keep(h))``;
* unlimited redraws: the best stationary policy, "redraw an allowed hand when
  ``keep(h) < V``", whose value is the least fixed point of the same equation.

All values are exact :class:`~fractions.Fraction` s (integer numerators until the end), so
decisions compare exact values and ties are kept (redrawing must *raise* the chance).
"""

from __future__ import annotations

import bisect
import functools
import math
import operator
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from deckcheck.core.values import frozen
from deckcheck.draws.answer import (
    Answer,
    Fact,
    FactKind,
    Intractable,
    Method,
    OutOfReach,
    Reach,
    Stage,
    lookahead_fact,
)
from deckcheck.draws.exact.capped import PlainProgramme, Progress, factored, hands_ways
from deckcheck.draws.exact.compositions import compositions, count_compositions
from deckcheck.draws.exact.either_draw import EitherProgramme
from deckcheck.draws.exact.reduced import Reduced, Tracked, Vec, orbits
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import (
    DrawProblem,
    LookaheadPolicy,
    Procedure,
    Query,
    RedrawRule,
    Request,
)

#: Default work budget (units: hand compositions times the estimated steps of the per-hand
#: programme, plus one per value iteration). Well under a µs a unit as estimated, so a
#: computation within budget takes a fraction of a second.
DEFAULT_BUDGET = 200_000

METHOD = Method.OPTIMAL_REDRAW


@frozen
class _Solution:
    """Everything one exact solve learns, shared by the odds and the decision function.

    Hands are compositions over the engine's reduced classes (groups matching the same
    relevant selectors, merged: exact for a hypergeometric deal). Per-hand chances are kept as
    integer numerators over one common denominator: exact, and far cheaper than a Fraction
    per hand.
    """

    engine: SequentialEngine
    index: dict[tuple[int, ...], int]  # class composition -> row of the tables below
    #: P(success | the hand is kept) * keep_den; None for a hand the rule keeps (its chance
    #: never decides anything: the hands kept count together, see :func:`_plain_ways`).
    keep_num: tuple[int | None, ...]
    keep_den: int
    allowed: tuple[bool, ...]  # the rule lets the player redraw this hand
    values: tuple[Fraction, ...]  # V_0 .. V_k (finite rule); (V_0,) when unlimited
    unlimited: Fraction | None  # the optimal value with unlimited redraws, else None
    every_hand_allowed: bool
    max_redraws: int | None
    active: bool  # False when the mulligan is not used: nothing is ever redrawn
    #: Units of ``budget`` the solve charged before working: a table of hands charges the
    #: kept hands' chances on top of them (see :func:`optimal_redraw_table`).
    charged: int = 0
    budget: int = DEFAULT_BUDGET

    @property
    def plain(self) -> Fraction:
        return self.values[0]

    @property
    def best(self) -> Fraction:
        if self.unlimited is not None:
            return self.unlimited
        return self.values[-1]

    def threshold(self, redraws_left: int | None) -> Fraction | None:
        """Value of redrawing with ``redraws_left`` (None = the rule's own count) redraws left.

        Redrawing uses one redraw, so the value of a redraw is ``V_{left-1}``; None when no
        redraw is possible.
        """
        if self.max_redraws is None:
            if redraws_left is not None:
                raise ValueError("the rule allows unlimited redraws: pass redraws_left=None")
            return self.unlimited if self.active else None
        left = self.max_redraws if redraws_left is None else redraws_left
        if not 0 <= left <= self.max_redraws:
            raise ValueError(f"redraws_left must be between 0 and {self.max_redraws}; got {left}")
        return self.values[left - 1] if left > 0 and self.active else None


#: Estimated programme steps per hand besides its plain programme: enumerating the
#: composition, its weight, trigger test and bookkeeping.
_PER_HAND = 50
#: Estimated programme steps per hand for each conjunction of an either-or query's
#: alternatives (its bounds on the hand's pile and its run: measured at about 85 µs).
_PART_STEPS = 350
#: Programme steps (:meth:`PlainProgramme.work` units counted on the whole pile, about
#: 0.25 µs each for the small programmes of a hand) per unit of the budget (about 5 µs).
_HAND_STEPS = 20
#: Programme steps per product of a factored group's walk (about 2 µs each).
_WALK_STEPS = 8
#: Transitions of the kept hands' one walk (:func:`~deckcheck.draws.exact.capped.hands_ways`)
#: per unit of the budget: about 3 µs each with the count before it.
_WALK_TRANSITIONS = 2


def _estimate_work(engine: SequentialEngine, n_hands: int, budget: int) -> int:
    """Rough units to tabulate every hand's chance, before spending them.

    Each hand's chance is one plain programme
    (:class:`~deckcheck.draws.exact.capped.PlainProgramme`) whose transitions are counted
    before starting (stopping just past ``budget``), counted on the whole pile from nothing
    (a hand's starts further along on a smaller pile: the count leans high). A unit measures
    at roughly 5 µs.
    """
    later = engine.seen - engine.hand
    if later == 0:
        return n_hands * _PER_HAND  # keep is a single test of the hand's counts
    share = max(1, budget * _HAND_STEPS // n_hands)
    programme = PlainProgramme(engine.red, later)
    per_hand = programme.work(share)
    if per_hand is None:
        return budget + 1
    # An either-or query sets up and runs one programme per conjunction of its alternatives
    # on each hand's pile.
    setup = len(programme.parts) * _PART_STEPS if programme.parts else _PER_HAND
    return n_hands * (setup + per_hand) // _HAND_STEPS


#: Programme steps (as :data:`_HAND_STEPS` counts them) per transition of an
#: :class:`~deckcheck.draws.exact.either_draw.EitherProgramme` (every alternative's tests
#: read per state, the polynomials multiplied: about 1 µs a transition).
_EITHER_STEPS = 6
#: Hands whose programmes' transitions are counted to estimate them all (see _either_work).
_EITHER_SAMPLE = 24


def _either_work(red: Reduced, hands: _Hands, most: int, programmes: int) -> int:
    """Units to tabulate the ``programmes`` hands of an either-or question by one
    :class:`~deckcheck.draws.exact.either_draw.EitherProgramme` each: the transitions of a
    sample of those hands' own programmes (evenly spread over them, counted without the
    arithmetic), their mean and one half more for every hand (the whole pile from nothing
    would count each hand's as many as ten times over)."""
    firsts = sorted({a for a, may in zip(hands.alike, hands.allowed, strict=True) if may})
    sample = firsts[:: max(1, len(firsts) // _EITHER_SAMPLE)][:_EITHER_SAMPLE]
    counted = 0
    for a in sample:
        pile = tuple(map(operator.sub, red.sizes, hands.comps[a]))
        got = EitherProgramme(red, min(most, sum(pile)), pile, hands.start(a)).work()
        counted += got or 0
    per_hand = 3 * counted // (2 * max(1, len(sample)))
    steps = _PER_HAND * (programmes + len(sample)) + _EITHER_STEPS * per_hand * programmes
    return (steps + _EITHER_STEPS * counted) // _HAND_STEPS


@functools.lru_cache(maxsize=8)
def _by_either(red: Reduced, later: int) -> bool:
    """Whether the hands of an either-or question tabulate their ``later`` cards with one
    :class:`~deckcheck.draws.exact.either_draw.EitherProgramme` each (every alternative at
    once) rather than one plain programme per conjunction of alternatives: the one with the
    fewer steps counted on the whole pile (the same choice for the estimate and the table)."""
    either = EitherProgramme(red, later).work(DEFAULT_BUDGET * _HAND_STEPS // _EITHER_STEPS)
    if either is None:
        return False
    cost = _PER_HAND + either * _EITHER_STEPS
    programme = PlainProgramme(red, later)
    # The conjunctions' programmes counted only as far as the one programme's steps.
    parts = programme.work(cost - len(programme.parts) * _PART_STEPS)
    return parts is None or cost <= len(programme.parts) * _PART_STEPS + parts


def _factored_work(red: Reduced, hands: _Hands, most: int) -> tuple[int, int]:
    """The distinct hands the rule lets the player redraw whose later draws a plain programme
    tabulates, and the units of those a :class:`~deckcheck.draws.exact.capped.Factored` draw
    tabulates instead (as :func:`_build_hand_table` chooses): each group's walk the first time
    its cards and counts come, and the product of the groups' polynomials for every hand."""
    firsts = {a for a, may in zip(hands.alike, hands.allowed, strict=True) if may}
    factors = factored(red.cond, most)
    if not factors.shares:
        return len(firsts), 0
    comps = (hands.comps[first] for first in firsts)
    programmes, walks = factors.charge(red.sizes, comps, red.cond.of)
    per_hand = _PER_HAND + len(factors.groups) * (most + 1) ** 2 // 4
    walked = (len(firsts) - programmes) * per_hand + walks * _WALK_STEPS
    return programmes, walked // _HAND_STEPS


def _fixed_point(
    rest: int, pairs: Sequence[tuple[int, int]], keep_den: int, hands_den: int
) -> Fraction:
    """The optimal value with unlimited redraws.

    ``rest`` = sum of weight*keep over hands that may not be redrawn; ``pairs`` = (keep,
    weight) of the allowed hands by keep ascending (keep over ``keep_den``, weight over
    ``hands_den``). An optimal stationary policy redraws the allowed hands whose keep is
    below the value, i.e. a prefix S of ``pairs``; by a renewal argument (deal until a kept
    hand comes) redrawing S is worth (rest + sum_{not S} weight*keep) / (1 - P(S)). The best
    prefix is the fixed point of V = rest + sum p*max(keep, V), found exactly by trying all.

    When every hand may be redrawn, redrawing all of them never ends (P(S) = 1) and is
    excluded; the best remaining policy keeps only the hands of highest keep, reached with
    probability 1, so the value is max keep (the least fixed point; any V >= max keep solves
    the equation). The prefix that stops just short of those hands is among those tried.
    """
    kept = rest + sum(k * w for k, w in pairs)
    redrawn = 0
    best_num, best_den = 0, 1
    for m in range(len(pairs) + 1):
        if redrawn < hands_den:
            num, den = kept, keep_den * (hands_den - redrawn)
            if num * best_den > best_num * den:  # exact comparison of num/den and best
                best_num, best_den = num, den
        if m < len(pairs):
            k, w = pairs[m]
            kept -= k * w
            redrawn += w
    return Fraction(best_num, best_den)


def _whole_work(engine: SequentialEngine, budget: int) -> int:
    """Units of the one plain programme of every card seen on the whole pile (see
    :func:`_plain_ways`), counted before it runs (stopping just past ``budget``)."""
    got = PlainProgramme(engine.red, engine.seen).work(budget * _HAND_STEPS)
    return budget + 1 if got is None else got // _HAND_STEPS + _PER_HAND


def _iteration_work(engine: SequentialEngine, n_hands: int, max_redraws: int | None) -> int:
    """Units for the value iterations, or :class:`Intractable` if the answer cannot be shown.

    Unlimited: one pass over the allowed hands. ``k`` redraws: ``k`` binary searches, but
    each multiplies the exact denominator by up to C(N, hand), so the numbers grow by about
    log10 C(N, hand) digits a step and the arithmetic with them: charge that, and refuse when
    the exact fraction would be too long for Python to print (``sys.get_int_max_str_digits``).
    """
    if max_redraws is None:
        return n_hands
    step = len(str(math.comb(engine.n, engine.hand)))
    digits = (max_redraws + 1) * step + engine.n  # + the later draws' denominator, roughly
    limit = sys.get_int_max_str_digits()
    if limit and digits > limit:
        raise Intractable(
            OutOfReach(Reach.DIGITS, Stage.OPTIMAL_REDRAW, digits, limit, redraws=max_redraws)
        )
    return max_redraws * (1 + digits // 200)


def _refuse_past(estimate: int, budget: int) -> None:
    """Raise :class:`Intractable` when ``estimate`` units pass ``budget``."""
    if estimate > budget:
        raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_REDRAW, estimate, budget))


def _inactive(engine: SequentialEngine, budget: int) -> tuple[Fraction, int]:
    """The plain chance, when the redraw is never used (:class:`Intractable` past ``budget``),
    and the units charged for it."""
    work = engine.estimate(None, budget)
    if work > budget:
        raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_REDRAW, work, budget))
    return engine.without_mulligan(), work


@frozen
class _Hands:
    """Every opening hand of a reduced problem (class compositions, in the order
    :func:`compositions` gives them), with what does not depend on the cards seen after it:
    computed once for all the turns of a by-turn table."""

    comps: tuple[tuple[int, ...], ...]
    index: dict[tuple[int, ...], int]  # composition -> its position above
    weights: tuple[int, ...]  # the ways to be dealt the hand
    allowed: tuple[bool, ...]  # the rule lets the player redraw the hand
    #: Per hand, the position of the hand it matches once classes alike (see
    #: :func:`~deckcheck.draws.exact.reduced.orbits`) are put in order: the later draws
    #: give both the same chances, so only those hands are tabulated.
    alike: tuple[int, ...]
    cond: Tracked
    #: The capped counts the conditions see in a hand (composition), found as asked (see
    #: :meth:`start`) and kept for every problem of one query.
    seen: dict[tuple[int, ...], Vec]

    def start(self, row: int) -> Vec:
        """The capped counts the conditions see in hand ``row`` (the same for hands alike):
        worked out only for the hands whose chance is asked (those the rule lets the player
        redraw, or every hand when no card is drawn after it)."""
        comp = self.comps[self.alike[row]]
        got = self.seen.get(comp)
        if got is None:
            got = self.seen[comp] = self.cond.of(comp)
        return got

    @property
    def distinct(self) -> int:
        """Hands alike counted once: one for each arrangement of classes alike."""
        return len(set(self.alike))


@functools.lru_cache(maxsize=4)
def _hands(red: Reduced, hand: int, active: bool) -> _Hands:
    comps = tuple(compositions(red.sizes, hand))
    index = {comp: i for i, comp in enumerate(comps)}
    # Per orbit: its classes and a getter of their counts in a hand (two or more each).
    groups = [
        (cs, operator.itemgetter(*cs)) for cs in ([c for c, _ in orbit] for orbit in orbits(red))
    ]

    def ordered(comp: tuple[int, ...]) -> tuple[int, ...]:
        out: list[int] | None = None
        for group, counts_of in groups:
            counts = counts_of(comp)
            arranged = tuple(sorted(counts))
            if arranged != counts:
                if out is None:
                    out = list(comp)
                for c, k in zip(group, arranged, strict=True):
                    out[c] = k
        return comp if out is None else tuple(out)

    alike = tuple(index[ordered(comp)] for comp in comps) if groups else tuple(range(len(comps)))
    # What the triggers see of a hand is the same for hands alike, and for hands of the same
    # counts: each hand's counts are one sum of products (packed into an integer, a field per
    # position), looked up before they are capped; none when the redraw is not used.
    allowed: dict[int, bool] = {}
    if active:
        trig = red.trig
        width = hand.bit_length() + 1
        packs = [sum(1 << (width * p) for p in at) for at in trig.class_positions]
        by_counts: dict[int, bool] = {}
        for first in set(alike):
            comp = comps[first]
            packed = sum(map(operator.mul, comp, packs))
            may = by_counts.get(packed)
            if may is None:
                may = by_counts[packed] = trig.any_holds(trig.of(comp))
            allowed[first] = may
    # the ways to be dealt a hand: one binomial per class and number of its cards, made once
    binomials = [[math.comb(size, k) for k in range(min(size, hand) + 1)] for size in red.sizes]
    weights = tuple(math.prod(map(operator.getitem, binomials, comp)) for comp in comps)
    return _Hands(
        comps=comps,
        index=index,
        weights=weights,
        allowed=tuple(allowed[first] for first in alike) if active else (False,) * len(comps),
        alike=alike,
        cond=red.cond,
        seen=_seen_in_hands(red.cond),
    )


@functools.lru_cache(maxsize=4)
def _seen_in_hands(cond: Tracked) -> dict[tuple[int, ...], Vec]:
    """Per opening hand (class composition): the capped counts the conditions see in it. They
    depend on the classes' selectors, not on their sizes: kept for every problem of one query
    (the optimiser asks hundreds of decks)."""
    return {}


#: Per opening hand the rule lets the player redraw (class composition), the ways of every
#: number of later cards up to the most asked: later turns of a by-turn table read the rows
#: the first one computed. The hands the rule keeps have no row (see :func:`_plain_ways`).
_HandTables = dict[tuple[int, ...], list[int]]
_TABLES: dict[tuple[object, ...], _HandTables] = {}


def _hand_table(engine: SequentialEngine, most: int) -> _HandTables | None:
    """The per-hand tables of later draws up to ``most`` cards, if already computed."""
    for (red, hand, top), table in _TABLES.items():
        if red == engine.red and hand == engine.hand and isinstance(top, int) and top >= most:
            return table
    return None


def _plain_ways(engine: SequentialEngine) -> int:
    """The sum over every opening hand of its weight times its kept chance's numerator (over
    ``C(N, hand) * C(N - hand, later)``), from one plain programme on the whole pile.

    A hand and then its later cards are the ``seen`` cards split in one of
    ``C(seen, hand)`` ways, and the conditions read the cards seen together: so the sum is
    the ``seen``-card subsets on which the conditions hold times ``C(seen, hand)``. The hands
    the rule keeps then need no programme of their own: their part is this total minus the
    redrawable hands' (exact, integers throughout).
    """
    seen = engine.seen
    ways = PlainProgramme(engine.red, seen).ways()[seen]
    return ways * math.comb(seen, engine.hand)


def _build_hand_table(
    engine: SequentialEngine, hands: _Hands, most: int, progress: Progress | None, keep: bool
) -> _HandTables:
    red, hand = engine.red, engine.hand
    sizes = red.sizes
    n_hands = len(hands.comps)
    table: _HandTables = {}
    rows: dict[int, list[int]] = {}
    factors = factored(red.cond, most)
    either = bool(red.cond.alternatives) and _by_either(red, most)
    for i, (comp, alike) in enumerate(zip(hands.comps, hands.alike, strict=True)):
        if progress is not None and not i % 256:
            progress(i, n_hands)
        if not hands.allowed[i]:
            continue  # a hand the rule keeps: counted with the others kept (_plain_ways)
        row = rows.get(alike)
        if row is None:
            first = hands.comps[alike]
            pile = tuple(map(operator.sub, sizes, first))
            if factors.shares and factors.fits(pile):
                row = factors.ways(pile, hands.start(alike))
            elif either:
                row = EitherProgramme(red, min(most, sum(pile)), pile, hands.start(alike)).ways()
            else:
                start = hands.start(alike)
                row = PlainProgramme(red, min(most, sum(pile)), pile, start, shared=True).ways()
            rows[alike] = row
        table[comp] = row
    if keep:
        if len(_TABLES) >= 2:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[(red, hand, most)] = table
    return table


@functools.lru_cache(maxsize=8)
def _solve(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    budget: int,
    lookahead: LookaheadPolicy = "optimal",
    progress: Progress | None = None,
    most_seen: int | None = None,
) -> _Solution:
    rule = procedure.mulligan
    if not isinstance(rule, RedrawRule):
        raise ValueError("the optimal redraw needs a RedrawRule mulligan")
    if rule.max_redraws is not None and rule.max_redraws < 0:
        raise ValueError(f"max_redraws must be at least 0; got {rule.max_redraws}")
    active = query.use_mulligan and bool(rule.triggers)
    # The engine validates the query, merges groups into classes over the condition *and*
    # trigger selectors, and carries the look-ahead engine when the procedure has one.
    engine_triggers = rule.triggers if active else ()
    engine = SequentialEngine(problem, procedure, query, engine_triggers, budget, lookahead)
    red = engine.red
    sizes = red.sizes
    hand = engine.hand
    later = engine.seen - hand
    if not active and not engine.lookahead:
        # Nothing is ever redrawn: one plain draw, without tabulating the hands.
        plain_answer, work = _inactive(engine, budget)
        return _Solution(
            engine=engine,
            index={},
            keep_num=(),
            keep_den=1,
            allowed=(),
            values=(plain_answer,) * (1 + (rule.max_redraws or 0)),
            unlimited=plain_answer if rule.max_redraws is None else None,
            every_hand_allowed=False,
            max_redraws=rule.max_redraws,
            active=False,
            charged=work,
            budget=budget,
        )
    n_hands = count_compositions(sizes, hand)[hand]
    iterations = _iteration_work(engine, n_hands, rule.max_redraws) if active else 0
    most = min(max(later, (most_seen or 0) - hand), engine.n - hand)
    table: _HandTables | None = None
    charged = 0
    if not engine.lookahead and later and red.cond.tests:
        # Only the turns of one table share rows (a single query is estimated on its own).
        table = _hand_table(engine, later) if most_seen is not None else None
        if table is None:
            # The parts of the estimate known without listing the hands first: past the
            # budget, the query is refused before any hand is enumerated.
            charged = n_hands + iterations
            _refuse_past(charged, budget)
            # Work as if from the first turn: the tables of later turns come with it.
            probe = SequentialEngine(
                problem, procedure, replace(query, seen=hand + most), engine_triggers, 0
            )
            # One programme for all the hands together (see _plain_ways), and one per
            # distinct hand the rule lets the player redraw.
            charged += _whole_work(probe, budget - charged)
            _refuse_past(charged, budget)
            hands = _hands(red, hand, active)
            programmes, walked = _factored_work(red, hands, most)
            charged += walked
            _refuse_past(charged, budget)
            if programmes and red.cond.alternatives and _by_either(red, most):
                charged += _either_work(red, hands, most, programmes)
            elif programmes:
                charged += _estimate_work(probe, programmes, budget)
            _refuse_past(charged, budget)
            table = _build_hand_table(engine, hands, most, progress, keep=most_seen is not None)
    elif not engine.lookahead:
        charged = n_hands * _PER_HAND // _HAND_STEPS + iterations
        _refuse_past(charged, budget)
    else:
        # The look-ahead engine counts its own steps against the budget as it goes.
        engine.spend(n_hands + iterations, Stage.OPTIMAL_REDRAW_LOOKAHEAD)

    hands_den = math.comb(engine.n, hand)
    # Plain programme: subsets of the later cards; look-ahead engine: ordered sequences.
    keep_den = math.comb(engine.n - hand, later) if not engine.lookahead else engine.hand_scale()
    hands = _hands(red, hand, active)
    weight, allowed = hands.weights, hands.allowed
    keep: list[int | None] = []
    for i, (comp, may) in enumerate(zip(hands.comps, allowed, strict=True)):
        if progress is not None and not len(keep) % 256:
            progress(len(keep), n_hands)
        good: int | None
        if table is not None and not may:
            good = None  # kept whatever its chance: counted with the others (_plain_ways)
        elif not red.cond.tests:
            good = keep_den
        elif engine.lookahead:
            good = engine.hand_value(comp)
        elif later == 0:
            good = 1 if red.cond.all_hold(hands.start(i)) else 0
        else:
            assert table is not None
            row = table[comp]
            good = row[later] if later < len(row) else 0
        keep.append(good)

    if progress is not None:
        progress(n_hands, n_hands)
    scale = hands_den * keep_den
    # Allowed hands by keep ascending, with prefix sums of weight and suffix sums of
    # weight*keep: with a redraw worth V, the hands with keep < V (a prefix) are redrawn and
    # the rest kept, so each value iteration is one binary search, not a pass over all hands.
    pairs = sorted(
        (k, w) for k, w, a in zip(keep, weight, allowed, strict=True) if a and k is not None
    )
    if table is not None:
        total = _plain_ways(engine)
        rest = total - sum(k * w for k, w in pairs)
    else:
        known = [k for k in keep if k is not None]
        assert len(known) == len(keep)
        total = sum(w * k for w, k in zip(weight, known, strict=True))
        rest = sum(w * k for w, k, a in zip(weight, known, allowed, strict=True) if not a)
    plain = Fraction(total, scale)
    keys = [k for k, _ in pairs]
    prefix_w = [0]
    for _, w in pairs:
        prefix_w.append(prefix_w[-1] + w)
    suffix_wk = [0]
    for k, w in reversed(pairs):
        suffix_wk.append(suffix_wk[-1] + k * w)
    suffix_wk.reverse()

    values = [plain]
    unlimited: Fraction | None = None
    every = active and all(allowed)
    if not active:
        unlimited = plain if rule.max_redraws is None else None
        values.extend([plain] * (rule.max_redraws or 0))
    elif rule.max_redraws is None:
        unlimited = _fixed_point(rest, pairs, keep_den, hands_den)
        # Every hand allowed: the value must be the best hand's own chance (see _fixed_point).
        assert not every or unlimited == Fraction(keys[-1], keep_den)
    else:
        for _ in range(rule.max_redraws):
            previous = values[-1]
            m = bisect.bisect_left(keys, previous * keep_den)  # keep < previous: redraw
            values.append(
                Fraction(rest + suffix_wk[m], scale) + Fraction(prefix_w[m], hands_den) * previous
            )
    return _Solution(
        engine=engine,
        index=hands.index,
        keep_num=tuple(keep),
        keep_den=keep_den,
        allowed=allowed,
        values=tuple(values),
        unlimited=unlimited,
        every_hand_allowed=every,
        max_redraws=rule.max_redraws,
        active=active,
        charged=charged,
        budget=budget,
    )


def optimal_redraw_odds(
    request: Request,
    *,
    budget: int = DEFAULT_BUDGET,
    progress: Progress | None = None,
    most_seen: int | None = None,
) -> Answer:
    """Exact probability of the query under the optimal redraw policy.

    ``request.procedure.mulligan`` must be a :class:`RedrawRule`; a hand may be redrawn when any
    trigger holds, at most ``max_redraws`` times (None = unlimited). The player redraws an
    allowed hand only when the redraw's value is strictly higher than keeping it.
    ``probability_without_mulligan`` is the plain probability (never redraw). With
    ``query.use_mulligan`` unset, or no triggers, both are the plain probability.

    Unlimited redraws when *every* hand may be redrawn: the value returned is
    ``max_h keep(h)``, the value of redrawing until a best hand comes (which happens with
    probability 1); "redraw everything forever" is no policy.

    Raises :class:`~deckcheck.draws.answer.Intractable` when the estimated work exceeds
    ``budget`` (checked before computing), ``ValueError`` for a rule that is not a redraw rule
    or a query that makes no sense (as :func:`~deckcheck.draws.exact.odds.exact_odds`).
    ``progress(done, total)`` hears as the hands are tabulated. ``most_seen``: the most cards
    a table of turns will ask about; each hand's later draws are then tabulated up to it
    once, and the other turns read them.
    """
    problem, procedure, query = request.problem, request.procedure, request.query
    solution = _solve(problem, procedure, query, budget, request.lookahead, progress, most_seen)
    rule = procedure.mulligan
    assert isinstance(rule, RedrawRule)  # checked by _solve
    facts = [Fact(FactKind.REDRAW_OPTIMAL)]
    method = METHOD
    if not solution.active:
        # No hand is ever redrawn (the mulligan is off or no trigger can hold): the figure is
        # the plain draw's, and its method says so.
        facts = [Fact(FactKind.REDRAW_INACTIVE)]
        method = Method.LOOKAHEAD if solution.engine.lookahead else Method.HYPERGEOMETRIC
    else:
        facts.append(Fact(FactKind.OPTIMAL_REDRAW_LIMIT, limit=rule.max_redraws))
        if solution.every_hand_allowed and rule.max_redraws is None:
            facts.append(Fact(FactKind.EVERY_HAND_REDRAWS_OPTIMAL))
    if solution.engine.lookahead:
        facts.append(lookahead_fact(solution.engine.optimal))
    return Answer.from_fractions(solution.best, solution.plain, method, facts)


def optimal_redraw_choice(request: Request, *, budget: int = DEFAULT_BUDGET) -> Callable[..., bool]:
    """The decision :func:`optimal_redraw_odds` plays: ``choose(hand, redraws_left=None)``.

    ``hand`` is an opening-hand composition over ``problem``'s groups; the result is True to
    redraw. ``redraws_left`` defaults to the first decision (``max_redraws`` left, or
    unlimited); a later decision with ``j`` redraws left compares the hand's chance with
    ``V_{j-1}``, so pass ``j`` there (``0`` never redraws). For an unlimited rule every
    decision uses the same threshold and ``redraws_left`` must stay None. A hand the rule does
    not let the player redraw is always kept; ties are kept.

    Everything is computed up front: :class:`~deckcheck.draws.answer.Intractable` is raised
    here, never by the returned function.
    """
    problem, procedure, query = request.problem, request.procedure, request.query
    solution = _solve(problem, procedure, query, budget, request.lookahead)
    red = solution.engine.red
    hand_size = solution.engine.hand
    n_groups = len(problem.group_sizes)

    def choose(hand: Sequence[int], redraws_left: int | None = None) -> bool:
        """True = redraw this hand (see :func:`optimal_redraw_choice`)."""
        if (
            len(hand) != n_groups
            or sum(hand) != hand_size
            or any(not 0 <= k <= s for k, s in zip(hand, problem.group_sizes, strict=True))
        ):
            raise ValueError(f"not an opening hand of {hand_size} over the problem's groups")
        threshold = solution.threshold(redraws_left)
        if threshold is None:
            return False
        row = solution.index[red.to_classes(hand)]
        if not solution.allowed[row]:
            return False
        # Strictly below: redrawing must raise the chance; a tie keeps the hand.
        keep = solution.keep_num[row]
        assert keep is not None  # every hand the rule lets the player redraw has its chance
        return keep < threshold * solution.keep_den

    return choose


def optimal_redraw_value(
    request: Request, *, budget: int = DEFAULT_BUDGET
) -> tuple[Fraction, Fraction]:
    """The chance with the optimal redraw and without it (``best``, ``plain``): the values of
    the solve :func:`optimal_redraw_choice` reads, no table of hands built. Raises as it does."""
    problem, procedure, query = request.problem, request.procedure, request.query
    solution = _solve(problem, procedure, query, budget, request.lookahead)
    return solution.best, solution.plain


@frozen
class RedrawTable:
    """The optimum :func:`optimal_redraw_odds` plays, hand by hand (for a guide to it).

    ``hands``: every opening hand as a composition over ``reduced``'s classes, dealt in
    ``weights[i]`` of ``hands_den`` ways; ``keep[i]``: the chance of the query if it is kept;
    ``allowed[i]``: the rule lets the player redraw it; ``threshold``: the value of the first
    redraw (a hand is redrawn when allowed and its ``keep`` is below it; None when no redraw
    is possible); ``best`` and ``plain``: the chance with the optimal redraw and without.
    """

    reduced: Reduced
    hands: tuple[tuple[int, ...], ...]
    weights: tuple[int, ...]
    hands_den: int
    keep: tuple[Fraction, ...]
    allowed: tuple[bool, ...]
    threshold: Fraction | None
    best: Fraction
    plain: Fraction

    def redraws(self, row: int) -> bool:
        """Whether the optimal play redraws hand ``row`` (ties keep)."""
        return self.allowed[row] and self.threshold is not None and self.keep[row] < self.threshold


def optimal_redraw_table(request: Request, *, budget: int = DEFAULT_BUDGET) -> RedrawTable:
    """:class:`RedrawTable` of the optimal redraw for ``request`` (the same solution
    :func:`optimal_redraw_odds` and :func:`optimal_redraw_choice` read). Raises as they do."""
    problem, procedure, query = request.problem, request.procedure, request.query
    solution = _solve(problem, procedure, query, budget, request.lookahead)
    engine = solution.engine
    hands = _hands(engine.red, engine.hand, solution.active)
    if not solution.index:  # the redraw is never used: every hand is kept
        plain_hands = _hands(engine.red, engine.hand, False)
        keep = _kept_chances(engine, plain_hands, (None,) * len(plain_hands.comps), 1, solution)
        return RedrawTable(
            engine.red,
            plain_hands.comps,
            plain_hands.weights,
            math.comb(engine.n, engine.hand),
            keep,
            (False,) * len(keep),
            None,
            solution.best,
            solution.plain,
        )
    order = [solution.index[comp] for comp in hands.comps]
    return RedrawTable(
        engine.red,
        hands.comps,
        hands.weights,
        math.comb(engine.n, engine.hand),
        _kept_chances(
            engine, hands, tuple(solution.keep_num[i] for i in order), solution.keep_den, solution
        ),
        tuple(solution.allowed[i] for i in order),
        solution.threshold(None),
        solution.best,
        solution.plain,
    )


def _kept_chances(
    engine: SequentialEngine,
    hands: _Hands,
    known: Sequence[int | None],
    den: int,
    solution: _Solution,
) -> tuple[Fraction, ...]:
    """Every hand's kept chance: ``known[i] / den`` where the solve has it, else valued once
    for the hands alike (the later draws give them the same).

    Those are work the solve did not do: charged on top of its own (:attr:`_Solution.charged`)
    before any is valued, past the budget refused naming it. A plain draw values them all in
    one walk of the whole pile (:func:`~deckcheck.draws.exact.capped.hands_ways`), its
    transitions counted first."""
    budget = solution.budget
    firsts = sorted({a for a, num in zip(hands.alike, known, strict=True) if num is None})
    red, later = engine.red, engine.seen - engine.hand
    valued: dict[int, Fraction]
    if firsts and not engine.lookahead and red.cond.tests and later:
        left = max(budget - solution.charged, 0)
        ways = hands_ways(red, later, [hands.comps[a] for a in firsts], left * _WALK_TRANSITIONS)
        if ways is None:
            why = (
                f"the hands the rule keeps ({len(firsts):,}), valued in one walk of the pile, "
                f"take more than the {left:,} steps the solve ({solution.charged:,}) left of the "
                f"exact budget of {budget:,} (over {left * _WALK_TRANSITIONS:,} of the walk's "
                f"transitions, {_WALK_TRANSITIONS} a step)"
            )
            reason = OutOfReach(Reach.WORK, Stage.OPTIMAL_REDRAW, budget + 1, budget, text=why)
            raise Intractable(reason)
        scale = math.comb(engine.n - engine.hand, later)
        valued = {a: Fraction(ways[hands.comps[a]], scale) for a in firsts}
    else:
        # A test of each hand's counts, or the look-ahead engine's values (it charges its
        # own steps as it goes).
        extra = 0 if engine.lookahead else len(firsts) * _PER_HAND // _HAND_STEPS
        _refuse_past(solution.charged + extra, budget)
        valued = {a: _kept_ways(engine, hands.comps[a]) for a in firsts}
    return tuple(
        valued[alike] if num is None else Fraction(num, den)
        for alike, num in zip(hands.alike, known, strict=True)
    )


def _kept_ways(engine: SequentialEngine, comp: tuple[int, ...]) -> Fraction:
    """The chance of the query when hand ``comp`` is kept, where no later card is drawn
    plainly: no test, the look-ahead engine's value, or no card after the hand."""
    red = engine.red
    if not red.cond.tests:
        return Fraction(1)
    if engine.lookahead:
        return Fraction(engine.hand_value(comp), engine.hand_scale())
    assert engine.seen == engine.hand  # later draws are valued together (hands_ways)
    return Fraction(1 if red.cond.all_hold(red.cond.of(comp)) else 0)


def unlimited_value(
    rest: int, pairs: Sequence[tuple[int, int]], keep_den: int, hands_den: int
) -> Fraction:
    """The optimal value with unlimited redraws, from the hands that may not be redrawn
    (``rest``: the sum of weight * keep) and the (keep, weight) of those that may, by keep
    rising (the least fixed point, see the module's notes)."""
    return _fixed_point(rest, pairs, keep_den, hands_den)
