"""What fix and optimize share (solve.changes, inplace.edit.AnswerTarget): the deck a solver's
new counts make, the changes and their JSON, and where an answer may go. No solver runs here."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.analysis.odds import TurnRow
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.inplace.edit import NOWHERE, AnswerTarget, Written
from deckcheck.solve.changes import answer_deck
from deckcheck.solve.nearest import FixResult

DECK = Path(__file__).resolve().parents[2] / "examples" / "ren-dhark" / "terra-custom.txt"


@pytest.fixture(scope="module")
def loaded() -> LoadedDeck:
    return load_deck(str(DECK))


def test_answer_deck_keeps_the_lines_and_lists_the_changes(loaded: LoadedDeck) -> None:
    counts = dict(loaded.deck.counts())
    twice = next(i for i, n in counts.items() if n == 2)
    new = next(c.id for c in loaded.catalog if c.id not in counts)
    values = {**counts, twice: 1, new: 3}
    made = answer_deck(loaded, {(i, None): n for i, n in values.items()}, [new])
    deck, changes = made.deck, made.changes
    assert made.moved == ()
    assert deck.counts() == {i: n for i, n in values.items() if n}
    # the deck's own lines in their order, the new card last
    assert [e.card.id for e in deck][:-1] == [e.card.id for e in loaded.deck]
    assert deck.entries[-1].card.id == new
    assert [(c.card.id, c.before, c.after, c.delta) for c in changes] == [
        (twice, 2, 1, -1),
        (new, 0, 3, 3),
    ]


def test_a_result_counts_its_changes_and_says_where_its_answer_went(
    loaded: LoadedDeck,
) -> None:
    counts = dict(loaded.deck.counts())
    twice = next(i for i, n in counts.items() if n == 2)
    new = next(c.id for c in loaded.catalog if c.id not in counts)
    values = {**counts, twice: 0, new: 1}
    made = answer_deck(loaded, {(i, None): n for i, n in values.items()}, [new])
    changes = made.changes
    report = validate_loaded(loaded)
    result = FixResult(
        "d.txt", "ren-dhark", "custom", "fixed", report, changes, True, report, edits=made.edits
    )
    assert (result.distance, result.added, result.removed) == (3, 1, 2)
    assert result.moves == ((changes[0].card, -2, None), (changes[1].card, 1, None))
    assert (result.text, result.written_to, result.backup) == (None, None, None)
    data = result.to_json()
    assert list(data)[:10] == [
        "deck",
        "game",
        "variant",
        "status",
        "status_before",
        "distance",
        "added",
        "removed",
        "proven_minimal",
        "changes",
    ]
    assert list(data)[-5:] == ["notes", "validation", "written_to", "backup", "solve_seconds"]
    went = FixResult("d.txt", "ren-dhark", "custom", "fixed", report, written=Written("x", "o"))
    assert (went.text, went.written_to, went.backup) == ("x", "o", None)


def test_an_answer_target_refuses_what_cannot_be_done() -> None:
    with pytest.raises(UsageError, match="not both"):
        AnswerTarget(write=True, output="x.txt").read_deck("d.txt")
    with pytest.raises(UsageError, match="standard input"):
        AnswerTarget(write=True).read_deck("-")
    assert NOWHERE.read_deck("-") is None


def test_a_curve_point_leaves_the_chance_without_mulligan_out_when_asked() -> None:
    row = TurnRow(2, 8, 0.5, 0.25, True)
    assert list(row.to_json()) == [
        "turn",
        "cards_seen",
        "probability",
        "probability_without_mulligan",
        "exact",
    ]
    assert row.to_json(chance_without_mulligan=False) == {
        "turn": 2,
        "cards_seen": 8,
        "probability": 0.5,
        "exact": True,
    }
