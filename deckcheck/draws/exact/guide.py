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
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

from deckcheck.core.values import frozen
from deckcheck.draws.answer import Intractable, OutOfReach, Reach, Stage
from deckcheck.draws.exact.reduced import Reduced
from deckcheck.draws.model import DrawProblem, Request, ReturnRule

if TYPE_CHECKING:
    from deckcheck.draws.exact.sequential import SequentialEngine


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


def return_guide(request: Request, engine: SequentialEngine | None = None) -> HandTable:
    """The return mulligan's table, from the engine ``odds`` runs for it (with the look-ahead
    where the game has one). ``engine``: that engine, already charged against a work limit
    (:class:`~deckcheck.draws.answer.Intractable` past it); None: one bounded by the
    engine's own step budget."""
    import math

    from deckcheck.draws.exact.compositions import compositions, ways
    from deckcheck.draws.exact.sequential import STATE_BUDGET, SequentialEngine

    problem, procedure, query = request.problem, request.procedure, request.query
    rule = procedure.mulligan
    if not isinstance(rule, ReturnRule):
        raise ValueError("return_guide needs a return-count mulligan rule")
    if engine is None:
        engine = SequentialEngine(problem, procedure, query, (), STATE_BUDGET, request.lookahead)
    elif engine.walked_estimate > engine.estimated and engine.table_budget is not None:
        # The return table came from every hand at once; this walks them in Python, as the
        # return table once did: weighed against the limit as that walk was.
        limit = engine.estimated + engine.table_budget
        if engine.walked_estimate > limit:
            raise Intractable(
                OutOfReach(Reach.ESTIMATE, Stage.EXACT, engine.walked_estimate, limit)
            )
    red = engine.red
    hand = engine.hand
    choice, value = engine.return_table(rule.count)
    kept_size = hand - rule.count
    scale = engine.hand_scale()
    return_den = math.comb(engine.n - kept_size, rule.count) * scale
    rows = []
    plain = Fraction(0)
    hands_den = math.comb(engine.n, hand)
    for comp in compositions(red.sizes, hand):
        keep = Fraction(engine.hand_value(comp), scale)
        best_v, best_kept = -1, comp
        for kept in compositions(comp, kept_size):
            v = engine.kept_values[kept]
            if v > best_v:
                best_v, best_kept = v, kept
        picked = choice[comp]
        returned = tuple(h - k for h, k in zip(comp, picked or best_kept, strict=True))
        w = ways(red.sizes, comp)
        plain += Fraction(w, hands_den) * keep
        rows.append(
            HandRow(
                comp,
                w,
                keep,
                True,
                Fraction(best_v, return_den),
                Choice.RETURN if picked is not None else None,
                returned,
            )
        )
    labels = class_labels(problem, red)
    return HandTable(RuleKind.RETURN, labels, red.sizes, hands_den, tuple(rows), value, plain)


# -- rules of thumb --------------------------------------------------------------------------


def class_name(labels: Sequence[str]) -> str:
    """A class's cards in words: the selectors they match, or "other"."""
    return " & ".join(labels) if labels else "other"


def _threshold_rules(
    hands: Sequence[tuple[int, ...]], acts: Sequence[bool], n_classes: int
) -> list[tuple[int, str, int]]:
    """Rules ``count of class c OP k`` (``<`` or ``>``) that act exactly on the hands that act."""
    found = []
    for c in range(n_classes):
        values = sorted({h[c] for h in hands})
        for k in range(values[0], values[-1] + 2):
            if all((h[c] < k) == a for h, a in zip(hands, acts, strict=True)):
                found.append((c, "<", k))
            if all((h[c] > k - 1) == a for h, a in zip(hands, acts, strict=True)):
                found.append((c, ">", k - 1))
    return found


def _rule_text(c: int, op: str, k: int, labels: Sequence[Sequence[str]]) -> str:
    name = class_name(labels[c])
    if op == "<":
        return f"fewer than {k} {name}" if k > 1 else f"no {name}"
    return f"more than {k} {name}"


def rule_of_thumb(table: HandTable) -> str | None:
    """One short rule that gives the table's decision for every hand that has a choice, when
    one does (a single threshold on one class's count, or a threshold with one exception);
    for a return mulligan, also which cards go first. None when no short rule fits."""
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
        rule = _decision_rule(hands, acts, table.labels)
        if rule is None:
            return None
        head = f"{verb} with {rule}{scope}"
    if table.kind is RuleKind.RETURN:
        order = _return_order([r for r in rows if r.choice is not None], len(table.sizes))
        if order is None:
            return head + "; which cards: see the table"
        names = [class_name(table.labels[c]) for c in order]
        if not names:
            return head
        which = names[0] + (" first, then " + ", then ".join(names[1:]) if names[1:] else "")
        return f"{head}; which: {which}"
    return head


def _decision_rule(
    hands: Sequence[tuple[int, ...]], acts: Sequence[bool], labels: Sequence[Sequence[str]]
) -> str | None:
    n = len(labels)
    single = _threshold_rules(hands, acts, n)
    if single:
        return _rule_text(*single[0], labels)
    # Either of two thresholds: "fewer than 1 A or fewer than 1 B".
    for c, d in itertools.combinations(range(n), 2):
        for k in range(1, max(h[c] for h in hands) + 2):
            for m in range(1, max(h[d] for h in hands) + 2):
                if all((h[c] < k or h[d] < m) == a for h, a in zip(hands, acts, strict=True)):
                    first = _rule_text(c, "<", k, labels)
                    return f"{first} or {_rule_text(d, '<', m, labels)}"
    # A threshold on one class with one exception on another: "fewer than 2 A unless the
    # hand holds at least k B" (or "more than k B").
    for c in range(n):
        for k in range(1, max(h[c] for h in hands) + 2):
            for d in range(n):
                if d == c:
                    continue
                for m in range(0, max(h[d] for h in hands) + 1):
                    for above in (True, False):

                        def exempt(
                            h: tuple[int, ...], d: int = d, m: int = m, up: bool = above
                        ) -> bool:
                            return h[d] >= m if up else h[d] <= m

                        if all(
                            (h[c] < k and not exempt(h)) == a
                            for h, a in zip(hands, acts, strict=True)
                        ):
                            base = _rule_text(c, "<", k, labels)
                            bound = f"at least {m}" if above else f"at most {m}"
                            return f"{base} unless the hand holds {bound} {class_name(labels[d])}"
    return None


def _return_order(rows: Sequence[HandRow], n_classes: int) -> list[int] | None:
    """An order of classes such that every returning hand returns its cards greedily in it."""
    if n_classes > 6:
        return None
    for order in itertools.permutations(range(n_classes)):
        if all(_greedy(r.hand, order, sum(r.returned or ())) == r.returned for r in rows):
            used = {c for r in rows for c, k in enumerate(r.returned or ()) if k}
            return [c for c in order if c in used]
    return None


def _greedy(hand: tuple[int, ...], order: Sequence[int], count: int) -> tuple[int, ...]:
    out = [0] * len(hand)
    for c in order:
        take = min(hand[c], count)
        out[c] = take
        count -= take
    return tuple(out)
