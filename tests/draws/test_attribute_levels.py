"""The optimal look-ahead over overlapping selectors a level at a time
(``draws/exact/attributes.py``): every hand's value is the recursion's, the answers the
labelled-card expectimax's, on random small problems (overlapping selectors, ``>=``/``<=``/``=``
mixed, either-ors, first and second seat, return counts, one to three turns) and on
Planetary Conquerors' own deck; and its work is charged before it is done.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from conftest import PC_ATTRIBUTE_CONDITIONS, REPO
from test_lookahead_optimal import Expectimax
from test_return_hands import attribute_problem, interesting

from deckcheck.draws.answer import Intractable, Reach
from deckcheck.draws.exact import attributes as attributes_module
from deckcheck.draws.exact.attributes import AttributeLevels
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.odds import exact_odds
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import DrawProblem, Procedure, Query, Request, ReturnRule


def engines(
    problem: DrawProblem, procedure: Procedure, query: Query
) -> tuple[SequentialEngine, SequentialEngine]:
    """The engine that values the hands by levels, and one that recurses (to compare)."""
    fast = SequentialEngine(problem, procedure, query, (), 10**12)
    slow = SequentialEngine(problem, procedure, query, (), 10**12)
    slow.use_attributes = False
    return fast, slow


def every_hand_value(engine: SequentialEngine) -> list[int]:
    """The level engine's value of every hand, in the order of ``compositions``."""
    levels = engine._attribute_levels()
    assert levels is not None
    hands = np.asarray(list(compositions(engine.red.sizes, engine.hand)), dtype=np.int64)
    return levels.run(hands)


@pytest.mark.parametrize("seed", range(8))
def test_every_hand_is_worth_what_the_recursion_finds(seed: int) -> None:
    """Random problems: twelve groups over five selectors (each card counted by up to three),
    8 or 12 tests mixing ``>=``, ``<=`` and ``=``, either-ors on odd seeds, one or two draws
    a turn, one to three turns, first or second seat: every hand's value is the recursion's
    to the integer."""
    rng = random.Random(4200 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 12, any_of=seed % 2 == 1)
    per_turn = 1 + seed % 2
    turns = 1 + seed % 3
    procedure = Procedure(
        4, hand_size_second=5, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True
    )
    second = seed % 4 >= 2
    query = Query(procedure.opening_size(second) + turns * per_turn, second=second)
    fast, slow = engines(problem, procedure, query)
    got = every_hand_value(fast)
    hands = list(compositions(slow.red.sizes, slow.hand))
    assert got == [slow.hand_value(hand) for hand in hands]
    # And read back from the run, hand by hand.
    for hand in hands[:: max(1, len(hands) // 40)]:
        assert fast.hand_value(hand) == slow.hand_value(hand)


@pytest.mark.parametrize(("seed", "count"), [(0, 1), (1, 2), (2, 3), (4, 2), (5, 1)])
def test_answers_match_the_labelled_expectimax(seed: int, count: int) -> None:
    """Small decks, a hand of three, two or three turns after it with the look-ahead (as
    many as the pile allows without a card put under coming round again): the answer with
    and without the return mulligan is the labelled-card expectimax's, and the level engine
    gave the hands their values."""
    rng = random.Random(9100 + seed)
    problem = interesting(rng, 8 if seed % 2 else 12, 4, any_of=seed == 2, most=10)
    per_turn = 1 + seed % 2
    procedure = Procedure(3, draws_per_turn=per_turn, mulligan=ReturnRule(count), lookahead=True)
    turns = 2 + seed % 2
    while 3 + turns * per_turn + turns > problem.pile_size:
        turns -= 1
    assert turns >= 1
    query = Query(3 + turns * per_turn)
    oracle = Expectimax(problem, procedure, query)
    fast, slow = engines(problem, procedure, query)
    fast.estimate(count)
    assert fast.without_mulligan() == oracle.plain() == slow.without_mulligan()
    _, p = fast.return_table(count)
    assert p == oracle.returning(count) == slow.return_table(count)[1]
    levels = fast._attribute_levels()
    assert levels is not None and levels.ran
    assert exact_odds(Request(problem, procedure, query)).fraction == p


def test_an_unlikely_query_on_either_or_alternatives() -> None:
    """Two or three alternatives, each an AND of tests, none alike: the same values."""
    rng = random.Random(77)
    problem = attribute_problem(rng, 12, 10, any_of=True)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)
    fast, slow = engines(problem, procedure, Query(8))
    if fast._attribute_levels() is None:
        pytest.skip("settled by the counts alone")
    hands = list(compositions(slow.red.sizes, slow.hand))
    assert every_hand_value(fast) == [slow.hand_value(hand) for hand in hands]


def test_no_look_after_the_hand_is_not_its_query() -> None:
    """A hand that is all the query sees, or no look-ahead: the engine does not take it."""
    rng = random.Random(3)
    problem = interesting(rng, 8, 6, any_of=False)
    with_look = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    assert SequentialEngine(problem, with_look, Query(4), (), 10**9)._attribute_levels() is None
    without = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2))
    assert SequentialEngine(problem, without, Query(8), (), 10**9)._attribute_levels() is None


