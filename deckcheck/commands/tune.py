"""``tune``: how many cards of a condition's category a deck needs for the condition to hold
with a target probability, the deck's size kept (Frank Karsten's tables, for these games).

The deck is varied, never the rules: ``k`` cards of the category in the pile drawn from, the
rest other cards. Cards added to the category are copies of its most common card; cards taken
out of it become "another card" that no selector of the question or of the mulligan counts.
Making room for more category cards removes such neutral cards first, then the largest
groups of the others (which the report names). Every row is one exact computation of the
engine, with the game's opening and mulligan.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import field
from typing import Any

from deckcheck.analysis.categories import categorized
from deckcheck.analysis.conditions import parse_condition
from deckcheck.analysis.deadlines import answer_odds
from deckcheck.analysis.odds import OddsOptions, OddsReport
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck, open_deck
from deckcheck.games.context import NO_CONTEXT, Context, Pile

OTHER = Card("(another card)", "another card", ())
WINDOW = 4  # rows each side of the answer


@frozen
class TuneRow:
    """The condition's probability with ``count`` category cards in the deck."""

    count: int
    in_pile: int
    probability: float
    probability_without_mulligan: float
    probability_exact: str | None
    exact: bool
    legal: bool | None = None
    """Whether a legal deck of the same size holds this many (None: not checked)."""

    def to_json(self) -> dict[str, Any]:
        """One row of ``tune --json``."""
        return dataclasses.asdict(self)


@frozen
class TuneReport:
    """The answer (None when no count reaches the target), the table around it, the method."""

    deck: str
    game: str
    condition: str
    category: str
    target: float
    turn: int | None
    second: bool
    cards_seen: int
    deck_size: int
    pile_size: int
    current: int
    answer: int | None
    rows: tuple[TuneRow, ...]
    set_aside: int
    assumptions: tuple[str, ...] = field(default=())
    answer_legal: bool | None = None
    """Whether a legal deck of the same size holds the answer's count (None: not checked)."""
    legal_answer: int | None = None
    """The nearest count to the answer that a legal deck of the same size holds and that
    reaches the target (None: none, or not checked)."""
    best_legal: int | None = None
    """When no legal deck of the same size reaches the target (the answer is illegal, or there
    is none): the count a legal deck holds whose chance is best, its row in ``rows``."""
    best_legal_probability: float | None = None
    """The condition's probability with ``best_legal`` cards."""
    rules: tuple[str, ...] = ()
    """What the rules say of the counts: lines shown before the table's notes."""

    exit_code = 0

    def to_json(self) -> dict[str, Any]:
        """The documented ``tune --json`` shape."""
        return {
            "deck": self.deck,
            "game": self.game,
            "condition": self.condition,
            "category": self.category,
            "target": self.target,
            "turn": self.turn,
            "second": self.second,
            "cards_seen": self.cards_seen,
            "deck_size": self.deck_size,
            "pile_size": self.pile_size,
            "current": self.current,
            "answer": self.answer,
            "set_aside": self.set_aside,
            "rows": [r.to_json() for r in self.rows],
            "answer_legal": self.answer_legal,
            "legal_answer": self.legal_answer,
            "best_legal": self.best_legal,
            "best_legal_probability": self.best_legal_probability,
            "rules": list(self.rules),
            "assumptions": list(self.assumptions),
        }


def tune_deck(
    opened: LoadedDeck | Pile,
    condition: str,
    target: float,
    *,
    turn: int | None = None,
    second: bool = False,
    options: OddsOptions | None = None,
) -> TuneReport:
    """The fewest cards of ``condition``'s category (or, for an upper bound such as
    ``type:action<=1``, the most) for which ``condition`` holds with probability ≥ ``target``,
    in an opened deck or pile (:func:`deckcheck.decks.load.open_deck`)."""
    check_target(target)
    setup, texts = categorized(opened, [condition])
    loaded = opened if isinstance(opened, LoadedDeck) else None
    base = options or OddsOptions()
    options = dataclasses.replace(base, turn=turn, second=second, by_turn=None)
    rows = _Rows(setup, texts[0], options)
    report = tune_setup(setup, texts[0], target, options, rows)
    if loaded is None or setup.builtin_pile:
        return report
    deck = "-" if loaded.source.path is None else loaded.source.label  # as it was typed
    return with_rules(report, loaded, deck, options, rows.row)


