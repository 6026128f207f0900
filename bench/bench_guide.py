"""Benchmark: the mulligan guide, deadlines per condition and the expected turn, as commands.

Target: each answer within 1 s (start-up included) for the bundled examples. The large
guides (:data:`LARGE`: Planetary Conquerors' overlapping attribute selectors, thousands of
hands) are timed with ``--large``; those past the exact work limit are refused (exit 2), and
the time to refuse is what counts. ``--hard`` times the heaviest deadline and expected-turn
questions found on the bundled examples (:data:`HARD`), answered or refused.

    python bench/bench_guide.py [--runs 3] [--large | --hard]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

from _common import REPO, cpu_times, deckcheck, machine, summary, wall_times
from cases import ATTRIBUTE_CONDITIONS

RD = "examples/ren-dhark/terra-custom.txt"
RED = "examples/ren-dhark/red-starter.txt"
PC50 = "examples/planetary-conquerors/legal-50.txt"
PC80 = "examples/planetary-conquerors/legal-80.txt"
PC_SET = ["--catalog", "examples/planetary-conquerors/example-set.toml"]
STCCG = "examples/stccg-1e/legal-federation.txt"

#: (name, arguments after ``deckcheck``)
CASES: list[tuple[str, list[str]]] = [
    ("guide, ren-dhark, turn 2", ["mulligan", RD, "type:ship>=2", "--turn", "2"]),
    (
        "guide, ren-dhark red, 3 conditions, turn 4",
        [
            "mulligan",
            RED,
            "type:ship>=2",
            "type:person>=2",
            "type:action<=2",
            "--turn",
            "4",
            "--second",
        ],
    ),
    (
        "guide, planetary-conquerors 50, turn 3",
        ["mulligan", PC50, "type:miner>=1", "type:warrior>=1", "--turn", "3", *PC_SET],
    ),
    (
        "guide, planetary-conquerors 80, second, turn 2",
        [
            "mulligan",
            PC80,
            "type:warrior>=2",
            "type:building>=1",
            "--turn",
            "2",
            "--second",
            *PC_SET,
        ],
    ),
    ("guide, stccg (no choice)", ["mulligan", STCCG, "type:personnel>=3", "type:ship>=1"]),
    ("guide, dorn:rituals (no choice)", ["mulligan", "dorn:rituals", "type:ritual>=1"]),
    ("deadlines, ren-dhark", ["odds", RD, "type:ship>=1@1", "type:person>=3@4"]),
    (
        "deadlines, ren-dhark, 3 deadlines",
        ["odds", RD, "type:ship>=2@1", "type:person>=2@3", "type:action>=1@5"],
    ),
    (
        "deadlines, planetary-conquerors 50",
        ["odds", PC50, "type:miner>=1@1", "type:warrior>=2@3", *PC_SET],
    ),
    ("deadlines, stccg", ["odds", STCCG, "type:ship>=1@1", "type:personnel>=5@4"]),
    ("guide with deadlines, ren-dhark", ["mulligan", RD, "type:ship>=2@1", "type:person>=3@4"]),
    ("expected turn, ren-dhark", ["odds", RD, "type:person>=3", "--expected-turn"]),
    (
        "expected turn, planetary-conquerors 50",
        ["odds", PC50, "type:miner>=1", "type:warrior>=1", "--expected-turn", *PC_SET],
    ),
    ("expected turn, stccg", ["odds", STCCG, "type:personnel>=5", "--expected-turn"]),
]

#: The attribute selectors of :data:`cases.ATTRIBUTE_CONDITIONS`, each card counted by several.
PC_ATTRIBUTES = ATTRIBUTE_CONDITIONS["planetary-conquerors"]
#: Guides of thousands of hand classes (``--large``): (name, arguments, exit code expected).
LARGE: list[tuple[str, list[str], int]] = [
    (
        "guide, planetary-conquerors 80, 4 attributes, turn 1 (3,990 hands)",
        ["mulligan", PC80, *PC_ATTRIBUTES[:4], "--turn", "1", *PC_SET],
        0,
    ),
    (
        "guide, planetary-conquerors 80, 6 attributes, turn 2 (14,485 hands)",
        ["mulligan", PC80, *PC_ATTRIBUTES[:6], "--turn", "2", *PC_SET],
        0,
    ),
    (
        "guide, planetary-conquerors 50, 12 attributes, turn 1 (26,019 hands: refused)",
        ["mulligan", PC50, *PC_ATTRIBUTES, "--turn", "1", *PC_SET],
        2,
    ),
    (
        "guide, planetary-conquerors 50, 12 attributes, turn 2 (refused)",
        ["mulligan", PC50, *PC_ATTRIBUTES, "--turn", "2", *PC_SET],
        2,
    ),
    (
        "guide, planetary-conquerors 80, 8 attributes, turn 1 (refused)",
        ["mulligan", PC80, *PC_ATTRIBUTES[:8], "--turn", "1", *PC_SET],
        2,
    ),
]


RD_ATTRIBUTES = ATTRIBUTE_CONDITIONS["ren-dhark"]
#: The heaviest deadline and expected-turn questions: (name, arguments, exit code expected).
HARD: list[tuple[str, list[str], int]] = [
    (
        "expected turn, planetary-conquerors 80, 4 attributes (refused from its shape)",
        ["odds", PC80, *PC_ATTRIBUTES[:4], "--expected-turn", *PC_SET],
        2,
    ),
    (
        "expected turn, planetary-conquerors 50, 4 attributes, turn 6 (refused from its shape)",
        ["odds", PC50, *PC_ATTRIBUTES[:4], "--expected-turn", "--turn", "6", *PC_SET],
        2,
    ),
    (
        "deadlines, planetary-conquerors 80, 4 attributes @1..@4",
        ["odds", PC80, *(f"{c}@{i + 1}" for i, c in enumerate(PC_ATTRIBUTES[:4])), *PC_SET],
        0,
    ),
    (
        "expected turn, ren-dhark, 8 attributes, turn 6",
        ["odds", RD, *RD_ATTRIBUTES[:8], "--expected-turn", "--turn", "6"],
        0,
    ),
    (
        "expected turn, ren-dhark, 12 attributes, turn 6 (refused by the walk)",
        ["odds", RD, *RD_ATTRIBUTES, "--expected-turn", "--turn", "6"],
        2,
    ),
]


def main(argv: list[str] | None = None) -> int:
    """Run every case and print its CPU and wall times; exit 1 if one is over 1 s of CPU."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", type=int, default=None, help="Run only the first N cases.")
    parser.add_argument("--large", action="store_true", help="Time the large guides instead.")
    parser.add_argument("--hard", action="store_true", help="Time the hardest deadlines instead.")
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    worst = 0.0
    cases = LARGE if args.large else HARD if args.hard else [(n, w, 0) for n, w in CASES]
    for name, words, code in cases[: args.only]:
        done = subprocess.run([*deckcheck(), *words], capture_output=True, cwd=REPO, check=False)
        if done.returncode != code:
            print(f"{name}: exit {done.returncode}: {done.stderr.decode(errors='replace')}")
            return 1
        cpu = cpu_times([*deckcheck(), *words], args.runs)
        wall = wall_times([*deckcheck(), *words], 1)
        worst = max(worst, statistics.median(cpu))
        print(f"{name:50s} cpu {summary(cpu)}  wall {summary(wall)}  exit {code}")
    print(f"slowest median CPU time: {worst:.2f} s (target: 1 s)")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
