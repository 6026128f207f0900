"""``odds`` and ``simulate``: a deck, conditions and options in, a probability report out."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from deckcheck.analysis.conditions import Condition, parse_condition
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)

MulliganPolicy = Literal["rules", "none"]
RedrawPolicy = Literal["always", "optimal"]  # redraw whenever allowed / only when it helps
UNLIMITED = "unlimited"
MAX_TRIALS = 1_000_000_000
MAX_SEED = 2**63 - 1


def check_seed(seed: int | None) -> None:
    """A seed is a whole number from 0 to 2**63 - 1 (what every random generator here takes)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be between 0 and {MAX_SEED:,}, not {seed}")


# Engine notes that the assumptions below already say in the user's terms.
_COVERED_NOTES = (
    "redraw whenever allowed",
    "redraw only when it raises",
    "mulligan choice is optimal",
    "look-ahead:",
    "at most once;",  # the mulligan line gives the limit
)


@dataclass(frozen=True)
class OddsOptions:
    """How many cards are seen and which mulligan applies."""

    seen: int | None = None
    turn: int | None = None
    second: bool = False
    mulligan: MulliganPolicy = "rules"
    redraws: int | str | None = None  # None: the game's; an int; or "unlimited"
    by_turn: int | None = None
    redraw_policy: RedrawPolicy = "optimal"


