"""``optimize``: the legal deck within the limits that gives the best exact odds, proven best.

The search is :mod:`deckcheck.solve.optimize`; this use case opens the deck, the collection
and the kept cards, checks the answer as ``odds`` and ``validate`` see it, adds the curve by
turn before and after, and writes the answer where asked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any

from deckcheck.analysis.deadlines import deadline_chance, deadline_dues
from deckcheck.analysis.odds import OddsOptions, TurnRow, bind, compute_odds
from deckcheck.analysis.setup import deck_setup
from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Status
from deckcheck.decks.collection import deck_caps
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.draws.model import Query
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.inplace.edit import NOWHERE, AnswerTarget, Written
from deckcheck.solve.changes import (
    NO_LIMITS,
    UNREACHABLE,
    Change,
    CountChanges,
    Edit,
    Move,
    SolverLimits,
    answer_deck,
    resolve_cards,
)
from deckcheck.solve.optimize import BEST_FOUND, OPTIMAL, Limits, Search, relaxed_note, search


def _fraction_text(p: Fraction | None) -> str | None:
    return None if p is None else f"{p.numerator}/{p.denominator}"


@frozen
class OptimizeResult(CountChanges):
    """The best deck within the limits, and the proof.

    ``status``: ``optimal`` (no legal deck within the limits does better: ``evaluated`` mixes
    scored exactly, ``ruled_out`` skipped by a bound, ``unreachable`` proven out of reach),
    ``best found`` (the search was cut short or a mix could only be simulated;
    ``gain_bound`` is the most a deck could still gain), ``unreachable`` (no legal deck within
    the limits; ``notes`` say why). ``report`` validates the answer.
    """

    deck: str
    game: str
    variant: str
    conditions: tuple[str, ...]
    status: str
    cards_seen: int
    turn: int | None
    second: bool
    before: Fraction | None
    after: Fraction | None
    changes: tuple[Change, ...] = ()
    candidates: int = 0
    evaluated: int = 0
    ruled_out: int = 0
    unreachable: int = 0
    simulated: int = 0
    reached: int = 0
    gain_bound: Fraction | None = None
    curve_before: tuple[TurnRow, ...] = ()
    curve_after: tuple[TurnRow, ...] = ()
    report: Report | None = None
    validation_before: Report | None = None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    pile_before: int | None = None
    pile_after: int | None = None
    deck_size_after: int = 0
    written: Written | None = None
    cards: tuple[tuple[Card, int], ...] = field(default=(), repr=False)
    moved: tuple[Move, ...] = ()
    edits: tuple[Edit, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Json]:
        """The answer as data (see docs/json.md)."""
        return {
            **self.heading_json(),
            "conditions": list(self.conditions),
            "cards_seen": self.cards_seen,
            "turn": self.turn,
            "second": self.second,
            "status": self.status,
            "probability_before": None if self.before is None else float(self.before),
            "probability_before_exact": _fraction_text(self.before),
            "probability": None if self.after is None else float(self.after),
            "probability_exact": _fraction_text(self.after),
            **self.totals_json(),
            "changes": self.changes_json(),
            **self.moves_json(),
            "proof": {
                "status": self.status,
                "mixes": self.candidates,
                "evaluated": self.evaluated,
                "ruled_out_by_bound": self.ruled_out,
                "unreachable": self.unreachable,
                "reached": self.reached,
                "simulated": self.simulated,
                "gain_bound": None if self.gain_bound is None else float(self.gain_bound),
                "gain_bound_exact": _fraction_text(self.gain_bound),
            },
            "curve_before": [p.to_json(chance_without_mulligan=False) for p in self.curve_before],
            "curve_after": [p.to_json(chance_without_mulligan=False) for p in self.curve_after],
            "pile_before": self.pile_before,
            "pile_after": self.pile_after,
            "deck_size": self.deck_size_after,
            **self.outcome_json(),
        }


# ------------------------------------------------------------------------------ the answer


def _chance(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    query: Query,
    procedure: Any,
) -> tuple[Fraction | None, int | None]:
    """The exact chance as ``odds`` computes it for a deck (None: its pile is too small, or
    only a simulation could tell), and its pile's size."""
    from deckcheck.draws.answer import Intractable
    from deckcheck.draws.facade import Mode, Policy, solve

    setup = deck_setup(loaded)
    if setup.pile_size < query.seen:
        return None, setup.pile_size
    bound = bind(setup, conditions, options, deadlines=True)
    due = deadline_dues(setup, bound, options)
    if due is not None:
        return deadline_chance(
            bound.problem, procedure, query, due, options.redraw_policy
        ), setup.pile_size
    try:
        answer = solve(
            bound.problem, procedure, query, Policy(redraw=options.redraw_policy), mode=Mode.EXACT
        )
    except (Intractable, ValueError):
        return None, setup.pile_size
    return answer.fraction, setup.pile_size


