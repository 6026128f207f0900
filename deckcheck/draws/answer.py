"""The answer of every draw computation, and what it says about itself, as data and in words.

The engines report :class:`Method` and :class:`Fact` values, never sentences; one place, the
wording functions below (:func:`fact_text`, :func:`reason_text`, :func:`method_text`), turns
them into words for people, and callers choose which facts they already say in their own terms
by :class:`FactKind`, not by matching text. :class:`Answer` is the one result type, exact or
simulated; :class:`Intractable` signals that an exact computation is out of reach, with the
reason as data; :func:`wilson_interval` gives a simulated answer its confidence interval.
"""

from __future__ import annotations

import math
from enum import Enum, StrEnum
from fractions import Fraction

from deckcheck.core.values import frozen

#: A refused attempt's look-ahead states: (the engine's signature, its memo, the calls it took).
KnownStates = tuple[object, dict[tuple[object, ...], int], int]

# ----------------------------------------------------------------------------------------------
# Facts: how an answer was computed and what it assumed
# ----------------------------------------------------------------------------------------------


class Method(StrEnum):
    """How a figure was obtained. The value is the method's name as the reports print it."""

    HYPERGEOMETRIC = "exact (hypergeometric)"
    LOOKAHEAD = "exact (look-ahead, dynamic programming)"
    REDRAW = "exact (hypergeometric, redraw rule)"
    REDRAW_LOOKAHEAD = "exact (redraw rule, look-ahead, dynamic programming)"
    RETURN = "exact (optimal mulligan, dynamic programming)"
    RETURN_LOOKAHEAD = "exact (optimal mulligan, look-ahead, dynamic programming)"
    OPTIMAL_REDRAW = "exact (optimal redraw, enumeration)"
    DEADLINES = "exact (a deadline per condition, dynamic programming)"
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
    #: The optimal look-ahead is out of reach: the simulated player follows the rule of thumb
    #: (``reason``: the bound its tables hit, where a simulation asked for tried them).
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
    #: The return-cards mulligan follows the fixed greedy choice (the optimum out of reach;
    #: ``reason`` as for :attr:`LOOKAHEAD_HEURISTIC_INSTEAD`).
    RETURN_GREEDY = "return-greedy"
    #: The hand holds fewer cards than the rule returns (``count``): no mulligan.
    HAND_TOO_SMALL_TO_RETURN = "hand-too-small-to-return"
    #: ``count`` simulated trials stopped redrawing at the cap of ``limit`` redraws.
    REDRAW_CAP_REACHED = "redraw-cap-reached"
    #: The exact engine was out of reach (``reason``); ``count`` trials were simulated instead.
    SIMULATED_INSTEAD = "simulated-instead"
    #: The fewest trials a run takes (``count``) cost more than its simulation budget, which
    #: affords ``limit``: they run anyway, past about a second.
    TRIALS_OVER_BUDGET = "trials-over-budget"
    #: The exact engine was not tried for this row of a table of turns: a row seeing fewer
    #: cards (``count``) was already out of reach (the reason given is that row's).
    NOT_TRIED_AFTER = "not-tried-after"
    #: The simulated player's decisions were read from exact tables that value its chance on
    #: the way: ``values`` (with the mulligan, without it), said rather than thrown away.
    PLAYER_EXACT = "player-exact"
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
    values: tuple[Fraction, ...] = ()


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
    #: The exact attempt was skipped, not tried: the row before in a table of turns took
    #: ``work`` units of exact work, more than the ``limit`` the table had left (a row seeing
    #: more cards takes more, as a rule: not a proof that this one would not fit).
    SKIPPED = "skipped"
    #: A plain table of turns answers its rows from one programme, the rows sharing the work
    #: limit, each costed as if computed on its own: the rows up to the one seeing ``seen``
    #: cards come to ``work``, over the ``limit``. No row past the table's exact ones was
    #: asked on its own (asked alone, a turn may be exact).
    TABLE = "table"
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
    DEADLINES = "deadlines per condition"


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


