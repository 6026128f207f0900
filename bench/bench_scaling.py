"""Benchmark: how the time of one `odds` query grows with conditions, deck size and turn.

Each row is one query through the library (`api.odds`), timed after a first run of the same
deck (so the deck file is parsed and the catalog loaded: what is left is the maths). Two
games: Planetary Conquerors' `legal-80.txt` (the optimal return-3 mulligan and the optimal
look-ahead, the hardest combination the engines face) and Star Trek CCG decks built here from
the catalog (a plain draw: seven cards, one a turn, no mulligan), up to every card of every
set three times (12,465 cards). It prints Markdown tables for the README: the wall time and
whether the answer was exact or simulated (the façade estimates the exact work before
starting and past its limit simulates at once, sized so that the whole command answers
within a second). The named cases also give the whole command's wall time (start-up, reading
the deck, the maths and the output, from a warm catalog cache), the figure a user waits for.

    python bench/bench_scaling.py [--quick] [--cases]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

from _common import REPO, deckcheck, installed_run, machine, wall_times
from cases import PC_CONDITIONS, RD_CONDITIONS, STCCG_CONDITIONS

sys.path.insert(0, str(REPO))

PC80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
RD = str(REPO / "examples/ren-dhark/terra-custom.txt")


def stccg_deck(folder: Path, size: int) -> str:
    """A Star Trek CCG deck file of ``size`` cards: catalog cards in order, three of each
    (every card of every set three times is 12,465)."""
    from deckcheck.games.registry import get_game

    # The catalog as the library reads it (in file order, through the catalog cache): the
    # timed queries read it anyway.
    ids = [card.id for card in get_game("stccg-1e").bundled_catalog()]
    lines = ["game: stccg-1e", "variant: standard", f"name: {size} cards", ""]
    left = size
    # Spread over the catalog (every k-th card), so small decks mix types as large ones do.
    step = max(1, len(ids) * 3 // max(size, 1))
    for card_id in ids[::step] + ids:
        if left <= 0:
            break
        n = min(3, left)
        lines.append(f"{n} {card_id}")
        left -= n
    path = folder / f"stccg-{size}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def forget() -> None:
    """Drop what the engines keep between queries (samplers, tables of hands), so that each
    timed run does all of its own work, as a command does."""
    from deckcheck.draws.exact import hypergeometric, optimal_redraw

    hypergeometric._TABLES.clear()
    optimal_redraw._TABLES.clear()
    optimal_redraw._solve.cache_clear()
    optimal_redraw._hands.cache_clear()
    try:
        from deckcheck.draws.simulate import vectorised
    except ImportError:
        return
    vectorised._SAMPLERS.clear()


def one(deck: str, conditions: Sequence[str], repeat: int, **options: object) -> tuple[float, str]:
    """Median seconds of one query (after a first run), and "exact" or "simulated"."""
    from deckcheck import api

    report = api.odds(deck, conditions, **options)  # type: ignore[arg-type]
    times = []
    for _ in range(repeat):
        forget()
        start = time.perf_counter()
        report = api.odds(deck, conditions, **options)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    rows = report.by_turn
    how = "exact" if report.exact and all(r.exact for r in rows) else "simulated"
    if rows:
        exact = sum(r.exact for r in rows)
        how += f", {len(rows)} turns" + (f" ({exact} exact)" if 0 < exact < len(rows) else "")
    return statistics.median(times), how


def ren_dhark_deck(folder: Path, copies: int) -> str:
    """A Ren Dhark deck of ``copies`` of every card of the catalog (68 cards)."""
    catalog = tomllib.loads((REPO / "catalogs/ren-dhark/cards.toml").read_text(encoding="utf-8"))
    lines = ["game: ren-dhark", "variant: custom", ""]
    lines += [f"{copies} {card['id']}" for card in catalog["cards"]]
    path = folder / f"ren-dhark-{copies * len(catalog['cards'])}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def named_cases(folder: Path, huge: str) -> list[tuple[str, str, list[str], dict[str, object]]]:
    """The reliability review's queries and the other cases the README names."""
    big_rd = ren_dhark_deck(folder, 5)
    pc, st, rd = PC_CONDITIONS[:10], STCCG_CONDITIONS, RD_CONDITIONS
    return [
        ("PC legal-80, 10 conditions, --turn 5", PC80, pc, {"turn": 5}),
        ("PC legal-80, 10 conditions, --turn 20", PC80, pc, {"turn": 20}),
        ("PC legal-80, 10 conditions, --by-turn 30", PC80, pc, {"by_turn": 30}),
        *(
            (f"STCCG 12,465 cards, 20 conditions, --turn {t}", huge, st, {"turn": t})
            for t in (1, 5, 20)
        ),
        *(
            (f"STCCG 12,465 cards, 20 conditions, --by-turn {t}", huge, st, {"by_turn": t})
            for t in (30, 200)
        ),
        # The table out of exact reach as a whole, its first rows in reach.
        ("STCCG 12,465 cards, 13 conditions, --by-turn 200", huge, st[:13], {"by_turn": 200}),
        ("RD terra-custom, 10 conditions, --by-turn 200", RD, rd, {"by_turn": 200}),
        (
            "RD terra-custom, 10 conditions, --by-turn 200 --redraw-policy always",
            RD,
            rd,
            {"by_turn": 200, "redraw_policy": "always"},
        ),
        (
            "RD 340 cards, 10 conditions, --turn 5 --redraw-policy always",
            big_rd,
            rd,
            {"turn": 5, "redraw_policy": "always"},
        ),
        ("RD 340 cards, 10 conditions, --by-turn 30", big_rd, rd, {"by_turn": 30}),
    ]


