"""The simulated optimal player over overlapping selectors reads its look-ahead decisions
from the values the level engine of ``draws/exact/attributes.py`` found: the recursion's
decisions (ties keep) on random small problems, one at a time and in bulk, with no call of
the recursion once the tables are built."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from test_return_hands import interesting
from typer.testing import CliRunner

from deckcheck.draws.exact.odds import optimal_choices
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Procedure, Query, Request, ReturnRule


def looks(
    engine: SequentialEngine, rng: random.Random, deals: int
) -> list[tuple[list[int], list[int], int]]:
    """(cards gone with the top card, cards held, top card's class) at every look of
    ``deals`` random deals, each look kept or put under at random."""
    deck = [c for c, size in enumerate(engine.red.sizes) for _ in range(size)]
    out = []
    for _ in range(deals):
        rng.shuffle(deck)
        held = [0] * len(engine.red.sizes)
        gone = held[:]
        for c in deck[: engine.hand]:
            held[c] += 1
            gone[c] += 1
        looked = False
        for c in deck[engine.hand :]:
            n_held = sum(held)
            if n_held >= engine.seen:
                break
            gone[c] += 1
            look = not looked and (n_held - engine.hand) % engine.per_turn == 0
            if look:
                out.append((gone[:], held[:], c))
                if rng.random() < 0.5:
                    looked = True
                    continue
            held[c] += 1
            looked = False
    return out


@pytest.mark.parametrize("seed", range(4))
def test_decisions_are_the_recursions_without_recursing(seed: int) -> None:
    """Random problems over overlapping selectors, a return mulligan, two or three turns:
    every look's decision (one at a time and in bulk) is the recursion's, and none calls
    the recursion once the tables are built."""
    rng = random.Random(7300 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 12, any_of=seed % 2 == 1)
    per_turn = 1 + seed % 2
    procedure = Procedure(
        4, hand_size_second=5, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True
    )
    query = Query(procedure.opening_size(False) + (2 + seed % 2) * per_turn)
    fast = SequentialEngine(problem, procedure, query, (), 10**12)
    optimal_choices(Request(problem, procedure, query), engine=fast)
    assert fast._attributes is not None and fast._attributes.ran
    slow = SequentialEngine(problem, procedure, query, (), 10**12)
    slow.use_attributes = False
    states = looks(fast, rng, 60)
    assert len(states) > 20
    calls = [0]
    value = fast.value

    def counted(*key: Any) -> int:
        calls[0] += 1
        return value(*key)

    fast.value = counted  # type: ignore[method-assign,assignment]
    got = [fast.keep_top(gone, held, top) for gone, held, top in states]
    removed = np.asarray([s[0] for s in states], dtype=np.int64).T
    held = np.asarray([s[1] for s in states], dtype=np.int64).T
    top = np.asarray([s[2] for s in states], dtype=np.int64)
    bulk = fast.keep_top_many(removed, held, top)
    assert calls == [0]  # no call of the recursion
    want = [slow.keep_top(gone, held, top) for gone, held, top in states]
    assert got == want
    assert bulk is not None and bulk.tolist() == want
    assert any(want) and (seed >= 2 or not all(want))  # seeds 0 and 1 put cards under


def test_the_simulated_player_makes_no_uncharged_recursion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``simulate`` on Planetary Conquerors' deck with overlapping selectors: the optimal
    player's look-ahead decisions call the recursion not once."""
    from conftest import PC_ATTRIBUTE_CONDITIONS, REPO

    from deckcheck.cli.app import app

    inside = [False]
    calls = [0]
    decided = [0]
    value = SequentialEngine.value

    def counted(self: SequentialEngine, *args: Any) -> int:
        calls[0] += inside[0]
        return value(self, *args)

    def deciding(method: Any) -> Any:
        def decide(self: SequentialEngine, *args: Any) -> Any:
            inside[0] = True
            decided[0] += 1
            try:
                return method(self, *args)
            finally:
                inside[0] = False

        return decide

    monkeypatch.setattr(SequentialEngine, "value", counted)
    for name in ("keep_top", "keep_top_many"):
        monkeypatch.setattr(SequentialEngine, name, deciding(getattr(SequentialEngine, name)))
    deck = str(REPO / "examples/planetary-conquerors/legal-50.txt")
    args = ["simulate", deck, *PC_ATTRIBUTE_CONDITIONS[:6], "--turn", "2", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--trials", "2000", "--json"])
    assert result.exit_code == 0, result.output
    assert decided[0] > 0 and calls[0] == 0