@dataclass(frozen=True)
class TurnRow:
    """One row of ``--by-turn``."""

    turn: int
    cards_seen: int
    probability: float
    probability_without_mulligan: float
    exact: bool

    def to_json(self) -> dict[str, Json]:
        """``{"turn", "cards_seen", "probability", "probability_without_mulligan", "exact"}``."""
        return {
            "turn": self.turn,
            "cards_seen": self.cards_seen,
            "probability": self.probability,
            "probability_without_mulligan": self.probability_without_mulligan,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class OddsReport:
    """An answer and everything it assumed."""

    deck: str
    game: str
    conditions: tuple[str, ...]
    cards_seen: int
    mulligan: str
    probability: float
    probability_without_mulligan: float
    exact: bool
    method: str
    assumptions: tuple[str, ...]
    deck_size: int
    pile_size: int
    turn: int | None = None
    second: bool = False
    probability_exact: str | None = None
    trials: int | None = None
    seed: int | None = None
    ci95: tuple[float, float] | None = None
    ci95_without_mulligan: tuple[float, float] | None = None
    by_turn: tuple[TurnRow, ...] = field(default=())

    exit_code = OK

    def to_json(self) -> dict[str, Json]:
        """The documented JSON shape, extended."""
        data: dict[str, Json] = {
            "deck": self.deck,
            "game": self.game,
            "conditions": list(self.conditions),
            "cards_seen": self.cards_seen,
            "mulligan": self.mulligan,
            "probability": self.probability,
            "probability_without_mulligan": self.probability_without_mulligan,
            "exact": self.exact,
        }
        if self.probability_exact is not None:
            data["probability_exact"] = self.probability_exact
        if self.trials is not None:
            data.update(trials=self.trials, seed=self.seed, ci95=list(self.ci95 or ()))
            if self.ci95_without_mulligan:
                data["ci95_without_mulligan"] = list(self.ci95_without_mulligan)
        data.update(
            method=self.method,
            assumptions=list(self.assumptions),
            deck_size=self.deck_size,
            pile_size=self.pile_size,
            turn=self.turn,
            second=self.second,
        )
        if self.by_turn:
            data["by_turn"] = [row.to_json() for row in self.by_turn]
        return data


@dataclass(frozen=True)
class Bound:
    """Conditions bound to a setup: the abstract problem and procedure."""

    problem: DrawProblem
    procedure: Procedure
    conditions: tuple[Condition, ...]


def bind(setup: DrawSetup, condition_texts: Sequence[str], options: OddsOptions) -> Bound:
    """Partition the pile into groups of cards matching the same selectors (conditions first,
    then the mulligan's triggers) and build the abstract problem."""
    if not condition_texts:
        raise UsageError('give at least one condition, e.g. "type:ship>=2"')
    conditions = tuple(parse_condition(t) for t in condition_texts)
    selector_texts = [c.selector for c in conditions]
    mulligan = setup.mulligan if options.mulligan == "rules" else None
    triggers = list(mulligan.triggers) if mulligan and mulligan.kind == "redraw" else []
    selector_texts += [t.select for t in triggers]
    predicates = [
        bind_selector(t, setup.catalog, setup.game.name_candidates) for t in selector_texts
    ]
    groups: dict[tuple[bool, ...], int] = {}
    for card, n in setup.pile:
        key = tuple(p(card) for p in predicates)
        groups[key] = groups.get(key, 0) + n
    keys = list(groups)
    problem = DrawProblem(
        tuple(groups[k] for k in keys),
        tuple(keys),
        tuple(CountTest(i, c.op, c.count) for i, c in enumerate(conditions)),  # type: ignore[arg-type]
        tuple(selector_texts),
    )
    redraws = (
        "rules"
        if options.redraws is None
        else (None if options.redraws == UNLIMITED else options.redraws)
    )
    procedure = setup.procedure(redraws)
    if procedure.mulligan is not None and not isinstance(procedure.mulligan, ReturnRule):
        offset = len(conditions)
        rule = procedure.mulligan
        procedure = Procedure(
            procedure.hand_size,
            procedure.hand_size_second,
            procedure.draws_per_turn,
            type(rule)(
                tuple(CountTest(offset + t.selector, t.op, t.threshold) for t in rule.triggers),
                rule.max_redraws,
            ),
            procedure.lookahead,
            procedure.extra_seen_second,
        )
    return Bound(problem, procedure, conditions)


def cards_seen(
    setup: DrawSetup, procedure: Procedure, options: OddsOptions, turn: int | None
) -> int:
    """Cards seen for ``--seen``/``--turn``/default, checked against the pile."""
    if setup.builtin_pile and turn is not None:
        raise UsageError(f"{setup.label} is a pile drawn once: use --seen, not --turn")
    if options.seen is not None and turn is not None:
        raise UsageError("give --seen or --turn, not both")
    if turn is not None:
        if turn < 1:
            raise UsageError("--turn counts from 1 (the opening hand)")
        seen = procedure.seen_by_turn(turn, options.second)
    elif options.seen is not None:
        seen = options.seen
    else:
        seen = procedure.opening_size(options.second)
    opening = procedure.opening_size(options.second)
    if seen < 0:
        raise UsageError("--seen cannot be negative")
    if seen > setup.pile_size:
        raise UsageError(
            f"{seen} cards seen, but the pile holds only {setup.pile_size} "
            f"({setup.deck_size} cards, {setup.deck_size - setup.pile_size} set aside)"
        )
    if seen < opening and not setup.builtin_pile:
        raise UsageError(f"--seen {seen} is fewer than the opening hand of {opening}")
    return seen


def _procedure_for(setup: DrawSetup, procedure: Procedure, seen: int) -> Procedure:
    if setup.builtin_pile:
        return Procedure(seen, None, 1, None, False)
    return procedure


def assumptions(setup: DrawSetup, bound: Bound, options: OddsOptions, seen: int) -> list[str]:
    """Human lines saying what the figure assumes."""
    lines = []
    if setup.builtin_pile:
        lines.append(f"pile {setup.label}: {setup.pile_note} ({setup.pile_size} cards)")
        note = setup.opening.description
        lines.append(
            f"{seen} cards seen" + (f" (default: {note})" if note and options.seen is None else "")
        )
        return lines
    else:
        lines.append(f"deck {setup.deck_size} cards; draw pile {setup.pile_size}")
        for a in setup.set_aside:
            lines.append(f"set aside: {a.count}× {a.card.name} ({a.why})")
    proc = bound.procedure
    opening = proc.opening_size(options.second)
    if not setup.builtin_pile:
        lines.append(
            f"{seen} cards seen: opening hand {opening}"
            + (f" + {seen - opening} drawn" if seen > opening else "")
            + f" ({_who(setup, proc, options.second)})"
        )
        if (options.turn is not None or options.by_turn is not None) and setup.opening.turn_note:
            lines.append(setup.opening.turn_note)
        if proc.lookahead and seen > opening:
            lines.append(
                "each turn's first draw looks at the top card first: a card that would break "
                "an upper bound goes under, one that advances an unmet condition is kept, any "
                "other is kept only while an upper bound is one card from breaking"
            )
    rule = proc.mulligan
    if options.mulligan == "none" or rule is None:
        lines.append(
            "mulligan: none"
            + ("" if rule or options.mulligan == "none" else " (the game has none)")
        )
    elif setup.mulligan is not None:
        desc = setup.mulligan.description
        if isinstance(rule, ReturnRule):
            lines.append(f"mulligan: {desc}; the choice is optimal for this query")
        else:
            limit = "unlimited" if rule.max_redraws is None else f"at most {rule.max_redraws}"
            when = (
                "redraw only when it raises the chance of this query (the redraw is optional)"
                if options.redraw_policy == "optimal"
                else "redraw whenever allowed (--redraw-policy always)"
            )
            lines.append(f"mulligan: {desc}; {when}, {limit}")
    return lines


def _who(setup: DrawSetup, proc: Procedure, second: bool) -> str:
    """Whose cards are counted, in the game's words where it names its players."""
    opening = setup.opening
    if proc.hand_size_second is None and not proc.extra_seen_second:
        return "either player"
    if second:
        name = opening.players[1] if len(opening.players) > 1 else ""
        who = f"{name}, the player who does not start" if name else "the player who does not start"
        return who + (f"; {opening.second_note}" if opening.second_note else "")
    name = opening.players[0] if opening.players else ""
    return f"{name}, the starting player" if name else "the starting player"


def compute_odds(
    setup: DrawSetup, condition_texts: Sequence[str], options: OddsOptions
) -> OddsReport:
    """Exact odds where the state space allows, else a simulation (and the report says so)."""
    from deckcheck.draws.exact import Intractable

    bound = bind(setup, condition_texts, options)
    seen = cards_seen(setup, bound.procedure, options, options.turn)
    procedure = _procedure_for(setup, bound.procedure, seen)
    query = Query(seen, options.second, options.mulligan == "rules", options.turn)
    notes = assumptions(setup, bound, options, seen)
    try:
        result = _exact(bound.problem, procedure, query, options)
    except Intractable as exc:
        sim = simulate_bound(
            bound, procedure, query, trials=200_000, seed=0, redraw_policy=options.redraw_policy
        )
        notes.append(f"exact computation out of reach ({exc}): simulated, 200,000 trials")
        notes.extend(n for n in sim.notes if not n.startswith(_COVERED_NOTES))
        return _simulated_report(setup, bound, options, seen, sim, notes)
    notes.extend(n for n in result.notes if not n.startswith(_COVERED_NOTES))
    by_turn = _by_turn(setup, bound, options) if options.by_turn is not None else ()
    return _report(
        setup,
        bound,
        options,
        seen,
        result.probability,
        result.probability_without_mulligan,
        result.exact,
        result.method,
        notes,
        probability_exact=result.probability_exact,
        by_turn=by_turn,
    )


def _exact(problem: DrawProblem, procedure: Procedure, query: Query, options: OddsOptions) -> Any:
    """The exact engine for the chosen policy (optimal redraw has an engine of its own)."""
    from deckcheck.draws.exact import exact_odds

    if options.redraw_policy == "optimal" and isinstance(procedure.mulligan, RedrawRule):
        from deckcheck.draws.optimal_redraw import optimal_redraw_odds

        # Intractable propagates: the caller then simulates the same policy.
        return optimal_redraw_odds(problem, procedure, query)
    return exact_odds(problem, procedure, query)


def _by_turn(setup: DrawSetup, bound: Bound, options: OddsOptions) -> tuple[TurnRow, ...]:
    from deckcheck.draws.exact import Intractable

    if setup.builtin_pile:
        raise UsageError(f"{setup.label} is a pile drawn once: --by-turn does not apply")
    assert options.by_turn is not None
    if options.by_turn < 1 or options.by_turn > 200:
        raise UsageError("--by-turn takes a number of turns from 1 to 200")
    rows = []
    for turn in range(1, options.by_turn + 1):
        seen = bound.procedure.seen_by_turn(turn, options.second)
        if seen > setup.pile_size:
            break
        query = Query(seen, options.second, options.mulligan == "rules", turn)
        try:
            r = _exact(bound.problem, bound.procedure, query, options)
            rows.append(TurnRow(turn, seen, r.probability, r.probability_without_mulligan, True))
        except Intractable:
            s = simulate_bound(
                bound,
                bound.procedure,
                query,
                trials=100_000,
                seed=turn,
                redraw_policy=options.redraw_policy,
            )
            rows.append(TurnRow(turn, seen, s.probability, s.probability_without_mulligan, False))
    return tuple(rows)


def _report(
    setup: DrawSetup,
    bound: Bound,
    options: OddsOptions,
    seen: int,
    p: float,
    p_plain: float,
    exact: bool,
    method: str,
    notes: list[str],
    **extra: Any,
) -> OddsReport:
    return OddsReport(
        setup.label,
        setup.game.id,
        tuple(c.text for c in bound.conditions),
        seen,
        options.mulligan,
        p,
        p_plain,
        exact,
        method,
        tuple(notes),
        setup.deck_size,
        setup.pile_size,
        options.turn,
        options.second,
        **extra,
    )


def simulate_bound(
    bound: Bound,
    procedure: Procedure,
    query: Query,
    *,
    trials: int,
    seed: int | None,
    progress: Callable[[int, int], None] | None = None,
    redraw_policy: RedrawPolicy = "optimal",
) -> Any:
    """Run the vectorised simulator (numpy), or the plain-Python one where numpy is missing.

    For a return-mulligan the simulated player follows the exact optimal choice where it can be
    computed, otherwise the greedy policy. For a redraw rule under the optimal policy, the
    player takes the exact optimum's decision for each hand composition; where that table is
    out of reach, they redraw an allowed hand unless it already meets every condition (and the
    result's notes say so).
    """
    if seed is None:
        # A seed the user can pass back to --seed (and that JSON readers keep exactly).
        import secrets

        seed = secrets.randbelow(2**31)
    chooser = None
    if isinstance(procedure.mulligan, ReturnRule) and query.use_mulligan:
        from deckcheck.draws.exact import Intractable, optimal_return_choice

        try:
            chooser = optimal_return_choice(bound.problem, procedure, query)
        except Intractable:
            chooser = None
    redraw_chooser = None
    policy_note = ""
    if (
        isinstance(procedure.mulligan, RedrawRule)
        and query.use_mulligan
        and redraw_policy == "optimal"
    ):
        from deckcheck.draws.exact import Intractable
        from deckcheck.draws.optimal_redraw import optimal_redraw_choice
        from deckcheck.draws.policies import redraw_unless_met

        try:
            redraw_chooser = optimal_redraw_choice(bound.problem, procedure, query)
            policy_note = "each redraw decision is the exact optimum's for that hand"
        except Intractable:
            problem = bound.problem
            redraw_chooser = functools.partial(redraw_unless_met, problem)
            policy_note = (
                "the exact optimal redraw is out of reach here: the simulated player redraws "
                "an allowed hand unless it already meets every condition"
            )
    try:
        from deckcheck.draws.vectorised import simulate_vectorised
    except ImportError:
        from deckcheck.draws.reference import simulate_reference

        sim = simulate_reference(
            bound.problem, procedure, query, trials, seed, chooser, redraw_chooser
        )
    else:
        sim = simulate_vectorised(
            bound.problem,
            procedure,
            query,
            trials,
            seed,
            chooser,
            progress=progress,
            choose_redraw=redraw_chooser,
        )
    if policy_note:
        sim = dataclasses.replace(sim, notes=(*sim.notes, policy_note))
    return sim


def simulate_odds(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    trials: int,
    seed: int | None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """Monte Carlo over whole deals, with the Wilson 95% interval."""
    if not 1 <= trials <= MAX_TRIALS:
        raise UsageError(f"--trials must be between 1 and {MAX_TRIALS:,}")
    check_seed(seed)
    bound = bind(setup, condition_texts, options)
    seen = cards_seen(setup, bound.procedure, options, options.turn)
    procedure = _procedure_for(setup, bound.procedure, seen)
    query = Query(seen, options.second, options.mulligan == "rules", options.turn)
    notes = assumptions(setup, bound, options, seen)
    sim = simulate_bound(
        bound,
        procedure,
        query,
        trials=trials,
        seed=seed,
        progress=progress,
        redraw_policy=options.redraw_policy,
    )
    notes.extend(n for n in sim.notes if not n.startswith(_COVERED_NOTES))
    return _simulated_report(setup, bound, options, seen, sim, notes)


def _simulated_report(
    setup: DrawSetup, bound: Bound, options: OddsOptions, seen: int, sim: Any, notes: list[str]
) -> OddsReport:
    return _report(
        setup,
        bound,
        options,
        seen,
        sim.probability,
        sim.probability_without_mulligan,
        False,
        sim.method,
        notes,
        trials=sim.trials,
        seed=sim.seed,
        ci95=sim.ci95,
        ci95_without_mulligan=sim.ci95_without_mulligan,
    )
