"""The mulligan guide, deadlines per condition and the first turn, against brute force."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck import api
from deckcheck.core.errors import DeckcheckError
from deckcheck.draws.exact.deadlines import Deadlines, deadline_table, first_turns
from deckcheck.draws.exact.guide import Choice, redraw_guide, return_guide
from deckcheck.draws.facade import solve
from deckcheck.draws.model import (
    CountTest,
    DrawProblem,
    Procedure,
    Query,
    RedrawRule,
    Request,
    ReturnRule,
)

PC_SET = EXAMPLES / "planetary-conquerors" / "example-set.toml"


def _cards(problem: DrawProblem) -> list[int]:
    return [g for g, n in enumerate(problem.group_sizes) for _ in range(n)]


def _ok(problem: DrawProblem, cards: list[int], tests: tuple[CountTest, ...]) -> bool:
    held = [0] * len(problem.group_sizes)
    for g in cards:
        held[g] += 1
    totals = problem.selector_counts(held)
    return all(t.holds(totals[t.selector]) for t in tests)


def _chance_after(problem: DrawProblem, pile: list[int], hand: list[int], later: int) -> Fraction:
    """P(conditions over hand + `later` random cards of pile), by enumeration."""
    good = total = 0
    for extra in itertools.combinations(range(len(pile)), later):
        total += 1
        good += _ok(problem, hand + [pile[i] for i in extra], problem.conditions)
    return Fraction(good, total)


def _composition(
    problem: DrawProblem, table_classes: tuple[int, ...], cards: list[int]
) -> tuple[int, ...]:
    out = [0] * (max(table_classes) + 1)
    for g in cards:
        out[table_classes[g]] += 1
    return tuple(out)


# Ships (condition and trigger), actions (trigger), others.
RD = DrawProblem(
    (5, 3, 6),
    ((True, True, False), (False, False, True), (False, False, False)),
    (CountTest(0, ">=", 2),),
    ("ship", "ship", "action"),
)
RD_RULE = RedrawRule((CountTest(1, "<", 2), CountTest(2, ">", 1)), 1)


@pytest.mark.parametrize("seen", [4, 6])
def test_redraw_guide_matches_brute_force(seen: int) -> None:
    procedure = Procedure(4, None, 1, RD_RULE)
    request = Request(RD, procedure, Query(seen))
    table = redraw_guide(request)
    cards = _cards(RD)
    deals = list(itertools.combinations(range(len(cards)), 4))
    keep_of: dict[tuple[int, ...], Fraction] = {}
    plain = Fraction(0)
    for deal in deals:
        hand = [cards[i] for i in deal]
        comp = tuple(hand.count(g) for g in range(3))
        if comp not in keep_of:  # a hand's chance depends on its groups alone
            pile = [cards[i] for i in range(len(cards)) if i not in deal]
            keep_of[comp] = _chance_after(RD, pile, hand, seen - 4)
        plain += Fraction(1, len(deals)) * keep_of[comp]
    rows = {row.hand: row for row in table.rows}
    best = Fraction(0)
    for deal in deals:
        hand = [cards[i] for i in deal]
        comp = tuple(hand.count(g) for g in range(3))
        row = rows[comp]  # the classes are the groups here (each its own selector set)
        assert row.keep == keep_of[comp]
        allowed = comp[0] < 2 or comp[1] > 1
        assert row.allowed == allowed
        redraw = allowed and keep_of[comp] < plain
        assert (row.choice is Choice.REDRAW) == redraw
        if allowed:
            assert row.alternative == plain
        best += Fraction(1, len(deals)) * (plain if redraw else keep_of[comp])
    assert table.value == best == table.followed()
    assert table.value == solve(RD, procedure, Query(seen)).fraction


PC = DrawProblem(
    (3, 2, 4),
    ((True, False), (False, True), (False, False)),
    (CountTest(0, ">=", 1), CountTest(1, "<=", 1)),
    ("miner", "trap"),
)


def test_return_guide_matches_brute_force() -> None:
    procedure = Procedure(3, None, 2, ReturnRule(2))
    seen = 5
    request = Request(PC, procedure, Query(seen))
    table = return_guide(request)
    cards = _cards(PC)
    n = len(cards)
    rows = {row.hand: row for row in table.rows}
    total = Fraction(0)
    deals = list(itertools.combinations(range(n), 3))
    for deal in deals:
        hand = [cards[i] for i in deal]
        pile = [cards[i] for i in range(n) if i not in deal]
        keep = _chance_after(PC, pile, hand, seen - 3)
        best_return = Fraction(-1)
        best_returned: tuple[int, ...] = ()
        for back in itertools.combinations(range(3), 2):
            kept = [hand[i] for i in range(3) if i not in back]
            new_pile = pile + [hand[i] for i in back]
            v = _chance_after(PC, new_pile, kept, 2 + seen - 3)
            if v > best_return:
                best_return = v
                best_returned = tuple(sorted(hand[i] for i in back))
        comp = tuple(hand.count(g) for g in range(3))
        row = rows[comp]
        assert row.keep == keep
        assert row.alternative == best_return
        assert (row.choice is Choice.RETURN) == (best_return > keep)
        if row.choice is Choice.RETURN:
            assert row.returned is not None
            returned = tuple(sorted(g for g in range(3) for _ in range(row.returned[g])))
            kept = [g for g in range(3) for _ in range(comp[g] - row.returned[g])]
            # the guide's return is one of the best
            assert (
                returned == best_returned
                or _chance_after(PC, pile + list(returned), kept, seen - 1) == best_return
            )
        total += Fraction(1, len(deals)) * max(keep, best_return)
    assert table.value == total == table.followed()
    assert table.value == solve(PC, procedure, Query(seen)).fraction


def test_return_guide_with_lookahead_is_what_odds_plays() -> None:
    procedure = Procedure(3, 4, 2, ReturnRule(2), lookahead=True)
    for second in (False, True):
        query = Query(7, second)
        table = return_guide(Request(PC, procedure, query))
        assert table.value == table.followed() == solve(PC, procedure, query).fraction
        # the deadline engine (another implementation) plays the same optimum, hand by hand
        other = deadline_table(Deadlines(PC, procedure, (7, 7), second))
        assert other.value == table.value
        theirs = {r.hand: r for r in other.rows}
        for row in table.rows:
            twin = theirs[row.hand]
            assert (row.keep, row.alternative, row.choice) == (
                twin.keep,
                twin.alternative,
                twin.choice,
            )
            if row.choice is Choice.RETURN:
                assert row.returned == twin.returned


def _orderings(problem: DrawProblem) -> list[tuple[int, ...]]:
    """Every order of the pile's groups, each once: all equally likely."""
    return sorted(set(itertools.permutations(_cards(problem))))


