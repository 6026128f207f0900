"""Richer questions: decks given as category counts, "any of" conditions, a category's whole
distribution and user-named categories, each checked against formulas computed here."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck import api

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TERRA = str(EXAMPLES / "ren-dhark/terra-custom.txt")


def _hyper(n: int, sizes: list[int], seen: int, ok) -> Fraction:  # type: ignore[no-untyped-def]
    """P(ok(counts)) for a plain draw of ``seen`` from groups ``sizes`` (+ the rest)."""
    rest = n - sum(sizes)
    total = Fraction(0)
    ranges = [range(min(s, seen) + 1) for s in sizes]
    for ks in itertools.product(*ranges):
        left = seen - sum(ks)
        if left < 0 or left > rest:
            continue
        if ok(ks):
            ways = math.comb(rest, left)
            for s, k in zip(sizes, ks, strict=True):
                ways *= math.comb(s, k)
            total += Fraction(ways, math.comb(n, seen))
    return total


def test_deckless_without_a_game_is_the_hypergeometric_draw() -> None:
    rep = api.odds_deckless(60, ["ships=15", "actions=6"], ["ships>=2", "actions<=1"], seen=7)
    want = _hyper(60, [15, 6], 7, lambda ks: ks[0] >= 2 and ks[1] <= 1)
    assert Fraction(rep.probability_exact) == want


def test_deckless_with_a_game_matches_the_same_deck_file() -> None:
    """terra-custom's pile: 15 ships, 5 actions, 12 others; the game's redraw sees types."""
    for turn in (None, 2):
        real = api.odds(TERRA, ["type:ship>=3"], turn=turn)
        given = api.odds_deckless(
            32, ["type:ship=15", "type:action=5"], ["type:ship>=3"], game="ren-dhark", turn=turn
        )
        assert given.probability_exact == real.probability_exact
        assert given.probability_without_mulligan == pytest.approx(
            real.probability_without_mulligan
        )


@pytest.mark.parametrize(
    "args",
    [
        ["--deck", "32", "--category", "type:ship=15", "--game", "ren-dhark", "type:ship>=2"],
        ["--deck", "38", "--category", "type:Ship=6", "--game", "stccg-1e", "type:Ship>=1"],
        [
            "--deck",
            "48",
            "--category",
            "type:warrior=16",
            "--game",
            "planetary-conquerors",
            "type:warrior>=2",
        ],
        [
            "--deck",
            "12",
            "--category",
            "blood_cost:3=3",
            "--game",
            "dorn",
            "--seen",
            "6",
            "blood_cost:3>=1",
        ],
        [
            "--deck",
            "7",
            "--category",
            "name:Drake=1",
            "--game",
            "the-drake",
            "--seen",
            "1",
            "name:Drake>=1",
        ],
        ["--deck", "60", "--category", "ships=15", "--seen", "7", "ships>=2 | ships=0"],
    ],
)
def test_deckless_cli_json_for_every_game(args: list[str]) -> None:
    result = invoke(["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert 0 < data["probability"] <= 1 and data["exact"]


def test_deckless_drake_leader_is_one_in_seven() -> None:
    rep = api.odds_deckless(7, ["name:Drake=1"], ["name:Drake>=1"], game="the-drake", seen=1)
    assert rep.probability_exact == "1/7"


@pytest.mark.parametrize(
    "args",
    [
        ["--deck", "60", "ships>=2"],  # no --seen, no game
        ["--deck", "10", "--category", "ships=15", "--seen", "3", "ships>=1"],  # too many
        ["--deck", "60", "--category", "ships", "--seen", "3", "ships>=1"],  # no count
        [TERRA, "type:ship>=1", "--category", "ships=3"],  # --category without --deck
    ],
)
def test_deckless_bad_input_is_exit_2(args: list[str]) -> None:
    result = invoke(["odds", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_any_of_plain_draw_matches_enumeration() -> None:
    rep = api.odds_deckless(
        40,
        ["a=10", "b=4", "c=6"],
        ["a>=3 | b>=1", "c<=1 | a>=4"],
        seen=8,
    )
    want = _hyper(
        40,
        [10, 4, 6],
        8,
        lambda ks: (ks[0] >= 3 or ks[1] >= 1) and (ks[2] <= 1 or ks[0] >= 4),
    )
    assert Fraction(rep.probability_exact) == want
    assert "alternatives" in rep.method


def test_any_of_with_a_fixed_redraw_equals_the_complement() -> None:
    """Redraw whenever allowed does not depend on the question: P(A or B) = 1 − P(¬A and ¬B)."""
    either = api.odds(TERRA, ["type:ship>=3 | name:POINT OF>=1"], redraw_policy="always")
    neither = api.odds(TERRA, ["type:ship<3", "name:POINT OF<1"], redraw_policy="always")
    assert Fraction(either.probability_exact) == 1 - Fraction(neither.probability_exact)
    assert either.mulligan == "rules"


def test_any_of_plays_the_return_mulligan_for_the_whole_question() -> None:
    deck = str(EXAMPLES / "planetary-conquerors/legal-50.txt")
    rep = api.odds(deck, ["type:warrior>=2 | type:building>=2"])
    assert rep.mulligan == "rules" and rep.exact
    assert any("optimal" in a for a in rep.assumptions)
    plain = api.odds(deck, ["type:warrior>=2 | type:building>=2"], mulligan="none")
    assert Fraction(rep.probability_exact) > Fraction(plain.probability_exact)


def test_any_of_takes_the_look_ahead_of_later_turns() -> None:
    deck = str(EXAMPLES / "planetary-conquerors/legal-50.txt")
    rep = api.odds(deck, ["type:warrior>=2 | type:building>=2"], turn=3)
    either = Fraction(rep.probability_exact)
    alone = api.odds(deck, ["type:warrior>=2"], turn=3)
    assert rep.exact and either >= Fraction(alone.probability_exact)
    assert any("look" in a for a in rep.assumptions)


def test_distribution_is_the_hypergeometric_one() -> None:
    rep = api.distribution(TERRA, "type:ship")
    n, k_all, seen = rep.pile_size, rep.in_pile, rep.cards_seen
    assert (n, k_all, seen) == (32, 15, 7)
    total = Fraction(0)
    for row in rep.rows:
        want = Fraction(
            math.comb(k_all, row.k) * math.comb(n - k_all, seen - row.k), math.comb(n, seen)
        )
        assert Fraction(row.exactly_exact) == want
        total += want
    assert total == 1
    assert rep.mean == Fraction(seen * k_all, n)
    # the redraw aimed at "at least k" never does worse than the plain draw
    for row in rep.rows[1:]:
        assert row.at_least_with_mulligan is not None
        assert row.at_least_with_mulligan >= row.at_least - 1e-12


@pytest.mark.parametrize(
    ("deck", "selector"),
    [
        (TERRA, "type:action"),
        (str(EXAMPLES / "stccg-1e/legal-romulan.txt"), "type:Personnel"),
        (str(EXAMPLES / "planetary-conquerors/legal-80.txt"), "type:trap"),
        ("dorn:rituals", "blood_cost:3"),
        ("the-drake:stack", "name:Clubman"),
    ],
)
def test_distribution_cli_json_for_every_game(deck: str, selector: str) -> None:
    result = invoke(["distribution", deck, selector, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert sum(Fraction(r["exactly_exact"]) for r in data["rows"]) == 1
    human = invoke(["distribution", deck, selector])
    assert human.exit_code == 0 and "exactly k" in human.stdout


def _with_categories(tmp_path: Path, header: str) -> Path:
    text = Path(TERRA).read_text(encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text(text.replace("catalog: resource-points.toml\n", header), encoding="utf-8")
    return deck


def test_named_category_in_conditions(tmp_path: Path) -> None:
    deck = _with_categories(tmp_path, "category: flagships = POINT OF; NOGK\n")
    rep = api.odds(str(deck), ["flagships>=1"], mulligan="none")
    want = 1 - Fraction(math.comb(29, 7), math.comb(32, 7))
    assert Fraction(rep.probability_exact) == want
    same = api.odds(str(deck), ["category:flagships>=1"], mulligan="none")
    assert same.probability_exact == rep.probability_exact


def test_categories_in_a_toml_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(
        'game = "ren-dhark"\n[cards]\n"Terra (Sol III)" = 1\n"NOGK" = 2\n"Charaua" = 29\n'
        '"Antisféra" = 1\n[categories]\nbig = ["NOGK", "type:action"]\n',
        encoding="utf-8",
    )
    rep = api.odds(str(deck), ["big>=1"], mulligan="none")
    assert Fraction(rep.probability_exact) == 1 - Fraction(math.comb(29, 7), math.comb(32, 7))
    stats = api.stats(str(deck))
    assert stats.categories is not None and stats.categories.buckets[0].count == 3


def test_unknown_card_in_a_category_names_the_line(tmp_path: Path) -> None:
    deck = _with_categories(tmp_path, "category: oops = No Such Card\n")
    result = invoke(["odds", str(deck), "oops>=1"])
    assert result.exit_code == 2
    assert "oops" in result.output and "deck.txt:" in result.output


def test_a_malformed_category_header_is_exit_2(tmp_path: Path) -> None:
    deck = _with_categories(tmp_path, "category: 9lives\n")
    result = invoke(["stats", str(deck)])
    assert result.exit_code == 2 and "Traceback" not in result.output
