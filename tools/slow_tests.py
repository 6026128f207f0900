"""The list of slow tests (``tests/slow-tests.txt``), from a run's own measure of each test.

A test is slow when one of its calls took :data:`THRESHOLD` seconds or more in a whole run of
the suite on the usual two workers (``make slow-tests`` runs it and writes the list): such a
run is busier than one test alone, so the figure is on the safe side. Every case of a
parametrised test shares its test's mark.

    python -m pytest -n auto --durations=0 | python tools/slow_tests.py > tests/slow-tests.txt
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable

THRESHOLD = 0.15
"""Seconds: a call that takes this long in a whole run on two workers makes its test slow."""

HEADER = """\
# Tests marked `slow` (see tests/conftest.py): one call took 0.15 s or more in a whole run of
# the suite on two workers. Made by `make slow-tests` (tools/slow_tests.py); not by hand.
"""

_DURATION = re.compile(r"^([0-9.]+)s (?:call|setup|teardown)\s+tests/(\S+?)(?:\[.*)?$")


def slow_tests(lines: Iterable[str], threshold: float = THRESHOLD) -> list[str]:
    """The tests (``file::function``, relative to ``tests/``) that took ``threshold`` seconds
    or more, read from pytest's ``--durations=0`` lines; sorted."""
    found = set()
    for line in lines:
        match = _DURATION.match(line.strip())
        if match and float(match[1]) >= threshold:
            found.add(match[2])
    return sorted(found)


def main() -> None:
    """Read pytest's output on standard input; write the list on standard output."""
    tests = slow_tests(sys.stdin)
    if not tests:
        sys.exit("no durations read: run pytest with --durations=0")
    sys.stdout.write(HEADER + "".join(f"{test}\n" for test in tests))


if __name__ == "__main__":
    main()
