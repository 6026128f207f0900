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
from pathlib import Path
from typing import Any

from deckcheck.analysis.odds import OddsOptions, bind, compute_odds
from deckcheck.analysis.setup import deck_setup
from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.result import ILLEGAL, OK, Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Status
from deckcheck.decks.load import LoadedDeck, load_deck, owned_copies
from deckcheck.decks.resolve import lookup, pick
from deckcheck.decks.verdict import validate_loaded
from deckcheck.draws.model import Query
from deckcheck.export.inplace import answer_text, replace_with_answer
from deckcheck.export.write import read_now, write_atomically
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.solve.nearest import Change
from deckcheck.solve.optimize import BEST_FOUND, OPTIMAL, UNREACHABLE, Search, relaxed_note, search


def _fraction_text(p: Fraction | None) -> str | None:
    return None if p is None else f"{p.numerator}/{p.denominator}"


@frozen
class CurvePoint:
    """The chance of the conditions by the start of one turn."""

    turn: int
    cards_seen: int
    probability: float
    exact: bool

    def to_json(self) -> dict[str, Json]:
        """``{"turn", "cards_seen", "probability", "exact"}``."""
        return {
            "turn": self.turn,
            "cards_seen": self.cards_seen,
            "probability": self.probability,
            "exact": self.exact,
        }


@frozen
class OptimizeResult:
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
    curve_before: tuple[CurvePoint, ...] = ()
    curve_after: tuple[CurvePoint, ...] = ()
    report: Report | None = None
    validation_before: Report | None = None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    pile_before: int | None = None
    pile_after: int | None = None
    deck_size_after: int = 0
    text: str | None = None
    written_to: str | None = None
    backup: str | None = None
    cards: tuple[tuple[Card, int], ...] = field(default=(), repr=False)

    @property
    def exit_code(self) -> int:
        """0 with an answer (legal), 1 when no legal deck is within the limits."""
        if self.status == UNREACHABLE:
            return ILLEGAL
        if self.report is not None and self.report.status is Status.ILLEGAL:
            return ILLEGAL
        return OK

    @property
    def distance(self) -> int:
        """Copies added plus copies removed."""
        return sum(abs(c.delta) for c in self.changes)

    @property
    def added(self) -> int:
        """Copies added."""
        return sum(c.delta for c in self.changes if c.delta > 0)

    @property
    def removed(self) -> int:
        """Copies removed."""
        return -sum(c.delta for c in self.changes if c.delta < 0)

    def to_json(self) -> dict[str, Json]:
        """The answer as data (see docs/json.md)."""
        return {
            "deck": self.deck,
            "game": self.game,
            "variant": self.variant,
            "conditions": list(self.conditions),
            "cards_seen": self.cards_seen,
            "turn": self.turn,
            "second": self.second,
            "status": self.status,
            "probability_before": None if self.before is None else float(self.before),
            "probability_before_exact": _fraction_text(self.before),
            "probability": None if self.after is None else float(self.after),
            "probability_exact": _fraction_text(self.after),
            "distance": self.distance,
            "added": self.added,
            "removed": self.removed,
            "changes": [c.to_json() for c in self.changes],
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
            "curve_before": [p.to_json() for p in self.curve_before],
            "curve_after": [p.to_json() for p in self.curve_after],
            "pile_before": self.pile_before,
            "pile_after": self.pile_after,
            "deck_size": self.deck_size_after,
            "notes": list(self.notes),
            "validation": None if self.report is None else self.report.to_json(),
            "written_to": self.written_to,
            "backup": self.backup,
            "solve_seconds": round(self.seconds, 3),
        }


# ------------------------------------------------------------------------------ the inputs


def resolve_cards(loaded: LoadedDeck, names: Sequence[str], option: str) -> list[str]:
    """Card names or ids as catalog ids (a name several cards share needs the id)."""
    ids = []
    for name in names:
        match = lookup(name.strip(), loaded.catalog, loaded.game)
        found = list(match.cards)
        card = pick(found, loaded.game) if found and not match.refused else None
        if card is None:
            if found:
                listed = ", ".join(c.id for c in found[:6])
                raise UsageError(f"{option} {name!r} names several cards; give the id: {listed}")
            hint = loaded.catalog.suggest_name(name)
            raise UsageError(
                f"{option} {name!r}: no {loaded.game.id} card of that name",
                details=[f"did you mean: {', '.join(hint)}?"] if hint else [],
            )
        ids.append(card.id)
    return ids


# ------------------------------------------------------------------------------ the answer


