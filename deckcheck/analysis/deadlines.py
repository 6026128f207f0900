"""A deadline per condition (``CONDITION@TURN``) and the turn the conditions first hold.

Both are answered exactly by :mod:`deckcheck.draws.exact.deadlines`, with the game's mulligan
and look-ahead played as ``odds`` plays them: optimally for the question asked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction

from deckcheck.analysis.odds import (
    Bound,
    OddsOptions,
    OddsReport,
    bind,
    cards_seen,
    compute_odds,
    last_turn,
    report,
)
from deckcheck.analysis.setup import DrawSetup
from deckcheck.core.errors import UsageError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.draws.answer import (
    Answer,
    Fact,
    FactKind,
    Intractable,
    Method,
    lookahead_fact,
    reason_text,
)
from deckcheck.draws.exact.deadlines import (
    DEADLINE_BUDGET,
    Deadlines,
    Meter,
    deadline_table,
    first_turns,
    least_work,
)
from deckcheck.draws.exact.guide import HandTable, RuleKind
from deckcheck.draws.impossible import impossible
from deckcheck.draws.model import DrawProblem, Procedure, Query

#: Turns an expected-turn table covers when neither ``--turn`` nor ``--by-turn`` says.
DEFAULT_HORIZON = 10


def answer_odds(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """``odds`` with everything it takes: conditions with their own deadline (``@TURN``,
    exact, :func:`deadline_odds`), the others by :func:`~deckcheck.analysis.odds.compute_odds`;
    with ``options.expected_turn``, when the conditions first hold (:func:`expected_turn`)."""
    bound = bind(setup, condition_texts, options, deadlines=True, quiet=True)
    if any(c.deadline is not None for c in bound.conditions):
        got = deadline_odds(setup, bound, options)
    else:
        got = compute_odds(setup, condition_texts, options, progress)
    if options.expected_turn:
        got = dataclasses.replace(got, expected_turn=expected_turn(setup, bound, options))
    return got


def with_expected_turn(
    setup: DrawSetup, condition_texts: Sequence[str], options: OddsOptions, got: OddsReport
) -> OddsReport:
    """``got`` with when the conditions first hold (up to ``options``' turns), where that is in
    exact reach; ``got`` as it is otherwise (a sheet shows what it can)."""
    from deckcheck.core.errors import DeckcheckError

    try:
        bound = bind(setup, condition_texts, options, deadlines=True, quiet=True)
        return dataclasses.replace(got, expected_turn=expected_turn(setup, bound, options))
    except DeckcheckError:
        return got


def deadline_dues(setup: DrawSetup, bound: Bound, options: OddsOptions) -> tuple[int, ...] | None:
    """Cards seen by each condition's deadline, without checking them against the pile (a
    search over decks of other sizes checks each deck); None when no condition has its own."""
    if all(c.deadline is None for c in bound.conditions):
        return None
    if setup.builtin_pile:
        raise UsageError(f"{setup.label} is a pile drawn once: a deadline (@TURN) does not apply")
    procedure = bound.procedure
    if options.turn is not None:
        base = procedure.seen_by_turn(options.turn, options.second)
    elif options.seen is not None:
        base = options.seen
    else:
        base = procedure.opening_size(options.second)
    return tuple(
        base if c.deadline is None else procedure.seen_by_turn(c.deadline, options.second)
        for c in bound.conditions
    )


def deadline_chance(
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    due: Sequence[int],
    redraw_policy: str = "optimal",
) -> Fraction | None:
    """The exact chance of a question with deadlines ``due`` for one deck's problem (as
    :func:`deadline_odds` computes it); None when out of exact reach or beyond the pile."""
    request = Deadlines(
        problem, procedure, tuple(due), query.second, query.use_mulligan, redraw_policy
    )
    try:
        return deadline_table(request).value
    except (Intractable, ValueError):
        return None


def due_cards(setup: DrawSetup, bound: Bound, options: OddsOptions) -> tuple[int, ...]:
    """Cards seen by each condition's deadline: its own turn's (``@TURN``), else the
    question's (``--turn``/``--seen``, default the opening hand)."""
    if setup.builtin_pile:
        raise UsageError(f"{setup.label} is a pile drawn once: a deadline (@TURN) does not apply")
    procedure = bound.procedure
    default = cards_seen(setup, procedure, options, options.turn)
    out = []
    for condition in bound.conditions:
        if condition.deadline is None:
            out.append(default)
            continue
        seen = procedure.seen_by_turn(condition.deadline, options.second)
        if seen > setup.pile_size:
            last = last_turn(procedure, options.second, setup.pile_size)
            raise UsageError(
                f"{condition.text}: turn {condition.deadline} would need {seen} cards seen, and "
                f"the pile holds {setup.pile_size} (the last turn it covers is {last})"
            )
        out.append(seen)
    return tuple(out)


