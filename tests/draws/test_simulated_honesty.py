"""What a simulated answer says about its player is true, and said at no extra cost: the
optimal redraw's value read from its solve (no table of hands built), whether ``odds`` gives
the exact figure of the simulated player, the rows a table of turns never asked, the turns
grouped in words, the player summed up. Small piles, a few hundred deals."""

from __future__ import annotations

import pytest
from test_fallback_budget import PROCEDURE, look_ahead_problem

from deckcheck.analysis.odds import Simulation
from deckcheck.draws import facade
from deckcheck.draws.answer import FactKind, Intractable
from deckcheck.draws.exact import odds as exact_odds_module
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.facade import Policy, simulate, solve
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule

REDRAW_PROBLEM = DrawProblem(
    (6, 4, 10), ((True, False), (False, True), (False, False)), (CountTest(0, ">=", 2),)
)
REDRAW = RedrawRule(triggers=(CountTest(1, ">=", 2),), max_redraws=1)


def _player_exact(answer: object) -> dict[str, object]:
    sim = Simulation.of(answer)  # type: ignore[arg-type]
    assert sim is not None
    data = sim.to_json()["player_exact"]
    assert isinstance(data, dict)
    return data


def test_the_optimal_redraws_value_builds_no_table_of_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The value comes from the solve the decisions read: no hand's chance is worked out again
    (a table of hands would value every hand the rule keeps, one programme each)."""

    def built(*_: object) -> object:
        raise AssertionError("a table of hands was built to read two numbers")

    monkeypatch.setattr(optimal_redraw, "_kept_ways", built)
    monkeypatch.setattr(optimal_redraw, "optimal_redraw_table", built)
    procedure = Procedure(5, mulligan=REDRAW)
    answer = simulate(REDRAW_PROBLEM, procedure, Query(5), Policy(), trials=300, seed=2)
    exact = solve(REDRAW_PROBLEM, procedure, Query(5), Policy())
    sim = Simulation.of(answer)
    assert sim is not None
    assert sim.player_exact == (exact.fraction, exact.fraction_without_mulligan)
    data = _player_exact(answer)
    assert data["odds_gives_it"] is True and data["odds_text"] == "the figure odds gives, exactly"


def test_player_exact_beyond_odds_work_limit_says_odds_does_not_give_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """simulate's tables have no work limit; odds stops at its own: past it, the answer must
    not claim odds gives the figure (odds simulates by rules of thumb there)."""
    problem, query = look_ahead_problem(), Query(9)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 40)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    odds = solve(problem, PROCEDURE, query, Policy(), trials=300, budget=0)
    assert not odds.exact  # odds simulates this one
    data = _player_exact(answer)
    assert data["odds_gives_it"] is False
    text = " ".join(answer.notes)
    assert "odds gives it exactly" not in text
    assert "odds does not give it" in text and "over its work limit of 40" in text


def test_player_exact_within_odds_work_limit_is_odds_figure() -> None:
    problem, query = look_ahead_problem(), Query(9)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    odds = solve(problem, PROCEDURE, query, Policy())
    assert odds.exact
    data = _player_exact(answer)
    assert data["probability_exact"] == f"{odds.fraction.numerator}/{odds.fraction.denominator}"
    # Estimated within the limit: odds gives it unless its look-ahead's work runs past it.
    assert data["odds_gives_it"] is None
    assert "the figure odds gives exactly, unless" in str(data["odds_text"])


def test_a_rule_of_thumb_look_ahead_with_an_optimal_redraw_is_not_odds_figure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The look-ahead's optimum out of reach, the redraw's in reach: the value is that mixed
    player's chance, exact, but not the optimal player's odds gives."""

    def out_of_reach(*_: object, **__: object) -> object:
        raise Intractable("the look-ahead's table is out of reach (for the test)")

    monkeypatch.setattr(exact_odds_module, "optimal_choices", out_of_reach)
    procedure = Procedure(4, mulligan=REDRAW, lookahead=True)
    answer = simulate(REDRAW_PROBLEM, procedure, Query(6), Policy(), trials=300, seed=3)
    assert answer.has(FactKind.LOOKAHEAD_HEURISTIC_INSTEAD)
    data = _player_exact(answer)
    assert data["odds_gives_it"] is False
    assert "look-ahead by the rule of thumb" in str(data["odds_text"])
    assert "odds gives it exactly" not in " ".join(answer.notes)
