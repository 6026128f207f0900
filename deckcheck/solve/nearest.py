"""``fix``: the nearest legal deck, proven nearest, by mixed-integer programming.

Each rule of the deck's variant states itself as linear constraints over card counts, a card's
copies in one zone of the deck file where the rule counts a zone (a file's seed deck)
(:mod:`deckcheck.games.linear`); a rule that cannot is checked on the answer, and the result
says so. The programme (:mod:`deckcheck.solve.programme`, shared with ``optimize``) has the
copies of every card of the catalog in every zone as unknowns (within the collection, with
``--owned``); the objective is the number of changes: each copy added or removed, and each
copy moved from one zone to another. HiGHS's "optimal" status is the proof that no legal deck
is nearer. Among the nearest decks, further solves with the distance held break the tie, in
this order: cards matching ``--prefer``; no new warning; cards of the deck's own side (the
affiliation or colour most of its cards carry); more copies of the deck's own cards rather
than new cards; and, among alike cards, as few distinct ones as can be.

When no legal deck is reachable, removing rules one at a time finds a smallest set of rules
(with ``--keep`` and ``--owned`` among them) that cannot all be met, which the result names.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any

from deckcheck.analysis.conditions import parse_condition
from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import ConditionError, InternalError
from deckcheck.core.result import Json
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.inplace import Written
from deckcheck.games.linear import RuleConstraints
from deckcheck.solve.changes import (
    UNREACHABLE,
    Change,
    CountChanges,
    Edit,
    Move,
    answer_deck,
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

__all__ = ["KEEP", "OWNED", "TIME_LIMIT", "FixResult", "nearest_legal"]

WARNING_ROUNDS = 4
"""Solves spent steering clear of cards whose addition brings a new warning."""


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
    moved: tuple[Move, ...] = ()
    edits: tuple[Edit, ...] = field(default=(), repr=False)
    proven: bool = False
    report: Report | None = None
    conflict: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    written: Written | None = None
    cards: tuple[tuple[Card, int], ...] = field(default=(), repr=False)
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
            "moves": self.moves_json(),
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


def _side_errors(loaded: LoadedDeck) -> list[str]:
    """The rules the deck's side zones break on their own (a Q's Tent of 14 cards): fix
    changes the counted deck only, so no answer mends them."""
    side = {e.card.id for e in loaded.deck.side}
    if not side:
        return []
    report = validate_loaded(loaded)
    return sorted(
        {
            v.code
            for v in report.violations
            if v.severity is Severity.ERROR
            and v.cards
            and set(v.cards) <= side
            and not set(v.cards) & set(loaded.deck.counts())
        }
    )


def side_values(loaded: LoadedDeck) -> dict[str, str]:
    """Field -> the value most of the deck's cards carry, for each field the game names a
    card's side by (an affiliation, a colour); a field no card carries is left out."""
    out: dict[str, str] = {}
    for name in loaded.game.spec.game.side_fields:
        tally: Counter[str] = Counter()
        for e in loaded.deck.entries:
            for value in _field_values(e.card, name):
                tally[value] += e.count
        if tally:
            out[name] = min(tally.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return out


def _field_values(card: Card, name: str) -> set[str]:
    value = card.get(name)
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    return {fold(str(v)) for v in items if str(v)}


def off_side(loaded: LoadedDeck) -> Callable[[Card], bool]:
    """Whether a card carries a side field without the deck's own value of it (a Vulcan
    Outpost in a Federation deck); a card without the field is on no side."""
    own = side_values(loaded)

    def off(card: Card) -> bool:
        for name, value in own.items():
            values = _field_values(card, name)
            if values and value not in values:
                return True
        return False

    return off


def tie_breaks(
    model: DeckProgramme,
    preferred: Callable[[Card], bool] | None,
    penalised: set[str],
    new_only: bool = True,
) -> list[tuple[str, float]]:
    """The objectives that break a tie among equally good answers, in order, declared on the
    model: ``--prefer`` (most copies), new warnings (cards in ``penalised``), cards off the
    deck's side, new cards (fewest copies). (name, factor) each."""
    p = model.programme
    cards = {c.id: c for c in model.loaded.catalog}
    own = {card_id for card_id, _ in model.held}
    off = off_side(model.loaded)
    order: list[tuple[str, float]] = []

    def weigh(name: str, factor: float, chosen: Callable[[str], bool]) -> None:
        terms = {v: 1.0 for i, mine in model.by_card.items() if chosen(i) for v in mine}
        p.weigh(name, terms)
        if terms:
            order.append((name, factor))

    if preferred is not None:
        weigh("prefer", -1.0, lambda i: bool(preferred(cards[i])))
    weigh("warning", 1.0, lambda i: i in penalised and i not in own)
    weigh("off-side", 1.0, lambda i: i not in own and off(cards[i]))
    weigh("new", 1.0, lambda i: i not in own)
    return order


def lexicographic(
    model: DeckProgramme, first: Solved, order: Sequence[tuple[str, float]], **kw: Any
) -> Solved:
    """Among the solutions as good as ``first`` on the distance, the best on each objective of
    ``order`` in turn, each held at its best for the next (a solve that fails keeps the
    last)."""
    p = model.programme
    held = [(DISTANCE, -math.inf, float(round(first.objective)))]
    best = first
    for name, factor in order:
        got = p.solve({name: factor}, held=held, **kw)
        if got.status != OPTIMAL or got.x is None:
            break
        best = got
        value = round(got.objective / factor)
        held.append((name, float(value), math.inf) if factor < 0 else (name, -math.inf, value))
    return best


def settle(model: DeckProgramme, x: Sequence[float]) -> list[float]:
    """The solution with each new card's copies in the zone the game puts the card, where
    that zone is alike to the one the solver chose (a mission among the missions)."""
    place = model.loaded.game.place
    out = list(x)
    if place is None:
        return out
    own = {card_id for card_id, _ in model.held}
    cards = {c.id: c for c in model.loaded.catalog}
    by_card: dict[str, dict[str | None, int]] = {}
    for (card_id, zone), v in model.cells.items():
        if card_id not in own and round(out[v]):
            by_card.setdefault(card_id, {})[zone] = v
    for card_id, used in by_card.items():
        n = sum(round(out[v]) for v in used.values())
        deck = Deck(
            "new", model.loaded.game.id, model.variant.name, (DeckEntry(cards[card_id], n),)
        )
        placed = place(deck)
        zone = next((e.zone for e in placed.entries), None)
        target = model.cells.get((card_id, zone))
        if target is None:
            continue
        for v in used.values():
            if v != target and model.programme.alike(v, target):
                out[target] += out[v]
                out[v] = 0.0
    return out


def _solve_nearest(
    loaded: LoadedDeck,
    keep: Sequence[str],
    owned: Mapping[str, int] | None,
    placed: bool | None = None,
) -> tuple[DeckProgramme, Solved]:
    model = deck_programme(loaded, keep=keep, owned=owned, placed=placed)
    return model, model.programme.solve({DISTANCE: 1.0})


def nearest_legal(
    loaded: LoadedDeck,
    *,
    keep: Sequence[str] = (),
    owned: Mapping[str, int] | None = None,
    prefer: str | None = None,
) -> FixResult:
    """The nearest legal deck to ``loaded`` (see the module's description).

    ``keep``: card names or ids never removed; ``owned``: card id -> copies in the collection
    (a card's copies stay within what the deck holds or the collection has); ``prefer``: a
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
    if before.status is Status.LEGAL:
        return FixResult(**base, status="legal", before=before, report=before, proven=True)
    started = time.perf_counter()
    side = _side_errors(loaded)
    if side:
        return FixResult(
            **base,
            status=UNREACHABLE,
            before=before,
            conflict=tuple(side),
            reasons=tuple(
                f"{code}: broken by the side zones, which fix leaves as they are" for code in side
            ),
            seconds=time.perf_counter() - started,
        )
    model, first = _solve_nearest(loaded, keep_ids, owned)
    if model.placed and first.status == OPTIMAL:
        # An answer that leaves no card in the file's seed zones is judged as placing its
        # cards by type: another programme, worth solving only where it could be nearer (every
        # copy in those zones must then move or go: at least that many changes).
        zoned = {z for (_, z) in model.held} - set(_draw_zones(model))
        least = sum(n for (_, z), n in model.held.items() if z in zoned)
        if least < round(first.objective):
            other, found = _solve_nearest(loaded, keep_ids, owned, placed=False)
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
        best = _tie_broken(model, first, preferred)
    assert best.x is not None
    x = settle(model, best.x)
    seconds = time.perf_counter() - started
    order = next((rc.order for rc in stated.values() if rc.order), ())
    default = next((z.name for z in loaded.game.zones if z.counted), None)
    answer = answer_deck(loaded, model.values(x), (c.id for c in loaded.catalog), default)
    deck = answer.deck
    if order:
        # the rules fix the cards' order (a Drake stack): one line a card, in that order
        by_id = {c.id: c for c in loaded.catalog}
        deck = dataclasses.replace(deck, entries=tuple(DeckEntry(by_id[i], 1) for i in order))
    report = validate_loaded(dataclasses.replace(loaded, deck=deck))
    notes = list(unstated)
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


def _tie_broken(
    model: DeckProgramme, first: Solved, preferred: Callable[[Card], bool] | None
) -> Solved:
    """Among the nearest decks, the one the tie-breaks choose; cards whose addition brings a
    warning the deck did not have are learnt from the answers and steered clear of."""
    loaded = model.loaded
    had = {(v.code, c) for v in validate_loaded(loaded).violations for c in v.cards}
    penalised: set[str] = set()
    best = first
    for _ in range(WARNING_ROUNDS):
        order = tie_breaks(model, preferred, penalised)
        best = lexicographic(model, first, order)
        assert best.x is not None
        totals = model.totals(best.x)
        added = {i for i, n in totals.items() if n > loaded.deck.counts().get(i, 0)}
        cells = model.values(settle(model, best.x))
        default = next((z.name for z in loaded.game.zones if z.counted), None)
        deck = answer_deck(loaded, cells, sorted(added), default).deck
        report = validate_loaded(dataclasses.replace(loaded, deck=deck))
        blamed = {
            card_id
            for v in report.violations
            if v.severity is Severity.WARNING
            for card_id in v.cards
            if card_id in added and (v.code, card_id) not in had
        } - penalised
        if not blamed:
            break
        penalised |= blamed
    return best


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
