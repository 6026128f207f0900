"""Queries on named cards: each class counted by one selector of its own.

What :mod:`~deckcheck.draws.exact.levels` takes (numpy is imported there, not here: the
recursion asks this first).
"""

from __future__ import annotations

from deckcheck.draws.exact.reduced import Reduced

#: Per class kind: the least and most count (None: no most) its tests allow.
Interval = tuple[int, int | None]


def named_kinds(red: Reduced) -> list[tuple[int, Interval]] | None:
    """Per class, its tracked position's interval (position -1: no test reads it), or None
    when the query is not one this engine takes: a class counted by more than one selector,
    a selector counting more than one class, a test reading no class, alternatives."""
    cond = red.cond
    if cond.alternatives:
        return None
    owners: dict[int, int] = {}
    for positions in cond.class_positions:
        for p in positions:
            owners[p] = owners.get(p, 0) + 1
    if any(q not in owners for q, _ in cond.tests):
        return None  # a test on cards no class holds: the recursion settles it at the start
    out: list[tuple[int, Interval]] = []
    for positions in cond.class_positions:
        if not positions:
            out.append((-1, (0, None)))
            continue
        if len(positions) != 1 or owners[positions[0]] != 1:
            return None
        p = positions[0]
        lo, hi = 0, None
        for q, t in cond.tests:
            if q == p:
                lo = max(lo, t.op.least(t.threshold))
                most = t.op.most(t.threshold)
                if most is not None:
                    hi = most if hi is None else min(hi, most)
        out.append((p, (lo, hi)))
    return out
