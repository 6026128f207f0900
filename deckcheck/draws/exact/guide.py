"""A mulligan guide: the exact optimal decision for every opening hand, as a table.

The hands are compositions over the classes of the reduced problem (cards matching the same
condition and trigger selectors, see :mod:`~deckcheck.draws.exact.reduced`): exactly what the
engines decide on. The tables come from the engines that ``odds`` runs, never from a second
optimiser: :func:`redraw_guide` reads :func:`~deckcheck.draws.exact.optimal_redraw.
optimal_redraw_table` and :func:`return_guide` the return mulligan's own table
(:meth:`~deckcheck.draws.exact.sequential.SequentialEngine.return_table`), so following the
guide gives the very chance ``odds`` reports. :func:`rule_of_thumb` sums a table up in one
rule when one fits every hand it describes (derived from the table, checked against it).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

from deckcheck.core.values import frozen
from deckcheck.draws.exact.reduced import Reduced
from deckcheck.draws.model import DrawProblem, Request, ReturnRule

if TYPE_CHECKING:
    from deckcheck.draws.exact.sequential import SequentialEngine

#: Charges units of exact work before they are done (raising when over the limit).
Charge = Callable[[int], None]

#: Cells (one class's count in one hand, read once) of the rule of thumb's search one unit of
#: exact work stands for: the search reads its columns at about 10 ns a cell (a unit is about
#: 2 µs), counted here at twice that.
RULE_CELLS_PER_UNIT = 100
#: Cells charged per returning hand and class when the order of the returns is found (a
#: Python step each, not a read of a column).
ORDER_CELLS = 10

#: How a hand treats a class it holds: returns it whole, in part, or keeps it.
_NONE, _WHOLE, _PART, _KEPT = range(4)


class RuleKind(StrEnum):
    """What the game's mulligan lets the player choose."""

    REDRAW = "redraw"  # keep the hand or draw a new one
    RETURN = "return"  # keep the hand or return some cards and draw as many
    NONE = "none"  # no choice: every hand is kept


class Choice(StrEnum):
    """The decision that is not "keep"."""

    REDRAW = "redraw"
    RETURN = "return"


@frozen
class HandRow:
    """One opening hand (``hand[c]`` cards of class ``c``), dealt in ``ways`` ways.

    ``keep``: the chance of the question if it is kept; ``allowed``: the rule offers a choice
    for it; ``alternative``: the chance if redrawn, or if the best cards are returned (None
    when not allowed); ``choice``: what the best play does (None: keep); ``returned``: the
    cards (per class) whose return is best, whether or not returning beats keeping.
    """

    hand: tuple[int, ...]
    ways: int
    keep: Fraction
    allowed: bool
    alternative: Fraction | None
    choice: Choice | None
    returned: tuple[int, ...] | None = None

    @property
    def best(self) -> Fraction:
        """The chance with the best play."""
        if self.choice is not None and self.alternative is not None:
            return self.alternative
        return self.keep


@frozen
class HandTable:
    """Every opening hand with its best play, and the chance with and without the mulligan.

    ``labels[c]``: the selectors class ``c``'s cards match (empty: none of them); ``sizes``:
    the cards of each class in the pile; a hand is dealt with probability ``ways /
    hands_den``.
    """

    kind: RuleKind
    labels: tuple[tuple[str, ...], ...]
    sizes: tuple[int, ...]
    hands_den: int
    rows: tuple[HandRow, ...]
    value: Fraction
    plain: Fraction

    @property
    def alternative(self) -> Fraction | None:
        """The value of the first redraw (the same for every hand), None when none is allowed."""
        for row in self.rows:
            if row.allowed and row.alternative is not None:
                return row.alternative
        return None

    def frequency(self, row: HandRow) -> Fraction:
        """How often ``row``'s hand is dealt."""
        return Fraction(row.ways, self.hands_den)

    def followed(self) -> Fraction:
        """The chance when every hand is played as the table says, for one deal and one
        decision (equal to :attr:`value` when the rule allows one decision)."""
        return sum((self.frequency(r) * r.best for r in self.rows), Fraction(0))


def class_labels(problem: DrawProblem, red: Reduced) -> tuple[tuple[str, ...], ...]:
    """Per class of ``red``: the selector texts its cards match, each once, in order."""
    labels = problem.selector_labels
    relevant = sorted({*red.cond.selectors, *red.trig.selectors})
    out = []
    for row in red.rows:
        names: list[str] = []
        for s in relevant:
            text = labels[s] if s < len(labels) else f"selector {s}"
            if row[s] and text not in names:
                names.append(text)
        out.append(tuple(names))
    return tuple(out)


