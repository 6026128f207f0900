"""The numpy shortcuts of the hands' table and the level engine over overlapping selectors
(``draws/exact/returned.py``, ``draws/exact/attributes.py``): the hands' distinct counts
settled and their live classes found at once (``SequentialEngine._decided_many``), the open
hands told apart by one integer key, the kept parts' ranks in 32 bits sharing their
prefixes, and a level's moves summed by one count per limb. Each is checked against the
path it replaces and the recursion, on small random problems.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from test_attribute_levels import engines
from test_return_hands import interesting

from deckcheck.draws.exact import attributes as attributes_module
from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.returned import ReturnHands, _alike, _multisets
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import DrawProblem, Procedure, Query, ReturnRule


def problem_of(seed: int) -> tuple[DrawProblem, Procedure, Query]:
    """A random problem (8 or 12 tests over five selectors, either-ors on odd seeds), a hand
    of three returning two, one or two draws a turn, two turns."""
    rng = random.Random(6100 + seed)
    problem = interesting(rng, (8, 12)[seed % 2], 10, any_of=seed % 2 == 1)
    per_turn = 1 + seed % 2
    procedure = Procedure(3, draws_per_turn=per_turn, mulligan=ReturnRule(2), lookahead=True)
    return problem, procedure, Query(3 + 2 * per_turn)


@pytest.mark.parametrize("seed", range(6))
def test_counts_settled_at_once_as_one_by_one(seed: int) -> None:
    """Every capped count vector (at most 4,000 of them), with nothing held, a hand held or
    all but one card: won, lost or open as ``_decided`` finds it, and the live classes
    those of ``_split``."""
    problem, procedure, query = problem_of(seed)
    engine = SequentialEngine(problem, procedure, query, (), 10**12)
    vectors = list(itertools.product(*(range(c + 1) for c in engine.red.cond.caps)))
    vectors = random.Random(seed).sample(vectors, min(len(vectors), 4000))
    for held in (0, engine.hand, engine.seen - 1):
        fates, live = engine._decided_many(np.asarray(vectors, dtype=np.int64), held)
        decided = (engine._decided(vec, held) for vec in vectors)
        assert fates.tolist() == [-1 if d is None else int(d) for d in decided]
        assert [tuple(np.flatnonzero(row).tolist()) for row in live] == [
            engine._split(vec)[0] for vec in vectors
        ]
    assert {-1, 0, 1} & set(fates.tolist())


def partition(kinds: np.ndarray) -> set[frozenset[int]]:
    """The hands grouped by kind (whatever its labels)."""
    groups: dict[int, set[int]] = {}
    for i, kind in enumerate(kinds.tolist()):
        groups.setdefault(kind, set()).add(i)
    return {frozenset(g) for g in groups.values()}


@pytest.mark.parametrize("seed", range(4))
def test_open_hands_told_apart_by_one_key_as_by_their_rows(seed: int) -> None:
    """Hands of six over ten classes, each of some vector with some classes live: the key of
    one integer and the rows of counts (taken where the key would not fit: thirty more
    classes no hand holds) group the hands alike, and each kind's hand is one of it."""
    rng = np.random.default_rng(seed)
    hand, n_cls = 6, 10
    rows = np.sort(rng.integers(0, n_cls, size=(3000, hand)), axis=1)
    vector = rng.integers(0, 5, size=len(rows))
    live = rng.integers(0, 2, size=(5, n_cls))
    some, kinds = _alike(rows, vector, live, (hand,) * n_cls, hand)
    wide = np.concatenate([live, np.zeros((5, 30), dtype=live.dtype)], axis=1)
    some_rows, kinds_rows = _alike(rows, vector, wide, (hand,) * (n_cls + 30), hand)
    assert partition(kinds) == partition(kinds_rows)
    assert (kinds[some] == np.arange(len(some))).all()
    assert (kinds_rows[some_rows] == np.arange(len(some_rows))).all()
    # Hands alike: the same vector, the same cards of its live classes.
    held = np.zeros((len(rows), n_cls), dtype=np.int64)
    for i in range(hand):
        np.add.at(held, (np.arange(len(rows)), rows[:, i]), 1)
    seen = np.column_stack([vector, held * live[vector]])
    assert (seen == seen[some][kinds]).all()
    assert len({tuple(r) for r in seen.tolist()}) == len(some)


@pytest.mark.parametrize("seed", range(6))
def test_table_settled_at_once_is_the_table_settled_one_by_one(seed: int) -> None:
    """The hands' table with its counts settled at once and without (each vector asked in
    Python): the same numerators, every kept part's value and every hand's best; and the
    answer the recursion's."""
    problem, procedure, query = problem_of(seed)
    fast, slow = engines(problem, procedure, query)
    count, h = 2, fast.hand
    table = fast._hands_return(count)
    assert table is not None and table._fates is not None
    table.run()
    other = SequentialEngine(problem, procedure, query, (), 10**12)
    plain = ReturnHands(
        other.red,
        other.n,
        h,
        count,
        other.hand_scale(),
        lambda vec: other._decided(vec, h),
        lambda vec: other._split(vec)[0],
        other.hand_value,
        other.charge_table,
        other._open_hand_values,
    )
    plain.run()
    assert (table.numerator, table.kept_numerator) == (plain.numerator, plain.kept_numerator)
    sizes = fast.red.sizes
    for kept in compositions(sizes, h - count):
        assert table.kept_value(kept) == plain.kept_value(kept)
    for hand in compositions(sizes, h):
        assert table.hand_best(hand) == plain.hand_best(hand)
    assert fast.return_table(count)[1] == slow.return_table(count)[1]


@pytest.mark.parametrize(("hand", "keep"), [(4, 1), (5, 2), (6, 3), (6, 4), (3, 3)])
def test_kept_parts_ranks_are_each_subsets_rank(hand: int, keep: int) -> None:
    """Each position subset's rank, summed by shared prefixes in 32 bits, is the rank of the
    kept part it picks (its classes as a row)."""
    problem, procedure, query = problem_of(0)
    engine = SequentialEngine(problem, procedure, query, (), 10**12)
    table = ReturnHands(
        engine.red, engine.n, hand, hand - keep, 1, lambda vec: None, lambda vec: (), len
    )
    rows, _ = _multisets(np.asarray(engine.red.sizes, dtype=np.int64), hand)
    subsets = list(itertools.combinations(range(hand), keep))
    ranks = table._ranks(rows)
    assert len(ranks) == len(subsets)
    for subset, rank in zip(subsets, ranks, strict=True):
        assert rank.dtype == np.int32
        assert (rank == table._rank(rows[:, list(subset)])).all()


@pytest.mark.parametrize("seed", range(4))
def test_levels_summed_by_counts_as_by_scatter(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A level's moves summed by one count per limb (floats) and, where the pile would be
    too large for that, added move by move: every hand's value the same, the recursion's."""
    problem, procedure, query = problem_of(seed)
    fast, slow = engines(problem, procedure, query)
    hands = list(compositions(slow.red.sizes, slow.hand))
    expected = [slow.hand_value(hand) for hand in hands]
    levels = fast._attribute_levels()
    assert levels is not None
    assert levels.run(np.asarray(hands, dtype=np.int64)) == expected
    monkeypatch.setattr(attributes_module, "_EXACT_FLOAT", 0)
    again = engines(problem, procedure, query)[0]._attribute_levels()
    assert again is not None
    assert again.run(np.asarray(hands, dtype=np.int64)) == expected
