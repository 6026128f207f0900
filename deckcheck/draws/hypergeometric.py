"""The hypergeometric programmes: draws where order does not matter.

* :func:`plain_ways`: a dynamic programme over classes whose state is the capped condition
  counts, with the ways per number of cards taken so far; weights are products of binomial
  coefficients;
* :func:`redraw_ways` (a redraw rule): the same over classes, but each class is split into the
  cards in the opening hand and the cards drawn later, so that "no trigger in the hand" and
  "the conditions hold over all seen cards" are judged jointly.

Both count exact integers (ways), never probabilities.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from deckcheck.draws.reduced import Reduced, Vec


def plain_ways(
    red: Reduced, seen: int, pile: Sequence[int] | None = None, start: Vec | None = None
) -> int:
    """Number of ``seen``-card subsets of the pile on which all conditions hold.

    ``pile`` (cards per class, default the whole pile) and ``start`` (capped counts already
    held, default none) let a mulligan ask the same of what is left after a kept part.

    State: capped counts -> ways per number of cards taken so far (a list), so that each
    (counts, cards of this class) step updates one target with a tight loop. Doomed counts
    (an upper bound broken, or a lower bound out of reach of the classes left) are dropped.
    """
    cond = red.cond
    sizes = red.sizes if pile is None else pile
    origin = cond.zero if start is None else start
    n = len(sizes)
    if n == 0:
        return 1 if seen == 0 and cond.all_hold(origin) else 0
    reach = red.reach(sizes)
    if cond.doomed(origin, reach[0]):
        return 0
    states: dict[Vec, list[int]] = {origin: [1] + [0] * seen}
    for c in range(n - 1):
        size = sizes[c]
        combs = [math.comb(size, k) for k in range(min(size, seen) + 1)]
        new: dict[Vec, list[int]] = {}
        for vec, ways in states.items():
            filled = [(t, w) for t, w in enumerate(ways) if w]
            for k, ck in enumerate(combs):
                nv = cond.bump(vec, c, k)
                if cond.doomed(nv, reach[c + 1]):
                    continue
                target = new.get(nv)
                if target is None:
                    target = new[nv] = [0] * (seen + 1)
                for t, w in filled:
                    if t + k > seen:
                        break
                    target[t + k] += w * ck
        states = new
    # The last class (usually the "matches nothing" remainder) takes whatever is left.
    last = n - 1
    size = sizes[last]
    total = 0
    for vec, ways in states.items():
        for taken, w in enumerate(ways):
            k = seen - taken
            if w and k <= size and cond.all_hold(cond.bump(vec, last, k)):
                total += w * math.comb(size, k)
    return total


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
