"""``odds``, ``simulate`` and ``odds --distribution``: what is seen of a draw setup.

Exact odds where the maths is in reach (a simulation, said so in the report, where it is not);
conditions joined by ``|`` are read as alternatives (:mod:`deckcheck.analysis.anyof`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from deckcheck.analysis.anyof import DistributionReport, any_of_odds, has_any_of
from deckcheck.analysis.anyof import distribution as category_distribution
from deckcheck.analysis.deadlines import answer_odds
from deckcheck.analysis.odds import OddsOptions, OddsReport, simulate_odds
from deckcheck.analysis.setup import DrawSetup


def odds(
    setup: DrawSetup,
    conditions: Sequence[str],
    options: OddsOptions,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """The odds that all ``conditions`` hold among the cards seen of ``setup``."""
    if has_any_of(conditions):
        return any_of_odds(setup, conditions, options)
    return answer_odds(setup, conditions, options, progress)


def distribution(setup: DrawSetup, selector: str, options: OddsOptions) -> DistributionReport:
    """How many cards matching ``selector`` are seen: P(exactly k), P(at least k), the mean."""
    return category_distribution(setup, selector, options)


def simulate(
    setup: DrawSetup,
    conditions: Sequence[str],
    options: OddsOptions,
    trials: int,
    seed: int | None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """A Monte Carlo estimate over whole deals with its Wilson 95% interval."""
    return simulate_odds(setup, conditions, options, trials, seed, progress)
