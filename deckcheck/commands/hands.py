"""``hand``: sample opening hands dealt the way the game deals, with the mulligan decision."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field

from deckcheck.analysis.odds import (
    Bound,
    MulliganPolicy,
    OddsOptions,
    RedrawPolicy,
    bind,
    check_seed,
)
from deckcheck.analysis.setup import DrawSetup, draw_setup
from deckcheck.catalog.model import Card, card_labels
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.core.text import plural
from deckcheck.core.values import frozen
from deckcheck.decks.load import open_deck
from deckcheck.draws.facade import (
    Choices,
    Dealer,
    DealShape,
    RedrawChooser,
    ReturnChooser,
    Step,
    StepKind,
    optimal_return,
    redraw_choice,
)
from deckcheck.draws.model import Query, RedrawRule, ReturnRule
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.spec import MulliganModel

MAX_HANDS = 1000


@frozen
class SampleHand:
    """One dealt hand: what was first drawn, what the mulligan did and why, what is kept."""

    number: int
    first: tuple[Card, ...]
    kept: tuple[Card, ...]
    decisions: tuple[str, ...]
    returned: tuple[Card, ...] = ()
    satisfied: bool | None = None


@frozen
class HandsReport:
    """Several sample hands and how they were dealt."""

    deck: str
    game: str
    seed: int
    hands: tuple[SampleHand, ...]
    hand_size: int
    pile_size: int
    conditions: tuple[str, ...]
    mulligan: str
    notes: tuple[str, ...]
    card_names: Mapping[str, str] = field(default_factory=dict, compare=False)
    """How people read each card of the pile: its name, with its id beside it where the pile
    holds other cards of that name."""

    exit_code = OK

    def to_json(self) -> dict[str, Json]:
        """The hands by card id, with the mulligan's decisions and whether the goal was met."""
        return {
            "deck": self.deck,
            "game": self.game,
            "seed": self.seed,
            "hand_size": self.hand_size,
            "conditions": list(self.conditions),
            "mulligan": self.mulligan,
            "hands": [
                {
                    "first": [c.id for c in h.first],
                    "kept": [c.id for c in h.kept],
                    "returned": [c.id for c in h.returned],
                    "decisions": list(h.decisions),
                    "goal_met": h.satisfied,
                }
                for h in self.hands
            ],
        }


def sample_hands(
    setup: DrawSetup,
    *,
    count: int = 1,
    seed: int | None = None,
    mulligan: MulliganPolicy = "rules",
    conditions: Sequence[str] = (),
    second: bool = False,
    redraw_policy: RedrawPolicy = "optimal",
) -> HandsReport:
    """Deal ``count`` opening hands; apply the game's mulligan under the rules policy.

    A redraw rule is optional: under the optimal policy (the default) a hand is redrawn only
    when a fresh deal beats it for the goal; with no ``conditions`` the goal is a hand the rule
    accepts (no trigger holds), so every allowed redraw is taken. ``redraw_policy="always"``
    redraws whenever allowed. A return-cards rule needs a goal: with ``conditions`` the choice
    is the exact optimum for them; without, the hand is kept.
    """
    if not 1 <= count <= MAX_HANDS:
        raise UsageError(f"--count must be between 1 and {MAX_HANDS}")
    check_seed(seed)
    seed = secrets.randbelow(2**31) if seed is None else seed
    size = (
        setup.opening.hand_size_second
        if second and setup.opening.hand_size_second
        else setup.opening.hand_size
    )
    if size > setup.pile_size:
        raise UsageError(f"the pile holds {setup.pile_size} cards, fewer than a hand of {size}")
    options = OddsOptions(second=second, mulligan=mulligan)
    game_rule = setup.mulligan_rule() if mulligan == "rules" else None
    optimal_redraw = isinstance(game_rule, RedrawRule) and redraw_policy == "optimal"
    # The optimal redraw needs a goal: without one, a hand the rule accepts.
    goal_texts = list(conditions)
    if optimal_redraw and not goal_texts and setup.mulligan is not None:
        goal_texts = accepted_hand(setup.mulligan)
    bound = bind(setup, goal_texts, options, require_conditions=False)
    grouping = _grouping(setup, bound)
    rule = bound.procedure.mulligan if mulligan == "rules" else None
    query = Query(size, second, True)
    notes: list[str] = []
    returns: ReturnChooser | None = None
    redraws: RedrawChooser | None = None
    if isinstance(rule, ReturnRule):
        if conditions:
            returns = optimal_return(bound.problem, bound.procedure, query)
            if returns is not None:
                notes.append("returns are the exact optimum for: " + " and ".join(conditions))
            else:
                notes.append("the optimal return is out of reach here: hands are kept")
        else:
            notes.append(
                "no goal given, so hands are kept; add conditions (e.g. "
                f'"{setup.game.spec.game.example_condition}") to see the optimal return'
            )
        if returns is None:
            rule = None  # hands are kept: no decision to show
    if isinstance(rule, RedrawRule) and optimal_redraw:
        redraws, exact = redraw_choice(bound.problem, bound.procedure, query)
        if exact:
            notes.append(
                "the redraw is optional: taken only when a fresh deal beats the hand, for: "
                + " and ".join(goal_texts)
                + ("" if conditions else " (no goal given: a hand the rule accepts)")
            )
        else:
            notes.append(
                "the exact optimal redraw is out of reach here: a hand is redrawn when allowed "
                "unless it already meets: " + " and ".join(goal_texts)
            )
    shape = DealShape(size, 0, rule, False, 1)
    choices = Choices(bound.problem, redraw=redraws, returned=returns)
    cards = [card for card, n in setup.pile for _ in range(n)]
    dealer: Dealer[Card] = Dealer(bound.problem, shape, cards, grouping.of, choices)
    hands = []
    for number in range(1, count + 1):
        # One stream per hand: hand N of a seed is the same whatever --count or the policy.
        deal = dealer.deal(random.Random(f"{seed}:{number}"))
        decisions = [_word(step, bound, setup.mulligan) for step in deal.steps]
        if rule is None and mulligan == "none":
            decisions.append("mulligan off")
        returned = next((s.returned for s in deal.steps if s.kind is StepKind.RETURNED), ())
        satisfied = bound.problem.satisfied(dealer.counts(deal.hand)) if conditions else None
        hands.append(
            SampleHand(
                number, tuple(deal.first), tuple(deal.hand), tuple(decisions), returned, satisfied
            )
        )
    return HandsReport(
        setup.label,
        setup.game.id,
        seed,
        tuple(hands),
        size,
        setup.pile_size,
        tuple(conditions),
        mulligan,
        tuple(notes),
        card_labels(card for card, _ in setup.pile),
    )


