"""``owned``: checked against brute force on small collections and decks (all at once, the
least to acquire, the largest set buildable at once with its tie rule), and ``fix`` under
``--collection --reserve`` against brute force over every deck within the caps."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck import api
from deckcheck.catalog.deck import DeckEntry
from deckcheck.commands.owned import owned_decks
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.violations import Status
from deckcheck.decks.collection import needed_copies, read_collection
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded

ROOT = Path(__file__).resolve().parents[2]
TROOPS = ["Drake", "Clubman", "Monk", "Spearman", "Swordsman", "Archer"]
HEROES = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor", "Gor", "Guelin", "Riel", "Vargen"]


def _write(path: Path, game: str, counts: dict[str, int]) -> Path:
    lines = [f"game: {game}"] + [f"{n} {name}" for name, n in counts.items() if n]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _largest(needs: list[Counter[str]], held: dict[str, int]) -> tuple[int, ...]:
    """Every subset, largest first, the first in the order given among those of one size."""
    k = len(needs)
    for size in range(k, -1, -1):
        for subset in itertools.combinations(range(k), size):  # lexicographic: first decks first
            total: Counter[str] = Counter()
            for d in subset:
                total.update(needs[d])
            if all(n <= held.get(c, 0) for c, n in total.items()):
                return subset
    return ()


@pytest.mark.parametrize("seed", range(12))
def test_owned_agrees_with_brute_force(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    held = {t: rng.randint(0, 3) for t in TROOPS}
    collection = _write(tmp_path / "collection.txt", "the-drake", held)
    needs, paths = [], []
    for d in range(rng.randint(2, 5)):
        counts = {t: rng.choice([0, 0, 1, 1, 2]) for t in TROOPS}
        counts[rng.choice(TROOPS)] += 1  # never empty
        needs.append(Counter({t: n for t, n in counts.items() if n}))
        paths.append(_write(tmp_path / f"deck{d}.txt", "the-drake", counts))
    report = owned_decks([str(p) for p in paths], str(collection), most=True)
    total: Counter[str] = Counter()
    for need in needs:
        total.update(need)
    extra = {t: n - held[t] for t, n in total.items() if n > held[t]}
    assert report.all_at_once == (not extra)
    assert report.exit_code == (0 if not extra else 1)
    assert {s.name: s.short for s in report.short} == extra
    for short in report.short:  # the decks contending: every deck that needs the card
        pairs = zip(paths, needs, strict=True)
        expected = [(str(p), need[short.name]) for p, need in pairs if need[short.name]]
        assert list(short.decks) == expected
    for row, need in zip(report.decks, needs, strict=True):
        assert row.buildable == all(n <= held[t] for t, n in need.items())
    assert report.most is not None and report.most.proven
    best = _largest(needs, held)
    assert report.most.decks == tuple(str(paths[i]) for i in best)


def test_zones_count_each_copy_and_variants_are_cards_of_their_own(tmp_path: Path) -> None:
    """A card in the seed deck and in the draw deck is two copies; a side zone's copies count
    (they are on the table); ``Name *VP`` is not the card ``Name``."""
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "game: stccg-1e\nSeed+Dil:\n1 Regenerate\nDeck:\n2 Regenerate\n1 Seven of Nine *VP\n"
        "QsTent:\n1 Regenerate\n",
        encoding="utf-8",
    )
    need = needed_copies(load_deck(deck))
    by_name = {need.names[k]: n for k, n in need.copies.items()}
    assert by_name == {"Regenerate": 4, "Seven of Nine *VP": 1}
    collection = _write(tmp_path / "c.txt", "stccg-1e", {"Regenerate": 4, "Seven of Nine": 1})
    report = owned_decks([str(deck)], str(collection))
    assert [(s.name, s.short, s.variant != "") for s in report.short] == [
        ("Seven of Nine *VP", 1, True)
    ]


def test_a_mixed_collection_counts_each_line_for_its_game(tmp_path: Path) -> None:
    collection = tmp_path / "mine.txt"
    collection.write_text(
        "# two games, no game line\n2 Drake\n3 Kaerdrak\nproduct: starter\n", encoding="utf-8"
    )
    held = read_collection(collection)
    assert held.of(("the-drake", "troop/drake", "")) == 2
    assert held.of(("dorn", "hero/kaerdrak", "")) == 3
    assert held.of(("ren-dhark", "I/68", "")) == 1  # the starter holds every card once
    assert held.size == 2 + 3 + 68


def test_a_line_of_two_games_or_none_is_reported(tmp_path: Path) -> None:
    collection = tmp_path / "mine.txt"
    collection.write_text("Drake\nArcher\nNo Such Card\n", encoding="utf-8")
    with pytest.raises(DeckcheckError) as caught:
        read_collection(collection)
    text = str(caught.value) + " ".join(caught.value.details)
    assert "Archer" in text and "No Such Card" in text
    assert "several games" in text


def test_products_only_where_the_data_names_them(tmp_path: Path) -> None:
    collection = tmp_path / "mine.txt"
    collection.write_text("game: stccg-1e\nproduct: premiere\n", encoding="utf-8")
    with pytest.raises(DeckcheckError, match="no product"):
        read_collection(collection)


def test_the_folder_form_and_exit_codes(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    _write(folder / "a.txt", "dorn", {h: 1 for h in HEROES[:5]})
    _write(folder / "b.txt", "dorn", {h: 1 for h in HEROES[4:9]})
    (folder / "notes.bak").write_text("ignored", encoding="utf-8")
    collection = _write(tmp_path / "c.txt", "dorn", {h: 1 for h in HEROES})
    result = invoke(["owned", folder, "--collection", collection, "--most", "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert [d["deck"] for d in data["decks"]] == [str(folder / "a.txt"), str(folder / "b.txt")]
    assert [(s["name"], s["missing"]) for s in data["short"]] == [("Eleanor", 1)]
    assert data["most"]["decks"] == [str(folder / "a.txt")]
    collection.write_text("game: dorn\nproduct: box\nEleanor\n", encoding="utf-8")
    assert invoke(["owned", folder, "--collection", collection]).exit_code == 0
    (folder / "c.txt").write_text("game: dorn\nNobody\n", encoding="utf-8")
    assert invoke(["owned", folder, "--collection", collection]).exit_code == 2


# ------------------------------------------------------------------ fix under --reserve


def _nearest(loaded: LoadedDeck, caps: dict[str, int]) -> int | None:
    """The fewest copies changed to a legal deck whose copies stay within ``caps``."""
    counts = loaded.deck.counts()
    universe = list(dict.fromkeys([*counts, *caps]))
    cards = {c.id: c for c in loaded.catalog}
    best = None
    for values in itertools.product(*(range(caps.get(i, 0) + 1) for i in universe)):
        distance = sum(abs(v - counts.get(i, 0)) for i, v in zip(universe, values, strict=True))
        if best is not None and distance >= best:
            continue
        entries = tuple(DeckEntry(cards[i], v) for i, v in zip(universe, values, strict=True) if v)
        deck = dataclasses.replace(loaded.deck, entries=entries)
        if validate_loaded(dataclasses.replace(loaded, deck=deck)).status is Status.LEGAL:
            best = distance
    return best


@pytest.mark.parametrize("seed", range(6))
def test_fix_under_reserve_agrees_with_brute_force(tmp_path: Path, seed: int) -> None:
    rng = random.Random(100 + seed)
    held = {h: rng.randint(0, 2) for h in HEROES}
    collection = _write(tmp_path / "c.txt", "dorn", held)
    reserved = {h: 1 for h in rng.sample(HEROES, 3)}
    other = _write(tmp_path / "other.txt", "dorn", reserved)
    party = {h: rng.randint(0, 2) for h in rng.sample(HEROES, 5)}
    deck = _write(tmp_path / "deck.txt", "dorn", party)
    loaded = load_deck(deck)
    ids = {c.name: c.id for c in loaded.catalog}
    caps = {ids[h]: max(0, n - reserved.get(h, 0)) for h, n in held.items()}
    expected = _nearest(loaded, caps)
    result = api.fix(str(deck), collection=str(collection), reserve=[str(other)])
    if expected is None:
        assert result.status == "unreachable" and "--collection" in result.conflict
        return
    if expected == 0:
        assert result.status == "legal"
        return
    assert result.status == "fixed" and result.proven
    assert result.distance == expected
    for card, n in result.cards:
        assert n <= caps[card.id]


def test_reserve_takes_a_legal_deck_s_copies_back(tmp_path: Path) -> None:
    """A legal party whose heroes the reserved party uses must change: the copies are taken."""
    collection = _write(tmp_path / "c.txt", "dorn", {h: 1 for h in HEROES})
    first = _write(tmp_path / "first.txt", "dorn", {h: 1 for h in HEROES[:5]})
    second = _write(tmp_path / "second.txt", "dorn", {h: 1 for h in HEROES[4:9]})
    alone = api.fix(str(second), collection=str(collection))
    assert alone.status == "legal"
    shared = api.fix(str(second), collection=str(collection), reserve=[str(first)])
    assert shared.status == "unreachable"  # 9 heroes, 5 reserved: 4 left for a party of 5


def test_reserve_needs_a_collection(tmp_path: Path) -> None:
    deck = ROOT / "examples" / "dorn" / "first-game-party.txt"
    result = invoke(["fix", deck, "--reserve", deck])
    assert result.exit_code == 2


def test_collection_add_and_remove_edit_in_place(tmp_path: Path) -> None:
    collection = tmp_path / "mine.txt"
    collection.write_text("# my cards\r\n2 Drake\r\n3 Kaerdrak\r\n", encoding="utf-8", newline="")
    added = api.collection_add(collection, "Monk", 2)
    assert (added.game, added.copies) == ("the-drake", 2)
    removed = api.collection_remove(collection, "Kaerdrak", 3)
    assert removed.copies == 0
    text = collection.read_bytes().decode()
    assert text.startswith("# my cards\r\n2 Drake\r\n") and "Kaerdrak" not in text
    assert read_collection(collection).of(("the-drake", "troop/monk", "")) == 2
    with pytest.raises(DeckcheckError):
        api.collection_remove(collection, "Drake", 5)
    assert collection.read_bytes().decode() == text  # a refused edit leaves the file as it was


def test_overlay_cards_are_known_to_the_collection(tmp_path: Path) -> None:
    """A deck's own overlay (its catalog: line) and --catalog know the cards they add; the
    collection is read with them."""
    deck = ROOT / "examples" / "planetary-conquerors" / "legal-50.txt"
    collection = tmp_path / "c.txt"
    collection.write_text("4 Gold Miner\n4 Collector of Cosmium\n3 Deep Drill\n", encoding="utf-8")
    report = owned_decks([str(deck)], str(collection))
    assert {s.name for s in report.short}.isdisjoint({"Gold Miner", "Deep Drill"})
    overlay = ROOT / "examples" / "planetary-conquerors" / "example-set.toml"
    with_flag = api.owned([deck], collection, catalogs=[overlay])
    assert with_flag.extra_copies == report.extra_copies


def test_collection_edits_keep_a_printing_variant_apart(tmp_path: Path) -> None:
    """``Name *VP`` is edited on its own lines; the card ``Name`` never takes its copies."""
    collection = tmp_path / "mine.txt"
    collection.write_text("game: stccg-1e\n3 Seven of Nine\n1 Seven of Nine *VP\n", "utf-8")
    removed = api.collection_remove(collection, "Seven of Nine", 3)
    assert (removed.copies, removed.variant) == (0, "")
    added = api.collection_add(collection, "Seven of Nine *VP", 2)
    assert (added.copies, added.variant) == (3, "Seven of Nine *VP")
    assert collection.read_text("utf-8") == "game: stccg-1e\n3 Seven of Nine *VP\n"
    held = read_collection(collection)
    assert [(held.names[k], n) for k, n in held.copies.items()] == [("Seven of Nine *VP", 3)]


def test_the_command_line_shows_the_table_and_the_edit(tmp_path: Path) -> None:
    collection = _write(tmp_path / "c.txt", "the-drake", {"Drake": 1, "Clubman": 3})
    first = _write(tmp_path / "a.txt", "the-drake", {"Drake": 1, "Clubman": 2})
    second = _write(tmp_path / "b.txt", "the-drake", {"Drake": 1, "Clubman": 1})
    shown = invoke(["owned", first, second, "--collection", collection, "--most"])
    assert shown.exit_code == 1
    assert (
        "acquire 1 copy of 1 card" in shown.stdout and "most decks at once: 1 of 2" in shown.stdout
    )
    edited = invoke(["collection", "add", collection, "Drake"])
    assert edited.exit_code == 0 and "+1 Drake" in edited.stdout
    assert invoke(["owned", first, second, "--collection", collection]).exit_code == 0


def test_a_collection_folder_adds_its_files_up(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    _write(folder / "drake.txt", "the-drake", {"Drake": 1, "Archer": 2})
    _write(folder / "more-drake.txt", "the-drake", {"Drake": 1})
    _write(folder / "dorn.txt", "dorn", {"Gor": 1})
    (folder / "old.txt.bak").write_text("not read", encoding="utf-8")
    held = read_collection(folder)
    assert held.of(("the-drake", "troop/drake", "")) == 2
    assert held.of(("the-drake", "troop/archer", "")) == 2  # a game: line: Archer is the Drake's
    assert held.of(("dorn", "hero/gor", "")) == 1
    deck = _write(tmp_path / "stack.txt", "the-drake", {"Drake": 2, "Archer": 1})
    assert owned_decks([str(deck)], str(folder)).exit_code == 0


def test_optimize_under_reserve_is_optimize_within_the_caps_left(tmp_path: Path) -> None:
    """Where the deck stays within the caps, --collection with --reserve answers as --owned
    with a collection of exactly the copies left (a search checked against brute force in
    the optimize tests); the answer never exceeds a cap."""
    held = {"Drake": 2, "Clubman": 3, "Monk": 1, "Spearman": 2, "Swordsman": 1, "Archer": 1}
    collection = _write(tmp_path / "c.txt", "the-drake", held)
    reserved = {"Clubman": 1, "Spearman": 1, "Archer": 1}
    other = _write(tmp_path / "other.txt", "the-drake", reserved)
    deck = _write(tmp_path / "deck.txt", "the-drake", {"Clubman": 2, "Monk": 1})
    left = {name: n - reserved.get(name, 0) for name, n in held.items()}
    caps_file = _write(tmp_path / "left.txt", "the-drake", left)
    asked = dict(seen=1, variant="random", changes=3)
    shared = api.optimize(
        str(deck), ["name:Drake>=1"], collection=str(collection), reserve=[str(other)], **asked
    )
    plain = api.optimize(str(deck), ["name:Drake>=1"], owned=str(caps_file), **asked)
    assert shared.status == plain.status == "optimal"
    assert shared.after == plain.after
    ids = {c.name: c.id for c in load_deck(deck).catalog}
    caps = {ids[name]: n for name, n in left.items()}
    assert all(n <= caps[card.id] for card, n in shared.cards)
    with pytest.raises(DeckcheckError, match="the deck itself"):
        api.fix(str(deck), collection=str(collection), reserve=[str(deck)])


def test_caps_leave_the_deck_s_side_zones_their_copies(tmp_path: Path) -> None:
    from deckcheck.decks.collection import deck_caps
    from deckcheck.games.context import Context

    deck = tmp_path / "deck.txt"
    deck.write_text("game: stccg-1e\n2 Regenerate\nQsTent:\n1 Regenerate\n", encoding="utf-8")
    collection = _write(tmp_path / "c.txt", "stccg-1e", {"Regenerate": 4})
    loaded = load_deck(deck)
    caps = deck_caps(loaded, Context(), collection=collection)
    assert caps is not None
    (card_id,) = loaded.deck.counts()
    assert caps.caps[card_id] == 3  # 4 held, 1 on the side
