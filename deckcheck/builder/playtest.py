"""The builder's playtest, search and card names, from the library, for the deck being built.

The playtest deal: ``hand``'s opening hand of a seed, a mulligan taken by the player (a
redraw, or the cards of a return chosen one by one) or by the exact optimal policy, what that
policy would do and the chance either way, and the next turns' draws.

The optimal deal is ``hand``'s hand 1 (so it equals ``deckcheck hand DECK CONDITIONS --seed
SEED``); the player's own redraws go through the same
:class:`~deckcheck.draws.facade.Dealer` with the same random stream, so the first hand is the
same card for card, a redraw deals what the rules' redraw would, and a return of the cards the
policy returns draws what ``hand`` drew.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from deckcheck.analysis.mulligan import hand_guide_line
from deckcheck.analysis.odds import Bound, OddsOptions, bind, compute_odds
from deckcheck.analysis.setup import DrawSetup, deck_setup
from deckcheck.catalog.model import Card, Catalog
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
from deckcheck.games.spec import GameSpec, MulliganModel


@frozen
class PlaytestView:
    """The Playtest pane: the hand first dealt, the hand kept, the mulligan's decisions, what
    the optimal policy would do, and the next turns' draws.

    ``mulligan``: the game's own mulligan named (``no mulligan``, ``redraw mulligan (once)``,
    ``return-3 mulligan``); ``manual``: the player took it; ``to_return``: how many cards a
    return mulligan takes when the hand may still be returned (0 otherwise); ``best_return``:
    the optimal policy's return for the hand on screen (indices into ``kept``); ``guide``: one
    more line of advice on the hand on screen, where a caller adds one."""

    seed: int
    first: tuple[Card, ...]
    kept: tuple[Card, ...]
    decisions: tuple[str, ...]
    advice: str
    turns: tuple[tuple[Card, ...], ...]
    manual: bool
    redraws: int
    mulligan: str = "no mulligan"
    to_return: int = 0
    best_return: tuple[int, ...] = ()
    guide: str = ""


def mulligan_name(mulligan: MulliganModel | None) -> str:
    """The game's own mulligan in a few words, for a header."""
    if mulligan is None:
        return "no mulligan"
    if mulligan.kind == "return":
        return f"return-{mulligan.count} mulligan"
    if mulligan.max_redraws is None:
        return "redraw mulligan"
    times = {1: "once", 2: "twice"}.get(mulligan.max_redraws, f"{mulligan.max_redraws}×")
    return f"redraw mulligan ({times})"


def deal(
    loaded: LoadedDeck,
    seed: int,
    conditions: Sequence[str],
    redraws: int | None,
    turns: int,
    returned: Sequence[int] | None = None,
) -> PlaytestView:
    """Hand 1 of ``seed`` with the mulligan played by the optimal policy (``redraws`` None)
    or redrawn ``redraws`` times by the player (as far as the rule allows); for a return
    mulligan, ``returned``: the cards of the first hand the player returns (indices)."""
    setup = deck_setup(loaded)
    report = sample_hands(setup, count=1, seed=seed, conditions=conditions)
    hand = report.hands[0]
    goal = list(conditions)
    rule = setup.mulligan_rule()
    if not goal and setup.mulligan is not None and isinstance(rule, RedrawRule):
        goal = accepted_hand(setup.mulligan)
    bound = bind(setup, goal, OddsOptions(), require_conditions=False)
    name = mulligan_name(setup.mulligan)
    guide = _guide(setup, goal, hand.first)
    if isinstance(rule, ReturnRule) and returned is not None:
        by_hand = _returned_by_hand(setup, bound, goal, seed, turns, returned, rule, name)
        return replace(by_hand, guide=_of_first(guide, by_hand.first, by_hand.kept))
    # The optimal deal's redraws played again, to reach the pile under its hand.
    played = sum(1 for d in hand.decisions if d.startswith("redraw"))
    dealer = _dealer(setup, bound, played if redraws is None else redraws)
    dealt = dealer.deal(random.Random(f"{seed}:1"))
    taken = sum(1 for s in dealt.steps if s.kind is StepKind.REDRAW)
    rest = dealt.rest
    best: tuple[int, ...] = ()
    if redraws is None:
        first, kept, decisions = hand.first, hand.kept, hand.decisions
        advice, best = _advice(setup, bound, goal, dealer, first, 0)
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
        advice, best = _advice(setup, bound, goal, dealer, kept, taken)
    per_turn = max(1, setup.opening.draws_per_turn)
    later = tuple(tuple(rest[t * per_turn : (t + 1) * per_turn]) for t in range(turns))
    open_return = isinstance(rule, ReturnRule) and redraws is not None
    return PlaytestView(
        seed,
        first,
        kept,
        decisions,
        advice,
        tuple(t for t in later if t),
        redraws is not None and taken > 0,
        taken if redraws is not None else 0,
        name,
        rule.count if open_return and isinstance(rule, ReturnRule) else 0,
        best,
        _of_first(guide, first, kept),
    )


