"""The Playtest and Cards panes' answers from the library, for the deck being built.

The Playtest pane's deal: ``hand``'s opening hand of a seed, a mulligan taken by the player
or by the exact optimal policy, what that policy would do and the chance either way, and the
next turns' draws.

The optimal deal is :func:`deckcheck.analysis.hands.sample_hands`'s hand 1 (so it equals
``deckcheck hand DECK CONDITIONS --seed SEED``); the player's own redraws go through the same
:class:`~deckcheck.draws.dealer.Dealer` with the same random stream, so the first hand is the
same card for card and a redraw deals what the rules' redraw would.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

from deckcheck.analysis.mulligan import hand_guide_line
from deckcheck.analysis.odds import Bound, OddsOptions, bind, compute_odds
from deckcheck.analysis.setup import DrawSetup, deck_setup
from deckcheck.catalog.model import Card
from deckcheck.catalog.selectors import bind_selector
from deckcheck.commands.cards import find_cards
from deckcheck.commands.deckfile import new_deck
from deckcheck.commands.hands import accepted_hand, sample_hands
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.draws.facade import Choices, Dealer, DealShape, StepKind, optimal_return
from deckcheck.draws.model import Query, RedrawRule, ReturnRule
from deckcheck.draws.policies import triggers_held
from deckcheck.games.context import make_context


@frozen
class PlaytestView:
    """The Playtest pane: the hand first dealt, the hand kept, the mulligan's decisions, what
    the optimal policy would do, and the next turns' draws."""

    seed: int
    first: tuple[Card, ...]
    kept: tuple[Card, ...]
    decisions: tuple[str, ...]
    advice: str
    turns: tuple[tuple[Card, ...], ...]
    manual: bool
    redraws: int


def deal(
    loaded: LoadedDeck,
    seed: int,
    conditions: Sequence[str],
    redraws: int | None,
    turns: int,
) -> PlaytestView:
    """Hand 1 of ``seed`` with the mulligan played by the optimal policy (``redraws`` None)
    or redrawn ``redraws`` times by the player (as far as the rule allows)."""
    setup = deck_setup(loaded)
    report = sample_hands(setup, count=1, seed=seed, conditions=conditions)
    hand = report.hands[0]
    goal = list(conditions)
    rule = setup.mulligan_rule()
    if not goal and setup.mulligan is not None and isinstance(rule, RedrawRule):
        goal = accepted_hand(setup.mulligan)
    bound = bind(setup, goal, OddsOptions(), require_conditions=False)
    # The optimal deal's redraws played again, to reach the pile under its hand.
    played = sum(1 for d in hand.decisions if d.startswith("redraw"))
    dealer = _dealer(setup, bound, played if redraws is None else redraws)
    dealt = dealer.deal(random.Random(f"{seed}:1"))
    taken = sum(1 for s in dealt.steps if s.kind is StepKind.REDRAW)
    rest = dealt.rest
    if redraws is None:
        first, kept, decisions = hand.first, hand.kept, hand.decisions
        advice = _advice(setup, bound, goal, dealer, first, 0)
        if list(kept) != dealt.hand:
            # Cards were returned and shuffled in: the later draws come from the pile without
            # the cards drawn for them, the returned ones at the bottom (an approximation:
            # ``hand`` does not say the order the shuffle left).
            drawn = list(kept)
            for card in first:
                if card in drawn:
                    drawn.remove(card)
            rest = _without(dealt.first_rest, drawn) + list(hand.returned)
    else:
        first, kept = tuple(dealt.first), tuple(dealt.hand)
        decisions = tuple(f"redrawn by you ({n} of {taken})" for n in range(1, taken + 1))
        if taken < redraws:
            decisions += (_refused(rule, taken),)
        advice = _advice(setup, bound, goal, dealer, kept, taken)
    per_turn = max(1, setup.opening.draws_per_turn)
    later = tuple(tuple(rest[t * per_turn : (t + 1) * per_turn]) for t in range(turns))
    return PlaytestView(
        seed,
        first,
        kept,
        decisions,
        advice,
        tuple(t for t in later if t),
        redraws is not None,
        taken if redraws is not None else 0,
    )


