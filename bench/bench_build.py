"""Benchmark: an edit's refresh in `deckcheck build`, in process, on one core.

Target: adding or removing one copy of a card and refreshing what the edit changes (the deck
file's text rewritten and read again, every rule's standing, the odds by turn of one or two
conditions, and the playtest hand) within 50 ms for a Ren Dhark deck and 150 ms for a
60-card STCCG deck. The screen's own drawing is Textual's and is not counted; odds out of
exact reach would be computed in the background (marked pending) and are not counted either.
Figures are CPU time of the process (``time.process_time``: steadier than wall time on a
shared machine), its wall time beside them.

    python bench/bench_build.py [--repeat 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

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
    from deckcheck.builder.playtest import deal
    from deckcheck.commands.build import BuildSession

    print(f"machine: {machine()}, one core")
    worst = 0.0
    for name, deck, conditions, target in CASES:
        session = BuildSession(REPO / deck)
        card = session.deck_lines()[-1].card
        session.odds(conditions)  # warm the caches (imports, catalog)
        times, walls = [], []
        for i in range(args.repeat):
            start, wall = time.process_time(), time.perf_counter()
            session.add(card, 1 if i % 2 == 0 else -1)
            session.standing()
            view = session.odds(conditions)
            deal(session.opened.loaded, i + 1, conditions, None, 0)
            times.append((time.process_time() - start) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
            assert not view.message, view.message
        median = statistics.median(times)
        worst = max(worst, median / target)
        p90 = sorted(times)[len(times) * 9 // 10]
        print(
            f"{name:<34} CPU median {median:5.1f} ms  p90 {p90:5.1f} ms"
            f"  (wall {statistics.median(walls):5.1f} ms)  target {target} ms  "
            f"{'ok' if median <= target else 'OVER'}"
        )
    print("the same edits made by the screen (BuildApp.edit: the session's refresh and every")
    print("pane's widgets updated; Textual's drawing of them comes after, not counted):")
    for name, deck, conditions, target in CASES[::2]:
        median = statistics.median(asyncio.run(_screen(REPO / deck, conditions, args.repeat)))
        print(f"{name:<34} CPU median {median:5.1f} ms  target {target} ms")
    return 0 if worst <= 1 else 1


async def _screen(deck: Path, conditions: list[str], repeat: int) -> list[float]:
    """CPU milliseconds of each edit made through the app, run headless at 120x40."""
    from deckcheck.commands.build import BuildSession
    from deckcheck.tui.app import BuildApp

    app = BuildApp(BuildSession(deck), seed=1)
    app.conditions = tuple(conditions)
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        card = app.session.deck_lines()[-1].card
        for i in range(repeat):
            start = time.process_time()
            app.edit(card, 1 if i % 2 == 0 else -1, None)
            times.append((time.process_time() - start) * 1000)
            await pilot.pause()
    return times


if __name__ == "__main__":
    sys.exit(main())
