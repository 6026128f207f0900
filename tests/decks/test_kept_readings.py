"""What reading decks keeps between decks: a catalog's readings of spellings, a suggester's
answers, a deck's counts. Each is kept for the very values it depends on, and gives what
working it out again gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.load import apply_overlay, parse_document
from deckcheck.core.text import Suggester
from deckcheck.decks import resolve
from deckcheck.decks.parse import parse_deck
from deckcheck.games.registry import get_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OVERLAY = EXAMPLES / "planetary-conquerors" / "example-set.toml"
DECK = "game: planetary-conquerors\n2 Deep Drill\n1 Gold Miner\n1 No Such Card\n"


@pytest.fixture
def looked_up(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The spellings worked out (not given from what a catalog keeps)."""
    worked: list[str] = []
    work = resolve._lookup

    def counting(name: str, *args: Any) -> Any:
        worked.append(name)
        return work(name, *args)

    monkeypatch.setattr(resolve, "_lookup", counting)
    return worked


def _resolved(catalog: Any) -> tuple[list[tuple[str, int]], list[str]]:
    """The deck's entries (id, copies) and its unknown lines, against ``catalog``."""
    game = get_game("planetary-conquerors")
    try:
        deck = resolve.resolve_deck(parse_deck(DECK, "deck.txt"), catalog, game, "standard")
        unknown: list[str] = []
    except resolve.PartlyResolvedError as error:
        deck = error.deck
        unknown = [line.text for line in error.unresolved]
    return [(e.card.id, e.count) for e in deck.entries], unknown


def test_a_catalog_reads_a_spelling_once_and_an_overlay_reads_it_anew(
    looked_up: list[str],
) -> None:
    game = get_game("planetary-conquerors")
    bundled = game.bundled_catalog()
    resolve.kept_answers(bundled, game).clear()  # what earlier tests left
    first = _resolved(bundled)
    worked = len(looked_up)
    assert first == ([("pc/gold-miner", 1)], ["Deep Drill", "No Such Card"])
    assert _resolved(bundled) == first
    assert len(looked_up) == worked  # every spelling given from what the catalog keeps
    # The overlay's catalog holds Deep Drill: the bundled catalog's reading is not its own.
    laid = apply_overlay(bundled, parse_document(OVERLAY.read_text(encoding="utf-8"), "set"))
    assert _resolved(laid) == ([("ex/deep-drill", 2), ("pc/gold-miner", 1)], ["No Such Card"])
    assert len(looked_up) > worked


def test_the_kept_readings_are_bounded(looked_up: list[str]) -> None:
    game = get_game("ren-dhark")
    catalog = game.catalog()
    kept = resolve.kept_answers(catalog, game)
    kept.clear()
    kept.update({f"filler {i}": resolve.NameMatch(()) for i in range(resolve.ANSWERS_KEPT)})
    try:
        assert resolve.lookup("I/25", catalog, game).cards[0].id == "I/25"
        assert "I/25" not in kept and len(kept) == resolve.ANSWERS_KEPT
        assert looked_up == ["I/25"]
    finally:
        kept.clear()


def test_a_suggester_gives_its_answer_again_as_a_new_list() -> None:
    suggester = Suggester(["Deep Drill", "Deep Space", "Gold Miner"])
    first = suggester("deep dril")
    assert first == Suggester(["Deep Drill", "Deep Space", "Gold Miner"])("deep dril")
    first.append("changed by its caller")
    assert suggester("deep dril") == first[:-1]
    assert suggester("deep dril", limit=1) == first[:1]


def test_a_deck_s_counts_are_a_new_counter_each_time() -> None:
    cards = {c.id: c for c in get_game("ren-dhark").catalog()}
    entries = (DeckEntry(cards["I/25"], 2), DeckEntry(cards["I/1"], 1), DeckEntry(cards["I/25"], 1))
    deck = Deck("d", "ren-dhark", "custom", entries)
    counts = deck.counts()
    assert counts == {"I/25": 3, "I/1": 1} and list(counts) == ["I/25", "I/1"]
    counts["I/25"] = 0
    assert deck.counts() == {"I/25": 3, "I/1": 1}
