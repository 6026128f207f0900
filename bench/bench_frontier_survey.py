"""Benchmark: a random survey of the exact frontier, whole commands on every bundled deck.

`bench_frontier.py` adds conditions of fixed shapes one at a time; this survey draws queries
at random, to find what those shapes miss. For every bundled example deck of every game that
validates (legal, with warnings or unverified: `validate` exits 0 or 3; decks a game does not
draw from are left out) and every built-in random pile drawn once (Dorn's, The Drake's), it
draws ``--per-deck`` queries (seeded: the same ``--seed`` draws the same queries):

- 1 to 12 conditions (more often many), each ``SELECTOR OP COUNT``: the selector picked from
  what the deck's draw pile actually holds (``name:``, ``type:``, and the game's own catalog
  fields, e.g. ``rarity:``, ``cost_gold:``, ``faction:``, ``icons:``; long texts and nested
  values left out), the operator one of ``>=``, ``<=``, ``=``, the count around the pile's
  count of that selector: mostly 0 to 3, sometimes the pile's count, one more than it, or
  one less; now and then two conditions joined as one any-of group ``A | B`` (at most three
  groups, so at most 8 alternatives);
- one of the commands: ``odds --turn T`` (T 1 to 6, going first or second), ``odds --seen N``,
  ``odds --by-turn 6``, ``odds --expected-turn`` (with ``--turn T`` or without) and
  ``mulligan --turn T``; a pile drawn once is asked with ``--seen N`` or its own count.

Each runs as a whole command (``deckcheck ... --json``, bytecode cached and a warm catalog
cache, as an installed deckcheck runs; see ``_common.installed_run``); its CPU time is the
child process's user + system time (``resource.getrusage(RUSAGE_CHILDREN)``). A query
*fails* when

- it was simulated where it should be exact (``"exact": false``; a ``--by-turn`` row
  simulated; ``--expected-turn`` refused, or on fewer turns than asked and than 6 (without
  ``--turn`` it asks 10, and falls back to 6 or 3 where 10 are out of reach); a ``mulligan`` guide
  refused; an either-or whose mulligan was dropped, ``"mulligan": "none"``), or
- the whole command took more than ``--limit`` seconds of CPU (1 s), or
- it ended with an error other than a refusal (exit code not 0, 1 or 2, or exit 2 on a query
  the survey meant to be valid).

It prints every failure (the command line, its CPU seconds, and the bound the answer names),
then per game: queries, exact within the limit, and the failures by kind. ``--jsonl FILE``
writes one line per query (to compare two runs or two trees); ``--replay FILE`` runs the
queries of such a file again (e.g. only the failures, ``--failures-only``) instead of drawing;
``--compare A B`` reads two such files of the same queries (a replay) and lists the queries
both answer exactly with other figures (the files record each answer's exact fractions).

    python bench/bench_frontier_survey.py [--seed 1] [--per-deck 24] [--game stccg]
        [--kinds turn,seen,by-turn,expected,mulligan] [--limit 1.0] [--jsonl out.jsonl]
        [--replay out.jsonl [--failures-only]] [--runs 1]
    python bench/bench_frontier_survey.py --compare before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from _common import REPO, deckcheck, installed_run, machine

sys.path.insert(0, str(REPO))

#: The built-in random piles of the games whose decks are not drawn from (drawn once).
PILES = ["dorn:rituals", "dorn:blessings", "dorn:heroes", "the-drake:stack"]
#: Fields never asked about: free text.
SKIP_FIELDS = {"note", "text", "lore", "flavour", "flavor", "image", "url"}
#: Characters a selector's value must not hold (the condition language's own).
RESERVED = set("<>=|@\"'")
#: The turns the frontier answers exactly (an expected turn over fewer, where more were
#: asked, falls short of it).
FRONTIER_TURNS = 6
#: The opening hand per game (``--seen`` asks at least as many).
OPENING = {"planetary-conquerors": 5, "ren-dhark": 7, "stccg-1e": 7}
KINDS = ("turn", "seen", "by-turn", "expected", "mulligan")
#: How often each kind is drawn (the plain turn most often: it is what users ask).
WEIGHTS = {"turn": 8, "seen": 2, "by-turn": 2, "expected": 3, "mulligan": 2}


@dataclass
class Query:
    """One surveyed command: the deck, its game, the kind and the argument vector after the
    deck (conditions and options)."""

    game: str
    deck: str
    kind: str
    args: list[str]
    turn: int | None = None


@dataclass
class Outcome:
    """What one run of a query gave."""

    query: Query
    cpu: float
    code: int
    exact: bool
    why: str = ""
    failures: list[str] = field(default_factory=list)
    #: The exact figures the answer gives (the fraction, a table's rows, the first turns),
    #: to compare two trees' answers query by query (``--compare``).
    value: str = ""


def drawable_decks() -> list[tuple[str, str]]:
    """(game folder, deck path) of every bundled example deck a game draws from that
    validates (exit 0 or 3), then the built-in piles drawn once."""
    found = []
    for path in sorted((REPO / "examples").glob("*/*.txt")):
        rel = str(path.relative_to(REPO))
        check = subprocess.run(
            [*deckcheck(), "validate", rel], capture_output=True, cwd=REPO, check=False
        )
        if check.returncode not in (0, 3):
            continue
        if pile_of(rel) is None:
            continue
        found.append((path.parent.name, rel))
    found += [(pile.partition(":")[0], pile) for pile in PILES]
    return found


def pile_of(deck: str) -> list[tuple[object, int]] | None:
    """The deck's draw pile as (card, copies), or None where the game does not draw from it."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.core.errors import DeckcheckError
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    try:
        setup, _ = categorized(open_deck(deck, make_context((), None, None)), [])
    except DeckcheckError:
        return None
    return list(setup.pile)


