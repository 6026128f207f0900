"""A field selector decides once per distinct value, and still tells apart values that are
equal in a dict but match differently (True, 1, "1", 1.0, lists of them)."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from deckcheck.catalog.model import Card, Catalog, FieldSpec
from deckcheck.catalog.selectors import bind_selector

VALUES: list[object] = [
    True,
    False,
    1,
    0,
    "1",
    "true",
    1.0,
    "Yes",
    [1],
    [True],
    ["1", "x"],
    ("true",),
    [],
    [[True]],
    "no",
]


def _catalog() -> Catalog:
    cards = [
        Card(f"c{i}", f"Card {i}", ("thing",), MappingProxyType({"flag": v}), (), i)
        for i, v in enumerate(VALUES)
    ]
    cards.append(Card("none", "No flag", ("thing",), MappingProxyType({}), (), len(VALUES)))
    return Catalog("toy", "Toy", cards, {"flag": FieldSpec("flag", "data")})


def _matching(text: str, cards: list[Card]) -> list[str]:
    selector = bind_selector(text, _catalog())
    return [c.id for c in cards if selector(c)]


@pytest.mark.parametrize("wanted", ["true", "1", "yes", "x", "no", "0", "false"])
def test_a_selector_answers_each_card_as_on_its_own(wanted: str) -> None:
    catalog = _catalog()
    cards = list(catalog)
    together = _matching(f"flag:{wanted}", cards)
    # Each card asked of a selector that has decided nothing yet, and the cards again in
    # another order after the first pass: the same answers.
    alone = [c.id for c in cards if _matching(f"flag:{wanted}", [c])]
    assert together == alone
    assert _matching(f"flag:{wanted}", cards[::-1]) == together[::-1]
    assert together  # every wanted value above is held by some card


def test_equal_keys_that_match_differently_are_told_apart() -> None:
    cards = list(_catalog())
    by_value = dict(zip((repr(v) for v in VALUES), cards, strict=False))
    got = _matching("flag:1", cards)
    assert by_value["True"].id in got and by_value["1"].id in got and by_value["'1'"].id in got
    assert by_value["1.0"].id not in got  # "1.0" is not "1"
    got = _matching("flag:true", cards)
    assert by_value["True"].id in got and by_value["1"].id not in got


@pytest.mark.parametrize(
    "conditions",
    [
        ["type:Personnel>=2", "affiliation:Federation>=1", "icons:Stf>=1", "rarity:U<=2"],
        ["type:Ship>=1", "Enterprise>=1", "affiliation:Non-Aligned>=1"],  # a name, card by card
    ],
)
def test_the_pile_is_grouped_as_card_by_card(conditions: list[str]) -> None:
    from pathlib import Path

    from deckcheck.analysis.odds import OddsOptions, bind
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.decks.load import open_deck

    deck = Path(__file__).resolve().parents[2] / "examples/stccg-1e/legal-federation.txt"
    setup = draw_setup(open_deck(str(deck)))
    bound = bind(setup, conditions, OddsOptions())
    selectors = [bind_selector(t, setup.catalog) for t in bound.problem.selector_labels]
    want: dict[tuple[bool, ...], int] = {}
    for card, n in setup.pile:
        key = tuple(s(card) for s in selectors)
        want[key] = want.get(key, 0) + n
    got = dict(zip(bound.problem.membership, bound.problem.group_sizes, strict=True))
    assert got == want
    assert len(got) > 2
