"""Benchmark: `deckcheck owned` of 20 STCCG decks against one collection, with `--most`.

Target: at most 2 s of CPU time (user + system: one core's work) for the whole command, warm
catalog cache, as an installed deckcheck runs it (see ``_common.installed_run``). The decks are
the first 20 STCCG example decks, copied into one folder; the collection holds, of every card
they use, the most any one deck needs, so that they contend for many cards and `--most` has an
integer programme to solve.

    python bench/bench_owned.py [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from _common import REPO, cpu_times, deckcheck, installed_run, machine, summary

from deckcheck.decks.load import load_deck

TARGET = 2.0
DECKS = 20


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with installed_run(), tempfile.TemporaryDirectory(prefix="deckcheck-owned-") as tmp:
        folder = Path(tmp) / "decks"
        folder.mkdir()
        sources = sorted((REPO / "examples" / "stccg-1e").glob("*.txt"))[:DECKS]
        most: Counter[str] = Counter()
        for source in sources:
            shutil.copy(source, folder / source.name)
            for card_id, n in load_deck(source).deck.counts().items():
                most[card_id] = max(most[card_id], n)
        collection = Path(tmp) / "collection.txt"
        lines = ["game: stccg-1e"] + [f"{n} {card_id}" for card_id, n in sorted(most.items())]
        collection.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv = [*deckcheck(), "owned", str(folder), "--collection", str(collection), "--most"]
        cpu_times(argv, 1)  # warms the catalog cache
        times = cpu_times(argv, args.runs)
    median = statistics.median(times)
    print(machine())
    print(f"owned, {len(sources)} STCCG decks, --most: {summary(times)} CPU")
    verdict = "ok" if median <= TARGET else "over"
    print(f"target: at most {TARGET:.1f} s CPU: {verdict}")
    return 0 if median <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
