"""Exact odds when each condition has its own deadline, and the turn conditions first hold.

A deadline is a number of cards seen: condition ``i`` must hold over the first ``due[i]``
cards seen (the start of its own turn). The cards seen at the deadlines are nested prefixes of
one deal, so the question is answered by one memoised walk over the deal, card by card, whose
state is what is gone from the pile per class, the capped counts held (see
:mod:`~deckcheck.draws.exact.reduced`), the cards held and whether this turn's look at the top
card is spent. At each deadline the conditions due there are tested; a count that only a
condition already tested reads is forgotten (its states merge).

The player's choices are made for this joint question, exactly: a look at the top card keeps
it or puts it under, whichever gives the better chance (ties keep); the game's mulligan is
played as :mod:`~deckcheck.draws.exact.optimal_redraw` and the return mulligan of
:class:`~deckcheck.draws.exact.sequential.SequentialEngine` play it (redraw only when it
raises the chance; return the cards whose return is best, ties keep), from per-hand values of
this walk. The same walk, with a test at every turn, gives the distribution of the first turn
at which all conditions hold (:func:`first_turns`), following the decisions that are optimal
for the chance that they hold at the last turn asked.

Everything is exact integer arithmetic (ordered continuations of the deal); work is counted
against a budget, past which :class:`~deckcheck.draws.answer.Intractable` is raised.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction

from deckcheck.core.values import frozen
from deckcheck.draws.answer import Intractable, OutOfReach, Reach, Stage
from deckcheck.draws.exact.capped import PlainProgramme
from deckcheck.draws.exact.compositions import compositions, count_compositions, ways
from deckcheck.draws.exact.guide import Choice, HandRow, HandTable, RuleKind, class_labels
from deckcheck.draws.exact.optimal_redraw import unlimited_value
from deckcheck.draws.exact.reduced import Reduced, Vec, reduce_problem
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, RedrawRule, ReturnRule

#: Most steps (calls of the walk, a second one for each new state of the first-turn walk,
#: hands and kept parts enumerated) an answer may take: a step measures 3–7 µs (dearer with
#: more classes), so an answer within the limit takes half a second to a second of walk.
DEADLINE_BUDGET = 150_000
#: Plain programme transitions (:meth:`PlainProgramme.work`, well under a µs each) per step.
PLAIN_STEPS = 8


@frozen
class Deadlines:
    """One question with a deadline per condition.

    ``due[i]``: the cards seen by which condition ``i`` of ``problem`` must hold (at least the
    opening hand). ``use_mulligan``: play the game's mulligan (else the plain deal);
    ``redraw``: under a redraw rule, ``"optimal"`` (redraw only when it raises the chance) or
    ``"always"`` (whenever allowed).
    """

    problem: DrawProblem
    procedure: Procedure
    due: tuple[int, ...]
    second: bool = False
    use_mulligan: bool = True
    redraw: str = "optimal"


class Meter:
    """The work of one answer's walks, counted against one budget (``stage``: the
    computation an answer past it names)."""

    def __init__(
        self,
        budget: int = DEADLINE_BUDGET,
        stage: Stage = Stage.DEADLINES,
        whole: int | None = None,
    ) -> None:
        self.budget = budget
        self.stage = stage
        self.work = 0
        #: The exact budget this one is a share of (a try of several sharing it).
        self.whole = budget if whole is None else whole

    @property
    def left(self) -> int:
        """Steps left before the budget."""
        return max(0, self.budget - self.work)

    def _limit(self) -> str:
        if self.whole == self.budget:
            return f"the exact budget of {self.budget:,}"
        return f"the {self.budget:,} this try had of the exact budget of {self.whole:,}"

    def spend(self, units: int) -> None:
        """Count ``units`` of work; :class:`Intractable` past the budget, saying what was
        counted (a floor: how much more the answer needed is not known)."""
        self.work += units
        if self.work > self.budget:
            what = " (the walk's steps, the hands listed)" if self.stage is Stage.DEADLINES else ""
            text = (
                f"stopped after {self.work:,} steps counted{what}, past {self._limit()} steps; "
                "how many more the answer needs is not known"
            )
            raise Intractable(OutOfReach(Reach.WORK, self.stage, self.work, self.budget, text=text))

    def need(self, units: int, what: str = "its opening hands, each walked once at least") -> None:
        """:class:`Intractable` now if ``units`` more would pass the budget (nothing spent):
        the refusal before work whose least size is known in advance (``what``: of what)."""
        if self.work + units > self.budget:
            done = f", after {self.work:,} spent" if self.work else ""
            text = (
                f"at least {units:,} steps known from the problem's shape alone ({what}){done}, "
                f"past {self._limit()} steps; refused before doing them"
            )
            raise Intractable(
                OutOfReach(Reach.WORK, self.stage, self.work + units, self.budget, text=text)
            )


def _meter(budget: int | Meter) -> Meter:
    return budget if isinstance(budget, Meter) else Meter(budget)


#: Classes alike (see :meth:`_Walk._alike`): the classes, a getter of their cards gone (from
#: a tuple per class) and their cards in all.
_Alike = tuple[tuple[int, ...], Callable[[Sequence[int]], tuple[int, ...]], int]


class _Walk:
    """The memoised walk over one deal: per state, the successful ordered continuations."""

    def __init__(
        self,
        problem: DrawProblem,
        procedure: Procedure,
        second: bool,
        checks: Sequence[int],
        triggers: Sequence[CountTest],
        budget: int | Meter,
        *,
        first_turn: bool = False,
    ) -> None:
        self.red: Reduced = reduce_problem(problem, triggers)
        self.n = problem.pile_size
        self.hand = procedure.opening_size(second)
        # checks[i]: cards seen at which test i is made (deadline mode), or the checkpoints of
        # every test (first-turn mode: the cards seen at each turn, all tests at each).
        self.first_turn = first_turn
        self.checks = tuple(checks)
        self.last = max(self.checks, default=self.hand)  # no condition: the hand alone
        if not self.hand <= min(self.checks, default=self.hand) and not first_turn:
            raise ValueError("a deadline before the opening hand is dealt")
        if self.last > self.n:
            raise ValueError(f"cannot see {self.last} cards of a pile of {self.n}")
        self.lookahead = procedure.lookahead and self.last > self.hand
        self.per_turn = max(1, procedure.draws_per_turn)
        looks = -(-(self.last - self.hand) // self.per_turn) if self.lookahead else 0
        self.reads = self.last + looks
        if self.reads > self.n:
            raise Intractable(
                OutOfReach(Reach.LOOKAHEAD_WRAPS, seen=self.last, looks=looks, pile=self.n)
            )
        tests = self.red.cond.tests
        if first_turn:
            self.at: dict[int, tuple[int, ...]] = {c: tuple(range(len(tests))) for c in checks}
            self.turn_of = {c: i for i, c in enumerate(sorted(set(checks)))}
            self.done_by = [self.last] * len(self.red.cond.selectors)
        else:
            at: dict[int, list[int]] = {}
            for i, c in enumerate(checks):
                at.setdefault(c, []).append(i)
            self.at = {c: tuple(v) for c, v in at.items()}
            self.turn_of = {}
            # Per count position: the cards seen after which no test reads it any more.
            done_by = [0] * len(self.red.cond.selectors)
            for (p, _), c in zip(tests, checks, strict=True):
                done_by[p] = max(done_by[p], c)
            self.done_by = done_by
        self.meter = _meter(budget)
        # Per test: its count's position, the least count that passes and the most (a count
        # past it stays failed; no most: passing once is passing for good).
        self._bounds = tuple((p, t.op.least(t.threshold), t.op.most(t.threshold)) for p, t in tests)
        self._due = (
            ()
            if first_turn
            else tuple(
                (p, least, most, due)
                for (p, least, most), due in zip(self._bounds, self.checks, strict=True)
            )
        )
        self.memo: dict[tuple[object, ...], object] = {}
        #: A first-turn walk's continuations that never hold (one object for every state).
        self._none = (0,) * len(self.turn_of)
        # Per cards held: which counts a test still reads after it (the alike classes'
        # groups depend on the held cards only through it), as a small number.
        phases: dict[tuple[bool, ...], int] = {}
        self._phase = tuple(
            phases.setdefault(tuple(d > held for d in self.done_by), len(phases))
            for held in range(self.reads + 1)
        )
        # Per cards held: the tests made there, and those still to come (with the cards
        # left before each), for :meth:`_status`.
        self._status_of: dict[
            int,
            tuple[tuple[tuple[int, CountTest], ...], tuple[tuple[int, int, int | None, int], ...]],
        ] = {}
        # Per (capped counts, cards held): the groups of classes that behave alike; per (a
        # group, cards of its left): how many of each are gone when packed.
        self._groups: dict[tuple[Vec, int], tuple[_Alike, ...]] = {}  # (vec, phase)
        self._by_mask: dict[tuple[bool, ...], tuple[_Alike, ...]] = {}
        self._masked: dict[tuple[Vec, int], Vec] = {}
        # Below this many cards held, every count is still read by a test to come.
        self.first_done = min(self.done_by, default=0) + 1
        self._packed: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        #: Decisions of a deadline walk (for a first-turn walk following them): keep a looked
        #: card, per (removed, vec, held, class).
        self.policy: _Walk | None = None

    def spend(self, units: int) -> None:
        """Count ``units`` of work against the answer's budget."""
        self.meter.spend(units)

    def scale(self, gone: int) -> int:
        """Ordered continuations from a state with ``gone`` cards off the pile."""
        return math.perm(self.n - gone, self.reads - gone)

    def _mask(self, vec: Vec, held: int) -> Vec:
        """``vec`` with the counts no test will read again set to 0 (their states merge)."""
        if held >= self.first_done:
            key = (vec, held)
            got = self._masked.get(key)
            if got is None:
                got = self._masked[key] = tuple(
                    0 if d < held else x for x, d in zip(vec, self.done_by, strict=True)
                )
            return got
        return vec

    def _canonical(self, removed: tuple[int, ...], vec: Vec, held: int) -> tuple[int, ...]:
        """``removed`` with the cards left of classes that behave alike from here packed
        into the first of them: classes whose counts still read (below their cap, read by a
        test after this many cards held) are the same stay alike for the rest of the deal (a
        count only ever leaves that set), so only how many cards the group has left matters."""
        gkey = (vec, self._phase[held])
        groups = self._groups.get(gkey)
        if groups is None:
            groups = self._groups[gkey] = self._alike(vec, held)
        if not groups:
            return removed
        out: list[int] | None = None
        packed_of = self._packed
        for group, gone_of, cards in groups:
            gone = gone_of(removed)  # the group's cards gone, class by class
            left = cards - sum(gone)
            packed = packed_of.get((group, left))
            if packed is None:
                packed = packed_of[(group, left)] = self._pack(group, left)
            if gone != packed:
                if out is None:
                    out = list(removed)
                for c, k in zip(group, packed, strict=True):
                    out[c] = k
        return removed if out is None else tuple(out)

    def _pack(self, group: tuple[int, ...], left: int) -> tuple[int, ...]:
        """How many of each class of ``group`` are gone with ``left`` of its cards left,
        those left packed into its first classes."""
        sizes = self.red.sizes
        pack = []
        for c in group:
            keep = min(sizes[c], left)
            pack.append(sizes[c] - keep)
            left -= keep
        return tuple(pack)

    def _alike(self, vec: Vec, held: int) -> tuple[_Alike, ...]:
        """The groups (of two or more) of classes whose cards change the same counts that are
        still read after ``held`` cards with counts ``vec``: each with a getter of its
        classes' cards gone and its cards in all."""
        cond = self.red.cond
        done_by = self.done_by
        mask = tuple(
            x < cap and d > held for x, cap, d in zip(vec, cond.caps, done_by, strict=True)
        )
        got = self._by_mask.get(mask)
        if got is None:
            by_live: dict[tuple[int, ...], list[int]] = {}
            for c, positions in enumerate(cond.class_positions):
                by_live.setdefault(tuple(p for p in positions if mask[p]), []).append(c)
            sizes = self.red.sizes
            got = self._by_mask[mask] = tuple(
                (tuple(g), operator.itemgetter(*g), sum(sizes[c] for c in g))
                for g in by_live.values()
                if len(g) > 1
            )
        return got

    def _dead(self, vec: Vec, more: int) -> bool:
        """Whether some test can no longer pass, with ``more`` cards to come."""
        for p, least, most in self._bounds:
            c = vec[p]
            if (most is not None and c > most) or c + more < least:
                return True
        return False

    def _look(self, held: int, looked: bool) -> bool:
        return (
            self.lookahead
            and not looked
            and held >= self.hand
            and (held - self.hand) % self.per_turn == 0
            and held < self.last
        )

    # -- deadline mode: one number ------------------------------------------------------------

    def value(self, removed: tuple[int, ...], vec: Vec, held: int, looked: bool) -> int:
        """Successful ordered continuations (P(success) * :meth:`scale`)."""
        meter = self.meter
        meter.work += 1
        if meter.work > meter.budget:
            meter.spend(0)
        memo = self.memo
        # The state as reached is looked up first: only a new one is put in its merged form.
        raw = (removed, vec, held, looked)
        got = memo.get(raw)
        if got is not None:
            return got  # type: ignore[return-value]
        vec = self._mask(vec, held)
        removed = self._canonical(removed, vec, held)
        key = (removed, vec, held, looked)
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._value(removed, vec, held, looked, sum(removed))
        memo[raw] = got
        return got  # type: ignore[return-value]

    def _status(self, vec: Vec, held: int) -> bool | None:
        """Failure (False) or success (True) already certain, else None."""
        got = self._status_of.get(held)
        if got is None:
            tests = self.red.cond.tests
            got = self._status_of[held] = (
                tuple(tests[i] for i in self.at.get(held, ())),
                tuple(
                    (p, least, most, due - held) for p, least, most, due in self._due if due > held
                ),
            )
        now, later = got
        for p, t in now:
            if not t.holds(vec[p]):
                return False
        certain = True
        for p, least, most, more in later:
            c = vec[p]
            if (most is not None and c > most) or c + more < least:
                return False
            if most is not None or c < least:
                certain = False
        return True if certain or held >= self.last else None

    def _value(self, removed: tuple[int, ...], vec: Vec, held: int, looked: bool, gone: int) -> int:
        status = self._status(vec, held)
        if status is not None:
            return self.scale(gone) if status else 0
        look = self._look(held, looked)
        sizes = self.red.sizes
        cond = self.red.cond
        result = 0
        for c, size in enumerate(sizes):
            left = size - removed[c]
            if left <= 0:
                continue
            after = (*removed[:c], removed[c] + 1, *removed[c + 1 :])
            sub = self.value(after, cond.bump(vec, c, 1), held + 1, False)
            if look:
                sub = max(sub, self.value(after, vec, held, True))
            result += left * sub
        return result

    def keep_top(self, removed: tuple[int, ...], vec: Vec, held: int, top: int) -> bool:
        """Whether the best play keeps a looked top card of class ``top`` (ties keep);
        ``removed`` counts the top card as gone."""
        keep = self.value(removed, self.red.cond.bump(vec, top, 1), held + 1, False)
        under = self.value(removed, vec, held, True)
        return keep >= under

    # -- first-turn mode: one number per turn -------------------------------------------------

    def turns(self, removed: tuple[int, ...], vec: Vec, held: int, looked: bool) -> tuple[int, ...]:
        """Ordered continuations per turn at which every test first holds (index into the
        sorted checkpoints); those that never do are left out."""
        meter = self.meter
        meter.work += 1
        if meter.work > meter.budget:
            meter.spend(0)
        memo = self.memo
        raw = (removed, vec, held, looked)
        got = memo.get(raw)
        if got is not None:
            return got  # type: ignore[return-value]
        removed = self._canonical(removed, vec, held)
        key = (removed, vec, held, looked)
        got = memo.get(key)
        if got is not None:
            memo[raw] = got
            return got  # type: ignore[return-value]
        # A new state sums a count per turn for each card it can draw: charged a second
        # step before that work (a step of this walk costs about twice the deadline walk's).
        meter.spend(1)
        none = self._none
        out = list(none)
        if held in self.at and all(
            least <= vec[p] and (most is None or vec[p] <= most) for p, least, most in self._bounds
        ):
            out[self.turn_of[held]] = self.scale(sum(removed))
        elif held < self.last and not self._dead(vec, self.last - held):
            look = self._look(held, looked)
            cond = self.red.cond
            for c, size in enumerate(self.red.sizes):
                left = size - removed[c]
                if left <= 0:
                    continue
                after = (*removed[:c], removed[c] + 1, *removed[c + 1 :])
                keep = True
                if look:
                    assert self.policy is not None
                    keep = self.policy.keep_top(after, vec, held, c)
                if keep:
                    sub = self.turns(after, cond.bump(vec, c, 1), held + 1, False)
                else:
                    sub = self.turns(after, vec, held, True)
                if sub is not none:
                    for i, x in enumerate(sub):
                        out[i] += left * x
        result = tuple(out) if any(out) else none  # one object: a dead end is skipped by identity
        memo[key] = memo[raw] = result
        return result


