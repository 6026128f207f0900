"""The optimal look-ahead decided in bulk (``KeepTopChoice.many``, the level engine's
``keep_top_many``) gives exactly the per-state decision (``keep_top``) on every state, and the
simulator playing it deals the very same trials."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from test_lookahead_levels import named_problem

import deckcheck.draws.exact.levels as levels_module
import deckcheck.draws.exact.sequential as sequential
import deckcheck.draws.simulate.vectorised as vectorised
from deckcheck.core.numeric import np
from deckcheck.draws.exact.odds import KeepTopChoice, optimal_choices
from deckcheck.draws.model import DrawProblem, Procedure, Query, Request, ReturnRule
from deckcheck.draws.simulate.vectorised import simulate_vectorised


@pytest.fixture
def levels_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)


def with_two_others(problem: DrawProblem) -> DrawProblem:
    """The cards no test reads split into two groups (one class of the engine: the bulk
    decision maps groups to classes)."""
    *named, other = problem.group_sizes
    sizes = (*named, other // 2, other - other // 2)
    rows = (*problem.membership, problem.membership[-1])
    return DrawProblem(sizes, rows, problem.conditions)


def states(
    rng: random.Random, problem: DrawProblem, procedure: Procedure, query: Query, deals: int
) -> list[tuple[list[int], list[int], int]]:
    """(held, gone, top) per look of random deals played at random (keep or put under)."""
    groups = len(problem.group_sizes)
    cards = [g for g, size in enumerate(problem.group_sizes) for _ in range(size)]
    opening = procedure.opening_size(query.second)
    out = []
    for _ in range(deals):
        pile = cards[:]
        rng.shuffle(pile)
        held = [0] * groups
        gone = [0] * groups
        for g in pile[:opening]:
            held[g] += 1
            gone[g] += 1
        pile = pile[opening:]
        for j in range(query.seen - opening):
            if not pile:
                break
            card = pile.pop(0)
            gone[card] += 1
            if j % procedure.draws_per_turn == 0:
                out.append(([*held], [*gone], card))
                if rng.random() < 0.5 and pile:
                    card = pile.pop(0)
                    gone[card] += 1
            held[card] += 1
    return out


def bulk_and_one_by_one(
    keep: KeepTopChoice, found: Sequence[tuple[list[int], list[int], int]]
) -> tuple[list[bool], list[bool]]:
    held = np.array([h for h, _, _ in found], dtype=np.int64).T
    gone = np.array([g for _, g, _ in found], dtype=np.int64).T
    top = np.array([t for _, _, t in found], dtype=np.int64)
    bulk = keep.many(held, gone, top)
    assert bulk is not None
    return bulk.tolist(), [keep(h, g, t) for h, g, t in found]


@pytest.mark.parametrize("seed", range(8))
def test_the_bulk_decision_is_the_per_state_one(seed: int, levels_at_once: None) -> None:
    """Mixed operators, going first or second, one or two draws a turn, with or without the
    return: every reachable state met decided alike, both ways of deciding seen."""
    rng = random.Random(4200 + seed)
    problem = with_two_others(named_problem(rng, rng.randint(3, 5), 3, rng.randint(8, 12)))
    mulligan = ReturnRule(2) if seed % 2 else None
    procedure = Procedure(
        4, hand_size_second=5, draws_per_turn=1 + seed % 3 // 2, mulligan=mulligan, lookahead=True
    )
    query = Query(min(9, problem.pile_size - 5), second=seed % 4 >= 2)
    keep, _ = optimal_choices(Request(problem, procedure, query))
    assert isinstance(keep, KeepTopChoice)
    found = states(rng, problem, procedure, query, 150)
    bulk, one = bulk_and_one_by_one(keep, found)
    assert bulk == one
    assert any(one) and not all(one)


def test_pairs_too_close_for_the_floats_are_decided_exactly(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """Every look's branches taken as too close to tell by floats (once the values are
    known): equal residues keep, unequal ones go to the per-state decision, alike."""
    rng = random.Random(17)
    problem = with_two_others(named_problem(rng, 5, 3, 10))
    procedure = Procedure(4, draws_per_turn=1, lookahead=True)
    query = Query(9)
    keep, _ = optimal_choices(Request(problem, procedure, query))
    assert isinstance(keep, KeepTopChoice)
    found = states(rng, problem, procedure, query, 150)
    before = bulk_and_one_by_one(keep, found)
    monkeypatch.setattr(levels_module, "_CLOSE", 2.0)
    bulk, one = bulk_and_one_by_one(keep, found)
    assert bulk == one == before[1]


@pytest.mark.parametrize("second", [False, True])
def test_the_simulator_deals_the_same_trials(second: bool, levels_at_once: None) -> None:
    """The simulator given the bulk decision and given the per-state one only: the same
    answer, trial for trial (the same seed)."""
    rng = random.Random(99)
    problem = with_two_others(named_problem(rng, 4, 3, 10))
    procedure = Procedure(4, hand_size_second=5, mulligan=ReturnRule(2), lookahead=True)
    query = Query(9, second=second)
    keep, returns = optimal_choices(Request(problem, procedure, query))

    def one_by_one(held: Sequence[int], gone: Sequence[int], top: int) -> bool:
        return keep(held, gone, top)

    runs = [
        simulate_vectorised(problem, procedure, query, 5_000, 5, returns, keep_top=chooser)
        for chooser in (keep, one_by_one)
    ]
    assert runs[0] == runs[1]


def test_every_way_of_looking_columns_up_deals_the_same_trials(
    monkeypatch: pytest.MonkeyPatch, levels_at_once: None
) -> None:
    """The dense table, the sorted keys met so far and a fresh np.unique per batch: the
    same decisions, so the same answer."""
    rng = random.Random(99)
    problem = with_two_others(named_problem(rng, 4, 3, 10))
    procedure = Procedure(4, draws_per_turn=1, lookahead=True)
    query = Query(9)
    keep, _ = optimal_choices(Request(problem, procedure, query))
    runs = []
    for dense, sorted_keys in ((1 << 23, 1 << 23), (0, 1 << 23), (0, 0)):
        monkeypatch.setattr(vectorised, "DENSE_KEYS", dense)
        monkeypatch.setattr(vectorised, "SORTED_KEYS", sorted_keys)
        runs.append(simulate_vectorised(problem, procedure, query, 3_000, 8, keep_top=keep))
    assert runs[0] == runs[1] == runs[2]