def command(deck: str, conditions: Sequence[str], repeat: int, options: dict[str, object]) -> float:
    """Median wall seconds of the whole `deckcheck odds` command (start-up, deck, maths and
    output), after a first run that warms the catalog cache."""
    flags = [f"--{key.replace('_', '-')}={value}" for key, value in options.items()]
    argv = [*deckcheck(), "odds", deck, *conditions, *flags]
    with installed_run():
        wall_times(argv, 1)
        return statistics.median(wall_times(argv, repeat))


def row(sweep: str, game: str, n: int, deck: str, turn: str, result: tuple[float, str]) -> None:
    seconds, how = result
    print(f"| {sweep} | {game} | {n} | {deck} | {turn} | {seconds * 1000:,.0f} ms | {how} |")


def main() -> int:
    """Run the sweeps and the named cases, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer points, one run each")
    parser.add_argument("--cases", action="store_true", help="only the named cases")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    conditions = (1, 2, 4, 8, 10, 15, 20) if args.quick else (1, 2, 3, 4, 6, 8, 10, 12, 15, 20)
    sizes = (40, 400, 12_465) if args.quick else (40, 80, 200, 1_000, 4_000, 12_465)
    turns = (1, 5, 30) if args.quick else (1, 2, 3, 5, 10, 20, 30)
    os.environ.setdefault("DECKCHECK_CACHE", "off")
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the start")
    print()
    print("| sweep | game | conditions | deck | turn | time | answer |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        huge = stccg_deck(folder, 12_465)
        sweeps = not args.cases
        for n in conditions if sweeps else ():
            row("conditions", "PC", n, "80", "5", one(PC80, PC_CONDITIONS[:n], repeat, turn=5))
        for n in conditions if sweeps else ():
            got = one(huge, STCCG_CONDITIONS[:n], repeat, turn=5)
            row("conditions", "STCCG", n, "12,465", "5", got)
        for size in sizes if sweeps else ():
            deck = stccg_deck(folder, size)
            got = one(deck, STCCG_CONDITIONS[:10], repeat, turn=5)
            row("deck size", "STCCG", 10, f"{size:,}", "5", got)
        for turn in turns if sweeps else ():
            got = one(PC80, PC_CONDITIONS[:4], repeat, turn=turn)
            row("turn", "PC", 4, "80", str(turn), got)
        for turn in turns if sweeps else ():
            got = one(huge, STCCG_CONDITIONS[:10], repeat, turn=turn)
            row("turn", "STCCG", 10, "12,465", str(turn), got)
        print()
        print("| case | maths (library) | whole command (wall) | answer |")
        print("|---|---|---|---|")
        for label, deck, conditions, options in named_cases(folder, huge):
            seconds, how = one(deck, conditions, repeat, **options)
            whole = command(deck, conditions, repeat, options)
            print(f"| {label} | {seconds * 1000:,.0f} ms | {whole * 1000:,.0f} ms | {how} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
