"""Benchmark: what a call of the look-ahead's recursion costs, by how many classes it tracks.

The recursion (`deckcheck/draws/exact/sequential.py`) is charged against the exact work limit
:data:`~deckcheck.draws.exact.sequential.CALL_MICROSECONDS` a call, and each new state it
values (one not found known) :data:`~deckcheck.draws.exact.sequential.STATE_CLASS_MICROSECONDS`
more per class (its children and their canonical forms are tuples of a class each, and it
walks its live classes). This times the recursion alone (the level engines off, no mulligan,
the limit lifted) on Planetary Conquerors `legal-80` and `legal-50` queries of 4 to 26 named
cards (`>=1`, `<=1`, `<=2`, `>=1`/`<=1`/`=1` in turn) at turns 2 to 6, going first and second,
each at most ``--most`` units of work, and prints per query the classes, the calls, the new
states, the CPU time (best of ``--runs``), the time it is charged and their ratio, and the
cost of a new state's class past `CALL_CLASSES` that would charge it its time; then the
largest of those.

    python bench/bench_call_charge.py [--runs 2] [--most 400000] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from _common import REPO, machine

sys.path.insert(0, str(REPO))

DECKS = {
    "legal-80": str(REPO / "examples/planetary-conquerors/legal-80.txt"),
    "legal-50": str(REPO / "examples/planetary-conquerors/legal-50.txt"),
}
OPS = {"ge": (">=1",), "le": ("<=1",), "le2": ("<=2",), "mixed": (">=1", "<=1", "=1")}


def names(deck: str) -> list[str]:
    """The pile's card names in pile order."""
    from bench_level_charge import names as pile_names

    return pile_names(deck)


def recursion_alone(deck: str, conds: list[str], turn: int, second: bool, most: int) -> Any:
    """(classes, calls, CPU seconds) of the recursion answering the query with no level
    engine and no mulligan; None when it takes more than ``most`` calls or none."""
    from deckcheck.draws.answer import Intractable
    from deckcheck.draws.exact.sequential import SequentialEngine
    from deckcheck.draws.model import Query

    setup = bound_problem(deck, conds, turn, second)
    if setup is None:
        return None
    problem, procedure, seen = setup
    engine = SequentialEngine(problem, procedure, Query(seen, second=second), (), most)
    engine.use_levels = False
    if not engine.lookahead or engine.settled_at_start() is not None:
        return None
    start = time.process_time()
    try:
        engine.without_mulligan()
    except Intractable:
        return None
    seconds = time.process_time() - start
    return len(engine.red.sizes), engine.work, seconds, engine.valued


class _Got(Exception):
    """The query's problem, caught on its way to the exact engines."""


def bound_problem(deck: str, conds: list[str], turn: int, second: bool) -> Any:
    """(problem, procedure, cards seen) of an `odds` query; None when it never reaches the
    exact engines."""
    from deckcheck import api
    from deckcheck.draws import facade

    real = facade.exact

    def grab(problem: Any, procedure: Any, query: Any, policy: Any, **_: Any) -> Any:
        raise _Got((problem, procedure, query.seen))

    facade.exact = grab  # type: ignore[assignment]
    try:
        api.odds(deck, conds, turn=turn, second=second)
    except _Got as got:
        return got.args[0]
    finally:
        facade.exact = real  # type: ignore[assignment]
    return None


def cases(quick: bool) -> Iterator[tuple[str, str, list[str], int, bool]]:
    """(label, deck, conditions, turn, second) of the set measured."""
    counts = (4, 12, 20, 26) if quick else (4, 8, 12, 16, 20, 26)
    turns = (3, 5) if quick else (2, 3, 4, 5, 6)
    for label, deck in DECKS.items():
        pile = names(deck)
        for kind, ops in OPS.items():
            for count in counts:
                if count > len(pile):
                    continue
                conds = [f"name:{x}{ops[i % len(ops)]}" for i, x in enumerate(pile[:count])]
                for turn in turns:
                    for second in (False, True):
                        seat = "second" if second else "first"
                        yield f"{label} {kind} {count} t{turn} {seat}", deck, conds, turn, second


def main() -> None:
    from deckcheck.draws.exact.sequential import (
        CALL_CLASSES,
        CALL_MICROSECONDS,
        STATE_CLASS_MICROSECONDS,
        state_calls,
    )

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2, help="runs per query (best taken)")
    parser.add_argument("--most", type=int, default=400_000, help="most work a query may take")
    parser.add_argument("--quick", action="store_true", help="a smaller set")
    args = parser.parse_args()
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f} at start; CPU time of the recursion alone\n")
    print(
        "| query | classes | calls | new states | CPU s | charged s | CPU / charged | "
        "µs a state's class past them needed |"
    )
    print("|---|---|---|---|---|---|---|---|")
    needed: list[float] = []
    worst = 0.0
    for label, deck, conds, turn, second in cases(args.quick):
        best = None
        for _ in range(args.runs):
            got = recursion_alone(deck, conds, turn, second, args.most)
            if got is None:
                break
            if best is None or got[2] < best[2]:
                best = got
        if best is None or best[1] < 2_000:
            continue  # out of the range measured, or too short to time
        classes, work, seconds, states = best
        calls = work - round(states * state_calls(classes))
        charged = work * CALL_MICROSECONDS / 1e6
        # The class cost that charges this query its time, calls at CALL_MICROSECONDS.
        past = classes - CALL_CLASSES
        need = (seconds * 1e6 - calls * CALL_MICROSECONDS) / (states * past) if past > 0 else 0.0
        needed.append(need)
        worst = max(worst, seconds / charged)
        print(
            f"| {label} | {classes} | {calls:,} | {states:,} | {seconds:.3f} | {charged:.3f} | "
            f"{seconds / charged:.2f} | {need:.2f} |"
        )
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end\n")
    print(
        f"{len(needed)} queries; charged {CALL_MICROSECONDS} µs a call and "
        f"{STATE_CLASS_MICROSECONDS} µs a new state's class past {CALL_CLASSES}; the largest "
        f"CPU / charged {worst:.2f}; every query of more classes covered from "
        f"{max(needed, default=0.0):.2f} µs a class"
    )


if __name__ == "__main__":
    main()
