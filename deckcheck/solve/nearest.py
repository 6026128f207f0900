"""``fix``: the nearest legal deck, proven nearest, by mixed-integer programming.

Each rule of the deck's variant states itself as linear constraints over card counts, a card's
copies in one zone of the deck file where the rule counts a zone (a file's seed deck)
(:mod:`deckcheck.games.linear`); a rule that cannot is checked on the answer, and the result
says so. The programme (:mod:`deckcheck.solve.programme`, shared with ``optimize``) has the
copies of every card of the catalog in every zone as unknowns (within the collection, with
``--owned``); the objective is the number of changes: each copy added or removed, and each
copy moved from one zone to another. HiGHS's "optimal" status is the proof that no legal deck
is nearer. Among the nearest decks, further solves with the distance held break the tie, in
this order (see :mod:`deckcheck.solve.ties`): cards matching ``--prefer``; the fewest new
warnings; cards of the deck's own side (the affiliation or colour most of its cards carry);
the fewest of the deck's copies lost; the fewest copies of new cards; the fewest distinct
new cards.

When no legal deck is reachable, removing rules one at a time finds a smallest set of rules
(with ``--keep`` and ``--owned`` among them) that cannot all be met, which the result names.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any

from deckcheck.analysis.conditions import parse_condition
from deckcheck.catalog.deck import DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import ConditionError, InternalError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.linear import RuleConstraints
from deckcheck.inplace.edit import Written
from deckcheck.solve.changes import (
    UNREACHABLE,
    Change,
    CountChanges,
    Edit,
    Move,
    answer_deck,
    cards_by_id,
    resolve_cards,
)
from deckcheck.solve.programme import (
    DISTANCE,
    INFEASIBLE,
    KEEP,
    OPTIMAL,
    OWNED,
    TIME_LIMIT,
    DeckProgramme,
    Solved,
    deck_programme,
)
from deckcheck.solve.ties import settle, tie_breaks, tie_broken

__all__ = ["KEEP", "OWNED", "TIME_LIMIT", "FixResult", "nearest_legal"]


@frozen
class FixResult(CountChanges):
    """The nearest legal deck, or why there is none.

    ``status``: ``legal`` (nothing to change), ``fixed`` (``changes`` and ``moved`` make it
    legal; ``proven`` when the solver proved no legal deck is nearer), ``unreachable``
    (``conflict`` names the rules that cannot all be met, ``reasons`` why). ``report``
    validates the answer.
    """

    deck: str
    game: str
    variant: str
    status: str
    before: Report
    changes: tuple[Change, ...] = ()
    proven: bool = False
    report: Report | None = None
    conflict: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    written: Written | None = None
    cards: tuple[tuple[Card, int], ...] = field(default=(), repr=False)
    moved: tuple[Move, ...] = ()
    edits: tuple[Edit, ...] = field(default=(), repr=False)
    entries: tuple[DeckEntry, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Json]:
        """The fix as data: the changes, the moves, the proof, the answer's validation."""
        return {
            **self.heading_json(),
            "status": self.status,
            "status_before": str(self.before.status),
            **self.totals_json(),
            "proven_minimal": self.proven,
            "changes": self.changes_json(),
            **self.moves_json(),
            "conflict": list(self.conflict),
            "reasons": list(self.reasons),
            **self.outcome_json(),
        }


def _prefer(loaded: LoadedDeck, text: str | None) -> Callable[[Card], bool] | None:
    if not text:
        return None
    try:
        selector = parse_condition(text).selector
    except ConditionError:
        selector = text
    return bind_selector(selector, loaded.catalog, loaded.game.name_candidates)


def _unstated(stated: Mapping[str, RuleConstraints]) -> list[str]:
    return [
        f"{code} is checked on the answer only ({rc.note or 'not stated as constraints'})"
        for code, rc in stated.items()
        if not rc.exact
    ]


def _solve_nearest(
    loaded: LoadedDeck,
    keep: Sequence[str],
    owned: Mapping[str, int] | None,
    preferred: Callable[[Card], bool] | None,
    placed: bool | None = None,
) -> tuple[DeckProgramme, Solved]:
    model = deck_programme(loaded, keep=keep, owned=owned, placed=placed)
    # the tie-breaks declared first: the solver's view of alike cards is then built once
    tie_breaks(model, preferred, set())
    return model, model.programme.solve({DISTANCE: 1.0})


