"""``odds`` sets what is already made aside from the cycle collector while it works out the
answer (``deckcheck/cli/app.py``): its full passes, one of which comes with numpy's import,
do not walk start-up's objects again. In a process that goes on (a program calling the
command line), the objects are given back afterwards, whatever the command's end; a process
that has set objects aside itself (as the test harness does) is left as it was."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck.commands import odds as odds_command

DECK = EXAMPLES / "planetary-conquerors" / "legal-80.txt"


@pytest.fixture
def nothing_aside() -> Iterator[None]:
    """A process that has set nothing aside, as the command line's own at start; the
    harness's objects set aside again afterwards."""
    held = gc.get_freeze_count()
    gc.unfreeze()
    try:
        yield
    finally:
        if held:
            gc.freeze()


@pytest.mark.usefixtures("nothing_aside")
def test_odds_sets_objects_aside_while_it_works_and_gives_them_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = odds_command.run
    aside_during: list[int] = []

    def run(*args: Any, **kwargs: Any) -> Any:
        aside_during.append(gc.get_freeze_count())
        return real(*args, **kwargs)

    monkeypatch.setattr(odds_command, "run", run)
    result = run_cli(["odds", DECK, "name:Gold Miner>=1", "--turn", "2"])
    assert result.exit_code == 0, result.output
    assert aside_during and aside_during[0] > 0
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("nothing_aside")
def test_objects_are_given_back_when_the_query_fails() -> None:
    result = run_cli(["odds", DECK, "name:No Such Card>=1", "--turn", "2"])
    assert result.exit_code == 2
    assert gc.get_freeze_count() == 0


@pytest.fixture
def something_aside() -> Iterator[None]:
    """A process that has set objects aside itself (a program that manages its collector);
    given back as it was afterwards, so that the rest of the run's ``odds`` do not count them."""
    held = gc.get_freeze_count()
    if not held:
        gc.freeze()
    try:
        yield
    finally:
        if not held:
            gc.unfreeze()


@pytest.mark.usefixtures("something_aside")
def test_a_process_that_set_objects_aside_is_left_as_it_was() -> None:
    before = gc.get_freeze_count()
    result = run_cli(["odds", DECK, "name:Gold Miner>=1", "--turn", "2"])
    assert result.exit_code == 0, result.output
    # None given back, none more set aside (one set aside may be freed meanwhile).
    assert 0 < gc.get_freeze_count() <= before