# ----------------------------------------------------------------------------------------------
# Words for people: the one place that turns methods, facts and reasons into sentences
# ----------------------------------------------------------------------------------------------


def method_text(method: Method) -> str:
    """The method as reports print it."""
    return method.value


def _times(limit: int) -> str:
    return "once" if limit == 1 else f"{limit} times"


def reason_text(reason: OutOfReach) -> str:
    """Why an exact computation was out of reach."""
    if reason.reach is Reach.LOOKAHEAD_WRAPS:
        return (
            f"the look-ahead could run through the whole pile ({reason.seen} seen plus up to "
            f"{reason.looks} put under, from {reason.pile})"
        )
    if reason.reach is Reach.DIGITS:
        return (
            f"{reason.stage}: {reason.redraws:,} redraws make an exact fraction of about "
            f"{reason.work:,} digits, past Python's limit of {reason.limit:,}"
        )
    if reason.reach is Reach.POLICY:
        return "the look-ahead policy treats inert cards differently"
    if reason.reach is Reach.ESTIMATE:
        return (
            f"about {reason.work:,} steps estimated before starting, over the "
            f"{reason.limit:,} that answer within about a second"
        )
    if reason.reach is Reach.SKIPPED:
        return (
            f"the turn before took {reason.work:,} units of exact work, more than the "
            f"{reason.limit:,} the table has left (a turn seeing more cards takes more, as a "
            "rule, not a proof: asked on its own, with the whole work limit, this turn may be "
            "exact)"
        )
    if reason.reach is Reach.TABLE:
        return (
            f"the table's rows up to the turn seeing {reason.seen} cards, each costed as "
            f"computed on its own, come to about {reason.work:,} steps, over the "
            f"{reason.limit:,} the table shares (the turns past its exact ones were not tried "
            "on their own: asked alone, with the whole work limit, a turn may be exact)"
        )
    if reason.reach is Reach.OTHER:
        return reason.text
    if reason.text:  # the bound in words of the stage's own (``work`` of ``limit`` as data)
        return f"{reason.stage}: {reason.text}"
    if reason.work:
        return (
            f"{reason.stage}: about {reason.work:,} steps, over the exact budget of "
            f"{reason.limit:,} steps"
        )
    return f"{reason.stage}: over the exact budget of {reason.limit:,} steps"


#: The reasons that say the exact engine was not asked about the figure itself.
NOT_ASKED = frozenset({Reach.SKIPPED, Reach.TABLE})


def _simulated_head(reason: OutOfReach | None) -> str:
    if reason is not None and reason.reach in NOT_ASKED:
        return "exact attempt skipped, not tried"
    return "exact computation out of reach"


def simulated_why(reason: OutOfReach | None, after: int | None = None, asked: bool = False) -> str:
    """Why a figure was simulated, in a sentence: ``reason`` the bound hit (None: a
    simulation was asked for); ``after`` the cards seen of the earlier turn whose bound a row
    of a table takes without trying (see :attr:`FactKind.NOT_TRIED_AFTER`); ``asked``: a
    simulation was asked for, and ``reason`` is the bound its optimal player's tables hit."""
    if reason is None:
        return "a simulation was asked for"
    if asked:
        return (
            "a simulation was asked for; the optimal player's tables are out of reach "
            f"({reason_text(reason)}): its choices are made by rules of thumb"
        )
    why = f"{_simulated_head(reason)}: {reason_text(reason)}"
    if after is not None:
        why += "; " + fact_text(Fact(FactKind.NOT_TRIED_AFTER, count=after))
    return why


def player_exact_odds(fact: Fact) -> str:
    """Whether ``odds`` gives the figure of a :attr:`FactKind.PLAYER_EXACT` fact: it does
    (the tables are those ``odds`` builds, within its work limit; or the optimal redraw's
    solve, which ``odds`` runs too) unless its ``label`` names a choice the player makes by a
    rule of thumb."""
    if fact.label:
        return (
            f"its {fact.label} by the rule of thumb, its other choices optimal: not the "
            "optimal player's chance, so not the figure odds gives"
        )
    return "the figure odds gives, exactly"


