"""Benchmark the simulators: vectorised (numpy) against the plain-Python reference.

Run from the repository root: ``python bench/bench_simulate.py`` (``--quick`` for a short run).
Prints the machine, hands per second for each workload and path, the speed-up, and whether the
count-only path reaches the target of 5 million opening hands per second on one core.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run from a checkout without installing


from deckcheck.core.numeric import np  # noqa: E402 - after the path set-up above
from deckcheck.draws.model import (  # noqa: E402
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)
from deckcheck.draws.simulate.reference import simulate_reference  # noqa: E402
from deckcheck.draws.simulate.sampling import SamplingMethod  # noqa: E402
from deckcheck.draws.simulate.vectorised import BATCH, FixedPileSampler, simulate_vectorised  # noqa: E402

TARGET_PER_CORE = 5_000_000
TARGET_RATIO = 20

# Ren Dhark starter: 15 ships, 6 actions, 12 persons/units (the planet is set aside).
RD = DrawProblem(
    group_sizes=(15, 6, 12),
    membership=((True, False), (False, True), (False, False)),
    conditions=(CountTest(0, ">=", 3), CountTest(1, ">=", 1)),
)
RD_REDRAW = RedrawRule((CountTest(0, "<", 2), CountTest(1, ">", 3)), 1)
# A 60-card deck with 5 groups, asking for two specific cards and a type.
BIG = DrawProblem(
    group_sizes=(4, 10, 3, 5, 38),
    membership=(
        (True, False, False),
        (False, True, False),
        (False, False, True),
        (False, True, False),
        (False, False, False),
    ),
    conditions=(CountTest(0, ">=", 1), CountTest(1, ">=", 2), CountTest(2, ">=", 1)),
)
# Planetary Conquerors: 40 cards, return-3 mulligan, two draws a turn with the look-ahead.
PC = DrawProblem(
    group_sizes=(4, 6, 2, 28),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, ">=", 2)),
)
PC_PROC = Procedure(5, 6, 2, ReturnRule(3), lookahead=True)


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs: the least disturbed by other work on the machine."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def rate(trials: int, seconds: float) -> str:
    per_second = trials / seconds
    return f"{per_second / 1e6:8.2f} M/s" if per_second >= 1e5 else f"{per_second / 1e3:8.1f} k/s"


def machine() -> None:
    print(f"machine : {platform.platform()} ({platform.machine()})")
    print(f"cpu     : {platform.processor() or 'unknown'}; {os.cpu_count()} logical CPUs")
    print(f"python  : {platform.python_version()} ({platform.python_implementation()})")
    print(f"numpy   : {np.__version__}")
    print()


def samplers(trials: int) -> None:
    """Why the count-only path samples as it does: the alternatives, timed on the same deals.

    Each is called on batches of the simulator's size and must give counts shaped
    (groups, trials), as the simulator uses them (numpy's samplers give (trials, groups)).
    """
    batches = max(1, trials // BATCH)
    rng = np.random.default_rng(1)
    eight = (4, 4, 4, 4, 4, 4, 4, 32)
    print(f"count sampling alone, batches of {BATCH:,} (the simulator's):")
    for sizes, n in ((RD.group_sizes, 7), (BIG.group_sizes, 7), (BIG.group_sizes, 15), (eight, 7)):
        colours = np.asarray(sizes)
        chosen = FixedPileSampler(sizes, n).method.value

        def forced(method: SamplingMethod, sizes: tuple[int, ...] = sizes, n: int = n) -> None:
            # each method timed even where the simulator would not use it
            sampler = FixedPileSampler(sizes, n, method)
            for _ in range(batches):
                sampler.sample(rng, BATCH)

        def numpy_mvh(method: str, c: np.ndarray = colours, n: int = n) -> None:
            for _ in range(batches):
                counts = rng.multivariate_hypergeometric(c, n, size=BATCH, method=method)
                np.ascontiguousarray(counts.T)

        def sequential(sizes: tuple[int, ...] = sizes, n: int = n) -> None:
            for _ in range(batches):
                left = np.full(BATCH, n)
                rest = sum(sizes)
                for size in sizes[:-1]:
                    rest -= size
                    left = left - rng.hypergeometric(size, rest, left)

        print(f"  {n} of {sum(sizes)} cards, {len(sizes)} groups (simulator uses: {chosen})")
        options: list[tuple[str, Callable[[], object]]] = [
            ("FixedPileSampler tables", lambda f=forced: f(SamplingMethod.TABLES)),
            ("FixedPileSampler positions", lambda f=forced: f(SamplingMethod.POSITIONS)),
            ("multivariate_hypergeometric count", lambda f=numpy_mvh: f("count")),
            ("multivariate_hypergeometric marginals", lambda f=numpy_mvh: f("marginals")),
            ("sequential Generator.hypergeometric", sequential),
        ]
        for name, fn in options:
            print(f"    {name:40s} {rate(batches * BATCH, timed(fn))}")
    print()


def compare(
    label: str,
    problem: DrawProblem,
    procedure: Procedure,
    query: Query,
    vec_trials: int,
    ref_trials: int,
) -> tuple[float, float]:
    """Hands per second of both simulators on one workload (vectorised on one core)."""
    simulate_vectorised(problem, procedure, query, 10_000, 0, workers=1)  # warm-up
    vec_s = timed(lambda: simulate_vectorised(problem, procedure, query, vec_trials, 1, workers=1))
    ref_s = timed(lambda: simulate_reference(problem, procedure, query, ref_trials, 1))
    vec_rate, ref_rate = vec_trials / vec_s, ref_trials / ref_s
    print(f"{label}")
    print(f"  vectorised, 1 core : {rate(vec_trials, vec_s)}  ({vec_trials:,} trials)")
    print(f"  reference (Python) : {rate(ref_trials, ref_s)}  ({ref_trials:,} trials)")
    print(f"  speed-up           : {vec_rate / ref_rate:8.0f}x")
    return vec_rate, ref_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer trials, rougher figures")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    big, small = 8_000_000 // scale, 100_000 // scale

    machine()
    samplers(2_000_000 // scale)

    print("== count-only: opening hand, no mulligan ==")
    vec_rate, ref_rate = compare(
        "Ren Dhark, 7 of 33, 3 groups", RD, Procedure(7), Query(7), big, small
    )
    ratio = vec_rate / ref_rate
    big_rate, _ = compare(
        "60 cards, 5 groups, 7 seen", BIG, Procedure(7), Query(7), big, small // 2
    )
    print()

    print("== redraw rule (Ren Dhark, at most once) ==")
    proc = Procedure(7, mulligan=RD_REDRAW)
    compare("opening hand", RD, proc, Query(7), big // 2, small // 2)
    compare("by turn 4 (10 seen)", RD, proc, Query(10), big // 4, small // 2)
    print()

    print("== return-3 mulligan with look-ahead (Planetary Conquerors, turn 3) ==")
    compare("greedy return, 9 seen", PC, PC_PROC, Query(9), big // 8, small // 4)
    print()

    workers = os.cpu_count() or 1
    if workers > 1:
        trials = 4 * big
        seconds = timed(lambda: simulate_vectorised(RD, Procedure(7), Query(7), trials, 1), 1)
        print(f"== count-only on {workers} processes ==")
        print(f"  {rate(trials, seconds)}  ({trials:,} trials, process start-up included)")
        print()

    print("== summary ==")
    print(
        f"count-only, one core : {vec_rate / 1e6:.2f} M hands/s (3 groups), "
        f"{big_rate / 1e6:.2f} M hands/s (5 groups)"
    )
    met = "met" if min(vec_rate, big_rate) >= TARGET_PER_CORE else "NOT met"
    print(f"target {TARGET_PER_CORE / 1e6:.0f} M hands/s/core  : {met}")
    ok = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"vectorised / reference: {ratio:.0f}x (target {TARGET_RATIO}x: {ok})")


if __name__ == "__main__":
    main()
