"""Every simulated figure says which bound was hit and how its simulated player decides: in the
JSON (``simulation``, by-turn rows included) and in words (``--verbose`` under a table of
turns). Small piles and work limits, a few hundred to a few thousand deals."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import EXAMPLES, run_cli, run_json
from test_fallback_budget import PROCEDURE, look_ahead_problem
from test_table_turns_skip import work

from deckcheck.analysis.odds import Simulation
from deckcheck.draws import facade
from deckcheck.draws.answer import (
    Choice,
    Fact,
    FactKind,
    Played,
    Reach,
    SimulatedPlayer,
    fact_text,
    lookahead_fact,
)
from deckcheck.draws.facade import Policy, simulate, solve, solve_turns
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query

PC = str(EXAMPLES / "planetary-conquerors/legal-50.txt")
CONDITIONS = ["type:warrior>=2", "name:Stone Bunker>=1"]


def test_a_skipped_row_says_it_was_not_tried_and_later_rows_whose_bound_they_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = look_ahead_problem()
    queries = [Query(7, turns=3), Query(9, turns=4), Query(11, turns=5), Query(13, turns=6)]
    works = [work(problem, q) for q in queries[:2]]
    # Room for the first two rows: the third has less left than the second took.
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", works[0] + works[1] + works[1] // 2)
    answers = solve_turns(problem, PROCEDURE, queries, Policy(), budget=0)
    assert [a.exact for a in answers] == [True, True, False, False]
    skipped = Simulation.of(answers[2])
    assert skipped is not None and skipped.bound is not None
    assert skipped.bound.reach is Reach.SKIPPED and not skipped.tried
    assert (skipped.bound.work, skipped.after) == (works[1], None)
    assert skipped.why.startswith("exact attempt skipped, not tried")
    assert "may be exact" in skipped.why
    # The row after takes the skipped row's bound without trying, and says whose it is.
    later = Simulation.of(answers[3])
    assert later is not None and later.bound == skipped.bound
    assert not later.tried and later.after == 11
    assert "the turn seeing 11 cards" in later.why
    assert answers[3].has(FactKind.NOT_TRIED_AFTER)
    # No optimal table for a row out of reach: the player is the rule of thumb, named.
    for sim in (skipped, later):
        assert sim.player.summary == "rule-of-thumb"
        assert dict(sim.player.decisions) == {
            Choice.LOOKAHEAD: Played.RULE_OF_THUMB,
            Choice.RETURN: Played.RULE_OF_THUMB,
        }
        assert "advances an unmet condition" in sim.player.detail
        assert "at most the optimal player's" in sim.player.detail


def test_a_refused_query_names_the_work_limit_with_its_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = look_ahead_problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 40)
    answer = solve(problem, PROCEDURE, Query(9), Policy(), trials=500, budget=0)
    sim = Simulation.of(answer)
    assert sim is not None and sim.bound is not None and sim.tried and sim.after is None
    data = sim.to_json()
    assert data["bound"] in ("estimate", "work")
    assert isinstance(data["limit"], int) and data["limit"] > 0
    assert data["why"].startswith("exact computation out of reach")
    assert data["player"] == "rule-of-thumb"
    assert sim.trials == answer.trials == 500


def test_the_simulate_command_names_its_optimal_player() -> None:
    """``simulate`` asks for deals: no bound; where the exact tables are in reach, the player
    reads its choices from them, and says so."""
    problem = look_ahead_problem()
    answer = simulate(problem, PROCEDURE, Query(9), Policy(), trials=300, seed=1)
    sim = Simulation.of(answer)
    assert sim is not None and sim.bound is None and not sim.tried
    assert sim.why == "a simulation was asked for"
    assert sim.player.summary == "optimal"
    assert dict(sim.player.decisions) == {
        Choice.LOOKAHEAD: Played.OPTIMAL,
        Choice.RETURN: Played.OPTIMAL,
    }
    assert "read from the exact tables" in sim.player.text


def test_a_plain_deal_has_no_choice_to_make() -> None:
    problem = DrawProblem((4, 16), ((True,), (False,)), (CountTest(0, ">=", 1),))
    answer = simulate(problem, Procedure(5), Query(5), Policy(), trials=200, seed=3)
    sim = Simulation.of(answer)
    assert sim is not None and sim.player == SimulatedPlayer()
    assert sim.player.summary == "no-choice"
    assert "no choice" in sim.player.text


def test_a_rule_of_thumb_wins_over_the_optimum_it_replaced() -> None:
    facts = (
        lookahead_fact(False),
        Fact(FactKind.LOOKAHEAD_HEURISTIC_INSTEAD),
        Fact(FactKind.REDRAW_OPTIMAL_SIMULATED),
    )
    player = SimulatedPlayer.of(facts)
    assert dict(player.decisions) == {
        Choice.LOOKAHEAD: Played.RULE_OF_THUMB,
        Choice.REDRAW: Played.OPTIMAL,
    }
    assert player.summary == "rule-of-thumb"
    assert "not tried" in fact_text(Fact(FactKind.NOT_TRIED_AFTER, count=9))


def _simulated_table(monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    # A work limit no row of the table fits, and a small simulation budget (50 deals a row).
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 0)
    return run_json(["odds", PC, *CONDITIONS, "--by-turn", "3", *args, "--json"])


def test_by_turn_json_rows_say_why_and_which_player(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _simulated_table(monkeypatch)
    rows = data["by_turn"]
    assert [r["turn"] for r in rows] == [1, 2, 3]
    simulated = [r for r in rows if not r["exact"]]
    assert simulated and all("simulation" in r for r in simulated)
    assert not any("simulation" in r for r in rows if r["exact"])
    for row in simulated:
        sim = row["simulation"]
        # Turn 1 is the query's own figure (the opening hand, the single query's seed 0).
        assert row["seed"] == (0 if row["turn"] == 1 else row["turn"]) and row["trials"] >= 50
        assert row["method"].startswith("simulation")
        assert len(row["ci95"]) == 2
        assert sim["bound"] in ("estimate", "work", "skipped")
        assert isinstance(sim["limit"], int) and sim["why"]
        assert sim["player"] == "rule-of-thumb"
        assert sim["decisions"]["return"] == "rule-of-thumb"
        assert "at most the optimal player's" in sim["player_text"]
    # The query's own figure (the opening hand) is simulated too: the report says why.
    if not data["exact"]:
        assert data["simulation"]["player"] in ("rule-of-thumb", "no-choice")
        assert data["simulation"]["tried"] is True


def test_by_turn_verbose_says_why_each_row_was_simulated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 0)
    args = ["odds", PC, *CONDITIONS, "--by-turn", "3"]
    plain = run_cli(args)
    assert plain.exit_code == 0
    assert "--verbose (or --json) says why" in " ".join(plain.stdout.split())
    verbose = run_cli([*args, "--verbose"])
    text = " ".join(verbose.stdout.split())
    assert verbose.exit_code == 0
    assert "~ simulated" in text and "trials, seed" in text
    assert "exact computation out of reach" in text
    assert "by a rule of thumb, not chosen for this query" in text


def test_a_single_simulated_query_says_its_bound_and_player_in_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    data = run_json(["odds", PC, *CONDITIONS, "--turn", "2", "--json"])
    assert data["exact"] is False
    sim = data["simulation"]
    assert sim["bound"] == "estimate" and sim["limit"] == 0 and sim["work"] > 0
    assert sim["tried"] is True and sim["after_cards_seen"] is None
    assert sim["decisions"] == {"look-ahead": "rule-of-thumb", "return": "rule-of-thumb"}
    # The player is said among the assumptions too, next to the bound.
    said = " ".join(data["assumptions"])
    assert "exact computation out of reach" in said
    assert "simulated player: look-ahead and return by a rule of thumb" in said


def test_exact_answers_carry_no_simulation() -> None:
    data = run_json(["odds", PC, "type:warrior>=1", "--by-turn", "2", "--json"])
    assert data["exact"] and "simulation" not in data
    assert all(
        set(r) == {"turn", "cards_seen", "probability", "probability_without_mulligan", "exact"}
        for r in data["by_turn"]
    )


def test_simulate_json_says_it_was_asked_and_how_the_player_decides() -> None:
    data = run_json(
        ["simulate", PC, *CONDITIONS, "--turn", "2", "--trials", "400", "--seed", "5", "--json"]
    )
    sim = data["simulation"]
    assert sim["bound"] is None and sim["why"] == "a simulation was asked for"
    assert sim["player"] == "optimal"
    assert sim["decisions"] == {"look-ahead": "optimal", "return": "optimal"}


def test_seeded_rows_are_unchanged_by_the_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reasons are added to the answer, not dealt: the same seed gives the same counts as
    the simulator asked directly with the row's trials and seed."""
    problem = look_ahead_problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    (answer,) = solve_turns(problem, PROCEDURE, [Query(9, turns=4)], Policy(), budget=0)
    again = simulate(
        problem, PROCEDURE, Query(9), Policy(), trials=answer.trials, seed=4, tables=False
    )
    assert (answer.successes, answer.trials) == (again.successes, again.trials)


