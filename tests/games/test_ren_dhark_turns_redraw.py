"""Ren Dhark: cards seen by turn (blue 7 + 2(t - 1), red 8 + 2(t - 1)) and the optional redraw.

Every expected value is computed here independently of deckcheck's engines: hypergeometric
sums with ``math.comb``, and brute force over every hand of a small deck with
``itertools.combinations``. Simulations are seeded and checked within 4.5 standard errors.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from pathlib import Path

import pytest

from deckcheck.analysis.odds import GAME_RULE, OddsOptions, compute_odds, simulate_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.commands.hands import sample_hands
from deckcheck.decks.load import open_deck
from deckcheck.games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
BLUE = str(ROOT / "examples" / "ren-dhark" / "blue-starter.txt")
SIGMAS = 4.5


def exact(report: object) -> Fraction:
    text = getattr(report, "probability_exact", None)
    assert isinstance(text, str), report
    return Fraction(text)


def at_least(total: int, good: int, drawn: int, k: int) -> Fraction:
    return sum(
        (
            Fraction(
                math.comb(good, j) * math.comb(total - good, drawn - j), math.comb(total, drawn)
            )
            for j in range(k, min(good, drawn) + 1)
        ),
        Fraction(0),
    )


# ------------------------------------------------------------------------- cards by turn


@pytest.mark.parametrize("turn", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("second", [False, True])
def test_cards_seen_by_turn_blue_and_red(turn: int, second: bool) -> None:
    setup = draw_setup(open_deck(BLUE))
    options = OddsOptions(turn=turn, second=second, mulligan="none")
    report = compute_odds(setup, ["I/25>=1"], options)
    want = (8 if second else 7) + 2 * (turn - 1)
    assert report.cards_seen == want
    # one copy of I/25 in a pile of 33 (the planet is set aside)
    assert exact(report) == Fraction(want, 33)


def test_the_issue_figures_point_of_by_the_fifth_attack() -> None:
    setup = draw_setup(open_deck(BLUE))
    always = {
        second: compute_odds(
            setup, ["I/25>=1"], OddsOptions(turn=5, second=second, redraw_policy="always")
        )
        for second in (False, True)
    }
    # The issue quotes 0.463 and 0.492 (to about a thousandth).
    assert always[False].cards_seen == 15
    assert always[False].probability == pytest.approx(0.463, abs=1e-3)
    assert always[True].cards_seen == 16
    assert always[True].probability == pytest.approx(0.492, abs=1e-3)
    for second in (False, True):
        best = compute_odds(setup, ["I/25>=1"], OddsOptions(turn=5, second=second))
        assert exact(best) >= exact(always[second])
        assert any("minimums" in a for a in best.assumptions)
        assert any(("red" if second else "blue") in a for a in best.assumptions)


def test_by_turn_rows_follow_the_player() -> None:
    setup = draw_setup(open_deck(BLUE))
    for second, first in ((False, 7), (True, 8)):
        report = compute_odds(
            setup, ["type:ship>=4"], OddsOptions(by_turn=4, second=second, mulligan="none")
        )
        assert [r.cards_seen for r in report.by_turn] == [first + 2 * i for i in range(4)]
        ships = 15  # the blue starter's ships, I/11 among them
        for row in report.by_turn:
            assert row.probability == pytest.approx(
                float(at_least(33, ships, row.cards_seen, 4)), abs=1e-12
            )


def test_simulate_turn_uses_the_same_counts() -> None:
    setup = draw_setup(open_deck(BLUE))
    sim = simulate_odds(
        setup, ["I/25>=1"], OddsOptions(turn=3, second=True, mulligan="none"), 20_000, 5
    )
    assert sim.cards_seen == 12
    assert sim.ci95 is not None
    p = 12 / 33
    se = math.sqrt(p * (1 - p) / 20_000)
    assert abs(sim.probability - p) < SIGMAS * se


# ------------------------------------------------------- the optional redraw, brute force


def small_deck(tmp_path: Path) -> tuple[Path, list[set[str]]]:
    """4 ships, 5 actions, 3 persons and the planet: a pile of 12, small enough to enumerate."""
    catalog = get_game("ren-dhark").bundled_catalog()
    blue = [catalog.by_id(f"I/{i}") for i in range(1, 34)]
    ships = [c for c in blue if c and c.has_type("ship") and not c.has_type("unit")][:4]
    actions = [c for c in blue if c and c.has_type("action")][:5]
    persons = [c for c in blue if c and c.has_type("person")][:3]
    cards = [*ships, *actions, *persons]
    path = tmp_path / "small.txt"
    lines = ["game: ren-dhark", "variant: custom", "I/67"]
    lines += [c.id for c in cards]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, [set(c.types) for c in cards]


def brute_force(
    types: Sequence[AbstractSet[str]],
    seen: int,
    goal: Callable[[Sequence[AbstractSet[str]]], bool],
    redraws: int,
) -> tuple[Fraction, Fraction]:
    """(optimal value with at most ``redraws`` redraws, value without) by enumeration.

    keep(h) = the share of later draws that meet the goal; a hand the rule allows may be
    redrawn, worth the value with one redraw fewer; the player takes the larger.
    """
    wins, later, allowed = hand_values(tuple(frozenset(t) for t in types), seen, goal)
    # keep(h) is wins(h) / later for every hand: sums of them are whole numbers over later.
    hands = len(wins)
    value = Fraction(sum(wins), later * hands)
    plain = value
    for _ in range(redraws):
        kept = redrawn = 0
        for w, a in zip(wins, allowed, strict=True):
            if a and w * value.denominator < value.numerator * later:  # max(keep, value)
                redrawn += 1
            else:
                kept += w
        value = (Fraction(kept, later) + redrawn * value) / hands
    return value, plain


@functools.cache
def hand_values(
    types: tuple[frozenset[str], ...], seen: int, goal: Callable[[Sequence[AbstractSet[str]]], bool]
) -> tuple[tuple[int, ...], int, tuple[bool, ...]]:
    """Per hand of 7 (every one, in order): how many of the ``later`` draws after it meet the
    goal, that number of draws, and per hand whether the rule allows a redraw. The same for
    every redraw limit: enumerated once."""
    n = len(types)
    # The goal reads a holding's card types alone, in any order: it is asked once per mix of
    # types (how many cards of each distinct set of types), every hand and draw still counted.
    kinds = list(dict.fromkeys(types))
    kind_of = [kinds.index(t) for t in types]

    @functools.cache
    def judged(mix: tuple[int, ...]) -> bool:
        return goal([kinds[k] for k, many in enumerate(mix) for _ in range(many)])

    keep: list[int] = []
    allowed: list[bool] = []
    later = math.comb(n - 7, seen - 7)
    for hand in itertools.combinations(range(n), 7):
        rest = [i for i in range(n) if i not in hand]
        in_hand = [0] * len(kinds)
        for i in hand:
            in_hand[kind_of[i]] += 1
        wins = drawn = 0
        for more in itertools.combinations(rest, seen - 7):
            mix = in_hand[:]
            for i in more:
                mix[kind_of[i]] += 1
            wins += judged(tuple(mix))
            drawn += 1
        assert drawn == later
        keep.append(wins)
        held = [types[i] for i in hand]
        ships = sum("ship" in t for t in held)
        actions = sum("action" in t for t in held)
        allowed.append(ships < 2 or actions > 3)
    return tuple(keep), later, tuple(allowed)


def count(kind: str) -> Callable[[Sequence[AbstractSet[str]]], int]:
    return lambda held: sum(kind in t for t in held)


GOALS: dict[str, Callable[[Sequence[AbstractSet[str]]], bool]] = {
    "type:ship>=2": lambda h: count("ship")(h) >= 2,
    "type:action>=4": lambda h: count("action")(h) >= 4,
    "type:person>=2": lambda h: count("person")(h) >= 2,
    "type:ship>=3": lambda h: count("ship")(h) >= 3,
    "type:action<=2": lambda h: count("action")(h) <= 2,
}


@pytest.mark.parametrize("condition", list(GOALS))
@pytest.mark.parametrize(("turn", "second"), [(1, False), (2, False), (1, True), (2, True)])
@pytest.mark.parametrize("redraws", [1, 2])
def test_optimal_redraw_matches_brute_force(
    tmp_path: Path, condition: str, turn: int, second: bool, redraws: int
) -> None:
    path, types = small_deck(tmp_path)
    setup = draw_setup(open_deck(str(path)))
    assert setup.pile_size == 12
    report = compute_odds(
        setup, [condition], OddsOptions(turn=turn, second=second, redraws=redraws)
    )
    seen = (8 if second else 7) + 2 * (turn - 1)
    assert report.cards_seen == seen
    best, plain = brute_force(types, seen, GOALS[condition], redraws)
    assert exact(report) == best
    assert report.probability_without_mulligan == pytest.approx(float(plain), abs=1e-12)
    assert best >= plain


# --------------------------------------------- the figure with the rule never falls below


QUERIES = [
    [f"type:{kind}{op}{k}"]
    for kind in ("ship", "action", "person", "unit")
    for op in (">=", "<=", "=")
    for k in (0, 1, 2, 3, 4, 6)
] + [
    ["I/25>=1"],
    ["POINT OF>=1", "type:ship>=2"],
    ["type:ship>=3", "type:action<=1"],
    ["type:action>=2", "type:person>=3"],
    ["type:ship<=1"],
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: " & ".join(q))
def test_the_rule_never_lowers_the_figure(query: list[str]) -> None:
    setup = draw_setup(open_deck(BLUE))
    for turn, second, redraws in ((1, False, GAME_RULE), (3, True, GAME_RULE), (2, False, None)):
        report = compute_odds(setup, query, OddsOptions(turn=turn, second=second, redraws=redraws))
        assert report.exact
        assert report.probability >= report.probability_without_mulligan
        always = compute_odds(
            setup,
            query,
            OddsOptions(turn=turn, second=second, redraws=redraws, redraw_policy="always"),
        )
        assert exact(report) >= exact(always)


def test_the_forced_redraw_could_lower_it() -> None:
    """The old default: why the redraw had to become optional (issue figures)."""
    setup = draw_setup(open_deck(BLUE))
    always = compute_odds(setup, ["type:action>=4"], OddsOptions(redraw_policy="always"))
    best = compute_odds(setup, ["type:action>=4"], OddsOptions())
    assert always.probability < always.probability_without_mulligan
    assert best.probability > best.probability_without_mulligan
    assert round(always.probability, 5) == 0.00085
    assert round(best.probability_without_mulligan, 4) == 0.0108


# ------------------------------------------------------------ simulate the optimal policy


@pytest.mark.parametrize(
    ("conditions", "turn", "second"),
    [
        (["type:action>=4"], 1, False),
        (["type:ship>=3"], 2, True),
        (["POINT OF>=1", "type:ship>=2"], 3, False),
    ],
)
@pytest.mark.parametrize("numpy", [True, False])
def test_simulated_optimal_policy_agrees_with_the_exact_figure(
    monkeypatch: pytest.MonkeyPatch, conditions: list[str], turn: int, second: bool, numpy: bool
) -> None:
    setup = draw_setup(open_deck(BLUE))
    options = OddsOptions(turn=turn, second=second)
    exact_report = compute_odds(setup, conditions, options)
    assert exact_report.method.startswith("exact (optimal redraw")
    if not numpy:
        # the plain-Python reference simulator, as where numpy is missing
        import deckcheck.draws.simulate.vectorised as vectorised

        monkeypatch.delattr(vectorised, "simulate_vectorised")
    # The plain-Python reference is slow: 10,000 trials still tell the optimal policy from
    # always redrawing (0.0115 against 0.0008 in the first case).
    trials = 200_000 if numpy else 10_000
    sim = simulate_odds(setup, conditions, options, trials, 3)
    assert ("numpy" in sim.method) is numpy
    assert any("exact optimum" in a for a in sim.assumptions)
    for p_exact, p_sim in (
        (exact_report.probability, sim.probability),
        (exact_report.probability_without_mulligan, sim.probability_without_mulligan),
    ):
        se = math.sqrt(max(p_exact * (1 - p_exact), 1e-6) / trials)
        assert abs(p_sim - p_exact) < SIGMAS * se, (p_sim, p_exact)


def test_simulated_always_policy_agrees_with_its_exact_figure() -> None:
    setup = draw_setup(open_deck(BLUE))
    options = OddsOptions(turn=2, redraw_policy="always")
    exact_report = compute_odds(setup, ["type:action>=4"], options)
    sim = simulate_odds(setup, ["type:action>=4"], options, 200_000, 8)
    p = exact_report.probability
    assert abs(sim.probability - p) < SIGMAS * math.sqrt(p * (1 - p) / 200_000)


# -------------------------------------------------------------------------------- hand


def test_hand_default_redraws_only_when_it_helps() -> None:
    setup = draw_setup(open_deck(BLUE))
    kept = sample_hands(setup, count=200, seed=4, conditions=["type:action>=4"])
    forced = sample_hands(
        setup, count=200, seed=4, conditions=["type:action>=4"], redraw_policy="always"
    )
    differs = [
        (a, b) for a, b in zip(kept.hands, forced.hands, strict=True) if a.decisions != b.decisions
    ]
    assert differs, "some hand with 4+ actions should be dealt"
    for a, _ in differs:
        assert a.decisions[0].startswith("kept") and a.satisfied


def test_out_of_exact_reach_the_stated_policy_is_simulated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the optimum's table is out of reach, odds simulates a stated policy (redraw an
    allowed hand unless it meets the goal), which over the opening hand is the optimum."""
    import deckcheck.draws.exact.optimal_redraw as optimal
    from deckcheck.draws.exact.odds import Intractable

    setup = draw_setup(open_deck(BLUE))
    want = compute_odds(setup, ["type:ship>=3", "type:action<=2"], OddsOptions())

    def refuse(*args: object, **kwargs: object) -> object:
        raise Intractable("pretend")

    monkeypatch.setattr(optimal, "optimal_redraw_odds", refuse)
    monkeypatch.setattr(optimal, "optimal_redraw_choice", refuse)
    got = compute_odds(setup, ["type:ship>=3", "type:action<=2"], OddsOptions())
    assert not got.exact and got.trials == 200_000
    assert any("unless it already meets every condition" in a for a in got.assumptions)
    p = want.probability
    assert abs(got.probability - p) < SIGMAS * math.sqrt(p * (1 - p) / 200_000)
