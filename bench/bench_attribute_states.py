"""Benchmark: what an exact answer to overlapping attribute selectors must visit, per turn.

`bench_frontier.py --attributes` asks each game's own overlapping selectors
(`cases.ATTRIBUTE_CONDITIONS`: types, rarities, costs, each card counted by several) and
finds Planetary Conquerors' return mulligan and look-ahead out of reach after turn 2. This
counts why, for the twelve conditions on a Planetary Conquerors deck, per turn and seat,
with every limit lifted: the classes the selectors split the pile into; the opening hands
(compositions of the hand over them) the return table weighs, the distinct capped counts
among them, the hands those counts alone leave open and the distinct states of them the
recursion values (`draws/exact/returned.py`); then what values the states past the hands
(each one held per class that can still change a count, cards left, the look spent or not):
by default the level engine over overlapping selectors (`draws/exact/attributes.py`): the
states it lists, the children it makes, the work it is charged (in the recursion's calls)
and its CPU time; with ``--recursion`` the recursion instead: the states it values, per card
held past the hand, and its calls (the work charged past the estimate: one a call, more a
state for many classes), up to ``--most`` calls (`>` when stopped there). The CPU time is the
return table's whole (the plain pass, the table and the states past the hands).

    python bench/bench_attribute_states.py [--deck legal-80] [--turns 1-6] [--most 3000000]
        [--recursion]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

from _common import REPO, machine
from bench_call_charge import bound_problem
from cases import ATTRIBUTE_CONDITIONS

sys.path.insert(0, str(REPO))

DECKS = {
    "legal-80": str(REPO / "examples/planetary-conquerors/legal-80.txt"),
    "legal-50": str(REPO / "examples/planetary-conquerors/legal-50.txt"),
}


def row(deck: str, turn: int, second: bool, most: int, recursion: bool) -> str:
    """One Markdown row: the counts of the query at ``turn`` from ``second``'s seat
    (``recursion``: the recursion values the states past the hands, not the level engine)."""
    from deckcheck.core.numeric import np
    from deckcheck.draws.answer import Intractable
    from deckcheck.draws.exact.returned import _multisets
    from deckcheck.draws.exact.sequential import SequentialEngine
    from deckcheck.draws.model import Query

    conds = ATTRIBUTE_CONDITIONS["planetary-conquerors"]
    problem, procedure, seen = bound_problem(deck, conds, turn, second)
    engine = SequentialEngine(problem, procedure, Query(seen, second=second), (), 10**12)
    engine.use_attributes = not recursion
    count = procedure.mulligan.count
    estimate = engine.estimate(count, None)
    engine.work = engine.prepaid = estimate
    engine.budget = estimate + most
    sizes, h, cond = engine.red.sizes, engine.hand, engine.red.cond
    rows, _ = _multisets(np.asarray(sizes, dtype=np.int64), h)
    held = np.zeros((len(rows), len(sizes)), dtype=np.int64)
    for i in range(h):
        np.add.at(held, (np.arange(len(rows)), rows[:, i]), 1)
    vectors: dict[tuple[int, ...], bool | None] = {}
    open_hands = 0
    keys = set()
    for comp in map(tuple, held.tolist()):
        vec = cond.of(comp)
        if vec not in vectors:
            vectors[vec] = engine._decided(vec, h) if engine.lookahead else engine._holds(vec)
        if vectors[vec] is None:
            open_hands += 1
            keys.add((vec, tuple(comp[c] for c in engine._split(vec)[0])))
    start = time.process_time()
    stopped = ""
    try:
        engine.without_mulligan()
        engine.return_table(count)
    except Intractable:
        stopped = ">"
    seconds = time.process_time() - start
    head = (
        f"| {turn} | {'second' if second else 'first'} | {seen} | {len(sizes)} | {len(rows):,} | "
        f"{len(vectors):,} | {open_hands:,} | {len(keys):,} | "
    )
    levels = engine._attributes
    if not recursion and levels is not None:
        return (
            f"{head}{stopped}{levels.listed:,} | {levels.made:,} children | "
            f"{stopped}{engine.work - estimate:,} | {seconds:.2f} |"
        )
    past = Counter(key[2] - h for key in engine.memo if key[2] >= h)  # type: ignore[operator]
    per_card = " / ".join(f"{past[k]:,}" for k in sorted(past)) or "none"
    return (
        f"{head}{stopped}{engine.valued:,} | {per_card} | {stopped}{engine.work - estimate:,} | "
        f"{seconds:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deck", choices=sorted(DECKS), default="legal-80")
    parser.add_argument("--turns", default="1-6", help="turns, e.g. 1-6 or 3")
    parser.add_argument("--most", type=int, default=3_000_000, help="most calls a query takes")
    parser.add_argument(
        "--recursion", action="store_true", help="the recursion past the hands, not the levels"
    )
    args = parser.parse_args()
    low, _, high = args.turns.partition("-")
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f} at start; {args.deck}, twelve conditions\n")
    engine = "per card past the hand" if args.recursion else "children made (levels)"
    print(
        "| turn | seat | cards seen | classes | hands | capped counts | hands open | "
        f"their states | states valued | {engine} | calls | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for turn in range(int(low), int(high or low) + 1):
        for second in (False, True):
            print(row(DECKS[args.deck], turn, second, args.most, args.recursion), flush=True)


if __name__ == "__main__":
    main()
