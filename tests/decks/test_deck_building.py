"""Building a deck from nothing: ``new`` states every rule's limits (and a stack's order),
``add``/``remove`` take several cards or a pasted list and answer with every rule's progress in
one line; an ambiguous name says what tells its cards apart, and a card added by id is written
with its name."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck.analysis.progress import RuleProgress, plural_noun, rule_progress
from deckcheck.decks.load import load_deck
from deckcheck.decks.verdict import validate_loaded


def _new(tmp_path: Path, game: str) -> Path:
    deck = tmp_path / f"{game}.txt"
    assert run_cli(["new", game, "-o", deck]).exit_code == 0
    return deck


def test_new_states_every_rules_limits(tmp_path: Path) -> None:
    text = _new(tmp_path, "ren-dhark").read_text(encoding="utf-8")
    for limit in (
        "at most 2 copies of a card (rd.copies)",
        "resource points total 109–112 (rd.points)",
        "15+ ships (rd.ships)",
        "12+ persons/units (rd.persons)",
        "≤6 actions (rd.actions)",
        "1 planet (rd.planet)",
        "(rd.colour)",
    ):
        assert limit in text, text
    assert "1 planets" not in text


def test_new_drake_says_the_stacks_order(tmp_path: Path) -> None:
    text = _new(tmp_path, "drake").read_text(encoding="utf-8")
    assert "order, top first" in text
    assert "Drake, Clubman, Clubman, Monk, Spearman, Swordsman, Archer" in text


def test_several_cards_in_one_call_with_every_rules_progress(tmp_path: Path) -> None:
    deck = _new(tmp_path, "stccg")
    result = run_cli(["add", deck, "Gowron", "2", "Kurn", "Cloaked Mission", "1"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 cards changed" in out
    assert "standing: 4/60 cards · 1/6 missions · 1/≤2 seed cards · outposts ✗" in out
    text = deck.read_text(encoding="utf-8")
    assert "2 Gowron" in text and "1 Kurn" in text and "1 Cloaked Mission" in text
    data = json.loads(run_cli(["remove", deck, "Gowron", "Kurn", "--json"]).stdout)
    assert [(c["name"], c["copies"]) for c in data["cards"]] == [("Gowron", 1), ("Kurn", 0)]
    assert {p["rule"]: p["count"] for p in data["progress"]}["stccg.size"] == 2


def test_an_unchanged_unmet_rule_is_not_called_new(tmp_path: Path) -> None:
    deck = _new(tmp_path, "ren-dhark")
    run_cli(["add", deck, "I/25"])
    out = run_cli(["add", deck, "I/26"]).stdout
    assert "  new " not in out, out
    assert "ships" in out.splitlines()[1]


def test_a_pasted_list_on_standard_input(tmp_path: Path) -> None:
    deck = _new(tmp_path, "stccg")
    pasted = (
        "Klingon Deck — by Someone\nMissions (1)\n• 1x Cloaked Mission\nPersonnel (2)\n  2× Kurn\n"
    )
    result = run_cli(["add", deck, "-"], stdin=pasted)
    assert result.exit_code == 0, result.output
    text = deck.read_text(encoding="utf-8")
    assert "2 Kurn" in text and "1 Cloaked Mission" in text and "Personnel (2)" not in text
    assert "note: left out 'Missions (1)'" in result.stdout


def test_mistyped_cards_are_all_listed_and_nothing_changes(tmp_path: Path) -> None:
    deck = _new(tmp_path, "stccg")
    before = deck.read_bytes()
    result = run_cli(["add", deck, "Wrof", "2", "Gowrn"])
    assert result.exit_code == 2
    assert "Worf" in result.stderr and "Gowron" in result.stderr
    assert deck.read_bytes() == before


def test_an_ambiguous_name_says_what_tells_the_cards_apart(tmp_path: Path) -> None:
    deck = _new(tmp_path, "ren-dhark")
    result = run_cli(["add", deck, "Vojáci"])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "I/43 (Vojáci: faction Ratekové, colour red)" in message, message
    assert "I/12 (Vojáci: faction Utareni, colour blue)" in message


def test_a_card_added_by_id_is_written_with_its_name(tmp_path: Path) -> None:
    deck = _new(tmp_path, "ren-dhark")
    assert run_cli(["add", deck, "I/43"]).exit_code == 0
    text = deck.read_text(encoding="utf-8")
    assert "1 I/43  # Vojáci (faction Ratekové, colour red)" in text
    data = json.loads(run_cli(["export", deck, "--to", "json", "--allow-illegal"]).stdout)
    assert [c["id"] for c in data["cards"]] == ["I/43"]


@pytest.mark.parametrize(
    ("noun", "n", "said"),
    [
        ("hero", 5, "heroes"),
        ("planet", 1, "planet"),
        ("card", 1, "card"),
        ("party member", 2, "party members"),
        ("person/unit", 2, "persons/units"),
        ("points", 3, "points"),
    ],
)
def test_grammar(noun: str, n: int, said: str) -> None:
    assert plural_noun(noun, n) == said


def test_progress_is_a_library_value() -> None:
    loaded = load_deck(EXAMPLES / "ren-dhark" / "illegal-mixed.txt")
    progress = rule_progress(loaded, validate_loaded(loaded))
    assert all(isinstance(p, RuleProgress) for p in progress)
    by_code = {p.code: p for p in progress}
    assert by_code["rd.ships"].count == 10 and by_code["rd.ships"].low == 15
    assert not by_code["rd.ships"].met and by_code["rd.colour"].state == "warning"
    assert by_code["rd.planet"].text == "2/1 planet"
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_code["rd.ships"].count = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["Gowron", "2", "3"], "3 copies of what?"),
        (["2", "Gowron"], "2 copies of what?"),
        (["Gowron", "0"], "at least 1, not 0"),
    ],
)
def test_counts_belong_to_the_card_before_them(tmp_path: Path, words: list[str], says: str) -> None:
    deck = _new(tmp_path, "stccg")
    before = deck.read_bytes()
    result = run_cli(["add", deck, *words])
    assert result.exit_code == 2 and says in result.stderr
    assert deck.read_bytes() == before