@pytest.fixture(scope="module")
def pc_turn_three() -> tuple[DrawProblem, Procedure, int]:
    """Planetary Conquerors' ``legal-80`` at turn 3 going first, the twelve attribute
    conditions: (problem, procedure, cards seen)."""
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    from bench_call_charge import bound_problem

    got: Any = bound_problem(
        str(REPO / "examples/planetary-conquerors/legal-80.txt"), PC_ATTRIBUTE_CONDITIONS, 3, False
    )
    return got


def test_the_real_deck_at_turn_three(pc_turn_three: tuple[DrawProblem, Procedure, int]) -> None:
    """Twenty-three classes, none alike, two looks after the hand: the open hands' values
    (a sample of them) are the recursion's, and the answer is exact."""
    problem, procedure, seen = pc_turn_three
    fast, slow = engines(problem, procedure, Query(seen))
    levels = fast._attribute_levels()
    assert levels is not None and levels.words >= 1
    rng = random.Random(0)
    hands = rng.sample(list(compositions(fast.red.sizes, fast.hand)), 600)
    got = levels.run(np.asarray(hands, dtype=np.int64))
    picked = rng.sample(range(len(hands)), 8)
    assert [got[i] for i in picked] == [slow.hand_value(hands[i]) for i in picked]
    assert any(v for v in got) and any(not v for v in got)


def charges(engine: SequentialEngine) -> list[str]:
    """What the level engine is charged and does, in order: 'charge' (units above 0), a
    step as it starts ('merge', 'moves') and the work in it ('sort': children merged,
    'child': children made)."""
    levels = engine._attribute_levels()
    assert levels is not None
    log: list[str] = []
    told = levels.charge

    def charge(units: int) -> None:
        assert units > 0
        log.append("charge")
        told(units)

    levels.charge = charge
    for name, step in (
        ("merge", "_merge"),
        ("moves", "_moves"),
        ("sort", "_distinct"),
        ("child", "_add"),
    ):
        real = getattr(levels, step)

        def logged(*args: Any, _real: Any = real, _name: str = name) -> Any:
            log.append(_name)
            return _real(*args)

        setattr(levels, step, logged)
    return log


def test_each_step_is_charged_before_it_is_done() -> None:
    """Each merge of a level's children is charged before they are sorted, and each level's
    moves before a child is made; every unit is counted as the recursion's calls are."""
    rng = random.Random(4203)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    log = charges(engine)
    before = engine.work
    engine.estimate(2)
    engine.return_table(2)
    starts = [i for i, what in enumerate(log) if what in ("merge", "moves")]
    assert len(starts) > 4
    for i, j in zip(starts, [*starts[1:], len(log)], strict=True):
        work = "sort" if log[i] == "merge" else "child"
        inside = log[i + 1 : j]
        if work in inside:
            assert "charge" in inside[: inside.index(work)]
    assert log.count("charge") >= len(starts)
    assert engine.work > before


