"""Rules as data: the generic rule kinds of game.toml, their findings, and the linear
constraints each states of itself (what ``fix`` solves over)."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.core.errors import CatalogError
from deckcheck.core.violations import Severity
from deckcheck.games.base import CodeRule, Game
from deckcheck.games.linear import Helper, Linear, RuleConstraints, either
from deckcheck.games.registry import all_games, get_game

ROOT = Path(__file__).resolve().parents[2]
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
    by_id = {c.id: c for c in cards}
    rng = random.Random(seed)
    decks = []
    for i in range(n):
        size = rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 30, 34, 50, 60, 80])
        counts: dict[str, int] = {}
        for _ in range(size):
            card = rng.choice(cards)
            counts[card.id] = counts.get(card.id, 0) + rng.choice([1, 1, 1, 2, 3])
        entries = tuple(DeckEntry(by_id[i], k) for i, k in counts.items())
        decks.append(Deck(f"random-{i}", game.id, variant, entries))
    return decks


def _stated(game: Game, code: str) -> bool:
    """Whether the rule states itself as constraints (a data rule, or code that says how)."""
    rule = game.rule(code)
    return code in game.data_rules or (isinstance(rule, CodeRule) and rule.constraints is not None)


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
    say only part of it, ``exact`` False: whenever it finds nothing, they hold). Every deck
    against every rule, however many helpers its constraints have (holds() is exact)."""
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
    assert sum(seen.values()) == 150 * len(codes)  # every deck against every rule, none skipped


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


def _every_helper_value(rule: RuleConstraints, counts: dict[str, int]) -> bool:
    """holds() by trying every value of every helper (a helper without a maximum: up to the
    deck's size), for small systems."""
    if any(counts.get(card, 0) != n for card, n in rule.fixed.items()):
        return False
    size = sum(counts.values())
    ranges = [range(h.low, (size if h.high is None else h.high) + 1) for h in rule.helpers]
    return any(
        all(
            c.holds({**counts, **dict(zip([h.name for h in rule.helpers], values, strict=True))})
            for c in rule.linear
        )
        for values in itertools.product(*ranges)
    )


def test_holds_is_exact() -> None:
    """holds() narrows and searches instead of trying every helper value: on small random
    systems (indicators, negative coefficients, helpers with and without bounds, cards missing
    from the deck) it answers as trying every value does."""
    rng = random.Random(31)
    answers = {True: 0, False: 0}
    for _ in range(1500):
        helpers = []
        for i in range(rng.randint(0, 4)):
            low = rng.choice([0, 0, 0, 1, -1])
            helpers.append(Helper(f"h{i}", low, rng.choice([None, low, low + 1, low + 3])))
        names = [h.name for h in helpers] + ["a", "b", "c"]
        linear = tuple(
            Linear(
                {
                    n: rng.choice([-3, -2, -1, 1, 2, 3])
                    for n in rng.sample(names, rng.randint(0, 3))
                },
                rng.choice([None, rng.randint(-4, 4)]),
                rng.choice([None, rng.randint(-4, 6)]),
                rng.choice([None, None, *names]),
            )
            for _ in range(rng.randint(0, 4))
        )
        fixed = {"c": rng.randint(0, 2)} if rng.random() < 0.1 else {}
        rule = RuleConstraints("x", linear, tuple(helpers), fixed)
        counts = {n: rng.randint(0, 3) for n in ("a", "b", "c") if rng.random() < 0.8}
        expected = _every_helper_value(rule, counts)
        assert rule.holds(counts) == expected, (rule, counts)
        answers[expected] += 1
    assert min(answers.values()) > 300


def test_holds_decides_many_helpers_part_by_part() -> None:
    """Eighty either/or pairs (2**160 helper values to try) of which the last cannot hold:
    each pair is decided on its own, and a constraint over them all by narrowing."""
    linear: list[Linear] = []
    helpers: list[Helper] = []
    for i in range(80):
        yes, no, link = either(f"x:{i}")
        helpers += [yes, no]
        linear += [
            link,
            Linear({f"c{i}": 1}, 1, when=yes.name),
            Linear({f"c{i}": 1}, None, 0, when=no.name),
        ]
    rule = RuleConstraints("x", tuple(linear), tuple(helpers))
    counts = {f"c{i}": i % 2 for i in range(80)}
    assert rule.holds(counts)
    total = Linear({h.name: 1 for h in helpers if h.name.endswith(":yes")}, None, 39)
    assert not RuleConstraints("x", (*linear, total), tuple(helpers)).holds(counts)
    stuck = Linear({"x:79:yes": 1, "x:79:no": 1}, 2)
    assert not RuleConstraints("x", (*linear, stuck), tuple(helpers)).holds(counts)


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
