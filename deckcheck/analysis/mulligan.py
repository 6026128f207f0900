"""``mulligan``: the exact mulligan guide of a deck for a question, hand class by hand class.

The table is the one ``odds`` plays (:mod:`deckcheck.draws.exact.guide`): following it gives
the chance ``odds`` reports for the same question.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from deckcheck.analysis.odds import Bound, OddsOptions, assumptions, bind, cards_seen
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.result import OK, Json
from deckcheck.core.values import frozen
from deckcheck.draws.answer import Intractable, Stage, reason_text
from deckcheck.draws.exact.guide import (
    Charge,
    Choice,
    HandRow,
    HandTable,
    RuleKind,
    class_name,
    prepaid,
    redraw_guide,
    return_guide,
    rule_columns,
    rule_of_thumb,
)
from deckcheck.draws.model import Procedure, Query, RedrawRule, Request, ReturnRule

#: Hand classes shown without ``--all`` (the most often dealt).
SHOWN_ROWS: Final = 15


@frozen
class GuideRow:
    """One hand class: its cards per class, how often it is dealt, the chances and the play.

    ``decision``: ``keep``, ``redraw``, ``return`` (the best play), or ``no choice`` (the rule
    offers none for this hand). ``alternative``: the chance if redrawn or if ``returned``
    (per class) goes back; ``margin``: alternative minus kept, in percentage points.
    """

    hand: tuple[int, ...]
    frequency: Fraction
    keep: Fraction
    alternative: Fraction | None
    decision: str
    returned: tuple[int, ...] | None

    @property
    def margin(self) -> float | None:
        """The alternative's chance minus the kept hand's, in percentage points."""
        if self.alternative is None:
            return None
        return float((self.alternative - self.keep) * 100)

    @property
    def best(self) -> Fraction:
        """The chance with the guide's play."""
        if self.decision in ("redraw", "return") and self.alternative is not None:
            return self.alternative
        return self.keep


@frozen
class MulliganGuide:
    """The guide: every hand class (``rows``, most often dealt first), the rule of thumb when
    one fits, and the chance with the guide's play and without the mulligan."""

    deck: str
    game: str
    conditions: tuple[str, ...]
    cards_seen: int
    turn: int | None
    second: bool
    kind: str
    classes: tuple[str, ...]
    class_sizes: tuple[int, ...]
    rows: tuple[GuideRow, ...]
    shown: int
    probability: Fraction
    probability_without_mulligan: Fraction
    rule_of_thumb: str | None
    assumptions: tuple[str, ...]

    exit_code = OK

    def describe(self, counts: Sequence[int] | None) -> str:
        """Cards per class in words (``2 type:ship, 5 other``)."""
        if counts is None:
            return ""
        parts = [f"{k} {name}" for k, name in zip(counts, self.classes, strict=True) if k]
        return ", ".join(parts) or "nothing"

    def to_json(self) -> dict[str, Json]:
        """The documented JSON shape (see docs/json.md)."""
        rows: list[Json] = []
        # The alternative under the rule's own name too: p_redraw or p_return.
        named = {"redraw": "p_redraw", "return": "p_return"}.get(self.kind)
        for row in self.rows[: self.shown]:
            alternative: dict[str, Json] = {}
            if named is not None:
                alternative[named] = None if row.alternative is None else float(row.alternative)
                alternative[f"{named}_exact"] = (
                    None if row.alternative is None else str(row.alternative)
                )
            rows.append(
                {
                    "hand": {c: k for c, k in zip(self.classes, row.hand, strict=True)},
                    "frequency": float(row.frequency),
                    "frequency_exact": str(row.frequency),
                    "decision": row.decision,
                    "p_keep": float(row.keep),
                    "p_keep_exact": str(row.keep),
                    "p_alternative": None if row.alternative is None else float(row.alternative),
                    "p_alternative_exact": None
                    if row.alternative is None
                    else str(row.alternative),
                    **alternative,
                    "margin_pp": row.margin,
                    "margin_pp_exact": None
                    if row.alternative is None
                    else str((row.alternative - row.keep) * 100),
                    "return": None
                    if row.returned is None
                    else {c: k for c, k in zip(self.classes, row.returned, strict=True)},
                }
            )
        return {
            "deck": self.deck,
            "game": self.game,
            "conditions": list(self.conditions),
            "cards_seen": self.cards_seen,
            "turn": self.turn,
            "second": self.second,
            "choice": self.kind,
            "classes": [
                {"name": c, "in_pile": n}
                for c, n in zip(self.classes, self.class_sizes, strict=True)
            ],
            "probability": float(self.probability),
            "probability_exact": str(self.probability),
            "probability_without_mulligan": float(self.probability_without_mulligan),
            "probability_without_mulligan_exact": str(self.probability_without_mulligan),
            "rule_of_thumb": self.rule_of_thumb,
            "hand_classes": len(self.rows),
            "rows": rows,
            "assumptions": list(self.assumptions),
        }