def redraw_guide(request: Request) -> HandTable:
    """The optimal redraw's table, from the solution ``odds`` plays."""
    from deckcheck.draws.exact.optimal_redraw import optimal_redraw_table

    got = optimal_redraw_table(request)
    rows = []
    for i, comp in enumerate(got.hands):
        allowed = got.allowed[i] and got.threshold is not None
        rows.append(
            HandRow(
                comp,
                got.weights[i],
                got.keep[i],
                allowed,
                got.threshold if allowed else None,
                Choice.REDRAW if got.redraws(i) else None,
            )
        )
    labels = class_labels(request.problem, got.reduced)
    kind = RuleKind.REDRAW if any(r.allowed for r in rows) else RuleKind.NONE
    return HandTable(
        kind, labels, got.reduced.sizes, got.hands_den, tuple(rows), got.best, got.plain
    )


class _KeptParts(dict[tuple[int, ...], int]):
    """Kept parts' values from the engine's table (per class counts), by the kept cards' class
    indices in increasing order, each read once; ``counts``: each one's cards per class."""

    def __init__(self, table: Mapping[tuple[int, ...], int], classes: int) -> None:
        super().__init__()
        self.table = table
        self.classes = classes
        self.counts: dict[tuple[int, ...], tuple[int, ...]] = {}

    def __missing__(self, cards: tuple[int, ...]) -> int:
        counts = [0] * self.classes
        for c in cards:
            counts[c] += 1
        kept = self.counts[cards] = tuple(counts)
        value = self[cards] = self.table[kept]
        return value


def return_guide(request: Request, engine: SequentialEngine | None = None) -> HandTable:
    """The return mulligan's table, from the engine ``odds`` runs for it (with the look-ahead
    where the game has one). ``engine``: that engine, already charged against a work limit
    (:class:`~deckcheck.draws.answer.Intractable` past it); None: one bounded by the
    engine's own step budget."""
    import math

    from deckcheck.draws.exact.compositions import compositions
    from deckcheck.draws.exact.sequential import STATE_BUDGET, SequentialEngine

    problem, procedure, query = request.problem, request.procedure, request.query
    rule = procedure.mulligan
    if not isinstance(rule, ReturnRule):
        raise ValueError("return_guide needs a return-count mulligan rule")
    if engine is None:
        engine = SequentialEngine(problem, procedure, query, (), STATE_BUDGET, request.lookahead)
    else:
        engine.charge_walk()
    red = engine.red
    hand = engine.hand
    _, value = engine.return_table(rule.count)
    kept_size = hand - rule.count
    scale = engine.hand_scale()
    redraw_den = math.comb(engine.n - kept_size, rule.count)
    return_den = redraw_den * scale
    rows = []
    plain = 0
    hands_den = math.comb(engine.n, hand)
    n_classes = len(red.sizes)
    # Each kept part's value, read once from the engine's table (a hand has several), by its
    # cards as class indices in increasing order.
    values = _KeptParts(engine.kept_values, n_classes)
    # Hands share a few values (kept parts, and hands settled by their counts): one Fraction
    # each.
    kept_chance: dict[int, Fraction] = {}
    return_chance: dict[int, Fraction] = {}
    sizes = red.sizes
    for comp in compositions(sizes, hand):
        keep_v = engine.hand_value(comp)
        # The kept parts of the hand, in the order compositions() lists them (increasing
        # class indices, as tuples of them in lexicographic order): max() takes the first
        # of the best, as the engine does.
        cards = tuple(itertools.chain.from_iterable(map(itertools.repeat, range(n_classes), comp)))
        best = max(itertools.combinations(cards, kept_size), key=values.__getitem__)
        best_v = values[best]
        # The engine's choice, from the same values as it finds it: return the first best
        # kept part when it beats keeping (ties keep).
        picked = best_v > keep_v * redraw_den
        returned = tuple(map(operator.sub, comp, values.counts[best]))
        w = math.prod(map(math.comb, sizes, comp))  # ways(sizes, comp)
        plain += w * keep_v
        keep = kept_chance.get(keep_v)
        if keep is None:
            keep = kept_chance[keep_v] = Fraction(keep_v, scale)
        alternative = return_chance.get(best_v)
        if alternative is None:
            alternative = return_chance[best_v] = Fraction(best_v, return_den)
        rows.append(
            HandRow(
                comp,
                w,
                keep,
                True,
                alternative,
                Choice.RETURN if picked else None,
                returned,
            )
        )
    labels = class_labels(problem, red)
    return HandTable(
        RuleKind.RETURN,
        labels,
        red.sizes,
        hands_den,
        tuple(rows),
        value,
        Fraction(plain, hands_den * scale),
    )


