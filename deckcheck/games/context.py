"""What the caller says of every deck it opens, decided once: the context of a run.

A command line (or a script through :mod:`deckcheck.api`) names catalog overlays, a game, a
variant and settings once for all the decks it opens. :class:`Context` holds them as given;
:meth:`Context.choose` meets them with what one deck file says of itself (its header) and
decides the game, the variant with its settings and the catalog with its overlays. A deck
file's own reading (its lines, its cards) stays in :mod:`deckcheck.decks`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import field
from pathlib import Path
from types import MappingProxyType

from deckcheck.catalog.load import read_document
from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import DeckcheckError, InputFileError, UsageError
from deckcheck.core.values import frozen
from deckcheck.games.base import Game, Variant
from deckcheck.games.registry import all_games, get_game


@frozen
class DeckHeader:
    """What a deck file says of itself: its label, the game and variant it names, its overlays
    (``catalog:`` lines), the line of each header key, its ``key: value`` lines before the
    first card (a setting of the game, or a card line: only the game can tell), and the game
    the file's own program names (``hint``: a Lackey plugin's, say), if any; ``folder``: the
    file's folder (its overlays are named relative to it); ``card_lines``: how many lines it
    has that may name cards (none: it cannot tell its game by its cards)."""

    label: str
    game: str | None = None
    variant: str | None = None
    overlays: tuple[Path, ...] = ()
    lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    pairs: tuple[tuple[str, str, int | None], ...] = ()
    hint: str | None = None
    folder: Path | None = None
    card_lines: int = 0


@frozen
class Chosen:
    """One deck's game, its variant with the settings applied, and its catalog; ``named``:
    whether the file or the caller named the game (else it was detected from the cards);
    ``settings``: the header keys read as settings (their lines are no card lines)."""

    game: Game
    variant: Variant
    catalog: Catalog
    named: bool
    settings: frozenset[str] = frozenset()


Unknown = Callable[[Catalog, Game], Iterator[object]]
"""A deck's lines that name no card of a game's catalog, found as far as they are asked for
(the first tells a game that fits from one that does not; :data:`MAX_UNKNOWN` of them, one
that nearly fits)."""

MAX_UNKNOWN = 100
"""Unknown lines counted per game when a deck's game is detected from its cards."""

NEARLY_ALL = 0.9
"""A deck that names no game is read as the game whose catalog knows at least this share of
its lines (and more than any other game's), so that the few unknown lines can be named."""


@frozen
class Context:
    """The caller's say on every deck it opens: catalog ``overlays`` (laid after a deck file's
    own, so the caller has the last word), the ``game``, the ``variant`` and ``settings``
    (``{"missions": 4}``). None or empty: each deck file's own say, else the game's default."""

    overlays: tuple[str | Path, ...] = ()
    game: str | None = None
    variant: str | None = None
    settings: Mapping[str, str | int] = field(default_factory=lambda: MappingProxyType({}))

    def choose(self, header: DeckHeader, unknown: Unknown) -> Chosen:
        """The game, variant, settings and catalog of the deck whose ``header`` is given.

        The game comes from the file, else the context, else the file's program (``hint``),
        else the cards: the one game whose catalog knows every card line (``unknown`` counts
        those it does not), else the one that knows nearly all (:data:`NEARLY_ALL`). A file
        and a context naming two games is a usage error. The variant: the context's, else the
        file's, else the game's default; settings: the file's header lines, then the context's.
        Overlays: the file's own ``catalog:`` files first, then the context's.
        """
        _check_header_overlays(header)
        overlays = [*header.overlays, *self.overlays]
        declared = header.game.strip().lower() if header.game else None
        game = self.game.strip().lower() if self.game else None
        if game:
            game = get_game(game).id  # an unknown --game is the first thing to say; "stccg" ok
        if declared and game and declared != game and _known_id(declared) != game:
            raise UsageError(
                f"{header.label} says game {declared!r} but --game says {game!r}; drop one of them"
            )
        # the game the file's own program names, if deckcheck knows it (else: the cards say)
        named = declared or game or (_known_id(header.hint) if header.hint else None)
        with _at_header(header, "game" if declared else None):
            chosen = get_game(named) if named else _detect(header, overlays, unknown)
        with _at_header(header, None if self.variant else "variant"):
            variant = chosen.variant(self.variant or header.variant)
        written = {
            key: (value, line) for key, value, line in header.pairs if key in chosen.spec.settings
        }
        for key, (value, line) in written.items():
            try:
                variant = chosen.with_settings(variant, {key: value})
            except UsageError as exc:
                raise UsageError(exc.message, source=header.label, line=line) from None
        if self.settings:
            variant = chosen.with_settings(variant, self.settings)
        catalog = chosen.catalog(overlays, variant)
        return Chosen(chosen, variant, catalog, bool(named), frozenset(written))


