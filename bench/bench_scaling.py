"""Benchmark: how the time of one `odds` query grows with conditions, deck size and turn.

Each row is one query through the library (`api.odds_deckless`, a deck given as category
counts) under Planetary Conquerors' rules: the optimal return-3 mulligan and the optimal
look-ahead, the hardest combination the engines face. It prints a Markdown table for the
README: wall time, and whether the answer was exact or simulated (past the estimated work
limit the façade simulates at once, with its Wilson interval).

    python bench/bench_scaling.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from _common import REPO, machine

sys.path.insert(0, str(REPO))

GAME = "planetary-conquerors"


def one(size: int, n_conditions: int, turn: int, repeat: int) -> tuple[float, str]:
    """Median seconds of one query, and "exact" or "simulated"."""
    from deckcheck import api

    categories = [
        f"c{i}={max(1, min(6, (size - 10) // (n_conditions + 1)))}" for i in range(n_conditions)
    ]
    conditions = [f"c{i}>=1" if i % 3 == 0 else f"c{i}<=2" for i in range(n_conditions)]
    times = []
    report = None
    for _ in range(repeat):
        start = time.perf_counter()
        report = api.odds_deckless(size, categories, conditions, game=GAME, turn=turn)
        times.append(time.perf_counter() - start)
    assert report is not None
    return statistics.median(times), "exact" if report.exact else "simulated"


def main() -> int:
    """Run the three sweeps and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer points, one run each")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    conditions = (1, 2, 4, 8, 20) if args.quick else (1, 2, 3, 4, 6, 8, 10, 15, 20)
    sizes = (40, 80, 400, 12_000) if args.quick else (40, 80, 200, 1_000, 4_000, 12_000)
    turns = (1, 5, 30) if args.quick else (1, 2, 3, 5, 10, 20, 30)
    print(f"machine: {machine()}")
    print("| sweep | conditions | deck | turn | time | answer |")
    print("|---|---|---|---|---|---|")
    for n in conditions:
        seconds, how = one(80, n, 3, repeat)
        print(f"| conditions | {n} | 80 | 3 | {seconds * 1000:.0f} ms | {how} |")
    for size in sizes:
        seconds, how = one(size, 4, 3, repeat)
        print(f"| deck size | 4 | {size:,} | 3 | {seconds * 1000:.0f} ms | {how} |")
    for turn in turns:
        seconds, how = one(80, 2, turn, repeat)
        print(f"| turn | 2 | 80 | {turn} | {seconds * 1000:.0f} ms | {how} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
