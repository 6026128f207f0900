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
    states: dict[Key, list[int]] = {(0, trig.zero, cond.zero): [1] + [0] * later}
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
        new: dict[Key, list[int]] = {}
        # Many states share their condition counts: each (counts, cards of this class) is
        # bumped and judged once per class (None: doomed).
        moved: dict[tuple[Vec, int], Vec | None] = {}
        reach_after = reach[c + 1]
        for (a_tot, tvec, cvec), ways in states.items():
            filled = [(t, w) for t, w in enumerate(ways) if w]
            a_hi = min(size, hand - a_tot)
            a_lo = a_hi if final else 0
            if final and a_hi != hand - a_tot:
                continue
            for a in range(a_lo, a_hi + 1):
                ca = math.comb(size, a)
                tvec2 = trig.bump(tvec, c, a)
                rest = size - a
                for b in range(min(rest, later) + 1):
                    if cvec is None:
                        cvec2 = None
                    elif (cvec, a + b) in moved:
                        cvec2 = moved[cvec, a + b]
                    else:
                        cvec2 = cond.bump(cvec, c, a + b)
                        if cond.doomed(cvec2, reach_after):
                            cvec2 = None
                        moved[cvec, a + b] = cvec2
                    key = (a_tot + a, tvec2, cvec2)
                    target = new.get(key)
                    if target is None:
                        target = new[key] = [0] * (later + 1)
                    wab = ca * math.comb(rest, b)
                    for t, w in filled:
                        if t + b > later:
                            break
                        target[t + b] += w * wab
                steps += min(rest, later) + 1
            _within(steps * unit, budget)
        states = new
        _within((steps + len(states) * ahead[c + 1]) * unit, budget)
    success = [0] * (later + 1)
    clean_success = [0] * (later + 1)
    triggered = [0] * (later + 1)
    for (_a, tvec, cvec), ways in states.items():
        ok = cvec is not None and cond.all_hold(cvec)
        fired = trig.any_holds(tvec)
        for t, w in enumerate(ways):
            if ok:
                success[t] += w
            if fired:
                triggered[t] += w
            elif ok:
                clean_success[t] += w
    return list(zip(success, clean_success, triggered, strict=True))


def _within(work: float, budget: int | None) -> None:
    if budget is not None and work > budget:
        raise Intractable(OutOfReach(Reach.WORK, Stage.REDRAW, int(work), budget))