NO_CONTEXT = Context()
"""Every deck's own say: no overlays, game, variant or settings from the caller."""


@frozen
class Pile:
    """A DECK argument naming a game's built-in random pile (``dorn:rituals``), in the context
    it was named in. The pile may be unknown to the game; its user says so."""

    game: Game
    name: str
    context: Context = NO_CONTEXT

    @property
    def known(self) -> bool:
        """Whether the game has a pile of this name."""
        return self.name in self.game.spec.piles


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


def make_context(
    catalogs: Sequence[str | Path] = (),
    game: str | None = None,
    variant: str | None = None,
    params: Mapping[str, str | int] | None = None,
) -> Context:
    """The context of a run from the library's keywords (``catalogs``, ``game``, ``variant``,
    ``params``), checked when a deck is opened (a broken deck does not stop the others)."""
    return Context(tuple(catalogs), game, variant, MappingProxyType(dict(params or {})))


def _check_header_overlays(header: DeckHeader) -> None:
    """An overlay the deck's ``catalog:`` line names that is not a file: say so at that line
    of the deck (the overlay's own path alone does not say where it was asked for)."""
    for overlay in header.overlays:
        if overlay.is_file():
            continue
        written = overlay.name
        if header.folder is not None:
            with suppress(ValueError):
                written = str(overlay.relative_to(header.folder))
        if overlay.is_dir():
            why = "is a directory, not a file"
        else:
            why = "is not a regular file" if overlay.exists() else "no such file"
        raise InputFileError(
            f"catalog overlay {written!r}: {why} (looked for {overlay})",
            source=header.label,
            line=header.lines.get("catalog"),
        )


def _detect(header: DeckHeader, overlays: Sequence[str | Path], unknown: Unknown) -> Game:
    """The one game whose catalog knows every card line of the deck, else the one that knows
    nearly all of them (:data:`NEARLY_ALL`), whose unknown lines are then reported."""
    if not header.card_lines:
        raise UsageError(
            "lists no cards and names no game (add 'game: …' or --game)", source=header.label
        )
    docs = [read_document(p) for p in overlays]
    unknowns: list[tuple[Game, Iterator[object] | None]] = []
    for game in all_games().values():
        mine = [p for p, d in zip(overlays, docs, strict=True) if d.game == game.id]
        try:
            unknowns.append((game, unknown(game.catalog(mine), game)))
        except DeckcheckError:
            unknowns.append((game, None))
    # Whether a game fits needs its lines only up to the first it does not know: a deck of
    # another game is told so by its first line, most often. Counting goes on, from there,
    # only where no game fits.
    firsts = [(g, lines, next(lines, None) if lines is not None else None) for g, lines in unknowns]
    fits = [g for g, lines, first in firsts if lines is not None and first is None]
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise UsageError(
            "the deck names no game and several games know all its cards: "
            + ", ".join(g.id for g in fits)
            + "; add a 'game: …' line or --game",
            source=header.label,
        )
    misses: list[tuple[Game, int]] = []
    tried: list[str] = []
    for game, lines, _ in firsts:
        if lines is None:
            tried.append(f"{game.id} (its overlay does not apply)")
            continue
        missing = 1 + sum(1 for _ in itertools.islice(lines, MAX_UNKNOWN - 1))
        if missing < MAX_UNKNOWN:
            misses.append((game, missing))
        many = "or more " if missing >= MAX_UNKNOWN else ""
        tried.append(f"{game.id} ({missing} {many}unknown)")
    near = sorted(misses, key=lambda gm: gm[1])
    total = header.card_lines
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
        source=header.label,
        details=["tried: " + ", ".join(tried)],
    )


def _known_id(name: str) -> str | None:
    """The game id a name or alias stands for, or None (reported where the name is read)."""
    try:
        return get_game(name).id
    except DeckcheckError:
        return None


@contextmanager
def _at_header(header: DeckHeader, key: str | None) -> Iterator[None]:
    """Name the deck file and its header line in a usage error raised for that header."""
    try:
        yield
    except UsageError as exc:
        if key is None or exc.source is not None:
            raise
        raise UsageError(
            exc.message, source=header.label, line=header.lines.get(key), details=exc.details
        ) from None
