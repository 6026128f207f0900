"""Benchmark: the exact frontier, how many conditions `odds` answers exactly within a second.

For each game's bundled deck (or built-in random pile) and each turn 1 to 6, conditions are
added one at a time (the pile's cards by name, in pile order: `name:X>=1`, or with
`--mixed` the operators `>=1`, `<=1`, `=1` in turn) until the answer is simulated or the
whole command would take more than a second of CPU. Each query runs in this process (its CPU
time, the deck read and the catalog loaded beforehand) and the command's own start-up (the
same command with one condition, CPU time, warm cache) is added to it; `--whole` also times
the last exact query of each row as a whole command; `--second` asks every query going second
(the games that deal the second player another hand); `--types` asks `type:warrior>=2` and
`type:building>=2` first (Planetary Conquerors' types; a pile without them has none to
count), then the names; `--either` asks the first two names as one either-or
(`name:X>=1 | name:Y>=1`), then the others; `--attributes` asks the game's own overlapping
attribute selectors instead of names (`cases.ATTRIBUTE_CONDITIONS`: types, rarities, costs,
factions... mixing `>=`, `<=`, `=`, each card counted by several). `--pick copies` takes
the names with the most copies first (ties in pile order), `--pick fewest` those with the
fewest. It prints a Markdown table: per game and turn, "up to N conditions exact within 1 s",
the CPU seconds of that query, and what stopped the next one (the bound the answer names, or
the time).

    python bench/bench_frontier.py [--mixed] [--whole] [--second] [--types] [--either]
        [--attributes] [--most 12]
        [--turns 1-6] [--game pc] [--pick pile|copies|fewest]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from _common import REPO, cpu_times, deckcheck, installed_run, machine
from bench_scaling import forget
from cases import ATTRIBUTE_CONDITIONS

sys.path.insert(0, str(REPO))

#: (label, deck or GAME:PILE): each game's largest bundled deck, and the piles of the games
#: whose decks are not drawn from.
DECKS = [
    ("Planetary Conquerors legal-80", str(REPO / "examples/planetary-conquerors/legal-80.txt")),
    ("Planetary Conquerors legal-50", str(REPO / "examples/planetary-conquerors/legal-50.txt")),
    ("Ren Dhark terra-custom", str(REPO / "examples/ren-dhark/terra-custom.txt")),
    ("Ren Dhark blue-starter", str(REPO / "examples/ren-dhark/blue-starter.txt")),
    ("STCCG legal-klingon", str(REPO / "examples/stccg-1e/legal-klingon.txt")),
    ("STCCG legal-federation", str(REPO / "examples/stccg-1e/legal-federation.txt")),
    ("Dorn rituals", "dorn:rituals"),
    ("Dorn blessings", "dorn:blessings"),
    ("Dorn heroes", "dorn:heroes"),
    ("The Drake stack", "the-drake:stack"),
]
OPS = (">=1", "<=1", "=1")
SECOND = 1.0
#: Which names the sweep asks about first: "pile" (pile order), "copies" (most copies first),
#: "fewest" (fewest copies first); set by ``--pick``.
PICK = ["pile"]
#: Whether every query is asked going second (``--second``).
SECOND_PLAYER = [False]
#: Conditions asked before the names (``--types``): two types over named cards.
TYPES = ("type:warrior>=2", "type:building>=2")
#: Whether the sweep starts with :data:`TYPES` (``--types``).
TYPE_MIX = [False]
#: Whether the pile's first two names are asked as one either-or, ``name:X>=1 | name:Y>=1``
#: (``--either``).
EITHER = [False]
#: Whether the sweep asks the game's overlapping attribute selectors
#: (:data:`cases.ATTRIBUTE_CONDITIONS`) instead of names (``--attributes``).
ATTRIBUTES = [False]


def names(deck: str) -> list[str]:
    """The pile's card names in the order the sweep asks about them (:data:`PICK`)."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    setup, _ = categorized(open_deck(deck, make_context((), None, None)), [])
    copies: dict[str, int] = {}
    for card, n in setup.pile:
        copies[card.name] = copies.get(card.name, 0) + n
    order = list(copies)
    if PICK[0] == "copies":
        order.sort(key=lambda name: -copies[name])
    elif PICK[0] == "fewest":
        order.sort(key=lambda name: copies[name])
    return order


def conditions(deck: str, n: int, mixed: bool) -> list[str]:
    """The first ``n`` conditions of the sweep (fewer when the pile has fewer names): with
    ``--types`` the two types first, then the names; with ``--attributes`` the game's own
    attribute selectors."""
    if ATTRIBUTES[0]:
        return attributes(deck)[:n]
    pile = names(deck)
    first = list(TYPES) if TYPE_MIX[0] else []
    if EITHER[0] and len(pile) > 1:
        first.append(f"name:{pile[0]}>=1 | name:{pile[1]}>=1")
        pile = pile[2:]
    named = [f"name:{x}{OPS[i % 3] if mixed else '>=1'}" for i, x in enumerate(pile)]
    return (first + named)[:n]


def attributes(deck: str) -> list[str]:
    """The overlapping attribute selectors of ``deck``'s game (:data:`ATTRIBUTE_CONDITIONS`)."""
    game = deck.partition(":")[0] if drawn_once(deck) else Path(deck).parent.name
    return ATTRIBUTE_CONDITIONS[game]


