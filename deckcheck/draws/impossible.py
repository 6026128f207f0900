"""Queries no deal can satisfy, found from counts alone before any engine runs.

Every deal ends with exactly ``query.seen`` cards of the pile seen, whatever the mulligan or
the look-ahead did, so a query is impossible when the counts cannot fit: a condition needs
more matching cards than the pile holds or than are seen, the conditions on one selector
contradict each other, conditions on selectors that no card shares need more cards together
than are seen, or the pile has so few other cards that an upper bound must break. The work is
a few passes over the conditions and groups.
"""

from __future__ import annotations

from deckcheck.draws.answer import Fact, FactKind
from deckcheck.draws.model import DrawProblem, Query, per_object


def _label(problem: DrawProblem, selector: int) -> str:
    labels = problem.selector_labels
    return labels[selector] if selector < len(labels) else f"selector {selector}"


def impossible(problem: DrawProblem, query: Query) -> Fact | None:
    """Why no deal can satisfy ``problem``'s conditions with ``query.seen`` cards, or None.

    A query of alternatives is impossible when each alternative is (the first one's reason).
    """
    if problem.any_of:
        whys = [impossible(problem.alternative(k), query) for k in range(len(problem.any_of))]
        return whys[0] if all(w is not None for w in whys) else None
    seen = query.seen
    pile = problem.pile_size
    least, most, matching, side_by_side = _counts(problem)
    for s, need in least.items():
        label = _label(problem, s)
        if s in most and need > most[s]:
            return Fact(FactKind.IMPOSSIBLE_CONTRADICTION, label=label)
        if need > matching[s]:
            return Fact(FactKind.IMPOSSIBLE_FEW_IN_PILE, limit=need, count=matching[s], label=label)
        if need > seen:
            return Fact(FactKind.IMPOSSIBLE_FEW_SEEN, limit=need, count=seen, label=label)
    for s, top in most.items():
        forced = seen - (pile - matching[s])
        if forced > top:
            return Fact(
                FactKind.IMPOSSIBLE_FORCED, count=forced, limit=top, label=_label(problem, s)
            )
    if side_by_side > seen:
        return Fact(FactKind.IMPOSSIBLE_FEW_SEEN, limit=side_by_side, count=seen)
    return None


# A by-turn table asks about one problem for every turn: what does not depend on the cards
# seen is worked out once.
@per_object(maxsize=16)
def _counts(problem: DrawProblem) -> tuple[dict[int, int], dict[int, int], dict[int, int], int]:
    """Per selector: the least and the most the conditions allow, and the cards of the pile
    that match; and the cards that minimums on selectors no card shares need side by side."""
    least: dict[int, int] = {}
    most: dict[int, int] = {}
    for c in problem.conditions:
        s = c.selector
        least[s] = max(least.get(s, 0), c.op.least(c.threshold))
        top = c.op.most(c.threshold)
        if top is not None:
            most[s] = min(most.get(s, top), top)
    matching = {
        s: sum(
            size
            for size, row in zip(problem.group_sizes, problem.membership, strict=True)
            if row[s]
        )
        for s in least.keys() | most.keys()
    }
    # Selectors that no card matches together need their minimums side by side: pick them
    # greedily, largest minimum first (a lower bound on the cards needed, so never wrong).
    chosen: list[int] = []
    for s in sorted(least, key=lambda s: -least[s]):
        if least[s] and all(not _overlap(problem, s, t) for t in chosen):
            chosen.append(s)
    return least, most, matching, sum(least[s] for s in chosen)


def _overlap(problem: DrawProblem, a: int, b: int) -> bool:
    """Whether some card of the pile matches both selectors."""
    return any(
        size and row[a] and row[b]
        for size, row in zip(problem.group_sizes, problem.membership, strict=True)
    )