def _values(value: object) -> list[str]:
    """The selector values a card field matches, as texts, or none where it is not simple."""
    if isinstance(value, bool):
        return [str(value)]
    if isinstance(value, int | str):
        return [str(value)]
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return [str(v) for v in value]
    return []


def selectors(deck: str) -> dict[str, int]:
    """Every selector the survey may ask of ``deck`` and how many cards of its pile it picks."""
    counts: collections.Counter[str] = collections.Counter()
    for card, copies in pile_of(deck) or []:
        picked = {f"name:{card.name}"}  # type: ignore[attr-defined]
        picked.update(f"type:{t}" for t in card.types)  # type: ignore[attr-defined]
        for key, value in card.fields.items():  # type: ignore[attr-defined]
            if key in SKIP_FIELDS:
                continue
            for text in _values(value):
                if len(text) <= 30 and not RESERVED & set(text) and text.strip() == text:
                    picked.add(f"{key}:{text}")
        for selector in picked:
            if not RESERVED & set(selector.partition(":")[2]):
                counts[selector] += copies
    return dict(counts)


def condition(rng: random.Random, pool: dict[str, int]) -> str:
    """One random condition over the pile's selectors, its count around the pile's."""
    selector = rng.choice(sorted(pool))
    have = pool[selector]
    roll = rng.random()
    if roll < 0.8:
        count = rng.randint(0, min(3, have))
    elif roll < 0.87:
        count = have
    elif roll < 0.93:
        count = have + 1
    else:
        count = max(0, have - 1)
    return f"{selector}{rng.choice(('>=', '<=', '='))}{count}"


def conditions(rng: random.Random, pool: dict[str, int], n: int, either: bool) -> list[str]:
    """``n`` conditions, a few of them any-of groups of two (at most three groups; none
    unless ``either``: `--by-turn`, `--expected-turn` and `mulligan` refuse them)."""
    out = [condition(rng, pool) for _ in range(n)]
    groups = rng.choice((0, 0, 1, 1, 2, 3)) if either else 0
    for i in rng.sample(range(n), min(groups, n)):
        out[i] = f"{out[i]} | {condition(rng, pool)}"
    return out


