"""Benchmark: what a level engine's work costs against what it is charged.

The look-ahead's level engines (`deckcheck/draws/exact/levels.py`, the named classes'; and
`deckcheck/draws/exact/typed.py`, types and either-ors) are charged against the exact work
limit before each level they list: its open states times the moves they make (units) and a share
per level (its own steps). For a representative set of Planetary Conquerors queries
(`legal-80` and `legal-50`, turns 2-6, going first and second; mixed names, types with mixed
or `>=1` names, a type bounded from above with mixed names, an either-or with mixed names; 8,
10 and 12 conditions; and long deals of few states a level, a type bounded from above among
them) this times each engine's `run` in this process (CPU time, best of
``--runs``), with the limit lifted so that every level is listed, and prints per query: the
engine, its units and levels, the CPU time, the time it is charged (calls of
:data:`~deckcheck.draws.exact.sequential.CALL_MICROSECONDS` each) and their ratio; then per
engine the largest cost of a unit once each level's share is taken out. "Every query
measured is charged at least its time": a ratio above 1 is a query charged too little.

    python bench/bench_level_charge.py [--runs 2] [--quick]
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

L80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
L50 = str(REPO / "examples/planetary-conquerors/legal-50.txt")
OPS = (">=1", "<=1", "=1")
TYPES = ("type:warrior>=2", "type:building>=2")
#: A type bounded from above: each move of one of its cards finds its group's normal form.
UPPER = "type:building<=5"
#: Named buildings with mixed operators (counted by :data:`UPPER` too).
BUILDINGS = (
    "name:Stone Bunker>=1",
    "name:Watchtower<=1",
    "name:Mud Hut=1",
    "name:Power Plant>=1",
    "name:Field Hospital<=1",
    "name:Sky Citadel<=0",
)


def names(deck: str) -> list[str]:
    """The pile's card names in pile order."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    setup, _ = categorized(open_deck(deck, make_context((), None, None)), [])
    seen: dict[str, None] = {}
    for card, _n in setup.pile:
        seen[card.name] = None
    return list(seen)


def family(deck: str, kind: str, count: int) -> list[str]:
    """``count`` conditions of one family: "mixed" (names with >=1, <=1, =1 in turn), "types"
    (the two types, then mixed names), "types1" (the two types, then names >=1), "upper" (a
    type bounded from above, then mixed names), "either" (the first two names as one
    either-or, then mixed names)."""
    pile = names(deck)
    first: list[str] = []
    if kind.startswith("types"):
        first = list(TYPES)
    elif kind == "upper":
        first = [UPPER]
    elif kind == "either":
        first = [f"name:{pile[0]}>=1 | name:{pile[1]}>=1"]
        pile = pile[2:]
    ops = (">=1",) if kind == "types1" else OPS
    named = [f"name:{x}{ops[i % len(ops)]}" for i, x in enumerate(pile)]
    return (first + named)[:count]


@contextmanager
def recorded(log: list[dict[str, Any]]) -> Iterator[None]:
    """Every level engine's ``run`` timed, its charges counted and never refused."""
    from deckcheck.draws.exact import levels as lv

    original = lv.LevelEngine.run

    def run(self: Any) -> None:
        moves = len(self.radices) + 2
        entry: dict[str, Any] = {"engine": type(self).__name__, "units": 0, "levels": 0}
        entry["seconds"] = 0.0
        entry["moves"] = moves

        def charge(more: int) -> None:
            once = 0 if entry["levels"] else self.run_units
            entry["levels"] += 1
            entry["units"] += more - self.move_units * moves - once

        self.charge = charge
        start = time.process_time()
        original(self)
        entry["seconds"] = time.process_time() - start
        log.append(entry)

    lv.LevelEngine.run = run  # type: ignore[method-assign]
    try:
        yield
    finally:
        lv.LevelEngine.run = original  # type: ignore[method-assign]


@contextmanager
def unlimited() -> Iterator[None]:
    """The exact work limit lifted (a query the limit refuses is measured too)."""
    from deckcheck.draws import facade

    original = facade.EXACT_WORK_LIMIT
    facade.EXACT_WORK_LIMIT = 1 << 40
    try:
        yield
    finally:
        facade.EXACT_WORK_LIMIT = original


def measure(deck: str, conds: list[str], turn: int, second: bool, runs: int) -> dict[str, Any]:
    """The level engine's run of one query: the best of ``runs`` (None: no level engine)."""
    from bench_scaling import forget

    from deckcheck import api

    best: dict[str, Any] | None = None
    for _ in range(runs):
        forget()
        log: list[dict[str, Any]] = []
        with recorded(log), unlimited():
            api.odds(deck, conds, turn=turn, second=second)
        if not log:
            return {}
        entry = max(log, key=lambda e: e["seconds"])
        if best is None or entry["seconds"] < best["seconds"]:
            best = entry
    return best or {}