def _request(
    bound: Bound, options: OddsOptions, due: Sequence[int], use_mulligan: bool | None = None
) -> Deadlines:
    return Deadlines(
        bound.problem,
        bound.procedure,
        tuple(due),
        options.second,
        options.mulligan == "rules" if use_mulligan is None else use_mulligan,
        options.redraw_policy,
    )


def _out_of_reach(exc: Intractable) -> UsageError:
    why = reason_text(exc.reason) if exc.reason is not None else str(exc)
    return UsageError(
        f"the exact answer with a deadline per condition is out of reach ({why}); ask fewer "
        "cards seen or fewer conditions"
    )


def play_facts(table: HandTable, options: OddsOptions, lookahead: bool) -> list[Fact]:
    """What the answer assumed about the player's choices."""
    facts = []
    if lookahead:
        facts.append(lookahead_fact(True))
    if table.kind is RuleKind.REDRAW:
        if options.redraw_policy == "optimal":
            facts.append(Fact(FactKind.REDRAW_OPTIMAL))
        else:
            facts.append(Fact(FactKind.REDRAW_WHENEVER_ALLOWED))
    elif table.kind is RuleKind.RETURN:
        facts.append(Fact(FactKind.RETURN_OPTIMAL))
    return facts


def deadline_table_of(
    setup: DrawSetup, bound: Bound, options: OddsOptions, budget: Meter | None = None
) -> HandTable:
    """The hand table of a question with deadlines (:class:`UsageError` when out of reach);
    ``budget``: the meter its work is counted on (default: a fresh one)."""
    due = due_cards(setup, bound, options)
    try:
        return deadline_table(_request(bound, options, due), budget=budget or Meter())
    except Intractable as exc:
        raise _out_of_reach(exc) from exc


def deadline_odds(setup: DrawSetup, bound: Bound, options: OddsOptions) -> OddsReport:
    """The exact chance that every condition holds by its own deadline."""
    if options.by_turn is not None:
        raise UsageError(
            "--by-turn asks every condition by one turn; a condition with its own deadline "
            "(@TURN) keeps it: leave --by-turn out"
        )
    due = due_cards(setup, bound, options)
    table = deadline_table_of(setup, bound, options)
    lookahead = bound.procedure.lookahead and max(due) > bound.procedure.opening_size(
        options.second
    )
    answer = Answer.from_fractions(
        table.value, table.plain, Method.DEADLINES, play_facts(table, options, lookahead)
    )
    notes = []
    for condition, seen in zip(bound.conditions, due, strict=True):
        turn = condition.deadline if condition.deadline is not None else options.turn
        when = f"by the start of own turn {turn}" if turn is not None else "by then"
        notes.append(f"{condition.text}: must hold {when}, over the first {seen} cards seen")
    return report(setup, bound, options, max(due), answer, notes)