def odds_gives_it(fact: Fact) -> bool:
    """Whether ``odds`` gives the figure of a :attr:`FactKind.PLAYER_EXACT` fact (see
    :func:`player_exact_odds`)."""
    return not fact.label


def _bound_hit(fact: Fact) -> str:
    """The bound a simulated player's tables hit, in brackets (where the fact names it)."""
    return f" ({reason_text(fact.reason)})" if fact.reason is not None else ""


def fact_text(fact: Fact) -> str:
    """One fact as a sentence."""
    kind = fact.kind
    if kind is FactKind.LOOKAHEAD_HEURISTIC:
        return (
            "each turn's first draw looks at the top card first: a card that would break "
            "an upper bound goes under, one that advances an unmet condition is kept, any "
            "other is kept only while an upper bound is one card from breaking"
        )
    if kind is FactKind.LOOKAHEAD_OPTIMAL:
        return (
            "each turn's first draw looks at the top card first: it is kept or put under, "
            "whichever gives the better chance of this query (optimal play, exact)"
        )
    if kind is FactKind.LOOKAHEAD_HEURISTIC_INSTEAD:
        return (
            f"the optimal look-ahead is out of reach here{_bound_hit(fact)}: the simulated "
            "player keeps or puts under the top card by a rule of thumb (a card that would "
            "break an upper bound goes under, one that advances an unmet condition is kept)"
        )
    if kind is FactKind.REDRAW_WHENEVER_ALLOWED:
        if fact.limit is None:
            return "redraw whenever allowed, as often as allowed"
        return f"redraw whenever allowed, at most {_times(fact.limit)}"
    if kind is FactKind.EVERY_HAND_REDRAWS:
        return "every hand allows a redraw: redrawing changes nothing"
    if kind is FactKind.REDRAW_OPTIMAL:
        return "redraw only when it raises the chance of this query"
    if kind is FactKind.OPTIMAL_REDRAW_LIMIT:
        if fact.limit is None:
            return "as many redraws as the rule allows (best stationary policy)"
        if fact.limit == 0:
            return "no redraw allowed (max_redraws = 0)"
        return (
            f"at most {_times(fact.limit)}; later decisions use the value of the redraws then left"
        )
    if kind is FactKind.REDRAW_INACTIVE:
        return "no redraw: the mulligan is off or the rule has no trigger"
    if kind is FactKind.EVERY_HAND_REDRAWS_OPTIMAL:
        return (
            "every hand allows a redraw: the value is that of redrawing until a best "
            "hand comes (max over hands of the chance of success if kept)"
        )
    if kind is FactKind.REDRAW_OPTIMAL_SIMULATED:
        return "each redraw decision is the exact optimum's for that hand"
    if kind is FactKind.REDRAW_UNLESS_MET:
        return (
            "the exact optimal redraw is out of reach here: the simulated player redraws "
            "an allowed hand unless it already meets every condition"
        )
    if kind is FactKind.RETURN_OPTIMAL:
        return "mulligan choice is optimal for this query"
    if kind is FactKind.RETURN_GREEDY:
        return (
            f"the optimal return is out of reach here{_bound_hit(fact)}: the simulated player "
            "returns cards that advance no unmet condition"
        )
    if kind is FactKind.HAND_TOO_SMALL_TO_RETURN:
        return f"the hand is too small to return {fact.count} cards: no mulligan"
    if kind is FactKind.REDRAW_CAP_REACHED:
        return f"redraw limit of {fact.limit} reached in {fact.count} trials; hand kept"
    if kind is FactKind.SIMULATED_INSTEAD:
        why = reason_text(fact.reason) if fact.reason is not None else "too large"
        return f"{_simulated_head(fact.reason)} ({why}): simulated, {fact.count:,} trials"
    if kind is FactKind.TRIALS_OVER_BUDGET:
        return (
            f"the deals are dearer than the simulation's budget: the fewest trials a run "
            f"takes, {fact.count:,}, run anyway (the budget affords {fact.limit:,}), so the "
            "answer takes more than about a second"
        )
    if kind is FactKind.PLAYER_EXACT:
        best, plain = fact.values
        without = f" ({float(plain):.6f} without the mulligan)" if plain != best else ""
        head = (
            f"the exact tables the simulated player reads give its chance exactly: "
            f"{float(best):.6f}{without}; the deals estimate it again"
        )
        return f"{head} ({player_exact_odds(fact)})"
    if kind is FactKind.NOT_TRIED_AFTER:
        return (
            f"the exact engine was not tried for this turn: the turn seeing {fact.count} cards "
            "was already out of reach (the reason given is that turn's), and a turn seeing "
            "more cards takes more work, as a rule"
        )
    if kind is FactKind.IMPOSSIBLE_FEW_IN_PILE:
        return (
            f"impossible: only {fact.count} cards of the pile match {fact.label}, and the "
            f"conditions need {fact.limit}"
        )
    if kind is FactKind.IMPOSSIBLE_FEW_SEEN:
        what = f" of {fact.label}" if fact.label else ""
        return (
            f"impossible: the conditions need at least {fact.limit} cards{what}, and only "
            f"{fact.count} are seen"
        )
    if kind is FactKind.IMPOSSIBLE_CONTRADICTION:
        return f"impossible: the conditions on {fact.label} contradict each other"
    if kind is FactKind.IMPOSSIBLE_FORCED:
        return (
            f"impossible: at least {fact.count} of the cards seen match {fact.label} (the pile "
            f"has too few others), and the conditions allow at most {fact.limit}"
        )
    raise AssertionError(f"no words for {kind}")  # every kind is worded above