def guide_table(
    setup: DrawSetup, condition_texts: Sequence[str], options: OddsOptions
) -> tuple[HandTable, int]:
    """The exact hand table of the question ``odds`` would answer (the mulligan by the game's
    rules, played optimally), and the cards seen."""
    table, seen, _ = _charged_table(
        setup, bind(setup, condition_texts, options, deadlines=True), options
    )
    return table, seen


def _charged_table(
    setup: DrawSetup, bound: Bound, options: OddsOptions
) -> tuple[HandTable, int, Charge]:
    """:func:`guide_table`, and what charges the work done with the table afterwards (its rule
    of thumb) to the limit the table was built within: the engine's or the walk's own."""
    from deckcheck.analysis.deadlines import deadline_table_of, due_cards
    from deckcheck.draws.exact.compositions import count_compositions
    from deckcheck.draws.exact.deadlines import Deadlines, Meter, deadline_table
    from deckcheck.draws.facade import EXACT_WORK_LIMIT, charged_engine

    if any(c.deadline is not None for c in bound.conditions):
        due = due_cards(setup, bound, options)
        meter = Meter()
        return deadline_table_of(setup, bound, options, meter), max(due), meter.spend
    seen = cards_seen(setup, bound.procedure, options, options.turn)
    procedure = bound.procedure
    if setup.builtin_pile:
        procedure = Procedure(seen, None, 1, None, False)
    query = Query(seen, options.second, True, options.turn)
    request = Request(bound.problem, procedure, query)
    rule = procedure.mulligan
    hand = procedure.opening_size(options.second)
    try:
        if isinstance(rule, RedrawRule) and rule.triggers:
            # The optimal redraw's solve has its own limit (in odds too); what is done with
            # its table afterwards is held to odds' work limit.
            meter = Meter(EXACT_WORK_LIMIT, Stage.OPTIMAL_REDRAW)
            return redraw_guide(request), seen, meter.spend
        if isinstance(rule, ReturnRule) and 0 < rule.count <= hand:
            # The engine odds answers with, within odds' work limit: the guide answers
            # within a second or names the bound it hit.
            engine = charged_engine(request)
            # The walk over the hands, and the first step of the rule of thumb's search over
            # them, are charged before the table is built: a guide past the limit is refused
            # before its dear part. Every hand has a choice.
            engine.charge_walk()
            hands = count_compositions(engine.red.sizes, engine.hand)[engine.hand]
            columns = rule_columns(hands, len(engine.red.sizes))
            engine.charge_table(columns)
            return return_guide(request, engine), seen, prepaid(engine.charge_table, columns)
        due_all = (seen,) * len(bound.conditions)
        plain = Procedure(hand, None, procedure.draws_per_turn, None, procedure.lookahead)
        meter = Meter()
        table = deadline_table(Deadlines(bound.problem, plain, due_all, False, False), budget=meter)
        return table, seen, meter.spend
    except Intractable as exc:
        raise _out_of_reach(exc) from exc


def _out_of_reach(exc: Intractable) -> UsageError:
    why = reason_text(exc.reason) if exc.reason is not None else str(exc)
    return UsageError(f"the exact mulligan guide is out of reach ({why})")


