"""Benchmark 4: refusing a deck of 10,000 lines that name no card.

Such a file (a wrong file, a log, an export from another program) must be refused about as
cheaply as a one-line deck with one unknown card: deck resolution lists the first 100 unknown
lines (with "did you mean" suggestions, within a fixed budget of name comparisons) and only
counts the lines after them; finding the game of a deck that names none stops at each game's
first 100 unknown lines. The figure is the CPU time of the whole ``deckcheck validate`` process
(start-up included), and its ratio to the one-line deck of the same game, measured in this run.

Measured on the project's machine (2 cores, shared; Python 3.11), CPU seconds, one run each:

    deck                              before    after   one-line deck
    10,000 junk lines, stccg-1e        1.73     0.60        0.45
    10,000 junk lines, ren-dhark       0.47     0.43        0.40
    10,000 junk lines, no game line    1.89     0.45          -

("before": every line was looked up, twice for a line starting with a number, and game
detection counted every unknown line of every game.)

    python bench/bench_unknown_lines.py [--runs 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

from _common import REPO, machine, python

LINES = 10_000


def junk(folder: Path, header: str, lines: int) -> Path:
    """A deck of ``lines`` lines naming no card, after ``header``."""
    path = folder / f"junk-{lines}-{header.split(':')[-1].strip() or 'none'}.txt"
    body = "".join(f"{i % 4 + 1} Nonexistent card number {i:05d}\n" for i in range(lines))
    path.write_text(header + body, encoding="utf-8")
    return path


def cpu_seconds(deck: Path) -> float:
    """User plus system CPU seconds of one ``deckcheck validate DECK`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [python(), "-m", "deckcheck", "validate", str(deck)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        cwd=REPO,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = [
            ("stccg-1e", "game: stccg-1e\n"),
            ("ren-dhark", "game: ren-dhark\n"),
            ("no game line", ""),
        ]
        for label, header in cases:
            many = [cpu_seconds(junk(folder, header, LINES)) for _ in range(args.runs)]
            line = f"{LINES:,} junk lines, {label:<13} {statistics.median(many):5.2f} s CPU"
            if header:
                one = [cpu_seconds(junk(folder, header, 1)) for _ in range(args.runs)]
                ratio = statistics.median(many) / statistics.median(one)
                line += f"   one-line deck {statistics.median(one):5.2f} s   ratio {ratio:4.2f}x"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