def _returned_by_hand(
    setup: DrawSetup,
    bound: Bound,
    goal: Sequence[str],
    seed: int,
    turns: int,
    returned: Sequence[int],
    rule: ReturnRule,
    name: str,
) -> PlaytestView:
    """The first hand of ``seed`` with the cards at ``returned`` given back: shuffled into
    the pile by the deal's own random stream (as the rules' return would), as many drawn."""
    dealer = _dealer(setup, bound, 0)
    rng = random.Random(f"{seed}:1")
    dealt = dealer.deal(rng)
    first = tuple(dealt.first)
    chosen = sorted(set(returned))
    if len(chosen) != rule.count or not all(0 <= i < len(first) for i in chosen):
        raise DeckcheckError(f"the rule returns exactly {rule.count} cards of the hand")
    back = [first[i] for i in chosen]
    kept = [c for i, c in enumerate(first) if i not in chosen]
    pile = list(dealt.first_rest) + back
    rng.shuffle(pile)
    drawn, rest = pile[: rule.count], pile[rule.count :]
    aim = " and ".join(goal)
    chance = return_chance(bound, dealer.counts(kept), rule)
    decisions = (
        f"returned by you: {', '.join(c.name for c in back)}; drew "
        f"{', '.join(c.name for c in drawn)}",
    )
    best = optimal_return_cards(bound, dealer, first)
    if best is None or not bound.problem.conditions:
        advice = f"{aim or 'no goal'}: {float(chance):.1%} after your return"
    else:
        best_kept = [c for i, c in enumerate(first) if i not in best]
        optimum = return_chance(bound, dealer.counts(best_kept), rule) if best else None
        said = (
            f"return {', '.join(first[i].name for i in best)} for {float(optimum):.1%}"
            if optimum is not None
            else f"keep for {_kept_chance(bound, dealer, first):.0%}"
        )
        advice = f"optimal: {said}; {aim}: {float(chance):.1%} after your return"
    per_turn = max(1, setup.opening.draws_per_turn)
    later = tuple(tuple(rest[t * per_turn : (t + 1) * per_turn]) for t in range(turns))
    return PlaytestView(
        seed,
        first,
        tuple(kept + drawn),
        decisions,
        advice,
        tuple(t for t in later if t),
        True,
        0,
        name,
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
    them be taken); a return is left to the caller."""
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
    if isinstance(rule, ReturnRule):
        return f"mark {rule.count} cards to return (Enter on each), then m"
    if not isinstance(rule, RedrawRule):
        return "this game's mulligan is no redraw: the hand is kept"
    if rule.max_redraws is not None and taken >= rule.max_redraws:
        return f"no redraw left (the rule allows {rule.max_redraws})"
    return "the rule offers no redraw for this hand"


def _guide(setup: DrawSetup, goal: Sequence[str], first: Sequence[Card]) -> str:
    """The mulligan guide's line for the hand first dealt (the play ``odds`` assumes, with
    both chances of the goal: ``guide: redraw: 61.2 % against 48.0 % kept``); empty for a game
    without a mulligan, without a goal, or when the guide is out of reach."""
    if not goal or setup.mulligan is None:
        return ""
    line = hand_guide_line(setup, goal, first)
    return f"guide: {line}" if line is not None else ""


def _of_first(guide: str, first: Sequence[Card], kept: Sequence[Card]) -> str:
    """``guide`` (about the hand first dealt) saying so when the hand kept is another."""
    if not guide or list(first) == list(kept):
        return guide
    return guide.replace("guide: ", "guide (the hand first dealt): ", 1)


def _kept_chance(bound: Bound, dealer: Dealer[Card], hand: Sequence[Card]) -> float:
    return 1.0 if bound.problem.satisfied(dealer.counts(list(hand))) else 0.0


def _advice(
    setup: DrawSetup,
    bound: Bound,
    goal: Sequence[str],
    dealer: Dealer[Card],
    hand: Sequence[Card],
    taken: int,
) -> tuple[str, tuple[int, ...]]:
    """What the exact optimal policy would do with ``hand`` after ``taken`` redraws, and the
    chance of the goal (in the opening hand, as ``hand`` aims) kept or redrawn; for a return,
    the cards it returns (indices into ``hand``)."""
    rule = bound.procedure.mulligan
    if setup.mulligan is None or rule is None:
        return "no mulligan in this game: the hand is kept", ()
    aim = " and ".join(goal)
    keep = _kept_chance(bound, dealer, hand)
    if isinstance(rule, ReturnRule):
        return _return_advice(bound, dealer, hand, rule, aim, keep)
    if not isinstance(rule, RedrawRule):
        return f"mulligan: {setup.mulligan.description}", ()
    counts = dealer.counts(list(hand))
    left = None if rule.max_redraws is None else rule.max_redraws - taken
    if left == 0 or not triggers_held(rule, bound.problem, counts):
        why = "no redraw left" if left == 0 else "the rule offers no redraw for it"
        return f"optimal: keep ({why}); {aim}: {keep:.0%} kept", ()
    try:
        options = OddsOptions(redraws=None if left is None else left - 1)
        again = compute_odds(setup, goal, options).probability
    except DeckcheckError as exc:
        return f"optimal: unknown ({exc.message})", ()
    verdict = "redraw" if keep < again else "keep"
    return f"optimal: {verdict}; {aim}: {keep:.0%} kept, {again:.1%} redrawn", ()


def optimal_return_cards(
    bound: Bound, dealer: Dealer[Card], hand: Sequence[Card]
) -> tuple[int, ...] | None:
    """The cards of ``hand`` (indices) the exact optimal policy returns for the goal in the
    opening hand (``()``: it keeps the hand); None when its table is out of reach."""
    size = len(hand)
    choice = optimal_return(bound.problem, bound.procedure, Query(size, False, True))
    if choice is None:
        return None
    back = choice(dealer.counts(list(hand)))
    if back is None or not any(back):
        return ()
    wanted = list(back)
    out = []
    for i, card in enumerate(hand):  # the first cards of each group, as the dealer returns
        g = dealer.group(card)
        if wanted[g]:
            wanted[g] -= 1
            out.append(i)
    return tuple(out)


def return_chance(bound: Bound, kept: Sequence[int], rule: ReturnRule) -> Fraction:
    """The exact chance of the goal once ``rule.count`` cards are drawn to the cards ``kept``
    (per group) from the pile with the returned ones shuffled in."""
    left = [n - k for n, k in zip(bound.problem.group_sizes, kept, strict=True)]
    total = math.comb(sum(left), rule.count)
    won = 0
    for drawn in _compositions(rule.count, left):
        if bound.problem.satisfied([k + d for k, d in zip(kept, drawn, strict=True)]):
            won += math.prod(math.comb(n, d) for n, d in zip(left, drawn, strict=True))
    return Fraction(won, total)


def _return_advice(
    bound: Bound,
    dealer: Dealer[Card],
    hand: Sequence[Card],
    rule: ReturnRule,
    aim: str,
    keep: float,
) -> tuple[str, tuple[int, ...]]:
    """The optimal return for the goal in the opening hand (``hand``'s), the cards it returns
    and the exact chance of the goal kept and after that return."""
    if not bound.problem.conditions:
        return "no goal: the hand is kept; conditions in the Odds pane give the optimal return", ()
    best = optimal_return_cards(bound, dealer, hand)
    if best is None:
        return f"the optimal return is out of reach here; {aim}: {keep:.0%} kept", ()
    if not best:
        return f"optimal: keep; {aim}: {keep:.0%} kept", ()
    kept = dealer.counts([c for i, c in enumerate(hand) if i not in best])
    after = return_chance(bound, kept, rule)
    names = ", ".join(hand[i].name for i in best)
    return (
        f"optimal: return {rule.count} ({names}); {aim}: {keep:.0%} kept, "
        f"{float(after):.1%} after it",
        best,
    )


def _compositions(n: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` cards from groups of ``sizes`` (counts per group)."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for k in range(min(n, sizes[0]) + 1):
        for rest in _compositions(n - k, sizes[1:]):
            yield (k, *rest)


def by_type(cards: Iterable[Card]) -> list[tuple[str, list[tuple[int, Card]]]]:
    """Cards (with their places in ``cards``) by type, the type with most cards first, as
    ``hand`` groups a hand."""
    groups: dict[str, list[tuple[int, Card]]] = {}
    for i, card in enumerate(cards):
        groups.setdefault(card.type_label, []).append((i, card))
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def shown_name(card: Card, catalog: Catalog, spec: GameSpec) -> str:
    """The card's name, with its id where another card of the catalog shares the name, and
    the card's value of each field of a closed text list (Ren Dhark's colour):
    ``Černá garda (I/7, blue)``."""
    if sum(1 for c in catalog.by_name(card.name) if c.name == card.name) < 2:
        return card.name
    closed = [k for k, f in spec.fields.items() if f.kind == "text" and f.values]
    values = [str(card.get(k)) for k in closed if isinstance(card.get(k), str)]
    return f"{card.name} ({', '.join([card.id, *values])})"


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


def search_example(catalog: Catalog, spec: GameSpec) -> str:
    """A field search the game's cards answer (``affiliation:Federation``), for a search
    box's placeholder: the first field ``stats`` counts by (other than the type), with its
    most common value; else the most common type."""
    fields = [d.field for d in spec.dimensions if d.field not in ("type", "zone", "name")]
    for field in [*fields, "type"]:
        values: Counter[str] = Counter()
        for card in catalog:
            value = card.type_label if field == "type" else card.get(field)
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str) and item and " " not in item:
                    values[item] += 1
        if values:
            return f"{field}:{values.most_common(1)[0][0]}"
    return "type:…"


def new_deck_text(path: str | Path, game: str, variant: str | None) -> str:
    """A new deck file's text, as ``new`` would write it (written on the first save)."""
    return new_deck(game, path, variant=variant, write=False).text
