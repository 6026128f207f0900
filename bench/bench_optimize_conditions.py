"""Benchmark: `optimize` with three and four conditions on the bundled examples of every game.

Target: a proven answer within 2 s on one core for the bundled examples with K <= 6 changes.
Each case runs in this process after a warm-up (see ``bench_optimize.py``: scipy, numpy and
the catalogs loaded once); CPU seconds of the search alone and the proof's counts, so what
grows (mixes scored, ruled out by the bound, unreachable) shows beside the time.

    python bench/bench_optimize_conditions.py [--quick]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bench_optimize import ADV, DORN, DRAKE, PC, RD, ST, line, run, warm_up

#: (label, deck, variant, conditions, turn): the first three conditions, then all four.
CASES: list[tuple[str, str, str | None, list[str], int | None]] = [
    (
        "ren-dhark",
        RD,
        None,
        ["type:ship>=2", "POINT OF>=1", "type:action<=3", "type:person>=1"],
        3,
    ),
    (
        "planetary-conquerors",
        PC,
        None,
        ["type:warrior>=2", "type:building>=1", "type:miner>=1", "type:trap<=1"],
        3,
    ),
    (
        "stccg standard",
        ST,
        None,
        ["type:Personnel>=3", "type:Ship>=1", "type:Event>=1", "type:Interrupt<=2"],
        3,
    ),
    (
        "stccg advanced",
        ADV,
        None,
        ["type:Personnel>=3", "type:Ship>=1", "type:Event>=1", "type:Interrupt<=2"],
        3,
    ),
    (
        "dorn random-party",
        DORN,
        "random-party",
        ["recommended:true>=3", "name:Kaerdrak>=1", "name:Choros>=1", "name:Gor<=0"],
        None,
    ),
    (
        "the-drake random",
        DRAKE,
        "random",
        ["name:Drake<=0", "name:Swordsman<=0", "name:Archer<=0", "name:Mnich<=0"],
        None,
    ),
]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cases (see the module's description)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="K = 2 only (a smoke run)")
    args = parser.parse_args(argv)
    warm_up()
    ks = [2] if args.quick else [2, 4, 6]
    worst = 0.0
    for label, deck, variant, conditions, turn in CASES:
        for n in (3, 4):
            for k in ks:
                seconds, found = run(deck, variant, conditions[:n], turn, k)
                worst = max(worst, seconds)
                print(line(f"{label}, {n}", k, seconds, found), flush=True)
    print(f"slowest: {worst:.2f} s (target: 2 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
