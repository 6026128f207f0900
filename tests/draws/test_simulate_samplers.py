"""The plain draw's outcome-class sampler, and how many worker processes a simulation starts.

Seeded and checked at 4.5 standard errors (or a chi-square at 5 sigma): no test here asserts on
wall-clock time.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from deckcheck.core import cpus
from deckcheck.core.numeric import np
from deckcheck.draws.facade import Mode, Policy, redraw_choice, solve
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule
from deckcheck.draws.simulate import vectorised
from deckcheck.draws.simulate.outcomes import OutcomeSampler, RedrawSampler, in_reach
from deckcheck.draws.simulate.vectorised import simulate_vectorised

SIGMAS = 4.5

# Three shapes: two groups and one card (The Drake's leader), three groups with a lower and an
# upper bound (Ren Dhark), and overlapping selectors over six groups with an equality.
DRAKE = DrawProblem((1, 6), ((True,), (False,)), (CountTest(0, ">=", 1),))
RD = DrawProblem(
    (15, 12, 5),
    ((True, False), (False, False), (False, True)),
    (CountTest(0, ">=", 2), CountTest(1, "<=", 2)),
)
MIXED = DrawProblem(
    (9, 6, 6, 2, 4, 13),
    (
        (True, False, True),
        (True, False, False),
        (False, True, True),
        (False, True, False),
        (False, False, True),
        (False, False, False),
    ),
    (CountTest(0, ">=", 2), CountTest(1, "=", 1), CountTest(2, "<", 5)),
)
CASES = [(DRAKE, 1), (RD, 7), (MIXED, 12)]


def _exact(problem: DrawProblem, seen: int) -> float:
    answer = solve(problem, Procedure(seen), Query(seen, use_mulligan=False), mode=Mode.EXACT)
    return float(answer.probability)


@pytest.mark.parametrize(("problem", "seen"), CASES, ids=["drake", "rd", "mixed"])
def test_outcome_table_is_the_exact_distribution(problem: DrawProblem, seen: int) -> None:
    sampler = OutcomeSampler(problem, seen)
    assert in_reach(problem, seen, 1_000_000)
    assert math.isclose(float(sampler.probabilities.sum()), 1.0, rel_tol=1e-12)
    table = float(sampler.probabilities[sampler.passes].sum())
    assert math.isclose(table, _exact(problem, seen), rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize(("problem", "seen"), CASES, ids=["drake", "rd", "mixed"])
def test_classes_follow_the_table(problem: DrawProblem, seen: int) -> None:
    """The alias draws give each class its probability (a chi-square within 5 sigma)."""
    sampler = OutcomeSampler(problem, seen)
    trials = 200_000
    drawn = sampler.classes(np.random.default_rng(11), trials)
    counts = np.bincount(drawn, minlength=len(sampler.probabilities))
    assert counts[len(sampler.probabilities) :].sum() == 0  # padding buckets never drawn
    expected = sampler.probabilities * trials
    assert not counts[expected == 0].any()
    live = expected > 0
    chi2 = float((((counts[live] - expected[live]) ** 2) / expected[live]).sum())
    dof = int(live.sum()) - 1
    assert chi2 < dof + 5 * math.sqrt(2 * max(dof, 1))


@pytest.mark.parametrize(("problem", "seen"), CASES, ids=["drake", "rd", "mixed"])
def test_simulated_plain_draw_within_its_interval(problem: DrawProblem, seen: int) -> None:
    exact = _exact(problem, seen)
    trials = 400_000
    query = Query(seen, use_mulligan=False)
    got = simulate_vectorised(problem, Procedure(seen), query, trials, 5)
    sigma = math.sqrt(exact * (1 - exact) / trials)
    assert abs(got.probability - exact) <= SIGMAS * sigma + 1e-12
    again = simulate_vectorised(
        problem, Procedure(seen), Query(seen, use_mulligan=False), trials, 5
    )
    assert again.successes == got.successes


def test_ties_with_a_threshold_are_settled_by_more_bits() -> None:
    """One card in 100,000 lies below one value of a deal's word: only the tie's extra bits
    can draw it, and they draw it at its own rate, in both ways of counting."""
    pile = 100_000
    rare = DrawProblem((1, pile - 1), ((True,), (False,)), (CountTest(0, ">=", 1),))
    sampler = OutcomeSampler(rare, 1)
    assert int(sampler.hi[1]) == 0  # the class's whole weight is in the tie bits
    rng = np.random.default_rng(3)
    batches, batch = 4, 1 << 20
    by_class = sum(int(np.count_nonzero(sampler.classes(rng, batch) == 1)) for _ in range(batches))
    by_verdict = sum(sampler.successes(rng, batch) for _ in range(batches))
    mean = batches * batch / pile
    for got in (by_class, by_verdict):
        assert abs(got - mean) <= SIGMAS * math.sqrt(mean)


def test_chunk_results_do_not_depend_on_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectorised, "CHUNK", 1 << 16)
    monkeypatch.setattr(vectorised, "WORKER_START_SECONDS", 0.0)
    query = Query(7, use_mulligan=False)
    one = simulate_vectorised(RD, Procedure(7), query, 300_000, 9, workers=1)
    two = simulate_vectorised(RD, Procedure(7), query, 300_000, 9, workers=2)
    assert one.successes == two.successes
    assert one.processes == 1


# -- processors ---------------------------------------------------------------------------------


def test_affinity_of_one_core_is_one_processor(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert cpus.usable_cpus(tmp_path, tmp_path / "none") == 1


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"cpu.max": "max 100000\n"}, 8),
        ({"cpu.max": "200000 100000\n"}, 2),
        ({"cpu.max": "50000 100000\n"}, 1),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, 8),
        ({"cpu/cpu.cfs_quota_us": "300000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 3),
        ({"work/cpu.max": "100000 100000\n", "cpu.max": "max 100000\n"}, 1),
    ],
    ids=["v2-none", "v2-two", "v2-half", "v1-none", "v1-three", "v2-own-group"],
)
def test_cgroup_quota_caps_the_processors(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, files: dict[str, str], expected: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    own = tmp_path / "self-cgroup"
    own.write_text("0::/work\n" if "work/cpu.max" in files else "0::/\n")
    assert cpus.usable_cpus(tmp_path, own) == expected


def test_pinned_to_one_core_no_worker_starts() -> None:
    """As under ``taskset -c 0``: a run long enough for workers, pinned, starts none."""
    script = """
