"""The tie-breaks solved exactly: each warning rule's clean form agrees with its check, and
among all nearest legal decks (brute force over small zoned decks) ``fix`` chooses the one
best by the stated order: fewest new warnings, fewest off-side copies, fewest of the deck's
copies lost, fewest new copies, fewest distinct new cards."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from deckcheck.analysis.odds import OddsOptions
from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.base import clean_name
from deckcheck.games.linear import Helper, RuleConstraints, System, deck_values
from deckcheck.games.registry import get_game
from deckcheck.games.setaside import placement, places
from deckcheck.games.stccg import GAME
from deckcheck.solve.nearest import nearest_legal
from deckcheck.solve.ties import mixed_side, off_side
from tests.solve.test_zoned_solve import (
    CATALOG,
    DILEMMAS,
    FED,
    MISSIONS,
    OUTPOST,
    _chance,
    _deck,
    _legal,
    _seeded,
    _state,
    _within,
    _write,
)

KLINGON_OUTPOST, ROMULAN_OUTPOST = "101_105", "101_106"
KLAESTRON = "112_084"  # an Outpost of two affiliations
WARNING_RULES = ("stccg.type-outside-rules", "stccg.outpost-mission", "stccg.seed-limits")


@functools.cache
def _clean_form(game_id: str, code: str, variant_name: str, placed: bool) -> RuleConstraints:
    game = get_game(game_id)
    variant = game.variant(variant_name)
    if variant.set_aside is not None:
        variant = dataclasses.replace(variant, set_aside=placement(variant.set_aside, placed))
    rc = game.clean(code, game.bundled_catalog(), variant)
    assert rc is not None
    return rc


@functools.cache
def _clean_systems(
    game_id: str, code: str, variant_name: str, placed: bool
) -> tuple[System, System]:
    """The clean form as :func:`satisfiable` reads it, read once: as stated, and with its
    helper held at 1."""
    rc = _clean_form(game_id, code, variant_name, placed)
    ok = clean_name(code)
    helpers = [Helper(ok, 1, 1) if h.name == ok else h for h in rc.helpers]
    return System(rc.linear, rc.helpers), System(rc.linear, helpers)


def _clean_holds(game_id: str, code: str, variant_name: str, deck: Deck, placed: bool) -> bool:
    game = get_game(game_id)
    stated, clean = _clean_systems(game_id, code, variant_name, placed)
    values = deck_values(deck, next((z.name for z in game.zones if z.counted), None))
    assert stated.satisfiable(values)  # with the helper 0, always
    return clean.satisfiable(values)


def _random(seed: int, variant: str, n: int) -> list[Deck]:
    """Small zoned decks of missions, dilemmas, artifacts, Outposts and personnel."""
    rng = random.Random(seed)
    pool = [c for c in CATALOG if c.get("premiere")]
    missions = [c for c in pool if c.has_type("Mission")]
    dilemmas = [c for c in pool if c.has_type("Dilemma")][:6]
    artifacts = [c for c in pool if c.has_type("Artifact")][:4]
    outposts = [c for c in pool if c.has_type("Outpost")]
    people = [c for c in pool if c.has_type("Personnel")][:6]
    decks = []
    for k in range(n):
        entries = []
        for _ in range(rng.randint(1, 4)):
            entries.append(DeckEntry(rng.choice(missions), 1, zone="Missions"))
        for kind in (dilemmas, artifacts, outposts, people):
            for _ in range(rng.randint(0, 2)):
                zone = rng.choice([None, "Seed+Dil", "Seed+Dil", "Missions"])
                entries.append(DeckEntry(rng.choice(kind), rng.choice([1, 2, 3]), zone=zone))
        decks.append(Deck(f"w{k}", GAME.id, variant, tuple(entries)))
    return decks


WARNED = [n for n, v in GAME.variants.items() if set(WARNING_RULES) & set(v.rules)]


@pytest.mark.parametrize("variant_name", WARNED)
def test_stccg_clean_forms_agree_with_the_checks(variant_name: str) -> None:
    """For every STCCG warning rule: its clean form can hold exactly when the rule warns of
    nothing, on zoned decks and on decks without zones."""
    variant = GAME.variant(variant_name)
    seen = {True: 0, False: 0}
    for deck in _random(len(variant_name), variant_name, 80):
        rules = variant.set_aside
        placed = rules is not None and places(deck, rules)
        for code in WARNING_RULES:
            if code not in variant.rules:
                continue
            found = [
                v for v in GAME.rule(code)(deck, CATALOG, variant) if v.severity is Severity.WARNING
            ]
            holds = _clean_holds(GAME.id, code, variant_name, deck, placed)
            assert holds == (not found), (code, deck.entries, found)
            seen[holds] += 1
    assert seen[True] and seen[False]


def test_ren_dhark_colour_clean_form_agrees_with_the_check() -> None:
    game = get_game("ren-dhark")
    catalog = game.bundled_catalog()
    variant_name = game.spec.game.default_variant
    variant = game.variant(variant_name)
    coloured = [c for c in catalog if c.get("colour")]
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for k in range(60):
        cards = rng.sample(coloured, rng.randint(1, 4))
        deck = Deck(f"rd{k}", game.id, variant_name, tuple(DeckEntry(c, 1) for c in cards))
        found = [v for v in game.rule("rd.colour")(deck, catalog, variant)]
        holds = _clean_holds(game.id, "rd.colour", variant_name, deck, False)
        assert holds == (not found)
        seen[holds] += 1
    assert seen[True] and seen[False]


# ------------------------------------------------------------ the order, against brute force


class _Order:
    """An answer's place in the tie-break order (smaller is better), against one original
    deck (what the original gives is worked out once for every candidate)."""

    def __init__(self, original: LoadedDeck) -> None:
        self.original = original
        self.had = {
            v.code for v in validate_loaded(original).violations if v.severity is Severity.WARNING
        }
        self.own = original.deck.counts()
        self.off = off_side(original)
        self.mixed = mixed_side(original)

    def key(self, state: Mapping[tuple[str, str], int], report: Report) -> tuple[int, ...]:
        """The place of ``state``, whose deck ``report`` validated."""
        warned = {v.code for v in report.violations if v.severity is Severity.WARNING}
        totals: dict[str, int] = {}
        for (i, _), n in state.items():
            totals[i] = totals.get(i, 0) + n
        off, mixed, own = self.off, self.mixed, self.own
        new = {i: n for i, n in totals.items() if n and i not in own}
        return (
            len(warned - self.had),
            sum(n for i, n in new.items() if off(CATALOG.by_id(i))),  # type: ignore[arg-type]
            sum(
                n
                for i, n in new.items()
                if not off(CATALOG.by_id(i)) and mixed(CATALOG.by_id(i))  # type: ignore[arg-type]
            ),
            sum(max(0, n - totals.get(i, 0)) for i, n in own.items()),
            sum(new.values()),
            len(new),
        )


def _distance(start: Mapping[tuple[str, str], int], state: Mapping[tuple[str, str], int]) -> int:
    up: dict[str, int] = {}
    down: dict[str, int] = {}
    for cell in set(start) | set(state):
        d = state.get(cell, 0) - start.get(cell, 0)
        if d > 0:
            up[cell[0]] = up.get(cell[0], 0) + d
        elif d < 0:
            down[cell[0]] = down.get(cell[0], 0) - d
    return sum(max(up.get(i, 0), down.get(i, 0)) for i in set(up) | set(down))


ORDER_CASES = {
    # one card too many: not the mission the Outpost stands at (a new warning)
    "standard-61": (
        "standard",
        53,
        6,
        [OUTPOST, DILEMMAS[0]],
        {KLINGON_OUTPOST: 1, DILEMMAS[1]: 1},
    ),
    # one card short: not the Klingon Outpost (a new warning, off-side), a copy of its own
    "standard-59": (
        "standard",
        51,
        6,
        [OUTPOST, DILEMMAS[0]],
        {KLINGON_OUTPOST: 1, DILEMMAS[1]: 1, FED[1]: 1},
    ),
    # one card short: a seventh copy of its own dilemma would be one more than its missions
    # (a new warning the later tie-breaks would not see), a new dilemma is none
    "standard-59-dilemmas": (
        "standard",
        46,
        6,
        [OUTPOST, *[DILEMMAS[0]] * 6],
        {DILEMMAS[0]: 7, DILEMMAS[1]: 1},
    ),
    # two cards short, none of the deck's own to hand: two copies of one new card
    "standard-58": (
        "standard",
        50,
        6,
        [OUTPOST, DILEMMAS[0]],
        {DILEMMAS[1]: 1, DILEMMAS[2]: 2, DILEMMAS[3]: 1},
    ),
    # one mission too many, a Klingon Outpost to hand: a removal, never a new warning
    "warp-4-missions": (
        "warp-speed",
        20,
        4,
        [OUTPOST, DILEMMAS[0]],
        {KLINGON_OUTPOST: 1, ROMULAN_OUTPOST: 1, MISSIONS[6]: 1},
    ),
    # two seeded personnel: moved to the draw deck (kept), not removed
    "warp-2-seeded-personnel": (
        "warp-speed",
        20,
        3,
        [OUTPOST, DILEMMAS[0], *FED[:2]],
        {KLINGON_OUTPOST: 1, DILEMMAS[1]: 2},
    ),
    # 19 draw cards: a card more, of the deck's own, or a seed card moved down
    "warp-19-draw": (
        "warp-speed",
        19,
        3,
        [OUTPOST, DILEMMAS[0], DILEMMAS[1]],
        {KLINGON_OUTPOST: 1, FED[1]: 1, DILEMMAS[2]: 3},
    ),
}


@pytest.mark.parametrize("case", list(ORDER_CASES))
def test_fix_chooses_the_best_nearest_deck_by_the_stated_order(case: str, tmp_path: Path) -> None:
    variant, draw, missions, seed, extra = ORDER_CASES[case]
    loaded, caps = _seeded(tmp_path, variant, draw, missions, seed, extra)
    result = nearest_legal(loaded, owned=caps)
    assert result.status == "fixed" and result.proven
    start = _state(loaded.deck)
    order = _Order(loaded)
    best = min(
        order.key(state, report)
        for state in _within(loaded, caps, result.distance)
        if _distance(start, state) == result.distance
        and (report := validate_loaded(_deck(loaded, state))).status is Status.LEGAL
    )
    answer = _state(dataclasses.replace(loaded.deck, entries=result.entries))
    assert order.key(answer, validate_loaded(_deck(loaded, answer))) == best, (answer, best)


def test_a_seeded_card_is_moved_rather_than_removed(tmp_path: Path) -> None:
    """Warp Speed seeds one Outpost and dilemmas: two seeded Personnel are one too many seed
    card, and a move to the draw deck is one change as a removal is, keeping the copy."""
    path = tmp_path / "ws.txt"
    path.write_text(
        "game: stccg-1e\nformat: warp-speed\n20\tAltovar\nMissions:\n1\tEspionage Mission\n"
        "1\tRepair Mission\n1\tFirst Contact\nSeed+Dil:\n1\tFederation Outpost\n1\tHorta\n"
        "1\tData\n1\tGeordi La Forge\n",
        encoding="utf-8",
    )
    result = nearest_legal(load_deck(path))
    assert result.status == "fixed" and result.proven and result.distance == 1
    assert not result.changes
    (move,) = result.moved
    assert (move.source_role, move.target_role) == ("seed", "draw")
    assert move.wording().endswith(": seed → draw (Seed+Dil → Deck)")


@pytest.mark.parametrize(("changes", "seeded"), [(1, OUTPOST), (2, OUTPOST), (2, KLAESTRON)])
def test_optimize_with_seeded_and_drawn_outposts_is_proven_optimal(
    changes: int, seeded: str, tmp_path: Path
) -> None:
    """The rulebook's formats on a zoned deck: the Outpost rule takes one copy per
    affiliation, the seed zone the rest; an Outpost drawn is seeded only where none of its
    affiliation is written in the seed zone. optimize proves its answer, and no legal deck
    within the changes (brute force, zone by zone) does better."""
    path = _write(
        tmp_path,
        "standard",
        {
            "Deck": [(51, FED[0]), (1, OUTPOST)],
            "Missions": [(1, m) for m in MISSIONS[:6]],
            "Seed+Dil": [(1, seeded), (1, DILEMMAS[0])],
        },
    )
    loaded = load_deck(path)
    conditions = ["type:Outpost>=1"]
    options = OddsOptions(seen=7)
    owned = {OUTPOST: 2, KLINGON_OUTPOST: 1, KLAESTRON: 2, DILEMMAS[1]: 1}
    totals = loaded.deck.counts()
    caps = {i: max(totals.get(i, 0), owned.get(i, 0)) for i in [*totals, *owned]}
    result, _ = optimize_loaded(loaded, conditions, options, changes=changes, owned=caps)
    # every deck within the changes scored, then validated best first: the first legal one
    # has the best chance of the legal ones (most decks are never validated)
    decks = [_deck(loaded, state) for state in _within(loaded, caps, changes)]
    scored = sorted(
        ((_chance(near, conditions, options), k) for k, near in enumerate(decks)),
        key=lambda pair: (-pair[0], pair[1]),
    )
    best = next(chance for chance, k in scored if _legal(decks[k]))
    assert result.status == "optimal" and result.after == best
