"""Benchmark 2: exact `odds` queries, in process (the library call) and as a command.

Target: an exact query on a deck of up to 80 cards with up to 4 conditions returns in
milliseconds.

    python bench/bench_odds.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from _common import REPO, machine, python, summary, wall_times

sys.path.insert(0, str(REPO))

QUERIES = [
    (
        "ren-dhark, 1 condition, redraw rule",
        "examples/ren-dhark/terra-custom.txt",
        ["type:ship>=2"],
        {},
    ),
    (
        "ren-dhark, 4 conditions, redraw rule, turn 3",
        "examples/ren-dhark/terra-custom.txt",
        ["type:ship>=2", "type:person>=1", "type:action<=2", "I/25>=1"],
        {"turn": 3},
    ),
    (
        "planetary-conquerors 80 cards, 4 conditions, no mulligan",
        "examples/planetary-conquerors/legal-80.txt",
        ["type:warrior>=2", "type:building>=1", "rarity:3>=1", "type:spell<=2"],
        {"mulligan": "none"},
    ),
    (
        "planetary-conquerors 80 cards, 2 conditions, optimal mulligan",
        "examples/planetary-conquerors/legal-80.txt",
        ["type:warrior>=2", "type:building>=1"],
        {},
    ),
]


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    from deckcheck.analysis.odds import OddsOptions, compute_odds
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    print(f"machine: {machine()}")
    for name, deck, conditions, options in QUERIES:
        setup = draw_setup(open_deck(deck))
        compute_odds(setup, conditions, OddsOptions(**options))  # warm caches (imports)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = compute_odds(setup, conditions, OddsOptions(**options))
            times.append(time.perf_counter() - start)
        print(
            f"{name:62s} p={result.probability:.6f} exact={result.exact}  "
            f"in process: {summary(times)}"
        )
    cli = wall_times(
        [python(), "-m", "deckcheck", "odds", QUERIES[1][1], *QUERIES[1][2], "--turn", "3"], 5
    )
    print(f"whole command (start-up included), {QUERIES[1][0]}: {summary(cli)}")
    median_ms = 1000 * statistics.median(times)
    print(f"last query {median_ms:.1f} ms median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
