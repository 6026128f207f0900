"""``stats``: a deck's (or a built-in pile's) composition by the dimensions its game declares,
and per value the opening hand's expected count and exact chance of at least one."""

from __future__ import annotations

from deckcheck.analysis.categories import categories_of_source
from deckcheck.analysis.setup import DrawSetup, deck_setup, pile_setup
from deckcheck.analysis.stats import StatsReport, build_stats
from deckcheck.core.errors import UsageError
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck, open_deck
from deckcheck.games.context import NO_CONTEXT, Context, Pile


def deck_stats(
    opened: LoadedDeck | Pile, *, second: bool = False, odds: bool = True
) -> StatsReport:
    """The stats of an opened deck file or built-in pile (:func:`deckcheck.decks.load.open_deck`).

    ``odds=False`` leaves out the opening-hand figures (composition only).
    """
    if isinstance(opened, Pile):
        # The pile as odds and hand deal it: under the context's variant where one is named
        # (Dorn four-heroes: rituals cost 1 more blood, 4 blessings drawn).
        pile = pile_setup(opened)
        variant = opened.context.variant
        named = pile.game.variant(variant).name if variant is not None else None
        return build_stats(
            pile.label, pile.game, named, list(pile.pile), pile, (), second=second, odds=odds
        )
    loaded = opened
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


@frozen
class StatsRequest:
    """The composition of ``deck`` (a file, ``-`` or ``GAME:PILE``) opened in ``context``, the
    opening hand dealt to the player who does not start when ``second``."""

    deck: str
    second: bool = False
    context: Context = NO_CONTEXT


def run(request: StatsRequest) -> StatsReport:
    """The stats of ``request`` (:func:`deck_stats`)."""
    return deck_stats(open_deck(request.deck, request.context), second=request.second)
