"""Benchmark: what a simulated deal costs against what :func:`trial_cost` charges for it.

A ``simulate`` run not told its trial count (and an ``odds`` fallback) picks it so that the
deals stay within :data:`~deckcheck.draws.facade.SIMULATION_BUDGET` units of
:func:`~deckcheck.draws.facade.trial_cost`, each unit standing for
:data:`~deckcheck.draws.facade.UNIT_MICROSECONDS` of one core. For deal shapes across every
game's bundled examples (plain draws, Ren Dhark's optimal redraw, Planetary Conquerors' return
mulligan with the look-ahead read from the exact tables or played by the rule of thumb, as an
``odds`` fallback plays it; 2 to 12 conditions, turns 1 to 6, either seat) this runs
``simulate`` in this process with a fixed trial count, times the simulator's deals alone (CPU
time; the exact tables the player reads are built before and not counted), and prints per
shape: the charged units, the measured units a deal (CPU time over the unit), their ratio
(above 1: charged too little), and the default trial count with the CPU time it would take.

    python bench/bench_trial_cost.py [--trials 20000] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from _common import REPO, machine

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from cases import PC_CONDITIONS, RD_CONDITIONS, STCCG_CONDITIONS

L80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
L50 = str(REPO / "examples/planetary-conquerors/legal-50.txt")
KLINGON = str(REPO / "examples/stccg-1e/legal-klingon.txt")
TERRA = str(REPO / "examples/ren-dhark/terra-custom.txt")
BLUE = str(REPO / "examples/ren-dhark/blue-starter.txt")


def names(deck: str, count: int) -> list[str]:
    """``count`` named cards of the pile (in pile order) with ``>=1``, ``<=1``, ``=1`` in turn."""
    from bench_level_charge import family

    return family(deck, "mixed", count)


def cases(quick: bool) -> Iterator[tuple[str, str, list[str], dict[str, Any], bool]]:
    """(label, deck or pile, conditions, draw keywords, as an odds fallback) per shape."""
    turns = (3, 6) if quick else (1, 3, 6)
    for turn in turns:
        for k in (2, 6, 12):
            conds = STCCG_CONDITIONS[:k]
            yield f"stccg klingon {k} t{turn}", KLINGON, conds, {"turn": turn}, False
        for k in (2, 5, 10):
            conds = RD_CONDITIONS[:k]
            yield f"ren-dhark terra {k} t{turn}", TERRA, conds, {"turn": turn}, False
            yield (
                f"ren-dhark blue {k} t{turn} always",
                BLUE,
                conds,
                {
                    "turn": turn,
                    "redraw_policy": "always",
                },
                False,
            )
    yield "dorn heroes 2 seen 4", "dorn:heroes", ["type:hero>=1"], {"seen": 4}, False
    for label, deck in (("legal-80", L80), ("legal-50", L50)):
        for turn in turns:
            for second in (False, True):
                seat = " second" if second else ""
                draw = {"turn": turn, "second": second}
                for k in (2, 6, 10) if not quick else (6,):
                    conds = PC_CONDITIONS[:k]
                    yield f"pc {label} {k} t{turn}{seat}", deck, conds, draw, False
                    yield f"pc {label} {k} t{turn}{seat} fallback", deck, conds, draw, True
                for k in (8, 12) if not quick else (12,):
                    conds = names(deck, k)
                    yield f"pc {label} {k} names t{turn}{seat}", deck, conds, draw, False
                    yield f"pc {label} {k} names t{turn}{seat} fallback", deck, conds, draw, True
                nm = dict(draw, mulligan="none")
                yield f"pc {label} 6 t{turn}{seat} no mulligan", deck, PC_CONDITIONS[:6], nm, False


@contextmanager
def recorded(log: list[dict[str, Any]], fallback: bool) -> Iterator[None]:
    """Every simulator run timed (CPU) with what :func:`trial_cost` charges for its deals;
    ``fallback``: the exact tables refused, as in an ``odds`` fallback (rules of thumb)."""
    from deckcheck.draws import facade
    from deckcheck.draws.simulate import vectorised

    original = vectorised.simulate_vectorised
    limit = facade.EXACT_WORK_LIMIT

    def timed(problem: Any, procedure: Any, query: Any, trials: int, *a: Any, **k: Any) -> Any:
        # Read from the exact tables: the look-ahead's keeps, the return's choice.
        returns = a[1] if len(a) > 1 else k.get("choose_return")
        decided = k.get("keep_top") is not None or returns is not None
        start = time.process_time()
        answer = original(problem, procedure, query, trials, *a, **k)
        seconds = time.process_time() - start
        charged = facade.trial_cost(problem, procedure, query, decided=decided)
        default = facade.default_trials(problem, procedure, query, decided)
        log.append({"seconds": seconds, "trials": trials, "charged": charged, "default": default})
        return answer

    vectorised.simulate_vectorised = timed  # type: ignore[assignment]
    if fallback:
        facade.EXACT_WORK_LIMIT = 0
    try:
        yield
    finally:
        vectorised.simulate_vectorised = original  # type: ignore[assignment]
        facade.EXACT_WORK_LIMIT = limit


def measure(deck: str, conds: list[str], draw: dict[str, Any], fallback: bool, trials: int) -> Any:
    """The one simulator run of ``simulate`` for this shape (None: none ran)."""
    from bench_scaling import forget

    from deckcheck import api

    forget()
    log: list[dict[str, Any]] = []
    with recorded(log, fallback):
        api.simulate(deck, conds, trials=trials, seed=1, **draw)
    return log[-1] if log else None


def main() -> None:
    from deckcheck.draws.facade import SIMULATION_BUDGET, UNIT_MICROSECONDS

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=20_000, help="deals per shape")
    parser.add_argument("--quick", action="store_true", help="a smaller set")
    args = parser.parse_args()
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f} at start; {args.trials} deals a shape")
    print(f"unit: {UNIT_MICROSECONDS} µs; budget {SIMULATION_BUDGET:,} units\n")
    print("| shape | charged units | measured units | measured / charged | default trials |")
    print("|---|---|---|---|---|")
    worst = 0.0
    measure(KLINGON, STCCG_CONDITIONS[:2], {"turn": 1}, False, args.trials)  # warm-up, not shown
    for label, deck, conds, draw, fallback in cases(args.quick):
        entry = measure(deck, conds, draw, fallback, args.trials)
        if entry is None:
            continue
        units = entry["seconds"] * 1e6 / entry["trials"] / UNIT_MICROSECONDS
        ratio = units / entry["charged"]
        worst = max(worst, ratio)
        spend = entry["default"] * entry["seconds"] / entry["trials"]
        print(
            f"| {label} | {entry['charged']} | {units:.0f} | {ratio:.2f} | "
            f"{entry['default']:,} ({spend:.2f} s) |",
            flush=True,
        )
    print(f"\nlargest measured / charged: {worst:.2f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