DL = DrawProblem(
    (2, 3, 3),
    ((True, False), (False, True), (False, False)),
    (CountTest(0, ">=", 1), CountTest(1, ">=", 2), CountTest(1, "<=", 2)),
    ("a", "b"),
)


def test_deadlines_match_enumeration() -> None:
    procedure = Procedure(2, None, 1, None)
    due = (2, 5, 4)  # a by the hand, at least 2 b by 5 cards, at most 2 b by 4 cards
    got = deadline_table(Deadlines(DL, procedure, due)).value
    orders = _orderings(DL)
    good = sum(
        all(_ok(DL, list(o[:d]), (t,)) for t, d in zip(DL.conditions, due, strict=True))
        for o in orders
    )
    assert got == Fraction(good, len(orders))


def test_deadlines_with_redraw_match_enumeration() -> None:
    procedure = Procedure(3, None, 1, RD_RULE)
    problem = DrawProblem(
        RD.group_sizes,
        RD.membership,
        (CountTest(0, ">=", 1), CountTest(0, ">=", 2)),
        RD.selector_labels,
    )
    due = (3, 5)
    table = deadline_table(Deadlines(problem, procedure, due))
    cards = _cards(problem)
    n = len(cards)
    hands = list(itertools.combinations(range(n), 3))
    keeps = []
    keep_of: dict[tuple[int, ...], Fraction] = {}  # a hand's chance depends on its groups alone
    for deal in hands:
        hand = [cards[i] for i in deal]
        comp = tuple(hand.count(g) for g in range(3))
        if comp not in keep_of:
            pile = [cards[i] for i in range(n) if i not in deal]
            good = total = 0
            for extra in itertools.permutations(range(len(pile)), 2):
                seq = hand + [pile[i] for i in extra]
                total += 1
                good += _ok(problem, seq[:3], problem.conditions[:1]) and _ok(
                    problem, seq[:5], problem.conditions[1:]
                )
            keep_of[comp] = Fraction(good, total)
        keeps.append((comp, keep_of[comp]))
    plain = sum((k for _, k in keeps), Fraction(0)) / len(hands)
    best = sum(
        (max(k, plain) if (c[0] < 2 or c[1] > 1) else k for c, k in keeps), Fraction(0)
    ) / len(hands)
    assert table.plain == plain
    assert table.value == best


