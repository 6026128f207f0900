"""Write the STCCG example decks (examples/stccg-1e/) from the bundled Premiere cards.

Re-runnable and deterministic: picks the first cards of each kind in catalog order, so the
examples are real Premiere decks whatever the rest of the catalog holds.

    python tools/make_stccg_examples.py
"""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "examples" / "stccg-1e"


def premiere() -> list[dict]:
    """Every Premiere card of the bundled catalog, in catalog order."""
    data = tomllib.loads((REPO / "catalogs" / "stccg-1e" / "cards.toml").read_text("utf-8"))
    return [c for c in data["cards"] if c.get("premiere")]


def pick(cards: list[dict], kind: str, n: int, affiliation: str | None = None) -> list[dict]:
    """The first ``n`` cards of a type (and affiliation, if given)."""
    found = [
        c
        for c in cards
        if c["type"] == kind and (affiliation is None or affiliation in c.get("affiliation", []))
    ]
    if len(found) < n:
        raise SystemExit(f"not enough Premiere {kind} {affiliation or ''}: {len(found)} < {n}")
    return found[:n]


def legal_deck(cards: list[dict], affiliation: str) -> list[tuple[int, dict]]:
    """60 cards: 6 missions, 1 outpost, 14 dilemmas, 1 artifact (22 seeds), 38 draw cards."""
    deck: list[tuple[int, dict]] = []
    deck += [(1, c) for c in pick(cards, "Mission", 6, affiliation)]
    deck += [(1, c) for c in pick(cards, "Outpost", 1, affiliation)]
    deck += [(1, c) for c in pick(cards, "Dilemma", 14)]
    deck += [(1, c) for c in pick(cards, "Artifact", 1)]
    deck += [(1, c) for c in pick(cards, "Personnel", 18, affiliation)]
    deck += [(1, c) for c in pick(cards, "Personnel", 3, "Non-Aligned")]
    deck += [(2, c) for c in pick(cards, "Ship", 3, affiliation)]
    deck += [(1, c) for c in pick(cards, "Equipment", 3)]
    deck += [(1, c) for c in pick(cards, "Event", 5)]
    deck += [(1, c) for c in pick(cards, "Interrupt", 3)]
    assert sum(n for n, _ in deck) == 60, sum(n for n, _ in deck)
    return deck


