"""``optimize`` with three and four conditions against brute force (every deck within K
changes of a few varying cards, validated and scored as ``validate`` and ``odds`` do), and
the exact engine's tables kept across the decks of a search against fresh engines."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_optimize import PC50, TERRA, _check, _varying

from deckcheck.analysis.odds import OddsOptions, bind
from deckcheck.analysis.setup import deck_setup
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.decks.load import load_deck
from deckcheck.draws.facade import Mode, Policy, Prior, solve
from deckcheck.draws.model import DrawProblem, Query

PC_CONDITIONS = ["type:warrior>=2", "type:building>=1", "type:miner>=1", "type:trap<=1"]
RD_CONDITIONS = ["type:ship>=2", "POINT OF>=1", "type:action<=3", "type:person>=1"]
Tables = dict[tuple[object, ...], dict[str, dict[object, object]]]


def test_planetary_conquerors_three_and_four_conditions_are_the_best_decks() -> None:
    """The return-3 mulligan and the look-ahead, played optimally: a warrior, a building, a
    miner and a trap may change."""
    loaded = load_deck(PC50)
    names = ["Trooper", "Stone Bunker", "Gold Miner", "Pitfall"]
    universe, owned, fixed = _varying(loaded, names, {})
    options = OddsOptions(turn=2)
    for n in (3, 4):
        _check(loaded, PC_CONDITIONS[:n], options, 2, universe, owned, fixed=fixed)


def test_ren_dhark_three_and_four_conditions_are_the_best_decks() -> None:
    """The optimal redraw: POINT OF, a ship, an action and a person may change."""
    loaded = load_deck(TERRA)
    names = ["POINT OF", "Antisféra", "Globální ochranný štít", "Ren Dhark"]
    universe, owned, fixed = _varying(loaded, names, {"POINT OF": 2, "Ren Dhark": 2})
    options = OddsOptions(turn=2)
    for n in (3, 4):
        _check(loaded, RD_CONDITIONS[:n], options, 2, universe, owned, fixed=fixed)


def test_decks_sharing_the_engine_tables_score_as_fresh_engines() -> None:
    """The decks of a search keep the sequential engine's tables together (the states of
    one deck's look-ahead and return mulligan read by the next): every mix scores what an
    engine of its own gives, in either order, piles of several sizes among them."""
    loaded = load_deck(PC50)
    setup = deck_setup(loaded)
    options = OddsOptions(turn=2)
    bound = bind(setup, PC_CONDITIONS, options)
    problem = bound.problem
    seen = bound.procedure.seen_by_turn(2, False)
    query = Query(seen, False, True, 2)
    base = problem.group_sizes
    # one card moved between two groups, or taken out, or added: the decks a search scores
    mixes = [base]
    for g, h in [(0, 1), (1, 2), (2, 0), (3, 0), (0, 3)]:
        if base[g] > 1:
            moved = list(base)
            moved[g] -= 1
            moved[h] += 1
            mixes.append(tuple(moved))
    for g in (0, 3):
        fewer = list(base)
        fewer[g] -= 1
        mixes.append(tuple(fewer))
        more = list(base)
        more[g] += 2
        mixes.append(tuple(more))

    def chance(sizes: tuple[int, ...], tables: Tables | None) -> Fraction:
        mix = DrawProblem(sizes, problem.membership, problem.conditions)
        answer = solve(
            mix,
            bound.procedure,
            query,
            Policy(),
            mode=Mode.EXACT,
            prior=Prior(tables=tables),
        )
        assert answer.fraction is not None
        return answer.fraction

    fresh = [chance(m, None) for m in mixes]
    assert len(set(fresh)) > len(mixes) // 2  # the mixes are not all alike
    for order in (mixes, mixes[::-1]):
        shared: Tables = {}
        got = {m: chance(m, shared) for m in order}
        assert [got[m] for m in mixes] == fresh
        assert len(shared) < len(mixes)  # tables were in fact shared


def test_tables_started_again_give_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past their most entries the tables kept across mixes start again empty: the answer
    and its proof are the same as with them kept throughout."""
    import deckcheck.solve.optimize as optimize

    loaded = load_deck(PC50)
    options = OddsOptions(turn=2)
    kept, _ = optimize_loaded(loaded, PC_CONDITIONS, options, changes=2)
    monkeypatch.setattr(optimize, "TABLES_MOST", 0)
    again, _ = optimize_loaded(loaded, PC_CONDITIONS, options, changes=2)
    assert kept.status == again.status == "optimal"
    assert (again.after, again.changes) == (kept.after, kept.changes)


def test_an_engine_given_other_orbits_leaves_the_tables_it_shared() -> None:
    """Tables kept together were made with the states shared one way: an engine told to
    share them otherwise (the orbits setter, for comparisons) takes fresh ones."""
    from deckcheck.draws.exact.sequential import STATE_BUDGET, SequentialEngine

    loaded = load_deck(PC50)
    bound = bind(deck_setup(loaded), PC_CONDITIONS, OddsOptions(turn=2))
    query = Query(bound.procedure.seen_by_turn(2, False), False, True, 2)
    engine = SequentialEngine(bound.problem, bound.procedure, query, (), STATE_BUDGET)
    store: Tables = {}
    engine.share_tables(store)
    shared = store[engine.tables_key()]["memo"]
    assert engine.memo is shared
    engine.orbits = ()
    assert engine.memo is not shared and not engine.memo