def query(deck: str, conds: Sequence[str], turn: int | None) -> tuple[float, bool, str]:
    """CPU seconds of one `odds` query in this process, whether it was exact, and why not
    (``turn`` None: a pile drawn once, its own count of cards)."""
    from deckcheck import api

    forget()  # each query does all of its own work, as a command does
    start = time.process_time()
    report = api.odds(deck, list(conds), turn=turn, second=SECOND_PLAYER[0] and turn is not None)
    seconds = time.process_time() - start
    why = ""
    if not report.exact:
        why = next((a for a in report.assumptions if "out of reach" in a), "simulated")
    return seconds, report.exact, why


def start_up(deck: str, runs: int = 3) -> float:
    """CPU seconds of the whole command with one condition (start-up, the deck, the output)."""
    turn = [] if drawn_once(deck) else ["--turn", "1", *seat()]
    argv = [*deckcheck(), "odds", deck, conditions(deck, 1, False)[0], *turn]
    return statistics.median(cpu_times(argv, runs))


def seat() -> list[str]:
    """The command's option for the seat the sweep asks from (:data:`SECOND_PLAYER`)."""
    return ["--second"] if SECOND_PLAYER[0] else []


def drawn_once(deck: str) -> bool:
    """Whether ``deck`` is a built-in pile (``GAME:PILE``): drawn once, no turns."""
    return not deck.startswith(str(REPO))


def whole(deck: str, conds: Sequence[str], turn: int | None, runs: int = 3) -> float:
    """Median CPU seconds of the whole `deckcheck odds DECK c1 ... --turn T` command."""
    when = [] if turn is None else ["--turn", str(turn), *seat()]
    argv = [*deckcheck(), "odds", deck, *conds, *when]
    return statistics.median(cpu_times(argv, runs))


def row(
    label: str, deck: str, turn: int | None, most: int, mixed: bool, base: float
) -> tuple[str, int, float, str]:
    """The frontier of one deck and turn: (label, N, seconds of the N-condition command, what
    stopped N + 1)."""
    query(deck, conditions(deck, 1, mixed), turn)  # the deck read, the catalog loaded
    reached, seconds, stop = 0, 0.0, f"all {most} asked"
    top = min(most, len(conditions(deck, most, mixed)))
    if top < most:
        stop = f"the list has {top}" if ATTRIBUTES[0] else f"the pile has {top} names"
    for n in range(1, top + 1):
        spent, exact, why = query(deck, conditions(deck, n, mixed), turn)
        total = base + spent
        if not exact:
            stop = f"{n}: {why}"
            break
        if total > SECOND:
            stop = f"{n}: exact in {total:.2f} s"
            break
        reached, seconds = n, total
    return label, reached, seconds, stop


def parse_turns(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mixed", action="store_true", help="operators >=1, <=1, =1 in turn")
    parser.add_argument("--whole", action="store_true", help="time each row's query whole")
    parser.add_argument("--second", action="store_true", help="every query going second")
    parser.add_argument(
        "--types", action="store_true", help="type:warrior>=2 type:building>=2, then the names"
    )
    parser.add_argument(
        "--either", action="store_true", help="the first two names as one either-or (>=1 each)"
    )
    parser.add_argument(
        "--attributes", action="store_true", help="the game's overlapping attribute selectors"
    )
    parser.add_argument("--most", type=int, default=12, help="most conditions asked (12)")
    parser.add_argument("--turns", default="1-6", help="turns, e.g. 1-6 or 5")
    parser.add_argument("--game", default="", help="only the decks whose label contains this")
    parser.add_argument(
        "--pick", choices=("pile", "copies", "fewest"), default="pile", help="names asked first"
    )
    args = parser.parse_args()
    PICK[0] = args.pick
    SECOND_PLAYER[0] = args.second
    TYPE_MIX[0] = args.types
    EITHER[0] = args.either
    ATTRIBUTES[0] = args.attributes
    print(machine())
    family = "mixed >=1, <=1, =1" if args.mixed else "name:X>=1"
    order = {"pile": "in pile order", "copies": "most copies first", "fewest": "fewest first"}
    family = f"{' '.join(TYPES)} then {family}" if args.types else family
    family = f"the first two as name:X>=1 | name:Y>=1, {family}" if args.either else family
    family += ", going second" if args.second else ""
    what = f"the pile's names {order[args.pick]}, {family}"
    if args.attributes:
        what = "the game's overlapping attribute selectors (cases.ATTRIBUTE_CONDITIONS)"
        what += ", going second" if args.second else ""
    print(f"conditions: {what}; one core, CPU time\n")
    print("| deck | turn | exact within 1 s | CPU s (command) | next |")
    print("|---|---|---|---|---|")
    with installed_run():
        for label, deck in DECKS:
            if args.game.lower() not in label.lower():
                continue
            base = start_up(deck)
            turns: list[int | None] = [None] if drawn_once(deck) else [*parse_turns(args.turns)]
            for turn in turns:
                name, n, seconds, stop = row(label, deck, turn, args.most, args.mixed, base)
                if args.whole and n:
                    seconds = whole(deck, conditions(deck, n, args.mixed), turn)
                when = "the draw" if turn is None else turn
                print(f"| {name} | {when} | up to {n} | {seconds:.2f} | {stop} |", flush=True)


if __name__ == "__main__":
    main()
