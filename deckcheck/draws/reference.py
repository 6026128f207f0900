"""Plain-Python reference simulation: one shuffled pile per trial, dealt card by card.

This is the slow, obviously-correct model of each game's opening, mulligan and turns. The
vectorised simulator and the exact engine are tested against it, so it favours plainness over
speed: it shuffles the whole pile and follows each rule literally.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deckcheck.draws.model import (
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
    SimulationResult,
)
from deckcheck.draws.policies import greedy_return, kuk_keep, redraw_allowed

#: Redraws allowed per trial when the rule says "unlimited": if every hand triggers the rule the
#: loop would never end, so after this many redraws the hand is kept (and a note says so).
REDRAW_CAP = 1000

#: ``choose_return(hand_counts)`` -> how many cards of each group to return, or None to keep.
ReturnChooser = Callable[[tuple[int, ...]], "Sequence[int] | None"]

#: ``choose_redraw(hand_counts, redraws_left)`` -> True to redraw a hand the rule allows to be
#: redrawn; ``redraws_left`` is None under an unlimited rule. None as a chooser: redraw
#: whenever allowed.
RedrawChooser = Callable[[tuple[int, ...], "int | None"], bool]


@dataclass(frozen=True)
class DealShape:
    """What one trial deals, derived once from the procedure and the query.

    ``hand``: opening hand size; ``later``: cards drawn after it (``query.seen - hand``);
    ``rule``: the mulligan rule in force (None when off or not applicable); ``lookahead``:
    whether the first draw of each turn may be put under the pile; ``per_turn``: draws per turn.
    """

    hand: int
    later: int
    rule: RedrawRule | ReturnRule | None
    lookahead: bool
    per_turn: int
    notes: tuple[str, ...] = ()


def deal_shape(problem: DrawProblem, procedure: Procedure, query: Query) -> DealShape:
    """Check a query against the pile and work out the hand, the later draws and the rules."""
    pile = problem.pile_size
    if query.seen < 0:
        raise ValueError(f"cards seen must not be negative (got {query.seen})")
    if query.seen > pile:
        raise ValueError(f"cannot see {query.seen} cards from a pile of {pile}")
    if len(problem.group_sizes) != len(problem.membership):
        raise ValueError("group_sizes and membership differ in length")
    opening = procedure.opening_size(query.second)
    rule = procedure.mulligan if query.use_mulligan else None
    if query.seen < opening:
        # As the exact engine: the rules deal a full opening hand, so fewer cards seen than
        # that is not a question the procedure can answer.
        raise ValueError(f"cannot see {query.seen} cards: the opening hand alone is {opening}")
    notes: tuple[str, ...] = ()
    if isinstance(rule, ReturnRule) and not 0 < rule.count <= opening:
        notes = (f"the hand is too small to return {rule.count} cards: no mulligan",)
        rule = None
    later = query.seen - opening
    per_turn = max(1, procedure.draws_per_turn)
    return DealShape(opening, later, rule, procedure.lookahead and later > 0, per_turn, notes)


def default_chooser(problem: DrawProblem, rule: ReturnRule) -> ReturnChooser:
    """The return choice used when none is supplied: :func:`greedy_return`."""
    return lambda hand: greedy_return(problem, hand, rule.count)


def check_return(
    hand: Sequence[int], returned: Sequence[int] | None, count: int
) -> tuple[int, ...]:
    """Validate a return choice for ``hand``; all zeros means keep the hand."""
    if returned is None:
        return (0,) * len(hand)
    ret = tuple(int(r) for r in returned)
    if len(ret) != len(hand) or any(r < 0 or r > h for r, h in zip(ret, hand, strict=True)):
        raise ValueError(f"return choice {ret} does not fit the hand {tuple(hand)}")
    if sum(ret) not in (0, count):
        raise ValueError(f"return choice {ret} must return exactly {count} cards")
    return ret


def _draw_later(
    problem: DrawProblem,
    held: list[int],
    pile: list[int],
    draws: int,
    lookahead: bool,
    per_turn: int,
) -> list[int]:
    """Draw ``draws`` cards from the top (index 0) of ``pile`` into ``held``.

    With ``lookahead`` the first draw of each turn looks at the top card first and, unless
    :func:`kuk_keep` keeps it, puts it at the bottom and draws the next card instead. ``pile`` is
    extended at its end by cards put at the bottom, so pass a copy if it is needed again.
    """
    pos = 0
    for j in range(draws):
        card = pile[pos]
        pos += 1
        if lookahead and j % per_turn == 0 and not kuk_keep(problem, held, card):
            pile.append(card)
            card = pile[pos]
            pos += 1
        held[card] += 1
    return held


def _counts(cards: Sequence[int], n_groups: int) -> list[int]:
    held = [0] * n_groups
    for card in cards:
        held[card] += 1
    return held


def simulate_reference(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    trials: int,
    seed: int,
    choose_return: ReturnChooser | None = None,
    choose_redraw: RedrawChooser | None = None,
) -> SimulationResult:
    """Estimate the query's probability by dealing ``trials`` games card by card.

    Each trial shuffles the pile (``random.Random(seed)``), deals the opening hand, applies the
    mulligan rule when ``query.use_mulligan`` (a redraw rule redraws while allowed, redraws
    remain and ``choose_redraw``, if given, wants to; a return rule asks ``choose_return``
    which cards go back, greedy by default), then
    draws up to ``query.seen`` cards with the look-ahead if the procedure has one. The same
    trial also yields the figure without the mulligan: the first hand and the cards under it.
    """
    if trials < 1:
        raise ValueError(f"trials must be at least 1 (got {trials})")
    shape = deal_shape(problem, procedure, query)
    n_groups = len(problem.group_sizes)
    rng = random.Random(seed)
    deck = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    rule = shape.rule
    chooser: ReturnChooser | None = None
    if isinstance(rule, ReturnRule):
        chooser = choose_return or default_chooser(problem, rule)

    successes = successes_plain = capped = 0
    for _ in range(trials):
        pile = deck[:]
        rng.shuffle(pile)
        hand, rest = pile[: shape.hand], pile[shape.hand :]
        first = _counts(hand, n_groups)
        # The look-ahead appends to the pile it reads, so it gets a copy when `rest` is reused.
        plain = _draw_later(
            problem,
            first[:],
            rest[:] if rule is not None else rest,
            shape.later,
            shape.lookahead,
            shape.per_turn,
        )
        ok_plain = problem.satisfied(plain)
        successes_plain += ok_plain
        final: list[int] | None = None  # None: the mulligan changed nothing

        if isinstance(rule, RedrawRule):
            held, redraws = first, 0
            while redraw_allowed(rule, problem, held) and (
                rule.max_redraws is None or redraws < rule.max_redraws
            ):
                if redraws >= REDRAW_CAP:
                    capped += 1
                    break
                left = None if rule.max_redraws is None else rule.max_redraws - redraws
                if choose_redraw is not None and not choose_redraw(tuple(held), left):
                    break
                pile = hand + rest
                rng.shuffle(pile)
                hand, rest = pile[: shape.hand], pile[shape.hand :]
                held = _counts(hand, n_groups)
                redraws += 1
            if redraws:
                final = _draw_later(
                    problem, held, rest, shape.later, shape.lookahead, shape.per_turn
                )
        elif isinstance(rule, ReturnRule):
            assert chooser is not None
            ret = check_return(first, chooser(tuple(first)), rule.count)
            if any(ret):
                kept: list[int] = []
                back: list[int] = []
                to_return = list(ret)
                for card in hand:
                    if to_return[card]:
                        to_return[card] -= 1
                        back.append(card)
                    else:
                        kept.append(card)
                pile = rest + back
                rng.shuffle(pile)
                kept += pile[: rule.count]
                final = _draw_later(
                    problem,
                    _counts(kept, n_groups),
                    pile[rule.count :],
                    shape.later,
                    shape.lookahead,
                    shape.per_turn,
                )
        successes += ok_plain if final is None else problem.satisfied(final)

    return SimulationResult.from_counts(
        successes,
        successes_plain,
        trials,
        seed,
        "simulation (reference, card by card)",
        list(shape.notes),
        capped,
        REDRAW_CAP,
    )
