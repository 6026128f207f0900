"""Benchmark 1: `deckcheck validate` wall time against a one-command Typer app.

Target: a validation costs at most 1.2x a minimal one-argument Typer application (the floor
of any Typer command line: Typer's import and its pydantic conversion of arguments) in the
same environment. Importing typer + rich + pydantic is shown too. Everything is measured in
this one run, interleaved, and the ratios of the medians are printed.

    python bench/bench_validate.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from _common import machine, python, summary, wall_times

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
    args = parser.parse_args()
    py = python()
    baseline_cmd = [py, "-c", "import typer, rich.console, pydantic"]
    # The floor of any Typer CLI: one command, one argument, printing it. Since Typer 0.2x
    # converts arguments through pydantic at run time, this alone costs more than the imports.
    floor_cmd = [py, "-c", _MINIMAL_TYPER_APP, "x"]
    print(f"machine: {machine()}")
    baseline: list[float] = []
    floor: list[float] = []
    results: dict[str, list[float]] = {name: [] for name in DECKS}
    for _ in range(args.runs):  # interleaved, so load changes hit both sides alike
        baseline += wall_times(baseline_cmd, 1)
        floor += wall_times(floor_cmd, 1)
        for name, deck in DECKS.items():
            results[name] += wall_times([py, "-m", "deckcheck", "validate", deck], 1)
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
