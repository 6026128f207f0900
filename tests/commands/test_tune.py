"""``tune`` agrees with a brute-force search over counts: for every count a real deck file with
that many category cards is written and its odds computed; the answer is the first count that
reaches the target (the last, for an upper bound)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.analysis.odds import OddsOptions, compute_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.commands.tune import tune_deck
from deckcheck.decks.load import open_deck

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ACTIONS = ["Globální ochranný štít", "2 Zlatý člověk", "Antisféra", "Stopař Robonů"]


def _ren_dhark_deck(tmp: Path, ships: int, actions: list[str] = ACTIONS) -> Path:
    """A Ren Dhark pile of 32: ``ships`` ships, the given actions, persons for the rest."""
    n_actions = sum(int(a.split()[0]) if a[0].isdigit() else 1 for a in actions)
    persons = 32 - ships - n_actions
    lines = ["game: ren-dhark", "Terra (Sol III)", *actions]
    if ships:
        lines.append(f"{ships} NOGK")
    if persons:
        lines.append(f"{persons} Charaua")
    path = tmp / f"rd-{ships}-{n_actions}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _brute(paths: dict[int, Path], condition: str, options: OddsOptions) -> dict[int, str]:
    exact = {}
    for k, path in paths.items():
        rep = compute_odds(draw_setup(open_deck(str(path))), [condition], options)
        exact[k] = rep.probability_exact
    return exact


def _value(frac: str) -> Fraction:
    return Fraction(frac)


def test_ren_dhark_ships_by_turn_two_agrees_with_brute_force(tmp_path: Path) -> None:
    target = 0.95
    options = OddsOptions(turn=2)
    # The example holds 5 actions and 12 persons/units beside its 15 ships: tune makes room
    # from the persons (no selector counts them) up to 27 ships.
    paths = {k: _ren_dhark_deck(tmp_path, k) for k in range(0, 28)}
    brute = _brute(paths, "type:ship>=2", options)
    expected = min(k for k, p in brute.items() if _value(p) >= target)
    rep = tune_deck(
        open_deck(str(EXAMPLES / "ren-dhark/terra-custom.txt")), "type:ship>=2", target, turn=2
    )
    assert rep.answer == expected
    assert rep.current == 15
    for row in rep.rows:
        assert row.probability_exact == brute[row.count], row.count
    assert rep.rows[0].count <= expected <= rep.rows[-1].count


def test_upper_bound_gives_the_most_cards(tmp_path: Path) -> None:
    """type:action<=1 in the opening hand: the most actions that keep P ≥ 80 %."""
    target = 0.8
    options = OddsOptions()
    paths = {}
    for k in range(0, 12):
        actions = [f"{k} Antisféra"] if k else []
        paths[k] = _ren_dhark_deck(tmp_path, 15, actions)
    brute = _brute(paths, "type:action<=1", options)
    expected = max(k for k, p in brute.items() if _value(p) >= target)
    rep = tune_deck(
        open_deck(str(EXAMPLES / "ren-dhark/terra-custom.txt")), "type:action<=1", target
    )
    assert rep.answer == expected
    for row in rep.rows:
        if row.count in brute:
            assert row.probability_exact == brute[row.count]


def test_planetary_conquerors_return_mulligan_agrees_with_brute_force(tmp_path: Path) -> None:
    target = 0.9
    overlay = EXAMPLES / "planetary-conquerors/example-set.toml"
    paths = {}
    for k in range(10, 26):
        text = (
            f"game: planetary-conquerors\ncatalog: {overlay}\n"
            f"Gold Miner\nCollector of Cosmium\n{k} Trooper\n{48 - k} Stone Bunker\n"
        )
        paths[k] = tmp_path / f"pc-{k}.txt"
        paths[k].write_text(text, encoding="utf-8")
    options = OddsOptions()
    brute = _brute(paths, "type:warrior>=2", options)
    expected = min(k for k, p in brute.items() if _value(p) >= target)
    rep = tune_deck(
        open_deck(str(EXAMPLES / "planetary-conquerors/legal-50.txt")), "type:warrior>=2", target
    )
    assert rep.answer == expected
    for row in rep.rows:
        if row.count in brute:
            assert row.probability_exact == brute[row.count]


def test_no_mulligan_matches_the_hypergeometric_formula() -> None:
    rep = tune_deck(open_deck(str(EXAMPLES / "stccg-1e/legal-federation.txt")), "type:Ship>=1", 0.9)
    n, seen = rep.pile_size, rep.cards_seen

    def p(k: int) -> Fraction:
        return 1 - Fraction(math.comb(n - k, seen), math.comb(n, seen))

    expected = min(k for k in range(n + 1) if p(k) >= Fraction(9, 10))
    assert rep.answer == expected
    for row in rep.rows:
        assert _value(row.probability_exact) == p(row.in_pile)


def test_unreachable_target_says_so() -> None:
    rep = tune_deck(open_deck("dorn:rituals"), "blood_cost:3>=7", 0.5)
    assert rep.answer is None  # 6 rituals are drawn: 7 can never be seen


def test_tune_of_a_pile() -> None:
    rep = tune_deck(open_deck("dorn:rituals"), "blood_cost:3>=2", 0.75)
    n, seen = 12, 6

    def p(k: int) -> Fraction:
        return sum(
            (
                Fraction(math.comb(k, j) * math.comb(n - k, seen - j), math.comb(n, seen))
                for j in range(2, min(k, seen) + 1)
            ),
            Fraction(0),
        )

    assert rep.answer == min(k for k in range(n + 1) if p(k) >= Fraction(3, 4))


def test_set_aside_category_is_an_error() -> None:
    result = invoke(
        ["tune", str(EXAMPLES / "stccg-1e/legal-federation.txt"), "type:Mission>=1", "-p", "0.5"],
    )
    assert result.exit_code == 2
    assert "set" in result.output and "aside" in result.output


@pytest.mark.parametrize(
    ("deck", "condition"),
    [
        ("ren-dhark/terra-custom.txt", "type:ship>=3"),
        ("stccg-1e/legal-klingon.txt", "type:Personnel>=3"),
        ("planetary-conquerors/legal-80.txt", "type:warrior>=2"),
        ("dorn:rituals", "blood_cost:3>=1"),
        ("the-drake:stack", "name:Drake>=1"),
    ],
)
def test_tune_cli_json_for_every_game(deck: str, condition: str) -> None:
    path = deck if ":" in deck else str(EXAMPLES / deck)
    result = invoke(["tune", path, condition, "--target", "60%", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["target"] == 0.6 and data["rows"]
    if data["answer"] is not None:
        row = next(r for r in data["rows"] if r["count"] == data["answer"])
        assert row["probability"] >= 0.6
        before = [r for r in data["rows"] if r["count"] == data["answer"] - 1]
        assert not before or before[0]["probability"] < 0.6
    human = invoke(["tune", path, condition, "--target", "0.6"])
    assert human.exit_code == 0 and "probability" in human.stdout


def test_bad_target_is_exit_2() -> None:
    result = invoke(["tune", "dorn:rituals", "blood_cost:3>=1", "--target", "lots"])
    assert result.exit_code == 2 and "Traceback" not in result.output
