"""Benchmark: an edit's refresh in `deckcheck build`, in process, on one core.

Target: adding or removing one copy of a card and refreshing what the edit changes (the deck
file's text rewritten and read again, every rule's standing, the odds by turn of one or two
conditions, and the playtest hand) within 50 ms for a Ren Dhark deck and 150 ms for a
60-card STCCG deck. The screen's own drawing is Textual's and is not counted; odds out of
exact reach would be computed in the background (marked pending) and are not counted either.

    python bench/bench_build.py [--repeat 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _common import REPO, machine

sys.path.insert(0, str(REPO))

CASES = [
    (
        "ren-dhark 33 cards, 1 condition",
        "examples/ren-dhark/terra-custom.txt",
        ["type:ship>=2"],
        50,
    ),
    (
        "ren-dhark 33 cards, 2 conditions",
        "examples/ren-dhark/terra-custom.txt",
        ["type:ship>=2", "type:action<=2"],
        50,
    ),
    (
        "stccg-1e 60 cards, 1 condition",
        "examples/stccg-1e/legal-federation.txt",
        ["type:personnel>=3"],
        150,
    ),
    (
        "stccg-1e 60 cards, 2 conditions",
        "examples/stccg-1e/legal-federation.txt",
        ["type:personnel>=3", "type:ship>=1"],
        150,
    ),
]


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    from deckcheck.commands.build import BuildSession
    from deckcheck.tui.playtest import deal

    print(f"machine: {machine()}, one core")
    worst = 0.0
    for name, deck, conditions, target in CASES:
        session = BuildSession(REPO / deck)
        card = session.deck_lines()[-1].card
        session.odds(conditions)  # warm the caches (imports, catalog)
        times = []
        for i in range(args.repeat):
            start = time.perf_counter()
            session.add(card, 1 if i % 2 == 0 else -1)
            session.standing()
            view = session.odds(conditions)
            deal(session.opened.loaded, i + 1, conditions, None, 0)
            times.append((time.perf_counter() - start) * 1000)
            assert not view.message, view.message
        median = statistics.median(times)
        worst = max(worst, median / target)
        print(
            f"{name:<36} median {median:6.1f} ms  p90 {sorted(times)[len(times) * 9 // 10]:6.1f}"
            f" ms  target {target} ms  {'ok' if median <= target else 'OVER'}"
        )
    return 0 if worst <= 1 else 1


if __name__ == "__main__":
    sys.exit(main())
