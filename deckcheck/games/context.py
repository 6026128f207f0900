"""What the caller says of every deck it opens, decided once: the context of a run.

A command line (or a script through :mod:`deckcheck.api`) names catalog overlays, a game, a
variant and settings once for all the decks it opens. :class:`Context` holds them as given;
:meth:`Context.choose` meets them with what one deck file says of itself (its header) and
decides the game, the variant with its settings and the catalog with its overlays. A deck
file's own reading (its lines, its cards) stays in :mod:`deckcheck.decks`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from types import MappingProxyType

from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.values import frozen
from deckcheck.games.base import Game, Variant
from deckcheck.games.registry import get_game


@frozen
class DeckHeader:
    """What a deck file says of itself: its label, the game and variant it names, its overlays
    (``catalog:`` lines), the line of each header key, its ``key: value`` lines before the
    first card (a setting of the game, or a card line: only the game can tell), and the game
    the file's own program names (``hint``: a Lackey plugin's, say), if any."""

    label: str
    game: str | None = None
    variant: str | None = None
    overlays: tuple[Path, ...] = ()
    lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    pairs: tuple[tuple[str, str, int | None], ...] = ()
    hint: str | None = None


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


Detect = Callable[[Sequence[str | Path]], Game]
"""The game a deck's cards belong to, given the overlays laid over each game's catalog."""


@frozen
class Context:
    """The caller's say on every deck it opens: catalog ``overlays`` (laid after a deck file's
    own, so the caller has the last word), the ``game``, the ``variant`` and ``settings``
    (``{"missions": 4}``). None or empty: each deck file's own say, else the game's default."""

    overlays: tuple[str | Path, ...] = ()
    game: str | None = None
    variant: str | None = None
    settings: Mapping[str, str | int] = field(default_factory=lambda: MappingProxyType({}))

    def choose(self, header: DeckHeader, detect: Detect) -> Chosen:
        """The game, variant, settings and catalog of the deck whose ``header`` is given.

        The game comes from the file, else the context, else the file's program (``hint``),
        else ``detect``; a file and a context
        naming two games is a usage error. The variant: the context's, else the file's, else
        the game's default; settings: the file's header lines, then the context's.
        """
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
            chosen = get_game(named) if named else detect(overlays)
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
