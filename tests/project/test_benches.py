"""The benchmark scripts still run. Their figures are not checked here (no test measures
time); each is called on the least work it takes, so that a change to the code it measures
that breaks it fails here rather than when someone next measures."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO

from deckcheck.draws.model import Procedure, Query

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))
    try:
        yield importlib.import_module("_common")
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("bench_*.py")))
def test_every_bench_loads(bench: ModuleType, name: str) -> None:
    assert callable(importlib.import_module(name).main)


def test_the_simulation_bench_times_every_sampling_method(
    bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")
    simulate = importlib.import_module("bench_simulate")
    # One batch for each method and pile, of a thousand deals rather than the simulator's
    # 65,536: every method still deals (and prints), at a sixty-fourth of the work.
    monkeypatch.setattr(simulate, "BATCH", 1 << 10)
    simulate.samplers(1)
    # the least work that still runs both simulators and prints their speed-up
    simulate.compare("Ren Dhark", simulate.RD, Procedure(7), Query(7), 1_000, 20)
    out = capsys.readouterr().out
    for method in ("tables", "positions", "count", "marginals"):
        assert method in out
    assert "speed-up" in out


def test_the_scaling_bench_builds_its_decks_and_times_a_query(
    bench: ModuleType, tmp_path: Path
) -> None:
    scaling = importlib.import_module("bench_scaling")
    cases = scaling.named_cases(tmp_path, scaling.stccg_deck(tmp_path, 200))
    assert all(Path(deck).is_file() for _, deck, _, _ in cases)
    seconds, how = scaling.one(scaling.PC80, scaling.PC_CONDITIONS[:2], 1, turn=1)
    assert how == "exact" and seconds > 0


def test_the_call_charge_bench_runs_the_recursion_alone(bench: ModuleType) -> None:
    """``bench_call_charge.py`` on one small query: its classes, work, time and new states."""
    from deckcheck.draws.exact.sequential import CALL_CLASSES, state_calls

    charge = importlib.import_module("bench_call_charge")
    deck = charge.DECKS["legal-50"]
    names = charge.names(deck)[:3]
    got = charge.recursion_alone(deck, [f"name:{x}<=1" for x in names], 3, False, 10**6)
    assert got is not None
    classes, work, seconds, valued = got
    assert classes <= CALL_CLASSES and state_calls(classes) == 0
    assert work >= valued > 0 and seconds >= 0


def test_the_frontier_bench_asks_each_game_its_own_attribute_selectors(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bench_frontier.py --attributes``: every deck's list binds to its game's catalog (a
    field renamed there fails here), and its first two conditions are answered exactly."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.analysis.odds import OddsOptions, bind
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    frontier = importlib.import_module("bench_frontier")
    monkeypatch.setattr(frontier, "ATTRIBUTES", [True])
    for _, deck in frontier.DECKS:
        conds = frontier.conditions(deck, 12, False)
        assert conds == frontier.attributes(deck) and len(set(conds)) == len(conds)
        setup, _ = categorized(open_deck(deck, make_context((), None, None)), [])
        problem = bind(setup, conds, OddsOptions()).problem
        assert sum(problem.group_sizes) == sum(n for _, n in setup.pile)
    deck = frontier.DECKS[0][1]
    seconds, exact, why = frontier.query(deck, frontier.conditions(deck, 2, False), 1)
    assert exact and not why and seconds >= 0
