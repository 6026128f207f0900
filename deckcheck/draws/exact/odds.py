"""Exact draw odds: one entry point over the hypergeometric and sequential engines.

Everything works with exact integers (numbers of ways, or numbers of ordered card sequences)
and turns them into one :class:`~fractions.Fraction` at the very end, so results are exact and
decisions (the optimal mulligan) compare exact values, never rounded floats. The engines live
in :mod:`~deckcheck.draws.exact.hypergeometric` (order does not matter) and
:mod:`~deckcheck.draws.exact.sequential` (look-ahead, return mulligan).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from deckcheck.draws.answer import Answer, Fact, FactKind, Intractable, Method, lookahead_fact
from deckcheck.draws.exact.capped import Progress
from deckcheck.draws.exact.sequential import STATE_BUDGET, Kept, SequentialEngine
from deckcheck.draws.model import DrawProblem, RedrawRule, Request, ReturnRule

if TYPE_CHECKING:
    from deckcheck.draws.exact.levels import Bools, Ints

__all__ = ["STATE_BUDGET", "Intractable", "distribution", "exact_odds", "optimal_return_choice"]


def exact_odds(
    request: Request,
    *,
    budget: int = STATE_BUDGET,
    progress: Progress | None = None,
    engine: SequentialEngine | None = None,
    most_seen: int | None = None,
) -> Answer:
    """Exact probability that all the request's ``problem.conditions`` hold over the first
    ``query.seen`` cards.

    The opening hand has ``procedure.opening_size(query.second)`` cards; later draws bring the
    cards held up to ``query.seen``. ``probability`` applies the procedure's mulligan when
    ``query.use_mulligan`` is set; ``probability_without_mulligan`` never does (but keeps the
    look-ahead, which is not a mulligan). Raises :class:`Intractable` when the exact state
    space would exceed ``budget`` (the caller then simulates), ``ValueError`` for a query that
    makes no sense (more cards seen than the pile holds, fewer than the opening hand).

    Redraw rules: redraw whenever a trigger holds, up to ``max_redraws`` times; the last
    allowed hand is kept even if a trigger holds. With unlimited redraws the result is
    P(no trigger and success) / P(no trigger); if every hand triggers, redrawing changes
    nothing and the plain probability is returned. Return rules: the player keeps or returns
    whatever maximises this query's probability. The look-ahead (keep the top card or put it
    under) is decided optimally for the query, or by the rule of thumb with
    ``request.lookahead="heuristic"``. ``progress(done, total)`` hears from the plain programme, the
    look-ahead recursion and the return mulligan's tables (the total may change between
    them); ``engine``: one already built for these arguments (and estimated), to reuse its
    work; ``most_seen``: the most cards a table of turns asks about (the redraw's table of
    later draws is computed once up to it).
    """
    problem, procedure, query = request.problem, request.procedure, request.query
    rule = procedure.mulligan if query.use_mulligan else None
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    if engine is None:
        engine = SequentialEngine(problem, procedure, query, triggers, budget, request.lookahead)
    if progress is not None:
        engine.progress = progress
    if progress is not None and engine.lookahead and not engine.estimated:
        count = rule.count if isinstance(rule, ReturnRule) and problem.conditions else None
        engine.estimate(count, engine.budget)
    looks = engine.lookahead
    facts: list[Fact] = []
    if looks:
        facts.append(lookahead_fact(engine.optimal))
    try:
        plain = engine.without_mulligan(progress)
    except Intractable as exc:
        if looks:
            calls = max(0, engine.work - engine.estimated)
            exc.known_states = (engine.signature(), engine.memo, calls)
        raise
    method = Method.LOOKAHEAD if looks else Method.HYPERGEOMETRIC
    p = plain
    if isinstance(rule, RedrawRule) and rule.triggers and problem.conditions:
        success, clean, trig = engine.redraw_parts(most_seen)
        facts.append(Fact(FactKind.REDRAW_WHENEVER_ALLOWED, limit=rule.max_redraws))
        method = Method.REDRAW_LOOKAHEAD if looks else Method.REDRAW
        if rule.max_redraws is None:
            if trig == 1:
                facts.append(Fact(FactKind.EVERY_HAND_REDRAWS))
                p = success
            else:
                p = clean / (1 - trig)
        else:
            p = success
            for _ in range(rule.max_redraws):
                p = clean + trig * p
    elif isinstance(rule, ReturnRule) and problem.conditions:
        count = rule.count
        if 0 < count <= engine.hand:
            try:
                _, p = engine.return_table(count)
            except Intractable as exc:
                # What the query asks with no mulligan is known: said, not thrown away.
                exc.without_mulligan = Answer.from_fractions(plain, plain, method, facts)
                raise
            facts.append(Fact(FactKind.RETURN_OPTIMAL))
            method = Method.RETURN_LOOKAHEAD if looks else Method.RETURN
        else:
            facts.append(Fact(FactKind.HAND_TOO_SMALL_TO_RETURN, count=count))
    if progress is not None and engine.lookahead:
        progress(engine.work, engine.work)
    elif progress is not None and isinstance(rule, ReturnRule):
        progress(1, 1)
    return Answer.from_fractions(p, plain, method, facts)


KeepTop = Callable[[Sequence[int], Sequence[int], int], bool]
ReturnChoose = Callable[[tuple[int, ...]], tuple[int, ...] | None]


def optimal_keep_choice(request: Request, *, budget: int = STATE_BUDGET) -> KeepTop:
    """The optimal look-ahead decision :func:`exact_odds` plays, for the simulators (whatever
    ``request.lookahead`` says: this is the optimal one).

    The returned ``keep_top(held, gone, top)`` takes the cards held and the cards gone from
    the pile (held or put under, the top card included), per group of ``problem``, and the
    top card's group; True keeps it. The exact computation runs up front (so
    :class:`Intractable` is raised here); the decision then reads its table.
    """
    return optimal_choices(request, budget=budget)[0]


def optimal_choices(
    request: Request, *, budget: int = STATE_BUDGET, engine: SequentialEngine | None = None
) -> tuple[KeepTopChoice, ReturnChoose | None]:
    """The optimal look-ahead decision (:func:`optimal_keep_choice`) and, under a return
    mulligan the query plays, the optimal return (:func:`optimal_return_choice`, else None),
    both read from one engine: the return table is the one :func:`exact_odds` computes after
    the plain pass, which it reads, instead of a second engine's valuing the same states
    again. ``engine``: one built for the request and charged as :func:`exact_odds`' is (its
    work limit), which then builds exactly what :func:`exact_odds` would."""
    problem, procedure, query = request.problem, request.procedure, request.query
    if engine is None:
        engine = SequentialEngine(problem, procedure, query, (), budget)
    choose: ReturnChoose | None = None
    exact: tuple[Fraction, Fraction] | None = None
    if engine.lookahead:
        plain = engine.without_mulligan()
        best = plain
        rule = procedure.mulligan
        if (
            isinstance(rule, ReturnRule)
            and query.use_mulligan
            and problem.conditions
            and 0 < rule.count <= engine.hand
        ):
            # The states after a mulligan, too; and the optimal return for the simulator.
            table, best = engine.return_table(rule.count)
            choose = _return_chooser(problem, engine, table)
        exact = (best, plain)
    # A few states the play may add (not charged to a work limit: the tables are built).
    engine.budget = max(budget, engine.budget, engine.work) * 4
    return KeepTopChoice(engine, exact), choose


class KeepTopChoice:
    """The optimal look-ahead decision read from ``engine`` (see :func:`optimal_keep_choice`):
    called per state, or for many at once by :meth:`many`."""

    def __init__(
        self, engine: SequentialEngine, exact: tuple[Fraction, Fraction] | None = None
    ) -> None:
        self.engine = engine
        self.red = engine.red
        #: The chance of the player these decisions make (with the query's mulligan, without
        #: it), valued on the way to them: exact, for the simulation to say, not to lose.
        self.exact = exact

    def __call__(self, held: Sequence[int], gone: Sequence[int], top: int) -> bool:
        """True keeps a top card of group ``top`` (``held``, ``gone``: per group)."""
        red = self.red
        return self.engine.keep_top(red.to_classes(gone), red.to_classes(held), red.class_of[top])

    def many(self, held: Ints, gone: Ints, top: Ints) -> Bools | None:
        """The decisions for every column of ``held`` and ``gone`` (a row per group) and
        ``top`` (a group per column), exactly those of the call; None when they can only be
        made one at a time."""
        from deckcheck.core.numeric import np

        red = self.red
        classes = np.asarray(red.class_of, dtype=np.int64)
        return self.engine.keep_top_many(self._per_class(gone), self._per_class(held), classes[top])

    def _per_class(self, counts: Ints) -> Ints:
        """Per class, the counts of its groups summed (a row added per group: an integer
        matrix product is no BLAS call, and much slower)."""
        from deckcheck.core.numeric import np

        out = np.zeros((len(self.red.sizes), counts.shape[1]), dtype=np.int64)
        for g, c in enumerate(self.red.class_of):
            out[c] += counts[g]
        return out


def optimal_return_choice(
    request: Request, *, budget: int = STATE_BUDGET, engine: SequentialEngine | None = None
) -> ReturnChoose:
    """The optimal return-mulligan decision :func:`exact_odds` uses, for the simulator.

    The returned function maps an opening-hand composition (per group of ``problem``) to the
    composition of the cards to return (per group, summing to the rule's count), or None to
    keep the hand. The whole table is computed up front, so :class:`Intractable` is raised
    here, never by the returned function. ``engine``: as for :func:`optimal_choices`.
    """
    problem, procedure, query = request.problem, request.procedure, request.query
    rule = procedure.mulligan
    if not isinstance(rule, ReturnRule):
        raise ValueError("optimal_return_choice needs a return-count mulligan rule")
    if engine is None:
        engine = SequentialEngine(problem, procedure, query, (), budget, request.lookahead)
    count = rule.count
    table = engine.return_table(count)[0] if problem.conditions and 0 < count <= engine.hand else {}
    return _return_chooser(problem, engine, table)


def _return_chooser(
    problem: DrawProblem, engine: SequentialEngine, table: Mapping[tuple[int, ...], Kept]
) -> ReturnChoose:
    """The return decision read from ``engine``'s return ``table`` (see
    :func:`optimal_return_choice`)."""
    return _ReturnChooser(problem, engine, table)


class _ReturnChooser:
    """:func:`_return_chooser`'s decision: called per hand, or for many at once by
    :meth:`many` where the table over every hand (:class:`~.returned.ReturnHands`) has them."""

    def __init__(
        self, problem: DrawProblem, engine: SequentialEngine, table: Mapping[tuple[int, ...], Kept]
    ) -> None:
        from deckcheck.draws.exact.returned import KeptValues

        self.groups = len(problem.group_sizes)
        self.engine = engine
        self.table = table
        # The table of every hand behind ``table`` (the engine's last), when it is one.
        kept = engine.kept_values
        self.hands = kept.hands if isinstance(kept, KeptValues) and table else None

    def __call__(self, hand: tuple[int, ...]) -> tuple[int, ...] | None:
        engine = self.engine
        if len(hand) != self.groups or sum(hand) != engine.hand:
            raise ValueError(f"not an opening hand of {engine.hand} over the problem's groups")
        classes = engine.red.to_classes(hand)
        kept = self.table.get(classes)
        if kept is None:
            return None
        # Spread each class's returns over the hand's groups of that class (all equivalent).
        to_return = [h - k for h, k in zip(classes, kept, strict=True)]
        out = [0] * len(hand)
        for g, k in enumerate(hand):
            cls = engine.red.class_of[g]
            if k and to_return[cls]:
                take = out[g] = min(k, to_return[cls])
                to_return[cls] -= take
        return tuple(out)

    def many(self, hands: Ints) -> Ints | None:
        """The returns (a row per hand, cards per group; zeros: kept) of every column of
        ``hands`` (a row per group, opening hands only), exactly those of the call; None
        where they can only be found one at a time."""
        import itertools

        from deckcheck.core.numeric import np

        engine, red, table = self.engine, self.engine.red, self.hands
        if table is None or len(hands) != self.groups:
            return None
        if (hands.sum(axis=0) != engine.hand).any():
            return None  # not opening hands: the call says so, hand by hand
        n, size = hands.shape[1], engine.hand
        classes = np.zeros((len(red.sizes), n), dtype=np.int64)
        for g, c in enumerate(red.class_of):
            classes[c] += hands[g]
        # Each hand's cards by class, in increasing order; the parts it keeps by positions.
        rows = np.repeat(np.tile(np.arange(len(red.sizes)), n), classes.T.ravel())
        picked = table.kept_parts(rows.reshape(n, size))
        subsets = list(itertools.combinations(range(size), table.keep))
        back = np.zeros((n, size), dtype=bool)
        for i, kept in enumerate(subsets):
            hit = picked == i
            back[hit] = True
            back[np.ix_(hit, kept)] = False
        # Per class, the cards it returns; spread over its groups in order, as the call does.
        to_return = np.zeros_like(classes)
        np.add.at(to_return, (rows.reshape(n, size)[back], np.nonzero(back)[0]), 1)
        out = np.zeros((self.groups, n), dtype=np.int64)
        for g, c in enumerate(red.class_of):
            out[g] = np.minimum(hands[g], to_return[c])
            to_return[c] -= out[g]
        return out.T


def distribution(problem: DrawProblem, seen: int, selector: int) -> list[Fraction]:
    """P(exactly k cards matching ``selector`` among ``seen``), for k = 0, 1, ... (plain draw)."""
    n = problem.pile_size
    if not 0 <= seen <= n:
        raise ValueError(f"cannot see {seen} cards of a pile of {n}")
    pairs = zip(problem.group_sizes, problem.membership, strict=True)
    hits = sum(size for size, row in pairs if row[selector])
    total = math.comb(n, seen)
    return [
        Fraction(math.comb(hits, k) * math.comb(n - hits, seen - k), total)
        for k in range(min(seen, hits) + 1)
    ]