class Choice(StrEnum):
    """A choice the rules give the player during a deal (the value names it in the JSON)."""

    LOOKAHEAD = "look-ahead"
    REDRAW = "redraw"
    RETURN = "return"


class Played(StrEnum):
    """How a simulated player makes one choice (the value names it in the JSON)."""

    #: Read from the exact tables: the optimum for the query, as the exact engines play it.
    OPTIMAL = "optimal"
    #: A fixed rule of thumb: the figure is that player's chance, at most the optimum's.
    RULE_OF_THUMB = "rule-of-thumb"
    #: The policy the question asks for (redraw whenever allowed), as the exact engines play it.
    AS_ASKED = "as-asked"


#: The facts that say how a simulated player makes each choice.
_PLAYED: dict[FactKind, tuple[Choice, Played]] = {
    FactKind.LOOKAHEAD_OPTIMAL: (Choice.LOOKAHEAD, Played.OPTIMAL),
    FactKind.LOOKAHEAD_HEURISTIC: (Choice.LOOKAHEAD, Played.RULE_OF_THUMB),
    FactKind.LOOKAHEAD_HEURISTIC_INSTEAD: (Choice.LOOKAHEAD, Played.RULE_OF_THUMB),
    FactKind.REDRAW_OPTIMAL_SIMULATED: (Choice.REDRAW, Played.OPTIMAL),
    FactKind.REDRAW_UNLESS_MET: (Choice.REDRAW, Played.RULE_OF_THUMB),
    FactKind.REDRAW_WHENEVER_ALLOWED: (Choice.REDRAW, Played.AS_ASKED),
    FactKind.RETURN_OPTIMAL: (Choice.RETURN, Played.OPTIMAL),
    FactKind.RETURN_GREEDY: (Choice.RETURN, Played.RULE_OF_THUMB),
}