def draw_query(
    rng: random.Random, game: str, deck: str, pool: dict[str, int], kinds: Sequence[str]
) -> Query:
    """One random query on ``deck`` (``pool``: its selectors and their counts)."""
    opening = OPENING.get(game, 1)
    n = rng.choice((1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 12))
    pile = sum(pool.get(s, 0) for s in pool if s.startswith("name:"))
    if ":" in deck and not deck.endswith(".txt"):  # a pile drawn once
        conds = conditions(rng, pool, n, either=True)
        seen = ["--seen", str(rng.randint(1, pile))] if rng.random() < 0.5 else []
        return Query(game, deck, "once", [*conds, *seen, "--json"])
    kind = rng.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
    conds = conditions(rng, pool, n, either=kind in ("turn", "seen"))
    turn = rng.randint(1, 6)
    seat = ["--second"] if rng.random() < 0.5 else []
    if kind == "turn":
        return Query(game, deck, kind, [*conds, "--turn", str(turn), *seat, "--json"], turn)
    if kind == "seen":
        seen = rng.randint(opening, min(pile, opening + 10))
        return Query(game, deck, kind, [*conds, "--seen", str(seen), "--json"])
    if kind == "by-turn":
        return Query(game, deck, kind, [*conds, "--by-turn", "6", *seat, "--json"], 6)
    if kind == "expected":
        when = ["--turn", str(turn)] if rng.random() < 0.6 else []
        return Query(game, deck, kind, [*conds, "--expected-turn", *when, "--json"], turn)
    return Query(game, deck, kind, [*conds, "--turn", str(turn), *seat, "--json"], turn)


def command(query: Query) -> list[str]:
    """The whole command line of ``query``."""
    verb = "mulligan" if query.kind == "mulligan" else "odds"
    return [*deckcheck(), verb, query.deck, *query.args]


def run(query: Query, limit: float) -> Outcome:
    """Run ``query`` whole; its CPU seconds and whether it was exact, and why not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command(query), capture_output=True, text=True, cwd=REPO, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    outcome = Outcome(query, cpu, done.returncode, exact=False)
    try:
        answer = json.loads(done.stdout) if done.stdout.strip() else None
    except json.JSONDecodeError:
        answer = None
    if done.returncode == 2 or answer is None:
        outcome.why = (done.stderr.strip() or done.stdout.strip())[-300:]
        refused = "out of reach" in outcome.why or "budget" in outcome.why
        outcome.failures.append("refused" if refused else f"error (exit {done.returncode})")
    else:
        judge(outcome, answer)
    if cpu > limit:
        outcome.failures.append("slow")
    return outcome


def judge(outcome: Outcome, answer: dict) -> None:
    """Whether an answer is exact as asked, and the bound it names where it is not."""
    kind = outcome.query.kind
    outcome.value = exact_figures(answer)
    if kind == "mulligan":
        outcome.exact = True
        return
    whys = []
    exact = bool(answer.get("exact"))
    if not exact:
        whys.append((answer.get("simulation") or {}).get("why") or "simulated")
    for row in answer.get("by_turn") or []:
        if not row.get("exact"):
            exact = False
            whys.append(
                f"turn {row.get('turn')}: " + ((row.get("simulation") or {}).get("why") or "")
            )
    if answer.get("mulligan") not in (None, "rules") and "--mulligan" not in outcome.query.args:
        exact = False
        whys.append(
            f"mulligan {answer.get('mulligan')}: "
            + next((a for a in answer.get("assumptions", []) if "reach" in a or "bound" in a), "")
        )
    expected = answer.get("expected_turn")
    if kind == "expected":
        if not expected:
            exact = False
            whys.append("no expected_turn")
        elif expected["horizon"] < min(FRONTIER_TURNS, expected["horizon_wanted"]):
            # Without --turn the default is 10 turns, fewer where out of reach: the frontier
            # asks for the turns up to 6.
            exact = False
            whys.append(f"horizon {expected['horizon']} of {expected['horizon_wanted']}")
    outcome.exact = exact
    outcome.why = "; ".join(w for w in whys if w)[:400]
    if not exact:
        outcome.failures.append("simulated")


def exact_figures(answer: dict) -> str:
    """The exact fractions of an answer, in one line (empty where none is exact)."""
    got = [str(answer.get("probability_exact") or "")]
    got += [str(r.get("probability_exact") or "") for r in answer.get("by_turn") or []]
    for side in ("on_the_play", "on_the_draw"):
        turns = ((answer.get("expected_turn") or {}).get(side) or {}).get("turns") or []
        got += [str(t.get("probability_exact") or "") for t in turns]
    return " ".join(got).strip()


def compare(before: str, after: str) -> None:
    """Query by query, two runs' exact figures where both are exact: the same, or not."""
    rows = [
        (json.loads(a), json.loads(b))
        for a, b in zip(
            Path(before).read_text().splitlines(), Path(after).read_text().splitlines(), strict=True
        )
    ]
    both = [
        (a, b) for a, b in rows if a["exact"] and b["exact"] and a.get("value") and b.get("value")
    ]
    differ = [(a, b) for a, b in both if a["value"] != b["value"]]
    print(f"{len(both)} queries exact in both runs, {len(differ)} with other figures")
    for a, b in differ:
        print(f"  {a['query']['deck']} {a['query']['args']}: {a['value']} / {b['value']}")


