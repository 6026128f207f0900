"""The largest set of decks a collection builds at once, proven (``owned --most``).

Each deck ``d`` needs ``a[d][c]`` copies of card ``c``; the collection holds ``b[c]``. A set of
decks can be built at once when, for every card, the copies its decks need together are at most
``b[c]``. Maximising the number of decks in such a set is an integer programme (a
multi-dimensional knapsack): binary ``x[d]``, maximise ``sum x``, subject to
``sum_d a[d][c] x[d] <= b[c]`` for every card. HiGHS (through ``scipy.optimize.milp``, imported
here only) solves it to proven optimality (relative gap 0). Ties are broken towards the decks
given first: deck by deck in order, a deck is taken when some largest set holds it together
with the decks already taken (one feasibility solve each, the size held at the maximum), which
gives the largest set that is first in the order given. Only the cards the decks together need
more of than the collection holds make constraints, and only decks needing one of them are
variables: the others are in every largest set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deckcheck.core.values import frozen

TIE_RULE = "among sets of that size, the one that takes the decks given first (a folder's by name)"
"""How ties between largest sets are broken, as the result says it."""


@frozen
class Largest:
    """The decks (indices into those given) of the largest set buildable at once, and whether
    the solver proved it (always, unless HiGHS stopped without a proof)."""

    decks: tuple[int, ...]
    proven: bool
    solves: int = 0


def largest_buildable(needs: Sequence[Mapping[Any, int]], held: Mapping[Any, int]) -> Largest:
    """The largest set of the decks ``needs`` (each: card -> copies) that ``held`` (card ->
    copies) builds at once; ties to the decks given first (see the module)."""
    total: dict[Any, int] = {}
    for need in needs:
        for card, n in need.items():
            total[card] = total.get(card, 0) + n
    short = [card for card, n in total.items() if n > held.get(card, 0)]
    if not short:
        return Largest(tuple(range(len(needs))), True)
    shortset = set(short)
    contending = [d for d, need in enumerate(needs) if any(c in shortset for c in need)]
    free = [d for d in range(len(needs)) if d not in set(contending)]
    chosen, proven, solves = _solve(
        [[needs[d].get(c, 0) for d in contending] for c in short],
        [held.get(c, 0) for c in short],
    )
    picked = {contending[i] for i in chosen}
    return Largest(tuple(sorted(picked | set(free))), proven, solves)


def _solve(rows: list[list[int]], caps: list[int]) -> tuple[list[int], bool, int]:
    """Indices of the largest set (first in order among ties), whether proven, solves made."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    k = len(rows[0]) if rows else 0
    a = np.array(rows, dtype=float)
    b = np.array(caps, dtype=float)
    cost = -np.ones(k)
    integrality = np.ones(k)
    options = {"mip_rel_gap": 0.0, "disp": False}
    solves = 0

    def run(lower: np.ndarray, upper: np.ndarray, size: int | None) -> Any:
        nonlocal solves
        solves += 1
        constraints = [LinearConstraint(a, -np.inf, b)]
        if size is not None:
            constraints.append(LinearConstraint(np.ones((1, k)), size, size))
        return milp(
            cost,
            constraints=constraints,
            integrality=integrality,
            bounds=Bounds(lower, upper),
            options=options,
        )

    lower, upper = np.zeros(k), np.ones(k)
    first = run(lower, upper, None)
    if first.status != 0 or first.x is None:  # never for this programme: x = 0 is feasible
        return [], False, solves
    x = [round(v) for v in first.x]
    size = sum(x)
    for i in range(k):
        if x[i] == 1:
            lower[i] = 1.0  # the current largest set holds it: taken
            continue
        lower[i] = 1.0
        trial = run(lower, upper, size)
        if trial.status == 0 and trial.x is not None:
            x = [round(v) for v in trial.x]
            continue
        lower[i], upper[i] = 0.0, 0.0
    picked = [i for i in range(k) if x[i] == 1]
    # the set is checked in integers, whatever the solver's tolerances
    assert all(sum(row[i] for i in picked) <= cap for row, cap in zip(rows, caps, strict=True))
    return picked, True, solves
