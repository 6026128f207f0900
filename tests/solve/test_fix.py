"""``fix``: the nearest legal deck, checked against ``validate`` and against brute force.

Brute force: every deck whose copies of each card stay within a small collection
(``--owned``) is validated with the ordinary rule functions; the fewest copies changed among
the legal ones must be what the solver proves minimal. Variants are shrunk with their own
parameters so that the search stays small.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.commands.fix import fix_deck
from deckcheck.core.violations import Status
from deckcheck.decks.load import LoadedDeck, deck_or_owned, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.registry import get_game
from deckcheck.solve.nearest import FixResult, nearest_legal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ILLEGAL = sorted(
    p for p in EXAMPLES.glob("*/*") if p.suffix == ".txt" and p.name.startswith("illegal")
)


@functools.cache
def _fixed(path: str) -> FixResult:
    """``fix`` of a deck file with the default options, solved once for the tests that ask
    the same question (the result is frozen, and only read)."""
    return fix_deck(path)


# ---------------------------------------------------------------- every illegal example


def test_every_game_has_illegal_examples() -> None:
    assert {p.parent.name for p in ILLEGAL} == {
        "ren-dhark",
        "stccg-1e",
        "planetary-conquerors",
        "dorn",
        "the-drake",
    }


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fix_makes_every_illegal_example_legal(path: Path, tmp_path: Path) -> None:
    before = validate_loaded(load_deck(path))
    assert before.status is Status.ILLEGAL
    # the answer goes next to the example, so that its relative catalog: header still works
    out = tmp_path / path.parent.name / path.name
    out.parent.mkdir()
    for overlay in path.parent.glob("*.toml"):
        shutil.copy(overlay, out.parent / overlay.name)
    result = invoke(["fix", str(path), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "fixed" and data["proven_minimal"] is True
    assert data["validation"]["status"] == "legal"
    assert data["distance"] == data["added"] + data["removed"] + data["moved"]
    # what was written reads back as a legal deck
    again = validate_loaded(load_deck(out))
    assert again.status is Status.LEGAL, again.violations


def test_a_legal_deck_needs_nothing() -> None:
    result = fix_deck(str(EXAMPLES / "dorn" / "first-game-party.txt"))
    assert result.status == "legal" and result.changes == () and result.exit_code == 0


# ------------------------------------------------------------------ minimal: brute force


def _loaded(
    tmp_path: Path,
    game: str,
    lines: list[str],
    params: Mapping[str, object],
    *,
    variant: str | None = None,
    headers: tuple[str, ...] = (),
) -> LoadedDeck:
    path = tmp_path / "deck.txt"
    head = [f"game: {game}", *([f"variant: {variant}"] if variant else []), *headers]
    path.write_text("\n".join([*head, *lines]) + "\n", encoding="utf-8")
    loaded = load_deck(path)
    return dataclasses.replace(loaded, variant=loaded.variant.with_params(params))


def _brute_force(loaded: LoadedDeck, owned: Mapping[str, int]) -> int:
    """The fewest copies changed to reach a legal deck within the collection."""
    counts = loaded.deck.counts()
    universe = list(dict.fromkeys([*counts, *owned]))
    caps = [max(counts.get(i, 0), owned.get(i, 0)) for i in universe]
    cards = {c.id: c for c in loaded.catalog}
    own = [counts.get(i, 0) for i in universe]
    # every deck within the collection, nearest first: the first legal one is the nearest
    nearest = sorted(
        itertools.product(*(range(c + 1) for c in caps)),
        key=lambda values: sum(abs(v - n) for v, n in zip(values, own, strict=True)),
    )
    for values in nearest:
        held = [i for i, v in zip(universe, values, strict=True) for _ in range(v)]
        # a game whose order matters (a Drake stack): any order of the cards will do
        orders = set(itertools.permutations(held)) if loaded.game.spec.ordered else {tuple(held)}
        for order in orders:
            entries = tuple(DeckEntry(cards[i], 1) for i in order)
            deck = dataclasses.replace(loaded.deck, entries=entries)
            if validate_loaded(dataclasses.replace(loaded, deck=deck)).status is Status.LEGAL:
                return sum(abs(v - n) for v, n in zip(values, own, strict=True))
    raise AssertionError("no legal deck within the collection")


def _check_minimal(loaded: LoadedDeck, owned: Mapping[str, int]) -> FixResult:
    result = nearest_legal(loaded, owned=deck_or_owned(loaded, owned))
    assert result.status == "fixed" and result.proven
    assert result.report is not None and result.report.status is Status.LEGAL
    counts = loaded.deck.counts()
    for change in result.changes:  # within the collection
        assert change.after <= max(counts.get(change.card.id, 0), owned.get(change.card.id, 0))
    assert result.distance == _brute_force(loaded, owned)
    return result


def test_minimal_dorn(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "dorn", ["2 Ragnar", "Giant Rat"], {"party_size": 3})
    result = _check_minimal(loaded, {"hero/gor": 1, "hero/riel": 1})
    assert result.distance == 4  # one Ragnar and the rat out, Gor and Riel in


def test_minimal_the_drake(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "the-drake", ["Clubman"], {"min_stack": 3}, variant="custom")
    assert _check_minimal(loaded, {"troop/monk": 1, "troop/archer": 2}).distance == 2


def test_minimal_the_drake_standard_stack_in_its_order(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "the-drake", ["Drake", "Monk", "Clubman"], {}, variant="basic")
    owned = {"troop/clubman": 2, "troop/spearman": 1, "troop/swordsman": 1, "troop/archer": 1}
    result = _check_minimal(loaded, owned)
    assert [c.id for c, _ in result.cards] == list(loaded.variant.param("standard_stack"))


def test_minimal_planetary_conquerors(tmp_path: Path) -> None:
    catalog = get_game("planetary-conquerors").catalog(
        [EXAMPLES / "planetary-conquerors" / "example-set.toml"]
    )
    two = next(c for c in catalog if c.get("rarity") == 2)
    three = next(c for c in catalog if c.get("rarity") == 3)
    one = next(c for c in catalog if c.get("rarity") == 1 and not c.has_type("miner"))
    loaded = _loaded(
        tmp_path,
        "planetary-conquerors",
        ["Gold Miner", f"5 {two.id}", f"2 {three.id}"],
        {"min_cards": 5, "max_cards": 6},
        headers=(f"catalog: {EXAMPLES / 'planetary-conquerors' / 'example-set.toml'}",),
    )
    owned = {"pc/collector-of-cosmium": 1, one.id: 2}
    assert _check_minimal(loaded, owned).distance == 4  # -2 two-star, -1 three-star, +collector


def test_minimal_stccg(tmp_path: Path) -> None:
    catalog = get_game("stccg-1e").bundled_catalog()
    premiere = [c for c in catalog if c.get("premiere")]

    def first(kind: str, affiliation: str | None = None) -> str:
        return next(
            c.id
            for c in premiere
            if c.types == (kind,)
            and (affiliation is None or list(c.get("affiliation") or ()) == [affiliation])
        )

    fed_mission, fed, klingon = (
        first("Mission", "Federation"),
        first("Personnel", "Federation"),
        first("Personnel", "Klingon"),
    )
    dilemma = first("Dilemma")
    loaded = _loaded(
        tmp_path,
        "stccg-1e",
        [f"1 {fed_mission}", f"3 {fed}", f"1 {klingon}", f"2 {dilemma}"],
        {"min_cards": 6, "max_cards": 6, "missions": 2},
    )
    other_mission = [c.id for c in premiere if c.types == ("Mission",)][1]
    owned = {"101_104": 2, "101_105": 1, other_mission: 1}  # Federation and Klingon Outposts
    result = _check_minimal(loaded, owned)
    assert result.distance >= 3


def test_minimal_ren_dhark_points_window_with_a_dual_card(tmp_path: Path) -> None:
    """Resource points 9-10, 2 ships and 2 persons/units, where the Syntet swarm (I/11, ship
    and unit) may count as either."""
    overlay = tmp_path / "points.toml"
    overlay.write_text(
        '[catalog]\ngame = "ren-dhark"\n'
        + "".join(
            f'[[cards]]\nid = "{i}"\nresource_points = {v}\n'
            for i, v in {"I/11": 2, "I/13": 3, "I/14": 4, "I/1": 2, "I/2": 3}.items()
        ),
        encoding="utf-8",
    )
    loaded = _loaded(
        tmp_path,
        "ren-dhark",
        ["I/13", "I/1", "2 I/28"],
        {
            "max_copies": 2,
            "points_min": 9,
            "points_max": 10,
            "min_ships": 2,
            "min_persons": 2,
            "max_actions": 1,
            "planets": 1,
        },
        variant="custom",
        headers=(f"catalog: {overlay}",),
    )
    assert validate_loaded(loaded).status is Status.ILLEGAL
    owned = {"I/11": 2, "I/14": 1, "I/2": 1, "I/67": 1}
    result = _check_minimal(loaded, owned)
    assert any(c.card.id == "I/11" and c.after for c in result.changes), result.changes


# ----------------------------------------------------------------------------- options


def test_keep_moves_the_removal_elsewhere() -> None:
    deck = str(EXAMPLES / "stccg-1e" / "illegal-size.txt")
    plain = _fixed(deck)
    [removed] = [c for c in plain.changes if c.delta < 0]
    kept = fix_deck(deck, keep=[removed.card.name])
    assert kept.distance == plain.distance == 1
    assert all(c.card.id != removed.card.id for c in kept.changes)


def test_keep_an_unknown_card_is_a_usage_error() -> None:
    result = invoke(
        ["fix", str(EXAMPLES / "stccg-1e" / "illegal-size.txt"), "--keep", "Betazoid Gif Box"]
    )
    assert result.exit_code == 2 and "Betazoid Gift Box" in result.output


def test_unreachable_names_the_rule_and_exits_1(tmp_path: Path) -> None:
    """The collection lacks a Klingon Outpost and the Klingons must stay."""
    deck = EXAMPLES / "stccg-1e" / "illegal-outposts.txt"
    loaded = load_deck(deck)
    klingons = [e.card.name for e in loaded.deck if "Klingon" in (e.card.get("affiliation") or ())]
    owned = tmp_path / "collection.txt"
    owned.write_text(
        "game: stccg-1e\n" + "".join(f"1 {e.card.id}\n" for e in loaded.deck), encoding="utf-8"
    )
    args = ["fix", str(deck), "--owned", str(owned)]
    for name in klingons:
        args += ["--keep", name]
    result = invoke([*args, "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "unreachable"
    assert "stccg.outposts" in data["conflict"]
    assert set(data["conflict"]) <= {"stccg.outposts", "--keep", "--owned"}
    text = invoke(args)
    assert text.exit_code == 1 and "stccg.outposts" in text.output and "--owned" in text.output


def test_unknown_resource_points_are_unreachable_with_the_reason() -> None:
    result = invoke(["fix", str(EXAMPLES / "ren-dhark" / "terra-unverified.txt")])
    assert result.exit_code == 1
    assert "rd.points" in result.output and "resource_points" in result.output


def test_prefer_chooses_among_the_nearest() -> None:
    deck = str(EXAMPLES / "planetary-conquerors" / "illegal-size.txt")
    for condition, kind in (("type:warrior", "warrior"), ("type:building>=1", "building")):
        result = fix_deck(deck, prefer=condition)
        added = [c for c in result.changes if c.delta > 0]
        assert added and all(c.card.has_type(kind) for c in added), result.changes
        assert result.distance == _fixed(deck).distance


def test_write_replaces_the_file_and_keeps_a_backup(tmp_path: Path) -> None:
    deck = tmp_path / "party.txt"
    original = (EXAMPLES / "dorn" / "illegal-six-heroes.txt").read_bytes()
    deck.write_bytes(original)
    result = invoke(["fix", str(deck), "--write"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "party.txt.bak").read_bytes() == original
    assert validate_loaded(load_deck(deck)).status is Status.LEGAL
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_output_to_standard_output_and_conflicting_options() -> None:
    deck = str(EXAMPLES / "the-drake" / "illegal-custom-short.txt")
    result = invoke(["fix", deck, "-o", "-"])
    assert result.exit_code == 0
    assert "game: the-drake" in result.stdout
    both = invoke(["fix", deck, "-o", "x.txt", "--write"])
    assert both.exit_code == 2


def test_a_rule_without_constraints_is_checked_on_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("dorn")
    plain = game.rules["dorn.hero"]
    monkeypatch.setitem(game.rules, "dorn.hero", plain.check)  # type: ignore[union-attr]
    result = fix_deck(str(EXAMPLES / "dorn" / "illegal-monster-in-party.txt"))
    assert any("dorn.hero is checked on the answer only" in n for n in result.notes)
    # the nearest deck the other rules allow breaks it: no legal deck is shown
    assert result.status == "unreachable" and result.conflict == ("dorn.hero",)
    assert "no legal deck found" in result.reasons[0]


def test_validate_suggest() -> None:
    illegal = str(EXAMPLES / "dorn" / "illegal-duplicate.txt")
    legal = str(EXAMPLES / "dorn" / "first-game-party.txt")
    result = invoke(["validate", illegal, legal, "--suggest", "--json"])
    assert result.exit_code == 1
    first, second = json.loads(result.stdout)
    assert first["status"] == "illegal" and first["fix"]["validation"]["status"] == "legal"
    assert second["fix"] is None
    text = invoke(["validate", illegal, "--suggest"])
    assert ("suggested fix" in text.stdout and "Vargen" in text.stdout) or "+1" in text.stdout


def test_deck_object_is_not_changed() -> None:
    loaded = load_deck(EXAMPLES / "dorn" / "illegal-duplicate.txt")
    before = loaded.deck
    nearest_legal(loaded)
    assert loaded.deck is before and isinstance(before, Deck)


def test_alike_cards_solved_as_one_variable_give_the_same_nearest_decks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The solver sees alike cards (same part in every rule, same cost) as one variable; with
    every card on its own the nearest decks are exactly as far, and as legal."""
    from deckcheck.solve.programme import Programme, deck_programme

    # Unmerged, STCCG's solve costs about a second: one of its examples is enough.
    chosen = [p for p in ILLEGAL if p.parent.name != "stccg-1e" or p.name == "illegal-size.txt"]
    merged = {path: _fixed(str(path)) for path in chosen}
    monkeypatch.setattr(Programme, "merge", False)
    for path, answer in merged.items():
        alone = fix_deck(str(path))
        assert (answer.status, answer.distance) == (alone.status, alone.distance), path
        assert answer.proven == alone.proven, path
    monkeypatch.setattr(Programme, "merge", True)
    # Merging happens: STCCG's catalog, in three zones, is far fewer groups than cards.
    stccg = deck_programme(load_deck(EXAMPLES / "stccg-1e" / "illegal-size.txt"))
    sizes = [stccg.programme.size()]
    assert min(sizes) < 1000
