"""The markers of cost that tests/conftest.py sets: they name real tests and keep up with the
code."""

from __future__ import annotations

import re

import pytest
from conftest import SLOW, TESTS


def test_every_test_listed_as_slow_exists() -> None:
    """A test renamed or moved leaves its old name in ``SLOW``: the list says so."""
    texts: dict[str, str] = {}
    for entry in sorted(SLOW):
        where, _, name = entry.partition("::")
        if where not in texts:
            path = TESTS / where
            texts[where] = path.read_text(encoding="utf-8") if path.is_file() else ""
        defined = re.search(rf"^(async )?def {re.escape(name)}\(", texts[where], re.M)
        assert defined, f"{entry} is listed in SLOW but is not a test there"


def test_a_test_calling_a_helper_that_starts_a_process_is_marked(
    request: pytest.FixtureRequest,
) -> None:
    """This test calls a function that calls ``run_module`` (never called here): marked."""
    assert request.node.get_closest_marker("process") is not None
    assert callable(run_module_named_here)


def run_module_named_here() -> None:
    from conftest import run_module

    run_module(["--version"])


def test_the_slow_list_is_read_from_a_runs_durations() -> None:
    """``make slow-tests`` keeps a test whose one call took 0.15 s or more, once for all its
    cases, and nothing from outside ``tests/`` (doctests)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "slow_tests", TESTS.parent / "tools" / "slow_tests.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    lines = [
        "0.90s call     tests/solve/test_fix.py::test_minimal_stccg",
        "0.20s call     tests/draws/test_a.py::test_cases[3-x y]",
        "0.16s setup    tests/draws/test_a.py::test_cases[4-z]",
        "0.14s call     tests/draws/test_b.py::test_quick",
        "0.50s call     deckcheck/api.py::deckcheck.api",
        "(8198 durations < 0.005s hidden.  Use -vv to show these durations.)",
    ]
    assert tool.slow_tests(lines) == [
        "draws/test_a.py::test_cases",
        "solve/test_fix.py::test_minimal_stccg",
    ]
