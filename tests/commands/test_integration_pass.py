"""Where two features meet: conditions joined by ``|`` with ``--expected-turn``, ``@TURN``
and the commands that take conditions but not alternatives. Each case once answered wrongly
or with a misleading message; in process (CliRunner)."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run_cli

RD = str(EXAMPLES / "ren-dhark/terra-custom.txt")
EITHER = "type:ship>=3 | name:POINT OF>=1"


def test_expected_turn_is_not_dropped_silently_with_either_conditions() -> None:
    """``odds --expected-turn`` with ``A | B`` once answered the plain odds and left the
    distribution out without a word (text and JSON)."""
    result = run_cli(["odds", RD, EITHER, "--expected-turn", "--turn", "3"])
    assert result.exit_code == 2, result.output
    assert "--expected-turn" in result.stderr and "|" in result.stderr
    assert "Traceback" not in result.output


def test_a_deadline_inside_either_conditions_is_refused_for_what_it_is() -> None:
    """``odds "A@2 | B"`` once said a deadline "is answered exactly by odds ... not here"."""
    result = run_cli(["odds", RD, "type:ship>=3@2 | name:POINT OF>=1"])
    assert result.exit_code == 2, result.output
    assert "not here" not in result.stderr
    assert "|" in result.stderr and "@TURN" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["mulligan", RD, EITHER],
        ["tune", RD, EITHER, "--target", "90%"],
        ["optimize", RD, EITHER, "--changes", "1"],
        ["hand", RD, EITHER, "--seed", "1"],
    ],
    ids=["mulligan", "tune", "optimize", "hand"],
)
def test_either_conditions_outside_odds_say_so(args: list[str]) -> None:
    """Commands that take conditions but not alternatives once blamed the card data: "no
    ren-dhark card has type 'ship>=3 | name:POINT OF'"."""
    result = run_cli(args)
    assert result.exit_code == 2, result.output
    assert "no ren-dhark card" not in result.stderr, result.stderr
    assert "|" in result.stderr and "odds" in result.stderr, result.stderr
