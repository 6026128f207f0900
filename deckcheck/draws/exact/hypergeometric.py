"""The hypergeometric programmes: draws where order does not matter.

* :func:`plain_ways` (from :mod:`~deckcheck.draws.exact.capped`): a dynamic programme over classes
  whose state is the capped condition counts, with the ways per number of cards taken so far;
* :func:`redraw_ways` (a redraw rule): the same over classes, but each class is split into the
  cards in the opening hand and the cards drawn later, so that "no trigger in the hand" and
  "the conditions hold over all seen cards" are judged jointly.

Both count exact integers (ways), never probabilities.
"""

from __future__ import annotations

import math

from deckcheck.draws.answer import Intractable, OutOfReach, Reach, Stage
from deckcheck.draws.exact.capped import plain_ways
from deckcheck.draws.exact.reduced import Reduced, Vec

__all__ = ["plain_ways", "redraw_table", "redraw_ways"]

#: Tables of :func:`redraw_ways_upto` already computed, per (reduced problem, hand): the most
#: cards seen they cover and the table (a by-turn table reads one for every turn).
_TABLES: dict[tuple[Reduced, int], tuple[int, list[tuple[int, int, int]]]] = {}


def redraw_ways(red: Reduced, hand: int, seen: int) -> tuple[int, int, int]:
    """Ways, over (hand, later draws) pairs, of: success; no trigger and success; trigger.

    The denominator is ``comb(N, hand) * comb(N - hand, seen - hand)``. See
    :func:`redraw_ways_upto`."""
    return redraw_ways_upto(red, hand, seen)[seen - hand]


def redraw_table(
    red: Reduced, hand: int, seen: int, most: int, budget: int | None = None
) -> tuple[int, int, int]:
    """:func:`redraw_ways` for ``seen`` cards, read from one table up to ``most`` cards seen,
    computed once per problem and hand (and kept for the next turns of a table); ``budget``:
    see :func:`redraw_ways_upto`."""
    key = (red, hand)
    got = _TABLES.get(key)
    if got is None or got[0] < seen:
        top = max(seen, most)
        got = (top, redraw_ways_upto(red, hand, top, budget))
        if len(_TABLES) >= 8:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = got
    return got[1][seen - hand]


def redraw_ways_upto(
    red: Reduced, hand: int, most: int, budget: int | None = None
) -> list[tuple[int, int, int]]:
    """:func:`redraw_ways` for every number of cards seen from ``hand`` to ``most`` (entry
    ``seen - hand``), from one pass.

    State: (hand cards
    taken, capped trigger counts of the hand, capped condition counts of all cards) -> ways per
    later cards taken. Condition counts that are doomed collapse into one ``None`` state
    (kept, not dropped: P(trigger) still needs those hands).

    ``budget``: units of work the pass may take (about 2 µs a unit, as the façade's limit; a
    transition weighs half a unit and a quarter per condition). Its states cannot be counted much
    faster than they are computed, so it counts as it goes: past the budget, or once the
    states still open, each taking at least one step a class, would pass it, it stops with
    :class:`~deckcheck.draws.answer.Intractable`.
    """
    cond, trig = red.cond, red.trig
    sizes = red.sizes
    later = most - hand
    n = len(sizes)
    reach = red.reach(sizes)
    Key = tuple[int, Vec, Vec | None]
    # A state's ways per later cards taken are one integer, ``later + 1`` fields of
    # ``width`` bits (field t: the ways with t later cards): taking b more cards is a shift,
    # weighing them one product. A field counts ways to pick the hand and t later cards, at
    # most C(N, hand) * C(N, t) even for the fields past ``later`` a shift makes before they
    # are masked off, so no field overflows into the next.
    pile = sum(sizes)
    width = (
        math.comb(pile, min(hand, pile // 2)) * math.comb(pile, min(2 * later, pile // 2))
    ).bit_length() + 1
    mask = (1 << (width * (later + 1))) - 1
    states: dict[Key, int] = {(0, trig.zero, cond.zero): 1}
    steps = 0
    # Units per transition: its bookkeeping grows with the conditions (measured 2.2 µs with
    # four, 6.5 µs with ten).
    unit = (2 + len(cond.tests)) / 4
    # ahead[c]: the fewest steps one state takes over classes c, c + 1, ...: drawing none of
    # a class into the hand; nothing in the last class (a state that cannot finish the hand
    # there is dropped).
    ahead = [0] * (n + 1)
    for c in range(n - 2, -1, -1):
        ahead[c] = ahead[c + 1] + min(sizes[c], later) + 1
    for c in range(n):
        size = sizes[c]
        final = c == n - 1
        new: dict[Key, int] = {}
        # Many states share their condition counts: each (counts, cards of this class) is
        # bumped and judged once per class (None: doomed).
        moved: dict[Vec, list[Vec | None]] = {}
        reach_after = reach[c + 1]
        # Per cards a in the hand: C(size, a), and per later cards b: C(size - a, b) at field b.
        hand_ways = [math.comb(size, a) for a in range(size + 1)]
        later_ways = [
            [(b, math.comb(size - a, b) << (width * b)) for b in range(min(size - a, later) + 1)]
            for a in range(size + 1)
        ]
        for (a_tot, tvec, cvec), ways in states.items():
            a_hi = min(size, hand - a_tot)
            a_lo = a_hi if final else 0
            if final and a_hi != hand - a_tot:
                continue
            if cvec is None:
                after: list[Vec | None] = [None] * (size + 1)
            elif (got := moved.get(cvec)) is not None:
                after = got
            else:
                after = moved[cvec] = [
                    None if cond.doomed(v := cond.bump(cvec, c, k), reach_after) else v
                    for k in range(size + 1)
                ]
            for a in range(a_lo, a_hi + 1):
                held = ways * hand_ways[a]
                tvec2 = trig.bump(tvec, c, a)
                total = a_tot + a
                for b, pick in later_ways[a]:
                    key = (total, tvec2, after[a + b])
                    new[key] = new.get(key, 0) + ((held * pick) & mask)
                steps += len(later_ways[a])
            _within(steps * unit, budget)
        states = new
        _within((steps + len(states) * ahead[c + 1]) * unit, budget)
    success = clean = fired_ways = 0
    for (_a, tvec, cvec), ways in states.items():
        ok = cvec is not None and cond.all_hold(cvec)
        if trig.any_holds(tvec):
            fired_ways += ways
            if ok:
                success += ways
        elif ok:
            success += ways
            clean += ways
    field = (1 << width) - 1
    success_at = [(success >> (width * t)) & field for t in range(later + 1)]
    clean_success = [(clean >> (width * t)) & field for t in range(later + 1)]
    triggered = [(fired_ways >> (width * t)) & field for t in range(later + 1)]
    return list(zip(success_at, clean_success, triggered, strict=True))


def _within(work: float, budget: int | None) -> None:
    if budget is not None and work > budget:
        raise Intractable(OutOfReach(Reach.WORK, Stage.REDRAW, int(work), budget))
