"""Rules as data: the generic rule kinds of game.toml, their findings, and the linear
constraints each states of itself (what ``fix`` solves over)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.core.errors import CatalogError
from deckcheck.core.violations import Severity
from deckcheck.games.base import CodeRule, Game
from deckcheck.games.linear import Helper, Linear, RuleConstraints
from deckcheck.games.registry import all_games, get_game

ROOT = Path(__file__).resolve().parents[1]
OVERLAYS = {
    "ren-dhark": [ROOT / "examples" / "ren-dhark" / "resource-points.toml"],
    "planetary-conquerors": [ROOT / "examples" / "planetary-conquerors" / "example-set.toml"],
}

# The size and copy rules of all five games, and the Ren Dhark counts and points window.
DATA = {
    "stccg-1e": {"stccg.size", "stccg.missions"},
    "planetary-conquerors": {"pc.size", "pc.rarity", "pc.miners"},
    "dorn": {"dorn.party-size", "dorn.party-unique"},
    "the-drake": {"drake.stack-size"},
    "ren-dhark": {"rd.copies", "rd.actions", "rd.planet", "rd.points"},
}


@pytest.mark.parametrize("game_id", sorted(DATA))
def test_the_size_and_copy_rules_are_data(game_id: str) -> None:
    game = get_game(game_id)
    assert set(game.data_rules) == DATA[game_id]
    assert not set(game.data_rules) & set(game.rules)  # each code defined once
    listed = {code for v in game.variants.values() for code in v.rules}
    assert DATA[game_id] <= listed


def _random_decks(game: Game, variant: str, n: int, seed: int) -> list[Deck]:
    catalog = game.catalog(OVERLAYS.get(game.id, []))
    cards = [c for c in catalog if game.id != "stccg-1e" or c.get("premiere")]
    rng = random.Random(seed)
    decks = []
    for i in range(n):
        size = rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 30, 34, 50, 60, 80])
        counts: dict[str, int] = {}
        for _ in range(size):
            card = rng.choice(cards)
            counts[card.id] = counts.get(card.id, 0) + rng.choice([1, 1, 1, 2, 3])
        by_id = {c.id: c for c in cards}
        entries = tuple(DeckEntry(by_id[i], k) for i, k in counts.items())
        decks.append(Deck(f"random-{i}", game.id, variant, entries))
    return decks


def _stated(game: Game, code: str) -> bool:
    """Whether the rule states itself as constraints (a data rule, or code that says how)."""
    rule = game.rule(code)
    return code in game.data_rules or (isinstance(rule, CodeRule) and rule.constraints is not None)


def _few_helper_values(rule: RuleConstraints, counts: dict[str, int]) -> bool:
    size = 1
    for helper in rule.helpers:
        top = helper.high if helper.high is not None else sum(counts.values())
        size *= top - helper.low + 1
    return size <= 4096


CASES = [
    (game_id, variant)
    for game_id, game in sorted(all_games().items())
    for variant in game.variants
    if any(_stated(game, code) for code in game.variants[variant].rules)
]


@pytest.mark.parametrize(("game_id", "variant_name"), CASES)
def test_constraints_agree_with_the_check(game_id: str, variant_name: str) -> None:
    """Every rule that states constraints, data or code, of every game and variant: a deck
    satisfies them exactly when the rule finds nothing but warnings (a rule whose constraints
    say only part of it, ``exact`` False: whenever it finds nothing, they hold)."""
    game = get_game(game_id)
    variant = game.variant(variant_name)
    catalog = game.catalog(OVERLAYS.get(game_id, []))
    codes = [c for c in variant.rules if _stated(game, c)]
    stated = {code: game.constraints(code, catalog, variant) for code in codes}
    seen = {True: 0, False: 0}
    for deck in _random_decks(game, variant_name, 150, seed=len(game_id) + len(variant_name)):
        counts = dict(deck.counts())
        for code in codes:
            findings = [
                v
                for v in game.rule(code)(deck, catalog, variant)
                if v.severity is not Severity.WARNING
            ]
            if not _few_helper_values(stated[code], counts):
                continue  # holds() tries every helper value: fine for a few, not for thousands
            holds = stated[code].holds(counts)
            if stated[code].exact:
                assert holds == (not findings), (code, counts, findings)
            else:
                assert holds or findings, (code, counts)
            seen[holds] += 1
    # both sides were exercised (a random deck never meets a rule that fixes the whole deck,
    # a starter or a basic stack: there the data rules' side is the one asked of it)
    has_data = any(code in game.data_rules for code in codes)
    assert seen[False] and (seen[True] or not has_data)


def test_every_game_has_its_rules_checked_against_their_constraints() -> None:
    """The agreement above reaches the rule functions of every game, not only data rules."""
    coded = {
        (game_id, code)
        for game_id, variant in CASES
        for code in get_game(game_id).variants[variant].rules
        if code not in get_game(game_id).data_rules and _stated(get_game(game_id), code)
    }
    assert {game_id for game_id, _ in coded} >= {"stccg-1e", "ren-dhark", "dorn", "the-drake"}
    assert ("ren-dhark", "rd.ships") in coded and ("stccg-1e", "stccg.seed-half") in coded


def test_a_variant_overrides_a_rule_field() -> None:
    game = get_game("stccg-1e")
    catalog = game.bundled_catalog()
    standard = game.constraints("stccg.missions", catalog, game.variant("standard"))
    advanced = game.constraints("stccg.missions", catalog, game.variant("advanced"))
    (exact,) = standard.linear
    assert (exact.low, exact.high) == (6, 6) and not standard.helpers
    # advanced: at least 6 and even (missions - 2k = 0 for a whole k), no maximum
    assert [(c.low, c.high) for c in advanced.linear] == [(6, None), (0, 0)]
    (k,) = advanced.helpers
    assert advanced.linear[1].terms[k.name] == -2
    four = game.variant("standard").with_params({"missions": 4})
    (exact,) = game.constraints("stccg.missions", catalog, four).linear
    assert (exact.low, exact.high) == (4, 4)


def test_a_variant_override_of_the_wrong_shape_is_a_broken_game() -> None:
    """An override is checked against the rule's fields as game.toml itself is: a number
    given as a list, or a field the rule has not, names the variant and the rule."""
    import dataclasses

    game = get_game("stccg-1e")
    catalog = game.bundled_catalog()
    standard = game.variant("standard")
    deck = Deck("d", game.id, standard.name, (DeckEntry(catalog.cards[0], 1),))
    rule = game.rule("stccg.missions")
    assert list(rule(deck, catalog, standard))  # one card: the mission rule has findings
    message = "variant 'standard' breaks rule stccg.missions"
    for override in ({"max": [6]}, {"colour": "red"}):
        broken = dataclasses.replace(standard, checks={"stccg.missions": override})
        with pytest.raises(CatalogError, match=re.escape(message)):
            list(rule(deck, catalog, broken))


def test_unknown_rarity_is_capped_at_the_strictest_cap() -> None:
    game = get_game("planetary-conquerors")
    catalog = game.bundled_catalog()  # the rulebook's cards: Topdecker has no rarity
    topdecker = next(c for c in catalog if c.get("rarity") is None)
    stated = game.constraints("pc.rarity", catalog, game.variant("standard"))
    caps = [c for c in stated.linear if topdecker.id in c.terms]
    assert [c.high for c in caps] == [1]
    assert "unknown rarity" in stated.note


def test_points_window_leaves_out_cards_without_a_value() -> None:
    game = get_game("ren-dhark")
    bundled = game.constraints("rd.points", game.bundled_catalog(), game.variant("custom"))
    assert len(bundled.fixed) == 54  # every ship, person and unit lacks a public value
    assert set(bundled.fixed.values()) == {0} and "cannot be used" in bundled.note
    with_values = game.constraints(
        "rd.points", game.catalog(OVERLAYS["ren-dhark"]), game.variant("custom")
    )
    assert with_values.fixed == {}
    (window,) = with_values.linear
    assert (window.low, window.high) == (109, 112)


def test_linear_and_helpers_are_checked_exhaustively() -> None:
    rule = RuleConstraints(
        "x.even",
        (Linear({"a": 1, "b": 1, "x.even:k": -2}, 0, 0), Linear({"a": 1}, 1)),
        (Helper("x.even:k"),),
    )
    assert rule.holds({"a": 1, "b": 1}) and rule.holds({"a": 3, "b": 1})
    assert not rule.holds({"a": 1, "b": 2}) and not rule.holds({"b": 2})
    indicator = Linear({"a": 1}, 5, None, when="on")
    assert indicator.holds({"a": 0, "on": 0}) and not indicator.holds({"a": 0, "on": 1})


def _game_with(tmp_path: Path, checks: str, rules: dict[str, object] | None = None) -> Game:
    (tmp_path / "game.toml").write_text(
        '[game]\nid = "toy"\nname = "Toy"\ndefault_variant = "v"\n'
        '[variants.v]\nrules = ["toy.size"]\n[variants.v.params]\nn = 3\n' + checks,
        encoding="utf-8",
    )
    return Game(directory=tmp_path, rules=rules or {})  # type: ignore[arg-type]


def test_a_code_defined_twice_is_a_broken_game(tmp_path: Path) -> None:
    game = _game_with(
        tmp_path,
        '[checks."toy.size"]\nkind = "size"\nmin = "n"\nmessages.below = "{n} < {min}"\n',
        {"toy.size": lambda deck, catalog, variant: []},
    )
    with pytest.raises(CatalogError, match="code and as data"):
        _ = game.spec


def test_a_message_with_an_unknown_field_is_a_broken_game(tmp_path: Path) -> None:
    game = _game_with(
        tmp_path,
        '[checks."toy.size"]\nkind = "size"\nmin = "n"\nmessages.below = "{cards} < {min}"\n',
    )
    variant = game.variant(None)
    deck = Deck("d", "toy", "v", ())
    from deckcheck.catalog.model import Catalog

    with pytest.raises(CatalogError, match="unknown field"):
        list(game.rule("toy.size")(deck, Catalog("toy", "Toy", (), {}), variant))


def test_every_game_loads_its_data_rules() -> None:
    for game in all_games().values():
        for code, rule in game.data_rules.items():
            assert rule.model.messages, code
