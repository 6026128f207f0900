"""A level engine makes, and charges per state, only the moves that have a child
(``deckcheck/draws/exact/levels.py``, ``LevelEngine.run``).

A group's count digit has no card of it (no move); the losing cards have a child only when
the turn looks (put under); a card its class loses on when kept has one only then too; and
the cards no test reads are put under only when the turn looks. Those moves are not made and
each state is charged for the moves made only (every digit's steps still per level). Random
problems where every kind of move is left out somewhere (types with a least and a most, names
bounded from above, one or two draws a turn, going first and second, with the return) keep
the recursion's Fractions; the charges leave out exactly the moves not made.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_lookahead_levels import levels_at_once  # noqa: F401 (the fixture)
from test_lookahead_typed import fits, matches_the_recursion, typed_problem

from deckcheck.draws.exact import levels as levels_module
from deckcheck.draws.exact.named import typed_kinds
from deckcheck.draws.exact.reduced import reduce_problem
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import DrawProblem, Procedure, Query


def problems(rng: random.Random, count: int) -> list[tuple[DrawProblem, int, int, int, bool]]:
    """``count`` typed problems the typed engine takes, with (hand, draws a turn, cards seen,
    second); half of them with four named classes, the others small."""
    out: list[tuple[DrawProblem, int, int, int, bool]] = []
    while len(out) < count:
        big = len(out) % 2 == 0
        problem = typed_problem(rng, 4 if big else rng.randint(1, 3), rng.randint(1, 2), 3, 3)
        hand = 3
        per_turn = rng.choice((1, 2))
        second = rng.random() < 0.5
        opening = hand + 1 if second else hand
        seen = min(opening + rng.randint(2, 4), problem.pile_size - 4)
        if not fits(problem, opening, seen, per_turn):
            continue
        if typed_kinds(reduce_problem(problem)) is None:
            continue
        out.append((problem, hand, per_turn, seen, second))
    return out


@pytest.mark.usefixtures("levels_at_once")
def test_moves_left_out_keep_the_recursions_fractions() -> None:
    rng = random.Random(4242)
    for problem, hand, per_turn, seen, second in problems(rng, 14):
        fast = matches_the_recursion(problem, hand, per_turn, seen, second)
        assert fast._levels is not None and fast._levels.typed


@pytest.mark.usefixtures("levels_at_once")
def test_each_state_is_charged_the_moves_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per level, the charge past its steps is its open states times the moves with a child
    (with the turn's look or without): never a group's count."""
    real = levels_module.LevelEngine.run
    checked: list[bool] = []  # per level charged, whether a move was left out

    def run(engine: Any) -> None:
        told = engine.charge
        real_apart = engine._held_apart
        pending: list[int] = []
        made = {False: 1, True: 2}  # the cards no test reads; the losing ones when it looks
        for d, (_, k, _, _) in enumerate(engine.infos):
            if k:
                made[True] += 1
                made[False] += engine.keep_delta[d] is not None
        steps = engine.move_units * (len(engine.radices) + 2)

        def charge(more: int) -> None:
            told(more)
            pending.append(more - steps - (engine.run_units if not checked else 0))

        def apart(keys: Any) -> Any:
            units = pending.pop()
            per_state, rest = divmod(units, len(keys))
            assert rest == 0 and per_state in made.values()
            checked.append(per_state < len(engine.radices) + 2)
            return real_apart(keys)

        engine.charge = charge
        engine._held_apart = apart
        real(engine)

    monkeypatch.setattr(levels_module.LevelEngine, "run", run)
    rng = random.Random(77)
    runs: list[bool] = []  # per problem a level engine ran for, whether it left a move out
    for problem, hand, per_turn, seen, second in problems(rng, 10):
        procedure = Procedure(
            hand, hand_size_second=hand + 1, draws_per_turn=per_turn, lookahead=True
        )
        engine = SequentialEngine(problem, procedure, Query(seen, second=second), (), 10**8)
        checked.clear()
        engine.without_mulligan()
        if checked:
            runs.append(any(checked))
    assert len(runs) >= 5 and all(runs)