# -- rules of thumb --------------------------------------------------------------------------


def class_name(labels: Sequence[str]) -> str:
    """A class's cards in words: the selectors they match, or "other"."""
    return " & ".join(labels) if labels else "other"


def _rule_text(c: int, op: str, k: int, labels: Sequence[Sequence[str]]) -> str:
    name = class_name(labels[c])
    if op == "<":
        return f"fewer than {k} {name}" if k > 1 else f"no {name}"
    return f"more than {k} {name}"


def rule_of_thumb(table: HandTable, charge: Charge | None = None) -> str | None:
    """One short rule that gives the table's decision for every hand that has a choice, when
    one does (a single threshold on one class's count, either of two thresholds, or a
    threshold with one exception); for a return mulligan, also which cards go first. None
    when no short rule fits. ``charge``: told the units of exact work of each step of the
    search before it runs (:data:`RULE_CELLS_PER_UNIT`), raising when that is over the limit
    of the work that built the table."""
    rows = [r for r in table.rows if r.allowed]
    if table.kind is RuleKind.NONE or not rows:
        return None
    acts = [r.choice is not None for r in rows]
    count = max((sum(r.returned or ()) for r in rows), default=0)
    verb = "redraw" if table.kind is RuleKind.REDRAW else f"return {count} cards"
    hands = [r.hand for r in rows]
    allowed_all = len(rows) == len(table.rows)
    scope = "" if allowed_all else " (when the rule allows it)"
    if not any(acts):
        return "keep every hand: the mulligan never raises the chance"
    if all(acts):
        head = f"{verb} every hand{scope}"
    else:
        rule = _decision_rule(hands, acts, table.labels, charge or _free)
        if rule is None:
            return None
        head = f"{verb} with {rule}{scope}"
    if table.kind is RuleKind.RETURN:
        returning = [r for r in rows if r.choice is not None]
        order = _return_order(returning, len(table.sizes), charge or _free)
        if order is None:
            return head + "; which cards: see the table"
        names = [class_name(table.labels[c]) for c in order]
        if not names:
            return head
        which = names[0] + (" first, then " + ", then ".join(names[1:]) if names[1:] else "")
        return f"{head}; which: {which}"
    return head


def _free(units: int) -> None:
    """No limit to charge."""


