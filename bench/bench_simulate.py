"""Benchmark the simulators: vectorised (numpy) against the plain-Python reference, and
``deckcheck simulate`` against what a user would write with numpy instead.

Run from the repository root: ``python bench/bench_simulate.py`` (``--quick`` for a short run,
``--numpy-only`` for the comparison with numpy alone). Prints the machine, hands per second for
each workload and path, the speed-up, whether the count-only path reaches the target of 5
million opening hands per second on one core, and, on the plain draws of every game's bundled
example, the ratio to numpy's ``multivariate_hypergeometric`` (methods "count" and
"marginals") on the same number of deals with the same condition test, one core, measured in
one run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
#: deckcheck's plain draw against numpy's fastest sampler, same deals, one core: real deals at
#: about numpy's own speed (deckcheck draws the same counts, with its own tables where faster).
TARGET_NUMPY = 0.5

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
    print("  (for a plain draw whose outcome classes are out of reach; see the numpy comparison)")
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

        print(f"  {n} of {sum(sizes)} cards, {len(sizes)} groups (counts dealt by: {chosen})")
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
    simulate_vectorised(problem, procedure, query, 10_000, 0)  # warm-up
    vec_s = timed(lambda: simulate_vectorised(problem, procedure, query, vec_trials, 1))
    ref_s = timed(lambda: simulate_reference(problem, procedure, query, ref_trials, 1))
    vec_rate, ref_rate = vec_trials / vec_s, ref_trials / ref_s
    print(f"{label}")
    print(f"  vectorised, 1 core : {rate(vec_trials, vec_s)}  ({vec_trials:,} trials)")
    print(f"  reference (Python) : {rate(ref_trials, ref_s)}  ({ref_trials:,} trials)")
    print(f"  speed-up           : {vec_rate / ref_rate:8.0f}x")
    return vec_rate, ref_rate


#: The plain draws of every game's bundled examples, as ``deckcheck simulate DECK CONDITIONS
#: --mulligan none [--seen N | --second]`` asks them: (label, deck, conditions, cards seen, or
#: None for the opening hand, or "second" for the second player's). Planetary Conquerors'
#: look-ahead makes every later draw a choice: its plain draws are the opening hands.
EXAMPLES = [
    ("Ren Dhark terra-custom, 7 seen", "examples/ren-dhark/terra-custom.txt",
     ["type:ship>=2", "type:action<=2"], None),
    ("Ren Dhark terra-custom, 4 conditions, 12 seen", "examples/ren-dhark/terra-custom.txt",
     ["type:ship>=2", "type:action<=2", "type:person>=1", "faction:Terra>=1"], 12),
    ("STCCG legal-klingon, 3 conditions, 7 seen", "examples/stccg-1e/legal-klingon.txt",
     ["type:Personnel>=2", "type:Ship>=1", "type:Event>=1"], None),
    ("STCCG legal-klingon, 5 conditions, 15 seen", "examples/stccg-1e/legal-klingon.txt",
     ["type:Personnel>=2", "type:Ship>=1", "type:Event>=1", "type:Interrupt>=1",
      "affiliation:Klingon>=3"], 15),
    ("PC legal-80, 2 conditions, opening hand", "examples/planetary-conquerors/legal-80.txt",
     ["type:warrior>=2", "type:building>=1"], None),
    ("PC legal-80, 3 conditions, second player's 6", "examples/planetary-conquerors/legal-80.txt",
     ["type:warrior>=2", "type:building>=1", "type:miner>=1"], "second"),
    ("Dorn rituals (6 of 12)", "dorn:rituals", ["name:Bloodlust>=1"], None),
    ("Dorn blessings (5 of 12)", "dorn:blessings", ["type:blessing>=1"], 5),
    ("The Drake stack (leader of 7)", "the-drake:stack", ["name:Drake>=1"], None),
]  # fmt: skip
#: The rules' own mulligans and look-ahead, beside numpy's rate on the same deck's plain draw:
#: (label, deck, conditions, options of ``api.simulate``).
RULES = [
    ("Ren Dhark terra-custom, optimal redraw, 7 seen", "examples/ren-dhark/terra-custom.txt",
     ["type:ship>=2", "type:action<=2"], {}),
    ("Ren Dhark terra-custom, optimal redraw, turn 4", "examples/ren-dhark/terra-custom.txt",
     ["type:ship>=2", "type:action<=2"], {"turn": 4}),
    ("PC legal-80, optimal return + look-ahead, turn 3",
     "examples/planetary-conquerors/legal-80.txt", ["type:warrior>=2", "type:building>=1"],
     {"turn": 3}),
]  # fmt: skip


def captured(deck: str, conditions: list[str], **options: object) -> tuple[Any, ...]:
    """The (problem, procedure, query, policy) that ``deckcheck simulate`` builds for a
    command, caught at the façade's door (so that the bench times what the command runs)."""
    from deckcheck import api
    from deckcheck.draws import facade

    got: list[tuple[Any, ...]] = []
    original = facade.simulate

    def spy(problem: Any, procedure: Any, query: Any, policy: Any, **kw: Any) -> Any:
        got.append((problem, procedure, query, policy))
        return original(problem, procedure, query, policy, **{**kw, "trials": 1})

    facade.simulate = spy  # type: ignore[assignment]
    try:
        api.simulate(str(ROOT / deck) if ":" not in deck else deck, conditions, seed=1, **options)  # type: ignore[arg-type]
    finally:
        facade.simulate = original  # type: ignore[assignment]
    return got[0]


