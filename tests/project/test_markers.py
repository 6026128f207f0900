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
