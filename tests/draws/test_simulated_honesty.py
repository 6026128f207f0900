"""What a simulated answer says about its player is true, and said at no extra cost: the
optimal redraw's value read from its solve (no table of hands built), whether ``odds`` gives
the exact figure of the simulated player, the rows a table of turns never asked, the turns
grouped in words, the player summed up. Small piles, a few hundred deals."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from conftest import EXAMPLES, run_json
from test_fallback_budget import PROCEDURE, look_ahead_problem

from deckcheck.analysis.odds import Simulation, TurnRow
from deckcheck.cli import render
from deckcheck.draws import facade
from deckcheck.draws.answer import (
    Choice,
    FactKind,
    Intractable,
    OutOfReach,
    Played,
    Reach,
    SimulatedPlayer,
    Stage,
)
from deckcheck.draws.exact import odds as exact_odds_module
from deckcheck.draws.exact import optimal_redraw
from deckcheck.draws.facade import Policy, simulate, solve, solve_turns
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


def test_player_past_odds_work_limit_is_odds_rule_of_thumb_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """simulate builds its player's tables within odds' work limit: past it, the player is
    the rule of thumb odds simulates, no exact figure claimed, the bound said."""
    problem, query = look_ahead_problem(), Query(9)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 40)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    odds = solve(problem, PROCEDURE, query, Policy(), trials=300, budget=0)
    assert not odds.exact  # odds simulates this one
    sim = Simulation.of(answer)
    assert sim is not None and sim.player_exact is None and sim.player.summary == "rule-of-thumb"
    assert sim.bound is not None and sim.bound.limit == 40
    assert "odds gives it" not in " ".join(answer.notes)


def test_player_exact_within_odds_work_limit_is_odds_figure() -> None:
    problem, query = look_ahead_problem(), Query(9)
    answer = simulate(problem, PROCEDURE, query, Policy(), trials=300, seed=1)
    odds = solve(problem, PROCEDURE, query, Policy())
    assert odds.exact
    data = _player_exact(answer)
    assert data["probability_exact"] == f"{odds.fraction.numerator}/{odds.fraction.denominator}"
    # The very tables odds builds, charged against the same limit: odds' figure.
    assert data["odds_gives_it"] is True
    assert data["odds_text"] == "the figure odds gives, exactly"


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


def _plain_problem() -> DrawProblem:
    """Ten groups under five overlapping selectors: a plain draw whose table of turns runs
    past a small work limit."""
    rng = random.Random(3)
    membership = tuple(tuple(rng.random() < 0.4 for _ in range(5)) for _ in range(10))
    sizes = tuple(rng.randint(2, 6) for _ in range(10))
    tests = (
        CountTest(0, ">=", 2),
        CountTest(1, ">=", 3),
        CountTest(2, "<=", 3),
        CountTest(3, ">=", 3),
        CountTest(4, "<=", 4),
    )
    return DrawProblem(sizes, membership, tests)


PLAIN_QUERIES = [Query(n, turns=(n - 3) // 2) for n in range(5, 15, 2)]


def test_rows_past_a_plain_tables_exact_ones_say_they_were_not_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rows share the work limit: past the exact ones the bound is the table's, not the
    row's own (asked alone, the row may be exact), and no row claims to have been tried."""
    problem = _plain_problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 200)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 0)
    answers = solve_turns(problem, Procedure(5), PLAIN_QUERIES, Policy())
    assert [a.exact for a in answers] == [True, False, False, False, False]
    sims = [Simulation.of(a) for a in answers[1:]]
    for sim in sims:
        assert sim is not None and sim.bound is not None
        assert sim.bound.reach is Reach.TABLE and not sim.tried and sim.after is None
        assert sim.bound.seen == 7 and sim.bound.work > 200 == sim.bound.limit
        assert sim.why.startswith("exact attempt skipped, not tried")
        assert "asked alone" in sim.why
        data = sim.to_json()
        assert data["bound"] == "table" and data["tried"] is False


def test_rows_after_a_first_row_out_of_reach_alone_say_whose_bound_they_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = _plain_problem()
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 10)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 0)
    answers = solve_turns(problem, Procedure(5), PLAIN_QUERIES, Policy())
    first, *later = (Simulation.of(a) for a in answers)
    assert first is not None and first.tried and first.after is None
    assert first.bound is not None and first.bound.reach is Reach.ESTIMATE
    for sim in later:
        assert sim is not None and not sim.tried and sim.after == 5
        assert "the turn seeing 5 cards" in sim.why


