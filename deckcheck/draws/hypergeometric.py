"""The hypergeometric programmes: draws where order does not matter.

* :func:`plain_ways` (from :mod:`~deckcheck.draws.capped`): a dynamic programme over classes
  whose state is the capped condition counts, with the ways per number of cards taken so far;
* :func:`redraw_ways` (a redraw rule): the same over classes, but each class is split into the
  cards in the opening hand and the cards drawn later, so that "no trigger in the hand" and
  "the conditions hold over all seen cards" are judged jointly.

Both count exact integers (ways), never probabilities.
"""

from __future__ import annotations

import math

from deckcheck.draws.capped import plain_ways
from deckcheck.draws.reduced import Reduced, Vec

__all__ = ["plain_ways", "redraw_ways"]


def redraw_ways(red: Reduced, hand: int, seen: int) -> tuple[int, int, int]:
    """Ways, over (hand, later draws) pairs, of: success; no trigger and success; trigger.

    The denominator is ``comb(N, hand) * comb(N - hand, seen - hand)``. State: (hand cards
    taken, capped trigger counts of the hand, capped condition counts of all cards) -> ways per
    later cards taken. Condition counts that are doomed collapse into one ``None`` state
    (kept, not dropped: P(trigger) still needs those hands).
    """
    cond, trig = red.cond, red.trig
    sizes = red.sizes
    later = seen - hand
    n = len(sizes)
    reach = red.reach(sizes)
    Key = tuple[int, Vec, Vec | None]
    states: dict[Key, list[int]] = {(0, trig.zero, cond.zero): [1] + [0] * later}
    for c in range(n):
        size = sizes[c]
        final = c == n - 1
        new: dict[Key, list[int]] = {}
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
                    else:
                        cvec2 = cond.bump(cvec, c, a + b)
                        if cond.doomed(cvec2, reach[c + 1]):
                            cvec2 = None
                    key = (a_tot + a, tvec2, cvec2)
                    target = new.get(key)
                    if target is None:
                        target = new[key] = [0] * (later + 1)
                    wab = ca * math.comb(rest, b)
                    for t, w in filled:
                        if t + b > later:
                            break
                        if final and t + b != later:
                            continue
                        target[t + b] += w * wab
        states = new
    success = clean_success = triggered = 0
    for (_a, tvec, cvec), ways in states.items():
        w = ways[later]
        ok = cvec is not None and cond.all_hold(cvec)
        if ok:
            success += w
        if trig.any_holds(tvec):
            triggered += w
        elif ok:
            clean_success += w
    return success, clean_success, triggered
