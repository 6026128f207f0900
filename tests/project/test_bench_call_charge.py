"""``bench/bench_call_charge.py`` still runs: the recursion alone on one small query, its
calls, new states and charge (no figure checked: no test measures time)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest
from conftest import REPO

from deckcheck.draws.exact.sequential import CALL_CLASSES, state_calls

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def charge_bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        yield importlib.import_module("bench_call_charge")
    finally:
        sys.path.remove(str(BENCH))


def test_the_recursion_alone_on_a_small_query(charge_bench: ModuleType) -> None:
    deck = charge_bench.DECKS["legal-50"]
    names = charge_bench.names(deck)[:3]
    got = charge_bench.recursion_alone(deck, [f"name:{x}<=1" for x in names], 3, False, 10**6)
    assert got is not None
    classes, work, seconds, valued = got
    assert classes <= CALL_CLASSES and state_calls(classes) == 0
    assert work >= valued > 0 and seconds >= 0


def test_a_state_is_charged_per_class_past_the_first() -> None:
    assert state_calls(CALL_CLASSES) == 0 < state_calls(CALL_CLASSES + 1) < state_calls(26)
