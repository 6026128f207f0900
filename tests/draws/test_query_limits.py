"""Every query answers promptly: the exact engine's work is estimated before it starts, a hopeless
query is simulated at once (saying why), and turns past the pile say where they stop. Work is
bounded by counts (states visited, trials), never by the clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PC_TEN_CONDITIONS
from typer.testing import CliRunner

import deckcheck.draws.exact.sequential as sequential
from deckcheck.analysis.odds import OddsOptions, bind, cards_seen, compute_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.cli.app import app
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import open_deck
from deckcheck.draws.exact.sequential import CALL_UNITS, SequentialEngine
from deckcheck.draws.facade import (
    EXACT_WORK_LIMIT,
    FALLBACK_TRIALS,
    MIN_FALLBACK_TRIALS,
    fallback_trials,
)
from deckcheck.draws.model import Query

REPO = Path(__file__).resolve().parents[2]
PC80 = str(REPO / "examples/planetary-conquerors/legal-80.txt")
PC50 = str(REPO / "examples/planetary-conquerors/legal-50.txt")
RD = str(REPO / "examples/ren-dhark/terra-custom.txt")
TEN = PC_TEN_CONDITIONS


def test_ten_conditions_are_simulated_without_running_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    value = SequentialEngine.value

    def counted(self: SequentialEngine, *args: object) -> int:
        nonlocal calls
        calls += 1
        return value(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(sequential.SequentialEngine, "value", counted)
    progress: list[tuple[int, int]] = []
    report = compute_odds(
        draw_setup(open_deck(PC80)), TEN, OddsOptions(turn=5), lambda d, t: progress.append((d, t))
    )
    assert calls == 0  # no state of the exact engine visited
    assert not report.exact and report.ci95 is not None
    assert report.trials is not None
    assert MIN_FALLBACK_TRIALS <= report.trials <= FALLBACK_TRIALS
    # Refused at the work limit as the states past the hands are valued a level at a time
    # (charged before each step), not by an estimate of the walk over the hands.
    assert any("over the exact budget" in a for a in report.assumptions)
    assert any("rule of thumb" in a for a in report.assumptions)
    assert progress and progress[-1][0] == progress[-1][1] == report.trials


@pytest.mark.parametrize(
    ("deck", "conditions", "turn"),
    [
        (PC50, ["type:miner>=1", "type:trap<=1"], 3),
        (PC80, ["type:warrior>=2"], 20),
        (PC80, ["type:warrior>=2", "type:building>=1", "rarity:3>=1", "type:spell<=2"], 3),
    ],
)
def test_the_estimate_bounds_the_states_visited(
    deck: str, conditions: list[str], turn: int
) -> None:
    setup = draw_setup(open_deck(deck))
    options = OddsOptions(turn=turn)
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    engine = SequentialEngine(bound.problem, bound.procedure, Query(seen), (), 10**9)
    estimate = engine.estimate(3)
    assert estimate <= EXACT_WORK_LIMIT
    engine.without_mulligan()
    engine.return_table(3)
    # The recursion is counted as it runs, against what the limit leaves it.
    assert len(engine.memo) <= engine.work <= estimate + EXACT_WORK_LIMIT // CALL_UNITS
    assert compute_odds(setup, conditions, options).exact


def test_fallback_trials_shrink_with_long_deals() -> None:
    setup = draw_setup(open_deck(PC80))
    options = OddsOptions(turn=20)
    bound = bind(setup, TEN, options)
    seen = cards_seen(setup, bound.procedure, options, 20)
    long = fallback_trials(bound.problem, bound.procedure, Query(seen), FALLBACK_TRIALS)
    short = fallback_trials(bound.problem, bound.procedure, Query(7), FALLBACK_TRIALS)
    assert MIN_FALLBACK_TRIALS <= long < short <= FALLBACK_TRIALS


def test_by_turn_says_where_it_stops() -> None:
    report = compute_odds(draw_setup(open_deck(RD)), ["type:ship>=2"], OddsOptions(by_turn=200))
    last = report.by_turn[-1]
    assert last.turn < 200 and last.cards_seen <= report.pile_size
    assert any(a.startswith(f"--by-turn stops at turn {last.turn}:") for a in report.assumptions)


def test_a_turn_past_the_pile_names_the_last_turn() -> None:
    with pytest.raises(UsageError, match="the last turn the pile covers is"):
        compute_odds(draw_setup(open_deck(RD)), ["type:ship>=2"], OddsOptions(turn=40))
    result = CliRunner().invoke(app, ["odds", RD, "type:ship>=2", "--turn", "40"])
    assert result.exit_code == 2
    assert "last turn" in result.output
