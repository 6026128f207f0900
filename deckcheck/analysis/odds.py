"""``odds`` and ``simulate``: a deck, conditions and options in, a probability report out."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from fractions import Fraction
from typing import Final, Literal, Protocol, cast

from deckcheck.analysis.conditions import Condition, parse_conditions
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import Selector, bind_selector, value_key
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.core.text import plural
from deckcheck.core.values import frozen
from deckcheck.draws.answer import (
    NOT_ASKED,
    Answer,
    Fact,
    FactKind,
    Intractable,
    KnownStates,
    OutOfReach,
    Reach,
    SimulatedPlayer,
    fact_text,
    lookahead_fact,
    odds_gives_it,
    player_exact_odds,
    reason_text,
    simulated_why,
)
from deckcheck.draws.either import idle_selectors, quieted, simplified
from deckcheck.draws.facade import PlainRows, Policy, RedrawPolicy
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)
from deckcheck.games.setaside import SetAside


class JsonPart(Protocol):
    """A part of a report that says itself in JSON."""

    def to_json(self) -> dict[str, Json]:
        """The part's JSON."""
        ...


MulliganPolicy = Literal["rules", "none"]
UNLIMITED = "unlimited"
MAX_TRIALS = 1_000_000_000
MAX_SEED = 2**63 - 1


class GameRule:
    """The type of :data:`GAME_RULE`: "the game's own redraw limit", not a number."""

    def __repr__(self) -> str:
        return "GAME_RULE"


#: ``OddsOptions.redraws`` when the game's own limit applies (None means unlimited).
GAME_RULE: Final = GameRule()


