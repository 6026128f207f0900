"""An either-or question whose optimal mulligan is beyond exact reach is still answered: the
plain draw's exact figure, said to be one (never a refusal where the plain draw reaches)."""

from __future__ import annotations

from conftest import EXAMPLES

from deckcheck import api

DECK = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
QUESTION = [
    "POINT OF>=1 | NOREEN WELEAN>=1",
    "RIOBE>=1 | TALKARN>=1",
    "NOGK>=1 | type:action>=3",
    "type:ship>=2",
    "type:person>=2",
    "type:unit>=1",
    # Eleven cards more: the opening hands alone are past the budget, refused before any is
    # listed (LUXOR is one card: "<=0" reads it, where "<=1" would pass every count and split
    # no class).
    "SEKOSUM>=1",
    "STAHLTANGO>=1",
    "PASADENA>=1",
    "LUXOR<=0",
    "MEDUSA<=0",
    "Simon<=0",
    "Ren Dhark<=0",
    "Charaua<=0",
    "Antisféra<=0",
    "TERRA<=0",
    "Thornton Duman<=0",
]
TURN = 6


def test_out_of_reach_mulligan_falls_back_to_the_plain_draw_and_says_so() -> None:
    report = api.odds(DECK, QUESTION, turn=TURN)
    plain = api.odds(DECK, QUESTION, turn=TURN, mulligan="none")
    assert report.exact and report.mulligan == "none"
    assert report.probability_exact == plain.probability_exact
    assert any("the mulligan is left out" in a for a in report.assumptions)
    assert not any("made for the whole of it" in a for a in report.assumptions)


def test_a_mulligan_in_reach_is_still_chosen_for_the_whole_question() -> None:
    question = ["type:ship>=3 | type:action>=2", "type:person>=2 | type:unit>=1"]
    report = api.odds(DECK, question, turn=3)
    assert report.exact and report.mulligan == "rules"
    assert not any("left out" in a for a in report.assumptions)
