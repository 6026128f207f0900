"""From a path to a resolved deck: parse, find the game, lay overlays, resolve names."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.load import read_document
from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import DeckcheckError, InputFileError, UsageError
from deckcheck.core.values import frozen
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import read_deck
from deckcheck.decks.resolve import (
    MAX_REPORTED_LINES,
    PartlyResolvedError,
    resolve_deck,
    unknown_names,
)
from deckcheck.games.base import Game, Variant
from deckcheck.games.registry import all_games, get_game, pile_reference


@frozen
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
    params: Mapping[str, str | int] | None = None,
) -> LoadedDeck:
    """Read a deck file (or ``-``) and resolve it against its game's catalog.

    The game comes from the file (``game:`` header or TOML key), else ``game``, else the one
    game whose catalog knows every card. Overlays: the file's own ``catalog:`` files first,
    then ``catalogs`` (``--catalog``), so the command line has the last word. ``params``
    change the variant's settings (``--set missions=4``); a header line may too (``missions: 4``).
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
    params: Mapping[str, str | int] | None = None,
) -> LoadedDeck:
    """Resolve an already parsed deck (see :func:`load_deck`)."""
    _check_header_overlays(source)
    overlays = [*source.catalogs, *catalogs]
    declared = source.game.strip().lower() if source.game else None
    game = game.strip().lower() if game else None
    if game:
        game = get_game(game).id  # an unknown --game is the first thing to say; "stccg" ok
    if declared and game and declared != game and _known_id(declared) != game:
        raise UsageError(
            f"{source.label} says game {declared!r} but --game says {game!r}; drop one of them"
        )
    named = declared or game or _hinted(source)
    with _at_header(source, "game" if declared else None):
        chosen = get_game(named) if named else _detect(source, overlays)
    with _at_header(source, None if variant else "variant"):
        the_variant = chosen.variant(variant or source.headers.get("variant"))
    source, written = _settings_of(source, chosen)
    for key, (value, line) in written.items():
        try:
            the_variant = chosen.with_settings(the_variant, {key: value})
        except UsageError as exc:
            raise UsageError(exc.message, source=source.label, line=line) from None
    if params:
        the_variant = chosen.with_settings(the_variant, params)
    catalog = chosen.catalog(overlays, the_variant)
    try:
        deck = resolve_deck(source, catalog, chosen, the_variant.name)
    except PartlyResolvedError as exc:
        exc.loaded = LoadedDeck(exc.deck, chosen, catalog, the_variant, source)
        if not named:
            exc.details = (
                f"the deck names no game; its lines are those of {chosen.id} but for these "
                f"(add 'game: {chosen.id}' or --game {chosen.id})",
                *exc.details,
            )
        raise
    return LoadedDeck(deck, chosen, catalog, the_variant, source)


NEARLY_ALL = 0.9
"""A deck that names no game is read as the game whose catalog knows at least this share of
its lines (and more than any other game's), so that the few unknown lines can be named."""


def _check_header_overlays(source: DeckSource) -> None:
    """An overlay the deck's ``catalog:`` line names that is not a file: say so at that line
    of the deck (the overlay's own path alone does not say where it was asked for)."""
    for overlay in source.catalogs:
        if overlay.is_file():
            continue
        written = overlay.name
        if source.path is not None:
            with suppress(ValueError):
                written = str(overlay.relative_to(source.path.parent))
        if overlay.is_dir():
            why = "is a directory, not a file"
        else:
            why = "is not a regular file" if overlay.exists() else "no such file"
        raise InputFileError(
            f"catalog overlay {written!r}: {why} (looked for {overlay})",
            source=source.label,
            line=source.header_lines.get("catalog"),
        )


def _hinted(source: DeckSource) -> str | None:
    """The game the file's own program names (:attr:`DeckSource.game_hint`), if deckcheck
    knows it; a name it does not know leaves the game to the cards."""
    return _known_id(source.game_hint) if source.game_hint else None


def _known_id(name: str) -> str | None:
    """The game id a name or alias stands for, or None (reported where the name is read)."""
    try:
        return get_game(name).id
    except DeckcheckError:
        return None


def _detect(source: DeckSource, overlays: Sequence[str | Path]) -> Game:
    """The one game whose catalog knows every card of the deck, else the one that knows nearly
    all of them (:data:`NEARLY_ALL`), whose unknown lines are then reported."""
    if not source.lines:
        raise UsageError(
            "lists no cards and names no game (add 'game: …' or --game)", source=source.label
        )
    docs = [read_document(p) for p in overlays]
    fits: list[Game] = []
    misses: list[tuple[Game, int]] = []
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
            if missing < MAX_REPORTED_LINES:
                misses.append((game, missing))
            many = "or more " if missing >= MAX_REPORTED_LINES else ""
            tried.append(f"{game.id} ({missing} {many}unknown)")
    if len(fits) == 1:
        return fits[0]
    if not fits:
        near = sorted(misses, key=lambda gm: gm[1])
        total = len(source.lines)
        best = near[0] if near else None
        if (
            best is not None
            and (total - best[1]) / total >= NEARLY_ALL
            and (len(near) == 1 or near[1][1] > best[1])
        ):
            return best[0]
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
    pile = pile_reference(path)
    if pile is not None and pile.pile in pile.game.spec.piles:
        raise UsageError(
            f"{path} is a built-in random pile: use it with odds, simulate or hand, not as a deck"
        )


def parse_settings(texts: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts (``--set missions=4``) as a mapping; the game checks keys and values."""
    settings: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(
                f"--set takes KEY=VALUE (`deckcheck games` lists each game's settings), "
                f"not {text!r}"
            )
        settings[key.strip().lower()] = value.strip()
    return settings


def _settings_of(
    source: DeckSource, game: Game
) -> tuple[DeckSource, dict[str, tuple[str, int | None]]]:
    """The deck without its setting lines (``missions: 4``, a ``[settings]`` key of the game),
    and those settings with their lines; other ``key: value`` lines stay card lines."""
    settings = {
        line.header[0]: (line.header[1], line.line)
        for line in source.lines
        if line.header and line.header[0] in game.spec.settings
    }
    if not settings:
        return source, {}
    kept = tuple(line for line in source.lines if not (line.header and line.header[0] in settings))
    return replace(source, lines=kept), settings


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
