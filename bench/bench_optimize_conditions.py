"""Benchmark: `optimize` with three and four conditions on the bundled examples of every game.

Target: a proven answer within 2 s on one core for the bundled examples with K <= 6 changes.
Each case is the whole command as users run it (``deckcheck optimize DECK CONDITION...
--turn T --changes K --json``: the deck and its catalog read, the search, the answer checked
as ``odds`` and ``validate`` see it, the curves by turn, the output), run in a fresh process
of its own so that no case inherits another's tables (the catalogs' cache warmed first, as a
user's is after a first run); CPU seconds (``time.process_time``,
steadier than wall time on a shared machine) from the command line parsed to the output
written. What every command pays before that (the interpreter, the imports, scipy's solver)
is measured once and printed as the start-up line: add it for the whole process. Beside each
time, the proof's counts, so what grows (mixes scored, ruled out by the bound, unreachable)
shows.

    python bench/bench_optimize_conditions.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import time
from collections.abc import Sequence

from _common import REPO, installed_run, machine
from bench_optimize import ADV, DORN, DRAKE, PC, RD, ST

#: (label, deck, variant, conditions, turn): the first three conditions, then all four.
CASES: list[tuple[str, str, str | None, list[str], int | None]] = [
    (
        "ren-dhark",
        RD,
        None,
        ["type:ship>=2", "POINT OF>=1", "type:action<=3", "type:person>=1"],
        3,
    ),
    (
        "planetary-conquerors",
        PC,
        None,
        ["type:warrior>=2", "type:building>=1", "type:miner>=1", "type:trap<=1"],
        3,
    ),
    (
        "stccg standard",
        ST,
        None,
        ["type:Personnel>=3", "type:Ship>=1", "type:Event>=1", "type:Interrupt<=2"],
        3,
    ),
    (
        "stccg advanced",
        ADV,
        None,
        ["type:Personnel>=3", "type:Ship>=1", "type:Event>=1", "type:Interrupt<=2"],
        3,
    ),
    (
        "dorn random-party",
        DORN,
        "random-party",
        ["recommended:true>=3", "name:Kaerdrak>=1", "name:Choros>=1", "name:Gor<=0"],
        None,
    ),
    (
        "the-drake random",
        DRAKE,
        "random",
        ["name:Drake<=0", "name:Swordsman<=0", "name:Archer<=0", "name:Mnich<=0"],
        None,
    ),
]


def arguments(case: int, n: int, k: int) -> list[str]:
    """The command line (after ``deckcheck``) of a case with its first ``n`` conditions."""
    _label, deck, variant, conditions, turn = CASES[case]
    argv = ["optimize", deck, *conditions[:n], "--changes", str(k), "--json"]
    if turn is not None:
        argv += ["--turn", str(turn)]
    if variant is not None:
        argv += ["--variant", variant]
    return argv


def start_up() -> float:
    """Import what an ``optimize`` command imports and solve a first programme (scipy's
    HiGHS pays its own start-up there): CPU seconds."""
    start = time.process_time()
    from scipy.optimize import milp

    import deckcheck.cli.app
    import deckcheck.commands.optimize
    import deckcheck.solve.optimize  # noqa: F401

    milp([1.0], integrality=[1], bounds=(0, 1))
    return time.process_time() - start


def one(case: int, n: int, k: int) -> None:
    """In this process: the start-up, then the command, timed; one JSON line out."""
    from deckcheck.cli.app import app_for

    first = start_up()
    argv = arguments(case, n, k)
    out = io.StringIO()
    start = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        app_for(argv)(args=argv, prog_name="deckcheck", standalone_mode=False)
    seconds = time.process_time() - start
    print(json.dumps({"start_up": first, "seconds": seconds, "answer": json.loads(out.getvalue())}))


def line(label: str, k: int, seconds: float, answer: dict[str, object]) -> str:
    """One result as a line of the table."""
    proof = answer["proof"]
    assert isinstance(proof, dict)
    p = float(answer.get("probability") or "nan")  # type: ignore[arg-type]
    return (
        f"{label:<26} K={k:<2} {seconds:6.2f} s  {proof['status']:<10} p={p:.6f}"
        f"  mixes {proof['mixes']:>5}  scored {proof['evaluated']:>5}"
        f"  bound {proof['ruled_out_by_bound']:>5}  unreachable {proof['unreachable']:>4}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the cases (see the module's description)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="K = 2 only (a smoke run)")
    parser.add_argument("--one", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        one(*args.one)
        return 0
    print(machine())
    ks = [2] if args.quick else [2, 4, 6]
    worst = 0.0
    starts: list[float] = []
    with installed_run():
        # each deck's catalog read once first, as a user's cache holds it after a first run
        for _label, deck, variant, _conditions, _turn in CASES:
            warm = [sys.executable, "-m", "deckcheck", "validate", deck]
            warm += ["--variant", variant] if variant else []
            subprocess.run(warm, cwd=REPO, capture_output=True, check=False)
        for case, (label, *_rest) in enumerate(CASES):
            for n in (3, 4):
                for k in ks:
                    child = subprocess.run(
                        [sys.executable, __file__, "--one", str(case), str(n), str(k)],
                        cwd=REPO,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    got = json.loads(child.stdout.splitlines()[-1])
                    starts.append(got["start_up"])
                    worst = max(worst, got["seconds"])
                    print(line(f"{label}, {n}", k, got["seconds"], got["answer"]), flush=True)
    print(f"start-up before each command (imports, HiGHS): {min(starts):.2f}-{max(starts):.2f} s")
    print(f"slowest command: {worst:.2f} s (target: 2 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
