"""``--expected-turn`` where the conditions cannot hold for one seat but can for the other:
the seat that sees a card more still gets its exact distribution (only a question no seat can
hold is answered 'never' at once)."""

from __future__ import annotations

from fractions import Fraction

from conftest import EXAMPLES, run_json

DECK = EXAMPLES / "planetary-conquerors" / "legal-50.txt"


def expected(condition: str) -> dict[str, dict[str, object]]:
    args = ["odds", DECK, condition, "--expected-turn", "--turn", "1", "--json"]
    return run_json(args)["expected_turn"]


def test_a_question_only_the_second_seat_can_hold_is_still_worked_out() -> None:
    # Six warriors need six cards: the starting player sees five at turn 1, the other six.
    seats = expected("type:warrior>=6")
    play, draw = seats["on_the_play"], seats["on_the_draw"]
    assert play["turns"] == [
        {
            "turn": 1,
            "cards_seen": 5,
            "probability": 0.0,
            "probability_exact": "0",
            "cumulative": 0.0,
        }
    ]
    assert play["later_exact"] == "1"
    held = Fraction(str(draw["turns"][0]["probability_exact"]))  # type: ignore[index]
    assert held == Fraction(6853301, 989390655)
    assert Fraction(str(draw["later_exact"])) == 1 - held
    # odds at turn 1 going second plays the same mulligan and look: the same chance.
    args = ["odds", DECK, "type:warrior>=6", "--turn", "1", "--second", "--json"]
    assert Fraction(run_json(args)["probability_exact"]) == held
    # The mulligan and the look help: more than the six cards' plain draw.
    plain = run_json([*args, "--mulligan", "none"])
    assert 0 < Fraction(plain["probability_exact"]) < held


def test_a_question_no_seat_can_hold_is_never_at_once() -> None:
    seats = expected("type:warrior>=7")
    for side in (seats["on_the_play"], seats["on_the_draw"]):
        assert side["turns"][0]["probability_exact"] == "0"  # type: ignore[index]
        assert side["later_exact"] == "1"