@frozen
class _Hands:
    comps: tuple[tuple[int, ...], ...]
    weights: tuple[int, ...]
    keep: tuple[int, ...]  # over the walk's scale after the hand
    allowed: tuple[bool, ...]


def _hands(walk: _Walk, allowed_by_rule: bool) -> _Hands:
    red, hand = walk.red, walk.hand
    comps = tuple(compositions(red.sizes, hand))
    keep = tuple(walk.value(comp, red.cond.of(comp), hand, False) for comp in comps)
    allowed = tuple(allowed_by_rule and red.trig.any_holds(red.trig.of(comp)) for comp in comps)
    return _Hands(comps, tuple(ways(red.sizes, c) for c in comps), keep, allowed)


def _pairs(sizes: Sequence[int], kept: int, drawn: int) -> int:
    """How many (kept, drawn) pairs of compositions of ``kept`` and ``drawn`` cards fit
    together in ``sizes`` (a hand and the part of it kept, or a kept part and a redraw)."""
    poly = {(0, 0): 1}
    for size in sizes:
        new: dict[tuple[int, int], int] = {}
        for (a, b), w in poly.items():
            for k in range(min(size, kept - a) + 1):
                for d in range(min(size - k, drawn - b) + 1):
                    key = (a + k, b + d)
                    new[key] = new.get(key, 0) + w
        poly = new
    return poly.get((kept, drawn), 0)


