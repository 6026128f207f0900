"""Queries on named cards: each class counted by one selector of its own.

What :mod:`~deckcheck.draws.exact.levels` takes (numpy is imported there, not here: the
recursion asks this first).
"""

from __future__ import annotations

from deckcheck.draws.exact.reduced import Reduced

#: Per class kind: the least and most count (None: no most) its tests allow.
Interval = tuple[int, int | None]


#: Per class: its own selector's position (-1: none), the interval its tests allow, and the
#: positions of the lower-bounded selectors it counts for besides (types).
Kind = tuple[int, Interval, tuple[int, ...]]


def named_kinds(red: Reduced) -> tuple[list[Kind], dict[int, int]] | None:
    """Per class its :data:`Kind`, and per type position the least count its tests ask; None
    when the query is not one the level engine takes: alternatives, a class with two
    selectors of its own, a selector with a most that is not one class's own."""
    cond = red.cond
    if cond.alternatives:
        return None
    owners: dict[int, int] = {}
    for positions in cond.class_positions:
        for p in positions:
            owners[p] = owners.get(p, 0) + 1
    interval: dict[int, tuple[int, int | None]] = {}
    for p, t in cond.tests:
        lo, hi = interval.get(p, (0, None))
        lo = max(lo, t.op.least(t.threshold))
        most = t.op.most(t.threshold)
        if most is not None:
            hi = most if hi is None else min(hi, most)
        interval[p] = (lo, hi)
    if any(p not in owners for p in interval):
        return None  # a test on cards the pile does not hold: the recursion settles it
    out: list[Kind] = []
    types: dict[int, int] = {}
    for positions in cond.class_positions:
        own = [p for p in positions if owners[p] == 1]
        if len(own) > 1:
            return None
        mine = own[0] if own else -1
        shared: list[int] = []
        for p in positions:
            if p == mine:
                continue
            lo, hi = interval.get(p, (0, None))
            if hi is not None:
                return None
            if lo > 0:
                shared.append(p)
                types[p] = lo
        out.append((mine, interval.get(mine, (0, None)), tuple(sorted(shared))))
    return out, types