def test_first_turns_match_enumeration() -> None:
    procedure = Procedure(2, None, 1, None)
    checkpoints = [2, 3, 4, 5]
    problem = DrawProblem(
        DL.group_sizes,
        DL.membership,
        (CountTest(0, ">=", 1), CountTest(1, "==", 1)),
        DL.selector_labels,
    )
    probs, _ = first_turns(Deadlines(problem, procedure, (5, 5), use_mulligan=False), checkpoints)
    orders = _orderings(problem)
    counts = [0] * len(checkpoints)
    for o in orders:
        for i, c in enumerate(checkpoints):
            if _ok(problem, list(o[:c]), problem.conditions):
                counts[i] += 1
                break
    assert list(probs) == [Fraction(c, len(orders)) for c in counts]


@pytest.mark.parametrize("op", [">=", "=="])
def test_plain_first_turns_match_enumeration(op: str) -> None:
    procedure = Procedure(2, None, 1, None)
    checkpoints = [2, 3, 5]
    problem = DrawProblem(
        DL.group_sizes,
        DL.membership,
        (CountTest(0, ">=", 1), CountTest(1, op, 2)),
        DL.selector_labels,
    )
    probs, table = first_turns(Deadlines(problem, procedure, (5, 5)), checkpoints)
    assert table is None  # no choice anywhere
    orders = _orderings(problem)
    counts = [0] * len(checkpoints)
    for o in orders:
        for i, c in enumerate(checkpoints):
            if _ok(problem, list(o[:c]), problem.conditions):
                counts[i] += 1
                break
    assert list(probs) == [Fraction(c, len(orders)) for c in counts]


def test_first_turns_under_redraw_agree_with_odds_at_each_turn_horizon() -> None:
    procedure = Procedure(4, None, 1, RD_RULE)
    probs, table = first_turns(Deadlines(RD, procedure, (7,)), [4, 5, 6, 7])
    assert table is not None
    # a lower bound: holding by turn 4 is holding at turn 4, the chance odds reports
    assert sum(probs) == solve(RD, procedure, Query(7)).fraction == table.value


def test_api_guide_is_what_odds_plays() -> None:
    deck = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    guide = api.mulligan(deck, ["type:ship>=2"], turn=2)
    odds = api.odds(deck, ["type:ship>=2"], turn=2)
    assert str(guide.probability) == odds.probability_exact
    assert sum(r.frequency * r.best for r in guide.rows) == guide.probability
    assert guide.rule_of_thumb is not None
    pc = str(EXAMPLES / "planetary-conquerors" / "legal-50.txt")
    guide = api.mulligan(pc, ["type:miner>=1", "type:warrior>=1"], turn=2, catalogs=[PC_SET])
    odds = api.odds(pc, ["type:miner>=1", "type:warrior>=1"], turn=2, catalogs=[PC_SET])
    assert str(guide.probability) == odds.probability_exact
    assert guide.kind == "return"


def test_no_choice_games_say_so() -> None:
    deck = str(EXAMPLES / "stccg-1e" / "legal-federation.txt")
    guide = api.mulligan(deck, ["type:personnel>=3"])
    assert guide.kind == "none" and all(r.decision == "no choice" for r in guide.rows)
    assert any("no choice exists" in a for a in guide.assumptions)
    pile = api.mulligan("dorn:rituals", ["type:ritual>=1"])
    assert pile.kind == "none"


def test_deadline_odds_and_refusals() -> None:
    deck = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    both = api.odds(deck, ["type:ship>=1@4", "type:person>=3@4"])
    same = api.odds(deck, ["type:ship>=1", "type:person>=3"], turn=4)
    assert both.probability_exact == same.probability_exact
    split = api.odds(deck, ["type:ship>=1@1", "type:person>=3@4"])
    assert split.probability <= same.probability
    with pytest.raises(DeckcheckError):
        api.simulate(deck, ["type:ship>=1@1"], trials=10, seed=1)
    result = run_cli(["odds", deck, "type:ship>=1@0"])
    assert result.exit_code == 2