def _without(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    """``cards`` with one copy of each of ``gone`` taken out."""
    left = list(cards)
    for card in gone:
        if card in left:
            left.remove(card)
    return left


def _dealer(setup: DrawSetup, bound: Bound, redraws: int) -> Dealer[Card]:
    """The dealer ``hand`` uses, with ``redraws`` redraws scripted (as far as the rule lets
    them be taken)."""
    predicates = [
        bind_selector(t, setup.catalog, setup.game.name_candidates)
        for t in bound.problem.selector_labels
    ]
    index = {key: g for g, key in enumerate(bound.problem.membership)}

    def group(card: Card) -> int:
        return index[tuple(p(card) for p in predicates)]

    asked = 0

    def scripted(_hand: tuple[int, ...], _left: int | None) -> bool:
        nonlocal asked
        asked += 1
        return asked <= redraws

    rule = bound.procedure.mulligan if isinstance(bound.procedure.mulligan, RedrawRule) else None
    shape = DealShape(bound.procedure.opening_size(False), 0, rule, False, 1)
    cards = [card for card, n in setup.pile for _ in range(n)]
    return Dealer(bound.problem, shape, cards, group, Choices(bound.problem, redraw=scripted))


def _refused(rule: object, taken: int) -> str:
    if rule is None:
        return "no mulligan in this game: the hand is kept"
    if not isinstance(rule, RedrawRule):
        return "this game's mulligan is no redraw: the hand is kept"
    if rule.max_redraws is not None and taken >= rule.max_redraws:
        return f"no redraw left (the rule allows {rule.max_redraws})"
    return "the rule offers no redraw for this hand"


def _advice(
    setup: DrawSetup,
    bound: Bound,
    goal: Sequence[str],
    dealer: Dealer[Card],
    hand: Sequence[Card],
    taken: int,
) -> str:
    """What the exact optimal policy would do with ``hand`` after ``taken`` redraws, and the
    chance of the goal (in the opening hand, as ``hand`` aims) kept or redrawn."""
    rule = bound.procedure.mulligan
    if setup.mulligan is None or rule is None:
        return "no mulligan in this game: the hand is kept"
    if taken == 0 and goal:
        # The mulligan guide's own line for this hand (the play odds assumes).
        line = hand_guide_line(setup, goal, hand)
        if line is not None:
            return f"optimal: {line}"
    counts = dealer.counts(list(hand))
    aim = " and ".join(goal)
    keep = 1.0 if bound.problem.satisfied(counts) else 0.0
    if isinstance(rule, ReturnRule):
        return _return_advice(bound, counts, rule, aim, keep)
    if not isinstance(rule, RedrawRule):
        return f"mulligan: {setup.mulligan.description}"
    left = None if rule.max_redraws is None else rule.max_redraws - taken
    if left == 0 or not triggers_held(rule, bound.problem, counts):
        why = "no redraw left" if left == 0 else "the rule offers no redraw for it"
        return f"optimal: keep ({why}); {aim}: {keep:.0%} kept"
    try:
        options = OddsOptions(redraws=None if left is None else left - 1)
        again = compute_odds(setup, goal, options).probability
    except DeckcheckError as exc:
        return f"optimal: unknown ({exc.message})"
    verdict = "redraw" if keep < again else "keep"
    return f"optimal: {verdict}; {aim}: {keep:.0%} kept, {again:.1%} redrawn"


def _return_advice(
    bound: Bound, counts: tuple[int, ...], rule: ReturnRule, aim: str, keep: float
) -> str:
    """The optimal return for the goal in the opening hand (``hand``'s), and the exact
    chance of the goal kept and after that return (the cards kept, ``rule.count`` drawn from
    the pile with the returned ones shuffled in)."""
    if not bound.problem.conditions:
        return "no goal: the hand is kept; conditions in the Odds tab give the optimal return"
    size = sum(counts)
    choice = optimal_return(bound.problem, bound.procedure, Query(size, False, True))
    if choice is None:
        return f"the optimal return is out of reach here; {aim}: {keep:.0%} kept"
    back = choice(counts)
    if back is None or not any(back):
        return f"optimal: keep; {aim}: {keep:.0%} kept"
    kept = [c - b for c, b in zip(counts, back, strict=True)]
    left = [n - k for n, k in zip(bound.problem.group_sizes, kept, strict=True)]
    total = math.comb(sum(left), rule.count)
    won = 0
    for drawn in _compositions(rule.count, left):
        if bound.problem.satisfied([k + d for k, d in zip(kept, drawn, strict=True)]):
            won += math.prod(math.comb(n, d) for n, d in zip(left, drawn, strict=True))
    after = Fraction(won, total)
    return f"optimal: return {rule.count}; {aim}: {keep:.0%} kept, {float(after):.1%} after it"


def _compositions(n: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` cards from groups of ``sizes`` (counts per group)."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for k in range(min(n, sizes[0]) + 1):
        for rest in _compositions(n - k, sizes[1:]):
            yield (k, *rest)


#: Cards a search lists at most (a table of thousands helps nobody; the count is said).
SEARCH_LIMIT = 200


def search(
    loaded: LoadedDeck, text: str, catalogs: Sequence[str | Path] = ()
) -> tuple[tuple[Card, ...], int]:
    """Cards of the deck's game and variant matching ``text`` as ``cards`` reads it (at most
    :data:`SEARCH_LIMIT` of them) and how many matched in all; ``catalogs``: overlays."""
    found = find_cards(
        loaded.game.id, text.strip() or None, make_context(catalogs, variant=loaded.variant.name)
    )
    return found.cards[:SEARCH_LIMIT], len(found.cards)


def new_deck_text(path: str | Path, game: str, variant: str | None) -> str:
    """A new deck file's text, as ``new`` would write it (written on the first save)."""
    return new_deck(game, path, variant=variant, write=False).text
