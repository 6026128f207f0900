"""The mulligan guide's rule of thumb and its walk over the hands: the rule read from each
class's extreme counts is the first rule the plain search over every rule finds, its work is
charged before it runs, and the guide's choices are the engine's."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from deckcheck.draws.answer import Intractable, OutOfReach, Reach, Stage
from deckcheck.draws.exact import guide
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.guide import Choice, HandRow, HandTable, RuleKind, return_guide
from deckcheck.draws.exact.sequential import STATE_BUDGET, SequentialEngine
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, Request, ReturnRule

LABELS = (("ship",), ("action", "unit"), (), ("person",), ("blue",))


def _text(c: int, op: str, k: int, labels: Sequence[Sequence[str]]) -> str:
    name = guide.class_name(labels[c])
    if op == "<":
        return f"fewer than {k} {name}" if k > 1 else f"no {name}"
    return f"more than {k} {name}"


def _searched(
    hands: Sequence[tuple[int, ...]], acts: Sequence[bool], labels: Sequence[Sequence[str]]
) -> str | None:
    """The first rule that fits, found by trying every rule on every hand in turn: one
    threshold (each class, each count, ``<`` before ``>``), either of two thresholds, one
    threshold with an exception (each class, count, other class, its count, "at least"
    first)."""
    n = len(labels)

    def fits(rule: object) -> bool:
        return all(rule(h) == a for h, a in zip(hands, acts, strict=True))  # type: ignore[operator]

    for c in range(n):
        values = sorted({h[c] for h in hands})
        for k in range(values[0], values[-1] + 2):
            if fits(lambda h, c=c, k=k: h[c] < k):
                return _text(c, "<", k, labels)
            if fits(lambda h, c=c, k=k: h[c] > k - 1):
                return _text(c, ">", k - 1, labels)
    top = [max(h[c] for h in hands) for c in range(n)]
    for c, d in itertools.combinations(range(n), 2):
        for k in range(1, top[c] + 2):
            for m in range(1, top[d] + 2):
                if fits(lambda h, c=c, d=d, k=k, m=m: h[c] < k or h[d] < m):
                    return f"{_text(c, '<', k, labels)} or {_text(d, '<', m, labels)}"
    for c in range(n):
        for k in range(1, top[c] + 2):
            for d in range(n):
                if d == c:
                    continue
                for m in range(0, top[d] + 1):
                    if fits(lambda h, c=c, d=d, k=k, m=m: h[c] < k and not h[d] >= m):
                        bound = f"at least {m}"
                    elif fits(lambda h, c=c, d=d, k=k, m=m: h[c] < k and not h[d] <= m):
                        bound = f"at most {m}"
                    else:
                        continue
                    name = guide.class_name(labels[d])
                    return f"{_text(c, '<', k, labels)} unless the hand holds {bound} {name}"
    return None


def _free(units: int) -> None:
    pass


def _acts(rng: random.Random, hands: list[tuple[int, ...]], n: int) -> list[bool]:
    """Which hands act: a rule of one family (sometimes with a hand flipped), or noise."""
    c, d = rng.randrange(n), rng.randrange(n)
    k, m = rng.randrange(0, 4), rng.randrange(0, 4)
    shape = rng.randrange(7)
    rules = [
        lambda h: h[c] < k,
        lambda h: h[c] > k,
        lambda h: h[c] < k or h[d] < m,
        lambda h: h[c] < k and not h[d] >= m,
        lambda h: h[c] < k and not h[d] <= m,
        lambda h: (h[c] + h[d]) % 2 == 0,
        lambda h: rng.random() < 0.5,
    ]
    acts = [bool(rules[shape](h)) for h in hands]
    if rng.random() < 0.2:
        i = rng.randrange(len(acts))
        acts[i] = not acts[i]
    return acts


def test_the_rule_is_the_first_rule_the_search_over_every_rule_finds() -> None:
    rng = random.Random(42)
    checked = families = 0
    found: set[str] = set()
    while checked < 600:
        n = rng.randint(1, 5)
        sizes = [rng.randint(0, 4) for _ in range(n)]
        size = rng.randint(1, min(6, sum(sizes))) if sum(sizes) else 0
        hands = list(compositions(sizes, size))
        if rng.random() < 0.4 and len(hands) > 3:
            hands = rng.sample(hands, rng.randint(2, len(hands)))
        acts = _acts(rng, hands, n)
        if all(acts) or not any(acts):
            continue
        checked += 1
        labels = LABELS[:n]
        want = _searched(hands, acts, labels)
        assert guide._decision_rule(hands, acts, labels, _free) == want, (hands, acts)
        if want is not None:
            families += 1
            found.add("unless" if "unless" in want else " or " if " or " in want else "one")
    assert families > 200 and found == {"one", " or ", "unless"}


def _table(kind: RuleKind, rows: list[tuple[tuple[int, ...], bool]]) -> HandTable:
    choice = Choice.REDRAW if kind is RuleKind.REDRAW else Choice.RETURN
    back = None if kind is RuleKind.REDRAW else (1, 0, 0)
    return HandTable(
        kind,
        (("ship",), ("action",), ()),
        (9, 9, 9),
        9,
        tuple(
            HandRow(h, 1, Fraction(0), True, Fraction(1), choice if a else None, back)
            for h, a in rows
        ),
        Fraction(0),
        Fraction(0),
    )


class _Watched(tuple[int, ...]):
    """A hand whose counts, when read, are noted in ``READ``."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        READ.append("iter")
        return super().__iter__()

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        READ.append(i)
        return super().__getitem__(i)


