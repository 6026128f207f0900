"""Benchmark: `optimize` on the bundled examples of every game, and how the search grows.

Target: a proven answer within 2 s on one core for 1 or 2 conditions and K <= 10 changes. Each
case runs in this process after a warm-up (scipy, numpy and the catalogs loaded once, as the
first search of a command pays them: see the start-up line); CPU seconds of the search alone
(``time.process_time``, steadier than wall time on a shared machine) and the proof's counts.
``--grow`` prints how the search grows with K (1 to 10) and with the number of conditions.

    python bench/bench_optimize.py [--grow] [--quick]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from _common import REPO, machine

from deckcheck.analysis.odds import OddsOptions
from deckcheck.decks.load import load_deck
from deckcheck.games.context import make_context
from deckcheck.solve.optimize import Limits, Search, search

RD = "examples/ren-dhark/terra-custom.txt"
PC = "examples/planetary-conquerors/legal-50.txt"
ST = "examples/stccg-1e/legal-federation.txt"
ADV = "examples/stccg-1e/legal-advanced-8-missions.txt"
DORN = "examples/dorn/first-game-party.txt"
DRAKE = "examples/the-drake/custom-stack.txt"

#: (label, deck, variant, conditions, turn)
CASES: list[tuple[str, str, str | None, list[str], int | None]] = [
    ("ren-dhark, 1 condition", RD, None, ["type:ship>=2"], 2),
    ("ren-dhark, 2 conditions", RD, None, ["type:ship>=2", "POINT OF>=1"], 3),
    ("planetary-conquerors, 1", PC, None, ["type:warrior>=2"], 3),
    ("planetary-conquerors, 2", PC, None, ["type:warrior>=2", "type:building>=1"], 3),
    ("stccg standard, 1", ST, None, ["type:Personnel>=3"], 3),
    ("stccg standard, 2", ST, None, ["type:Personnel>=3", "type:Ship>=1"], 3),
    ("stccg advanced, 2", ADV, None, ["type:Personnel>=3", "type:Ship>=1"], 3),
    ("dorn random-party, 1", DORN, "random-party", ["recommended:true>=4"], None),
    ("the-drake random, 1", DRAKE, "random", ["name:Drake>=1"], None),
]


def run(
    deck: str, variant: str | None, conditions: Sequence[str], turn: int | None, k: int
) -> tuple[float, Search]:
    """CPU seconds of one search, and its result."""
    loaded = load_deck(str(REPO / deck), make_context(variant=variant))
    start = time.process_time()
    found, *_ = search(loaded, conditions, OddsOptions(turn=turn), Limits(changes=k))
    return time.process_time() - start, found


def line(label: str, k: int, seconds: float, f: Search) -> str:
    """One result as a line of the table."""
    p = float(f.probability) if f.probability is not None else float("nan")
    return (
        f"{label:<28} K={k:<3} {seconds:6.2f} s  {f.status:<11} p={p:.6f}"
        f"  mixes {f.candidates:>5}  scored {f.evaluated:>5}  bound {f.ruled_out:>5}"
        f"  unreachable {f.unreachable:>4}"
    )


def warm_up() -> None:
    """Print the machine, then run a first search (scipy, numpy, HiGHS, the catalogs) and
    print what it cost: the searches timed after it do not pay it."""
    print(machine())
    start = time.process_time()
    run(RD, None, ["type:ship>=2"], 1, 1)
    print(f"start-up of the first search (imports, HiGHS): {time.process_time() - start:.2f} s")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cases (see the module's description)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--grow", action="store_true", help="K from 1 to 10, 1 and 2 conditions")
    parser.add_argument("--quick", action="store_true", help="K = 2 only (a smoke run)")
    args = parser.parse_args(argv)
    warm_up()
    ks = [2] if args.quick else [4, 10]
    worst = 0.0
    for label, deck, variant, conditions, turn in CASES:
        for k in ks:
            seconds, found = run(deck, variant, conditions, turn, k)
            worst = max(worst, seconds)
            print(line(label, k, seconds, found))
    print(f"slowest: {worst:.2f} s (target: 2 s)")
    if args.grow:
        for label, deck, variant, conditions, turn in CASES[:6]:
            for k in range(1, 11):
                seconds, found = run(deck, variant, conditions, turn, k)
                print(line(label, k, seconds, found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
