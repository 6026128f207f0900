"""From a path to a resolved deck: parse, find the game, lay overlays, resolve names."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.load import read_document
from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import read_deck
from deckcheck.decks.resolve import MAX_REPORTED_LINES, resolve_deck, unknown_names
from deckcheck.games.base import Game, Variant
from deckcheck.games.registry import all_games, get_game


@dataclass(frozen=True)
class LoadedDeck:
    """A deck with everything needed to check or analyse it."""

    deck: Deck
    game: Game
    catalog: Catalog
    variant: Variant
    source: DeckSource


def load_deck(
    path: str | Path,
    *,
    game: str | None = None,
    variant: str | None = None,
    catalogs: Sequence[str | Path] = (),
    params: Mapping[str, Any] | None = None,
) -> LoadedDeck:
    """Read a deck file (or ``-``) and resolve it against its game's catalog.

    The game comes from the file (``game:`` header or TOML key), else ``game``, else the one
    game whose catalog knows every card. Overlays: the file's own ``catalog:`` files first,
    then ``catalogs`` (``--catalog``), so the command line has the last word. ``params``
    change the variant's numbers (``--missions 4``); a header line may too (``missions: 4``).
    """
    _refuse_pile(path)
    source = read_deck(path)
    return resolve_source(source, game=game, variant=variant, catalogs=catalogs, params=params)


def resolve_source(
    source: DeckSource,
    *,
    game: str | None = None,
    variant: str | None = None,
    catalogs: Sequence[str | Path] = (),
    params: Mapping[str, Any] | None = None,
) -> LoadedDeck:
    """Resolve an already parsed deck (see :func:`load_deck`)."""
    overlays = [*source.catalogs, *catalogs]
    declared = source.game.strip().lower() if source.game else None
    game = game.strip().lower() if game else None
    if game:
        get_game(game)  # an unknown --game is the first thing to say
    if declared and game and declared != game:
        raise UsageError(
            f"{source.label} says game {declared!r} but --game says {game!r}; drop one of them"
        )
    named = declared or game
    with _at_header(source, "game" if declared else None):
        chosen = get_game(named) if named else _detect(source, overlays)
    with _at_header(source, None if variant else "variant"):
        the_variant = chosen.variant(variant or source.headers.get("variant"))
    catalog = chosen.catalog(overlays, the_variant)
    overrides = {k: _header_number(source, k) for k in source.headers if k in the_variant.params}
    overrides.update(params or {})
    if overrides:
        the_variant = the_variant.with_params(overrides)
    deck = resolve_deck(source, catalog, chosen, the_variant.name)
    return LoadedDeck(deck, chosen, catalog, the_variant, source)


def _detect(source: DeckSource, overlays: Sequence[str | Path]) -> Game:
    """The one game whose catalog knows every card of the deck."""
    if not source.lines:
        raise UsageError(
            "lists no cards and names no game (add 'game: …' or --game)", source=source.label
        )
    docs = [read_document(p) for p in overlays]
    fits: list[Game] = []
    tried: list[str] = []
    for game in all_games().values():
        mine = [p for p, d in zip(overlays, docs, strict=True) if d.game == game.id]
        try:
            catalog = game.catalog(mine)
        except DeckcheckError:
            tried.append(f"{game.id} (its overlay does not apply)")
            continue
        missing = unknown_names(source, catalog, game, MAX_REPORTED_LINES)
        if missing == 0:
            fits.append(game)
        else:
            many = "or more " if missing >= MAX_REPORTED_LINES else ""
            tried.append(f"{game.id} ({missing} {many}unknown)")
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise UsageError(
            "the deck names no game and no game's catalog knows all its cards; add a "
            "'game: …' line or --game",
            source=source.label,
            details=["tried: " + ", ".join(tried)],
        )
    raise UsageError(
        "the deck names no game and several games know all its cards: "
        + ", ".join(g.id for g in fits)
        + "; add a 'game: …' line or --game",
        source=source.label,
    )


def _refuse_pile(path: str | Path) -> None:
    """``dorn:heroes`` is a built-in random pile, not a deck file: say so instead of
    "no such file"."""
    text = str(path)
    game, sep, pile = text.partition(":")
    if not sep or Path(text).exists() or game not in all_games():
        return
    if pile in all_games()[game].spec.piles:
        raise UsageError(
            f"{text} is a built-in random pile: use it with odds, simulate or hand, not as a deck"
        )


def _header_number(source: DeckSource, key: str) -> int:
    value = source.headers[key].strip()
    if not value.isdigit() or int(value) > 10_000:
        raise UsageError(
            f"header {key}: must be a whole number, not {value!r}",
            source=source.label,
            line=source.header_lines.get(key),
        )
    return int(value)


@contextmanager
def _at_header(source: DeckSource, key: str | None) -> Iterator[None]:
    """Name the deck file and its header line in a usage error raised for that header."""
    try:
        yield
    except UsageError as exc:
        if key is None or exc.source is not None:
            raise
        raise UsageError(
            exc.message, source=source.label, line=source.header_lines.get(key), details=exc.details
        ) from None
