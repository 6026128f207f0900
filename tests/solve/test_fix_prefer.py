"""``fix``: ``--prefer`` is a second objective of the same solve, lexicographic (the fewest
changes first, then the most copies of the preferred cards), checked against brute force; and
an empty deck of a game whose rules fix every count (The Drake) is made legal."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck.catalog.selectors import bind_selector
from deckcheck.decks.load import load_deck


def _answer(deck: Path, *options: str) -> dict[str, int]:
    result = run_cli(["fix", deck, *options, "--json"])
    assert result.exit_code == 0, result.output
    held = dict(load_deck(deck).deck.counts())
    for change in json.loads(result.stdout)["changes"]:
        held[change["id"]] = change["after"]
    return {k: v for k, v in held.items() if v}


@pytest.mark.parametrize(
    ("party", "prefer"),
    [
        (["Gor", "Guelin", "Riel"], "recommended:true"),
        (["Gor", "Guelin", "Riel"], "recommended:false"),
        (["Kaerdrak", "Choros", "Gor", "Guelin", "Riel", "Vargen", "Almanor"], "recommended:true"),
        (["Kaerdrak", "Choros", "Gor", "Guelin", "Riel", "Vargen", "Almanor"], "recommended:false"),
    ],
)
def test_prefer_against_brute_force(tmp_path: Path, party: list[str], prefer: str) -> None:
    """Every legal Dorn party (5 different heroes of 9) enumerated: the answer is at the least
    distance, and holds the most preferred heroes any party at that distance holds."""
    deck = tmp_path / "party.txt"
    deck.write_text("game: dorn\n" + "".join(f"1 {name}\n" for name in party), "utf-8")
    loaded = load_deck(deck)
    heroes = [c for c in loaded.catalog if c.has_type("hero")]
    wanted = bind_selector(prefer, loaded.catalog)
    have = {loaded.catalog.by_name(n)[0].id for n in party}
    best: tuple[int, int] | None = None
    for five in itertools.combinations(heroes, 5):
        ids = {c.id for c in five}
        distance = len(ids ^ have)
        matching = sum(1 for c in five if wanted(c))
        key = (distance, -matching)
        best = key if best is None or key < best else best
    answer = _answer(deck, "--prefer", prefer)
    assert best is not None
    assert len(set(answer) ^ have) == best[0]
    assert sum(1 for i in answer if wanted(loaded.catalog.by_id(i))) == -best[1]


@pytest.mark.parametrize(
    ("deck", "prefer", "most"),
    [
        (EXAMPLES / "stccg-1e" / "illegal-outposts.txt", "type:Personnel", 21),
        (EXAMPLES / "ren-dhark" / "illegal-mixed.txt", "colour:red", 19),
    ],
)
def test_prefer_finds_the_most_matching_copies(deck: Path, prefer: str, most: int) -> None:
    loaded = load_deck(deck)
    wanted = bind_selector(prefer, loaded.catalog)
    answer = _answer(deck, "--prefer", prefer)
    assert sum(n for i, n in answer.items() if wanted(loaded.catalog.by_id(i))) == most


def test_fix_makes_an_empty_drake_stack_legal(tmp_path: Path) -> None:
    deck = tmp_path / "d.txt"
    assert run_cli(["new", "drake", "-o", deck]).exit_code == 0
    result = run_cli(["fix", deck], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "7 changes (7 added, 0 removed)" in result.stdout
    assert "together with the others listed" not in result.output
    assert run_cli(["fix", deck, "--write"]).exit_code == 0
    assert run_cli(["validate", deck]).exit_code == 0
