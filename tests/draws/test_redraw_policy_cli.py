"""`odds --redraw-policy optimal`: Ren Dhark's optional redraw taken only when it helps."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

REPO = Path(__file__).resolve().parents[2]
STARTER = str(REPO / "examples/ren-dhark/blue-starter.txt")
CUSTOM = str(REPO / "examples/ren-dhark/terra-custom.txt")


def odds(*args: str) -> dict[str, object]:
    result = invoke(["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("condition", ["type:action>=4", "type:ship>=2", "type:ship>=3"])
@pytest.mark.parametrize("redraws", ["0", "1", "2", "unlimited"])
def test_optimal_is_never_worse(condition: str, redraws: str) -> None:
    best = odds(STARTER, condition, "--redraw-policy", "optimal", "--redraws", redraws)
    always = odds(STARTER, condition, "--redraws", redraws, "--redraw-policy", "always")
    none = odds(STARTER, condition, "--mulligan", "none")
    assert best["exact"] is True
    assert Fraction(str(best["probability_exact"])) >= Fraction(str(always["probability_exact"]))
    assert Fraction(str(best["probability_exact"])) >= Fraction(str(none["probability_exact"]))
    assert best["probability_without_mulligan"] == pytest.approx(none["probability"])


def test_optimal_beats_always_where_redrawing_hurts() -> None:
    best = odds(STARTER, "type:action>=4", "--redraw-policy", "optimal")
    always = odds(STARTER, "type:action>=4", "--redraw-policy", "always")
    assert best["probability"] > best["probability_without_mulligan"] > always["probability"]
    assert "optimal redraw" in str(best["method"])
    assert any("only when it raises" in a for a in best["assumptions"])  # type: ignore[union-attr]


def test_no_mulligan_is_labelled_as_the_plain_draw() -> None:
    none = odds(CUSTOM, "type:ship>=2", "--mulligan", "none")
    assert none["method"] == "exact (hypergeometric)"
    assert none["probability"] == none["probability_without_mulligan"]
    assert not any("only when it raises" in a for a in none["assumptions"])  # type: ignore[union-attr]


def test_zero_redraws_is_the_plain_draw() -> None:
    best = odds(CUSTOM, "type:ship>=2", "--redraw-policy", "optimal", "--redraws", "0")
    assert best["probability"] == pytest.approx(best["probability_without_mulligan"])


def test_by_turn_uses_the_policy() -> None:
    best = odds(
        CUSTOM, "type:ship>=2", "type:action>=1", "--redraw-policy", "optimal", "--by-turn", "3"
    )
    rows = best["by_turn"]
    assert isinstance(rows, list) and len(rows) == 3
    assert rows[0]["probability"] == pytest.approx(best["probability"])
    assert [r["cards_seen"] for r in rows] == [7, 9, 11]  # blue: 7 + 2(t - 1)


def test_bad_policy_names_are_usage_errors() -> None:
    result = invoke(["odds", CUSTOM, "type:ship>=2", "--redraw-policy", "best"])
    assert result.exit_code == 2
    assert "always" in result.output


def _hands(*args: str) -> list[dict[str, object]]:
    result = invoke(["hand", STARTER, *args, "--count", "300", "--seed", "11", "--json"])
    assert result.exit_code == 0, result.output
    hands: list[dict[str, object]] = json.loads(result.stdout)["hands"]
    return hands


def test_hand_keeps_a_redrawable_hand_that_meets_the_goal_under_the_optimal_policy() -> None:
    always = _hands("type:action>=4", "--redraw-policy", "always")
    optimal = _hands("type:action>=4")
    # Same seed, same first hands: "always" redraws every hand with 4+ actions (a trigger),
    # the optimal policy keeps exactly those, because they already meet the goal.
    hits = [
        i
        for i, h in enumerate(always)
        if str(h["decisions"][0]).startswith("redraw")  # type: ignore[index]
        and "action" in str(h["decisions"][0])  # type: ignore[index]
    ]
    assert hits, "the seed should deal some hand with more than 3 actions"
    for i in hits:
        assert str(optimal[i]["decisions"][0]).startswith("kept"), optimal[i]  # type: ignore[index]
        assert optimal[i]["goal_met"] is True
        assert optimal[i]["first"] == always[i]["first"]  # one stream per hand


def test_hand_without_a_goal_aims_for_a_hand_the_rule_accepts() -> None:
    # With no goal the optimal policy aims for a hand no trigger holds for, so it redraws
    # exactly when "always" does.
    always = _hands("--redraw-policy", "always")
    optimal = _hands()
    assert [h["decisions"] for h in optimal] == [h["decisions"] for h in always]
    assert any(str(h["decisions"][0]).startswith("redraw") for h in optimal)  # type: ignore[index]