@frozen
class FirstTurns:
    """When the conditions first hold, for one player (on the play or on the draw).

    ``probabilities[t - 1]``: P(the first turn at whose start every condition holds is ``t``),
    for ``t`` = 1 … ``len(probabilities)``; ``later``: they hold at none of those turns.
    ``mean`` is None when ``later`` is not 0 (then ``mean_when_held`` is the mean over the
    deals in which they do hold by the last turn); ``median`` is None when it is later than
    the last turn.
    """

    second: bool
    cards_seen: tuple[int, ...]
    probabilities: tuple[Fraction, ...]
    later: Fraction
    mean: Fraction | None
    mean_when_held: Fraction | None
    median: int | None

    def to_json(self) -> dict[str, Json]:
        """``{"second", "turns": [{"turn", "cards_seen", "probability", "probability_exact",
        "cumulative"}...], "later", "later_exact", "mean", "mean_exact", "mean_when_held",
        "median"}``."""
        rows: list[Json] = []
        running = Fraction(0)
        for t, (seen, p) in enumerate(zip(self.cards_seen, self.probabilities, strict=True)):
            running += p
            rows.append(
                {
                    "turn": t + 1,
                    "cards_seen": seen,
                    "probability": float(p),
                    "probability_exact": str(p),
                    "cumulative": float(running),
                }
            )
        return {
            "second": self.second,
            "turns": rows,
            "later": float(self.later),
            "later_exact": str(self.later),
            "mean": None if self.mean is None else float(self.mean),
            "mean_exact": None if self.mean is None else str(self.mean),
            "mean_when_held": None if self.mean_when_held is None else float(self.mean_when_held),
            "median": self.median,
        }


@frozen
class ExpectedTurn:
    """The first turn the conditions hold, on the play and on the draw, up to ``horizon``
    (the turns asked, or fewer where more were out of exact reach: see ``wanted``)."""

    horizon: int
    play: FirstTurns
    draw: FirstTurns
    wanted: int = 0
    """The turns asked (the default 10 when none were): more than ``horizon`` when that many
    were out of exact reach."""

    def to_json(self) -> dict[str, Json]:
        """``{"horizon", "horizon_wanted", "policy", "on_the_play", "on_the_draw"}``."""
        return {
            "horizon": self.horizon,
            "horizon_wanted": max(self.wanted, self.horizon),
            "policy": POLICY_TEXT.format(horizon=self.horizon),
            "on_the_play": self.play.to_json(),
            "on_the_draw": self.draw.to_json(),
        }


POLICY_TEXT = (
    "the mulligan and the look at the top card are played to maximise the chance that the "
    "conditions hold at the start of turn {horizon}, as odds --turn {horizon} plays them; the "
    "first turn is the first turn at whose start every condition holds"
)


def horizon_of(setup: DrawSetup, bound: Bound, options: OddsOptions) -> int:
    """The last turn an expected-turn table covers: ``--by-turn``, else ``--turn``, else
    :data:`DEFAULT_HORIZON`, cut to the turns the pile covers for both players."""
    want = options.by_turn or options.turn or DEFAULT_HORIZON
    if want < 1 or want > 200:
        raise UsageError("the turns of --expected-turn run from 1 to 200")
    last = min(last_turn(bound.procedure, s, setup.pile_size) for s in (False, True))
    if last < 1:
        raise UsageError("the pile is smaller than an opening hand and a turn")
    return min(want, last)


