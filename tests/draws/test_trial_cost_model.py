"""The cost model a default ``simulate`` run (and an ``odds`` fallback) picks its trial count
with: monotone in a deal's work, and, for the shapes ``bench/bench_trial_cost.py`` measures
across the bundled examples, the default count times the measured cost of a deal within the
simulation budget, or the fewest trials a run takes and a fact saying they are over it.
Computed from recorded measurements: nothing here is timed."""

from __future__ import annotations

from functools import cache

import pytest
from conftest import EXAMPLES, PC_TEN_CONDITIONS, RD_TEN_CONDITIONS, REPO, load_script

from deckcheck.analysis.odds import OddsOptions, bind, cards_seen
from deckcheck.analysis.setup import DrawSetup, draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws import facade
from deckcheck.draws.answer import FactKind
from deckcheck.draws.facade import (
    FALLBACK_TRIALS,
    MIN_SIMULATE_TRIALS,
    SIMULATION_BUDGET,
    default_trials,
    fallback_trials,
    over_budget,
    trial_cost,
)
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    ReturnRule,
)

PC = PC_TEN_CONDITIONS
NAMES = [
    "name:Gold Miner>=1",
    "name:Collector of Cosmium<=1",
    "name:Deep Drill=1",
    "name:Cosmium Siphon>=1",
    "name:Dynamo Rig<=1",
    "name:Twin Excavator=1",
    "name:Stone Bunker>=1",
    "name:Watchtower<=1",
    "name:Mud Hut=1",
    "name:Power Plant>=1",
    "name:Field Hospital<=1",
    "name:Sky Citadel=1",
]
STCCG = load_script("bench_cases", REPO / "bench" / "cases.py").STCCG_CONDITIONS[:12]
RD = RD_TEN_CONDITIONS
L80 = "planetary-conquerors/legal-80.txt"
L50 = "planetary-conquerors/legal-50.txt"

#: (deck, conditions, turn, second, mulligan, decisions read from the exact tables, the
#: measured units of a deal: the largest of the bench's runs, loaded machine).
MEASURED = [
    ("stccg-1e/legal-klingon.txt", STCCG, 6, False, "rules", False, 10),
    ("ren-dhark/terra-custom.txt", RD, 6, False, "rules", False, 61),
    ("ren-dhark/terra-custom.txt", RD[:5], 1, False, "rules", False, 50),
    (L80, PC[:6], 3, False, "rules", True, 1092),
    (L80, PC[:6], 3, True, "rules", True, 1731),
    (L80, PC[:6], 3, True, "none", True, 1168),
    (L80, PC[:6], 3, True, "rules", False, 65),
    (L80, PC, 1, False, "rules", True, 139),
    (L80, PC[:2], 6, False, "rules", True, 145),
    (L80, PC, 1, True, "rules", True, 129),
    (L80, NAMES, 3, False, "rules", False, 97),
    (L80, NAMES, 6, True, "rules", True, 882),
    (L50, PC, 1, False, "rules", True, 441),
    (L50, PC[:6], 6, True, "none", True, 2362),
]


@cache
def _setup(deck: str) -> DrawSetup:
    return draw_setup(open_deck(str(EXAMPLES / deck)))


def _shape(
    deck: str, conditions: list[str], turn: int, second: bool, mulligan: str
) -> tuple[DrawProblem, Procedure, Query]:
    setup = _setup(deck)
    options = OddsOptions(turn=turn, second=second, mulligan=mulligan)  # type: ignore[arg-type]
    bound = bind(setup, conditions, options)
    seen = cards_seen(setup, bound.procedure, options, turn)
    return bound.problem, bound.procedure, Query(seen, second, mulligan == "rules", turn)


@pytest.mark.parametrize(
    "deck, conditions, turn, second, mulligan, decided, measured",
    MEASURED,
    ids=[f"{m[0]}-{len(m[1])}-t{m[2]}-{m[3]}-{m[4]}-{m[5]}" for m in MEASURED],
)
def test_default_trials_times_measured_cost_within_budget(
    deck: str,
    conditions: list[str],
    turn: int,
    second: bool,
    mulligan: str,
    decided: bool,
    measured: int,
) -> None:
    problem, procedure, query = _shape(deck, conditions, turn, second, mulligan)
    trials = default_trials(problem, procedure, query, decided)
    over = over_budget(problem, procedure, query, trials, SIMULATION_BUDGET, decided)
    if trials * measured > SIMULATION_BUDGET:
        # Only the floor may go past the budget, and the run then says so.
        assert trials == MIN_SIMULATE_TRIALS
        assert over is not None and over.kind is FactKind.TRIALS_OVER_BUDGET
        assert over.count == MIN_SIMULATE_TRIALS and over.limit is not None
        assert over.limit < MIN_SIMULATE_TRIALS
    else:
        assert trials >= MIN_SIMULATE_TRIALS
    if not decided:  # an odds fallback plays the rules of thumb
        fell = fallback_trials(problem, procedure, query, FALLBACK_TRIALS)
        assert fell == facade.MIN_FALLBACK_TRIALS or fell * measured <= SIMULATION_BUDGET