def _curve(
    loaded: LoadedDeck, conditions: Sequence[str], options: OddsOptions, turns: int
) -> tuple[TurnRow, ...]:
    """The chance by the start of each turn 1..``turns`` (empty where turns do not apply)."""
    if turns < 1:
        return ()
    try:
        setup = deck_setup(loaded)
        if setup.builtin_pile:
            return ()
        report = compute_odds(
            setup,
            conditions,
            dataclasses.replace(options, seen=None, turn=1, by_turn=turns),
        )
    except DeckcheckError:
        return ()
    return report.by_turn


def _curve_turns(loaded: LoadedDeck, options: OddsOptions, seen: int, procedure: Any) -> int:
    if options.turn is not None:
        return options.turn
    turn = 1
    while procedure.seen_by_turn(turn + 1, options.second) <= seen and turn < 200:
        turn += 1
    return max(turn, 1)


def optimize_loaded(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    *,
    changes: int | None = None,
    keep: Sequence[str] = (),
    owned: Mapping[str, int] | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[OptimizeResult, Deck | None]:
    """Search, then check the answer as ``odds`` and ``validate`` see it (see the module)."""
    if time_limit is not None and time_limit <= 0:
        raise UsageError("--time-limit is a number of seconds above 0")
    keep_ids = frozenset(resolve_cards(loaded, keep, "--keep"))
    limits = Limits(changes, keep_ids, owned, time_limit)
    before_report = validate_loaded(loaded)
    found, _setup, _bound, query, procedure = search(
        loaded, conditions, options, limits, progress=progress
    )
    if owned is not None:
        found = dataclasses.replace(found, notes=owned_notes(found.notes, owned))
    before, pile_before = _chance(loaded, conditions, options, query, procedure)
    turns = _curve_turns(loaded, options, query.seen, procedure)
    base: dict[str, Any] = {
        "deck": loaded.deck.label,
        "game": loaded.game.id,
        "variant": loaded.variant.name,
        "conditions": tuple(conditions),
        "cards_seen": query.seen,
        "turn": options.turn,
        "second": options.second,
        "before": before,
        "validation_before": before_report,
        "pile_before": pile_before,
        "curve_before": _curve(loaded, conditions, options, turns) if pile_before else (),
    }
    if found.values is None:
        return (
            OptimizeResult(
                **base,
                status=UNREACHABLE,
                after=None,
                candidates=found.candidates,
                notes=found.notes,
                seconds=found.seconds,
            ),
            None,
        )
    # new cards in the order the search lists them
    default = next((z.name for z in loaded.game.zones if z.counted), None)
    made = answer_deck(loaded, found.cells or {}, found.values, default)
    deck, diff = made.deck, made.changes
    answer = dataclasses.replace(loaded, deck=deck)
    report = validate_loaded(answer)
    after, pile_after = _chance(answer, conditions, options, query, procedure)
    status = found.status
    notes = list(found.notes)
    gain = found.gain_bound
    if after != found.probability:
        # The search allowed every card order; the deck written out has one.
        status = BEST_FOUND
        notes.append(relaxed_note())
        if found.probability is not None:
            # the most any deck could score: the search's best, plus what a search cut short
            # left open
            most = found.probability + (found.gain_bound or Fraction(0))
            gain = max(Fraction(0), min(Fraction(1), most) - (after or Fraction(0)))
    if report.status is not Status.LEGAL:
        # The search ran over the decks the stated rules allow; a rule checked on the answer
        # only that it does not pass (or cannot decide) leaves the answer unproven.
        status = BEST_FOUND
        notes.append("the answer is not proven legal: a rule checked on it only (see below)")
    if not diff and not made.moved and status == OPTIMAL:
        notes.append("no deck within the limits does better than the deck as it is")
    elif not diff and not made.moved:
        notes.append("the search found no better deck than the deck as it is")
    return (
        OptimizeResult(
            **base,
            status=status,
            after=after,
            changes=diff,
            moved=made.moved,
            edits=made.edits,
            candidates=found.candidates,
            evaluated=found.evaluated,
            ruled_out=found.ruled_out,
            unreachable=found.unreachable,
            simulated=found.simulated,
            reached=found.reached,
            gain_bound=gain,
            curve_after=_curve(answer, conditions, options, turns),
            report=report,
            notes=tuple(notes),
            seconds=found.seconds,
            pile_after=pile_after,
            deck_size_after=deck.size,
            cards=tuple((e.card, e.count) for e in deck),
        ),
        deck,
    )


SEARCHED_UP_TO = "without --changes, each card is searched up to"
"""How the search's note on its own cap begins (a collection's caps replace it)."""


def owned_notes(notes: Sequence[str], owned: Mapping[str, int]) -> tuple[str, ...]:
    """The search's notes with its cap on copies (the largest number the deck names) replaced
    by the collection's: each card at most the copies it holds (a card the deck holds more
    of keeps the deck's)."""
    kept = [n for n in notes if not n.startswith(SEARCHED_UP_TO)]
    held = sorted({n for n in owned.values() if n > 0})
    if not held:
        caps = "the collection holds no card: only the deck's own copies are searched"
    else:
        span = f"{held[0]}" if len(held) == 1 else f"{held[0]}–{held[-1]}"
        caps = (
            f"each card is searched up to the copies the collection holds ({span} of each of "
            f"its {sum(1 for n in owned.values() if n > 0):,} cards; a card the deck holds "
            "more of, up to the deck's copies)"
        )
    return (*kept, caps)


@frozen
class OptimizeRequest:
    """The deck to improve in ``context`` for ``conditions`` under the draw ``options``, within
    ``limits`` (copies changed, cards kept, the collection, seconds), the answer put at
    ``target``."""

    deck: str
    conditions: tuple[str, ...]
    options: OddsOptions = OddsOptions()
    limits: SolverLimits = NO_LIMITS
    target: AnswerTarget = NOWHERE
    context: Context = NO_CONTEXT


def run(
    request: OptimizeRequest, progress: Callable[[int, int], None] | None = None
) -> OptimizeResult:
    """Open the deck (and the collection), search, and put the answer where the request's
    ``target`` says; ``progress`` is called with ``(done, total)`` now and then."""
    r, limits = request, request.limits
    read_at_load = r.target.read_deck(r.deck)
    loaded = load_deck(r.deck, r.context)
    caps = deck_caps(
        loaded,
        r.context,
        owned=limits.owned,
        collection=limits.collection,
        reserve=limits.reserve,
    )
    counts = caps.caps if caps is not None else None
    result, answer = optimize_loaded(
        loaded,
        r.conditions,
        r.options,
        changes=limits.changes,
        keep=limits.keep,
        owned=counts,
        time_limit=limits.time_limit,
        progress=progress,
    )
    if caps is not None and caps.notes:
        result = dataclasses.replace(result, notes=(*result.notes, *caps.notes))
    if answer is None or (r.target.write and not result.changes and not result.moved):
        return result  # no answer, or nothing to change: the file stays as it is
    written = r.target.put(r.deck, read_at_load, loaded, answer, result.moves, r.context)
    return dataclasses.replace(result, written=written)


__all__ = [
    "BEST_FOUND",
    "OPTIMAL",
    "UNREACHABLE",
    "OptimizeRequest",
    "OptimizeResult",
    "Search",
    "run",
]
