"""Decision policies shared by the exact engine and the simulators.

Keeping one copy of each decision here is what lets tests compare the exact figures with the
simulated ones: both follow the very same choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.draws.model import DrawProblem, RedrawRule


def redraw_allowed(rule: RedrawRule, problem: DrawProblem, hand: Sequence[int]) -> bool:
    """Whether the game's redraw rule lets the player redraw this hand (any trigger holds)."""
    totals = problem.selector_counts(hand)
    return any(t.holds(totals[t.selector]) for t in rule.triggers)


def triggers_held(rule: RedrawRule, problem: DrawProblem, hand: Sequence[int]) -> tuple[int, ...]:
    """Indices of the rule's triggers that hold for this hand (empty: no redraw allowed)."""
    totals = problem.selector_counts(hand)
    return tuple(i for i, t in enumerate(rule.triggers) if t.holds(totals[t.selector]))


def card_advances(problem: DrawProblem, held: Sequence[int], group: int) -> bool:
    """Whether a card of ``group`` advances some unmet query condition, given ``held``."""
    return _advances(problem, problem.selector_counts(held), group)


def _advances(problem: DrawProblem, totals: Sequence[int], group: int) -> bool:
    member = problem.membership[group]
    return any(
        member[c.selector] and c.op.advanced_by_one(totals[c.selector], c.threshold)
        for c in problem.conditions
    )


def card_hurts(problem: DrawProblem, held: Sequence[int], group: int) -> bool:
    """Whether a card of ``group`` would break a condition that holds now (an upper bound)."""
    return _hurts(problem, problem.selector_counts(held), group)


def _hurts(problem: DrawProblem, totals: Sequence[int], group: int) -> bool:
    member = problem.membership[group]
    return any(
        member[c.selector] and c.op.broken_by_one(totals[c.selector], c.threshold)
        for c in problem.conditions
    )


def lookahead_keep(problem: DrawProblem, held: Sequence[int], top_group: int) -> bool:
    """A look-ahead keep by rule of thumb: keep the top card, or put it at the bottom.

    A card that would break an upper bound (``trap=0``, ``spell<=2``) goes under; one that
    advances an unmet condition is kept; a card that does neither is kept only while some
    upper bound is one card from breaking (the replacement might be that card), otherwise it
    goes under so that a random card, possibly a useful one, is drawn instead.
    """
    return lookahead_keep_totals(problem, problem.selector_counts(held), top_group)


def lookahead_keep_totals(problem: DrawProblem, totals: Sequence[int], top_group: int) -> bool:
    """:func:`lookahead_keep` from the held cards' count per selector (capped counts decide
    alike: see :meth:`~deckcheck.draws.compare.Comparison.cap`)."""
    if _hurts(problem, totals, top_group):
        return False
    if _advances(problem, totals, top_group):
        return True
    return any(c.op.broken_by_one(totals[c.selector], c.threshold) for c in problem.conditions)


def greedy_return(problem: DrawProblem, hand: Sequence[int], count: int) -> tuple[int, ...] | None:
    """A fallback choice for a return-``count`` mulligan when the optimal one is out of reach.

    Keep a hand that already satisfies the query (None); otherwise return ``count`` cards,
    preferring cards that advance no unmet condition, then cards whose selectors are over-full.
    """
    if problem.satisfied(hand):
        return None
    held = list(hand)
    totals = problem.selector_counts(held)
    returned = [0] * len(hand)
    for _ in range(count):
        candidates = [g for g, k in enumerate(held) if k > 0]
        if not candidates:
            return None
        useless = [g for g in candidates if not _useful_to_keep(problem, totals, g)]
        pick = (useless or candidates)[0]
        held[pick] -= 1
        returned[pick] += 1
        for sel, member in enumerate(problem.membership[pick]):
            if member:
                totals[sel] -= 1
    return tuple(returned)


def _useful_to_keep(problem: DrawProblem, totals: Sequence[int], group: int) -> bool:
    """Whether the held card of ``group`` advances a condition the hand would miss without it."""
    member = problem.membership[group]
    without = [t - 1 if member[s] else t for s, t in enumerate(totals)]
    return _advances(problem, without, group)


def redraw_unless_met(
    problem: DrawProblem, hand: Sequence[int], redraws_left: int | None = None
) -> bool:
    """A stated redraw policy for when the exact optimum is out of reach: redraw a hand the
    rule allows to be redrawn unless it already meets every query condition.

    Same call shape as :func:`deckcheck.draws.exact.optimal_redraw.optimal_redraw_choice`'s
    decision (True = redraw); the caller has already checked that the rule allows a redraw.
    """
    return not problem.satisfied(hand)
