"""``hand``: sample opening hands dealt the way the game deals, with the mulligan decision."""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from deckcheck.analysis.odds import (
    Bound,
    MulliganPolicy,
    OddsOptions,
    RedrawPolicy,
    bind,
    check_seed,
)
from deckcheck.analysis.setup import DrawSetup
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.draws.model import CountTest, Query, RedrawRule, ReturnRule
from deckcheck.games.spec import MulliganModel

MAX_HANDS = 1000


@dataclass(frozen=True)
class SampleHand:
    """One dealt hand: what was first drawn, what the mulligan did and why, what is kept."""

    number: int
    first: tuple[Card, ...]
    kept: tuple[Card, ...]
    decisions: tuple[str, ...]
    returned: tuple[Card, ...] = ()
    satisfied: bool | None = None


@dataclass(frozen=True)
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
    pile = [card for card, n in setup.pile for _ in range(n)]
    size = (
        setup.opening.hand_size_second
        if second and setup.opening.hand_size_second
        else setup.opening.hand_size
    )
    if size > len(pile):
        raise UsageError(f"the pile holds {len(pile)} cards, fewer than a hand of {size}")
    rule = setup.mulligan_rule() if mulligan == "rules" else None
    notes: list[str] = []
    chooser = None
    grouping: _Grouping | None = None
    if isinstance(rule, ReturnRule):
        if conditions:
            from deckcheck.draws.exact import Intractable, optimal_return_choice

            bound, grouping = _bind_goal(setup, conditions, second)
            try:
                chooser = optimal_return_choice(
                    bound.problem, bound.procedure, Query(size, second, True)
                )
                notes.append("returns are the exact optimum for: " + " and ".join(conditions))
            except Intractable:
                notes.append("the optimal return is out of reach here: hands are kept")
        else:
            notes.append(
                "no goal given, so hands are kept; add conditions (e.g. "
                '"type:warrior>=2") to see the optimal return'
            )
    triggers = []
    if isinstance(rule, RedrawRule) and setup.mulligan is not None:
        triggers = [(bind_selector(t.select, setup.catalog), t) for t in setup.mulligan.triggers]
    redraw_chooser = None
    if isinstance(rule, RedrawRule) and redraw_policy == "optimal" and setup.mulligan:
        from deckcheck.draws.exact import Intractable
        from deckcheck.draws.optimal_redraw import optimal_redraw_choice

        goal_texts = list(conditions) or accepted_hand(setup.mulligan)
        bound, grouping = _bind_goal(setup, goal_texts, second)
        try:
            redraw_chooser = optimal_redraw_choice(
                bound.problem, bound.procedure, Query(size, second, True)
            )
            notes.append(
                "the redraw is optional: taken only when a fresh deal beats the hand, for: "
                + " and ".join(goal_texts)
                + ("" if conditions else " (no goal given: a hand the rule accepts)")
            )
        except Intractable:
            from deckcheck.draws.policies import redraw_unless_met

            problem = bound.problem
            redraw_chooser = functools.partial(redraw_unless_met, problem)
            notes.append(
                "the exact optimal redraw is out of reach here: a hand is redrawn when allowed "
                "unless it already meets: " + " and ".join(goal_texts)
            )
    goal = [
        (bind_selector(c.selector, setup.catalog, setup.game.name_candidates), c)
        for c in (bind(setup, conditions, OddsOptions()).conditions if conditions else ())
    ]
    hands = []
    for number in range(1, count + 1):
        # One stream per hand: hand N of a seed is the same whatever --count or the policy.
        rng = random.Random(f"{seed}:{number}")
        deck = pile[:]
        rng.shuffle(deck)
        hand, rest = deck[:size], deck[size:]
        first = tuple(hand)
        decisions: list[str] = []
        returned: tuple[Card, ...] = ()
        if isinstance(rule, RedrawRule):
            redraws = 0
            while True:
                reasons = [
                    f"{_count(hand, sel)} {t.select.split(':')[-1]} ({t.op} {t.count})"
                    for sel, t in triggers
                    if _holds(_count(hand, sel), t.op, t.count)
                ]
                if not reasons:
                    decisions.append(
                        "kept: no redraw allowed" if redraws == 0 else "kept after the redraw"
                    )
                    break
                if rule.max_redraws is not None and redraws >= rule.max_redraws:
                    decisions.append("kept: " + ", ".join(reasons) + ", but no redraws left")
                    break
                if redraw_chooser is not None and grouping is not None:
                    left = None if rule.max_redraws is None else rule.max_redraws - redraws
                    if not redraw_chooser(grouping.composition(hand), left):
                        decisions.append(
                            "kept: "
                            + ", ".join(reasons)
                            + " allows a redraw, but this hand has the better chance"
                        )
                        break
                decisions.append("redraw: " + ", ".join(reasons))
                deck = pile[:]
                rng.shuffle(deck)
                hand, rest = deck[:size], deck[size:]
                redraws += 1
        elif isinstance(rule, ReturnRule) and chooser is not None and grouping is not None:
            group_of = grouping.of
            choice = chooser(grouping.composition(hand))
            if choice is None:
                decisions.append("kept: the hand already gives the best chance")
            else:
                wanted = list(choice)
                back: list[Card] = []
                for card in list(hand):
                    g = group_of(card)
                    if wanted[g] > 0:
                        wanted[g] -= 1
                        back.append(card)
                        hand.remove(card)
                returned = tuple(back)
                rest = rest + back
                rng.shuffle(rest)
                drawn, rest = rest[: rule.count], rest[rule.count :]
                hand = hand + drawn
                decisions.append(
                    f"returned {', '.join(c.name for c in back)}; drew "
                    f"{', '.join(c.name for c in drawn)}"
                )
        elif rule is None and mulligan == "none":
            decisions.append("mulligan off")
        satisfied = (
            all(_holds(_count(hand, sel), c.op, c.count) for sel, c in goal) if goal else None
        )
        hands.append(SampleHand(number, first, tuple(hand), tuple(decisions), returned, satisfied))
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
    )