def _word(step: Step[Card], bound: Bound, model: MulliganModel | None) -> str:
    """A mulligan step in words, with the triggers that held ("2 action (> 3)")."""
    reasons = ""
    rule = bound.procedure.mulligan
    if step.triggers and isinstance(rule, RedrawRule) and model is not None:
        totals = bound.problem.selector_counts(step.hand)
        reasons = ", ".join(
            plural(totals[rule.triggers[i].selector], model.triggers[i].select.split(":")[-1])
            + f" ({model.triggers[i].op} {model.triggers[i].count})"
            for i in step.triggers
        )
    kind = step.kind
    if kind is StepKind.KEPT_NOT_ALLOWED:
        return (
            "kept: the rule offers no redraw for this hand"
            if step.redraws == 0
            else "kept after the redraw"
        )
    if kind is StepKind.KEPT_NO_REDRAWS_LEFT:
        return f"kept: {reasons}, but no redraws left"
    if kind is StepKind.KEPT_BY_CHOICE:
        return f"kept: {reasons} allows a redraw, but this hand has the better chance"
    if kind is StepKind.KEPT_AT_CAP:
        return f"kept: {reasons}, but {step.redraws} redraws are enough"
    if kind is StepKind.REDRAW:
        return f"redraw: {reasons}"
    if kind is StepKind.KEPT_NO_RETURN:
        return "kept: the hand already gives the best chance"
    return (
        f"returned {', '.join(c.name for c in step.returned)}; drew "
        f"{', '.join(c.name for c in step.drawn)}"
    )


def accepted_hand(mulligan: MulliganModel) -> list[str]:
    """Conditions that hold exactly when no redraw trigger does (a hand the rule accepts)."""
    goal = []
    for t in mulligan.triggers:
        opposite = t.op.negated()
        if opposite is None:
            raise UsageError(
                f"the redraw trigger {t.select}{t.op}{t.count} has no single opposite: give "
                "a goal (conditions) or --redraw-policy always"
            )
        goal.append(f"{t.select}{opposite}{t.count}")
    return goal


@frozen
class _Grouping:
    """Which group of the abstract problem a card belongs to (the selectors it matches)."""

    index: dict[tuple[bool, ...], int]
    predicates: Sequence[Callable[[Card], bool]]

    def of(self, card: Card) -> int:
        """The group index of ``card``."""
        return self.index[tuple(p(card) for p in self.predicates)]


def _grouping(setup: DrawSetup, bound: Bound) -> _Grouping:
    """How to find a card's group in the bound problem."""
    predicates = [
        bind_selector(t, setup.catalog, setup.game.name_candidates)
        for t in bound.problem.selector_labels
    ]
    index = {key: g for g, key in enumerate(bound.problem.membership)}
    return _Grouping(index, predicates)


@frozen
class HandRequest:
    """``count`` opening hands of ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in
    ``context``, dealt from ``seed``, the mulligan aimed at ``conditions`` where it chooses."""

    deck: str
    conditions: tuple[str, ...] = ()
    options: OddsOptions = OddsOptions()
    context: Context = NO_CONTEXT
    count: int = 1
    seed: int | None = None


def run(request: HandRequest) -> HandsReport:
    """The hands of ``request`` (:func:`sample_hands`)."""
    r = request
    return sample_hands(
        draw_setup(open_deck(r.deck, r.context)),
        count=r.count,
        seed=r.seed,
        mulligan=r.options.mulligan,
        conditions=r.conditions,
        second=r.options.second,
        redraw_policy=r.options.redraw_policy,
    )
