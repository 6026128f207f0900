"""What an answer says about itself: how it was computed and what it assumed, as data.

The engines report :class:`Method` and :class:`Fact` values, never sentences; one place,
:mod:`deckcheck.draws.wording`, turns them into words for people, and callers choose which
facts they already say in their own terms by :class:`FactKind`, not by matching text.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from deckcheck.core.values import frozen


class Method(StrEnum):
    """How a figure was obtained. The value is the method's name as the reports print it."""

    HYPERGEOMETRIC = "exact (hypergeometric)"
    LOOKAHEAD = "exact (look-ahead, dynamic programming)"
    REDRAW = "exact (hypergeometric, redraw rule)"
    REDRAW_LOOKAHEAD = "exact (redraw rule, look-ahead, dynamic programming)"
    RETURN = "exact (optimal mulligan, dynamic programming)"
    RETURN_LOOKAHEAD = "exact (optimal mulligan, look-ahead, dynamic programming)"
    OPTIMAL_REDRAW = "exact (optimal redraw, enumeration)"
    IMPOSSIBLE = "exact (impossible: no deal can satisfy the conditions)"
    SIMULATION_REFERENCE = "simulation (reference, card by card)"
    SIMULATION_VECTORISED = "simulation (numpy, vectorised)"

    @property
    def exact(self) -> bool:
        """Whether the method gives an exact figure (else a Monte Carlo estimate)."""
        return not self.name.startswith("SIMULATION")


class FactKind(Enum):
    """One thing an answer assumed or ran into. Parameters travel in :class:`Fact`."""

    #: The look-ahead keeps or puts under the top card by the fixed rule of thumb.
    LOOKAHEAD_HEURISTIC = "lookahead-heuristic"
    #: The look-ahead keeps or puts under the top card, whichever gives the better chance.
    LOOKAHEAD_OPTIMAL = "lookahead-optimal"
    #: The optimal look-ahead is out of reach: the simulated player follows the rule of thumb.
    LOOKAHEAD_HEURISTIC_INSTEAD = "lookahead-heuristic-instead"
    #: The redraw rule is played as "redraw whenever allowed" (``limit`` redraws, None = any).
    REDRAW_WHENEVER_ALLOWED = "redraw-whenever-allowed"
    #: Every possible hand allows a redraw, so "redraw whenever allowed" changes nothing.
    EVERY_HAND_REDRAWS = "every-hand-redraws"
    #: The redraw is played optimally for the query (only when it raises the chance).
    REDRAW_OPTIMAL = "redraw-optimal"
    #: How many redraws the optimal policy may use (``limit``, None = as many as it likes).
    OPTIMAL_REDRAW_LIMIT = "optimal-redraw-limit"
    #: The mulligan is off or the rule has no trigger: nothing is ever redrawn.
    REDRAW_INACTIVE = "redraw-inactive"
    #: Every hand allows a redraw; the optimal value is that of waiting for a best hand.
    EVERY_HAND_REDRAWS_OPTIMAL = "every-hand-redraws-optimal"
    #: Each simulated redraw decision is the exact optimum's for that hand.
    REDRAW_OPTIMAL_SIMULATED = "redraw-optimal-simulated"
    #: The optimal redraw table is out of reach: the simulated player redraws an allowed hand
    #: unless it already meets every condition.
    REDRAW_UNLESS_MET = "redraw-unless-met"
    #: The return-cards mulligan is chosen optimally for the query.
    RETURN_OPTIMAL = "return-optimal"
    #: The return-cards mulligan follows the fixed greedy choice (the optimum out of reach).
    RETURN_GREEDY = "return-greedy"
    #: The hand holds fewer cards than the rule returns (``count``): no mulligan.
    HAND_TOO_SMALL_TO_RETURN = "hand-too-small-to-return"
    #: ``count`` simulated trials stopped redrawing at the cap of ``limit`` redraws.
    REDRAW_CAP_REACHED = "redraw-cap-reached"
    #: The simulation could not start worker processes and ran in one.
    WORKERS_UNAVAILABLE = "workers-unavailable"
    #: The exact engine was out of reach (``reason``); ``count`` trials were simulated instead.
    SIMULATED_INSTEAD = "simulated-instead"
    #: Impossible: only ``count`` cards of the pile match ``label``, a condition needs ``limit``.
    IMPOSSIBLE_FEW_IN_PILE = "impossible-few-in-pile"
    #: Impossible: conditions need at least ``limit`` cards, only ``count`` are seen.
    IMPOSSIBLE_FEW_SEEN = "impossible-few-seen"
    #: Impossible: the conditions on ``label`` contradict each other.
    IMPOSSIBLE_CONTRADICTION = "impossible-contradiction"
    #: Impossible: at least ``count`` of the cards seen match ``label``, at most ``limit`` may.
    IMPOSSIBLE_FORCED = "impossible-forced"


@frozen
class Fact:
    """A :class:`FactKind` with its parameters (which ones depends on the kind)."""

    kind: FactKind
    limit: int | None = None
    count: int | None = None
    reason: OutOfReach | None = None
    label: str = ""


def lookahead_fact(optimal: bool) -> Fact:
    """The fact that says how the look-ahead decides."""
    return Fact(FactKind.LOOKAHEAD_OPTIMAL if optimal else FactKind.LOOKAHEAD_HEURISTIC)


class Reach(Enum):
    """Why an exact computation is out of reach."""

    #: More steps than the work limit (``stage`` says which computation, ``work`` of ``limit``).
    WORK = "work"
    #: More steps estimated before starting (``work``) than answer within a second (``limit``).
    ESTIMATE = "estimate"
    #: The look-ahead could run through the whole pile (``seen`` + ``looks`` put under > ``pile``).
    LOOKAHEAD_WRAPS = "lookahead-wraps"
    #: The exact fraction would be too long to print (``work`` digits, ``limit`` allowed).
    DIGITS = "digits"
    #: The look-ahead policy treats cards that change no count differently.
    POLICY = "policy"
    #: Any other reason, in ``text``.
    OTHER = "other"


class Stage(StrEnum):
    """Which exact computation ran out of reach (the value names it for people)."""

    SEQUENTIAL = "look-ahead / mulligan"
    EXACT = "exact engine"
    OPTIMAL_MULLIGAN = "optimal mulligan"
    REDRAW_LOOKAHEAD = "redraw with look-ahead"
    REDRAW = "redraw whenever allowed"
    OPTIMAL_REDRAW = "optimal redraw"
    OPTIMAL_REDRAW_LOOKAHEAD = "optimal redraw with look-ahead"


@frozen
class OutOfReach:
    """Why an exact computation gave up, with its numbers."""

    reach: Reach
    stage: Stage | None = None
    work: int = 0
    limit: int = 0
    seen: int = 0
    looks: int = 0
    pile: int = 0
    redraws: int = 0
    text: str = ""