def _hand_work(sizes: Sequence[int], hand: int, rule: object, conditions: bool) -> tuple[int, int]:
    """The steps of listing the opening hands (and, under a return rule, the parts of each
    that may be kept, and each hand with each part: weighed once, compared once, about a µs
    each), known from the classes' sizes alone; and the hands (each hand's walk takes a step
    at least)."""
    n_hands = count_compositions(sizes, hand)[hand]
    listing = n_hands
    if isinstance(rule, ReturnRule) and 0 < rule.count <= hand and conditions:
        listing += n_hands + _pairs(sizes, hand - rule.count, rule.count)
    return listing, n_hands


def _listing_text(listing: int, n_hands: int) -> str:
    parts = " and their kept parts" if listing > n_hands else ""
    return f"its {n_hands:,} opening hands listed{parts}, each hand walked once at least"


def least_work(request: Deadlines, checkpoints: Sequence[int] | None = None) -> int:
    """Steps :func:`deadline_table` (or, with ``checkpoints``, :func:`first_turns`) takes at
    the least, from the problem's shape alone: the hands listed and a step of each hand's
    walk (once more for the first turns' walk). A budget below it refuses at once."""
    problem, procedure = request.problem, request.procedure
    rule = procedure.mulligan if request.use_mulligan else None
    hand = procedure.opening_size(request.second)
    if checkpoints is not None:
        looks = procedure.lookahead and max(checkpoints) > hand
        choice = isinstance(rule, ReturnRule) or (isinstance(rule, RedrawRule) and rule.triggers)
        if not looks and not choice:
            return 0
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    sizes = reduce_problem(problem, triggers).sizes
    listing, n_hands = _hand_work(sizes, hand, rule, bool(problem.conditions))
    return listing + n_hands * (1 if checkpoints is None else 2)


