"""The abstract draw problem shared by the exact engine and the simulators.

A deck's draw pile is partitioned into *groups*: cards that match exactly the same set of
selectors are interchangeable for the question asked, so only how many of each group are seen
matters. Selectors are numbered; conditions and mulligan triggers refer to them by index.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Concatenate, Literal, ParamSpec, TypeVar

from deckcheck.core.values import frozen
from deckcheck.draws.compare import Comparison


@frozen
class CountTest:
    """``count(cards matching selector) OP threshold``."""

    selector: int
    op: Comparison
    threshold: int

    def __post_init__(self) -> None:
        # Accept the operator as written (">=", "==") and keep the one comparison type.
        object.__setattr__(self, "op", Comparison.parse(self.op))

    def holds(self, count: int) -> bool:
        """Whether a seen count of the selector's cards passes this test."""
        return bool(self.op.holds(count, self.threshold))


@frozen
class DrawProblem:
    """A pile partitioned into groups, and the question asked of the cards seen.

    ``group_sizes[g]`` cards of group ``g`` are in the pile; ``membership[g][s]`` says whether
    a card of group ``g`` matches selector ``s``. ``conditions`` must all hold (the query),
    unless ``any_of`` is given: then the query holds when, for some alternative (indices into
    ``conditions``), all that alternative's conditions hold (an OR of ANDs, ``A | B``).
    ``selector_labels`` are for display only.
    """

    group_sizes: tuple[int, ...]
    membership: tuple[tuple[bool, ...], ...]
    conditions: tuple[CountTest, ...]
    selector_labels: tuple[str, ...] = ()
    any_of: tuple[tuple[int, ...], ...] = ()

    @property
    def pile_size(self) -> int:
        """Cards in the draw pile."""
        return sum(self.group_sizes)

    def selector_counts(self, group_counts: Sequence[int]) -> list[int]:
        """How many cards match each selector, given how many of each group are held."""
        totals = [0] * (len(self.membership[0]) if self.membership else 0)
        matched = self._matched
        for g, k in enumerate(group_counts):
            if k:
                for s in matched[g]:
                    totals[s] += k
        return totals

    @functools.cached_property
    def _matched(self) -> tuple[tuple[int, ...], ...]:
        """Per group, the selectors its cards match (read by every count of a holding)."""
        return tuple(tuple(s for s, m in enumerate(row) if m) for row in self.membership)

    def satisfied(self, group_counts: Sequence[int]) -> bool:
        """Whether the query holds for a holding of ``group_counts`` (every condition, or
        every condition of one alternative of ``any_of``)."""
        totals = self.selector_counts(group_counts)
        if self.any_of:
            conds = self.conditions
            return any(
                all(conds[i].holds(totals[conds[i].selector]) for i in alt) for alt in self.any_of
            )
        for selector, holds, threshold in self._checks:
            if not holds(totals[selector], threshold):
                return False
        return True

    @functools.cached_property
    def _checks(self) -> tuple[tuple[int, Callable[[int, int], bool], int], ...]:
        """Per condition: its selector, its comparison as a function, its threshold."""
        return tuple((c.selector, c.op.function, c.threshold) for c in self.conditions)

    def alternative(self, k: int) -> DrawProblem:
        """The problem asking only the ``k``-th alternative of ``any_of`` (all of it)."""
        return replace(
            self, conditions=tuple(self.conditions[i] for i in self.any_of[k]), any_of=()
        )


@frozen
class RedrawRule:
    """Reshuffle the whole hand and draw a new one, when any trigger holds for the hand.

    Ren Dhark: fewer than 2 ships or more than 3 actions. ``max_redraws`` None = unlimited.
    Triggers use the same selector numbering as the problem (the game adds trigger selectors
    to the partition).
    """

    triggers: tuple[CountTest, ...]
    max_redraws: int | None = 1


@frozen
class ReturnRule:
    """Once, return exactly ``count`` cards of the hand to the pile, shuffle, draw as many.

    Planetary Conquerors: exactly 3. The choice (keep, or which cards to return) is made to
    maximise the query's probability; the returned cards can be drawn again.
    """

    count: int = 3