def with_rules(
    report: TuneReport,
    loaded: Any,
    deck: str,
    options: OddsOptions,
    row_at: Callable[[int], TuneRow] | None = None,
) -> TuneReport:
    """Mark the rows no legal deck of the same size can hold, say when the answer's count is
    one of them (with the nearest legal count that reaches the target), and point to
    ``optimize``, which searches the legal decks themselves. When no legal count reaches the
    target, the table shows the legal counts up to the best one (``row_at`` computes a row
    for a count in the deck) and the report names that count and its chance."""
    from deckcheck.core.errors import DeckcheckError
    from deckcheck.solve.optimize import count_legality

    cond = parse_condition(report.condition)
    try:
        matches = bind_selector(cond.selector, loaded.catalog, loaded.game.name_candidates)
    except DeckcheckError:
        return report  # a category of the deck file: not a field the rules know
    lower = cond.op in (">=", ">")
    upper = cond.op in ("<=", "<")
    want = report.answer if report.answer is not None and (lower or upper) else None
    legality = count_legality(
        loaded, matches, [r.count for r in report.rows], want=want, upward=lower
    )
    rows = tuple(dataclasses.replace(r, legal=legality.legal.get(r.count)) for r in report.rows)
    lines: list[str] = []
    answer_legal = None
    legal_answer = None
    if report.answer is not None:
        answer_legal = legality.legal.get(report.answer)
        if answer_legal is None:
            answer_legal = count_legality(loaded, matches, [report.answer]).legal[report.answer]
        if not answer_legal:
            legal_answer = legality.nearest
            lines.append(
                f"{report.answer} cards of {report.category} break the deck's rules: no legal "
                f"deck of {legality.size} cards holds that many"
                + (
                    f"; the nearest count a legal deck holds is {legal_answer}"
                    if legal_answer is not None
                    else "; no legal deck of this size reaches the target"
                )
            )
    best = best_p = None
    if row_at is not None and (lower or upper) and not answer_legal and legal_answer is None:
        best, rows = _best_legal(report, loaded, matches, rows, row_at, lower)
        if best is not None:
            best_p = next(r.probability for r in rows if r.count == best)
            lines.append(
                f"the best a legal deck of {legality.size} cards does: {best} cards of "
                f"{report.category}, {100 * best_p:.2f} % (short of the target "
                f"{100 * report.target:.1f} %)"
            )
    if any(r.legal is False for r in rows):
        lines.append("rows marked 'illegal': no legal deck of this size holds that many")
    if not legality.exact:
        lines.append(
            "a rule is checked on a whole deck only: a row marked legal may still break it"
        )
    if lines:
        when = f" --turn {options.turn}" if options.turn is not None else ""
        lines.append(
            "for the best legal deck, with its odds proven best: "
            f'deckcheck optimize {deck} "{report.condition}"{when} --changes K'
        )
    return dataclasses.replace(
        report,
        rows=rows,
        answer_legal=answer_legal,
        legal_answer=legal_answer,
        best_legal=best,
        best_legal_probability=best_p,
        rules=tuple(lines),
    )