def deadline_table(request: Deadlines, *, budget: int | Meter = DEADLINE_BUDGET) -> HandTable:
    """Every opening hand (by class), its chance if kept, the mulligan's alternative and the
    choice the best play makes, and the chance of the whole question with and without the
    mulligan. :class:`Intractable` past ``budget``; ValueError for deadlines outside the pile.
    """
    return _table(request, budget)[0]


def _table(request: Deadlines, budget: int | Meter) -> tuple[HandTable, _Walk]:
    problem, procedure = request.problem, request.procedure
    if len(request.due) != len(problem.conditions):
        raise ValueError("one deadline per condition")
    rule = procedure.mulligan if request.use_mulligan else None
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    walk = _Walk(problem, procedure, request.second, request.due, triggers, budget)
    red = walk.red
    hand = walk.hand
    listing, n_hands = _hand_work(red.sizes, hand, rule, bool(problem.conditions))
    # Charged before any hand is listed; every hand's walk takes a step at least.
    walk.meter.need(listing + n_hands, _listing_text(listing, n_hands))
    walk.spend(listing)
    hands_den = math.comb(walk.n, hand)
    keep_den = walk.scale(hand)
    hands = _hands(walk, isinstance(rule, RedrawRule) and bool(rule.triggers))
    plain_num = sum(w * k for w, k in zip(hands.weights, hands.keep, strict=True))
    plain = Fraction(plain_num, hands_den * keep_den)
    labels = class_labels(problem, red)
    rows: list[HandRow] = []
    if isinstance(rule, RedrawRule) and rule.triggers:
        value, threshold = _redraw_values(hands, rule, request.redraw, keep_den, hands_den)
        for comp, w, k, a in zip(
            hands.comps, hands.weights, hands.keep, hands.allowed, strict=True
        ):
            keep = Fraction(k, keep_den)
            act = a and threshold is not None and (request.redraw == "always" or keep < threshold)
            rows.append(
                HandRow(comp, w, keep, a, threshold if a else None, Choice.REDRAW if act else None)
            )
        return HandTable(
            RuleKind.REDRAW, labels, red.sizes, hands_den, tuple(rows), value, plain
        ), walk
    if isinstance(rule, ReturnRule) and 0 < rule.count <= hand and problem.conditions:
        count = rule.count
        kept_size = hand - count
        redraw_den = math.comb(walk.n - kept_size, count)
        # A kept part's value: every hand that holds it, weighed by the ways to redraw the
        # rest of that hand from the pile the part leaves (comb(size - kept, hand - kept) per
        # class the hand holds), summed hand by hand.
        redraw_ways = [
            [
                [math.comb(size - k, h - k) if h >= k else 0 for h in range(min(size, hand) + 1)]
                for k in range(kept_size + 1)
            ]
            for size in red.sizes
        ]
        parts_of: list[list[tuple[int, ...]]] = []
        kept_value: dict[tuple[int, ...], int] = {}
        for comp, k in zip(hands.comps, hands.keep, strict=True):
            parts = list(compositions(comp, kept_size))
            parts_of.append(parts)
            held = [(c, h) for c, h in enumerate(comp) if h]
            for kept in parts:
                w = k
                for c, h in held:
                    w *= redraw_ways[c][kept[c]][h]
                kept_value[kept] = kept_value.get(kept, 0) + w
        num = 0
        for comp, w, k, parts in zip(hands.comps, hands.weights, hands.keep, parts_of, strict=True):
            best = k * redraw_den
            pick: tuple[int, ...] | None = None
            alternative = -1
            for kept in parts:
                v = kept_value[kept]
                if v > alternative:
                    alternative, best_kept = v, kept
                if v > best:
                    best, pick = v, kept
            num += w * best
            returned = tuple(h - x for h, x in zip(comp, best_kept, strict=True))
            rows.append(
                HandRow(
                    comp,
                    w,
                    Fraction(k, keep_den),
                    True,
                    Fraction(alternative, redraw_den * keep_den),
                    Choice.RETURN if pick is not None else None,
                    returned,
                )
            )
        value = Fraction(num, hands_den * redraw_den * keep_den)
        return HandTable(
            RuleKind.RETURN, labels, red.sizes, hands_den, tuple(rows), value, plain
        ), walk
    for comp, w, k in zip(hands.comps, hands.weights, hands.keep, strict=True):
        rows.append(HandRow(comp, w, Fraction(k, keep_den), False, None, None))
    return HandTable(RuleKind.NONE, labels, red.sizes, hands_den, tuple(rows), plain, plain), walk