MulliganRule = RedrawRule | ReturnRule


@frozen
class Procedure:
    """How a game deals: opening hand, draws per turn, mulligan and look-ahead.

    ``lookahead``: before the first draw of each turn the player sees the top card and may put
    it at the bottom (a look-ahead keep, as in Planetary Conquerors). ``extra_seen_second``:
    cards the player who does not start has drawn beyond the opening hand by the start of their
    first turn (Ren Dhark: the refill after the first battle, which the other player began).
    """

    hand_size: int
    hand_size_second: int | None = None
    draws_per_turn: int = 1
    mulligan: MulliganRule | None = None
    lookahead: bool = False
    extra_seen_second: int = 0

    def __post_init__(self) -> None:
        if self.extra_seen_second < 0:
            raise ValueError("extra_seen_second cannot be negative")
        if self.lookahead and self.extra_seen_second:
            # The look-ahead engines count turns from the opening hand; an offset would shift
            # which draw is a turn's first.
            raise ValueError("a look-ahead procedure cannot give the second player extra draws")

    def opening_size(self, second: bool) -> int:
        """Opening hand size for the starting player or the other one."""
        if second and self.hand_size_second is not None:
            return self.hand_size_second
        return self.hand_size

    def with_max_redraws(self, limit: int | None) -> Procedure:
        """The same procedure with a redraw rule's limit set to ``limit`` (None = unlimited).

        A procedure without a redraw rule is returned unchanged.
        """
        if not isinstance(self.mulligan, RedrawRule):
            return self
        return replace(self, mulligan=replace(self.mulligan, max_redraws=limit))

    def seen_by_turn(self, turn: int, second: bool = False) -> int:
        """Cards seen (held) by the start of own turn ``turn`` (1 = the opening hand, plus
        ``extra_seen_second`` for the player who does not start)."""
        extra = self.extra_seen_second if second else 0
        return self.opening_size(second) + extra + self.draws_per_turn * (turn - 1)


@frozen
class Query:
    """One question: how many cards end up seen, whether the mulligan rule applies."""

    seen: int
    second: bool = False
    use_mulligan: bool = True
    turns: int | None = None  # set when the question is "by the start of turn T"


#: How the look-ahead decides: the best decision for the query, or the rule of thumb
#: :func:`~deckcheck.draws.policies.lookahead_keep`.
LookaheadPolicy = Literal["optimal", "heuristic"]


@frozen
class Request:
    """One question to an exact engine: the problem, how the game deals, what is asked, and
    how the player decides a look at the top card (what every engine entry point shares;
    each keeps its own budget and options as keywords)."""

    problem: DrawProblem
    procedure: Procedure
    query: Query
    lookahead: LookaheadPolicy = "optimal"


_P = ParamSpec("_P")
_T = TypeVar("_T")
_R = TypeVar("_R")


def per_object(
    maxsize: int,
) -> Callable[[Callable[Concatenate[_T, _P], _R]], Callable[Concatenate[_T, _P], _R]]:
    """Cache a function of a problem (then hashable arguments) by the problem's identity.

    A by-turn table asks the same questions of one problem for each of its rows, and hashing
    a problem of hundreds of groups (as ``functools.lru_cache`` does at every call) cost more
    than the answers it cached. The cache holds the problem itself, so its identity cannot
    pass to another object while cached. ``cache_clear()`` empties it.
    """

    def wrap(fn: Callable[Concatenate[_T, _P], _R]) -> Callable[Concatenate[_T, _P], _R]:
        memo: dict[tuple[object, ...], tuple[object, _R]] = {}

        @functools.wraps(fn)
        def cached(first: _T, *args: _P.args, **kwargs: _P.kwargs) -> _R:
            key = (id(first), *args, *sorted(kwargs.items()))
            got = memo.get(key)
            if got is not None and got[0] is first:
                return got[1]
            value = fn(first, *args, **kwargs)
            if len(memo) >= maxsize:
                memo.pop(next(iter(memo)))
            memo[key] = (first, value)
            return value

        cached.cache_clear = memo.clear  # type: ignore[attr-defined]
        return cached

    return wrap
