"""Plain-Python reference simulation: one shuffled pile per trial, dealt card by card.

This is the slow, obviously-correct model of each game's opening, mulligan and turns. The
vectorised simulator and the exact engine are tested against it, so it stays plain: it deals
with :class:`~deckcheck.draws.simulate.dealer.Dealer`, the very dealer of ``hand``, card by card.
Its one economy is that a decision (a redraw, a return, keeping the top card) is asked once per
situation: the choosers it is given must be functions of their arguments alone, as the
vectorised simulator assumes too.
"""

from __future__ import annotations

import functools
import random

from deckcheck.draws.answer import Answer, Fact, FactKind, Method
from deckcheck.draws.model import DrawProblem, Procedure, Query, ReturnRule
from deckcheck.draws.policies import greedy_return, lookahead_keep
from deckcheck.draws.simulate.dealer import (
    REDRAW_CAP,
    Choices,
    Dealer,
    KeepChooser,
    RedrawChooser,
    ReturnChooser,
    deal_shape,
)


def default_chooser(problem: DrawProblem, rule: ReturnRule) -> ReturnChooser:
    """The return choice used when none is supplied: :func:`greedy_return`."""
    return lambda hand: greedy_return(problem, hand, rule.count)


def simulate_reference(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    trials: int,
    seed: int,
    choose_return: ReturnChooser | None = None,
    choose_redraw: RedrawChooser | None = None,
    *,
    keep_top: KeepChooser | None = None,
) -> Answer:
    """Estimate the query's probability by dealing ``trials`` games card by card.

    Each trial shuffles the pile (``random.Random(seed)``), deals the opening hand, applies the
    mulligan rule when ``query.use_mulligan`` (a redraw rule redraws while allowed, redraws
    remain and ``choose_redraw`` agrees, by default always; a return rule asks
    ``choose_return`` which cards go back, greedy by default), then draws up to
    ``query.seen`` cards with the look-ahead if the procedure has one (``keep_top``, by
    default the rule of thumb). The same trial also yields the figure without the mulligan:
    the first hand and the cards under it.
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    shape = deal_shape(problem, procedure, query)
    rule = shape.rule
    if isinstance(rule, ReturnRule) and choose_return is None:
        choose_return = default_chooser(problem, rule)
    choices = _remembered(problem, choose_redraw, choose_return, keep_top)
    deck = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    dealer: Dealer[int] = Dealer(problem, shape, deck, int, choices)
    rng = random.Random(seed)
    satisfied = functools.cache(problem.satisfied)

    successes = successes_plain = capped = 0
    for _ in range(trials):
        deal = dealer.deal(rng)
        ok_plain = satisfied(dealer.counts(dealer.draw_later(deal.first, deal.first_rest)))
        successes_plain += ok_plain
        if deal.changed:
            successes += satisfied(dealer.counts(dealer.draw_later(deal.hand, deal.rest)))
        else:
            successes += ok_plain
        capped += deal.capped

    facts = list(shape.facts)
    if capped:
        facts.append(Fact(FactKind.REDRAW_CAP_REACHED, limit=REDRAW_CAP, count=capped))
    return Answer.from_counts(
        successes, successes_plain, trials, seed, Method.SIMULATION_REFERENCE, facts
    )


def _remembered(
    problem: DrawProblem,
    choose_redraw: RedrawChooser | None,
    choose_return: ReturnChooser | None,
    keep_top: KeepChooser | None,
) -> Choices:
    """The deal's decisions, each asked once per situation: they are functions of the counts
    they are given (the vectorised simulator looks them up so too), and a run meets the same
    few hundred situations thousands of times."""
    keep: KeepChooser
    if keep_top is None:  # the rule of thumb reads only the cards held
        by_held = functools.cache(lambda held, top: lookahead_keep(problem, held, top))
        keep = lambda held, gone, top: by_held(tuple(held), top)  # noqa: E731
    else:
        by_all = functools.cache(lambda held, gone, top: bool(keep_top(held, gone, top)))
        keep = lambda held, gone, top: by_all(tuple(held), tuple(gone), top)  # noqa: E731
    return Choices(
        problem,
        redraw=None if choose_redraw is None else functools.cache(choose_redraw),
        returned=None if choose_return is None else functools.cache(choose_return),
        keep_top=keep,
    )