def test_the_querys_own_figure_past_the_tables_first_row_was_not_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """odds --by-turn --turn T on a plain deck, no row in reach: the query's own figure takes
    turn 1's bound without being estimated, and its JSON says so."""
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 0)
    deck = str(EXAMPLES / "stccg-1e/legal-klingon.txt")
    args = ["odds", deck, "type:Personnel>=2", "--by-turn", "3", "--turn", "3", "--json"]
    data = run_json(args)
    assert data["exact"] is False
    sim = data["simulation"]
    first_seen = data["by_turn"][0]["cards_seen"]
    assert sim["tried"] is False and sim["after_cards_seen"] == first_seen
    assert data["by_turn"][0]["simulation"]["tried"] is True


def _row(turn: int, seed: int, ci95: tuple[float, float] | None = (0.1, 0.2)) -> TurnRow:
    bound = OutOfReach(Reach.ESTIMATE, Stage.EXACT, 500, 300)
    sim = Simulation(bound, True, SimulatedPlayer(), 100, seed, "simulation", ci95)
    return TurnRow(turn, turn + 6, 0.15, 0.15, False, sim)


def test_verbose_rows_grouped_only_when_each_is_seeded_by_its_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The query's own figure (seed 0) is no row seeded by its turn: said on its own line;
    a row without an interval is said without a made-up one."""
    rep = SimpleNamespace(by_turn=(_row(1, 0), _row(2, 2), _row(3, 3), _row(4, 4, None)))
    render._simulated_rows(rep, verbose=True)  # type: ignore[arg-type]
    text = " ".join(capsys.readouterr().out.split())
    assert "turns 1–" not in text
    assert "turn 1 ~ simulated, 100 trials, seed 0" in text
    assert "turns 2–4 ~ simulated, 100 trials each, seeded by their turn" in text
    rep = SimpleNamespace(by_turn=(_row(5, 5, None),))
    render._simulated_rows(rep, verbose=True)  # type: ignore[arg-type]
    text = " ".join(capsys.readouterr().out.split())
    assert "no interval" in text and "0.000000 – 1.000000" not in text


def test_an_optimal_choice_beside_a_redraw_as_asked_says_both() -> None:
    player = SimulatedPlayer(((Choice.LOOKAHEAD, Played.OPTIMAL), (Choice.REDRAW, Played.AS_ASKED)))
    assert player.summary == "optimal"
    assert "look-ahead read from the exact tables" in player.text
    assert "whenever allowed, as asked" in player.text
    assert "optimal player's chance" not in player.text


def test_the_return_rule_of_thumb_is_worded_as_it_plays() -> None:
    player = SimulatedPlayer(((Choice.RETURN, Played.RULE_OF_THUMB),))
    assert "keep a hand that meets every condition" in player.detail
    assert "then any others" in player.detail


def test_no_redraw_allowed_makes_no_redraw_choice() -> None:
    procedure = Procedure(5, mulligan=RedrawRule(triggers=REDRAW.triggers, max_redraws=0))
    answer = simulate(REDRAW_PROBLEM, procedure, Query(5), Policy(), trials=200, seed=1)
    sim = Simulation.of(answer)
    assert sim is not None and Choice.REDRAW not in dict(sim.player.decisions)
    assert sim.player.summary == "no-choice"


def test_seeded_figures_are_those_before_the_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pinned literals from before the reasons were added (the same seeds, the same deals)."""
    problem = look_ahead_problem()
    optimal = simulate(problem, PROCEDURE, Query(9), Policy(), trials=2_000, seed=7)
    assert (optimal.successes, optimal.trials) == (606, 2_000)
    procedure = Procedure(5, mulligan=REDRAW)
    redraw = simulate(REDRAW_PROBLEM, procedure, Query(5), Policy(), trials=1_000, seed=2)
    assert (redraw.successes, redraw.trials) == (582, 1_000)
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 0)
    (row,) = solve_turns(problem, PROCEDURE, [Query(9, turns=4)], Policy(), budget=0)
    assert (row.successes, row.trials, row.seed) == (18, 50, 4)