def expected_turn(setup: DrawSetup, bound: Bound, options: OddsOptions) -> ExpectedTurn:
    """The exact distribution of the first turn at which every condition holds, on the play
    and on the draw (``options.second`` is ignored: both are given)."""
    if setup.builtin_pile:
        raise UsageError(f"{setup.label} is a pile drawn once: it has no turns")
    if any(c.deadline is not None for c in bound.conditions):
        raise UsageError("--expected-turn asks when every condition first holds: leave out @TURN")
    if options.seen is not None:
        raise UsageError("--expected-turn counts turns: give --turn (the last turn), not --seen")
    horizon = horizon_of(setup, bound, options)
    if all(_never(bound, horizon, second) for second in (False, True)):
        # No deal holds the conditions at any of these turns (they contradict each other,
        # or ask for more cards than are seen or in the pile): none first holds, at once.
        play, draw = (
            _first(s, _seen(bound, horizon, s)[1:], [Fraction(0)] * horizon) for s in (False, True)
        )
        return ExpectedTurn(horizon, play, draw, horizon)
    asked = options.by_turn is not None or options.turn is not None
    # Without a number of turns asked, fewer turns are tried when the default is out of reach:
    # the default first, with its part of the budget; past it, the fewer turns from the fewest
    # up, each with all the tries before it left, the most turns that fit kept. A walk over
    # more turns takes more work, as a rule: the fewest first leave the most to the next, and
    # a try that runs out ends the search.
    fewer = [] if asked else sorted({min(horizon, h) for h in (6, 3)} - {horizon})
    tries = [horizon, *fewer]
    why = ""
    spent = 0
    best: ExpectedTurn | None = None
    for k, turns in enumerate(tries):
        # The tries share one budget, so that the answer stays within about a second; a
        # try whose least work (the hands listed, from the problem's shape) is past its part
        # is refused before any of it, and leaves it to the others.
        left = DEADLINE_BUDGET - spent
        meter = Meter(left // len(tries) if k == 0 else left, whole=DEADLINE_BUDGET)
        # Where both players hold as many cards at every turn (no larger hand, no extra cards
        # for the player who does not start), the deal is the same: one walk serves both.
        alike = _seen(bound, turns, False) == _seen(bound, turns, True)
        try:  # both players share the work
            sides = (False,) if alike else (False, True)
            both = "" if alike else ", for each player"
            meter.need(
                sum(_least(bound, options, turns, second) for second in sides),
                f"the opening hands listed and each walked once at least{both}",
            )
            play = _side(bound, options, turns, False, meter)
            draw = (
                dataclasses.replace(play, second=True)
                if alike
                else _side(bound, options, turns, True, meter)
            )
        except Intractable as exc:
            why = reason_text(exc.reason) if exc.reason is not None else str(exc)
            spent += min(meter.work, meter.budget)
            if k == 0:
                continue
            break
        best = ExpectedTurn(turns, play, draw, horizon)
        if k == 0:
            return best
        spent += meter.work
    if best is not None:
        return best
    hint = "give a smaller --turn" if asked else "ask fewer conditions"
    fewest = tries[1] if len(tries) > 1 else tries[0]
    raise UsageError(
        f"when the conditions first hold is out of exact reach over {fewest} turn(s) "
        f"({why}); {hint}"
    )


def _request_of(bound: Bound, options: OddsOptions, turns: int, second: bool) -> Deadlines:
    proc = bound.procedure
    return Deadlines(
        bound.problem,
        proc,
        tuple([proc.seen_by_turn(turns, second)] * len(bound.conditions)),
        second,
        options.mulligan == "rules",
        options.redraw_policy,
    )


def _never(bound: Bound, turns: int, second: bool) -> bool:
    """Whether no deal of one player holds the conditions at the start of any turn, 1 …
    ``turns`` (:func:`~deckcheck.draws.impossible.impossible` at each: from counts alone)."""
    proc = bound.procedure
    return all(
        impossible(bound.problem, Query(proc.seen_by_turn(t, second), second)) is not None
        for t in range(1, turns + 1)
    )


def _seen(bound: Bound, turns: int, second: bool) -> tuple[int, ...]:
    """The cards one player holds at the start of each turn, 1 … ``turns``, and in the opening
    hand (what the walks of :func:`_side` depend on the seat for)."""
    proc = bound.procedure
    return (
        proc.opening_size(second),
        *(proc.seen_by_turn(t, second) for t in range(1, turns + 1)),
    )


def _least(bound: Bound, options: OddsOptions, turns: int, second: bool) -> int:
    """The least work of one player's first turns, 1 … ``turns`` (see :func:`least_work`)."""
    proc = bound.procedure
    seen = [proc.seen_by_turn(t, second) for t in range(1, turns + 1)]
    return least_work(_request_of(bound, options, turns, second), seen)


def _side(
    bound: Bound, options: OddsOptions, turns: int, second: bool, budget: Meter
) -> FirstTurns:
    """One player's first turns, 1 … ``turns``."""
    proc = bound.procedure
    seen = [proc.seen_by_turn(t, second) for t in range(1, turns + 1)]
    probs, _ = first_turns(_request_of(bound, options, turns, second), seen, budget=budget)
    return _first(second, tuple(seen), probs)


def _first(second: bool, seen: tuple[int, ...], probs: Sequence[Fraction]) -> FirstTurns:
    held = sum(probs, Fraction(0))
    later = 1 - held
    weighted = sum((Fraction(t + 1) * p for t, p in enumerate(probs)), Fraction(0))
    mean = weighted if later == 0 else None
    mean_when_held = weighted / held if held else None
    median = None
    running = Fraction(0)
    for t, p in enumerate(probs):
        running += p
        if running >= Fraction(1, 2):
            median = t + 1
            break
    return FirstTurns(second, seen, tuple(probs), later, mean, mean_when_held, median)
