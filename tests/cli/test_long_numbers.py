"""A number of thousands of digits wherever one is read is one clear line and exit 2: each
reader checks the digits it is given (nothing matches Python's own message text)."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, run_cli

DIGITS = "9" * 5000
DECK = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "ren-dhark", f"resource_points<={DIGITS}"],
        ["cards", "ren-dhark", f"resource_points>=-{DIGITS}"],
        ["odds", DECK, f"type:ship>={DIGITS}"],
        ["odds", "--deck", "60", "--category", f"ships={DIGITS}", "ships>=1", "--seen", "7"],
        ["odds", DECK, "type:ship>=1", "--redraws", DIGITS],
        ["validate", DECK, "--set", f"missions={DIGITS}"],
    ],
    ids=["cards", "cards-negative", "condition", "category", "redraws", "setting"],
)
def test_a_number_of_thousands_of_digits_is_one_line_and_exit_2(args: list[str]) -> None:
    result = run_cli(args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, result.stderr
