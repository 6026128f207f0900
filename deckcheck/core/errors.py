"""The one exception family for bad input. The CLI turns any of these into exit code 2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Any

from deckcheck.core.values import frozen


class DeckcheckError(Exception):
    """Input that cannot be read or understood; the message is shown to the user as is.

    ``source`` names the file (or ``<stdin>``), ``line`` the 1-based line where there is one;
    ``details`` are further lines shown under the message.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        details: Sequence[str] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.details = tuple(details)

    def location(self) -> str:
        """``file:line`` (or just ``file``) for the message prefix; empty when unknown."""
        if self.source is None:
            return ""
        return f"{self.source}:{self.line}" if self.line is not None else self.source

    def __str__(self) -> str:
        where = self.location()
        head = f"{where}: {self.message}" if where else self.message
        return "\n".join([head, *("  " + d for d in self.details)])


class InternalError(DeckcheckError):
    """deckcheck's own defect caught before it reached the output (an answer that fails its
    own check): one message, exit code 2."""

    def __init__(self, message: str, **kw: Any) -> None:
        super().__init__(f"internal error: {message}", **kw)


class UsageError(DeckcheckError):
    """A command-line argument or option that makes no sense."""


class InputFileError(DeckcheckError):
    """A file that cannot be read: missing, a directory, too large, undecodable."""


class DeckFormatError(DeckcheckError):
    """A deck file whose content cannot be parsed."""


class CatalogError(DeckcheckError):
    """A catalog (bundled or overlay) that is broken."""


class ConditionError(DeckcheckError):
    """An odds/simulate condition that cannot be parsed or matches nothing sensible."""


@frozen
class UnresolvedLine:
    """One deck line whose name matches no card (or several), with suggestions."""

    source: str
    line: int | None
    text: str
    suggestions: tuple[str, ...] = ()
    reason: str = "unknown card"
    candidates: tuple[str, ...] = field(default=())
    hint: str = ""  # said after the line instead of suggestions ("headers: game, …")

    def describe(self) -> str:
        """One human line: where, what, and what might have been meant."""
        where = f"{self.source}:{self.line}" if self.line is not None else self.source
        text = f"{where}: {self.reason} {self.text!r}"
        if self.candidates:
            text += " — write one of these ids: " + ", ".join(self.candidates)
        elif self.suggestions:
            text += " — did you mean: " + ", ".join(self.suggestions) + "?"
        if self.hint:
            text += f" ({self.hint})"
        return text


class UnknownCardsError(DeckcheckError):
    """Every deck line that names no card (or an ambiguous one), reported together.

    ``unread`` are the numbers of the lines after them that were not looked up: a deck
    already refused for many lines is not worth resolving to the end, only counting.
    """

    SHOWN = 100  # lines listed one by one; the rest are counted

    def __init__(
        self, unresolved: Sequence[UnresolvedLine], game: str, unread: Sequence[int | None] = ()
    ) -> None:
        self.unresolved = tuple(unresolved)
        self.unread = len(unread)
        n = len(self.unresolved)
        noun = "line names" if n == 1 else "lines name"
        details = [u.describe() for u in self.unresolved[: self.SHOWN]]
        hidden = [u.line for u in self.unresolved[self.SHOWN :]]
        rest = [line for line in [*hidden, *unread] if line is not None]
        if hidden or unread:
            where = f", line {rest[0]} to line {rest[-1]}" if rest else ""
            looked = "" if not unread else " not looked up" if not hidden else ""
            details.append(
                f"… and {len(hidden) + len(unread):,} more{where}{looked} (is this a {game} deck?)"
            )
        super().__init__(f"{n} deck {noun} no single card of {game}", details=details)