def cases(quick: bool) -> Iterator[tuple[str, str, list[str], int, bool]]:
    """(label, deck, conditions, turn, second) of the representative set."""
    decks = [("legal-80", L80), ("legal-50", L50)]
    turns = (4, 6) if quick else (2, 3, 4, 5, 6)
    counts = (12,) if quick else (8, 10, 12)
    for label, deck in decks:
        for kind in ("mixed", "types", "types1", "upper", "either"):
            for turn in turns:
                for second in (False, True):
                    for count in counts:
                        conds = family(deck, kind, count)
                        seat = "second" if second else "first"
                        yield f"{label} {kind} {count} t{turn} {seat}", deck, conds, turn, second
    # A type bounded from above over its own named cards: many digits in its group.
    buildings = [UPPER, *BUILDINGS]
    for turn in (5,) if quick else (3, 5):
        yield f"legal-80 upper-named 7 t{turn}", L80, buildings, turn, False
    # Long deals of few states a level: the levels' own steps.
    for turn in (10, 14) if quick else (8, 10, 12, 14):
        yield f"legal-80 types-only t{turn}", L80, list(TYPES), turn, False
        conds = family(L80, "mixed", 4)
        yield f"legal-80 mixed 4 t{turn}", L80, conds, turn, False
        conds = family(L80, "types", 5)
        yield f"legal-80 types 5 t{turn}", L80, conds, turn, False
        conds = ["type:building<=7", "name:Stone Bunker>=1", "name:Watchtower=1"]
        yield f"legal-80 upper 3 t{turn} second", L80, conds, turn, True


def main() -> None:
    from deckcheck.draws.exact.levels import LevelEngine
    from deckcheck.draws.exact.sequential import CALL_MICROSECONDS
    from deckcheck.draws.exact.typed import TypedLevels

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2, help="runs per query (best taken)")
    parser.add_argument("--quick", action="store_true", help="a smaller set")
    args = parser.parse_args()
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f} at start; CPU time of each engine's run\n")
    share = {
        "LevelEngine": (
            LevelEngine.units_per_call,
            LevelEngine.move_units,
            LevelEngine.run_units,
        ),
        "TypedLevels": (
            TypedLevels.units_per_call,
            TypedLevels.move_units,
            TypedLevels.run_units,
        ),
    }
    print("| query | engine | units | levels x moves | CPU s | charged s | CPU / charged |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for label, deck, conds, turn, second in cases(args.quick):
        got = measure(deck, conds, turn, second, args.runs)
        if not got or not got["levels"]:
            continue  # no level engine, or none of its levels had states to go on from
        per_call, per_move, per_run = share[got["engine"]]
        got["steps"] = got["levels"] * got["moves"]
        units = got["units"] + got["steps"] * per_move + per_run
        charged = units / per_call * CALL_MICROSECONDS / 1e6
        rows.append(got)
        print(
            f"| {label} | {got['engine']} | {got['units']:,} | {got['levels']} x "
            f"{got['moves']} | "
            f"{got['seconds']:.3f} | {charged:.3f} | {got['seconds'] / charged:.2f} |"
        )
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end\n")
    for engine, charges in share.items():
        own = [r for r in rows if r["engine"] == engine]
        if own:
            print(fit(engine, own, charges, CALL_MICROSECONDS))


def fit(
    engine: str, rows: list[dict[str, Any]], charges: tuple[int, int, int], call_us: float
) -> str:
    """The engine's measured costs: the (unit, move, run) costs in µs that charge every query
    at least its time with the least charged in all, against what it is charged now."""
    per_call, per_move, per_run = charges
    best: tuple[float, float, float, float] | None = None
    for run_ms in (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0):
        for i in range(4, 25):
            move_us = i * 5.0  # a level's move, µs
            unit_us = max(
                (r["seconds"] * 1e6 - run_ms * 1000 - move_us * r["steps"]) / r["units"]
                for r in rows
                if r["units"]
            )
            unit_us = max(unit_us, 0.0)
            total = sum(unit_us * r["units"] + move_us * r["steps"] + run_ms * 1000 for r in rows)
            if best is None or total < best[0]:
                best = (total, unit_us, move_us, run_ms)
    assert best is not None
    _, unit_us, move_us, run_ms = best
    worst = max(
        r["seconds"] * 1e6 / ((r["units"] + r["steps"] * per_move + per_run) / per_call * call_us)
        for r in rows
    )
    return (
        f"{engine}: {len(rows)} queries; charged {call_us / per_call:.4f} µs a unit, "
        f"{per_move / per_call * call_us:.1f} µs a level's move and "
        f"{per_run / per_call * call_us / 1000:.1f} ms a run (units_per_call {per_call}, "
        f"move_units {per_move}, run_units {per_run}); measured at most {unit_us:.4f} µs a "
        f"unit with {move_us:.0f} µs a move and {run_ms:.0f} ms a run (the least charge covering "
        f"every query); the largest CPU / charged: {worst:.2f}"
    )


if __name__ == "__main__":
    main()