def test_cli_mulligan_json_and_expected_turn() -> None:
    import json

    deck = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    result = run_cli(["mulligan", deck, "type:ship>=2", "--json", "--all"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["choice"] == "redraw" and len(data["rows"]) == data["hand_classes"]
    total = sum(Fraction(r["frequency_exact"]) for r in data["rows"])
    assert total == 1
    result = run_cli(["odds", deck, "type:ship>=2", "--expected-turn", "--turn", "3", "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)["expected_turn"]
    play = got["on_the_play"]
    assert len(play["turns"]) == 3 and play["median"] == 1
    assert math.isclose(play["turns"][-1]["cumulative"] + play["later"], 1)


def test_playtest_shows_the_guides_line() -> None:
    from deckcheck.analysis.mulligan import guide_line, mulligan_guide
    from deckcheck.analysis.odds import OddsOptions
    from deckcheck.analysis.setup import deck_setup
    from deckcheck.builder.playtest import deal
    from deckcheck.decks.load import open_deck

    loaded = open_deck(str(EXAMPLES / "ren-dhark" / "terra-custom.txt"))
    setup = deck_setup(loaded)
    guide = mulligan_guide(setup, ["type:ship>=2"], OddsOptions(), every_row=True)
    seen = set()
    for seed in range(6):
        view = deal(loaded, seed, ["type:ship>=2"], None, 1)
        ships = sum("ship" in c.types for c in view.first)
        actions = sum("action" in c.types for c in view.first)
        line = guide_line(guide, (ships, actions, len(view.first) - ships - actions))
        said = "guide: " if view.kept == view.first else "guide (the hand first dealt): "
        assert view.guide == said + line
        seen.add(line.split(":")[0])
    assert "redraw" in seen or "keep (no choice)" in seen


def test_tune_and_optimize_take_deadlines() -> None:
    deck = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    tuned = api.tune(deck, "type:ship>=2@2", "99%")
    plain = api.odds(deck, ["type:ship>=2@2"])
    row = next(r for r in tuned.rows if r.count == tuned.current)
    assert math.isclose(row.probability, plain.probability)
    found = api.optimize(deck, ["type:ship>=2@1", "type:person>=3@4"], changes=1)
    odds = api.odds(deck, ["type:ship>=2@1", "type:person>=3@4"])
    assert found.before is not None and str(found.before) == odds.probability_exact
    assert found.after is not None and found.after >= found.before


@pytest.mark.parametrize(
    ("redraws", "policy"),
    [(1, "optimal"), (2, "optimal"), (None, "optimal"), (1, "always"), (None, "always")],
)
def test_first_turns_and_deadlines_follow_every_redraw_policy(
    redraws: int | None, policy: str
) -> None:
    from dataclasses import replace

    from deckcheck.draws.facade import Policy

    procedure = Procedure(4, None, 1, replace(RD_RULE, max_redraws=redraws))
    want = solve(RD, procedure, Query(6), Policy(redraw=policy)).fraction  # type: ignore[arg-type]
    request = Deadlines(RD, procedure, (6,), redraw=policy)
    assert deadline_table(request).value == want
    probs, _ = first_turns(request, [4, 5, 6])
    assert sum(probs) == want  # at least 2 ships: held by turn 3 is held at turn 3


def test_expected_turn_by_the_horizon_is_odds_at_the_horizon() -> None:
    deck = str(EXAMPLES / "planetary-conquerors" / "legal-50.txt")
    conditions = ["type:miner>=1", "type:warrior>=1"]
    got = api.odds(deck, conditions, turn=3, catalogs=[PC_SET], expected_turn=True)
    assert got.expected_turn is not None
    for second, side in ((False, got.expected_turn.play), (True, got.expected_turn.draw)):  # type: ignore[attr-defined]
        at = api.odds(deck, conditions, turn=3, second=second, catalogs=[PC_SET])
        assert str(sum(side.probabilities)) == at.probability_exact
        assert side.later == 1 - sum(side.probabilities)


SMALL_RD = DrawProblem((4, 2, 5), RD.membership, RD.conditions, RD.selector_labels)


def test_first_turns_under_the_optimal_redraw_match_enumeration() -> None:
    procedure = Procedure(4, None, 1, RD_RULE)
    checkpoints = [4, 5, 6]
    probs, _ = first_turns(Deadlines(SMALL_RD, procedure, (6,)), checkpoints)
    cards = _cards(SMALL_RD)
    n = len(cards)
    deals = list(itertools.combinations(range(n), 4))
    per_hand = []
    for deal in deals:
        hand = [cards[i] for i in deal]
        pile = [cards[i] for i in range(n) if i not in deal]
        firsts = [0] * len(checkpoints)
        keep = total = 0
        for extra in itertools.permutations(range(len(pile)), 2):
            seq = hand + [pile[i] for i in extra]
            total += 1
            keep += _ok(SMALL_RD, seq, SMALL_RD.conditions)
            for k, c in enumerate(checkpoints):
                if _ok(SMALL_RD, seq[:c], SMALL_RD.conditions):
                    firsts[k] += 1
                    break
        comp = tuple(hand.count(g) for g in range(3))
        allowed = comp[0] < 2 or comp[1] > 1
        per_hand.append((Fraction(keep, total), [Fraction(f, total) for f in firsts], allowed))
    fresh = [sum((d[k] for _, d, _ in per_hand), Fraction(0)) / len(deals) for k in range(3)]
    plain = sum((k for k, _, _ in per_hand), Fraction(0)) / len(deals)
    want = [Fraction(0)] * 3
    for keep, dist, allowed in per_hand:
        src = fresh if allowed and keep < plain else dist
        for k in range(3):
            want[k] += src[k] / len(deals)
    assert list(probs) == want


def test_rules_of_thumb_are_derived_and_checked() -> None:
    from deckcheck.draws.exact.guide import HandRow, HandTable, RuleKind, rule_of_thumb

    def table(acts: dict[tuple[int, ...], bool]) -> HandTable:
        rows = tuple(
            HandRow(h, 1, Fraction(0), True, Fraction(1), Choice.REDRAW if a else None)
            for h, a in acts.items()
        )
        return HandTable(
            RuleKind.REDRAW,
            (("ship",), ("action",), ()),
            (9, 9, 9),
            9,
            rows,
            Fraction(0),
            Fraction(0),
        )

    hands = [(s, a, 4 - s - a) for s in range(5) for a in range(5 - s)]
    assert rule_of_thumb(table({h: h[0] < 2 for h in hands})) == "redraw with fewer than 2 ship"
    assert rule_of_thumb(table({h: h[0] < 1 or h[1] < 1 for h in hands})) == (
        "redraw with no ship or no action"
    )
    unless = rule_of_thumb(table({h: h[0] < 2 and h[1] < 2 for h in hands}))
    assert unless == "redraw with fewer than 2 ship unless the hand holds at least 2 action"
    # a parity pattern: no short rule fits, none is printed
    assert rule_of_thumb(table({h: h[0] % 2 == 0 for h in hands})) is None
    assert rule_of_thumb(table({h: False for h in hands})) == (
        "keep every hand: the mulligan never raises the chance"
    )


@pytest.mark.parametrize(
    ("text", "selector", "deadline"),
    [
        ("type:ship>=1@1", "type:ship", 1),
        ("type:ship >= 2 @ 4", "type:ship", 4),
        ("name:a@b>=1@2", "name:a@b", 2),
        ("POINT OF>=1", "POINT OF", None),
    ],
)
def test_a_deadline_is_parsed(text: str, selector: str, deadline: int | None) -> None:
    from deckcheck.analysis.conditions import parse_condition

    got = parse_condition(text)
    assert (got.selector, got.deadline, got.text) == (selector, deadline, text)


@pytest.mark.parametrize(
    "text", ["type:ship>=2@", "type:ship>=2@0", "type:ship>=2@x", "type:ship>=2@١"]
)
def test_a_bad_deadline_is_refused(text: str) -> None:
    from deckcheck.analysis.conditions import parse_condition
    from deckcheck.core.errors import ConditionError

    with pytest.raises(ConditionError, match="after @"):
        parse_condition(text)


def test_expected_turn_takes_fewer_turns_when_the_default_is_out_of_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deckcheck.analysis import deadlines

    deck = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
    conditions = ["type:ship>=2", "type:person>=1", "type:action<=2", "I/25>=1"]
    monkeypatch.setattr(deadlines, "DEADLINE_BUDGET", 12_000)
    got = api.odds(deck, conditions, expected_turn=True).expected_turn
    assert isinstance(got, deadlines.ExpectedTurn)
    assert got.horizon < got.wanted == 10
    assert len(got.play.probabilities) == got.horizon
    monkeypatch.setattr(deadlines, "DEADLINE_BUDGET", 5_000)  # 10 turns asked: no fewer
    with pytest.raises(DeckcheckError, match="out of exact reach"):
        api.odds(deck, conditions, turn=10, expected_turn=True)


def test_the_builders_odds_pane_takes_deadlines() -> None:
    from deckcheck.commands.build import BuildSession

    deck = EXAMPLES / "ren-dhark" / "terra-custom.txt"
    view = BuildSession(deck).odds(["type:ship>=2@1", "type:person>=2"], 3)
    assert not view.message and [t[0] for t in view.turns] == [1, 2, 3]
    for turn, _, probability, exact in view.turns:
        want = api.odds(str(deck), ["type:ship>=2@1", "type:person>=2"], turn=turn)
        assert exact and probability == want.probability
