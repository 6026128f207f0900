"""The level engine's residues where the floats narrow a value down (``levels._reach``,
``levels._lift``): the moduli's product need only be above what the floats leave open, and a
value is read back as the one of its residues nearest its float.

With small primes (a product far below the values) the engine must still give the
recursion's Fractions, kept parts' values, return choices and look decisions; a value read
back as its bare residue would not.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from test_lookahead_levels import (
    test_eight_and_twelve_conditions_match_the_recursion as against_recursion,
)
from test_lookahead_levels import (
    test_small_named_piles_match_the_labelled_expectimax as against_expectimax,
)

import deckcheck.draws.exact.levels as levels_module
import deckcheck.draws.exact.sequential as sequential
from deckcheck.draws.exact.levels import _CLOSE, _drift, _lift, _moduli, _reach


@pytest.fixture
def small_primes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The level engine at once, its primes below 2**20: every product below the values it
    stands for. Lists each engine's (product, largest value)."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)
    monkeypatch.setattr(sequential, "LEVEL_RETURN_FROM", 0)
    made: list[tuple[int, int]] = []
    start = levels_module.LevelEngine._start

    def small(bits: int, above: int) -> tuple[int, ...]:
        return _moduli(min(bits, 20), above)

    def noted(engine: levels_module.LevelEngine) -> None:
        start(engine)
        made.append((math.prod(engine.moduli), math.perm(engine.n, engine.reads)))

    monkeypatch.setattr(levels_module, "_moduli", small)
    monkeypatch.setattr(levels_module.LevelEngine, "_start", noted)
    return made


@pytest.mark.parametrize(
    ("n_named", "seed", "second"), [(8, 0, False), (8, 1, True), (12, 0, False), (12, 1, True)]
)
def test_values_read_back_by_their_floats_match_the_recursion(
    n_named: int, seed: int, second: bool, small_primes: list[tuple[int, int]]
) -> None:
    """8 and 12 mixed conditions, look-ahead and return of two, with products far below the
    values: the recursion's answers all the same."""
    against_recursion(n_named, seed, second, None)
    assert any(product < full for product, full in small_primes)


@pytest.mark.parametrize("seed", range(4))
def test_small_piles_read_back_by_their_floats_match_the_expectimax(
    seed: int, small_primes: list[tuple[int, int]]
) -> None:
    """Small named piles against the labelled expectimax, with small primes."""
    against_expectimax(seed, None)


def test_a_value_is_the_one_nearest_its_float() -> None:
    """Every value of a scale, its float off by up to the drift either way: read back exactly
    from its residue modulo a product just above what :func:`_reach` asks."""
    rng = random.Random(42)
    full = math.perm(80, 20)
    drift = _drift(30, 20)
    assert 4 * drift <= _CLOSE
    product = _reach(full, drift) + 1
    assert product < full  # the residue alone would not tell
    for value in [0, 1, full, full - 1, *(rng.randrange(full + 1) for _ in range(2000))]:
        exact = Fraction(value, full) * (1 + Fraction(rng.uniform(-drift, drift)))
        f = float(exact)
        assert _lift(value % product, product, f, full) == value


def test_floats_that_could_drift_past_the_margin_keep_every_residue() -> None:
    """A bound on the floats' drift above a quarter of the margin: the product is above
    twice every value again (the residues alone read it)."""
    full = math.perm(80, 20)
    assert _reach(full, _CLOSE) == 2 * full
    assert _drift(10**9, 10**9) == math.inf
