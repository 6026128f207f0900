"""``stats``: a deck's (or a built-in pile's) composition by the dimensions its game declares,
and per value the opening hand's expected count and exact chance of at least one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from deckcheck.analysis.categories import categories_of_source
from deckcheck.analysis.setup import DrawSetup, deck_setup, open_setup
from deckcheck.analysis.stats import StatsReport, build_stats
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import load_deck
from deckcheck.games.registry import pile_reference


def deck_stats(
    deck: str,
    *,
    catalogs: Sequence[str | Path] = (),
    game: str | None = None,
    variant: str | None = None,
    second: bool = False,
    odds: bool = True,
) -> StatsReport:
    """The stats of a deck file (``-`` for standard input) or a built-in pile ``GAME:PILE``.

    ``odds=False`` leaves out the opening-hand figures (composition only).
    """
    if pile_reference(deck) is not None:
        pile = open_setup(deck, catalogs=catalogs)
        return build_stats(
            pile.label, pile.game, None, list(pile.pile), pile, (), second=second, odds=odds
        )
    loaded = load_deck(deck, game=game, variant=variant, catalogs=catalogs)
    categories = categories_of_source(loaded.source, loaded.catalog, loaded.game)
    setup: DrawSetup | None
    notes: list[str] = []
    try:
        setup = deck_setup(loaded)
    except UsageError as exc:
        setup = None
        notes.append(f"no opening-hand figures: {exc.message}")
    counts = loaded.deck.counts()
    known = loaded.deck.cards()
    cards = [(known[i], n) for i, n in counts.items()]
    return build_stats(
        loaded.deck.label,
        loaded.game,
        loaded.variant.name,
        cards,
        setup,
        categories,
        second=second,
        odds=odds,
        notes=notes,
    )
