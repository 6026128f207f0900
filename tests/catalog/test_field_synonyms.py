"""A field value the game declares as a synonym selects the same cards (Neutral = Non-Aligned)."""

from __future__ import annotations

import json

import pytest
from conftest import invoke

from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import ConditionError
from deckcheck.games.registry import get_game


@pytest.fixture(scope="module")
def stccg_catalog():
    return get_game("stccg-1e").catalog()


def _ids(selector_text: str, catalog) -> set[str]:
    selector = bind_selector(selector_text, catalog)
    return {card.id for card in catalog if selector(card)}


def test_neutral_and_non_aligned_select_the_same_cards(stccg_catalog) -> None:
    neutral = _ids("affiliation:Neutral", stccg_catalog)
    assert neutral, "the catalog has Non-Aligned cards"
    assert neutral == _ids("affiliation:Non-Aligned", stccg_catalog)
    assert neutral == _ids("AFFILIATION:neutral", stccg_catalog)


def test_a_synonym_does_not_widen_other_values(stccg_catalog) -> None:
    klingon = _ids("affiliation:Klingon", stccg_catalog)
    assert klingon and not klingon & {
        c.id for c in stccg_catalog if c.get("affiliation") == "Non-Aligned"
    }
    with pytest.raises(ConditionError):
        bind_selector("affiliation:Neutralish", stccg_catalog)


def test_neutral_in_a_condition_on_a_federation_deck() -> None:
    result = invoke(
        ["odds", "examples/stccg-1e/legal-federation.txt", "affiliation:Neutral>=1", "--json"],
    )
    assert result.exit_code == 0, result.output
    same = invoke(
        ["odds", "examples/stccg-1e/legal-federation.txt", "affiliation:Non-Aligned>=1", "--json"],
    )
    assert json.loads(result.stdout)["probability"] == json.loads(same.stdout)["probability"] > 0
