"""Benchmark 4: a warm STCCG validation against a Ren Dhark one (catalog size costs nothing).

STCCG's catalog holds 4,155 cards and a name table of 5,549 Lackey spellings, Ren Dhark's 68
cards. Once the catalog cache is warm (the built catalog with its lookups and value index, and
the name table with its lookups), validating an STCCG deck should cost at most 1.1x validating
a Ren Dhark deck. Both run as child processes, interleaved, against one private cache folder
(warmed first); the ratio of the median CPU times (user + system: steadier than wall time on a
shared machine) is printed. ``--cold`` also times STCCG with the cache switched off.

Warm means what an installed deckcheck has: its bytecode too. The children write and read
bytecode under a private ``PYTHONPYCACHEPREFIX`` (even where ``PYTHONDONTWRITEBYTECODE`` is
set), so that neither side pays for compiling its modules from source on every run;
``--no-bytecode`` runs the children as the environment would without that (no private prefix,
no bytecode written: a checkout without ``__pycache__`` compiles deckcheck on every run).

    python bench/bench_catalog.py [--runs 15] [--cold] [--no-bytecode]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from _common import cpu_times, deckcheck, installed_run, machine, summary

STCCG = "examples/stccg-1e/legal-klingon.txt"
REN_DHARK = "examples/ren-dhark/terra-custom.txt"
TARGET = 1.1


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cold", action="store_true", help="also time STCCG without a cache")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile every module from source each run"
    )
    args = parser.parse_args()
    with installed_run(bytecode=not args.no_bytecode):
        stccg = [*deckcheck(), "validate", STCCG]
        ren_dhark = [*deckcheck(), "validate", REN_DHARK]
        cpu_times(stccg, 1)  # warm the cache (and the OS's file cache) for both
        cpu_times(ren_dhark, 1)
        print(f"machine: {machine()}")
        warm: list[float] = []
        base: list[float] = []
        for _ in range(args.runs):  # interleaved, so load changes hit both sides alike
            base += cpu_times(ren_dhark, 1)
            warm += cpu_times(stccg, 1)
        print(f"validate ren-dhark (35 cards):          {summary(base)}")
        ratio = statistics.median(warm) / statistics.median(base)
        print(f"validate stccg-1e (60 cards), warm:     {summary(warm)}  ratio {ratio:4.2f}x")
        if args.cold:
            os.environ["DECKCHECK_CACHE"] = "off"
            cold = cpu_times(stccg, max(3, args.runs // 3))
            cold_ratio = statistics.median(cold) / statistics.median(base)
            print(
                f"validate stccg-1e, cache off:           {summary(cold)}  ratio {cold_ratio:4.2f}x"
            )
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"warm STCCG / Ren Dhark ratio {ratio:.2f}x (target <= {TARGET}x): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