def write(
    name: str,
    comment: str,
    deck: list[tuple[int, dict]],
    variant: str = "standard",
    extra_headers: tuple[str, ...] = (),
) -> None:
    """One deck file in deckcheck's text format, grouped by type."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [
        "game: stccg-1e",
        f"variant: {variant}",
        f"name: {name.replace('-', ' ')}",
        *extra_headers,
    ]
    kinds: dict[str, list[tuple[int, dict]]] = {}
    for n, card in deck:
        kinds.setdefault(card["type"], []).append((n, card))
    for kind, members in kinds.items():
        lines += ["", f"# {kind} ({sum(n for n, _ in members)})"]
        lines += [f"{n} {card['name']}" for n, card in members]
    (OUT / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    """Write every example."""
    OUT.mkdir(parents=True, exist_ok=True)
    cards = premiere()
    for aff in ("Federation", "Klingon", "Romulan"):
        write(
            f"legal-{aff.lower()}",
            f"A LEGAL 60-card Premiere {aff} deck: 6 missions, a {aff} Outpost, 22 seed cards\n"
            "(at most half), 38 draw cards. Written by tools/make_stccg_examples.py.",
            legal_deck(cards, aff),
        )
    fed = legal_deck(cards, "Federation")
    write(
        "illegal-size",
        "ILLEGAL: stccg.size — 61 cards (one Personnel added).",
        [*fed, (1, pick(cards, "Personnel", 19, "Federation")[18])],
    )
    write(
        "illegal-missions",
        "ILLEGAL: stccg.missions — 5 missions (one replaced by a card).",
        [
            *[x for x in fed if x[1]["type"] != "Mission"],
            *[(1, c) for c in pick(cards, "Mission", 5, "Federation")],
            (1, pick(cards, "Event", 5)[4]),
        ],
    )
    seeds_heavy = [x for x in fed if x[1]["type"] not in ("Personnel",)]
    dilemmas = pick(cards, "Dilemma", 45)
    extra = [(1, c) for c in dilemmas[14 : 14 + 9]]
    people = [x for x in fed if x[1]["type"] == "Personnel"][:12]
    deck = [*seeds_heavy, *extra, *people]
    write(
        "illegal-seed-half",
        "ILLEGAL: stccg.seed-half — 31 seed cards in 60 (6 missions, 1 outpost, 23 dilemmas,\n"
        "1 artifact).",
        _fit(deck, cards),
    )
    write(
        "illegal-outposts",
        "ILLEGAL: stccg.outposts — three Klingon Personnel but no Klingon Outpost.",
        _outposts_deck(cards),
    )
    write(
        "warning-outside-rules",
        "LEGAL with a warning: stccg.type-outside-rules — a Doorway card (a type the Premiere\n"
        "rulebook does not describe) in place of an Interrupt; it counts in the draw deck.",
        _doorway_deck(cards),
    )
    write(
        "legal-advanced-8-missions",
        "LEGAL under the advanced variant: 8 missions (at least 6, even), 70 cards.",
        _advanced_deck(cards),
        variant="advanced",
    )
    write(
        "illegal-advanced-size",
        "ILLEGAL under the advanced variant: stccg.size — 58 cards; the advanced deck is a\n"
        "larger one, at least 60 cards with no upper limit (two Interrupts taken out).",
        _without(fed, "Interrupt", 2),
        variant="advanced",
    )
    write(
        "illegal-no-outpost",
        "ILLEGAL: stccg.outposts — no Outpost at all. Only Non-Aligned Personnel and Ships, so\n"
        "no affiliation lacks its Outpost, but Personnel and Ships report for duty at an\n"
        "Outpost: without one none of them could ever be played.",
        _no_outpost_deck(cards),
    )
    write(
        "legal-second-outpost",
        "LEGAL: a second Federation Outpost stays in the draw deck. One Outpost per\n"
        "affiliation is seeded, so the seed cards are 6 missions, 1 Outpost, 22 dilemmas and\n"
        "1 artifact: 30 of 60, exactly half; the draw deck holds 30 cards, the spare Outpost\n"
        "among them.",
        _second_outpost_deck(cards),
    )
    write(
        "warning-outpost-mission",
        "LEGAL with a warning: stccg.outpost-mission — a Klingon Outpost (in place of a\n"
        "Personnel), but all six missions show only the Federation icon: it has no mission of\n"
        "the deck to stand at.",
        _swap_one(fed, "Personnel", pick(cards, "Outpost", 1, "Klingon")[0]),
    )
    write(
        "warning-seed-limits",
        "LEGAL with a warning: stccg.seed-limits — 7 copies of one dilemma but 6 missions:\n"
        "no two identical dilemmas go under one mission, so one copy cannot be seeded.",
        _seven_of_a_dilemma(cards),
    )


def _fit(deck: list[tuple[int, dict]], cards: list[dict]) -> list[tuple[int, dict]]:
    """Pad or trim non-seed cards so the deck has exactly 60 cards."""
    total = sum(n for n, _ in deck)
    fillers = pick(cards, "Interrupt", 30)
    i = 3
    while total < 60:
        deck.append((1, fillers[i]))
        i += 1
        total += 1
    while total > 60:
        for j in range(len(deck) - 1, -1, -1):
            if deck[j][1]["type"] in ("Personnel", "Interrupt", "Event"):
                deck.pop(j)
                total -= 1
                break
    return deck


def _outposts_deck(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    people = [x for x in fed if x[1]["type"] == "Personnel"]
    rest = [x for x in fed if x[1]["type"] != "Personnel"]
    klingons = [(1, c) for c in pick(cards, "Personnel", 3, "Klingon")]
    return [*rest, *people[:-3], *klingons]


def _doorway_deck(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    door = next(
        c
        for c in tomllib.loads((REPO / "catalogs" / "stccg-1e" / "cards.toml").read_text("utf-8"))[
            "cards"
        ]
        if c["type"] == "Doorway"
    )
    interrupts = [i for i, x in enumerate(fed) if x[1]["type"] == "Interrupt"]
    fed[interrupts[0]] = (1, door)
    return fed


def _advanced_deck(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    missions = [(1, c) for c in pick(cards, "Mission", 8, "Federation")]
    deck = [*[x for x in fed if x[1]["type"] != "Mission"], *missions]
    deck += [(1, c) for c in pick(cards, "Event", 13)[5:13]]
    return deck


def _without(deck: list[tuple[int, dict]], kind: str, n: int) -> list[tuple[int, dict]]:
    """The deck with its last ``n`` single cards of a type taken out."""
    out = list(deck)
    for _ in range(n):
        j = max(i for i, x in enumerate(out) if x[1]["type"] == kind and x[0] == 1)
        out.pop(j)
    return out


def _swap_one(deck: list[tuple[int, dict]], kind: str, card: dict) -> list[tuple[int, dict]]:
    """The deck with its last single card of a type replaced by ``card``."""
    return [*_without(deck, kind, 1), (1, card)]


def _no_outpost_deck(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    seeds = [x for x in fed if x[1]["type"] in ("Mission", "Dilemma", "Artifact")]
    people = [(1, c) for c in pick(cards, "Personnel", 15, "Non-Aligned")]
    ships = [(1, c) for c in pick(cards, "Ship", 5, "Non-Aligned")]
    draw = [x for x in fed if x[1]["type"] in ("Equipment", "Event", "Interrupt")]
    deck = [*seeds, *people, *ships, *draw]
    fillers = pick(cards, "Event", 30)[5:]
    while sum(n for n, _ in deck) < 60:
        deck.append((1, fillers.pop(0)))
    return deck


def _second_outpost_deck(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    more = [(1, c) for c in pick(cards, "Dilemma", 22)[14:22]]
    people = [i for i, x in enumerate(fed) if x[1]["type"] == "Personnel"]
    cut = set(people[-9:])
    deck = [x for i, x in enumerate(fed) if i not in cut]
    outpost = next(i for i, x in enumerate(deck) if x[1]["type"] == "Outpost")
    deck[outpost] = (2, deck[outpost][1])
    return [*deck, *more]


def _seven_of_a_dilemma(cards: list[dict]) -> list[tuple[int, dict]]:
    fed = legal_deck(cards, "Federation")
    dilemmas = [i for i, x in enumerate(fed) if x[1]["type"] == "Dilemma"]
    cut = set(dilemmas[8:])
    deck = [x for i, x in enumerate(fed) if i not in cut]
    last = dilemmas[7]
    deck[last] = (7, deck[last][1])
    return deck


if __name__ == "__main__":
    main()
