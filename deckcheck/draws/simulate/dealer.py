"""The one dealer: a shuffled pile dealt card by card, with a hook for every decision.

The reference simulator deals group numbers and ``hand`` deals real cards through this same
code, so a sample hand is dealt exactly as a simulated one. Decisions (redraw or keep, which
cards to return, keep the top card or put it under) are asked of a :class:`Decisions` hook;
what happened is recorded as :class:`Step` values that callers word for people.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Protocol, TypeVar, cast

from deckcheck.core.values import frozen
from deckcheck.draws.answer import Fact, FactKind
from deckcheck.draws.model import DrawProblem, Procedure, Query, RedrawRule, ReturnRule
from deckcheck.draws.policies import lookahead_keep, triggers_held

T = TypeVar("T")

#: Redraws allowed per deal when the rule says "unlimited": if every hand triggers the rule the
#: loop would never end, so after this many redraws the hand is kept (and a fact says so).
REDRAW_CAP = 1000


def shuffle(rng: random.Random, pile: list[T]) -> None:
    """``rng.shuffle(pile)``: the same swaps from the same random numbers, so a seed deals
    what it always dealt, without a method call per card (the reference simulator shuffles
    a whole pile per deal). A subclass of :class:`random.Random` shuffles its own way."""
    if type(rng) is not random.Random:
        rng.shuffle(pile)
        return
    getrandbits = rng.getrandbits
    for i, k in _swaps(len(pile)):  # random.Random's own rejection sampling of a j <= i
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        pile[i], pile[j] = pile[j], pile[i]


@functools.lru_cache(maxsize=64)
def _swaps(n: int) -> tuple[tuple[int, int], ...]:
    """Per step of a shuffle of ``n`` cards: the position ``i`` filled, the bits of a j <= i."""
    return tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


#: ``choose_return(hand_counts)`` -> how many cards of each group to return, or None to keep.
#: Like every chooser here, a function of its arguments alone: the simulators ask it once per
#: situation.
ReturnChooser = Callable[[tuple[int, ...]], "Sequence[int] | None"]


@frozen
class DealShape:
    """What one deal does, derived once from the procedure and the query.

    ``hand``: opening hand size; ``later``: cards drawn after it (``query.seen - hand``);
    ``rule``: the mulligan rule in force (None when off or not applicable); ``lookahead``:
    whether the first draw of each turn may be put under the pile; ``per_turn``: draws per turn.
    """

    hand: int
    later: int
    rule: RedrawRule | ReturnRule | None
    lookahead: bool
    per_turn: int
    facts: tuple[Fact, ...] = ()


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
        # As the exact engine: the rules deal a full opening hand, never fewer cards.
        raise ValueError(f"cannot see {query.seen} cards: the opening hand alone is {opening}")
    facts: tuple[Fact, ...] = ()
    if isinstance(rule, ReturnRule) and not 0 < rule.count <= opening:
        facts = (Fact(FactKind.HAND_TOO_SMALL_TO_RETURN, count=rule.count),)
        rule = None
    later = query.seen - opening
    per_turn = max(1, procedure.draws_per_turn)
    return DealShape(opening, later, rule, procedure.lookahead and later > 0, per_turn, facts)


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


class Decisions(Protocol):
    """The choices a deal asks for. Hands are counts per group of the problem."""

    def redraw(self, hand: tuple[int, ...], redraws_left: int | None) -> bool:
        """Asked only when the rule allows a redraw and one is left: True to redraw."""
        ...

    def returned(self, hand: tuple[int, ...]) -> Sequence[int] | None:
        """How many cards of each group go back under a return rule; None keeps the hand."""
        ...

    def keep_top(self, held: Sequence[int], gone: Sequence[int], top: int) -> bool:
        """At a look-ahead: keep a top card of group ``top`` (True) or put it under (False).

        ``held`` counts the cards held per group, ``gone`` those no longer in the shuffled
        pile (held or put under).
        """
        ...


class StepKind(Enum):
    """One mulligan event of a deal."""

    REDRAW = "redraw"  # the hand was reshuffled and a new one dealt (``triggers`` held)
    KEPT_NOT_ALLOWED = "kept-not-allowed"  # no trigger holds (after ``redraws`` redraws)
    KEPT_NO_REDRAWS_LEFT = "kept-no-redraws-left"  # triggers held, but the limit is reached
    KEPT_BY_CHOICE = "kept-by-choice"  # triggers held, and the player chose to keep
    KEPT_AT_CAP = "kept-at-cap"  # unlimited redraws stopped at REDRAW_CAP
    RETURNED = "returned"  # ``returned`` went back, ``drawn`` replaced them
    KEPT_NO_RETURN = "kept-no-return"  # the return rule's choice was to keep the hand


@frozen
class Step(Generic[T]):
    """A mulligan event: its kind, the triggers that held, the cards that moved."""

    kind: StepKind
    triggers: tuple[int, ...] = ()
    redraws: int = 0
    hand: tuple[int, ...] = ()  # the hand decided on, as cards per group
    returned: tuple[T, ...] = ()
    drawn: tuple[T, ...] = ()


@dataclass
class Deal(Generic[T]):
    """One deal: the first hand and the pile under it, and the hand after the mulligan."""

    first: list[T]
    first_rest: list[T]
    hand: list[T]
    rest: list[T]
    steps: list[Step[T]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether the mulligan replaced any card of the first hand (it deals a new hand)."""
        return self.hand is not self.first

    @property
    def capped(self) -> bool:
        """Whether unlimited redraws stopped at the cap (the last step says so)."""
        return bool(self.steps) and self.steps[-1].kind is StepKind.KEPT_AT_CAP