def _redraw_values(
    hands: _Hands, rule: RedrawRule, policy: str, keep_den: int, hands_den: int
) -> tuple[Fraction, Fraction | None]:
    """The chance under the redraw rule, and the value of the first redraw (None: none)."""
    scale = keep_den * hands_den
    rest = sum(
        w * k for w, k, a in zip(hands.weights, hands.keep, hands.allowed, strict=True) if not a
    )
    pairs = sorted(
        (k, w) for w, k, a in zip(hands.weights, hands.keep, hands.allowed, strict=True) if a
    )
    p_allowed = Fraction(sum(w for _, w in pairs), hands_den)
    plain = Fraction(rest + sum(k * w for k, w in pairs), scale)
    if policy == "always":
        if rule.max_redraws is None:
            if p_allowed == 1:
                return plain, plain
            v = Fraction(rest, scale) / (1 - p_allowed)
            return v, v
        values = [plain]
        for _ in range(rule.max_redraws):
            values.append(Fraction(rest, scale) + p_allowed * values[-1])
        return values[-1], (values[-2] if rule.max_redraws else None)
    if rule.max_redraws is None:
        v = unlimited_value(rest, pairs, keep_den, hands_den)
        return v, v
    values = [plain]
    for _ in range(rule.max_redraws):
        previous = values[-1]
        total = Fraction(rest, scale)
        for k, w in pairs:
            total += Fraction(w, hands_den) * max(Fraction(k, keep_den), previous)
        values.append(total)
    return values[-1], (values[-2] if rule.max_redraws else None)