import json, multiprocessing, os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from deckcheck.draws.simulate import vectorised
from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query, RedrawRule
vectorised.CHUNK = 1 << 14
vectorised.WORKER_START_SECONDS = 0.0
def refuse(*args, **kwargs):
    raise AssertionError("a worker pool was started")
vectorised._worker_pool = refuse
problem = DrawProblem((15, 12, 5), ((True,), (False,), (False,)), (CountTest(0, ">=", 2),))
answer = vectorised.simulate_vectorised(problem, Procedure(7), Query(7), 200_000, 1)
print(json.dumps([answer.processes, len(multiprocessing.active_children())]))
"""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no CPU affinity on this system")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [1, 0]


def test_exact_fraction_of_the_drake_leader() -> None:
    """The table's figure for one tile of seven is 1/7 to the last bit of a double."""
    sampler = OutcomeSampler(DRAKE, 1)
    assert float(sampler.probabilities[sampler.passes].sum()) == float(Fraction(1, 7))


# -- the redraw rule on hand compositions ---------------------------------------------------------

RD_RULE = RedrawRule((CountTest(2, "<", 2), CountTest(3, ">", 3)), 1)
RD_TRIGGERED = DrawProblem(
    (15, 12, 5),
    ((True, False, True, False), (False, False, False, False), (False, True, False, True)),
    (CountTest(0, ">=", 3), CountTest(1, "<=", 1)),
)


@pytest.mark.parametrize("seen", [7, 11], ids=["hand", "turn-3"])
@pytest.mark.parametrize("limit", [1, 2], ids=["once", "twice"])
def test_optimal_redraw_simulated_within_its_interval(seen: int, limit: int) -> None:
    """The optimal redraw, dealt by hand compositions, agrees with the exact engine (with and
    without the rule), and the same seed gives the same counts."""
    rule = RedrawRule(RD_RULE.triggers, limit)
    procedure = Procedure(7, None, 2, rule)
    query = Query(seen)
    exact = solve(RD_TRIGGERED, procedure, query, Policy(), mode=Mode.EXACT)
    choose, optimal = redraw_choice(RD_TRIGGERED, procedure, query)
    assert optimal
    sampler = RedrawSampler.build(RD_TRIGGERED, 7, seen - 7, rule, choose, 400_000)
    assert sampler is not None
    trials = 400_000
    got = simulate_vectorised(RD_TRIGGERED, procedure, query, trials, 3, choose_redraw=choose)
    for simulated, p in (
        (got.probability, float(exact.probability)),
        (got.probability_without_mulligan, float(exact.probability_without_mulligan)),
    ):
        assert abs(simulated - p) <= SIGMAS * math.sqrt(p * (1 - p) / trials) + 1e-12
    again = simulate_vectorised(RD_TRIGGERED, procedure, query, trials, 3, choose_redraw=choose)
    assert again.successes == got.successes


def test_hand_compositions_follow_the_hypergeometric_law() -> None:
    sampler = RedrawSampler.build(RD_TRIGGERED, 7, 0, RD_RULE, None, 200_000)
    assert sampler is not None
    hands = sampler.compositions
    assert len(hands) == len(set(hands)) == 33  # 36 ways, less 3 with 6+ of the 5 cards
    trials = 200_000
    counts = np.bincount(sampler.deal(np.random.default_rng(4), trials), minlength=len(hands))
    total = math.comb(sum(RD_TRIGGERED.group_sizes), 7)
    expected = (
        np.asarray(
            [
                math.prod(math.comb(s, k) for s, k in zip(RD_TRIGGERED.group_sizes, h, strict=True))
                / total
                for h in hands
            ]
        )
        * trials
    )
    chi2 = float((((counts - expected) ** 2) / expected).sum())
    dof = len(hands) - 1
    assert chi2 < dof + 5 * math.sqrt(2 * dof)
