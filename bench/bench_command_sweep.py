"""Benchmark: `simulate` or `mulligan` swept over every game's bundled examples.

For each deck or pile of `bench_frontier.py` (`DECKS`), three families of conditions (the
game's overlapping attribute selectors, `cases.ATTRIBUTE_CONDITIONS`; the pile's names with
the operators `>=1`, `<=1`, `=1` in turn; the first two names as one either-or, then the
others), a number of conditions each (`--counts`, default 2, 4, ..., 12) and the turns 1 to
6 (a pile drawn once: its own draw), the command runs in this process (`typer`'s runner, the
engines' kept tables dropped before each, as `bench_scaling.forget` does) and its CPU time is
taken. `simulate` runs with a seed per case (so two checkouts deal the same games) and,
with six and twelve conditions on Planetary Conquerors and Ren Dhark, going second too;
`mulligan` once as shown and once with `--all`. It prints, per deck, how many commands were
answered and refused, the slowest of each with its CPU seconds (the start-up, about 0.3 s
on a quiet core, not included), and the slowest commands overall. `--out FILE` writes every
command's arguments, exit code, CPU seconds and output (one JSON object a line) to compare
two checkouts' outputs byte for byte.

    python bench/bench_command_sweep.py [--command simulate|mulligan] [--counts 2,4,6]
        [--turns 1-6] [--game pc] [--out FILE] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from _common import REPO, machine
from bench_frontier import DECKS, OPS, drawn_once, names, parse_turns
from bench_scaling import forget
from cases import ATTRIBUTE_CONDITIONS

sys.path.insert(0, str(REPO))


def families(deck: str) -> dict[str, list[str]]:
    """The three lists of conditions asked of ``deck`` (see the module)."""
    pile = names(deck)
    game = deck.partition(":")[0] if drawn_once(deck) else deck.split("/")[-2]
    mixed = [f"name:{x}{OPS[i % 3]}" for i, x in enumerate(pile)]
    either = [f"name:{pile[0]}>=1 | name:{pile[1]}>=1", *mixed[2:]] if len(pile) > 1 else []
    return {"attributes": ATTRIBUTE_CONDITIONS[game], "mixed": mixed, "either-or": either}


def commands(command: str, deck: str, counts: list[int], turns: list[int]) -> Iterator[list[str]]:
    """The arguments of every command asked of ``deck``."""
    for conds in families(deck).values():
        for n in counts:
            if n > len(conds) and n != counts[0]:
                continue
            for turn in [None] if drawn_once(deck) else turns:
                when = [] if turn is None else ["--turn", str(turn)]
                head = [command, deck, *conds[:n], *when]
                if command == "mulligan":
                    yield head
                    yield [*head, "--all"]
                    continue
                yield [*head, "--seed", str(n + (turn or 0))]
                if turn is not None and n in (6, 12) and "/examples/stccg-1e/" not in deck:
                    yield [*head, "--seed", str(n + turn), "--second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--command", choices=("simulate", "mulligan"), default="simulate")
    parser.add_argument("--counts", default="2,4,6,8,10,12", help="numbers of conditions")
    parser.add_argument("--turns", default="1-6", help="turns, e.g. 1-6, 5 or 1,3,6")
    parser.add_argument("--game", default="", help="only the decks whose label contains this")
    parser.add_argument("--out", default="", help="every command's output, a JSON line each")
    parser.add_argument("--quick", action="store_true", help="two conditions at turn 1 only")
    args = parser.parse_args()
    from typer.testing import CliRunner

    from deckcheck.cli.app import app

    counts = [2] if args.quick else [int(c) for c in args.counts.split(",")]
    turns = [1] if args.quick else [t for part in args.turns.split(",") for t in parse_turns(part)]
    runner = CliRunner()
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    print(machine())
    print(f"{args.command}, in process, CPU seconds (start-up not included)\n")
    print("| deck | answered | slowest answered | refused | slowest refused |")
    print("|---|---:|---:|---:|---:|")
    every: list[tuple[float, list[str]]] = []
    for label, deck in DECKS:
        if args.game.lower() not in label.lower():
            continue
        done: dict[bool, list[float]] = {True: [], False: []}
        for argv in commands(args.command, deck, counts, turns):
            forget()
            start = time.process_time()
            result = runner.invoke(app, argv)
            seconds = time.process_time() - start
            done[result.exit_code == 0].append(seconds)
            every.append((seconds, argv))
            if out is not None:
                shown = [a.replace(str(REPO) + "/", "") for a in argv]
                line = {"args": shown, "rc": result.exit_code, "cpu": round(seconds, 3)}
                out.write(json.dumps({**line, "out": result.output}) + "\n")
        most = {k: f"{max(v):.2f}" if v else "-" for k, v in done.items()}
        answered, refused = len(done[True]), len(done[False])
        print(f"| {label} | {answered} | {most[True]} | {refused} | {most[False]} |", flush=True)
    if out is not None:
        out.close()
    print("\nslowest:")
    for seconds, argv in sorted(every, key=lambda x: -x[0])[:10]:
        print(f"{seconds:.2f}  {Path(argv[1]).name} {' '.join(argv[2:])}"[:160])


if __name__ == "__main__":
    main()