def test_a_run_past_the_limit_is_refused_before_the_step() -> None:
    """The limit a little below what the run is charged: it stops at the charge that passes
    it, the step it was for never started, and the refusal names the work limit."""
    rng = random.Random(4203)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    whole = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    whole.estimate(2)
    start = whole.work
    whole.return_table(2)
    spent = whole.work - start
    short = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    log = charges(short)
    short.estimate(2)
    short.budget = short.work + spent - 5
    with pytest.raises(Intractable) as refused:
        short.return_table(2)
    assert refused.value.reason.reach is Reach.WORK
    assert "charge" in log
    assert log[-1] == "charge"  # the work it was for never started


def test_past_the_limit_the_query_is_simulated_saying_so() -> None:
    """Through ``exact_odds`` with a small limit: refused (the work limit), not answered
    slowly."""
    rng = random.Random(4205)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    engine = SequentialEngine(problem, procedure, Query(10), (), 10**12)
    engine.estimate(2)
    engine.budget = engine.work + 3
    with pytest.raises(Intractable) as refused:
        engine.return_table(2)
    assert refused.value.reason.reach is Reach.WORK


def test_a_collision_of_sort_keys_is_never_decided_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys of several words are sorted by one mixed word; should two different states share
    it, the engine refuses (the recursion then answers) rather than merge them."""
    rng = random.Random(4201)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    monkeypatch.setattr(attributes_module, "WORD_BITS", 24)  # keys of several words
    fast, slow = engines(problem, procedure, Query(8))
    levels = fast._attribute_levels()
    assert levels is not None and levels.words >= 2
    monkeypatch.setattr(
        AttributeLevels, "_sort_key", lambda self, words: np.zeros(len(words[0]), np.int64)
    )
    hands = np.asarray(list(compositions(fast.red.sizes, fast.hand)), dtype=np.int64)
    with pytest.raises(attributes_module.Collision):
        levels.run(hands)
    monkeypatch.undo()
    # Through the engine: the recursion answers the same values.
    fresh, _ = engines(problem, procedure, Query(8))
    fresh_levels = fresh._attribute_levels()
    assert fresh_levels is not None

    def collide(self: AttributeLevels, hands: Any) -> list[int]:
        raise attributes_module.Collision("forced")

    monkeypatch.setattr(AttributeLevels, "run", collide)
    fresh.estimate(2)
    assert fresh.return_table(2)[1] == slow.return_table(2)[1]


@pytest.mark.parametrize("seed", [1, 6])
def test_values_of_many_limbs_are_the_same(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Limbs of four bits (a value then takes several, their carries and comparisons limb by
    limb): every hand's value is the recursion's."""
    monkeypatch.setattr(attributes_module, "LIMB_BITS", 4)
    monkeypatch.setattr(attributes_module, "MOST_LIMBS", 40)
    rng = random.Random(4200 + seed)
    problem = interesting(rng, 12, 12, any_of=seed % 2 == 1)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    fast, slow = engines(problem, procedure, Query(10))
    levels = fast._attribute_levels()
    assert levels is not None and levels.limbs >= 4
    hands = list(compositions(slow.red.sizes, slow.hand))
    assert every_hand_value(fast) == [slow.hand_value(hand) for hand in hands]


def test_a_hand_is_read_back_by_its_state() -> None:
    """After a run over some hands, every hand in the state of one of them is read back with
    that state's value (found a hand at a time, as a guide asks), and a hand in no state the
    run met is not (the recursion answers it)."""
    rng = random.Random(4207)
    problem = interesting(rng, 12, 12, any_of=False)
    procedure = Procedure(4, draws_per_turn=2, mulligan=ReturnRule(2), lookahead=True)
    fast, slow = engines(problem, procedure, Query(8))
    levels = fast._attribute_levels()
    assert levels is not None
    hands = list(compositions(slow.red.sizes, slow.hand))
    half = hands[::2]
    levels.run(np.asarray(half, dtype=np.int64))
    found = missing = 0
    for hand in hands:
        got = levels.lookup(hand)
        if got is None:
            missing += 1
        else:
            found += 1
            assert got == slow.hand_value(hand)
    assert found >= len(half) and missing > 0
    assert all(levels.lookup(hand) is not None for hand in half)
    assert [fast.hand_value(hand) for hand in hands] == [slow.hand_value(hand) for hand in hands]