#: Four groups: two conditions over the first three.
BASE = DrawProblem(
    group_sizes=(4, 6, 2, 28),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 1)),
)
#: The same with one group split in two (more groups, the same conditions).
SPLIT = DrawProblem(
    group_sizes=(4, 6, 2, 14, 14),
    membership=((True, False), (False, True), (True, True), (False, False), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 1)),
)
#: The same with a third condition, over as many groups as each of the others (a condition
#: summing fewer groups asks the exact engine less: the cost is per group a condition sums).
MORE = DrawProblem(
    group_sizes=(4, 6, 2, 28),
    membership=((True, False), (False, True), (True, True), (False, False)),
    conditions=(CountTest(0, ">=", 2), CountTest(1, "<=", 1), CountTest(0, "<=", 3)),
)
PLAIN = Procedure(5)
REDRAW = Procedure(5, mulligan=RedrawRule((CountTest(0, "<", 1),), 1))
RETURN = Procedure(5, mulligan=ReturnRule(3))
LOOK = Procedure(5, draws_per_turn=2, lookahead=True)
LOOK_RETURN = Procedure(5, draws_per_turn=2, mulligan=ReturnRule(3), lookahead=True)


@pytest.mark.parametrize("procedure", [PLAIN, REDRAW, RETURN, LOOK, LOOK_RETURN])
@pytest.mark.parametrize("decided", [False, True])
def test_trial_cost_is_monotone_in_the_deals_work(procedure: Procedure, decided: bool) -> None:
    def cost(problem: DrawProblem, seen: int, chosen: bool = decided) -> int:
        return trial_cost(problem, procedure, Query(seen), decided=chosen)

    for seen in (5, 7, 9, 11):
        assert cost(BASE, seen) <= cost(BASE, seen + 2)  # later draws
        assert cost(BASE, seen) <= cost(SPLIT, seen)  # more groups
        assert cost(BASE, seen) <= cost(MORE, seen)  # more conditions
        assert cost(BASE, seen, False) <= cost(BASE, seen, True)  # decisions from tables
    if procedure.lookahead:  # looks in the later draws cost more than plain draws
        assert trial_cost(BASE, PLAIN, Query(11)) < cost(BASE, 11)
    if procedure.mulligan is not None:  # a mulligan deals more
        assert trial_cost(BASE, PLAIN, Query(9)) < cost(BASE, 9)


def test_a_run_whose_fewest_deals_exceed_the_budget_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deckcheck.analysis.odds import Simulation
    from deckcheck.draws.facade import Policy, simulate

    monkeypatch.setattr(facade, "MIN_SIMULATE_TRIALS", 300)
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 1_000)
    answer = simulate(BASE, LOOK_RETURN, Query(9), Policy(), trials=None, seed=1)
    assert answer.trials == 300
    over = [f for f in answer.facts if f.kind is FactKind.TRIALS_OVER_BUDGET]
    assert len(over) == 1 and over[0].count == 300 and over[0].limit is not None
    sim = Simulation.of(answer)
    assert sim is not None
    assert sim.to_json()["over_budget"] == {"trials": 300, "budget_affords": over[0].limit}
    low, high = answer.ci95 or (0.0, 1.0)
    assert low <= answer.probability <= high  # the interval is still reported
    # Within the budget: no such fact, and null in the JSON.
    monkeypatch.setattr(facade, "SIMULATION_BUDGET", 10**12)
    fits = simulate(BASE, PLAIN, Query(9), Policy(), trials=None, seed=1, tables=False)
    assert not any(f.kind is FactKind.TRIALS_OVER_BUDGET for f in fits.facts)
    sim = Simulation.of(fits)
    assert sim is not None and sim.to_json()["over_budget"] is None


def test_the_return_guide_is_refused_past_odds_work_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.analysis.mulligan import guide_table
    from deckcheck.core.errors import UsageError

    setup = _setup(L50)
    options = OddsOptions(turn=2)
    table, _ = guide_table(setup, ["type:miner>=1"], options)  # within the limit
    assert table.rows
    monkeypatch.setattr(facade, "EXACT_WORK_LIMIT", 1)
    with pytest.raises(UsageError, match="out of reach"):
        guide_table(setup, ["type:miner>=1"], options)
