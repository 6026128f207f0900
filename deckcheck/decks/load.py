"""From a DECK argument to an opened deck: a built-in pile, or a deck file parsed and its names
resolved in the game, variant and catalog its context chooses (:mod:`deckcheck.games.context`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import UsageError
from deckcheck.core.values import frozen
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import read_deck
from deckcheck.decks.resolve import PartlyResolvedError, resolve_deck, unknown_lines
from deckcheck.games.base import Game, Variant
from deckcheck.games.context import NO_CONTEXT, Context, DeckHeader, Pile
from deckcheck.games.registry import all_games


@frozen
class LoadedDeck:
    """A deck with everything needed to check or analyse it."""

    deck: Deck
    game: Game
    catalog: Catalog
    variant: Variant
    source: DeckSource


_PILE = re.compile(r"^(?P<game>[A-Za-z0-9][A-Za-z0-9-]*):(?P<pile>[A-Za-z0-9][A-Za-z0-9-]*)$")
"""``GAME:PILE``: a known game, a colon, a name, and no file of that name."""


def open_deck(
    deck: str | Path, context: Context = NO_CONTEXT, *, piles: bool = True
) -> LoadedDeck | Pile:
    """A DECK argument opened: a built-in random pile (``GAME:PILE``, a game's pile where no
    file of that name exists), else a deck file (``-``: standard input) read and resolved
    against its game's catalog (:func:`resolve_source`). The one place that tells them apart."""
    match = _PILE.match(str(deck))
    if match is not None and not Path(deck).exists():  # a file always wins
        game = all_games().get(match.group("game").lower())
        pile = Pile(game, match.group("pile").lower(), context) if game else None
        if pile is not None and piles:  # the pile may be unknown to the game: its user says so
            return pile
        if pile is not None and pile.known:
            raise UsageError(
                f"{deck} is a built-in random pile: use it with odds, simulate, hand, stats, "
                "tune, mulligan or distribution, not as a deck"
            )
    return resolve_source(read_deck(deck), context)


def load_deck(deck: str | Path, context: Context = NO_CONTEXT) -> LoadedDeck:
    """A deck file (or ``-``) opened (:func:`open_deck`); a built-in random pile is refused
    (an unknown pile name is read as the file it then must be)."""
    opened = open_deck(deck, context, piles=False)
    if not isinstance(opened, LoadedDeck):  # never: without piles a file is read
        raise TypeError(f"{deck}: not a deck file")
    return opened


def deck_or_owned(loaded: LoadedDeck, owned: Mapping[str, int]) -> dict[str, int]:
    """``--owned`` as the solver's caps: each card's copies within what the deck holds or the
    collection has (the deck's own copies are in hand)."""
    caps = dict(owned)
    for card_id, n in loaded.deck.counts().items():
        caps[card_id] = max(n, caps.get(card_id, 0))
    return caps


def resolve_source(source: DeckSource, context: Context = NO_CONTEXT) -> LoadedDeck:
    """Resolve an already parsed deck against its game's catalog.

    The game, variant, settings and overlays are decided by :meth:`Context.choose` from what
    the file says of itself and what ``context`` says: the game comes from the file (``game:``
    header or TOML key), else the context, else the one game whose catalog knows every card.
    Overlays: the file's own ``catalog:`` files first, then the context's. Settings: a header
    line (``missions: 4``), then the context's (``--set missions=4``).
    """
    chosen = context.choose(
        _header(source),
        lambda catalog, game: unknown_lines(source, catalog, game),
    )
    source = _without(source, chosen.settings)
    try:
        deck = resolve_deck(source, chosen.catalog, chosen.game, chosen.variant.name)
    except PartlyResolvedError as exc:
        exc.loaded = LoadedDeck(exc.deck, chosen.game, chosen.catalog, chosen.variant, source)
        if not chosen.named:
            game = chosen.game.id
            exc.details = (
                f"the deck names no game; its lines are those of {game} but for these "
                f"(add 'game: {game}' or --game {game})",
                *exc.details,
            )
        raise
    return LoadedDeck(deck, chosen.game, chosen.catalog, chosen.variant, source)


def _header(source: DeckSource) -> DeckHeader:
    """What the deck file says of itself, for :meth:`Context.choose`."""
    return DeckHeader(
        source.label,
        source.game,
        source.headers.get("variant"),
        source.catalogs,
        source.header_lines,
        tuple((line.header[0], line.header[1], line.line) for line in source.lines if line.header),
        source.game_hint,
        source.path.parent if source.path is not None else None,
        len(source.lines),
    )


def _without(source: DeckSource, settings: frozenset[str]) -> DeckSource:
    """The deck without its setting lines (``missions: 4``); other ``key: value`` lines stay
    card lines."""
    if not settings:
        return source
    kept = tuple(line for line in source.lines if not (line.header and line.header[0] in settings))
    return replace(source, lines=kept)