def nearest_legal(
    loaded: LoadedDeck,
    *,
    keep: Sequence[str] = (),
    owned: Mapping[str, int] | None = None,
    prefer: str | None = None,
) -> FixResult:
    """The nearest legal deck to ``loaded`` (see the module's description).

    ``keep``: card names or ids never removed; ``owned``: card id -> the most copies the
    answer may hold (0 when absent; a legal deck beyond a cap is changed too); ``prefer``: a
    selector or condition whose cards are preferred among the nearest decks.
    """
    before = validate_loaded(loaded)
    base: dict[str, Any] = {
        "deck": loaded.deck.label,
        "game": loaded.game.id,
        "variant": loaded.variant.name,
    }
    # The options are read first: a misspelt --keep is an error even on a legal deck.
    keep_ids = resolve_cards(loaded, keep, KEEP)
    preferred = _prefer(loaded, prefer)
    within = owned is None or all(n <= owned.get(i, 0) for i, n in loaded.deck.counts().items())
    if before.status is Status.LEGAL and within:
        return FixResult(**base, status="legal", before=before, report=before, proven=True)
    started = time.perf_counter()
    model, first = _solve_nearest(loaded, keep_ids, owned, preferred)
    if model.placed and first.status == OPTIMAL:
        # An answer that leaves no card in the file's seed zones is judged as placing its
        # cards by type: another programme, worth solving only where it could be nearer (every
        # copy in those zones must then move or go: at least that many changes).
        zoned = {z for (_, z) in model.held} - set(_draw_zones(model))
        least = sum(n for (_, z), n in model.held.items() if z in zoned)
        if least < round(first.objective):
            other, found = _solve_nearest(loaded, keep_ids, owned, preferred, placed=False)
            if found.status == OPTIMAL and found.objective < first.objective:
                model, first = other, found
    stated = model.stated
    unstated = _unstated(stated)
    if first.status == INFEASIBLE or first.x is None:
        groups = [*loaded.variant.rules, *(g for g in (KEEP, OWNED) if _has(model, g))]
        conflict = _conflict(model, groups) if first.status == INFEASIBLE else []
        seconds = time.perf_counter() - started
        reasons = [_reason(g, stated, len(conflict)) for g in conflict]
        if first.status != INFEASIBLE:
            reasons = [f"the solver stopped without an answer (status {first.status})"]
        return FixResult(
            **base,
            status=UNREACHABLE,
            before=before,
            conflict=tuple(conflict),
            reasons=tuple(reasons),
            notes=tuple(unstated),
            seconds=seconds,
        )
    proven = first.status == OPTIMAL
    best = first
    if proven:
        best = tie_broken(model, first, preferred)
    assert best.x is not None
    x = settle(model, best.x)
    seconds = time.perf_counter() - started
    order = next((rc.order for rc in stated.values() if rc.order), ())
    default = next((z.name for z in loaded.game.zones if z.counted), None)
    answer = answer_deck(loaded, model.values(x), (c.id for c in loaded.catalog), default)
    deck = answer.deck
    if order:
        # the rules fix the cards' order (a Drake stack): one line a card, in that order
        by_id = cards_by_id(loaded.catalog)
        deck = dataclasses.replace(deck, entries=tuple(DeckEntry(by_id[i], 1) for i in order))
    report = validate_loaded(dataclasses.replace(loaded, deck=deck))
    notes = list(unstated) + model.notes
    notes += [f"{code}: {rc.note}" for code, rc in stated.items() if rc.note and rc.exact]
    if order and [c.id for c in deck.sequence()] != [c.id for c in loaded.deck.sequence()]:
        notes.append(
            "the cards are put in the order the rules want: "
            + ", ".join(c.name for c in deck.sequence())
        )
    if not proven:
        notes.append(f"the solver stopped at its limit of {TIME_LIMIT:.0f} s: not proven minimal")
    if report.status is Status.ILLEGAL:
        failing = sorted({v.code for v in report.violations if v.severity is Severity.ERROR})
        bare = dataclasses.replace(loaded, deck=dataclasses.replace(deck, side=()))
        if deck.side and validate_loaded(bare).status is not Status.ILLEGAL:
            # the side zones (a Q's Tent) break it, and fix changes the counted deck only
            return FixResult(
                **base,
                status=UNREACHABLE,
                before=before,
                conflict=tuple(failing),
                reasons=tuple(
                    f"{code}: broken by the side zones, which fix leaves as they are"
                    for code in failing
                ),
                notes=tuple(notes),
                seconds=seconds,
            )
        if all(code in stated and not stated[code].exact for code in failing):
            # a rule the programme cannot state broke on the answer: no legal deck found
            # (not proven that none exists)
            return FixResult(
                **base,
                status=UNREACHABLE,
                before=before,
                conflict=tuple(failing),
                reasons=tuple(
                    f"{code}: the nearest deck the stated rules allow breaks it (it is checked "
                    "on the answer only): no legal deck found"
                    for code in failing
                ),
                notes=tuple(notes),
                seconds=seconds,
            )
        raise InternalError(
            f"the nearest deck found for {loaded.deck.label} breaks {', '.join(failing)} "
            "when checked; it is not shown (please report this deck)"
        )
    return FixResult(
        **base,
        status="fixed",
        before=before,
        changes=answer.changes,
        moved=answer.moved,
        edits=answer.edits,
        proven=proven,
        report=report,
        notes=tuple(notes),
        seconds=seconds,
        cards=tuple((e.card, e.count) for e in deck),
        entries=deck.entries,
    )


def _draw_zones(model: DeckProgramme) -> list[str | None]:
    rules = model.loaded.variant.set_aside or ()
    named = {r.zone for r in rules if r.zone}
    return [z for z in model.zones if z not in named]


def _has(model: DeckProgramme, group: str) -> bool:
    p = model.programme
    return group in p.bound_groups or any(r[3] == group for r in p.rows)


def _conflict(model: DeckProgramme, groups: Sequence[str]) -> list[str]:
    """A smallest set of groups that cannot all hold (deletion filter: drop each group whose
    absence leaves the rest still infeasible)."""
    kept = list(groups)
    for group in list(groups):
        trial = [g for g in kept if g != group]
        if model.programme.solve(None, groups=set(trial)).status == INFEASIBLE:
            kept = trial
    return kept


def _reason(group: str, stated: Mapping[str, RuleConstraints], groups: int = 2) -> str:
    if group == KEEP:
        return "--keep: the kept cards cannot all stay"
    if group == OWNED:
        return "--owned: the collection lacks cards the rules need"
    note = stated[group].note
    if note:
        return f"{group}: {note}"
    # "with the others listed" only where others are listed
    return f"{group} cannot be met" + (" together with the others listed" if groups > 1 else "")
