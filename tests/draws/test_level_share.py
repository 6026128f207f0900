"""Which engine answers a look-ahead, and a group's normal form in bulk.

A long deal of few states a level is the recursion's: after its trial it goes on for a share
of what the level engine's own steps would be charged (``LEVEL_SHARE``), and ends there, for
less than that engine would be charged. A typed group's normal form (settled, losing or
lost), found for a whole array of keys at once, is the one found key by key.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_lookahead_typed import typed_run

from deckcheck.analysis.odds import OddsOptions, bind, cards_seen
from deckcheck.analysis.setup import draw_setup
from deckcheck.decks.load import open_deck
from deckcheck.draws.exact import sequential
from deckcheck.draws.exact.sequential import SequentialEngine
from deckcheck.draws.model import Query

PC80 = str(Path(__file__).resolve().parents[2] / "examples/planetary-conquerors/legal-80.txt")


def test_a_long_deal_of_few_states_is_the_recursions() -> None:
    setup = draw_setup(open_deck(PC80))
    options = OddsOptions(turn=20)
    bound = bind(setup, ["type:warrior>=2"], options)
    seen = cards_seen(setup, bound.procedure, options, 20)

    def engine(levels: bool) -> SequentialEngine:
        out = SequentialEngine(bound.problem, bound.procedure, Query(seen), (), 10**9)
        out.use_levels = levels
        return out

    alone, shared = engine(False), engine(True)
    assert shared.without_mulligan() == alone.without_mulligan()
    # Past its trial, and ended within its share: no level engine ran, nothing charged twice
    # but the trial's path.
    assert alone.work > sequential.LEVEL_TRIAL
    assert shared._levels is None
    assert alone.work <= shared.work <= alone.work + sequential.LEVEL_TRIAL


def test_a_groups_normal_form_in_bulk_is_the_one_found_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every group's normal form of every listed state and of each child a card of the
    group's makes, kept or put under, in bulk and key by key (Python integers)."""
    monkeypatch.setattr(sequential, "LEVEL_TRIAL", 0)  # the level engine at once
    rng = random.Random(11)
    checked = 0
    for _ in range(8):
        levels = typed_run(rng, 4, 10, 6)._levels
        assert levels is not None
        for keys in levels.levels.values():
            for g in range(len(levels.groups)):
                moved = [keys]
                for d in [*levels.digits_of[g], levels.pool_digit[g]]:
                    has = keys[levels._field(keys, d) > 0]
                    for delta in (levels.keep_delta[d], levels.under_delta[d]):
                        if delta is not None:
                            moved.append(has + delta)
                for child in moved:
                    bulk = levels._group_normal(g, child)
                    alone = [levels._group_normal_one(g, k) for k in child.tolist()]
                    assert bulk.tolist() == [-1 if k is None else k for k in alone]
                    checked += len(child)
                lo, hi = levels.groups[g]
                if hi is None:
                    at = keys[levels._field(keys, levels.count_digit[g]) == lo]
                    settled = levels._settled(g, at).tolist()
                    assert settled == [levels._group_normal_one(g, k) for k in at.tolist()]
    assert checked > 1000
