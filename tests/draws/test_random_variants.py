"""Random variants are the draws they describe: odds, hand and simulate deal from the file."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

from conftest import invoke

HEROES = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor", "Gor", "Guelin", "Riel", "Vargen"]


def _write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _odds(*args: str) -> dict:
    result = invoke(["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_random_drake_stack_leader_odds(tmp_path: Path) -> None:
    stack = ["game: the-drake", "variant: random", "Drake", "2 Clubman", "Monk", "Archer"]
    data = _odds(_write(tmp_path, "stack.txt", stack), "name:Clubman>=1")
    assert Fraction(data["probability_exact"]) == Fraction(2, 5)  # 2 of 5 troops lead
    assert data["cards_seen"] == 1


def test_random_party_drawn_from_the_listed_heroes(tmp_path: Path) -> None:
    pool = _write(tmp_path, "pool.txt", ["game: dorn", "variant: random-party", *HEROES])
    data = _odds(pool, "name:Gor>=1", "name:Riel>=1")
    # both named heroes among 5 drawn from 9: C(7,3)/C(9,5)
    assert Fraction(data["probability_exact"]) == Fraction(comb(7, 3), comb(9, 5))
    assert data["cards_seen"] == 5


def test_random_party_hand_and_simulate(tmp_path: Path) -> None:
    pool = _write(tmp_path, "pool.txt", ["game: dorn", "variant: random-party", *HEROES])
    hand = invoke(["hand", pool, "--seed", "4", "--json"])
    assert hand.exit_code == 0, hand.output
    sim = invoke(["simulate", pool, "name:Gor>=1", "--trials", "40000", "--seed", "2", "--json"])
    assert sim.exit_code == 0, sim.output
    p, exact = json.loads(sim.stdout)["probability"], 5 / 9
    sigma = (exact * (1 - exact) / 40000) ** 0.5
    assert abs(p - exact) < 5 * sigma


def test_a_fixed_variant_is_still_not_drawn_from(tmp_path: Path) -> None:
    party = _write(tmp_path, "party.txt", ["game: dorn", *HEROES[:5]])
    result = invoke(["odds", party, "name:Gor>=1"])
    assert result.exit_code == 2
    assert "dorn:heroes" in result.output


def test_random_party_pool_validates_as_a_pool(tmp_path: Path) -> None:
    """The random-party file lists the heroes drawn from: all nine is legal, fewer than 5 not."""
    pool = _write(tmp_path, "pool.txt", ["game: dorn", "variant: random-party", *HEROES])
    assert invoke(["validate", pool]).exit_code == 0
    small = _write(tmp_path, "small.txt", ["game: dorn", "variant: random-party", *HEROES[:4]])
    result = invoke(["validate", small, "--json"])
    assert result.exit_code == 1
    assert [v["code"] for v in json.loads(result.stdout)["violations"]] == ["dorn.party-size"]
    six = _write(tmp_path, "six.txt", ["game: dorn", *HEROES[:6]])
    assert invoke(["validate", six]).exit_code == 1  # standard: exactly 5
