"""How a simulated plain deal's counts per group are sampled, chosen from the pile's shape.

Pure Python (no numpy), so that the façade can cost a simulation before deciding to run one;
the numpy sampler (:class:`deckcheck.draws.simulate.vectorised.FixedPileSampler`) deals by
the method chosen here. Every method is exact (a uniformly random subset of the pile); they
differ in cost, measured per 65,536 deals on one core (numpy 2):

* ``TABLES``: one group after another, by look-up in small exact tables of the conditional
  hypergeometric distribution: about 1.4 ms per group (the largest group is free);
* ``COUNT``: numpy's ``multivariate_hypergeometric`` (method "count"): 3 to 15 ms for a short
  deal over a few dozen groups, but erratic over hundreds (0.5 s for 7 cards from 359);
* ``MARGINALS``: the same function's "marginals" method, for long deals over many groups,
  whose tables would take longer to build than to deal from: about 8 ms per group;
* ``POSITIONS``: the deal's card positions themselves (a position drawn twice in one deal is
  drawn again), then the group of each: about 5 ms per card, so the method for a few cards
  from hundreds of groups (12,000 cards in 359 groups: 26 cards in 66 ms instead of 338).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import Enum

#: Most entries a sampling table may hold: past it, numpy's marginal method deals instead.
TABLE_MAX_CELLS = 200_000
#: numpy's "count" method deals a deal this short over at least this many groups (where one
#: look-up per group costs more than one random number per card).
COUNT_MAX_CARDS = 8
COUNT_MIN_STEPS = 5
#: Positions are dealt over this many groups and more, when duplicates are rare (the cards
#: dealt, squared, at most the pile): below, the tables are as fast or faster.
POSITIONS_MIN_STEPS = 100
#: Where the tables would be too large, positions still beat the marginal method with this
#: many times more duplicates (206 cards of 9,667 in 359 groups: 0.7 s against 0.93 s).
POSITIONS_OVER_MARGINALS = 5


class SamplingMethod(Enum):
    """How :class:`~deckcheck.draws.simulate.vectorised.FixedPileSampler` deals (see the module)."""

    TABLES = "tables"
    COUNT = "count"
    MARGINALS = "marginals"
    POSITIONS = "positions"


def table_steps(sizes: Sequence[int], n: int) -> list[int]:
    """The groups a table deal of ``n`` cards steps through, smallest first: every group but
    the largest (which takes what is left), and none that can hold no card."""
    return list(_table_steps(tuple(sizes), n))


@functools.lru_cache(maxsize=1024)
def _table_steps(sizes: tuple[int, ...], n: int) -> tuple[int, ...]:
    order = sorted(range(len(sizes)), key=lambda g: sizes[g])
    return tuple(g for g in order[:-1] if min(sizes[g], n))


def sampling_method(sizes: Sequence[int], n: int, built_for: int | None = None) -> SamplingMethod:
    """The method that deals ``n`` cards from the pile ``sizes`` (cards per group).

    ``built_for``: the cards the sampler's tables were built for, when it is shared by the
    shorter deals of a by-turn table (its tables, or their absence, are what it has).
    """
    return _method(tuple(sizes), n, n if built_for is None else built_for)


# The rows of a by-turn table ask again for every number of cards.
@functools.lru_cache(maxsize=1024)
def _method(sizes: tuple[int, ...], n: int, top: int) -> SamplingMethod:
    steps = table_steps(sizes, n)
    many_groups = len(steps) >= POSITIONS_MIN_STEPS
    if many_groups and n * n <= sum(sizes):
        return SamplingMethod.POSITIONS
    if n <= COUNT_MAX_CARDS and len(steps) >= COUNT_MIN_STEPS:
        return SamplingMethod.COUNT
    cells = sum((top + 1) * min(sizes[g], top) for g in table_steps(sizes, top))
    if cells <= TABLE_MAX_CELLS:
        return SamplingMethod.TABLES
    # Against the marginal method, positions win while duplicates stay few.
    if many_groups and n * n <= POSITIONS_OVER_MARGINALS * sum(sizes):
        return SamplingMethod.POSITIONS
    return SamplingMethod.MARGINALS