def _answer_deck(loaded: LoadedDeck, values: Mapping[str, int]) -> tuple[Deck, tuple[Change, ...]]:
    """The deck with the new counts: its own cards in its order and zones (copies removed
    from a card's last lines first, added to its first line), new cards after them."""
    deck = loaded.deck
    counts = deck.counts()
    cards = {c.id: c for c in loaded.catalog}
    left = {i: values.get(i, 0) for i in counts}
    # Copies kept per line: each line keeps what it has while the card's new total allows,
    # the first lines first; copies added go to the card's first line.
    first: dict[str, int] = {}
    entries: list[DeckEntry] = []
    for e in deck:
        keep = min(e.count, left[e.card.id])
        left[e.card.id] -= keep
        first.setdefault(e.card.id, len(entries))
        entries.append(dataclasses.replace(e, count=keep))
    for card_id, extra in left.items():
        if extra:
            at = first[card_id]
            entries[at] = dataclasses.replace(entries[at], count=entries[at].count + extra)
    entries = [e for e in entries if e.count]
    entries += [DeckEntry(cards[i], n) for i, n in values.items() if i not in counts and n]
    changes = tuple(
        Change(cards[i], counts.get(i, 0), values.get(i, 0))
        for i in [*counts, *(i for i in values if i not in counts)]
        if values.get(i, 0) != counts.get(i, 0)
    )
    return dataclasses.replace(deck, entries=tuple(entries)), changes


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
    bound = bind(setup, conditions, options)
    try:
        answer = solve(
            bound.problem, procedure, query, Policy(redraw=options.redraw_policy), mode=Mode.EXACT
        )
    except (Intractable, ValueError):
        return None, setup.pile_size
    return answer.fraction, setup.pile_size


def _curve(
    loaded: LoadedDeck, conditions: Sequence[str], options: OddsOptions, turns: int
) -> tuple[CurvePoint, ...]:
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
    return tuple(CurvePoint(r.turn, r.cards_seen, r.probability, r.exact) for r in report.by_turn)


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
    keep_ids = resolve_cards(loaded, keep, "--keep")
    before_report = validate_loaded(loaded)
    found, _setup, _bound, query, procedure = search(
        loaded,
        conditions,
        options,
        changes=changes,
        keep=keep_ids,
        owned=owned,
        time_limit=time_limit,
        progress=progress,
    )
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
    deck, diff = _answer_deck(loaded, found.values)
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
    if not diff and status == OPTIMAL:
        notes.append("no deck within the limits does better than the deck as it is")
    elif not diff:
        notes.append("the search found no better deck than the deck as it is")
    return (
        OptimizeResult(
            **base,
            status=status,
            after=after,
            changes=diff,
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


def optimize_deck(
    deck: str,
    conditions: Sequence[str],
    options: OddsOptions,
    *,
    changes: int | None = None,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    write: bool = False,
    output: str | Path | None = None,
    force: bool = False,
    time_limit: float | None = None,
    context: Context = NO_CONTEXT,
    progress: Callable[[int, int], None] | None = None,
) -> OptimizeResult:
    """Open the deck (and the collection), search, and write the answer where asked:
    ``write`` replaces the file (the old one kept as ``DECK.bak``), ``output`` writes it there
    (``-``: only return its text)."""
    if write and output is not None:
        raise UsageError("give --write or -o FILE, not both")
    if write and deck == "-":
        raise UsageError("--write needs a deck file, not standard input (use -o FILE)")
    read_at_load = read_now(deck) if write else None  # replaced only if it still holds them
    loaded = load_deck(deck, context)
    counts = owned_copies(owned, loaded.game, context) if owned is not None else None
    result, answer = optimize_loaded(
        loaded,
        conditions,
        options,
        changes=changes,
        keep=keep,
        owned=counts,
        time_limit=time_limit,
        progress=progress,
    )
    if answer is None:
        return result
    if write:
        if not result.changes:
            return result
        moves = [(c.card, c.delta) for c in result.changes]
        text, saved = replace_with_answer(deck, read_at_load, loaded, answer, moves, context)
        return dataclasses.replace(result, text=text, written_to=str(deck), backup=str(saved))
    if output is not None:
        if str(output) == "-":
            return dataclasses.replace(result, text=answer_text(loaded, answer, None))
        text = answer_text(loaded, answer, Path(output))
        write_atomically(output, text, force=force)
        return dataclasses.replace(result, text=text, written_to=str(output))
    return result


__all__ = ["BEST_FOUND", "OPTIMAL", "UNREACHABLE", "OptimizeResult", "Search", "optimize_deck"]