@frozen
class SimulatedPlayer:
    """How a simulated answer's player made the deal's choices, read from its facts."""

    decisions: tuple[tuple[Choice, Played], ...] = ()

    @classmethod
    def of(cls, facts: tuple[Fact, ...]) -> SimulatedPlayer:
        """The player the ``facts`` of a simulated answer describe (a rule of thumb named for
        a choice wins over the optimum it replaced)."""
        played: dict[Choice, Played] = {}
        for fact in facts:
            if fact.kind in _PLAYED:
                choice, how = _PLAYED[fact.kind]
                if played.get(choice) is not Played.RULE_OF_THUMB:
                    played[choice] = how
        return cls(tuple(played.items()))

    @property
    def summary(self) -> str:
        """``"rule-of-thumb"`` when some choice is made by one, else ``"optimal"`` when some
        is read from the exact tables (a redraw whenever allowed, as asked, beside it),
        ``"as-asked"`` (the redraw whenever allowed), or
        ``"no-choice"`` (a plain deal: the simulation estimates the exact figure itself)."""
        kinds = {how for _, how in self.decisions}
        for how in (Played.RULE_OF_THUMB, Played.OPTIMAL, Played.AS_ASKED):
            if how in kinds:
                return how.value
        return "no-choice"

    @property
    def text(self) -> str:
        """The player in a sentence, saying plainly when the figure is not optimal play's
        (the rules of thumb by name only: the answer's facts word them)."""
        return self._text(named=False)

    @property
    def detail(self) -> str:
        """:attr:`text`, each rule of thumb worded (for a row of a table, said on its own)."""
        return self._text(named=True)

    def _text(self, named: bool) -> str:
        by = {how: [c.value for c, h in self.decisions if h is how] for how in Played}
        if by[Played.RULE_OF_THUMB]:
            rules = [
                f"{c.value} ({_RULES[c]})" if named else c.value
                for c, h in self.decisions
                if h is Played.RULE_OF_THUMB
            ]
            return (
                f"simulated player: {_and(rules)} by a rule of thumb, not chosen for this "
                "query: the figure estimates that player's chance, at most the optimal "
                "player's (a lower bound of optimal play, up to the sampling error)"
            )
        if by[Played.OPTIMAL] and by[Played.AS_ASKED]:
            return (
                f"simulated player: {_and(by[Played.OPTIMAL])} read from the exact tables, "
                "the redraw whenever allowed, as asked: the figure estimates that player's "
                "chance"
            )
        if by[Played.OPTIMAL]:
            return (
                f"simulated player: optimal ({_and(by[Played.OPTIMAL])} read from the exact "
                "tables): the figure estimates the optimal player's chance"
            )
        if by[Played.AS_ASKED]:
            return (
                "simulated player: redraws whenever allowed, as asked: the figure estimates "
                "that policy's chance"
            )
        return (
            "simulated deals: the rules give no choice here, so the figure estimates the "
            "chance itself"
        )


#: Each choice's rule of thumb, in words.
_RULES = {
    Choice.LOOKAHEAD: (
        "a card that would break an upper bound goes under, one that advances an unmet "
        "condition is kept, any other is kept only while an upper bound is one card from "
        "breaking"
    ),
    Choice.RETURN: (
        "keep a hand that meets every condition, else return first the cards without which "
        "no lower bound falls short, then any others"
    ),
    Choice.REDRAW: "redraw an allowed hand unless it already meets every condition",
}


def _and(words: list[str]) -> str:
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + ", and " + words[-1]


def notes(facts: tuple[Fact, ...], *, said: frozenset[FactKind] = frozenset()) -> list[str]:
    """The facts as sentences, leaving out the kinds the caller ``said`` in its own terms."""
    return [fact_text(f) for f in facts if f.kind not in said]


# ----------------------------------------------------------------------------------------------
# The signal that an exact computation is out of reach
# ----------------------------------------------------------------------------------------------