def _best_legal(
    report: TuneReport,
    loaded: Any,
    matches: Callable[[Card], bool],
    rows: tuple[TuneRow, ...],
    row_at: Callable[[int], TuneRow],
    lower: bool,
) -> tuple[int | None, tuple[TuneRow, ...]]:
    """The legal count with the best chance when none reaches the target (the most cards of
    the category for a lower bound, the fewest for an upper one), and the table with the legal
    rows from the current count to it, the answer's row and the first illegal row past it."""
    from deckcheck.solve.optimize import count_legality

    size = loaded.deck.size
    edge = count_legality(loaded, matches, [], want=size if lower else 0, upward=not lower).nearest
    if edge is None:
        return None, rows
    step = 1 if lower else -1
    # The legal counts between the current count and the best, at most 2 * WINDOW of them,
    # those nearest the best kept.
    between = list(range(report.current, edge + step, step))[-2 * WINDOW :]
    wanted = {*between, edge + step} - {r.count for r in rows}
    wanted = {k for k in wanted if report.set_aside <= k <= size}
    legality = count_legality(loaded, matches, sorted(wanted))
    added = [
        dataclasses.replace(row_at(k), legal=legality.legal[k])
        for k in sorted(wanted)
        if k in between or not legality.legal[k] or k == edge + step
    ]
    keep = {report.current, report.answer, edge, edge + step, *between}
    merged = [r for r in (*rows, *added) if r.count in keep]
    return edge, tuple(sorted(merged, key=lambda r: r.count))


def check_target(target: float) -> None:
    """A target is a probability above 0 and at most 1 (checked before the deck is opened)."""
    if not 0 < target <= 1:
        raise UsageError(f"--target is a probability above 0 and at most 1, not {target}")


class _Rows:
    """The condition's odds with ``k`` category cards in the pile, each computed once."""

    def __init__(self, setup: DrawSetup, condition: str, options: OddsOptions) -> None:
        self.setup = setup
        self.options = options
        self.cond = parse_condition(condition)
        self.sel = bind_selector(self.cond.selector, setup.catalog, setup.game.name_candidates)
        self.others = _other_selectors(setup)
        pile = list(setup.pile)
        self.inside = [(c, n) for c, n in pile if self.sel(c)]
        self.outside = [(c, n) for c, n in pile if not self.sel(c)]
        self.set_aside = sum(a.count for a in setup.set_aside if self.sel(a.card))
        self.template = _template(setup, self.inside, self.sel)
        self.current = sum(n for _, n in self.inside)
        self.cache: dict[int, OddsReport] = {}

    def report(self, k: int) -> OddsReport:
        """The odds with ``k`` category cards in the pile (the deck's size kept)."""
        if k not in self.cache:
            pile = _pile_with(k, self.inside, self.outside, self.template, self.others)
            varied = dataclasses.replace(self.setup, pile=pile)
            self.cache[k] = answer_odds(varied, [self.cond.text], self.options)
        return self.cache[k]

    def row(self, count: int) -> TuneRow:
        """The table's row for ``count`` category cards in the deck (those set aside too)."""
        k = count - self.set_aside
        odds = self.report(k)
        return TuneRow(
            count,
            k,
            odds.probability,
            odds.probability_without_mulligan,
            odds.probability_exact,
            odds.exact,
        )


def tune_setup(
    setup: DrawSetup,
    condition: str,
    target: float,
    options: OddsOptions,
    made: _Rows | None = None,
) -> TuneReport:
    """:func:`tune_deck` on a draw setup."""
    rows_of = made or _Rows(setup, condition, options)
    cond = rows_of.cond
    outside, others = rows_of.outside, rows_of.others
    set_aside, current = rows_of.set_aside, rows_of.current
    size = setup.pile_size
    notes: list[str] = []
    cache = rows_of.cache
    report = rows_of.report

    def ok(k: int) -> bool:
        return report(k).probability >= target

    answer = _search(ok, size, cond.op)
    first = report(current)
    centre = answer if answer is not None else current
    lo, hi = max(0, centre - WINDOW), min(size, centre + WINDOW)
    counts = sorted({*range(lo, hi + 1), current})
    for k in counts:
        report(k)
    neutral = sum(n for c, n in outside if not any(o(c) for o in others))
    if max(cache) - current > neutral:
        notes.append(
            "room for more category cards is made from cards no selector counts first, then "
            "from the largest groups of the others (which may change the mulligan's triggers)"
        )
    rows = tuple(rows_of.row(set_aside + k) for k in counts)
    return TuneReport(
        setup.label,
        setup.game.id,
        cond.text,
        cond.selector,
        target,
        options.turn,
        options.second,
        first.cards_seen,
        setup.deck_size,
        size,
        set_aside + current,
        None if answer is None else set_aside + answer,
        rows,
        set_aside,
        tuple([*notes, *first.assumptions]),
    )