class Dealer(Generic[T]):
    """Deals ``cards`` (the pile, in a fixed order) the way ``shape`` says.

    ``group(card)`` is the card's group in ``problem``, which the redraw triggers read.
    """

    def __init__(
        self,
        problem: DrawProblem,
        shape: DealShape,
        cards: Sequence[T],
        group: Callable[[T], int],
        decisions: Decisions,
    ) -> None:
        self.problem = problem
        self.shape = shape
        self.cards = list(cards)
        self.group = group
        self.decisions = decisions
        self.n_groups = len(problem.group_sizes)
        self.triggers: dict[tuple[int, ...], tuple[int, ...]] = {}  # met, per hand's counts

    def counts(self, cards: Sequence[T]) -> tuple[int, ...]:
        """Cards per group."""
        out = [0] * self.n_groups
        if self.group is int:  # the cards are their groups (the reference simulator's)
            for group in cast("Sequence[int]", cards):
                out[group] += 1
            return tuple(out)
        for card in cards:
            out[self.group(card)] += 1
        return tuple(out)

    def deal(self, rng: random.Random) -> Deal[T]:
        """Shuffle, deal the opening hand and play the mulligan rule in force."""
        size = self.shape.hand
        pile = self.cards[:]
        shuffle(rng, pile)
        first, first_rest = pile[:size], pile[size:]
        deal = Deal(first, first_rest, first, first_rest)
        rule = self.shape.rule
        if isinstance(rule, RedrawRule):
            self._redraw(rng, rule, deal)
        elif isinstance(rule, ReturnRule):
            self._return(rng, rule, deal)
        return deal

    def _redraw(self, rng: random.Random, rule: RedrawRule, deal: Deal[T]) -> None:
        size = self.shape.hand
        redraws = 0
        while True:
            counts = self.counts(deal.hand)
            held = self.triggers.get(counts)
            if held is None:
                held = self.triggers[counts] = triggers_held(rule, self.problem, counts)
            if not held:
                deal.steps.append(Step(StepKind.KEPT_NOT_ALLOWED, (), redraws, counts))
                return
            if rule.max_redraws is not None and redraws >= rule.max_redraws:
                deal.steps.append(Step(StepKind.KEPT_NO_REDRAWS_LEFT, held, redraws, counts))
                return
            if redraws >= REDRAW_CAP:
                deal.steps.append(Step(StepKind.KEPT_AT_CAP, held, redraws, counts))
                return
            left = None if rule.max_redraws is None else rule.max_redraws - redraws
            if not self.decisions.redraw(counts, left):
                deal.steps.append(Step(StepKind.KEPT_BY_CHOICE, held, redraws, counts))
                return
            deal.steps.append(Step(StepKind.REDRAW, held, redraws, counts))
            pile = self.cards[:]
            shuffle(rng, pile)
            deal.hand, deal.rest = pile[:size], pile[size:]
            redraws += 1

    def _return(self, rng: random.Random, rule: ReturnRule, deal: Deal[T]) -> None:
        counts = self.counts(deal.hand)
        wanted = list(check_return(counts, self.decisions.returned(counts), rule.count))
        if not any(wanted):
            deal.steps.append(Step(StepKind.KEPT_NO_RETURN, (), 0, counts))
            return
        kept: list[T] = []
        back: list[T] = []
        for card in deal.hand:
            g = self.group(card)
            if wanted[g]:
                wanted[g] -= 1
                back.append(card)
            else:
                kept.append(card)
        pile = deal.rest + back
        shuffle(rng, pile)
        drawn = pile[: rule.count]
        deal.hand, deal.rest = kept + drawn, pile[rule.count :]
        deal.steps.append(Step(StepKind.RETURNED, (), 0, counts, tuple(back), tuple(drawn)))

    def draw_later(self, hand: Sequence[T], pile: Sequence[T]) -> list[T]:
        """The cards held after the later draws, from the top (index 0) of ``pile``.

        With the look-ahead the first draw of each turn looks at the top card first and,
        unless the hook keeps it, puts it at the bottom and draws the next card instead (a
        card put under can come round again when the pile runs through).
        """
        shape = self.shape
        held_cards = list(hand)
        if not shape.later:
            return held_cards
        if not shape.lookahead:
            return held_cards + list(pile[: shape.later])
        fresh = len(pile)  # cards before this index come from the shuffled pile itself
        # A deal takes at most one card more per look than it keeps: when the pile holds them
        # all, a card put under never comes round, and only the top of the pile is copied.
        reads = shape.later - (-shape.later // shape.per_turn)
        queue = list(pile[:reads] if fresh >= reads else pile)
        held = list(self.counts(hand))
        gone = held[:]
        keep_top, group, pos = self.decisions.keep_top, self.group, 0
        for j in range(shape.later):
            look = j % shape.per_turn == 0  # a look puts at most one card under
            while True:
                card = queue[pos]
                g = group(card)
                if pos < fresh:
                    gone[g] += 1
                pos += 1
                if not look or keep_top(held, gone, g):
                    break
                queue.append(card)
                look = False
            held[g] += 1
            held_cards.append(card)
        return held_cards


#: ``choose_redraw(hand_counts, redraws_left)`` -> True to redraw a hand the rule lets go.
RedrawChooser = Callable[[tuple[int, ...], "int | None"], bool]
#: ``keep_top(held, gone, top_group)`` -> True to keep the top card at a look-ahead.
KeepChooser = Callable[[Sequence[int], Sequence[int], int], bool]


class Choices:
    """:class:`Decisions` from plain functions; each one left out has a default.

    Redraw: whenever allowed. Return: keep the hand. Look-ahead: the rule of thumb
    :func:`~deckcheck.draws.policies.lookahead_keep` on ``problem``.
    """

    def __init__(
        self,
        problem: DrawProblem,
        *,
        redraw: RedrawChooser | None = None,
        returned: ReturnChooser | None = None,
        keep_top: KeepChooser | None = None,
    ) -> None:
        self.problem = problem
        self._redraw = redraw
        self._returned = returned
        self._keep_top = keep_top

    def redraw(self, hand: tuple[int, ...], redraws_left: int | None) -> bool:
        """Redraw whenever allowed, unless a chooser says otherwise."""
        return True if self._redraw is None else self._redraw(hand, redraws_left)

    def returned(self, hand: tuple[int, ...]) -> Sequence[int] | None:
        """The chooser's return, or keep the hand."""
        return None if self._returned is None else self._returned(hand)

    def keep_top(self, held: Sequence[int], gone: Sequence[int], top: int) -> bool:
        """The chooser's look-ahead decision, or the rule of thumb."""
        if self._keep_top is None:
            return lookahead_keep(self.problem, held, top)
        return self._keep_top(held, gone, top)
