"""Benchmark 1: `deckcheck validate` wall time against a one-command Typer app.

Target: a validation costs at most 1.2x a minimal one-argument Typer application (the floor
of any Typer command line: Typer's import and its pydantic conversion of arguments) in the
same environment. Importing typer + rich + pydantic is shown too. Everything is measured in
this one run, interleaved, and the ratios of the medians are printed: of CPU time (user +
system, steadier than wall time on a shared machine), or of wall time with ``--wall``.

The children run as an installed deckcheck does: the ``deckcheck`` script users type (see
``_common.deckcheck``), with its modules' bytecode (see ``_common.installed_run``);
``--no-bytecode`` compiles deckcheck from source on every run, as a checkout under
``PYTHONDONTWRITEBYTECODE`` would.

    python bench/bench_validate.py [--runs 15] [--wall] [--no-bytecode]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence

from _common import cpu_times, deckcheck, installed_run, machine, python, summary, wall_times

DECKS = {
    "ren-dhark (35 cards)": "examples/ren-dhark/terra-custom.txt",
    "planetary-conquerors (80 cards, overlay)": "examples/planetary-conquerors/legal-80.txt",
    "the-drake (7 troops)": "examples/the-drake/standard-stack.txt",
}


TARGET = 1.2

_MINIMAL_TYPER_APP = """
import typer
app = typer.Typer()
@app.command()
def main(deck: str) -> None:
    print(deck)
app()
"""


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile deckcheck from source each run"
    )
    args = parser.parse_args()
    with installed_run(bytecode=not args.no_bytecode):
        return _measure(args.runs, wall_times if args.wall else cpu_times)


def _measure(runs: int, times: Callable[[Sequence[str], int], list[float]]) -> int:
    py = python()
    baseline_cmd = [py, "-c", "import typer, rich.console, pydantic"]
    # The floor of any Typer CLI: one command, one argument, printing it. Since Typer 0.2x
    # converts arguments through pydantic at run time, this alone costs more than the imports.
    floor_cmd = [py, "-c", _MINIMAL_TYPER_APP, "x"]
    print(f"machine: {machine()}")
    baseline: list[float] = []
    floor: list[float] = []
    results: dict[str, list[float]] = {name: [] for name in DECKS}
    for deck in DECKS.values():  # warm the catalog cache and write the bytecode
        times([*deckcheck(), "validate", deck], 1)
    times(floor_cmd, 1)
    for _ in range(runs):  # interleaved, so load changes hit both sides alike
        baseline += times(baseline_cmd, 1)
        floor += times(floor_cmd, 1)
        for name, deck in DECKS.items():
            results[name] += times([*deckcheck(), "validate", deck], 1)
    base = statistics.median(baseline)
    print(f"baseline import typer+rich+pydantic: {summary(baseline)}")
    print(
        f"a minimal one-argument Typer app:     {summary(floor)}  ratio "
        f"{statistics.median(floor) / base:4.2f}x"
    )
    worst = 0.0
    app = statistics.median(floor)
    for name, times in results.items():
        ratio = statistics.median(times) / app
        worst = max(worst, ratio)
        print(f"validate {name:42s} {summary(times)}  ratio {ratio:4.2f}x the Typer app")
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"worst ratio {worst:.2f}x a one-command Typer app (target <= {TARGET}x): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
