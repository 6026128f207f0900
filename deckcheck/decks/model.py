"""A deck file as read: raw card lines and headers, before names are resolved."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType

from deckcheck.core.values import frozen


@frozen
class DeckLine:
    """One card line as written: ``count`` copies of ``name`` (a name, alias or id)."""

    name: str
    count: int
    line: int | None
    text: str
    section: str | None = None
    # ``key: value`` before the first card, a key no deck file has: maybe a setting of the
    # game's variant (``missions: 4``), which only the game can tell; else it is a card line.
    header: tuple[str, str] | None = None
    # "header" (an unknown "key: value" before the first card) or "prose" (a sentence in a
    # pasted list): the line is a card only if it names one; otherwise it is a note.
    doubt: str | None = None


@frozen
class CategoryLine:
    """A user-named category as written: its name and members (card names, ids or
    ``field:value`` selectors; a card belongs when it matches any member)."""

    name: str
    members: tuple[str, ...]
    line: int | None = None


@frozen
class DeckSource:
    """A parsed deck file before its names are resolved."""

    label: str
    path: Path | None
    format: str  # "text", "toml" or "lackey"
    headers: Mapping[str, str]
    lines: tuple[DeckLine, ...]
    catalogs: tuple[Path, ...] = ()  # overlays named by the file, relative paths resolved
    header_lines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    categories: tuple[CategoryLine, ...] = ()  # "category: NAME = members" / [categories]
    notes: tuple[str, ...] = ()  # what the reader noticed (prose lines skipped, an encoding)
    # The game as the file's own program names it (a .dek's <meta><game>, the Lackey plugin):
    # the deck's game when it is a known game's id or alias, else the cards tell.
    game_hint: str | None = None

    @property
    def game(self) -> str | None:
        """The game the file names, if any."""
        return self.headers.get("game")