def rule_columns(hands: int, classes: int) -> int:
    """Units of exact work of the first step of :func:`rule_of_thumb`'s search over a table
    of ``hands`` hands (those with a choice) of ``classes`` classes: reading each class's
    counts in every hand, in all, in those that act and in the others. Known before the
    table is built, so a caller may charge it then (see :func:`prepaid`)."""
    return -(-8 * hands * classes // RULE_CELLS_PER_UNIT)


def prepaid(charge: Charge, units: int) -> Charge:
    """``charge``, but the first ``units`` charged through it were paid already."""
    left = units

    def pay(asked: int) -> None:
        nonlocal left
        taken = min(left, asked)
        left -= taken
        if asked > taken:
            charge(asked - taken)

    return pay


def _cells(charge: Charge, cells: int) -> None:
    charge(-(-cells // RULE_CELLS_PER_UNIT))


def _decision_rule(
    hands: Sequence[tuple[int, ...]],
    acts: Sequence[bool],
    labels: Sequence[Sequence[str]],
    charge: Charge,
) -> str | None:
    """The first rule, in the order of the families and of their classes and counts, that acts
    exactly on the hands that act (``acts``, some but not all): read from the extreme counts
    of each class among the hands that act and those that do not, rather than by trying every
    rule on every hand. Each family's work is charged before it runs."""
    n = len(labels)
    rows = len(hands)
    # The counts per class, of every hand, of those that act and of the others (idle).
    charge(rule_columns(rows, n))
    cols = list(zip(*hands, strict=True))
    idle = [not a for a in acts]
    a_cols = [tuple(itertools.compress(col, acts)) for col in cols]
    i_cols = [tuple(itertools.compress(col, idle)) for col in cols]
    n_act = sum(acts)
    top = [max(col) for col in cols]
    a_hi = [max(col) for col in a_cols]
    a_lo = [min(col) for col in a_cols]
    i_hi = [max(col) for col in i_cols]
    i_lo = [min(col) for col in i_cols]
    # One threshold: "fewer than k A" fits when every hand that acts holds fewer A than every
    # idle one (k: one more than the most an acting hand holds), "more than k A" the other
    # way round; both cannot fit one class.
    for c in range(n):
        if a_hi[c] < i_lo[c]:
            return _rule_text(c, "<", a_hi[c] + 1, labels)
        if i_hi[c] < a_lo[c]:
            return _rule_text(c, ">", i_hi[c], labels)
    # Either of two: "fewer than k A or fewer than m B" (A before B, k then m smallest
    # first). Every idle hand holds at least k A and m B (so both classes are in every idle
    # hand); an acting hand holding k A or more holds fewer than m B: m is one more than the
    # most B such a hand holds.
    held = [c for c in range(n) if i_lo[c] >= 1]
    later = {c: sum(d > c for d in held) for c in held}
    _cells(charge, sum(i_lo[c] * n_act * (1 + later[c]) for c in held))
    for c, d in itertools.combinations(held, 2):
        for k in range(1, i_lo[c] + 1):
            enough = tuple(map(k.__le__, a_cols[c]))
            m = max(itertools.compress(a_cols[d], enough), default=0) + 1
            if m <= i_lo[d]:
                return f"{_rule_text(c, '<', k, labels)} or {_rule_text(d, '<', m, labels)}"
    # A threshold on A with one exception on B: "fewer than k A unless the hand holds at
    # least m B" (or "at most m B"; for one k, B then m smallest first, "at least" first).
    # Every acting hand holds fewer than k A and is not exempt; an idle hand with fewer than
    # k A is exempt: at least m B (m above what any acting hand holds, up to the fewest such
    # an idle hand holds) or at most m B (m below what every acting hand holds, from the
    # most such an idle hand holds).
    exempts = [d for d in range(n) if a_hi[d] < top[d] or a_lo[d] >= 1]
    steps = [range(max(1, a_hi[c] + 1), top[c] + 2) for c in range(n)]
    partial = sum(sum(k <= i_hi[c] for k in steps[c]) for c in range(n))
    _cells(charge, partial * (rows - n_act) * (1 + 3 * len(exempts)))
    for c in range(n):
        for k in steps[c]:
            # Past every idle hand's count, the idle hands with fewer than k A are all of them.
            fewer = None if i_hi[c] < k else tuple(map(k.__gt__, i_cols[c]))
            for d in exempts:
                if d == c:
                    continue
                if fewer is None:
                    lo, hi = i_lo[d], i_hi[d]
                else:
                    counts = tuple(itertools.compress(i_cols[d], fewer))
                    lo = min(counts, default=top[d] + 1)
                    hi = max(counts, default=0)
                up, down = a_hi[d] + 1, max(hi, 0)
                up_fits = up <= min(lo, top[d])
                down_fits = down <= min(a_lo[d] - 1, top[d])
                if up_fits and (not down_fits or up <= down):
                    bound = f"at least {up}"
                elif down_fits:
                    bound = f"at most {down}"
                else:
                    continue
                base = _rule_text(c, "<", k, labels)
                return f"{base} unless the hand holds {bound} {class_name(labels[d])}"
    return None


def _return_order(
    rows: Sequence[HandRow], n_classes: int, charge: Charge = _free
) -> list[int] | None:
    """The first order of classes (of their permutations, in lexicographic order) such that
    every returning hand returns its cards greedily in it, restricted to the classes some
    hand returns; None when there is none, or over six classes.

    A hand returns greedily in an order when the classes it returns whole come first, then
    the one it returns in part (at most one), then those it holds and keeps: each hand asks
    that some classes go before others, and the first order that meets every such demand is
    found by placing, each time, the first class no unplaced class must precede."""
    if n_classes > 6:
        return None
    _cells(charge, ORDER_CELLS * len(rows) * n_classes)
    before: list[set[int]] = [set() for _ in range(n_classes)]  # classes that go first
    shapes = set()
    for r in rows:
        if r.returned is None:
            return None
        shapes.add(tuple(map(_shape, r.hand, r.returned)))
    for shape in shapes:
        whole = [c for c, s in enumerate(shape) if s == _WHOLE]
        part = [c for c, s in enumerate(shape) if s == _PART]
        kept = [c for c, s in enumerate(shape) if s == _KEPT]
        if len(part) > 1:
            return None
        for c in part + kept:
            before[c].update(whole)
        for c in kept:
            before[c].update(part)
    order: list[int] = []
    left = set(range(n_classes))
    while left:
        ready = [c for c in sorted(left) if not before[c] & left]
        if not ready:
            return None
        order.append(ready[0])
        left.discard(ready[0])
    used = {c for r in rows for c, k in enumerate(r.returned or ()) if k}
    return [c for c in order if c in used]


def _shape(held: int, back: int) -> int:
    if not held:
        return _NONE
    if back == held:
        return _WHOLE
    return _PART if back else _KEPT