READ: list[object] = []


def _search_charges(hands: Sequence[tuple[int, ...]], acts: Sequence[bool]) -> list[int]:
    """What the search is meant to charge, in units, read off the hands themselves: the columns
    (eight reads of each class's count in every hand); the either-or family (for each class
    every idle hand holds, each count up to the fewest it holds: one read of each acting hand,
    and one more for each later such class); the exceptions (for each class and each count
    from one past the most an acting hand holds up to the most an idle one holds: a read of
    each idle hand, and three for each class that could exempt)."""
    n = len(hands[0])
    acting = [h for h, a in zip(hands, acts, strict=True) if a]
    idle = [h for h, a in zip(hands, acts, strict=True) if not a]
    held = [c for c in range(n) if all(h[c] >= 1 for h in idle)]
    either = 0
    for c in held:
        fewest = min(h[c] for h in idle)
        either += fewest * len(acting) * (1 + len([d for d in held if d > c]))
    exempting = [
        d
        for d in range(n)
        if max(h[d] for h in acting) < max(h[d] for h in hands) or all(h[d] for h in acting)
    ]
    # Counts k from one past the most an acting hand holds to the most an idle hand holds.
    steps = sum(
        len(range(max(1, max(h[c] for h in acting) + 1), max(h[c] for h in idle) + 1))
        for c in range(n)
    )
    exceptions = steps * len(idle) * (1 + 3 * len(exempting))
    cells = [8 * len(hands) * n, either, exceptions]
    return [-(-c // guide.RULE_CELLS_PER_UNIT) for c in cells]


def test_each_step_of_the_search_is_charged_before_it_runs() -> None:
    hands = list(compositions((6, 6, 6), 5))
    # No rule fits a parity: every family is searched, each charged first.
    table = _table(RuleKind.REDRAW, [(h, (h[0] + h[1]) % 2 == 0) for h in hands])
    charged: list[int] = []
    assert guide.rule_of_thumb(table, charged.append) is None
    assert len(charged) == 3  # the columns, the either-or, the exceptions
    cells = 8 * len(hands) * 3
    assert charged[0] == -(-cells // guide.RULE_CELLS_PER_UNIT)
    assert charged == _search_charges(hands, [r.choice is not None for r in table.rows])

    def refuse(units: int) -> None:
        raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_MULLIGAN, units, 0))

    # Refused at the first charge: before any count is read.
    watched = [(_Watched(h), (h[0] + h[1]) % 2 == 0) for h in hands]
    READ.clear()
    with pytest.raises(Intractable):
        guide.rule_of_thumb(_table(RuleKind.REDRAW, watched), refuse)
    assert READ == []
    # The hands are read once allowed (the watch sees the search).
    assert guide.rule_of_thumb(_table(RuleKind.REDRAW, watched), _free) is None
    assert READ
    # A table whose decision needs no search charges nothing.
    every = _table(RuleKind.REDRAW, [(h, True) for h in hands])
    assert guide.rule_of_thumb(every, refuse) == "redraw every hand"


def test_the_search_is_charged_each_familys_whole_work() -> None:
    # Hands holding some of every class: the either-or and the exceptions have work to do.
    # A parity fits no rule, so each family runs to its end.
    hands = [h for h in compositions((9, 9, 9, 9), 12) if min(h) >= 1]
    acts = [(h[0] + 2 * h[1] + h[3]) % 3 == 0 for h in hands]
    assert guide._decision_rule(hands, acts, LABELS[:4], _free) is None
    charged: list[int] = []
    assert guide._decision_rule(hands, acts, LABELS[:4], charged.append) is None
    want = _search_charges(hands, acts)
    assert min(want) > 1  # each amount is large enough to tell too little from enough
    assert charged == want
    # Charging too little is never right: what each family reads is at most twice what it
    # is charged (a unit counted at twice the cells it stands for).
    acting = sum(acts)
    idle = len(hands) - acting
    either_reads = sum(
        2 * acting * min(h[c] for h, a in zip(hands, acts, strict=True) if not a)
        for c, _d in itertools.combinations(range(4), 2)
    )
    assert either_reads <= 2 * charged[1] * guide.RULE_CELLS_PER_UNIT
    assert 8 * len(hands) * 4 <= charged[0] * guide.RULE_CELLS_PER_UNIT
    assert idle * 4 <= charged[2] * guide.RULE_CELLS_PER_UNIT


def test_the_return_order_is_charged_before_it_is_found() -> None:
    hands = list(compositions((6, 6, 6), 5))
    every = _table(RuleKind.RETURN, [(h, True) for h in hands])
    charged: list[int] = []
    assert guide.rule_of_thumb(every, charged.append) == "return 1 cards every hand; which: ship"
    # One Python step per returning hand and class.
    assert charged == [-(-guide.ORDER_CELLS * len(hands) * 3 // guide.RULE_CELLS_PER_UNIT)]

    def refuse(units: int) -> None:
        raise Intractable(OutOfReach(Reach.WORK, Stage.OPTIMAL_MULLIGAN, units, 0))

    with pytest.raises(Intractable):
        guide.rule_of_thumb(every, refuse)


PC = DrawProblem(
    (3, 2, 4, 3),
    ((True, False), (False, True), (False, False), (True, True)),
    (CountTest(0, ">=", 2), CountTest(1, "<=", 1)),
    ("miner", "trap"),
)


@pytest.mark.parametrize(
    ("hand", "count", "seen", "lookahead", "second"),
    [
        (3, 2, 3, False, False),
        (4, 3, 4, False, False),
        (4, 2, 6, False, False),
        (3, 2, 5, True, False),
        (4, 3, 7, True, True),
        (4, 1, 6, True, False),
        (3, 3, 5, True, False),
    ],
)
def test_the_guides_choices_are_the_engines(
    hand: int, count: int, seen: int, lookahead: bool, second: bool
) -> None:
    procedure = Procedure(hand, hand + 1, 1, ReturnRule(count), lookahead=lookahead)
    query = Query(seen + (1 if second else 0), second)
    request = Request(PC, procedure, query)
    table = return_guide(request)
    engine = SequentialEngine(PC, procedure, query, (), STATE_BUDGET, request.lookahead)
    choice, value = engine.return_table(count)
    assert table.value == value == table.followed()
    decided = 0
    for row in table.rows:
        picked = choice[row.hand]
        assert (row.choice is Choice.RETURN) == (picked is not None)
        if picked is not None:
            decided += 1
            assert row.returned == tuple(h - k for h, k in zip(row.hand, picked, strict=True))
    assert 0 < decided < len(table.rows) or count == hand


def _seen_chance(problem: DrawProblem, seen: int) -> Fraction:
    """The chance the question holds on the first ``seen`` cards, by every composition."""
    ways = 0
    for comp in compositions(problem.group_sizes, seen):
        counts = problem.selector_counts(comp)
        if all(t.holds(counts[t.selector]) for t in problem.conditions):
            ways += math.prod(map(math.comb, problem.group_sizes, comp))
    return Fraction(ways, math.comb(problem.pile_size, seen))


@pytest.mark.parametrize(
    ("hand", "count", "seen", "lookahead", "second"),
    [
        (3, 2, 3, False, False),
        (4, 2, 6, False, False),
        (3, 1, 5, False, True),
        (3, 2, 5, True, False),
        (4, 3, 7, True, True),
    ],
)
def test_a_return_guides_figures_are_the_chances_with_and_without_the_mulligan(
    hand: int, count: int, seen: int, lookahead: bool, second: bool
) -> None:
    procedure = Procedure(hand, hand + 1, 1, ReturnRule(count), lookahead=lookahead)
    query = Query(seen + (1 if second else 0), second)
    table = return_guide(Request(PC, procedure, query))
    # Without the mulligan: every hand kept, from an engine that never built the return table
    # (and, without the look-ahead, by every composition of the cards seen).
    fresh = SequentialEngine(PC, procedure, query, (), STATE_BUDGET, "optimal")
    assert table.plain == fresh.without_mulligan()
    if not lookahead:
        assert table.plain == _seen_chance(PC, query.seen)
    assert table.plain == sum((table.frequency(r) * r.keep for r in table.rows), Fraction(0))
    # Each hand's chance if kept is the engine's for that hand.
    scale = fresh.hand_scale()
    for row in table.rows:
        assert row.keep == Fraction(fresh.hand_value(row.hand), scale)
    assert table.value >= table.plain


def _first_greedy_order(rows: Sequence[HandRow], n: int) -> list[int] | None:
    """The first permutation of the classes in which every row returns greedily."""

    def greedy(hand: tuple[int, ...], order: Sequence[int], count: int) -> tuple[int, ...]:
        out = [0] * len(hand)
        for c in order:
            out[c] = min(hand[c], count)
            count -= out[c]
        return tuple(out)

    if n > 6:
        return None
    for order in itertools.permutations(range(n)):
        if all(greedy(r.hand, order, sum(r.returned or ())) == r.returned for r in rows):
            used = {c for r in rows for c, k in enumerate(r.returned or ()) if k}
            return [c for c in order if c in used]
    return None


def test_the_return_order_is_the_first_greedy_permutation() -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(400):
        n = rng.randint(1, 6)
        size = rng.randint(2, min(5, 3 * n))
        hands = list(compositions([3] * n, size))
        count = rng.randint(1, min(3, size))
        secret = rng.sample(range(n), n)
        rows = []
        for hand in rng.sample(hands, min(len(hands), rng.randint(1, 8))):
            back = [0] * n
            left = count
            for c in secret:  # greedy in a hidden order, now and then not
                back[c] = min(hand[c], left)
                left -= back[c]
            if rng.random() < 0.15:
                back = list(hand)
                for _ in range(sum(hand) - count):
                    back[rng.choice([c for c in range(n) if back[c]])] -= 1
            rows.append(
                HandRow(hand, 1, Fraction(0), True, Fraction(1), Choice.RETURN, tuple(back))
            )
        want = _first_greedy_order(rows, n)
        assert guide._return_order(rows, n) == want, rows
        found += want is not None
    assert 100 < found < 400


def test_a_guide_whose_rule_is_over_the_limit_is_refused_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conftest import EXAMPLES

    from deckcheck.analysis.mulligan import mulligan_guide
    from deckcheck.analysis.odds import OddsOptions
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.core.errors import UsageError
    from deckcheck.decks.load import open_deck
    from deckcheck.draws import facade

    setup = draw_setup(open_deck(str(EXAMPLES / "ren-dhark" / "terra-custom.txt")))
    options = OddsOptions(turn=2)
    asked = ["type:ship>=2", "type:person>=1"]
    assert mulligan_guide(setup, asked, options).rule_of_thumb is not None
    # The optimal redraw's own solve has its limit (as in odds); its rule is held to odds'.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 1)
    with pytest.raises(
        UsageError, match=r"out of reach \(optimal redraw: stopped after \d+ steps counted, past"
    ):
        mulligan_guide(setup, asked, options)


def test_a_return_guides_rule_is_charged_to_the_engine_that_built_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conftest import EXAMPLES

    from deckcheck.analysis.mulligan import mulligan_guide
    from deckcheck.analysis.odds import OddsOptions
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    charged: list[int] = []
    charge = SequentialEngine.charge_table

    def spy(self: SequentialEngine, units: int) -> None:
        charged.append(units)
        charge(self, units)

    monkeypatch.setattr(SequentialEngine, "charge_table", spy)
    deck = EXAMPLES / "planetary-conquerors"
    setup = draw_setup(
        open_deck(str(deck / "legal-50.txt")),
    )
    got = mulligan_guide(setup, ["type:miner>=1", "type:warrior>=1"], OddsOptions(turn=2))
    assert got.rule_of_thumb is not None and " or " in got.rule_of_thumb
    rows = len(got.rows)
    # The columns of its search (8 reads of each class in each hand), then the either-or.
    assert -(-8 * rows * len(got.classes) // guide.RULE_CELLS_PER_UNIT) in charged


def test_a_return_guide_over_the_limit_is_refused_before_its_table_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from conftest import EXAMPLES

    from deckcheck.analysis import mulligan
    from deckcheck.analysis.odds import OddsOptions
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.core.errors import UsageError
    from deckcheck.decks.load import open_deck

    def built(self: SequentialEngine, count: int) -> None:
        raise AssertionError("the table was built")

    setup = draw_setup(open_deck(str(EXAMPLES / "planetary-conquerors" / "legal-50.txt")))
    # A rule search dearer than the whole limit: refused with the walk, before the table.
    monkeypatch.setattr(mulligan, "rule_columns", lambda hands, classes: 10**9)
    monkeypatch.setattr(SequentialEngine, "return_table", built)
    with pytest.raises(UsageError, match=r"out of reach \(optimal mulligan: about"):
        mulligan.mulligan_guide(setup, ["type:miner>=1"], OddsOptions(turn=2))


def test_prepaid_units_are_spent_first() -> None:
    charged: list[int] = []
    pay = guide.prepaid(charged.append, 5)
    pay(3)
    pay(4)
    pay(6)
    assert charged == [2, 6]
