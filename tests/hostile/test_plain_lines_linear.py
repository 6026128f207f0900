"""A line the plain-line TOML reader cannot take fails in time linear in its length.

The reader (``deckcheck.core.tomlfile.plain_toml``) reads every deck, overlay and game file
before tomllib does; a run of blanks between two parts that may both be empty once let its
pattern try every split of the run, so one long line held a command for hours. Each case runs
in a forked child under the hang watchdog: the reader leaves it to tomllib in milliseconds, the
old one would not finish before the watchdog."""

from __future__ import annotations

import pytest
from process_helpers import call_forked

from deckcheck.core.tomlfile import plain_toml

BLANKS = 400_000
"""Long enough that trying every split takes far beyond the watchdog, short of the file limits."""

FAILING_LINES = {
    "blanks then a stray character": " " * BLANKS + "!",
    "blanks and tabs then a stray character": " \t" * (BLANKS // 2) + "!",
    "blanks then a float": " " * BLANKS + "a = 1.5",
    "a comment of blanks then a control character": "#" + " " * BLANKS + "\x01",
    "a list of many items left open": "a = [" + '"x" , ' * (BLANKS // 8) + " !",
}


def _left_to_tomllib(line: str) -> None:
    assert plain_toml('game = "the-drake"\n' + line + "\n") is None


@pytest.mark.parametrize("name", sorted(FAILING_LINES))
def test_a_long_line_that_is_not_plain_is_left_to_tomllib_at_once(name: str) -> None:
    line = FAILING_LINES[name]
    done = call_forked(lambda: _left_to_tomllib(line), f"the plain reader on {name}")
    assert done.code == 0, done.stderr