class Intractable(Exception):
    """The exact computation would exceed its work limit; simulate instead.

    ``reason`` says why, as data (a plain message becomes :attr:`Reach.OTHER`); ``str()``
    words it. :attr:`without_mulligan`: the exact answer with no mulligan, where it was
    found before the mulligan's table was refused (for a caller that would ask it next).
    """

    def __init__(self, reason: OutOfReach | str) -> None:
        if isinstance(reason, str):
            reason = OutOfReach(Reach.OTHER, text=reason)
        super().__init__(reason_text(reason))
        self.reason = reason
        self.without_mulligan: Answer | None = None
        #: The look-ahead's states already valued when it was refused, with what they are
        #: valid for (:meth:`SequentialEngine.signature`) and the calls they took: a caller
        #: that asks again with no mulligan goes on from them, those calls counted.
        self.known_states: KnownStates | None = None
        #: Units of exact work (those of the work limit) spent before the refusal: a
        #: simulation in its place gets what they leave of the answer's time.
        self.spent = 0


# ----------------------------------------------------------------------------------------------
# Statistics for Monte Carlo estimates (pure Python, no numpy)
# ----------------------------------------------------------------------------------------------

Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% with the default ``z``).

    Chosen over the normal approximation because it stays inside [0, 1] and behaves well for
    probabilities near 0 or 1, which odds questions often produce. ``trials == 0`` gives the
    uninformative interval (0, 1).
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"invalid counts: {successes} successes in {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    # Clamp: rounding can push the bounds a hair outside [0, 1] at p = 0 or 1.
    return (max(0.0, centre - half), min(1.0, centre + half))


# ----------------------------------------------------------------------------------------------
# The one result type of every draw computation: exact or simulated, with its facts
# ----------------------------------------------------------------------------------------------


@frozen
class Answer:
    """A probability with the mulligan and without it, how it was obtained and what it assumed.

    Exact answers carry ``fraction`` (and ``fraction_without_mulligan``); simulated ones carry
    ``trials``, ``successes``, ``seed`` and Wilson 95% intervals. ``facts`` are data; ``notes``
    words them (see :func:`fact_text`).
    """

    probability: float
    probability_without_mulligan: float
    method: Method
    facts: tuple[Fact, ...] = ()
    fraction: Fraction | None = None
    fraction_without_mulligan: Fraction | None = None
    trials: int | None = None
    successes: int | None = None
    seed: int | None = None
    ci95: tuple[float, float] | None = None
    ci95_without_mulligan: tuple[float, float] | None = None

    @property
    def exact(self) -> bool:
        """Whether the figure is exact (else a Monte Carlo estimate)."""
        return self.fraction is not None

    @property
    def probability_exact(self) -> str | None:
        """The exact probability as ``"p/q"``, or None for an estimate."""
        p = self.fraction
        return None if p is None else f"{p.numerator}/{p.denominator}"

    @property
    def method_text(self) -> str:
        """The method as reports print it."""
        return method_text(self.method)

    @property
    def notes(self) -> tuple[str, ...]:
        """Every fact as a sentence."""
        return tuple(notes(self.facts))

    def has(self, kind: FactKind) -> bool:
        """Whether a fact of ``kind`` is among the answer's facts."""
        return any(f.kind is kind for f in self.facts)

    @classmethod
    def from_fractions(
        cls, p: Fraction, plain: Fraction, method: Method, facts: list[Fact] | tuple[Fact, ...]
    ) -> Answer:
        """An exact answer."""
        return cls(float(p), float(plain), method, tuple(facts), p, plain)

    @classmethod
    def from_counts(
        cls,
        successes: int,
        successes_plain: int,
        trials: int,
        seed: int,
        method: Method,
        facts: list[Fact] | tuple[Fact, ...],
    ) -> Answer:
        """A simulated answer from success counts (with and without the mulligan)."""
        return cls(
            probability=successes / trials,
            probability_without_mulligan=successes_plain / trials,
            method=method,
            facts=tuple(facts),
            trials=trials,
            successes=successes,
            seed=seed,
            ci95=wilson_interval(successes, trials),
            ci95_without_mulligan=wilson_interval(successes_plain, trials),
        )