def test_the_optimal_players_exact_chance_is_said_not_thrown_away() -> None:
    """The tables an optimal simulated player reads value its chance on the way: the answer
    says it, equal to the exact engine's Fraction, and the deals land within 4.5 sigma."""
    problem = look_ahead_problem()
    query = Query(9)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=2_000, seed=7)
    sim = Simulation.of(answer)
    assert sim is not None and sim.player_exact is not None
    exact = solve(problem, PROCEDURE, query, Policy())
    assert exact.exact and sim.player_exact == (exact.fraction, exact.fraction_without_mulligan)
    p = float(sim.player_exact[0])
    sigma = (p * (1 - p) / 2_000) ** 0.5
    assert abs(answer.probability - p) <= 4.5 * sigma + 1e-9
    data = sim.to_json()["player_exact"]
    assert isinstance(data, dict)
    assert data["probability_exact"] == f"{exact.fraction.numerator}/{exact.fraction.denominator}"
    assert any("give its chance exactly" in n for n in answer.notes)


def test_a_rule_of_thumb_player_has_no_exact_chance_to_say(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = look_ahead_problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    answer = solve(problem, PROCEDURE, Query(9), Policy(), trials=300, budget=0)
    sim = Simulation.of(answer)
    assert sim is not None and sim.player_exact is None
    assert not answer.has(FactKind.PLAYER_EXACT)


def test_the_optimal_redraw_players_exact_chance_is_the_optimums() -> None:
    from deckcheck.draws.model import RedrawRule

    problem = DrawProblem(
        (6, 4, 10), ((True, False), (False, True), (False, False)), (CountTest(0, ">=", 2),)
    )
    rule = RedrawRule(triggers=(CountTest(1, ">=", 2),), max_redraws=1)
    procedure = Procedure(5, mulligan=rule)
    answer = simulate(problem, procedure, Query(5), Policy(), trials=1_000, seed=2)
    sim = Simulation.of(answer)
    exact = solve(problem, procedure, Query(5), Policy())
    assert sim is not None and sim.player.summary == "optimal"
    assert sim.player_exact == (exact.fraction, exact.fraction_without_mulligan)