def survey(queries: Sequence[Query], limit: float, runs: int, out: list[Outcome]) -> None:
    """Run every query (the least CPU of ``runs`` runs kept), printing failures as found."""
    for query in queries:
        best = min((run(query, limit) for _ in range(runs)), key=lambda o: o.cpu)
        if best.failures and runs > 1 and best.cpu <= limit:
            best.failures = [f for f in best.failures if f != "slow"]
        out.append(best)
        if best.failures:
            line = " ".join(f'"{a}"' if " " in a or "<" in a or ">" in a else a for a in query.args)
            print(
                f"FAIL {','.join(best.failures):<18} {best.cpu:5.2f} s  {query.deck} "
                f"[{query.kind}] {line}\n     {best.why[:300]}",
                flush=True,
            )


def report(outcomes: Sequence[Outcome], limit: float) -> None:
    """Per game: queries, exact within the limit, failures by kind."""
    head = f"exact within {limit:g} s | simulated | slow | refused | errors | slowest CPU s"
    print(f"\n| game | queries | {head} |")
    print("|---|---|---|---|---|---|---|---|")
    games = sorted({o.query.game for o in outcomes})
    for game in games:
        mine = [o for o in outcomes if o.query.game == game]
        tally = collections.Counter(f for o in mine for f in o.failures)
        errors = sum(v for k, v in tally.items() if k.startswith("error"))
        good = sum(1 for o in mine if not o.failures)
        print(
            f"| {game} | {len(mine)} | {good} | {tally['simulated']} | {tally['slow']} | "
            f"{tally['refused']} | {errors} | {max(o.cpu for o in mine):.2f} |"
        )
    kinds = sorted({o.query.kind for o in outcomes})
    print("\n| kind | queries | exact within the limit |")
    print("|---|---|---|")
    for kind in kinds:
        mine = [o for o in outcomes if o.query.kind == kind]
        print(f"| {kind} | {len(mine)} | {sum(1 for o in mine if not o.failures)} |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="the random draw's seed (1)")
    parser.add_argument("--per-deck", type=int, default=24, help="queries per deck (24)")
    parser.add_argument("--game", default="", help="only decks whose path contains this")
    parser.add_argument("--kinds", default=",".join(KINDS), help="kinds of query drawn")
    parser.add_argument("--limit", type=float, default=1.0, help="CPU seconds allowed (1.0)")
    parser.add_argument("--runs", type=int, default=1, help="runs per query, least CPU kept")
    parser.add_argument("--jsonl", default="", help="write one line per query to this file")
    parser.add_argument("--replay", default="", help="run the queries of a --jsonl file")
    parser.add_argument("--failures-only", action="store_true", help="with --replay")
    parser.add_argument(
        "--compare", nargs=2, metavar="JSONL", help="compare two --jsonl files' exact figures"
    )
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    kinds = [k for k in args.kinds.split(",") if k]
    print(machine())
    print(f"load average {os.getloadavg()[0]:.1f}; seed {args.seed}; limit {args.limit} s CPU")
    outcomes: list[Outcome] = []
    start = time.time()
    with installed_run():
        if args.replay:
            rows = [json.loads(line) for line in Path(args.replay).read_text().splitlines()]
            if args.failures_only:
                rows = [r for r in rows if r["failures"]]
            queries = [Query(**r["query"]) for r in rows if args.game in r["query"]["deck"]]
            if not queries:
                return
        else:
            rng = random.Random(args.seed)
            queries = []
            for game, deck in drawable_decks():
                pool = selectors(deck)
                drawn = [draw_query(rng, game, deck, pool, kinds) for _ in range(args.per_deck)]
                if args.game.lower() in deck.lower():
                    queries += drawn
        subprocess.run(command(queries[0]), capture_output=True, cwd=REPO, check=False)  # warm
        survey(queries, args.limit, args.runs, outcomes)
    if args.jsonl:
        with open(args.jsonl, "w") as out:
            for o in outcomes:
                out.write(json.dumps(asdict(o)) + "\n")
    report(outcomes, args.limit)
    print(
        f"\n{len(outcomes)} queries in {time.time() - start:.0f} s; load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