_NEGATED = {"<": ">=", ">": "<=", "<=": ">", ">=": "<"}


def accepted_hand(mulligan: MulliganModel) -> list[str]:
    """Conditions that hold exactly when no redraw trigger does (a hand the rule accepts)."""
    goal = []
    for t in mulligan.triggers:
        if t.op not in _NEGATED:
            raise UsageError(
                f"the redraw trigger {t.select}{t.op}{t.count} has no single opposite: give "
                "a goal (conditions) or --redraw-policy always"
            )
        goal.append(f"{t.select}{_NEGATED[t.op]}{t.count}")
    return goal


@dataclass(frozen=True)
class _Grouping:
    """Which group of the abstract problem a card belongs to (the selectors it matches)."""

    keys: list[tuple[bool, ...]]
    predicates: Sequence[Callable[[Card], bool]]

    def of(self, card: Card) -> int:
        """The group index of ``card``."""
        return self.keys.index(tuple(p(card) for p in self.predicates))

    def composition(self, hand: Sequence[Card]) -> tuple[int, ...]:
        """How many cards of each group a hand holds."""
        counts = [0] * len(self.keys)
        for card in hand:
            counts[self.of(card)] += 1
        return tuple(counts)


def _bind_goal(
    setup: DrawSetup, conditions: Sequence[str], second: bool
) -> tuple[Bound, _Grouping]:
    """The goal as an abstract problem, and how to find a card's group in it."""
    bound = bind(setup, conditions, OddsOptions(second=second))
    predicates = [
        bind_selector(t, setup.catalog, setup.game.name_candidates)
        for t in bound.problem.selector_labels
    ]
    return bound, _Grouping(list(bound.problem.membership), predicates)


def _count(hand: Sequence[Card], selector: Callable[[Card], bool]) -> int:
    return sum(1 for c in hand if selector(c))


def _holds(value: int, op: str, threshold: int) -> bool:
    return CountTest(0, op, threshold).holds(value)  # type: ignore[arg-type]
