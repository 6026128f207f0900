"""The exact table of "redraw whenever allowed" keeps to its work budget, and the budget never
refuses a table that fits it.

Its states cannot be counted much faster than computed, so the table counts its steps as it
goes and stops past the budget, or as soon as the states still open would pass it. A big Ren
Dhark deck with ten conditions once took 15 s at turn 5 and 67 s for 30 turns with no word.
"""

from __future__ import annotations

import math
import tomllib

import pytest
from conftest import RD_TEN_CONDITIONS, REPO, lines_run

from deckcheck import api
from deckcheck.analysis.odds import OddsOptions, bind
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.answer import Intractable, Stage
from deckcheck.draws.exact import hypergeometric
from deckcheck.draws.exact.reduced import Reduced
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Query, RedrawRule

TERRA = str(REPO / "examples/ren-dhark/terra-custom.txt")
TEN = RD_TEN_CONDITIONS


@pytest.fixture(scope="module")
def big_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Five of every Ren Dhark card: 340 cards."""
    catalog = tomllib.loads((REPO / "catalogs/ren-dhark/cards.toml").read_text("utf-8"))
    lines = ["game: ren-dhark", "variant: custom", ""]
    lines += [f"5 {card['id']}" for card in catalog["cards"]]
    path = tmp_path_factory.mktemp("decks") / "ren-dhark-340.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _reduced(deck: str, conditions: list[str], seen: int) -> tuple[Reduced, int]:
    setup = draw_setup(open_deck(deck))
    bound = bind(setup, conditions, OddsOptions())
    rule = bound.procedure.mulligan
    assert isinstance(rule, RedrawRule)
    engine = SequentialEngine(bound.problem, bound.procedure, Query(seen), rule.triggers, 0)
    return engine.red, engine.hand


def _work(
    red: Reduced, hand: int, most: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[float, list[tuple[int, int, int]]]:
    """The units the whole table takes (the last step count the table checks), and the table
    (returned too, so that a test does not pay for computing it a second time)."""
    seen: list[float] = []
    checked = hypergeometric._within

    def record(work: float, budget: int | None) -> None:
        seen.append(work)
        checked(work, budget)

    with monkeypatch.context() as patch:
        patch.setattr(hypergeometric, "_within", record)
        table = hypergeometric.redraw_ways_upto(red, hand, most)
    return seen[-1], table


@pytest.mark.parametrize(("n", "most"), [(4, 20), (6, 12), (10, 9), (10, 11)])
def test_a_table_within_its_budget_is_never_refused(
    n: int, most: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The projection is a lower bound: a budget of the table's own work lets it finish, with
    the same table; half of it stops it."""
    red, hand = _reduced(TERRA, TEN[:n], 7)
    work, whole = _work(red, hand, most, monkeypatch)
    assert hypergeometric.redraw_ways_upto(red, hand, most, math.ceil(work)) == whole
    with pytest.raises(Intractable):
        hypergeometric.redraw_ways_upto(red, hand, most, int(work) // 2)


def test_a_table_out_of_reach_stops_early(big_deck: str) -> None:
    """340 cards, ten conditions, eleven cards seen: refused with a small budget after a
    bounded amount of work (lines run, not seconds)."""
    red, hand = _reduced(big_deck, TEN, 11)

    def attempt() -> Stage | None:
        try:
            hypergeometric.redraw_ways_upto(red, hand, 11, 20_000)
        except Intractable as exc:
            return exc.reason.stage
        return None

    stage, lines = lines_run(attempt)
    assert stage is Stage.REDRAW
    assert lines < 1_500_000  # about 160,000 today; the whole table runs to tens of millions


def test_the_query_is_simulated_and_says_why(big_deck: str) -> None:
    report = api.odds(big_deck, TEN, turn=5, redraw_policy="always")
    assert not report.exact
    assert any("redraw whenever allowed" in line for line in report.assumptions)
    small = api.odds(TERRA, TEN, turn=5, redraw_policy="always")
    assert small.exact  # the 33-card deck's table is within reach


def test_a_by_turn_table_shares_one_table() -> None:
    """The turns read the table the first one computed: within reach, all of them exact."""
    report = api.odds(TERRA, TEN, by_turn=13, redraw_policy="always")
    assert len(report.by_turn) == 13 and all(row.exact for row in report.by_turn)
