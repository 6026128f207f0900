"""Richer questions on top of the exact engine: "any of" conditions and a category's whole
distribution.

Any of: ``"type:ship>=2 | name:POINT OF>=1"`` holds when either side does; several arguments
must all hold, so a question is an AND of ORs. It is expanded into alternatives (each an AND,
which the engine answers exactly) and summed by inclusion–exclusion:
P(A or B) = P(A) + P(B) − P(A and B). That identity needs one way of playing for every term, so
it applies to the plain draw and to a mulligan that does not depend on the question (a redraw
taken whenever allowed); a mulligan chosen for the question (the optimal redraw, a return of
cards) or a look-ahead draw would be chosen per term, and there the figure is given without it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from deckcheck.analysis.conditions import parse_conditions
from deckcheck.analysis.odds import OddsOptions, OddsReport, compute_odds
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


def _fixed_policy(setup: DrawSetup, options: OddsOptions) -> bool:
    m = setup.mulligan
    if options.mulligan == "none" or m is None:
        return True
    return m.kind == "redraw" and options.redraw_policy == "always"


def any_of_odds(setup: DrawSetup, conditions: Sequence[str], options: OddsOptions) -> OddsReport:
    """Exact odds of an AND of ORs (see the module's note on mulligans)."""
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
    notes: list[str] = []
    fixed = _fixed_policy(setup, options)
    used = options if fixed else dataclasses.replace(options, mulligan="none")
    opening = setup.procedure().opening_size(options.second)
    if setup.opening.lookahead and not setup.builtin_pile and _turn_seen(setup, options) > opening:
        raise UsageError(
            "| conditions cannot be combined exactly with the look-ahead draw of later "
            "turns (its choice depends on the question); ask for the opening hand"
        )
    first = compute_odds(setup, list(terms[0]), used)
    with_m = Fraction(0)
    plain = Fraction(0)
    exact = True
    for size in range(1, len(terms) + 1):
        sign = 1 if size % 2 else -1
        for subset in itertools.combinations(terms, size):
            joined = list(dict.fromkeys(c for term in subset for c in term))
            rep = compute_odds(setup, joined, used)
            exact = exact and rep.exact and rep.probability_exact is not None
            if not exact:
                raise UsageError("an | question is answered only where exact maths reaches")
            with_m += sign * Fraction(rep.probability_exact or "0")
            if fixed and used.mulligan == "rules" and setup.mulligan is not None:
                bare = compute_odds(setup, joined, dataclasses.replace(used, mulligan="none"))
                plain += sign * Fraction(bare.probability_exact or "0")
    if not (fixed and used.mulligan == "rules" and setup.mulligan is not None):
        plain = with_m
    if not fixed:
        notes.append(
            "without the mulligan: its best choice depends on the whole either-or question, "
            "which inclusion–exclusion cannot weigh (ask each alternative alone for its "
            "figure with the mulligan, or use --redraw-policy always where the game redraws)"
        )
    method = f"exact (inclusion–exclusion over {len(terms)} alternatives)"
    return dataclasses.replace(
        first,
        conditions=tuple(conditions),
        probability=float(with_m),
        probability_without_mulligan=float(plain),
        probability_exact=f"{with_m.numerator}/{with_m.denominator}",
        exact=True,
        method=method,
        mulligan=used.mulligan,
        # Where the mulligan is left out for the reason the notes give, the plain draw's own
        # "mulligan: none" and "no redraw" lines would contradict them.
        assumptions=tuple(
            [
                *(a for a in first.assumptions if fixed or not _about_mulligan(a)),
                *notes,
            ]
        ),
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
