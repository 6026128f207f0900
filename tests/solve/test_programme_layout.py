"""``deck_programme`` starts from its catalog's layout of cells and keeps the rules' terms over
it for the next deck: the programme is the same as one made card by card, term by term."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import EXAMPLES

from deckcheck.decks.load import load_deck
from deckcheck.solve import programme
from deckcheck.solve.programme import DeckProgramme, deck_programme


def _whole(model: DeckProgramme) -> tuple[Any, ...]:
    """Everything the solver is given, and the model's cells, in their order."""
    p = model.programme
    return (
        p.lower,
        p.upper,
        p.integer,
        [(list(t.items()), low, high, group) for t, low, high, group in p.rows],
        [(g, list(b.items())) for g, b in p.bound_groups.items()],
        [(n, list(w.items())) for n, w in p.weights.items()],
        list(model.cells.items()),
        list(model.by_card.items()),
        list(model.zoned.items()),
        list(model.helpers.items()),
    )


def test_the_layout_and_its_kept_terms_give_the_programme_made_card_by_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = load_deck(EXAMPLES / "stccg-1e" / "illegal-outposts.txt")
    zoned = load_deck(EXAMPLES / "stccg-1e" / "illegal-warp-speed-lackey-zones.txt")
    counts = plain.deck.counts()
    owned = {i: n + 1 for i, n in counts.items()}
    asked: list[tuple[Any, dict[str, Any]]] = [
        (plain, {}),
        (plain, {}),  # the layout's terms kept from the first
        (plain, {"owned": owned, "keep": list(counts)[:2]}),
        (plain, {"changes": 3, "numbers": [8], "prune": True}),
        (zoned, {}),  # cards held in three zones
    ]
    with_layout = [_whole(deck_programme(loaded, **kw)) for loaded, kw in asked]
    monkeypatch.setattr(programme, "_layout", lambda loaded, zones: None)
    for (loaded, kw), made in zip(asked, with_layout, strict=True):
        assert _whole(deck_programme(loaded, **kw)) == made, kw
