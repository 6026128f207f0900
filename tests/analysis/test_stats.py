"""``stats``: every example deck's composition checked against counts made here, from the deck
file's resolved cards, and the opening-hand figures against the hypergeometric formula."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.analysis.stats import NOT_GIVEN, PILE_ZONE
from deckcheck.catalog.selectors import bind_selector
from deckcheck.commands.stats import deck_stats
from deckcheck.decks.load import LoadedDeck, load_deck, open_deck
from deckcheck.games.registry import all_games
from tests.games.test_examples import deck_files

# Every example deck reads (test_examples.py checks it): no deck is opened to be listed, which
# would happen at collection, in every worker, before the run's catalog cache is set.
DECKS = deck_files()


def _expected_counts(loaded: LoadedDeck) -> dict[str, Counter[str]]:
    """Field -> value -> copies, counted straight from the resolved deck lines."""
    spec = loaded.game.spec
    opening = loaded.game.opening(loaded.variant)
    # The examples under a format write no seed zone, so its zone rules take nothing there
    # (the file's seed zone is tested in test_stccg_formats.py).
    aside_rules = [r for r in opening.set_aside if not r.zone] if opening else []
    remaining = Counter()
    for e in loaded.deck:
        remaining[e.card.id] += e.count
    cards = {e.card.id: e.card for e in loaded.deck}
    zone: Counter[str] = Counter()
    for rule in aside_rules:
        sel = bind_selector(rule.select, loaded.catalog) if rule.select else lambda c: True
        taken_values: set[str] = set()  # one_per: one copy per value (an Outpost per affiliation)
        for cid in list(remaining):
            if remaining[cid] and sel(cards[cid]):
                take = remaining[cid] if rule.count is None else min(rule.count, remaining[cid])
                if rule.one_per:
                    value = cards[cid].get(rule.one_per)
                    values = set(value) if isinstance(value, list) else {str(value)}
                    take = min(take, len(values - taken_values))
                    taken_values |= set(sorted(values - taken_values)[:take])
                remaining[cid] -= take
                zone[rule.why] += take
                if rule.count is not None:
                    break
    zone[PILE_ZONE] += sum(remaining.values())
    out: dict[str, Counter[str]] = {"zone": +zone}
    for dim in spec.dimensions:
        if dim.field == "zone":
            continue
        scope = bind_selector(dim.select, loaded.catalog) if dim.select else None
        counts: Counter[str] = Counter()
        for e in loaded.deck:
            if scope and not scope(e.card):
                continue
            value = e.card.get(dim.field)
            values = value if isinstance(value, list) else [] if value is None else [value]
            for v in values or [NOT_GIVEN]:
                text = ("yes" if v else "no") if isinstance(v, bool) else str(v)
                counts[text] += e.count
        out[dim.field] = counts
    return out


@pytest.mark.parametrize("path", DECKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stats_counts_match_the_deck(path: Path) -> None:
    report = deck_stats(open_deck(str(path)), odds=False)
    loaded = load_deck(path)
    expected = _expected_counts(loaded)
    assert report.size == loaded.deck.size
    declared = [d.field for d in loaded.game.spec.dimensions]
    for dim in report.dimensions:
        got = {b.value: b.count for b in dim.buckets}
        want = dict(expected[dim.field])
        # A file that writes its own seed zone is counted by the zone rules, whose own test is
        # in test_stccg_formats.py; here the zones are counted by type only.
        opening = loaded.game.opening(loaded.variant)
        rule_zones = {r.zone for r in opening.set_aside if r.zone} if opening else set()
        zoned = any(e.zone in rule_zones for e in loaded.deck)
        if dim.field != "zone" or (loaded.game.spec.opening is not None and not zoned):
            assert got == want, dim.field
        assert dim.field in declared
        for b in dim.buckets:
            assert b.share == pytest.approx(b.count / dim.total)
    # A declared dimension is left out only when no card of the deck has the field.
    shown = {d.field for d in report.dimensions}
    for name in declared:
        if name not in shown and name != "zone":
            assert set(expected[name]) <= {NOT_GIVEN}, name


def _hypergeometric_at_least_one(pile: int, hits: int, seen: int) -> Fraction:
    return 1 - Fraction(math.comb(pile - hits, seen), math.comb(pile, seen))


@pytest.mark.parametrize(
    "deck",
    [
        "examples/ren-dhark/terra-custom.txt",
        "examples/planetary-conquerors/legal-50.txt",
        "examples/stccg-1e/legal-romulan.txt",
        "dorn:rituals",
        "the-drake:stack",
    ],
)
def test_hand_figures_are_the_hypergeometric_ones(deck: str) -> None:
    report = deck_stats(open_deck(deck))
    assert report.cards_seen is not None and report.pile_size is not None
    n, seen = report.pile_size, report.cards_seen
    checked = 0
    for dim in report.dimensions:
        for b in dim.buckets:
            if b.hand is None:
                continue
            k = b.hand.in_pile
            assert b.hand.expected == Fraction(seen * k, n)
            plain = _hypergeometric_at_least_one(n, k, seen)
            assert b.hand.p_at_least_one_without_mulligan == pytest.approx(float(plain))
            # The mulligan is aimed at "at least one": it never lowers the chance much
            # (a forced redraw may); with no mulligan the two agree exactly.
            if not report.mulligan:
                assert b.hand.p_at_least_one_exact == f"{plain.numerator}/{plain.denominator}"
            checked += 1
    assert checked > 0


def test_set_aside_cards_get_no_hand_odds() -> None:
    report = deck_stats(open_deck("examples/stccg-1e/legal-federation.txt"))
    types = {b.value: b for d in report.dimensions if d.field == "type" for b in d.buckets}
    assert types["Mission"].in_pile == 0 and types["Mission"].hand is None
    assert types["Personnel"].hand is not None and types["Personnel"].in_pile == 21


def test_curve_totals() -> None:
    report = deck_stats(open_deck("dorn:rituals"))
    curve = next(d for d in report.dimensions if d.field == "blood_cost")
    rituals = [c for c in all_games()["dorn"].bundled_catalog() if c.has_type("ritual")]
    loaded_costs = [c.get("blood_cost") for c in rituals]
    assert curve.curve and curve.sum == sum(loaded_costs)
    assert [b.number for b in curve.buckets] == sorted(set(loaded_costs))
    assert curve.mean == pytest.approx(sum(loaded_costs) / len(loaded_costs))


def test_every_game_declares_valid_dimensions() -> None:
    for game in all_games().values():
        dims = game.spec.dimensions
        assert dims, game.id
        for d in dims:
            assert d.field in {*game.spec.fields, "type", "name", "zone"}, (game.id, d.field)
            if d.curve:
                assert game.spec.fields[d.field].kind == "int", (game.id, d.field)
            if d.select:
                bind_selector(d.select, game.bundled_catalog())


@pytest.mark.parametrize(
    "deck",
    [
        "examples/ren-dhark/terra-custom.txt",
        "examples/stccg-1e/legal-klingon.txt",
        "examples/planetary-conquerors/legal-80.txt",
        "examples/dorn/first-game-party.txt",
        "examples/the-drake/standard-stack.txt",
        "dorn:rituals",
    ],
)
def test_stats_cli_json_for_every_game(deck: str) -> None:
    result = invoke(["stats", deck, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["dimensions"] and data["cards"] > 0
    human = invoke(["stats", deck])
    assert human.exit_code == 0, human.output
    assert data["dimensions"][0]["label"] in human.stdout


def test_stats_of_a_missing_file_is_exit_2() -> None:
    result = invoke(["stats", "no/such/deck.txt"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_user_categories_in_stats(tmp_path: Path) -> None:
    source = Path("examples/ren-dhark/terra-custom.txt").read_text(encoding="utf-8")
    deck = tmp_path / "deck.txt"
    deck.write_text(
        source.replace(
            "catalog: resource-points.toml",
            "catalog: resource-points.toml\n"
            "category: flagships = POINT OF; NOGK\n"
            "category: actions = type:action",
        ),
        encoding="utf-8",
    )
    (tmp_path / "resource-points.toml").write_text(
        Path("examples/ren-dhark/resource-points.toml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    report = deck_stats(open_deck(str(deck)))
    assert report.categories is not None
    got = {b.value: b for b in report.categories.buckets}
    assert got["flagships"].count == 3  # 2 POINT OF + NOGK
    assert got["actions"].count == 5
    assert got["flagships"].hand is not None
    n, seen = report.pile_size, report.cards_seen
    plain = _hypergeometric_at_least_one(n, 3, seen)
    assert got["flagships"].hand.p_at_least_one_without_mulligan == pytest.approx(float(plain))