def mulligan_guide(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    *,
    every_row: bool = False,
) -> MulliganGuide:
    """The exact mulligan guide for ``condition_texts`` (see :class:`MulliganGuide`)."""
    if options.mulligan != "rules":
        raise UsageError("the mulligan guide plays the game's own mulligan")
    bound = bind(setup, condition_texts, options, deadlines=True, quiet=True)
    table, seen, charge = _charged_table(setup, bound, options)
    try:
        # Charged to the table's limit as it goes: a guide past it is refused, not slow.
        thumb = rule_of_thumb(table, charge)
    except Intractable as exc:
        raise _out_of_reach(exc) from exc
    rows = sorted(table.rows, key=lambda r: (-r.ways, r.hand))
    guide_rows = tuple(_row(table, r) for r in rows)
    lines = assumptions(setup, bound, options, seen)
    if table.kind is RuleKind.NONE:
        lines.append(
            "no choice exists: the game has no mulligan for this hand, every hand is kept"
            if setup.mulligan is None or setup.builtin_pile
            else "no choice exists: the rule lets no hand be redrawn"
        )
    return MulliganGuide(
        setup.label,
        setup.game.id,
        tuple(c.text for c in bound.conditions),
        seen,
        options.turn,
        options.second,
        str(table.kind),
        tuple(class_name(labels) for labels in table.labels),
        table.sizes,
        guide_rows,
        len(guide_rows) if every_row else min(SHOWN_ROWS, len(guide_rows)),
        table.value,
        table.plain,
        thumb,
        tuple(lines),
    )


def _row(table: HandTable, row: HandRow) -> GuideRow:
    if not row.allowed:
        decision = "no choice"
    elif row.choice is Choice.REDRAW:
        decision = "redraw"
    elif row.choice is Choice.RETURN:
        decision = "return"
    else:
        decision = "keep"
    return GuideRow(
        row.hand, table.frequency(row), row.keep, row.alternative, decision, row.returned
    )


def guide_line(guide: MulliganGuide, hand: Sequence[int]) -> str:
    """The guide's line for one hand (cards per class): ``redraw: 61.2 % against 48.0 %
    kept``. ValueError for a hand the guide does not list."""
    for row in guide.rows:
        if row.hand == tuple(hand):
            return row_line(guide, row)
    raise ValueError("not a hand of this guide")


def row_line(guide: MulliganGuide, row: GuideRow) -> str:
    """One row as a line of words."""
    kept = f"{float(row.keep) * 100:.1f} %"
    if row.alternative is None:
        return f"keep (no choice): {kept}"
    other = f"{float(row.alternative) * 100:.1f} %"
    if row.decision == "redraw":
        return f"redraw: {other} against {kept} kept"
    if row.decision == "return":
        count = sum(row.returned or ())
        return f"return {count} ({guide.describe(row.returned)}): {other} against {kept} kept"
    what = "redrawn" if guide.kind == "redraw" else f"returning {guide.describe(row.returned)}"
    return f"keep: {kept} against {other} {what}"


def hand_guide_line(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    cards: Sequence[Card],
    options: OddsOptions | None = None,
) -> str | None:
    """The guide's line for an opening hand of ``cards`` (``redraw: 61.2 % against 48.0 %
    kept``), for the question ``condition_texts`` asks (``options``: default the opening
    hand); None when the hand is not an opening hand of this pile or the guide is out of
    reach."""
    from deckcheck.draws.exact.reduced import reduce_problem

    options = options or OddsOptions()
    try:
        guide = mulligan_guide(setup, condition_texts, options, every_row=True)
    except DeckcheckError:
        return None
    bound = bind(setup, condition_texts, options, deadlines=True, quiet=True)
    rule = bound.procedure.mulligan
    triggers = rule.triggers if isinstance(rule, RedrawRule) else ()
    red = reduce_problem(bound.problem, triggers)
    index = {key: g for g, key in enumerate(bound.problem.membership)}
    counts = [0] * len(red.sizes)
    for card in cards:
        group = index.get(bound.group_key(card))
        if group is None:
            return None
        counts[red.class_of[group]] += 1
    try:
        return guide_line(guide, counts)
    except ValueError:
        return None