def first_turns(
    request: Deadlines, checkpoints: Sequence[int], *, budget: int | Meter = DEADLINE_BUDGET
) -> tuple[tuple[Fraction, ...], HandTable | None]:
    """P(every condition first holds at checkpoint ``k``) for each of ``checkpoints`` (cards
    seen at the start of each turn, rising), under the play that is best for the chance that
    the conditions hold at the last checkpoint (``request.due`` must say so: every condition
    due there); with that play's table (None when the player has no choice: a plain deal).
    A deal in which they never hold at a checkpoint counts for none (the rest, 1 - the sum,
    is "later or never").
    """
    budget = _meter(budget)  # the walks below share it
    problem, procedure = request.problem, request.procedure
    rule = procedure.mulligan if request.use_mulligan else None
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    hand = procedure.opening_size(request.second)
    looks = procedure.lookahead and max(checkpoints) > hand
    choice = isinstance(rule, ReturnRule) or (isinstance(rule, RedrawRule) and rule.triggers)
    if not looks and not choice:
        return _plain_first_turns(problem, checkpoints, budget), None
    table, policy = _table(request, budget)
    walk = _Walk(problem, procedure, request.second, checkpoints, triggers, budget, first_turn=True)
    walk.policy = policy
    red = walk.red
    hand = walk.hand
    keep_den = walk.scale(hand)
    n_turns = len(walk.turn_of)

    def after_hand(comp: tuple[int, ...]) -> tuple[int, ...]:
        return walk.turns(comp, red.cond.of(comp), hand, False)

    # Sums are kept as integers over one common denominator, divided once at the end.
    if table.kind is RuleKind.RETURN:
        assert isinstance(rule, ReturnRule)
        kept_size = hand - rule.count
        redraw_den = math.comb(walk.n - kept_size, rule.count)
        total = [0] * n_turns  # over hands_den * redraw_den * keep_den
        by_kept: dict[tuple[int, ...], list[int]] = {}
        for row in table.rows:
            if row.choice is Choice.RETURN:
                assert row.returned is not None
                kept = tuple(h - r for h, r in zip(row.hand, row.returned, strict=True))
                got = by_kept.get(kept)
                if got is None:
                    pile = tuple(s - k for s, k in zip(red.sizes, kept, strict=True))
                    got = [0] * n_turns
                    for drawn in compositions(pile, rule.count):
                        new = tuple(k + d for k, d in zip(kept, drawn, strict=True))
                        w = ways(pile, drawn)
                        for i, x in enumerate(after_hand(new)):
                            got[i] += w * x
                    by_kept[kept] = got
                for i, x in enumerate(got):
                    total[i] += row.ways * x
            else:
                for i, x in enumerate(after_hand(row.hand)):
                    total[i] += row.ways * redraw_den * x
        den = table.hands_den * redraw_den * keep_den
        return tuple(Fraction(x, den) for x in total), table
    if table.kind is RuleKind.REDRAW and any(row.choice is Choice.REDRAW for row in table.rows):
        assert isinstance(rule, RedrawRule)
        # Every deal is a fresh shuffle: the decisions are worked out one by one (with a
        # limit of k redraws, a later decision compares with a smaller value).
        return _redraw_turns(table, rule, request, after_hand, keep_den, n_turns), table
    kept_dist = [0] * n_turns  # one kept deal's distribution, over hands_den * keep_den
    for row in table.rows:
        for i, x in enumerate(after_hand(row.hand)):
            kept_dist[i] += row.ways * x
    return tuple(Fraction(x, table.hands_den * keep_den) for x in kept_dist), table


