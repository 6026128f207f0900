"""Questions put in their simplest equal form before any engine runs.

Tests every count passes (:func:`quieted`): a test that holds whatever count of the pile's
matching cards is seen (``>=0``; ``<=N`` with at most ``N`` such cards in the pile) tells no
deal from another, yet its selector splits the pile into more classes and adds a count to
every state of every engine. Its selector is made to pick no card (its count stays 0, which
passes the test as every real count does): the same chance.

Either-or questions (:func:`simplified`; ``A | B``, an OR of ANDs,
:attr:`~deckcheck.draws.model.DrawProblem.any_of`) cost the exact engines per alternative, and
the plain draw one programme per conjunction of them (inclusion–exclusion). Many alternatives
say less than they seem, from the pile's counts alone, whatever the cards seen:

* a test every count of the pile passes (``>=0``; ``<=N`` with at most ``N`` matching cards
  in the pile) says nothing: left out of its alternative;
* an alternative whose tests on one selector leave no count the pile can hold (``=1`` and
  ``<=0``; more than the pile's matching cards) never holds: left out;
* an alternative that holds wherever another one does (each of the other's tests allows every
  count this one's tests on that selector allow) adds nothing to the OR: left out (of two
  alike, the first is kept);
* an alternative with no test left always holds: so does the question.

Each step keeps the event the question asks (the same deals succeed), so every engine's answer,
its mulligan and look-ahead chosen for the event, is the same exact figure.
"""

from __future__ import annotations

from dataclasses import replace

from deckcheck.draws.compare import Comparison
from deckcheck.draws.model import CountTest, DrawProblem

#: A selector's allowed counts, ``(least, most)``, both within the pile's matching cards.
Interval = tuple[int, int]


def _column(problem: DrawProblem, selector: int) -> tuple[bool, ...]:
    """Which groups a selector picks: selectors that pick the same cards count alike (the
    same text asked twice is two selectors of one column)."""
    return tuple(row[selector] for row in problem.membership)


def simplified(problem: DrawProblem) -> DrawProblem:
    """``problem`` asking the same event with its alternatives simplified (see the module);
    a question of one alternative left is asked as a plain AND. Unchanged without
    alternatives, or where every alternative is impossible (the engines say why)."""
    if not problem.any_of:
        return problem
    conds = problem.conditions
    pile: dict[tuple[bool, ...], int] = {}  # per column, the pile's cards it picks
    column: dict[int, tuple[bool, ...]] = {}
    for test in conds:
        col = column[test.selector] = _column(problem, test.selector)
        if col not in pile:
            pile[col] = sum(n for n, picked in zip(problem.group_sizes, col, strict=True) if picked)
    kept: list[tuple[tuple[int, ...], dict[tuple[bool, ...], Interval]]] = []
    for alt in problem.any_of:
        bounds: dict[tuple[bool, ...], Interval] = {}
        for i in alt:
            test = conds[i]
            s = column[test.selector]
            lo, hi = bounds.get(s, (0, pile[s]))
            most = test.op.most(test.threshold)
            bounds[s] = (
                max(lo, test.op.least(test.threshold)),
                hi if most is None else min(hi, most),
            )
        if any(lo > hi for lo, hi in bounds.values()):
            continue  # never holds
        open_ = {s: b for s, b in bounds.items() if b != (0, pile[s])}
        tests = tuple(i for i in alt if column[conds[i].selector] in open_)
        if not tests:
            # Always holds: the question is certain; one of its (empty) tests says so.
            return replace(problem, conditions=(conds[alt[0]],), any_of=())
        kept.append((tests, open_))
    if not kept:
        return problem
    survivors: list[tuple[tuple[int, ...], dict[tuple[bool, ...], Interval]]] = []
    for k, (tests, mine) in enumerate(kept):
        if any(
            j != k and _within(mine, theirs, pile) and (j < k or not _within(theirs, mine, pile))
            for j, (_, theirs) in enumerate(kept)
        ):
            continue  # holds only where another alternative does
        survivors.append((tests, mine))
    if len(survivors) == 1:
        return replace(problem, conditions=tuple(conds[i] for i in survivors[0][0]), any_of=())
    any_of = tuple(tests for tests, _ in survivors)
    return problem if any_of == problem.any_of else replace(problem, any_of=any_of)


def _within(
    mine: dict[tuple[bool, ...], Interval],
    theirs: dict[tuple[bool, ...], Interval],
    pile: dict[tuple[bool, ...], int],
) -> bool:
    """Whether every count vector ``mine`` allows, ``theirs`` allows too."""
    for s, (lo, hi) in theirs.items():
        a, b = mine.get(s, (0, pile[s]))
        if a < lo or b > hi:
            return False
    return True


def idle_selectors(problem: DrawProblem) -> frozenset[int]:
    """The selectors whose every test (of ``problem.conditions``) passes whatever count of the
    pile's matching cards is seen."""
    least: dict[int, int] = {}
    most: dict[int, int | None] = {}
    for t in problem.conditions:
        s = t.selector
        least[s] = max(least.get(s, 0), t.op.least(t.threshold))
        top, held = t.op.most(t.threshold), most.get(s)
        most[s] = top if held is None else held if top is None else min(held, top)
    idle = set()
    for s, lo in least.items():
        top = most[s]
        if lo <= 0 and (top is None or top >= _picked(problem, s)):
            idle.add(s)
    return frozenset(idle)


def _picked(problem: DrawProblem, selector: int) -> int:
    return sum(
        n for n, row in zip(problem.group_sizes, problem.membership, strict=True) if row[selector]
    )


def quieted(problem: DrawProblem) -> DrawProblem:
    """``problem`` with every selector of :func:`idle_selectors` picking no card (a mulligan's
    triggers read selectors of their own), the groups that then match alike merged: the same
    chance of every question on it, fewer classes. Unchanged where none is idle."""
    idle = idle_selectors(problem)
    if not idle:
        return problem
    sizes: dict[tuple[bool, ...], int] = {}
    for size, row in zip(problem.group_sizes, problem.membership, strict=True):
        key = tuple(False if s in idle else m for s, m in enumerate(row))
        sizes[key] = sizes.get(key, 0) + size
    # Their tests written as the one every count passes, ``>=0``, which the level engines
    # know reads no class.
    tests = tuple(
        CountTest(t.selector, Comparison.GE, 0) if t.selector in idle else t
        for t in problem.conditions
    )
    return replace(
        problem, group_sizes=tuple(sizes.values()), membership=tuple(sizes), conditions=tests
    )
