"""The draw façade: one call answers a query, exactly where it can, by simulation otherwise.

:func:`solve` takes the abstract problem, the game's procedure, the question and the player's
policy, and returns an :class:`~deckcheck.draws.answer.Answer` whose ``method`` and ``facts``
say how it was obtained and what it assumed. Which engine runs is decided here, by the named
constants below, and nowhere else.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from deckcheck.core.values import frozen
from deckcheck.draws.answer import (
    Answer,
    Fact,
    FactKind,
    Intractable,
    KnownStates,
    Method,
    OutOfReach,
    Reach,
    Stage,
    lookahead_fact,
)
from deckcheck.draws.impossible import impossible
from deckcheck.draws.model import (
    DrawProblem,
    LookaheadPolicy,
    Procedure,
    Query,
    RedrawRule,
    Request,
    ReturnRule,
    per_object,
)

# The dealer, for callers that deal and show hands themselves (``hand``): through this door too.
from deckcheck.draws.simulate.dealer import Choices as Choices
from deckcheck.draws.simulate.dealer import Dealer as Dealer
from deckcheck.draws.simulate.dealer import DealShape as DealShape
from deckcheck.draws.simulate.dealer import KeepChooser, RedrawChooser, ReturnChooser, deal_shape
from deckcheck.draws.simulate.dealer import Step as Step
from deckcheck.draws.simulate.dealer import StepKind as StepKind
from deckcheck.draws.simulate.sampling import SamplingMethod, sampling_method

if TYPE_CHECKING:
    from deckcheck.draws.exact.sequential import SequentialEngine

#: Trials simulated when the exact engine is out of reach for a single query, and their seed
#: (fixed, so that the same question gives the same figure).
FALLBACK_TRIALS = 200_000
FALLBACK_SEED = 0
#: Trials per row of a by-turn table that falls back to simulation; row ``t`` uses seed ``t``.
BY_TURN_FALLBACK_TRIALS = 100_000

#: Most units of work (estimated before starting, see ``SequentialEngine.estimate``) an exact
#: answer may take; past it the query is simulated at once. A unit measures about 2 µs on one
#: core, so an exact answer takes at most about 0.6 s: with the command's own start-up (about
#: 0.2 s), within a second.
EXACT_WORK_LIMIT = 300_000
#: Units of simulation work (see :func:`trial_cost`, about 0.03 µs a unit on one core) a
#: fallback simulation may spend: its trial count is cut so that it stays within about 0.4 s,
#: which leaves the command's start-up (about 0.3 s for a deck of 12,000 cards, reading it
#: included) room within a second. Deterministic: the count depends on the problem's size,
#: never on a clock.
SIMULATION_BUDGET = 12_000_000
#: One unit of :func:`trial_cost` in microseconds of one core (``bench/bench_trial_cost.py``).
UNIT_MICROSECONDS = 0.03
#: Units of :func:`trial_cost` one unit of exact work stands for (about 2 µs against 0.03 µs):
#: a simulation after a refused exact attempt gets what the attempt left of the budget (the
#: attempt and the simulation together within the answer's second), and
#: :data:`MIN_FALLBACK_TRIALS` trials at least.
EXACT_UNIT_COST = 60
#: Fewest trials a fallback simulation runs, however long its deals.
MIN_FALLBACK_TRIALS = 20_000
#: Deals of a ``simulate`` run not told how many (``--trials``), where they are cheap; dearer
#: deals are cut to :data:`SIMULATION_BUDGET` (see :func:`default_trials`).
SIMULATE_TRIALS = 1_000_000
#: Fewest deals of such a run, however dear (as many as a fallback simulation's): its
#: Wilson 95% interval is at most ±0.0069 wide.
MIN_SIMULATE_TRIALS = MIN_FALLBACK_TRIALS
#: Fewest trials a simulated row of a by-turn table runs (the table shares one budget: 200
#: rows of the dearest deals fit half of it at this floor).
MIN_ROW_TRIALS = 50

#: ``progress(done, total)``: how far a long computation is (the caller decides how to show it).
Progress = Callable[[int, int], None]

RedrawPolicy = Literal["always", "optimal"]


@frozen
class Policy:
    """How the player decides where the rules give a choice.

    ``redraw``: under a redraw rule, ``"optimal"`` (the default: the redraw is optional)
    redraws only when a fresh deal beats keeping the hand, ``"always"`` whenever allowed. A
    return-cards mulligan is always played optimally for the query (greedily when the optimum
    is out of reach, and the answer says so). ``lookahead``: a look at the top card keeps it or
    puts it under, ``"optimal"``-ly for the query (exact) or by the rule of thumb
    (``"heuristic"``, :func:`~deckcheck.draws.policies.lookahead_keep`).
    """

    redraw: RedrawPolicy = "optimal"
    lookahead: LookaheadPolicy = "optimal"


class Mode(StrEnum):
    """Which engine :func:`solve` may use."""

    AUTO = "auto"  # exact where in reach, else simulation
    EXACT = "exact"  # exact or Intractable
    SIMULATE = "simulate"  # always simulate


#: Where sequential engines keep their tables (:meth:`SequentialEngine.share_tables`).
EngineTables = dict[tuple[object, ...], dict[str, dict[object, object]]]


@frozen(eq=False)
class Prior:
    """What earlier work tells a query's answer (:func:`exact`, :func:`solve`); each part
    optional.

    ``out_of_reach``: why the query is already known to be out of exact reach (see
    :meth:`PlainRows.out_of_reach`): :func:`solve` simulates at once. ``known_states``: a
    refused attempt's look-ahead states (:attr:`Intractable.known_states`), gone on from where
    they hold for this query, the calls they took counted against the limit. ``tables``:
    where the sequential engine keeps its tables, shared with the engines of other queries
    kept there: the decks of one search. ``at_least``: the exact work of the same question
    over fewer cards seen (the row before in a table of turns); with the look-ahead, more cards
    seen take more as a rule (fewer states are settled early, more levels are walked), so over
    the limit it is taken as out of reach without starting, unless settled before the deal.
    """

    out_of_reach: Intractable | None = None
    known_states: KnownStates | None = None
    tables: EngineTables | None = None
    at_least: int | None = None


def _optimal_redraw(procedure: Procedure, policy: Policy) -> bool:
    return policy.redraw == "optimal" and isinstance(procedure.mulligan, RedrawRule)


def exact(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    policy: Policy,
    *,
    limit: int | None = EXACT_WORK_LIMIT,
    progress: Progress | None = None,
    most_seen: int | None = None,
    spend: Callable[[int], None] | None = None,
    prior: Prior = Prior(),
) -> Answer:
    """The exact answer for ``policy``; :class:`Intractable` when out of reach.

    Before starting, the work that can be counted is estimated; over ``limit`` (None: no
    limit but the engines' own budgets) it is out of reach at once. The look-ahead's
    recursion is counted as it runs, against what the limit leaves (the classes that differ
    only by name share its states, which no cheap count foresees). ``progress(done,
    total)`` hears from the engines that can tell. ``most_seen``: the most cards a table of
    turns asks about, for the engines that answer every turn from one pass. ``spend(work)``
    hears the estimate of a computation about to start (and the look-ahead's calls after it).
    ``prior``: what earlier work tells this answer (:class:`Prior`; its ``out_of_reach`` is
    :func:`solve`'s).
    """
    from deckcheck.draws.exact.odds import exact_odds
    from deckcheck.draws.exact.sequential import CALL_UNITS

    request = Request(problem, procedure, query, policy.lookahead)
    engine = None
    work = 0
    if limit is not None and not _optimal_redraw(procedure, policy):
        engine = _charged_engine(problem, procedure, query, policy.lookahead, limit, prior.tables)
        work = engine.estimated
        at_least = prior.at_least
        if (
            at_least is not None
            and at_least > limit
            and engine.lookahead
            and engine.settled_at_start() is None
        ):
            raise Intractable(OutOfReach(Reach.SKIPPED, Stage.EXACT, at_least, limit))
        if spend is not None:
            spend(work)
        known_states = prior.known_states
        if known_states is not None and known_states[0] == engine.signature():
            # Gone on from, not free: the calls they took are charged as spent, so that a
            # refusal names the budget this attempt had, not what the first one left of it.
            engine.memo = known_states[1]
            engine.work += known_states[2]
    if _optimal_redraw(procedure, policy):
        from deckcheck.draws.exact.optimal_redraw import optimal_redraw_odds

        return optimal_redraw_odds(request, progress=progress, most_seen=most_seen)
    try:
        answer = exact_odds(request, progress=progress, engine=engine, most_seen=most_seen)
    except Intractable as exc:
        if engine is not None:
            exc.spent = _spent(engine, exc, limit)
        raise
    if spend is not None and engine is not None and engine.lookahead:
        spend((engine.work - work) * CALL_UNITS)
    return answer


def _limited_engine(
    problem: DrawProblem, procedure: Procedure, query: Query, lookahead: LookaheadPolicy
) -> tuple[SequentialEngine, int | None]:
    """The engine :func:`exact` weighs against its work limit before starting (no budget
    yet), and the cards a return mulligan returns (None: no return)."""
    from deckcheck.draws.exact.sequential import SequentialEngine

    rule = procedure.mulligan if query.use_mulligan else None
    count = rule.count if isinstance(rule, ReturnRule) and problem.conditions else None
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    return SequentialEngine(problem, procedure, query, triggers, 0, lookahead), count


def _charged_engine(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    lookahead: LookaheadPolicy,
    limit: int,
    tables: EngineTables | None = None,
) -> SequentialEngine:
    """The sequential engine for ``query``, its work estimated before starting and charged
    against ``limit`` (units of exact work): :class:`Intractable` at once when the estimate
    is over it, else the engine with what the limit leaves as its budget (the look-ahead's
    recursion counted as it runs, in calls). ``odds`` answers with it (:func:`exact`), and
    ``simulate`` builds its player's tables with it: one work limit for both. ``tables``:
    see :func:`exact`."""
    from deckcheck.draws.exact.sequential import CALL_UNITS, STATE_BUDGET

    engine, count = _limited_engine(problem, procedure, query, lookahead)
    if tables is not None:
        engine.share_tables(tables)
    work = engine.estimate(count, limit)
    if work > limit:
        raise Intractable(OutOfReach(Reach.ESTIMATE, Stage.EXACT, work, limit))
    # The look-ahead's recursion is counted as it runs: what the limit leaves, in calls.
    engine.budget = work + (limit - work) // CALL_UNITS if engine.lookahead else STATE_BUDGET
    # The estimate is charged now: the recursion's calls get what it leaves, no more.
    engine.work = engine.prepaid = work
    engine.table_budget = limit - work
    return engine


def _used(engine: SequentialEngine) -> int:
    """Units of exact work ``engine`` spent building its tables: its estimate, charged
    before starting, and the look-ahead's calls past it (without the look-ahead: the steps
    it counted, the estimate's charge included)."""
    from deckcheck.draws.exact.sequential import CALL_UNITS

    if not engine.lookahead:
        return int(max(engine.prepaid, engine.work))
    return int(engine.prepaid + max(0, engine.work - engine.prepaid) * CALL_UNITS)


def over_budget(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    trials: int,
    budget: int,
    decided: bool = False,
) -> Fact | None:
    """The fact that ``trials`` deals (the fewest a run may take) cost more than ``budget``
    units of :func:`trial_cost` (``limit``: the deals the budget affords), else None."""
    cost = trial_cost(problem, procedure, query, decided=decided)
    if trials * cost <= budget:
        return None
    return Fact(FactKind.TRIALS_OVER_BUDGET, count=trials, limit=budget // cost)


def charged_engine(request: Request) -> SequentialEngine:
    """The sequential engine ``odds`` answers ``request`` with, charged against
    :data:`EXACT_WORK_LIMIT` as ``odds`` charges it: :class:`Intractable` (the bound hit)
    when the estimate is over it, or when the work run past it."""
    problem, procedure, query = request.problem, request.procedure, request.query
    return _charged_engine(problem, procedure, query, request.lookahead, EXACT_WORK_LIMIT)


def _spent(engine: SequentialEngine, refused: Intractable, limit: int | None) -> int:
    """Units of exact work ``engine`` spent before ``refused`` (those of the work limit): the
    look-ahead's calls (a refused attempt's that it went on from included), the redraw
    table's share of the limit; an estimate refused before starting spent next to nothing."""
    from deckcheck.draws.exact.sequential import CALL_UNITS

    if engine.lookahead:
        return max(0, engine.work - engine.estimated) * CALL_UNITS
    if refused.reason.stage is Stage.REDRAW and limit is not None:
        return limit - engine.estimated
    return 0


def simulate(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    policy: Policy,
    *,
    trials: int | None,
    seed: int,
    progress: Progress | None = None,
    why: Fact | None = None,
    tables: bool = True,
) -> Answer:
    """A Monte Carlo answer (numpy where installed, else the plain-Python reference).

    ``trials`` None: :func:`default_trials`, once it is known how the simulated player decides,
    within what the player's tables (built or refused) left of :data:`SIMULATION_BUDGET`;
    where even the fewest deals cost more, a fact says so (see :func:`over_budget`).

    The simulated player follows ``policy``: the optimal redraw takes the exact optimum's
    decision for each hand and a return mulligan the exact optimal choice, where those tables
    are in reach; otherwise a stated rule of thumb (redraw unless the hand meets every
    condition; greedy returns), and a fact says which. The look-ahead's and the return's
    tables are built within :data:`EXACT_WORK_LIMIT`, estimated and charged as :func:`exact`
    charges them: past it none is built, the player is the rule-of-thumb player a fallback
    of ``odds`` simulates, the fact names the bound hit, and ``trials`` None gets what the
    refused tables left of :data:`SIMULATION_BUDGET`. ``why``, when given, is the fact that
    explains the simulation; it is listed before the simulator's own. ``tables=False`` skips
    the exact tables (when the exact engine is already known to be out of reach). An
    either-or question (``problem.any_of``) succeeds when some alternative holds in full; its
    decisions are always the rules of thumb.
    """
    from deckcheck.draws.exact.odds import optimal_choices, optimal_return_choice
    from deckcheck.draws.exact.optimal_redraw import optimal_redraw_choice, optimal_redraw_value
    from deckcheck.draws.policies import redraw_unless_met

    if problem.any_of:
        # The exact decision tables are built for an AND; an either-or question's deals are
        # decided by the rules of thumb, which read its whole OR (and the facts say so).
        tables = False
    shape = deal_shape(problem, procedure, query)
    said: list[Fact] = []  # the policies in force
    after: list[Fact] = []  # how the simulated player decides, where that needs saying
    keep: KeepChooser | None = None  # None: the rule of thumb
    # The optimal return read from the engine of the optimal look-ahead (one exact pass).
    returns: ReturnChooser | None = None
    lookahead = policy.lookahead
    # The tables odds builds within its work limit, charged as odds charges them (see
    # :func:`exact`); the optimal redraw's solve has no other limit, in odds as here.
    charged = not _optimal_redraw(procedure, policy)
    spent = 0  # units of exact work the tables spent before they were refused
    engine: SequentialEngine | None = None  # the charged engine of the tables being built
    if shape.lookahead and lookahead == "optimal":
        try:
            if not tables:
                raise Intractable("the exact engine is out of reach")
            if charged:
                engine = _charged_engine(problem, procedure, query, "optimal", EXACT_WORK_LIMIT)
                # No walk over every hand is charged (the guide's is): the player reads its
                # looks and returns in bulk as it deals, and :func:`trial_cost` charges those
                # reads to the deals, so its tables are built wherever odds builds them.
            chosen, returns = optimal_choices(Request(problem, procedure, query), engine=engine)
            keep = chosen
            spent = _used(engine) if engine is not None else 0
            if chosen.exact is not None and charged and not isinstance(shape.rule, RedrawRule):
                # The look-ahead's (and the return's) values: this player's chance, exact,
                # from the very tables odds builds for the query: odds' figure.
                after.append(Fact(FactKind.PLAYER_EXACT, values=chosen.exact))
        except Intractable as exc:
            lookahead = "heuristic"
            # Past odds' work limit: odds simulates the rule-of-thumb player, and so does
            # this run (no return table either), saying which bound its tables hit.
            bound = exc.reason if tables and charged else None
            after.append(Fact(FactKind.LOOKAHEAD_HEURISTIC_INSTEAD, reason=bound))
            if bound is not None:
                tables = False
                spent = _spent(engine, exc, EXACT_WORK_LIMIT) if engine is not None else 0
    if shape.lookahead:
        said.append(lookahead_fact(keep is not None))
    rule = shape.rule
    redraws: RedrawChooser | None = None
    if isinstance(rule, RedrawRule) and _optimal_redraw(procedure, policy):
        try:
            if not tables:
                raise Intractable("the exact engine is out of reach")
            request = Request(problem, procedure, query, lookahead)
            redraws = optimal_redraw_choice(request)
            if query.use_mulligan and rule.triggers and rule.max_redraws != 0:
                after.append(Fact(FactKind.REDRAW_OPTIMAL_SIMULATED))  # else no choice made
            if keep is None:  # the optimum's value, from the solve the decisions read
                values = optimal_redraw_value(request)  # that solve, cached: no table built
                # odds solves the redraw with no other limit, the look-ahead played optimally:
                # its figure when this player's look-ahead is too ("" below), else not.
                fell_back = shape.lookahead and policy.lookahead == "optimal"  # keep is None
                played = "look-ahead" if fell_back else ""
                after.append(Fact(FactKind.PLAYER_EXACT, values=values, label=played))
        except Intractable:
            redraws = functools.partial(redraw_unless_met, problem)
            after.append(Fact(FactKind.REDRAW_UNLESS_MET))
    elif isinstance(rule, RedrawRule) and rule.triggers and problem.conditions:
        said.append(Fact(FactKind.REDRAW_WHENEVER_ALLOWED, limit=rule.max_redraws))
    elif isinstance(rule, ReturnRule) and problem.conditions:
        engine = None
        try:
            if not tables:
                raise Intractable("the exact engine is out of reach")
            if returns is None:
                engine = _charged_engine(problem, procedure, query, lookahead, EXACT_WORK_LIMIT)
                request = Request(problem, procedure, query, lookahead)
                returns = optimal_return_choice(request, engine=engine)
                spent = _used(engine)
            said.append(Fact(FactKind.RETURN_OPTIMAL))
        except Intractable as exc:
            bound = exc.reason if tables else None
            after.append(Fact(FactKind.RETURN_GREEDY, reason=bound))
            if bound is not None and engine is not None:
                spent = _spent(engine, exc, EXACT_WORK_LIMIT)
    if trials is None:
        # What the tables spent, built or refused, is taken from the deals' budget (as odds
        # takes a refused attempt's): the tables and the deals share the answer's second.
        budget = max(0, SIMULATION_BUDGET - spent * EXACT_UNIT_COST)
        decided = keep is not None or returns is not None  # read from the exact tables
        trials = default_trials(problem, procedure, query, decided, budget)
        over = over_budget(problem, procedure, query, trials, budget, decided)
        if over is not None:
            after.append(over)
    try:
        from deckcheck.draws.simulate.vectorised import simulate_vectorised
    except ImportError:
        from deckcheck.draws.simulate.reference import simulate_reference

        answer = simulate_reference(
            problem, procedure, query, trials, seed, returns, redraws, keep_top=keep
        )
    else:
        answer = simulate_vectorised(
            problem,
            procedure,
            query,
            trials,
            seed,
            returns,
            progress=progress,
            choose_redraw=redraws,
            keep_top=keep,
        )
    first = [*said, why] if why is not None else said
    return replace(answer, facts=(*first, *answer.facts, *after))


def optimal_return(
    problem: DrawProblem, procedure: Procedure, query: Query
) -> ReturnChooser | None:
    """The exact optimal return-cards choice for ``query`` (the optimal look-ahead), or None
    when its table is out of reach."""
    from deckcheck.draws.exact.odds import optimal_return_choice

    try:
        return optimal_return_choice(Request(problem, procedure, query))
    except Intractable:
        return None


def redraw_choice(
    problem: DrawProblem, procedure: Procedure, query: Query
) -> tuple[RedrawChooser, bool]:
    """The redraw decision for ``query`` under the optimal policy: the exact optimum's and
    True; when its table is out of reach, the rule of thumb (redraw an allowed hand unless it
    already meets every condition) and False."""
    from deckcheck.draws.exact.optimal_redraw import optimal_redraw_choice
    from deckcheck.draws.policies import redraw_unless_met

    try:
        return optimal_redraw_choice(Request(problem, procedure, query)), True
    except Intractable:
        return functools.partial(redraw_unless_met, problem), False


class TableShare:
    """What the rows of one by-turn table share: the most cards any row sees (``most_seen``,
    so that an exact engine prepares once for all rows) and the units of exact work they may
    still spend together (``left``, counted down by :meth:`spend`)."""

    def __init__(self, most_seen: int | None = None, left: int | None = None) -> None:
        self.most_seen = most_seen
        # The limit as it is when the table starts (read here, not when this module loads).
        self.left = EXACT_WORK_LIMIT if left is None else left

    def spend(self, work: int) -> None:
        """Count ``work`` units of exact work as spent."""
        self.left -= work


def solve(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    policy: Policy = Policy(),
    *,
    mode: Mode = Mode.AUTO,
    trials: int = FALLBACK_TRIALS,
    seed: int = FALLBACK_SEED,
    progress: Progress | None = None,
    budget: int = SIMULATION_BUDGET,
    table: TableShare | None = None,
    prior: Prior = Prior(),
) -> Answer:
    """Answer one query: P(every condition of ``problem`` holds over the cards seen).

    ``mode`` AUTO answers exactly where the engine is in reach and otherwise simulates
    ``trials`` deals from ``seed`` under the same policy, adding a fact that says why; EXACT
    raises :class:`Intractable` instead; SIMULATE always simulates. A query no deal can
    satisfy (see :mod:`~deckcheck.draws.impossible`) answers 0 at once, with the reason as a
    fact. ValueError for a query that makes no sense (more cards seen than the pile holds,
    fewer than the opening hand). ``budget``: units of :func:`trial_cost` a fallback
    simulation may spend; ``table``: what the rows of a by-turn table share (the most cards
    seen, the exact work left: see :func:`exact`), else :data:`EXACT_WORK_LIMIT` for this
    query. ``prior``: what earlier work tells this answer (:class:`Prior`): with its
    ``out_of_reach``, simulated at once, unless impossible.
    """
    if mode is Mode.SIMULATE:
        return simulate(
            problem, procedure, query, policy, trials=trials, seed=seed, progress=progress
        )
    deal_shape(problem, procedure, query)  # checks the query
    why_not = impossible(problem, query)
    if why_not is not None:
        return Answer.from_fractions(Fraction(0), Fraction(0), Method.IMPOSSIBLE, [why_not])
    try:
        if prior.out_of_reach is not None:
            raise prior.out_of_reach
        shared = table or TableShare()
        return exact(
            problem,
            procedure,
            query,
            policy,
            limit=max(0, shared.left),
            progress=progress,
            most_seen=shared.most_seen,
            spend=shared.spend if table is not None else None,
            prior=prior,
        )
    except Intractable as exc:
        if mode is Mode.EXACT:
            raise
        left = max(0, budget - exc.spent * EXACT_UNIT_COST)  # what the exact attempt left
        trials = fallback_trials(problem, procedure, query, trials, left)
        why = Fact(FactKind.SIMULATED_INSTEAD, count=trials, reason=exc.reason)
        answer = simulate(
            problem,
            procedure,
            query,
            policy,
            trials=trials,
            seed=seed,
            progress=progress,
            why=why,
            tables=False,
        )
        over = over_budget(problem, procedure, query, trials, left)
        return answer if over is None else replace(answer, facts=(*answer.facts, over))


def trial_cost(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    dealt: int | None = None,
    decided: bool = False,
) -> int:
    """Units of work one simulated deal costs (about 0.03 µs each, measured on the numpy
    simulator), from the problem's size alone.

    ``dealt``: the cards the plain deal's sampler is built for, when more than seen (the rows
    of a by-turn table share the sampler of its last row, and deal by its method). Every deal
    samples counts over the groups once per phase (the seen cards at once for a
    plain draw; the hand, then the later draws, then a mulligan's new cards and their later
    draws), each condition sums its groups, a redraw or a return reads the conditions, and a
    look-ahead deals card by card, each card a pass over the groups. ``decided``: the
    look-ahead's decisions (and a return's choice) are read from the exact tables, not worked
    out by the rules of thumb: each look's state is looked up, and a state never met asks
    the exact engine: for most looks of a deal where the cards seen can make many states,
    seldom where they make few (over the fewest deals a run takes, every state at most
    once), each question the dearer the more groups (a quarter of a unit per group squared)
    and the more groups a condition sums (about 200 units per group a condition sums on
    average); a return's table is asked once per hand class met. ``bench/bench_trial_cost.py``
    measures what a deal costs against this count.
    """
    shape = deal_shape(problem, procedure, query)
    groups = max(1, len(problem.group_sizes))
    plain = shape.rule is None and not shape.lookahead
    phases = 1 if plain else 1 + (shape.later > 0) + 2 * (shape.rule is not None)
    members = _members(problem)
    dealing = groups * phases
    if plain:
        seen = shape.hand + shape.later
        method = sampling_method(problem.group_sizes, seen, max(seen, dealt or 0))
        if method is SamplingMethod.POSITIONS:
            dealing = groups + 3 * seen  # about three units a card, and one row a group
        elif method is SamplingMethod.MARGINALS:
            dealing = 6 * groups  # measured at about six times a table's cost a group
    cost = 10 + dealing + members // 10
    if isinstance(shape.rule, RedrawRule):
        # Each redraw decision reads the hand's counts (its triggers, the table's key or
        # the conditions of the rule of thumb) and deals the redrawn columns again.
        cost += 3 * len(problem.conditions)
    if isinstance(shape.rule, ReturnRule):
        # The return's choice reads every condition's count of the hand, greedy or not.
        cost += 7 * len(problem.conditions)
        if decided:
            # The choice read from the exact table: each hand never met asks the table in
            # Python (about 400 units a hand), at most every hand class once over the fewest
            # deals a run takes.
            hands = _hand_classes(problem.group_sizes, shape.hand, MIN_SIMULATE_TRIALS)
            cost += 400 * hands // MIN_SIMULATE_TRIALS
    if shape.lookahead:
        deals = 2 if shape.rule is not None else 1  # the later draws again after a mulligan
        cost += deals * shape.later * (3 + groups) // 3  # a card at a time
        if decided:
            looks = deals * -(-shape.later // shape.per_turn)
            # A state never met asks the exact engine, the dearer the more groups a condition
            # sums; over the fewest deals a run takes, at most every state once (the hands
            # the cards seen can make, a card of each group on top).
            ask = groups * groups // 4 + 200 * members // max(1, len(problem.conditions))
            most = MIN_SIMULATE_TRIALS * looks  # every look a state never met
            seen = shape.hand + shape.later
            states = min(most, _hand_classes(problem.group_sizes, seen, most) * groups)
            # Every look's state is looked up (about 10 units), met or not.
            cost += 10 * looks + ask * looks * states // most
    return cost


def _hand_classes(sizes: Sequence[int], hand: int, cap: int) -> int:
    """How many hands of ``hand`` cards tell the groups of ``sizes`` apart (counts per
    group, each at most its size), at most ``cap``."""
    ways = [1] + [0] * hand  # ways[k]: count vectors of k cards over the groups so far
    for size in sizes:
        ways = [
            min(cap, sum(ways[k - j] for j in range(min(size, k) + 1))) for k in range(hand + 1)
        ]
    return min(cap, ways[hand])


@per_object(maxsize=16)
def _members(problem: DrawProblem) -> int:
    """The groups the conditions sum, counted once per problem (the rows of a by-turn table
    are costed one by one)."""
    return sum(sum(row[c.selector] for row in problem.membership) for c in problem.conditions)


def fallback_trials(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    trials: int,
    budget: int = SIMULATION_BUDGET,
    least: int = MIN_FALLBACK_TRIALS,
    dealt: int | None = None,
) -> int:
    """Trials for a fallback simulation: ``trials``, fewer when the deals would spend more
    than ``budget`` units of :func:`trial_cost` (never fewer than ``least``; ``dealt``: see
    :func:`trial_cost`)."""
    afford = budget // trial_cost(problem, procedure, query, dealt)
    return max(min(trials, least), min(trials, afford))


def default_trials(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    decided: bool = False,
    budget: int | None = None,
) -> int:
    """Deals of a ``simulate`` run not told how many: :data:`SIMULATE_TRIALS` where they fit
    ``budget`` (None: :data:`SIMULATION_BUDGET`, about 0.4 s of one core; :func:`simulate`
    passes it less what the player's tables spent, built or refused: with the command's
    start-up, about a second), fewer where each deal costs more (the
    look-ahead deals card by card; rounded down to two significant figures), never fewer
    than :data:`MIN_SIMULATE_TRIALS`; see
    :func:`trial_cost` (``decided``: the look-ahead's decisions, and a return's choice, read
    from the exact tables)."""
    budget = SIMULATION_BUDGET if budget is None else budget
    afford = budget // trial_cost(problem, procedure, query, decided=decided)
    scale = 10 ** max(0, len(str(afford)) - 2)  # two significant figures: 120,000, not 121,212
    return max(MIN_SIMULATE_TRIALS, min(SIMULATE_TRIALS, afford // scale * scale))


def solve_turns(
    problem: DrawProblem,
    procedure: Procedure,
    queries: Sequence[Query],
    policy: Policy = Policy(),
    *,
    progress: Progress | None = None,
    known: Mapping[Query, Answer] | None = None,
    budget: int = SIMULATION_BUDGET,
    table: PlainRows | None = None,
) -> tuple[Answer, ...]:
    """Answer several queries of one problem (a by-turn table), in order.

    A query out of exact reach is simulated with the seed ``query.turns`` (its turn), so a
    table is reproducible row by row, and with at most :data:`BY_TURN_FALLBACK_TRIALS` trials:
    the rows not ``known`` share ``budget`` (at least :data:`MIN_ROW_TRIALS` each, a plain
    row costed as dealt by the sampler of the last row, see :func:`trial_cost`); once
    a turn is out of exact reach, the later ones (more cards seen) are simulated without
    another estimate; the exact rows share one :data:`EXACT_WORK_LIMIT`, as estimated. Plain
    draws (no look-ahead, no mulligan in play) share one programme for every row in exact
    reach (see :func:`plain_rows`; ``table``: its answer, already computed). ``known``:
    answers already computed for some of the queries (with this policy), reused as they are.
    """
    # Whether a query names its turn does not change its answer.
    known = {replace(q, turns=None): a for q, a in (known or {}).items()}
    beyond: Intractable | None = None  # why the rows past a plain table's exact ones are not
    if table is None and not any(_simulated_instead(a) for a in known.values()):
        asked = [q for q in queries if replace(q, turns=None) not in known]
        table = plain_rows(problem, procedure, asked, policy, progress)
    if table is not None:
        known = {**table.answers, **known}
        beyond = table.beyond
        if beyond is None and all(replace(q, turns=None) in known for q in queries):
            return tuple(known[replace(q, turns=None)] for q in queries)
    answers = []
    most = max((q.seen for q in queries), default=0)
    rows = sum(1 for q in queries if replace(q, turns=None) not in known)
    share = budget // max(1, rows)  # the rows share one simulation budget
    # The exact work grows with the cards seen: once a turn is out of reach, the turns after
    # it (more cards seen) are simulated without estimating again.
    out_of_reach: Intractable | None = None
    shared = TableShare(most)  # the exact work the rows estimate is counted down
    took = (0, 0)  # the cards seen and the exact work of the last row answered exactly
    failed: int | None = None  # the cards seen of the row whose reason later rows inherit

    for i, query in enumerate(queries):
        seed = query.turns if query.turns is not None else i + 1
        trials = fallback_trials(
            problem, procedure, query, BY_TURN_FALLBACK_TRIALS, share, MIN_ROW_TRIALS, most
        )
        later = i and query.seen >= queries[i - 1].seen
        if replace(query, turns=None) in known:
            answer = known[replace(query, turns=None)]
            out_of_reach = _simulated_instead(answer)
        elif (
            known_out := beyond if beyond is not None else out_of_reach if later else None
        ) is not None and impossible(problem, query) is None:
            # Past a plain table's exact rows, or a later turn than one out of reach: out of
            # reach without another estimate.
            why = Fact(FactKind.SIMULATED_INSTEAD, count=trials, reason=known_out.reason)
            answer = simulate(
                problem, procedure, query, policy, trials=trials, seed=seed, why=why, tables=False
            )
            if beyond is None and failed is not None:
                # Not tried: the reason is the earlier turn's, and the answer says so.
                answer = not_tried_after(answer, failed)
            elif beyond is not None and table is not None:
                answer = table.said(query, answer)
            out_of_reach = known_out
        else:
            left = shared.left
            answer = solve(
                problem,
                procedure,
                query,
                policy,
                trials=trials,
                seed=seed,
                budget=share,
                table=shared,
                prior=Prior(at_least=took[1] if took[1] and query.seen >= took[0] else None),
            )
            out_of_reach = _simulated_instead(answer)
            if answer.exact:
                took = (query.seen, left - shared.left)
        if out_of_reach is not None:
            _prepare_sampler(problem, procedure, query, most)
            if failed is None:
                failed = query.seen
        else:
            failed = None
        answers.append(answer)
        if progress is not None:
            progress(i + 1, len(queries))
    return tuple(answers)


def not_tried_after(answer: Answer, seen: int) -> Answer:
    """``answer`` (simulated instead), saying that the exact engine was not tried for it: the
    reason given is that of the row seeing ``seen`` cards, which it takes."""
    at = next(i for i, f in enumerate(answer.facts) if f.kind is FactKind.SIMULATED_INSTEAD)
    not_tried = Fact(FactKind.NOT_TRIED_AFTER, count=seen)
    return replace(answer, facts=(*answer.facts[: at + 1], not_tried, *answer.facts[at + 1 :]))


@frozen(eq=False)
class PlainRows:
    """The rows of a plain by-turn table in exact reach (answered, keyed by their query
    without its turn) and why the others are not (None: every row is answered)."""

    answers: Mapping[Query, Answer]
    beyond: Intractable | None = None
    #: When no row is in reach: the fewest cards seen, out of reach even on their own (and
    #: so is every plain draw of as many cards or more).
    least_out: int | None = None

    def answer(self, query: Query) -> Answer | None:
        """The answer to ``query`` (whatever turn it names), if it is in exact reach."""
        return self.answers.get(replace(query, turns=None))

    def said(self, query: Query, answer: Answer) -> Answer:
        """``answer`` to ``query``, saying so when it takes the bound of the table's first row
        (out of reach on its own) without being tried: it sees more cards."""
        first = self.least_out
        if first is None or query.seen <= first or answer.exact:
            return answer
        return not_tried_after(answer, first)

    def out_of_reach(self, query: Query) -> Intractable | None:
        """Why ``query`` (a plain draw of this table's problem) is out of exact reach even on
        its own, when the table tells; else None (it may be in reach: ask :func:`solve`)."""
        if self.least_out is not None and query.seen >= self.least_out:
            return self.beyond
        return None


def plain_rows(
    problem: DrawProblem,
    procedure: Procedure,
    queries: Sequence[Query],
    policy: Policy = Policy(),
    progress: Progress | None = None,
) -> PlainRows | None:
    """The rows of a plain by-turn table in exact reach, from one programme over the most
    cards they see (the smaller counts come out of the same pass), and why the others are
    not; None when the rows are not all plain draws (then each row is answered on its own).
    Pass it to :func:`solve_turns` (``table``) for the rest.

    The whole table is exact when its programme is within :data:`EXACT_WORK_LIMIT`.
    Otherwise the rows in reach share the limit, each costed as if computed on its own (the
    programme is then within the limit many times over, which leaves the rows past it the
    time to be simulated); see :meth:`~deckcheck.draws.exact.capped.PlainProgramme.reach`.
    """
    from deckcheck.draws.exact.capped import PlainProgramme
    from deckcheck.draws.exact.reduced import reduce_problem

    if not queries or not problem.conditions:
        return None
    for query in queries:
        shape = deal_shape(problem, procedure, query)  # checks the query
        if shape.lookahead or shape.rule or shape.facts or _optimal_redraw(procedure, policy):
            return None
    queries = [replace(q, turns=None) for q in queries]
    seen = [q.seen for q in queries if impossible(problem, q) is None]
    if not seen:
        return PlainRows({q: _impossible_answer(problem, q) for q in queries})
    most = max(seen)
    programme = PlainProgramme(reduce_problem(problem), most)
    beyond: Intractable | None = None
    least_out: int | None = None
    top = programme.reach(EXACT_WORK_LIMIT, most)
    if top < most:
        top = programme.reach(EXACT_WORK_LIMIT, min(seen), seen)
        why = OutOfReach(Reach.ESTIMATE, Stage.EXACT, programme.cut, EXACT_WORK_LIMIT)
        if top >= min(seen):
            # The rows past the exact ones were costed together with them, not on their own.
            first_out = min(n for n in seen if n > top)
            why = OutOfReach(
                Reach.TABLE, Stage.EXACT, programme.cut, EXACT_WORK_LIMIT, seen=first_out
            )
        beyond = Intractable(why)
        if top < min(seen):
            # The first row is costed alone, so it is out of reach on its own, and every
            # draw of more cards costs at least as much.
            least_out = min(seen)
    table = programme.upto(top).ways(progress) if top >= min(seen) else []
    answers = {}
    for query in queries:
        if impossible(problem, query) is not None:
            answers[query] = _impossible_answer(problem, query)
        elif query.seen <= top:
            p = Fraction(table[query.seen], math.comb(problem.pile_size, query.seen))
            answers[query] = Answer.from_fractions(p, p, Method.HYPERGEOMETRIC, [])
    return PlainRows(answers, beyond, least_out)


def _impossible_answer(problem: DrawProblem, query: Query) -> Answer:
    """0 at once, with the reason (the query is known to be impossible)."""
    why_not = impossible(problem, query)
    assert why_not is not None
    return Answer.from_fractions(Fraction(0), Fraction(0), Method.IMPOSSIBLE, [why_not])


def _prepare_sampler(problem: DrawProblem, procedure: Procedure, query: Query, most: int) -> None:
    """Before simulating the rows of a plain table, build the sampler for its most cards
    seen once: it deals every smaller count too (see ``vectorised.pile_sampler``)."""
    shape = deal_shape(problem, procedure, query)
    if shape.rule is not None or shape.lookahead or most > problem.pile_size:
        return
    try:
        from deckcheck.draws.simulate.vectorised import pile_sampler
    except ImportError:  # no numpy: the reference simulator deals card by card
        return
    pile_sampler(problem.group_sizes, most)


def _simulated_instead(answer: Answer) -> Intractable | None:
    """Why ``answer`` was simulated in place of the exact engine, if it was."""
    for fact in answer.facts:
        if fact.kind is FactKind.SIMULATED_INSTEAD and fact.reason is not None:
            return Intractable(fact.reason)
    return None