def _plain_first_turns(
    problem: DrawProblem, checkpoints: Sequence[int], budget: Meter
) -> tuple[Fraction, ...]:
    """The first-turn distribution of a plain deal (no choice anywhere). When every condition
    only asks for at least some cards, holding by a turn is holding at it: one plain
    programme gives every turn's chance at once; otherwise the walk follows the deal."""
    n = problem.pile_size
    if all(c.op.most(c.threshold) is None for c in problem.conditions):
        red = reduce_problem(problem)
        most = max(checkpoints)
        programme = PlainProgramme(red, most)
        work = programme.work(budget.left * PLAIN_STEPS)
        if work is None:
            left = budget.left
            text = (
                f"the draw's programme over {most} cards seen, its transitions counted before "
                f"starting, takes more than the {left:,} steps left of the exact budget of "
                f"{budget.whole:,} (over {left * PLAIN_STEPS:,} transitions, {PLAIN_STEPS} a step)"
            )
            raise Intractable(
                OutOfReach(Reach.WORK, Stage.DEADLINES, budget.budget + 1, budget.budget, text=text)
            )
        budget.spend(work // PLAIN_STEPS)
        table = programme.ways()
        out = []
        before = Fraction(0)
        for seen in checkpoints:
            now = Fraction(table[seen], math.comb(n, seen))
            out.append(now - before)
            before = now
        return tuple(out)
    plain = Procedure(0)
    walk = _Walk(problem, plain, False, checkpoints, (), budget, first_turn=True)
    zero = (0,) * len(walk.red.sizes)
    counts = walk.turns(zero, walk.red.cond.zero, 0, False)
    return tuple(Fraction(x, walk.scale(0)) for x in counts)


def _redraw_turns(
    table: HandTable,
    rule: RedrawRule,
    request: Deadlines,
    after_hand: Callable[[tuple[int, ...]], tuple[int, ...]],
    keep_den: int,
    n_turns: int,
) -> tuple[Fraction, ...]:
    """The first-turn distribution under the redraw rule, decision by decision
    (``after_hand``: a kept hand's ordered continuations per first turn)."""
    rows = table.rows
    hands_den = table.hands_den
    per_hand = {row.hand: after_hand(row.hand) for row in rows}  # over keep_den
    # Thresholds of the successive decisions: V_{j-1} with j redraws left.
    keeps = [(row.keep, Fraction(row.ways, table.hands_den), row) for row in rows]
    if rule.max_redraws is None:
        thresholds: list[Fraction | None] = [table.alternative]
        stationary = True
    elif request.redraw == "always":
        thresholds = [Fraction(1)] * rule.max_redraws  # any value: every allowed hand goes
        stationary = False
    else:
        values = [sum((p * k for k, p, _ in keeps), Fraction(0))]
        for _ in range(rule.max_redraws):
            previous = values[-1]
            values.append(
                sum(
                    (p * (max(k, previous) if r.allowed else k) for k, p, r in keeps),
                    Fraction(0),
                )
            )
        # With j redraws left the decision compares with V_{j-1}: first decision j = k.
        thresholds = [values[j - 1] for j in range(rule.max_redraws, 0, -1)]
        stationary = False

    def redraws(row: HandRow, threshold: Fraction | None) -> bool:
        if not row.allowed or threshold is None:
            return False
        return request.redraw == "always" or row.keep < threshold

    def split(threshold: Fraction | None) -> tuple[int, list[int]]:
        """The ways of the hands redrawn, and the kept hands' distribution (over
        hands_den * keep_den)."""
        again = 0
        kept = [0] * n_turns
        for row in rows:
            if redraws(row, threshold):
                again += row.ways
            else:
                for i, x in enumerate(per_hand[row.hand]):
                    kept[i] += row.ways * x
        return again, kept

    if stationary:
        again, kept = split(thresholds[0])
        if again == hands_den:  # every hand redrawn: waiting for the best hand (optimal_redraw)
            best = max(rows, key=lambda r: r.keep)
            return tuple(Fraction(x, keep_den) for x in per_hand[best.hand])
        return tuple(Fraction(x, keep_den * (hands_den - again)) for x in kept)
    # Finite: the last deal is kept whatever it is. The distribution after j deals is
    # ``num`` over keep_den * hands_den**j; a redrawn hand takes the previous one.
    num = split(None)[1]
    scale = hands_den
    for threshold in reversed(thresholds):
        again, kept = split(threshold)
        num = [again * a + scale * b for a, b in zip(num, kept, strict=True)]
        scale *= hands_den
    return tuple(Fraction(x, keep_den * scale) for x in num)
