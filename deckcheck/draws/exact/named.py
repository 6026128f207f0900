"""Queries on named cards: each class counted by one selector of its own, and types over them.

What :mod:`~deckcheck.draws.exact.levels` and :mod:`~deckcheck.draws.exact.typed` take
(numpy is imported there, not here: the recursion asks this first).
"""

from __future__ import annotations

from deckcheck.draws.compare import Comparison
from deckcheck.draws.exact.reduced import Reduced, Tracked
from deckcheck.draws.model import CountTest

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
    if any(q not in owners and not _idle(t) for q, t in cond.tests):
        return None  # a test on cards no class holds: the recursion settles it at the start
    out: list[tuple[int, Interval]] = []
    for positions in cond.class_positions:
        if not positions:
            out.append((-1, (0, None)))
            continue
        if len(positions) != 1 or owners[positions[0]] != 1:
            return None
        out.append((positions[0], _interval(cond, positions[0])))
    return out


def _idle(test: CountTest) -> bool:
    """A test every count passes, as :func:`~deckcheck.draws.either.quieted` writes it for a
    selector that picks no card: ``>=0``, which no class reads."""
    return test.op is Comparison.GE and test.threshold == 0


#: A class as the typed level engine sees it: its own position (-1: none), the interval its
#: own tests allow, and the group (a position several classes count for) it counts for (-1:
#: none).
TypedClass = tuple[int, Interval, int]


def _interval(cond: Tracked, p: int) -> Interval:
    lo, hi = 0, None
    for q, t in cond.tests:
        if q == p:
            lo = max(lo, t.op.least(t.threshold))
            most = t.op.most(t.threshold)
            if most is not None:
                hi = most if hi is None else min(hi, most)
    return lo, hi


def typed_kinds(red: Reduced) -> tuple[list[TypedClass], list[Interval]] | None:
    """Per class its :data:`TypedClass`, and per group its interval, for a query whose
    classes each count for at most one position of their own and one group (a type over
    named cards: ``type:building>=2`` and ``name:Stone Bunker>=1``); None when the query is
    not one the typed level engine takes (alternatives, a class counting for two positions
    of its own or two groups, a range no count passes) or has no group.

    A class with a position of its own and no group is made a group of its own when its
    tests leave it many live (held, left) pairs (``type:warrior>=2`` over 21 cards): a count
    and a pool then take a few bits, where a digit per pair would take one each."""
    cond = red.cond
    owners: dict[int, int] = {}
    for positions in cond.class_positions:
        for p in positions:
            owners[p] = owners.get(p, 0) + 1
    if any(q not in owners and not _idle(t) for q, t in cond.tests):
        return None
    group_of: dict[int, int] = {}
    groups: list[Interval] = []
    out: list[TypedClass] = []
    either: set[int] = set()
    if cond.alternatives:
        got = _either_positions(cond, owners)
        if got is None:
            return None
        # At least one card of any of these classes: their sum at least 1, a group.
        either = got
        groups.append((1, None))
    for c, positions in enumerate(cond.class_positions):
        if either.intersection(positions):
            out.append((-1, (0, None), 0))
            continue
        own = [p for p in positions if owners[p] == 1]
        shared = [p for p in positions if owners[p] > 1]
        if len(own) > 1 or len(shared) > 1:
            return None
        g = -1
        if shared:
            if shared[0] not in group_of:
                group_of[shared[0]] = len(groups)
                groups.append(_interval(cond, shared[0]))
            g = group_of[shared[0]]
        if not own:
            out.append((-1, (0, None), g))
            continue
        lo, hi = interval = _interval(cond, own[0])
        if interval == (0, None):
            out.append((-1, (0, None), g))
            continue
        size = red.sizes[c]
        if g < 0 and _pairs(lo, hi, size) > 2 * (_cap(lo, hi).bit_length() + size.bit_length()):
            out.append((-1, (0, None), len(groups)))
            groups.append(interval)
            continue
        out.append((own[0], interval, g))
    if not groups or any(hi is not None and lo > hi for lo, hi in groups):
        return None
    return out, groups


def _cap(lo: int, hi: int | None) -> int:
    """The most a group's count is kept at: its least (no most), else its most."""
    return lo if hi is None else hi


def _pairs(lo: int, hi: int | None, size: int) -> int:
    """(held, left) pairs a class of ``size`` with tests allowing ``lo`` to ``hi`` is live in:
    held below the least, or held at most the most with more left than it allows."""
    return sum(
        1
        for h in range(_cap(lo, hi) + 1)
        for k in range(size - h + 1)
        if h + k >= lo and not (h >= lo and (hi is None or h + k <= hi)) and h != hi
    )


def _either_positions(cond: Tracked, owners: dict[int, int]) -> set[int] | None:
    """The positions of an either-or of ``>=1`` tests (``name:Trooper>=1 | name:Raider>=1``)
    beside tests every alternative shares, each position read by that test alone and
    counted by one class that counts for nothing else: the query is then the shared tests
    and at least one card of those classes. None for any other alternatives."""
    common = set.intersection(*(set(alt) for alt in cond.alternatives))
    positions: set[int] = set()
    for alt in cond.alternatives:
        rest = set(alt) - common
        if len(rest) != 1:
            return None
        p, test = cond.tests[rest.pop()]
        if test.op.least(test.threshold) != 1 or test.op.most(test.threshold) is not None:
            return None
        positions.add(p)
    if len(positions) != len(cond.alternatives):
        return None
    for p in positions:
        readers = sum(1 for q, _ in cond.tests if q == p)
        holders = [ps for ps in cond.class_positions if p in ps]
        if readers != 1 or owners.get(p, 0) != 1 or holders != [(p,)]:
            return None
    return positions
