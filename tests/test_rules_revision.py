"""The revised rules of Planetary Conquerors, Dorn and The Drake: the second player's sixth
card, Dorn's four-heroes variant (15.f) and the Drake's minimum stack as our decision.

Expected values come from the bundled catalogs and ``math.comb``, not from deckcheck's engines.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.analysis.odds import OddsOptions, compute_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.commands.cards import find_cards
from deckcheck.core.violations import Status
from deckcheck.decks.load import load_deck, open_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.context import make_context
from deckcheck.games.registry import get_game

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ Dorn, four-heroes (15.f)


@pytest.mark.parametrize(("variant", "seen"), [(None, 5), ("standard", 5), ("four-heroes", 4)])
def test_blessings_seen_follow_the_party(variant: str | None, seen: int) -> None:
    setup = draw_setup(open_deck("dorn:blessings", make_context(variant=variant)))
    blessings = [c for c in get_game("dorn").bundled_catalog() if c.has_type("blessing")]
    assert setup.pile_size == len(blessings) == 12
    first = blessings[0].id
    report = compute_odds(setup, [f"id:{first}>=1"], OddsOptions())
    assert report.cards_seen == seen
    # one given blessing among `seen` of 12 drawn without replacement
    no = Fraction(math.comb(11, seen), math.comb(12, seen))
    assert report.probability_exact == str(1 - no)
    assert any(f"{seen}-hero party" in a for a in report.assumptions)


def test_heroes_pile_follows_the_party_too() -> None:
    assert (
        draw_setup(open_deck("dorn:heroes", make_context(variant="four-heroes"))).opening.hand_size
        == 4
    )
    assert draw_setup(open_deck("dorn:heroes")).opening.hand_size == 5


def test_cards_under_four_heroes_cost_one_more_blood() -> None:
    bundled = {c.id: c.get("blood_cost") for c in get_game("dorn").bundled_catalog()}
    plain = find_cards("dorn", "type:ritual")
    changed = find_cards("dorn", "type:ritual", make_context(variant="four-heroes"))
    assert len(changed.cards) == 12
    for card in changed.cards:
        assert card.get("blood_cost") == bundled[card.id] + 1
    for card in plain.cards:
        assert card.get("blood_cost") == bundled[card.id]
    notes = " ".join(changed.variant_notes)
    for words in ("1 more life", "3 weak monsters", "4 are drawn", "level-up"):
        assert words in notes
    assert plain.variant_notes == ()


def test_cards_variant_cli() -> None:
    result = invoke(["cards", "dorn", "Black Fountain", "--variant", "four-heroes", "--json"])
    assert result.exit_code == 0, result.output
    [card] = json.loads(result.stdout)
    bundled = get_game("dorn").bundled_catalog().by_id(card["id"])
    assert bundled is not None and card["blood_cost"] == bundled.get("blood_cost") + 1
    bad = invoke(["cards", "dorn", "--variant", "five-heroes"])
    assert bad.exit_code == 2 and "four-heroes" in bad.output


def test_odds_variant_cli_on_a_pile() -> None:
    result = invoke(
        ["odds", "dorn:blessings", "type:blessing>=1", "--variant", "four-heroes", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["cards_seen"] == 4


@pytest.mark.parametrize(
    ("deck", "status"),
    [("four-heroes.txt", Status.LEGAL), ("first-game-party.txt", Status.LEGAL)],
)
def test_four_heroes_party_still_validates(deck: str, status: Status) -> None:
    report = validate_loaded(load_deck(ROOT / "examples" / "dorn" / deck))
    assert report.status is status


# ------------------------------------------------------------------------- The Drake


def test_the_drake_minimum_stack_is_stated_as_our_decision() -> None:
    custom = get_game("the-drake").variant("custom")
    assert custom.param("min_stack") == 3
    assert "our decision" in custom.description
    short = validate_loaded(load_deck(ROOT / "examples" / "the-drake" / "illegal-custom-short.txt"))
    assert short.status is Status.ILLEGAL
    assert [v.code for v in short.violations] == ["drake.stack-size"]
    ok = validate_loaded(load_deck(ROOT / "examples" / "the-drake" / "custom-stack.txt"))
    assert ok.status is Status.LEGAL


# ------------------------------------------------------------ Planetary Conquerors --second


def test_second_player_sixth_card_says_two_players() -> None:
    deck = str(ROOT / "examples" / "planetary-conquerors" / "legal-50.txt")
    report = compute_odds(draw_setup(open_deck(deck)), ["type:miner>=1"], OddsOptions(second=True))
    assert report.cards_seen == 6
    assert any("two-player game" in a for a in report.assumptions)
    first = compute_odds(draw_setup(open_deck(deck)), ["type:miner>=1"], OddsOptions())
    assert not any("two-player" in a for a in first.assumptions)
    result = invoke(["odds", "--help"])
    assert "two-player" in result.output
