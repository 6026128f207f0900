"""Richer questions on top of the exact engine: "any of" conditions and a category's whole
distribution.

Any of: ``"type:ship>=2 | name:POINT OF>=1"`` holds when either side does; several arguments
must all hold, so a question is an AND of ORs. It is expanded into alternatives (each an AND)
and the exact engines are asked the whole OR of ANDs at once: the success test of each hand
or state is "some alternative holds", so the optimal redraw, the return mulligan and the
look-ahead are chosen for the either-or question itself (a plain draw sums the alternatives
by inclusion–exclusion, exact where no choice is made). Beyond exact reach the question is
simulated whole (a deal succeeds when some alternative holds in full), its decisions by the
stated rules of thumb, and the answer says which bound was hit.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from deckcheck.analysis.conditions import parse_conditions
from deckcheck.analysis.odds import OddsOptions, OddsReport, compute_any_of, compute_odds
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.values import frozen

ANY = "|"
MAX_ALTERNATIVES = 8


def has_any_of(conditions: Sequence[str]) -> bool:
    """Whether a question uses ``A | B``."""
    return any(ANY in c for c in conditions)


def alternatives(conditions: Sequence[str]) -> list[tuple[str, ...]]:
    """An AND of ORs as ORs of ANDs (each an engine question), without repeats."""
    clauses = []
    for text in conditions:
        parts = [p.strip() for p in text.split(ANY)]
        if any(not p for p in parts):
            raise UsageError(f"{text!r}: each side of | is a condition, e.g. type:ship>=2")
        clauses.append(parts)
    terms: list[tuple[str, ...]] = []
    for combo in itertools.product(*clauses):
        term = tuple(dict.fromkeys(combo))
        if term not in terms:
            terms.append(term)
    if len(terms) > MAX_ALTERNATIVES:
        raise UsageError(
            f"the question expands to {len(terms)} alternatives; at most {MAX_ALTERNATIVES}"
        )
    return terms


def any_of_odds(setup: DrawSetup, conditions: Sequence[str], options: OddsOptions) -> OddsReport:
    """Odds of an AND of ORs, with the mulligan and the look-ahead chosen for it: exact where
    in reach, else simulated (see :func:`~deckcheck.analysis.odds.compute_any_of`)."""
    if options.by_turn is not None:
        raise UsageError("--by-turn does not combine with | conditions; ask turn by turn")
    if options.expected_turn:
        raise UsageError(
            "--expected-turn does not combine with | conditions; ask each alternative on its own"
        )
    terms = alternatives(conditions)
    dated = [c.text for c in parse_conditions([c for t in terms for c in t]) if c.deadline]
    if dated:
        raise UsageError(
            f"{dated[0]!r}: conditions joined by | take no deadline of their own (@TURN); "
            "give the turn with --turn"
        )
    flat = list(dict.fromkeys(c for term in terms for c in term))
    index = {c: i for i, c in enumerate(flat)}
    any_of = tuple(tuple(index[c] for c in term) for term in terms)
    rep = compute_any_of(setup, flat, any_of, options)
    note = f"either-or: the chance that one of {len(terms)} alternatives holds in full, " + (
        "asked as one question (a mulligan or look-ahead choice is made for the whole of it)"
        if rep.mulligan == options.mulligan and rep.exact
        else "asked as one question"
    )
    return dataclasses.replace(
        rep,
        conditions=tuple(conditions),
        method=f"{rep.method}, over {len(terms)} alternatives",
        assumptions=(*rep.assumptions, note),
        by_turn=(),
    )


def _about_mulligan(assumption: str) -> bool:
    """An assumption line that speaks of whether a mulligan or redraw is used."""
    return assumption.startswith(("mulligan:", "no redraw:", "redraw ", "at most "))


def _turn_seen(setup: DrawSetup, options: OddsOptions) -> int:
    if options.seen is not None:
        return options.seen
    if options.turn is None:
        return 0
    return setup.procedure().seen_by_turn(options.turn, options.second)


@frozen
class DistributionRow:
    """Exactly ``k`` cards of the category among those seen, and at least ``k``."""

    k: int
    exactly: float
    exactly_exact: str
    at_least: float
    at_least_exact: str
    at_least_with_mulligan: float | None
    at_least_with_mulligan_exact: str | None

    def to_json(self) -> dict[str, Any]:
        """One row of ``distribution --json``."""
        return dataclasses.asdict(self)


@frozen
class DistributionReport:
    """How many cards of a category are seen: every count, its chance and the mean."""

    deck: str
    game: str
    selector: str
    cards_seen: int
    in_pile: int
    pile_size: int
    turn: int | None
    second: bool
    mean: Fraction
    rows: tuple[DistributionRow, ...]
    mulligan: str
    assumptions: tuple[str, ...]

    exit_code = 0

    def to_json(self) -> dict[str, Any]:
        """The documented ``distribution --json`` shape."""
        return {
            "deck": self.deck,
            "game": self.game,
            "selector": self.selector,
            "cards_seen": self.cards_seen,
            "in_pile": self.in_pile,
            "pile_size": self.pile_size,
            "turn": self.turn,
            "second": self.second,
            "mean": float(self.mean),
            "mean_exact": f"{self.mean.numerator}/{self.mean.denominator}",
            "mulligan": self.mulligan,
            "rows": [r.to_json() for r in self.rows],
            "assumptions": list(self.assumptions),
        }


def distribution(setup: DrawSetup, selector: str, options: OddsOptions) -> DistributionReport:
    """P(exactly k) and P(at least k) of a category for k = 0…, without the mulligan (the
    draw itself), and P(at least k) with the game's mulligan aimed at "at least k"; the mean
    is that of the draw."""
    if ANY in selector or any(op in selector for op in "<>="):
        raise UsageError("give a selector (type:ship, a card name), not a condition")
    plain_opts = dataclasses.replace(options, mulligan="none", by_turn=None)
    with_opts = dataclasses.replace(options, by_turn=None)
    has_mulligan = setup.mulligan is not None and options.mulligan == "rules"
    at_least: list[Fraction] = []
    first: OddsReport | None = None
    k = 0
    while True:
        rep = compute_odds(setup, [f"{selector}>={k}"], plain_opts)
        first = first or rep
        if rep.probability_exact is None:
            raise UsageError("the distribution is given only where exact maths reaches")
        p = Fraction(rep.probability_exact)
        if p == 0 or k > rep.cards_seen:
            break
        at_least.append(p)
        k += 1
    assert first is not None
    if (
        setup.opening.lookahead
        and not setup.builtin_pile
        and _turn_seen(setup, options) > (setup.procedure().opening_size(options.second))
    ):
        raise UsageError(
            "the look-ahead draw of later turns chooses by the question, so a whole "
            "distribution is given for the opening hand only"
        )
    rows = []
    mean = Fraction(0)
    for k, p in enumerate(at_least):
        nxt = at_least[k + 1] if k + 1 < len(at_least) else Fraction(0)
        exactly = p - nxt
        mean += k * exactly
        with_m: Fraction | None = None
        if has_mulligan and k > 0:
            rep = compute_odds(setup, [f"{selector}>={k}"], with_opts)
            with_m = Fraction(rep.probability_exact) if rep.probability_exact else None
        rows.append(
            DistributionRow(
                k,
                float(exactly),
                _text(exactly),
                float(p),
                _text(p),
                float(with_m) if with_m is not None else None,
                _text(with_m) if with_m is not None else None,
            )
        )
    bound = bind_selector(selector, setup.catalog, setup.game.name_candidates)
    in_pile = sum(n for c, n in setup.pile if bound(c))
    notes = [a for a in first.assumptions if not _about_mulligan(a)]
    if has_mulligan:
        notes.append(
            "with the mulligan: the chance of at least k when the mulligan is aimed at "
            "at least k (the mean is the draw's own)"
        )
    return DistributionReport(
        setup.label,
        setup.game.id,
        selector,
        first.cards_seen,
        in_pile,
        setup.pile_size,
        options.turn,
        options.second,
        mean,
        tuple(rows),
        setup.mulligan.description if has_mulligan and setup.mulligan else "",
        tuple(notes),
    )


def _text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"