def check_seed(seed: int | None) -> None:
    """A seed is a whole number from 0 to 2**63 - 1 (what every random generator here takes)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be between 0 and {MAX_SEED:,}, not {seed}")


_LOOKAHEAD = frozenset({FactKind.LOOKAHEAD_HEURISTIC, FactKind.LOOKAHEAD_OPTIMAL})
# Facts that the assumption lines below already say in the user's terms.
_SAID = _LOOKAHEAD | frozenset(
    {
        FactKind.REDRAW_WHENEVER_ALLOWED,
        FactKind.REDRAW_OPTIMAL,
        FactKind.RETURN_OPTIMAL,
    }
)


def _said(fact: Fact) -> bool:
    # The mulligan line gives the limit; a limit of one needs no more words.
    return fact.kind in _SAID or (fact.kind is FactKind.OPTIMAL_REDRAW_LIMIT and fact.limit == 1)


@frozen
class OddsOptions:
    """How many cards are seen and which mulligan applies."""

    seen: int | None = None
    turn: int | None = None
    second: bool = False
    mulligan: MulliganPolicy = "rules"
    redraws: int | GameRule | None = GAME_RULE  # a limit, None = unlimited, or the game's
    by_turn: int | None = None
    redraw_policy: RedrawPolicy = "optimal"
    expected_turn: bool = False


MAX_REDRAWS = 100
"""Exact fractions grow by a few digits per redraw; beyond this "unlimited" says it better."""


def draw_options(
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraws: int | str | None = None,
    by_turn: int | None = None,
    redraw_policy: str = "optimal",
    expected_turn: bool = False,
) -> OddsOptions:
    """The draw options as a user gives them, checked (``redraws`` a number or "unlimited";
    None keeps the game's own limit; ``expected_turn``: when the conditions first hold)."""
    if mulligan not in ("rules", "none"):
        raise UsageError(f"--mulligan is 'rules' or 'none', not {mulligan!r}")
    parsed: int | GameRule | None = GAME_RULE
    if redraws is not None:
        text = str(redraws).strip().lower()
        if text == UNLIMITED:
            parsed = None
        elif text.isascii() and text.isdigit() and len(text) <= 6 and int(text) <= MAX_REDRAWS:
            parsed = int(text)
        else:
            raise UsageError(
                f"--redraws is a number from 0 to {MAX_REDRAWS} or 'unlimited', not "
                f"{str(redraws)[:24]!r}"
            )
    if redraw_policy not in ("always", "optimal"):
        raise UsageError(f"--redraw-policy is 'always' or 'optimal', not {redraw_policy!r}")
    return OddsOptions(
        seen,
        turn,
        second,
        cast(MulliganPolicy, mulligan),
        parsed,
        by_turn,
        cast(RedrawPolicy, redraw_policy),
        expected_turn,
    )


@frozen
class Simulation:
    """Why a figure was simulated (the bound the exact engines hit, with its figures, or
    that a simulation was asked for) and how the simulated player made the deal's choices."""

    #: The bound hit; asked for (``simulate``), the one its optimal player's tables hit (None:
    #: none, the tables built).
    bound: OutOfReach | None
    #: Whether the exact engine was asked about this very question (estimated or run); False
    #: when a rule of thumb of the table of turns decided it was out of reach.
    tried: bool
    player: SimulatedPlayer
    trials: int
    seed: int | None
    method: str
    ci95: tuple[float, float] | None
    #: When not tried because an earlier turn was out of reach: the cards that turn saw.
    after: int | None = None
    #: The simulated player's chance, exact (with the mulligan, without it), where the
    #: tables its decisions are read from value it.
    player_exact: tuple[Fraction, Fraction] | None = None
    #: With ``player_exact``: the fact that values it (whether ``odds`` gives that figure).
    player_exact_fact: Fact | None = None
    #: The simulation was asked for (``simulate``): ``bound``, where set, is the bound the
    #: optimal player's tables hit (its choices then made by rules of thumb), as ``odds``'
    #: exact engine hits it for the same question.
    asked: bool = False
    #: The fewest trials a run takes and the trials its budget affords, when those are fewer
    #: (the run goes past about a second: see :data:`FactKind.TRIALS_OVER_BUDGET`).
    over_budget: tuple[int, int] | None = None

    @classmethod
    def of(cls, answer: Answer) -> Simulation | None:
        """The simulation behind ``answer``; None for an exact answer."""
        if answer.exact:
            return None
        instead = next((f for f in answer.facts if f.kind is FactKind.SIMULATED_INSTEAD), None)
        bound = instead.reason if instead is not None else None
        if instead is None:  # asked for: the bound its player's tables hit, if any
            refused = (FactKind.LOOKAHEAD_HEURISTIC_INSTEAD, FactKind.RETURN_GREEDY)
            bound = next((f.reason for f in answer.facts if f.kind in refused), None)
        after = next((f.count for f in answer.facts if f.kind is FactKind.NOT_TRIED_AFTER), None)
        tried = bound is not None and bound.reach not in NOT_ASKED and after is None
        valued_by = next((f for f in answer.facts if f.kind is FactKind.PLAYER_EXACT), None)
        valued = valued_by.values if valued_by is not None else ()
        over = next((f for f in answer.facts if f.kind is FactKind.TRIALS_OVER_BUDGET), None)
        return cls(
            bound,
            tried,
            SimulatedPlayer.of(answer.facts),
            answer.trials or 0,
            answer.seed,
            answer.method_text,
            answer.ci95,
            after,
            (valued[0], valued[1]) if valued else None,
            valued_by,
            instead is None,
            None if over is None else (over.count or 0, over.limit or 0),
        )

    @property
    def why(self) -> str:
        """Why the figure was simulated, in a sentence."""
        return simulated_why(self.bound, self.after, self.asked)

    def to_json(self) -> dict[str, Json]:
        """``{"why", "bound", "stage", "work", "limit", "tried", "after_cards_seen", "player",
        "decisions", "player_text", "player_exact"}``: ``bound`` names the bound hit (asked
        for: the one the optimal player's tables hit, else null), ``work`` and ``limit`` its
        figures where it has them,
        ``after_cards_seen`` the cards of the earlier turn whose bound it is (null: this
        turn's own); ``decisions`` maps each choice the rules give to how the simulated
        player makes it; ``player_exact`` that player's chance, exact, where the tables it
        reads value it (else null); ``over_budget`` ``{"trials", "budget_affords"}`` when the
        fewest trials a run takes cost more than its budget (else null)."""
        bound = self.bound
        figures = bound is not None and bound.reach in _FIGURES
        return {
            "why": self.why,
            "bound": bound.reach.value if bound is not None else None,
            "stage": bound.stage.value if bound is not None and bound.stage else None,
            "work": bound.work if figures and bound is not None and bound.work else None,
            "limit": bound.limit if figures and bound is not None else None,
            "tried": self.tried,
            "after_cards_seen": self.after,
            "player": self.player.summary,
            "decisions": {choice.value: how.value for choice, how in self.player.decisions},
            "player_text": self.player.detail,
            "player_exact": None if self.player_exact is None else self._player_exact_json(),
            "over_budget": None
            if self.over_budget is None
            else {"trials": self.over_budget[0], "budget_affords": self.over_budget[1]},
        }

    def _player_exact_json(self) -> dict[str, Json]:
        assert self.player_exact is not None
        data = _exact_json(*self.player_exact)
        fact = self.player_exact_fact
        if fact is not None:
            data["odds_gives_it"] = odds_gives_it(fact)
            data["odds_text"] = player_exact_odds(fact)
        return data


def _exact_json(best: Fraction, plain: Fraction) -> dict[str, Json]:
    """A simulated player's exact chance, as ``simulation.player_exact`` gives it."""
    return {
        "probability": float(best),
        "probability_exact": f"{best.numerator}/{best.denominator}",
        "probability_without_mulligan": float(plain),
        "probability_without_mulligan_exact": f"{plain.numerator}/{plain.denominator}",
    }


# The reasons whose ``work`` and ``limit`` are units of work (the others' are not).
_FIGURES = frozenset({Reach.WORK, Reach.ESTIMATE, Reach.SKIPPED, Reach.TABLE})


@frozen
class TurnRow:
    """One row of ``--by-turn`` (``simulation``: why and how, when the row is simulated)."""

    turn: int
    cards_seen: int
    probability: float
    probability_without_mulligan: float
    exact: bool
    simulation: Simulation | None = None

    def to_json(self, *, chance_without_mulligan: bool = True) -> dict[str, Json]:
        """``{"turn", "cards_seen", "probability", "probability_without_mulligan", "exact"}``,
        and for a simulated row ``"method"``, ``"trials"``, ``"seed"``, ``"ci95"`` and
        ``"simulation"`` (see :meth:`Simulation.to_json`);
        ``chance_without_mulligan=False`` leaves ``"probability_without_mulligan"`` out (a
        curve of the chance alone: ``optimize``'s before and after)."""
        data: dict[str, Json] = {
            "turn": self.turn,
            "cards_seen": self.cards_seen,
            "probability": self.probability,
        }
        if chance_without_mulligan:
            data["probability_without_mulligan"] = self.probability_without_mulligan
        data["exact"] = self.exact
        sim = self.simulation
        if sim is not None:
            data.update(method=sim.method, trials=sim.trials, seed=sim.seed)
            data["ci95"] = list(sim.ci95) if sim.ci95 is not None else None
            data["simulation"] = sim.to_json()
        return data


@frozen
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
    set_aside: tuple[SetAside, ...] = ()
    """The cards the rules take out before the shuffle, each (the lines of ``assumptions`` sum
    them up when there are many)."""
    expected_turn: JsonPart | None = None
    """With ``--expected-turn``: when the conditions first hold, on the play and on the draw
    (a :class:`deckcheck.analysis.deadlines.ExpectedTurn`)."""
    simulation: Simulation | None = None
    """For a simulated figure: why, and how the simulated player decides."""

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
        if self.simulation is not None:
            data["simulation"] = self.simulation.to_json()
        if self.by_turn:
            data["by_turn"] = [row.to_json() for row in self.by_turn]
        if self.expected_turn is not None:
            data["expected_turn"] = self.expected_turn.to_json()
        if self.set_aside:
            data["set_aside"] = [
                {"count": a.count, "id": a.card.id, "name": a.card.name, "why": a.why}
                for a in self.set_aside
            ]
        return data


@frozen
class Bound:
    """Conditions bound to a setup: the abstract problem and procedure (``selectors``: the
    conditions' selectors, then the triggers', as bound; ``idle``: those that pick no card in
    ``problem``, every count passing their tests, see :func:`bind`)."""

    problem: DrawProblem
    procedure: Procedure
    conditions: tuple[Condition, ...]
    selectors: tuple[Selector, ...] = ()
    idle: frozenset[int] = frozenset()

    def group_key(self, card: Card) -> tuple[bool, ...]:
        """The membership row of ``problem``'s group that holds ``card``."""
        return tuple(False if i in self.idle else s(card) for i, s in enumerate(self.selectors))


def bind(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    *,
    require_conditions: bool = True,
    deadlines: bool = False,
    any_of: tuple[tuple[int, ...], ...] = (),
    quiet: bool = False,
) -> Bound:
    """Partition the pile into groups of cards matching the same selectors (conditions first,
    then the mulligan's triggers) and build the abstract problem. A condition with its own
    deadline (``@TURN``) is refused unless ``deadlines`` is set (the caller answers them).
    ``any_of``: the query is an OR of these ANDs (indices into ``condition_texts``).
    ``quiet``: a selector whose tests every count passes picks no card in the problem (see
    :func:`~deckcheck.draws.either.quieted`; :meth:`Bound.group_key` finds a card's group)."""
    if not condition_texts and require_conditions:
        example = setup.game.spec.game.example_condition
        raise UsageError(f'give at least one condition, e.g. "{example}"')
    conditions = parse_conditions(condition_texts)
    if not deadlines:
        dated = [c.text for c in conditions if c.deadline is not None]
        if dated:
            raise UsageError(
                f"{dated[0]!r}: a deadline per condition (@TURN) is answered exactly by odds, "
                "mulligan, tune and optimize, not here; give the turn with --turn"
            )
    selector_texts = [c.selector for c in conditions]
    mulligan = setup.mulligan if options.mulligan == "rules" else None
    triggers = list(mulligan.triggers) if mulligan and mulligan.kind == "redraw" else []
    selector_texts += [t.select for t in triggers]
    predicates = [
        bind_selector(t, setup.catalog, setup.game.name_candidates) for t in selector_texts
    ]
    groups: dict[tuple[bool, ...], int] = {}
    for key, n in _memberships(setup.pile, predicates):
        groups[key] = groups.get(key, 0) + n
    keys = list(groups)
    # Conditions on one selector text count one selector: the engines then see one count
    # (a range, a contradiction) rather than two counts that are always equal.
    first: dict[str, int] = {}
    problem = DrawProblem(
        tuple(groups[k] for k in keys),
        tuple(keys),
        tuple(
            CountTest(first.setdefault(c.selector, i), c.op, c.count)
            for i, c in enumerate(conditions)
        ),
        tuple(selector_texts),
        any_of,
    )
    # An either-or question in its simplest equal form: the same deals succeed, fewer
    # alternatives for the engines to weigh.
    problem = simplified(problem)
    idle = idle_selectors(problem) if quiet else frozenset()
    problem = quieted(problem) if idle else problem
    # The triggers' selectors come after the conditions' (see selector_texts above).
    procedure = setup.procedure(trigger_offset=len(conditions))
    if not isinstance(options.redraws, GameRule):
        if not isinstance(procedure.mulligan, RedrawRule):
            what = "its mulligan is not a redraw" if procedure.mulligan else "it has no mulligan"
            raise UsageError(
                f"--redraws sets the limit of a redraw rule; {setup.label} ({setup.game.id}): "
                + (what if options.mulligan == "rules" else "--mulligan none draws once")
            )
        procedure = procedure.with_max_redraws(options.redraws)
    return Bound(problem, procedure, conditions, tuple(predicates), idle)


def _memberships(
    pile: Sequence[tuple[Card, int]], selectors: Sequence[Selector]
) -> Iterator[tuple[tuple[bool, ...], int]]:
    """Each pile entry's answers to ``selectors``, with its count. When every selector is
    decided by one field's value alone, each is asked once per distinct value of its field
    (a deck of thousands of cards holds a few dozen), and a card's answers are looked up by
    its combination of values; otherwise card by card."""
    fields = sorted({s.field for s in selectors if s.field is not None})
    if not fields or any(s.field is None for s in selectors):
        for card, n in pile:
            yield tuple(s(card) for s in selectors), n
        return
    reading = [[i for i, s in enumerate(selectors) if s.field == f] for f in fields]
    per_value: list[dict[object, tuple[bool, ...]]] = [{} for _ in fields]
    per_combination: dict[tuple[object, ...], tuple[bool, ...]] = {}
    for card, n in pile:
        values = tuple(value_key(card.get(f)) for f in fields)
        got = per_combination.get(values)
        if got is None:
            if None in values:  # a value without a key: asked as it is
                yield tuple(s(card) for s in selectors), n
                continue
            answers = [False] * len(selectors)
            for key, which, memo in zip(values, reading, per_value, strict=True):
                part = memo.get(key)
                if part is None:
                    part = memo[key] = tuple(selectors[i](card) for i in which)
                for i, answer in zip(which, part, strict=True):
                    answers[i] = answer
            got = per_combination[values] = tuple(answers)
        yield got, n


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
        last = last_turn(procedure, options.second, setup.pile_size)
        stop = (
            f"; the last turn the pile covers is {last}" if turn is not None and last >= 1 else ""
        )
        raise UsageError(
            f"{seen} cards seen, but the pile holds only {setup.pile_size} "
            f"({setup.deck_size} cards, {setup.deck_size - setup.pile_size} set aside){stop}"
        )
    if seen < opening and not setup.builtin_pile:
        raise UsageError(f"--seen {seen} is fewer than the opening hand of {opening}")
    return seen


def last_turn(procedure: Procedure, second: bool, pile: int) -> int:
    """The last turn whose cards seen fit in a pile of ``pile`` (0: not even the first)."""
    first = procedure.seen_by_turn(1, second)
    if first > pile:
        return 0
    return 1 + (pile - first) // max(1, procedure.draws_per_turn)


def _procedure_for(setup: DrawSetup, procedure: Procedure, seen: int) -> Procedure:
    if setup.builtin_pile:
        return Procedure(seen, None, 1, None, False)
    return procedure


def assumptions(
    setup: DrawSetup, bound: Bound, options: OddsOptions, seen: int, facts: Sequence[Fact] = ()
) -> list[str]:
    """Human lines saying what the figure assumes (``facts``: the answer's, for the policies
    the engine chose)."""
    lines = []
    if setup.builtin_pile:
        lines.append(f"pile {setup.label}: {setup.pile_note} ({setup.pile_size} cards)")
        note = setup.opening.description
        lines.append(
            f"{plural(seen, 'card')} seen"
            + (f" (default: {note})" if note and options.seen is None else "")
        )
        return lines
    else:
        lines.append(f"deck {setup.deck_size} cards; draw pile {setup.pile_size}")
        lines += set_aside_lines(setup.set_aside)
        lines += _never_drawn(setup, bound)
    proc = bound.procedure
    opening = proc.opening_size(options.second)
    if not setup.builtin_pile:
        lines.append(
            f"{plural(seen, 'card')} seen: opening hand {opening}"
            + (f" + {seen - opening} drawn" if seen > opening else "")
            + f" ({_who(setup, proc, options.second)})"
        )
        if (options.turn is not None or options.by_turn is not None) and setup.opening.turn_note:
            lines.append(setup.opening.turn_note)
        if proc.lookahead and seen > opening:
            how = [f for f in facts if f.kind in _LOOKAHEAD]
            lines += [fact_text(f) for f in how] or [fact_text(lookahead_fact(True))]
    rule = proc.mulligan
    if options.mulligan == "none" or rule is None:
        lines.append(
            "mulligan: none"
            + ("" if rule or options.mulligan == "none" else " (the game has none)")
        )
    elif setup.mulligan is not None:
        desc = setup.mulligan.description
        if isinstance(rule, ReturnRule):
            greedy = any(f.kind is FactKind.RETURN_GREEDY for f in facts)
            chosen = "by the rule of thumb below" if greedy else "optimal for this query"
            lines.append(f"mulligan: {desc}; the choice is {chosen}")
        elif rule.max_redraws == 0:
            # The rule's own words promise a redraw the limit then forbids: say the limit first.
            lines.append(f"mulligan: no redraw (at most 0 allowed here); the game's rule: {desc}")
        else:
            limit = "unlimited" if rule.max_redraws is None else f"at most {rule.max_redraws}"
            when = (
                "redraw only when it raises the chance of this query (the redraw is optional)"
                if options.redraw_policy == "optimal"
                else "redraw whenever allowed (--redraw-policy always)"
            )
            lines.append(f"mulligan: {desc}; {when}, {limit}")
    return lines


SET_ASIDE_LISTED: Final = 40
"""Up to this many set-aside cards a condition's "never drawn" line names in full (a real
STCCG deck seeds 20-30); of more it names the first :data:`SET_ASIDE_NAMED`."""


SET_ASIDE_SHOWN: Final = 3
"""Up to this many set-aside cards are named one line each (a planet, two starting miners);
more are summed up by what they are ("6 missions, 23 seed cards"), each in the JSON's
``set_aside`` (and ``--verbose``)."""


def set_aside_lines(aside: Sequence[SetAside]) -> list[str]:
    """What the rules take out before the shuffle: a line per card for a few, else one line
    summing them up by what the rules call them (a reason ``"seed card (the file's seed
    zone)"`` is a seed card, and its detail is said where every such card shares it)."""
    if len(aside) <= SET_ASIDE_SHOWN:
        return [f"set aside: {a.count}× {a.card.name}: {a.why}" for a in aside]
    return [f"set aside: {set_aside_summary(aside)}; --verbose or --json lists each card"]


def set_aside_summary(aside: Sequence[SetAside]) -> str:
    """The set-aside cards summed up by kind: ``6 missions (the space line), 23 seed cards``."""
    groups: dict[str, list[SetAside]] = {}
    for a in aside:
        groups.setdefault(_kind(a.why)[0], []).append(a)
    parts = []
    for kind, members in groups.items():
        n = sum(a.count for a in members)
        details = {_kind(a.why)[1] for a in members}
        detail = details.pop() if len(details) == 1 else ""
        if len(kind.split()) > 3:  # a reason in words, not a kind: "the planet is laid out…"
            kind, detail = "card", kind
        parts.append(plural(n, kind or "card") + (f" ({detail})" if detail else ""))
    return ", ".join(parts)


def _kind(why: str) -> tuple[str, str]:
    """A reason as (kind, detail): ``"seed card (the file's seed zone)"`` →
    ``("seed card", "the file's seed zone")``."""
    head, sep, rest = why.partition(" (")
    if sep and rest.endswith(")"):
        return head.strip(), rest[:-1].strip()
    head, sep, rest = why.partition(": ")
    return head.strip(), rest.strip()


SET_ASIDE_NAMED: Final = 6
"""How many set-aside cards a condition's "never drawn" line names when there are more than
:data:`SET_ASIDE_LISTED`."""


def _named(aside: Sequence[SetAside]) -> str:
    """The set-aside cards by name, or the first few of many."""
    named = aside if len(aside) <= SET_ASIDE_LISTED else aside[:SET_ASIDE_NAMED]
    shown = [f"{a.count}× {a.card.name}" for a in named]
    more = len(aside) - len(shown)
    return ", ".join(shown) + (f" and {more:,} more" if more else "")


def _never_drawn(setup: DrawSetup, bound: Bound) -> list[str]:
    """A condition counting cards the rules set aside: those are never drawn, say so."""
    lines = []
    for i, condition in enumerate(bound.conditions):
        if i < len(bound.selectors):
            matches = bound.selectors[i]
        else:
            matches = bind_selector(condition.selector, setup.catalog, setup.game.name_candidates)
        aside = [a for a in setup.set_aside if matches(a.card)]
        if aside:
            lines.append(
                f"{condition.text}: {_named(aside)} set aside before the draw, so never drawn "
                "(not counted here)"
            )
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


def _policy(options: OddsOptions) -> Policy:
    return Policy(redraw=options.redraw_policy)


def _query(options: OddsOptions, seen: int, turn: int | None) -> Query:
    return Query(seen, options.second, options.mulligan == "rules", turn)


def _asked(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    any_of: tuple[tuple[int, ...], ...] = (),
) -> tuple[Bound, int, Procedure, Query]:
    """The question as the engines take it: its bound problem, the cards seen, the procedure
    dealing them and the query at ``options.turn``."""
    bound = bind(setup, condition_texts, options, any_of=any_of, quiet=True)
    seen = cards_seen(setup, bound.procedure, options, options.turn)
    return (
        bound,
        seen,
        _procedure_for(setup, bound.procedure, seen),
        _query(options, seen, options.turn),
    )


def compute_odds(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """Exact odds where the state space allows, else a simulation (and the report says so).

    ``progress(done, total)`` hears from computations long enough to show a bar for.
    Conditions with their own deadline (``@TURN``) and ``--expected-turn`` are answered by
    :func:`deckcheck.analysis.deadlines.answer_odds`, which calls this for the rest.
    """
    return _compute_odds(setup, condition_texts, options, progress)


def _compute_odds(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    from deckcheck.draws.facade import SIMULATION_BUDGET, Prior, plain_rows, solve

    bound, seen, procedure, query = _asked(setup, condition_texts, options)
    if options.by_turn is None:
        answer = solve(bound.problem, procedure, query, _policy(options), progress=progress)
        return _report(setup, bound, options, seen, answer)
    queries, notes = _turn_queries(setup, bound, options)
    # A plain table's rows in exact reach come from one programme, the query's own with them
    # when it is one of them (else it has the whole exact limit to itself, as without a table).
    table = plain_rows(bound.problem, procedure, [query, *queries], _policy(options), progress)
    known = table.answer(query) if table is not None else None
    # The query's own simulation (if any) and the table's rows share one budget.
    answer = known or solve(
        bound.problem,
        procedure,
        query,
        _policy(options),
        progress=progress,
        budget=SIMULATION_BUDGET // 2,
        prior=Prior(out_of_reach=table.out_of_reach(query) if table is not None else None),
    )
    if table is not None and known is None:
        answer = table.said(query, answer)  # the table's first row's bound, not tried
    by_turn = _by_turn(bound, options, queries, progress, {query: answer}, table)
    return _report(setup, bound, options, seen, answer, by_turn, notes)


def compute_any_of(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    any_of: tuple[tuple[int, ...], ...],
    options: OddsOptions,
    known_states: KnownStates | None = None,
) -> OddsReport:
    """Odds that, for some alternative of ``any_of`` (indices into ``condition_texts``), all
    its conditions hold: one question to the exact engines, so the mulligan and the
    look-ahead are chosen for the whole either-or question. Where that is out of exact reach
    but the plain draw of the question is not, the plain draw's exact figure, said to leave
    the mulligan out; where both are, a simulation of the whole question (its decisions by
    the rules of thumb), saying which bound was hit. ``known_states``: a refused attempt's
    look-ahead states, gone on from (see :func:`~deckcheck.draws.facade.exact`)."""
    try:
        return _any_of_report(setup, condition_texts, any_of, options, known_states)
    except Intractable as exc:
        if options.mulligan == "rules" and setup.mulligan is not None:
            # The choice made for the whole question is what is out of reach; the plain draw
            # of the same question may still be exact, and a figure without the mulligan,
            # said to be one, is exact where a simulation would not be.
            plain = replace(options, mulligan="none")
            try:
                if exc.without_mulligan is not None:
                    plain_bound = bind(setup, condition_texts, plain, any_of=any_of, quiet=True)
                    seen = cards_seen(setup, plain_bound.procedure, plain, plain.turn)
                    report = _report(setup, plain_bound, plain, seen, exc.without_mulligan)
                else:
                    report = _any_of_report(setup, condition_texts, any_of, plain, exc.known_states)
            except Intractable as again:
                exc = _both_refused(exc, again)
            else:
                why = (
                    "the mulligan is left out: choosing it for this either-or question is "
                    f"beyond exact reach ({exc}); the figure is the plain draw's"
                )
                return replace(report, assumptions=(*report.assumptions, why))
        return _any_of_report(setup, condition_texts, any_of, options, out_of_reach=exc)


def _both_refused(first: Intractable, again: Intractable) -> Intractable:
    """The refusal a simulation names when the either-or question was refused with the
    mulligan (``first``) and then without it (``again``): both bounds, each with its numbers,
    and the work of both spent (a pass gone on from the first one's states counts its calls
    already)."""
    text = (
        f"with the mulligan, {reason_text(first.reason)}; without it, {reason_text(again.reason)}"
    )
    both = Intractable(OutOfReach(Reach.OTHER, text=text))
    both.spent = again.spent + (0 if first.known_states is not None else first.spent)
    return both


def _any_of_report(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    any_of: tuple[tuple[int, ...], ...],
    options: OddsOptions,
    known_states: KnownStates | None = None,
    out_of_reach: Intractable | None = None,
) -> OddsReport:
    """The either-or question's exact report; ``Intractable`` where exact maths does not
    reach. Given ``out_of_reach`` (the bound the exact engines hit), the question simulated
    instead: a trial succeeds when some alternative holds in full."""
    from deckcheck.draws.facade import Mode, Prior, solve

    bound, seen, procedure, query = _asked(setup, condition_texts, options, any_of=any_of)
    answer = solve(
        bound.problem,
        procedure,
        query,
        _policy(options),
        mode=Mode.EXACT if out_of_reach is None else Mode.AUTO,
        prior=Prior(out_of_reach=out_of_reach, known_states=known_states),
    )
    report = _report(setup, bound, options, seen, answer)
    if answer.exact:
        return report  # exact, or impossible (known at once)
    line = "either-or: simulated, a trial succeeding when some alternative holds in full"
    return replace(report, assumptions=(*report.assumptions, line))


def _turn_queries(
    setup: DrawSetup, bound: Bound, options: OddsOptions
) -> tuple[list[Query], list[str]]:
    """The queries of ``--by-turn``'s rows, and a line saying where the table stops short,
    if it does."""
    if setup.builtin_pile:
        raise UsageError(f"{setup.label} is a pile drawn once: --by-turn does not apply")
    assert options.by_turn is not None
    if options.by_turn < 1 or options.by_turn > 200:
        raise UsageError("--by-turn takes a number of turns from 1 to 200")
    last = min(options.by_turn, last_turn(bound.procedure, options.second, setup.pile_size))
    queries = [
        _query(options, bound.procedure.seen_by_turn(turn, options.second), turn)
        for turn in range(1, last + 1)
    ]
    notes = []
    if last < options.by_turn:
        need = bound.procedure.seen_by_turn(last + 1, options.second)
        notes.append(
            f"--by-turn stops at turn {last}: turn {last + 1} would need {need} cards seen, "
            f"and the pile holds {setup.pile_size}"
        )
    return queries, notes


def _by_turn(
    bound: Bound,
    options: OddsOptions,
    queries: Sequence[Query],
    progress: Callable[[int, int], None] | None = None,
    known: Mapping[Query, Answer] | None = None,
    table: PlainRows | None = None,
) -> tuple[TurnRow, ...]:
    """The rows of ``--by-turn`` (``known``: answers already computed, such as the query's
    own; ``table``: a plain table's rows in exact reach, see ``facade.plain_rows``)."""
    from deckcheck.draws.facade import SIMULATION_BUDGET, solve_turns

    answers = solve_turns(
        bound.problem,
        bound.procedure,
        queries,
        _policy(options),
        progress=progress,
        known=known,
        budget=SIMULATION_BUDGET // 2,  # the other half is the query's own
        table=table,
    )
    return tuple(
        TurnRow(
            q.turns or 0,
            q.seen,
            a.probability,
            a.probability_without_mulligan,
            a.exact,
            Simulation.of(a),
        )
        for q, a in zip(queries, answers, strict=True)
    )


def report(
    setup: DrawSetup,
    bound: Bound,
    options: OddsOptions,
    seen: int,
    answer: Answer,
    notes: Sequence[str] = (),
) -> OddsReport:
    """The report of ``answer`` (for the answers computed elsewhere: deadlines)."""
    return _report(setup, bound, options, seen, answer, (), notes)


def _report(
    setup: DrawSetup,
    bound: Bound,
    options: OddsOptions,
    seen: int,
    answer: Answer,
    by_turn: tuple[TurnRow, ...] = (),
    notes: Sequence[str] = (),
) -> OddsReport:
    lines = assumptions(setup, bound, options, seen, answer.facts)
    lines += [fact_text(f) for f in answer.facts if not _said(f)]
    simulation = Simulation.of(answer)
    if simulation is not None and simulation.player.decisions:
        lines.append(simulation.player.text)
    lines += notes
    return OddsReport(
        setup.label,
        setup.game.id,
        tuple(c.text for c in bound.conditions),
        seen,
        options.mulligan,
        answer.probability,
        answer.probability_without_mulligan,
        answer.exact,
        answer.method_text,
        tuple(lines),
        setup.deck_size,
        setup.pile_size,
        options.turn,
        options.second,
        probability_exact=answer.probability_exact,
        trials=answer.trials,
        seed=answer.seed,
        ci95=answer.ci95,
        ci95_without_mulligan=answer.ci95_without_mulligan,
        by_turn=by_turn,
        set_aside=() if setup.builtin_pile else setup.set_aside,
        simulation=simulation,
    )


def simulate_odds(
    setup: DrawSetup,
    condition_texts: Sequence[str],
    options: OddsOptions,
    trials: int | None,
    seed: int | None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """Monte Carlo over whole deals, with the Wilson 95% interval (``trials`` None: 1,000,000
    deals, fewer where each costs more, see :func:`~deckcheck.draws.facade.default_trials`).

    The simulated player follows the same policy as ``odds``: under the optimal redraw each
    decision is the exact optimum's for that hand (a stated rule of thumb where that table is
    out of reach), and a return mulligan takes the exact optimal choice (greedy where out of
    reach); the notes say which.
    """
    from deckcheck.draws.facade import simulate

    if trials is not None and not 1 <= trials <= MAX_TRIALS:
        raise UsageError(f"--trials must be between 1 and {MAX_TRIALS:,}")
    check_seed(seed)
    if seed is None:
        # A seed the user can pass back to --seed (and that JSON readers keep exactly).
        import secrets

        seed = secrets.randbelow(2**31)
    bound, seen, procedure, query = _asked(setup, condition_texts, options)
    answer = simulate(
        bound.problem,
        procedure,
        query,
        _policy(options),
        trials=trials,
        seed=seed,
        progress=progress,
    )
    return _report(setup, bound, options, seen, answer)