def numpy_plain(problem: DrawProblem, seen: int, method: str, trials: int) -> int:
    """What a user would write: ``multivariate_hypergeometric`` over the same groups, in
    batches, and the same condition test (a selector's count summed over its groups)."""
    rng = np.random.default_rng(5)
    colours = np.asarray(problem.group_sizes)
    member = np.asarray(problem.membership, dtype=bool).reshape(len(colours), -1)
    columns = [np.flatnonzero(member[:, c.selector]) for c in problem.conditions]
    wins = done = 0
    while done < trials:
        n = min(1 << 16, trials - done)
        counts = rng.multivariate_hypergeometric(colours, seen, size=n, method=method)
        ok = np.ones(n, dtype=bool)
        for test, cols in zip(problem.conditions, columns, strict=True):
            total = counts[:, cols[0]] if len(cols) == 1 else counts[:, cols].sum(axis=1)
            ok &= test.op.holds(total, test.threshold)
        wins += int(np.count_nonzero(ok))
        done += n
    return wins


def cpu_timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """Least CPU time of this process over ``repeat`` runs: one core's work, steadier than
    wall time on a machine shared with other work."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


@contextlib.contextmanager
def one_core() -> Iterator[None]:
    """Pin this process to one processor where the system allows (as ``taskset -c 0``), so
    that numpy's own threads cannot lend it a second."""
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if before:
        os.sched_setaffinity(0, {min(before)})
    try:
        yield
    finally:
        if before:
            os.sched_setaffinity(0, before)


def side_by_side(
    case: tuple[Any, ...], trials: int, repeat: int, marginals: bool = True
) -> tuple[float, float, float]:
    """CPU seconds of deckcheck's simulation of ``case`` (start-up subtracted: the same run
    for one deal, which builds the same tables) and of numpy's two methods on its plain draw."""
    from deckcheck.draws import facade

    problem, procedure, query, policy = case

    def ours(n: int) -> None:
        facade.simulate(problem, procedure, query, policy, trials=n, seed=1)

    start = cpu_timed(lambda: ours(1), repeat)
    mine = max(1e-9, cpu_timed(lambda: ours(trials), repeat) - start)
    count = cpu_timed(lambda: numpy_plain(problem, query.seen, "count", trials), repeat)
    marg = (
        cpu_timed(lambda: numpy_plain(problem, query.seen, "marginals", trials), repeat)
        if marginals
        else float("nan")
    )
    return mine, count, marg


def against_numpy(trials: int, repeat: int = 3) -> list[float]:
    """Plain draws of the bundled examples: deckcheck's simulation against numpy's two
    methods on the same number of deals, one core, CPU time, start-up subtracted, as ratios
    from this run; then the rules' mulligans and look-ahead beside numpy's plain draw."""
    ratios = []
    print(f"== against numpy, plain draws of the bundled examples ({trials:,} deals, one core) ==")
    print(f"  {'':46s} {'deckcheck':>11s} {'np count':>11s} {'np marg.':>11s} "
          f"{'/count':>7s} {'/marg.':>7s}")  # fmt: skip
    with one_core():
        for label, deck, conditions, seen in EXAMPLES:
            options: dict[str, object] = {"mulligan": "none"}
            if seen == "second":
                options["second"] = True
            elif seen is not None:
                options["seen"] = seen
            mine, count, marg = side_by_side(captured(deck, conditions, **options), trials, repeat)
            ratios.append(count / mine)
            print(f"  {label:46s} {rate(trials, mine)} {rate(trials, count)} "
                  f"{rate(trials, marg)} {count / mine:6.1f}x {marg / mine:6.1f}x")  # fmt: skip
        print()
        n = max(1, trials // 10)
        print(f"== the rules' mulligan and look-ahead ({n:,} deals, one core), beside numpy's "
              "count on the deck's plain draw ==")  # fmt: skip
        for label, deck, conditions, options in RULES:
            mine, count, _ = side_by_side(
                captured(deck, conditions, **options), n, repeat, marginals=False
            )
            print(f"  {label:50s} {rate(n, mine)}   numpy count, plain: {rate(n, count)} "
                  f"({count / mine:.2f}x)")  # fmt: skip
    print()
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer trials, rougher figures")
    parser.add_argument("--numpy-only", action="store_true", help="only the numpy comparison")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    big, small = 8_000_000 // scale, 100_000 // scale

    machine()
    ratios = against_numpy(20_000_000 // scale)
    if args.numpy_only:
        print(f"least ratio to numpy count: {min(ratios):.1f}x (target {TARGET_NUMPY}x)")
        return
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

    print("== summary ==")
    print(
        f"count-only, one core : {vec_rate / 1e6:.2f} M hands/s (3 groups), "
        f"{big_rate / 1e6:.2f} M hands/s (5 groups)"
    )
    met = "met" if min(vec_rate, big_rate) >= TARGET_PER_CORE else "NOT met"
    print(f"target {TARGET_PER_CORE / 1e6:.0f} M hands/s/core  : {met}")
    ok = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"vectorised / reference: {ratio:.0f}x (target {TARGET_RATIO}x: {ok})")
    met = "met" if min(ratios) >= TARGET_NUMPY else "NOT met"
    print(f"least ratio to numpy's count method, plain draws: {min(ratios):.1f}x "
          f"(target {TARGET_NUMPY}x: {met})")  # fmt: skip


if __name__ == "__main__":
    main()