def _search(ok: Callable[[int], bool], size: int, op: str) -> int | None:
    """The answer over counts 0…size: the fewest that reach the target for a lower bound
    (probability grows with the count), the most for an upper bound, any for ``=`` (scanned)."""
    if op in (">=", ">"):
        if not ok(size):
            return None
        lo, hi = 0, size
        while lo < hi:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo
    if op in ("<=", "<"):
        if not ok(0):
            return None
        lo, hi = 0, size
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo
    return next((k for k in range(size + 1) if ok(k)), None)


def _other_selectors(setup: DrawSetup) -> list[Callable[[Card], bool]]:
    """What the mulligan counts: cards it sees must keep their kind when the deck changes."""
    m = setup.mulligan
    if m is None:
        return []
    return [bind_selector(t.select, setup.catalog) for t in m.triggers]


def _template(
    setup: DrawSetup, inside: list[tuple[Card, int]], sel: Callable[[Card], bool]
) -> Card:
    """The card added when the category grows: its most common card in the pile, else the
    first card of the catalog in it (which must not be one the rules set aside)."""
    if inside:
        return max(inside, key=lambda cn: cn[1])[0]
    aside = [bind_selector(r.select, setup.catalog) for r in _set_aside_rules(setup)]
    for card in setup.catalog:
        if sel(card) and not any(a(card) for a in aside):
            return card
    raise UsageError(
        "no card of this category is ever drawn: the rules set every such card aside"
        if any(sel(a.card) for a in setup.set_aside) or any(sel(c) for c in setup.catalog)
        else "no card matches the condition's selector"
    )


def _set_aside_rules(setup: DrawSetup) -> list[Any]:
    return list(setup.opening.set_aside) if not setup.builtin_pile else []


def _pile_with(
    k: int,
    inside: list[tuple[Card, int]],
    outside: list[tuple[Card, int]],
    template: Card,
    others: Sequence[Callable[[Card], bool]],
) -> tuple[tuple[Card, int], ...]:
    """The pile with ``k`` category cards and the same size."""
    current = sum(n for _, n in inside)
    ins = dict(inside) if inside else {}
    counts = {c: n for c, n in ins.items()}
    outs = {c: n for c, n in outside}
    if k >= current:
        counts[template] = counts.get(template, 0) + (k - current)
        need = k - current
        # Neutral cards first (no selector counts them), largest first; then the others.
        order = sorted(
            outs,
            key=lambda c: (any(o(c) for o in others), -outs[c]),
        )
        for card in order:
            take = min(need, outs[card])
            outs[card] -= take
            need -= take
            if not need:
                break
    else:
        drop = current - k
        order = sorted(counts, key=lambda c: (c is not template, -counts[c]))
        for card in order:
            take = min(drop, counts[card])
            counts[card] -= take
            drop -= take
            if not drop:
                break
        outs[OTHER] = outs.get(OTHER, 0) + (current - k)
    return tuple((c, n) for c, n in (*counts.items(), *outs.items()) if n > 0)


@frozen
class TuneRequest:
    """The count of ``condition``'s category in ``deck`` (a file, ``-`` or ``GAME:PILE``)
    opened in ``context`` that reaches probability ``target`` (0.95, "95%", 95)."""

    deck: str
    condition: str
    target: float | str
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT


def run(request: TuneRequest) -> TuneReport:
    """The answer of ``request`` (:func:`tune_deck`)."""
    r = request
    wanted = parse_target(r.target)
    check_target(wanted)
    opened = open_deck(r.deck, r.context)
    o = r.options
    return tune_deck(opened, r.condition, wanted, turn=o.turn, second=o.second, options=o)


def parse_target(target: float | str) -> float:
    """A probability as ``0.95``, ``"95%"`` or ``95`` (a number above 1 is a percentage)."""
    text = str(target).strip()
    try:
        value = float(text.rstrip("%").strip())
    except ValueError:
        raise UsageError(f"--target is a probability such as 0.95 or 95%, not {text!r}") from None
    if text.endswith("%") or value > 1:
        value /= 100
    return value
