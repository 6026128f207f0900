"""``owned``: can a collection build these decks at the same time, and if not, what is short.

Each deck needs copies of physical cards (:func:`deckcheck.decks.collection.needed_copies`:
every zone, side zones too; a printing variant is a card of its own; decks of different games
never share a card). All the decks can be built at once exactly when, card by card, the copies
they need together are at most those the collection holds. Otherwise the least the player must
acquire is, card by card, the copies needed together beyond those held: each card's copies
serve that card only, so no fewer copies of any card will do, and these are enough (proven
minimal). ``--most`` adds the largest set of the decks buildable at once
(:mod:`deckcheck.solve.buildable`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.inputs import STDIN
from deckcheck.core.result import BAD_INPUT, OK, Json
from deckcheck.core.values import frozen
from deckcheck.decks.collection import (
    Collection,
    Key,
    Needs,
    folder_files,
    needed_copies,
    read_collection,
)
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.games.context import NO_CONTEXT, Context

NOT_ALL = 1
"""Exit code: the decks cannot all be built at once."""


@frozen
class CardShort:
    """One card's copies: needed (by one deck, or by the decks together), held, and the extra
    copies it takes (``short``); ``decks``: each deck needing it and its copies."""

    game: str
    id: str
    name: str
    variant: str
    needed: int
    held: int
    decks: tuple[tuple[str, int], ...] = ()

    @property
    def short(self) -> int:
        """Copies to acquire."""
        return max(0, self.needed - self.held)

    def to_json(self) -> dict[str, Json]:
        """``{"game", "id", "name", "variant", "needed", "owned", "missing", "decks"}``."""
        return {
            "game": self.game,
            "id": self.id,
            "name": self.name,
            "variant": self.name if self.variant else None,  # a printing variant, as written
            "needed": self.needed,
            "owned": self.held,
            "missing": self.short,
            "decks": [{"deck": d, "copies": n} for d, n in self.decks],
        }


@frozen
class DeckRow:
    """One deck: its game, the copies it needs, whether the collection builds it on its own
    and what it lacks then, whether it is in the largest set (``--most``), or its error."""

    deck: str
    game: str | None = None
    cards: int = 0
    missing: tuple[CardShort, ...] = ()
    in_most: bool | None = None
    error: DeckcheckError | None = None

    @property
    def buildable(self) -> bool:
        """Whether the collection builds this deck on its own."""
        return self.error is None and not self.missing

    def to_json(self) -> dict[str, Json]:
        """The deck's row; an unreadable deck: ``{"deck", "status": "error", "error"}``."""
        if self.error is not None:
            return {"deck": self.deck, "status": "error", "error": str(self.error)}
        return {
            "deck": self.deck,
            "game": self.game,
            "cards": self.cards,
            "buildable": self.buildable,
            "missing": [_without_decks(m.to_json()) for m in self.missing],
            "in_most": self.in_most,
        }


@frozen
class Most:
    """The largest set of the decks buildable at once: the decks, whether proven, and how
    ties are broken."""

    decks: tuple[str, ...]
    left_out: tuple[str, ...]
    proven: bool
    maximised: str
    ties: str

    def to_json(self) -> dict[str, Json]:
        """``{"decks", "count", "left_out", "proven", "maximised", "ties"}``."""
        return {
            "decks": list(self.decks),
            "count": len(self.decks),
            "left_out": list(self.left_out),
            "proven": self.proven,
            "maximised": self.maximised,
            "ties": self.ties,
        }


@frozen
class OwnedReport:
    """Whether the collection builds every deck at once; if not, the least to acquire (card
    by card, with the decks contending for it) and, asked for, the largest buildable set."""

    collection: Collection
    decks: tuple[DeckRow, ...]
    short: tuple[CardShort, ...]
    most: Most | None = None
    notes: tuple[str, ...] = ()

    @property
    def all_at_once(self) -> bool:
        """Every deck readable and all buildable together."""
        return not self.short and not self.errors

    @property
    def extra_copies(self) -> int:
        """The copies to acquire to build every deck at once (proven minimal)."""
        return sum(s.short for s in self.short)

    @property
    def errors(self) -> tuple[DeckcheckError, ...]:
        """The decks that could not be read."""
        return tuple(r.error for r in self.decks if r.error is not None)

    @property
    def exit_code(self) -> int:
        """0: all at once; 1: not; 2: a deck could not be read."""
        if self.errors:
            return BAD_INPUT
        return OK if self.all_at_once else NOT_ALL

    def to_json(self) -> dict[str, Json]:
        """The whole answer (see docs/json.md)."""
        readable = [r for r in self.decks if r.error is None]
        return {
            **self.collection.to_json(),
            "decks": [r.to_json() for r in self.decks],
            "all_at_once": self.all_at_once,
            "extra_copies": self.extra_copies,
            "proven_minimal": True,
            "short": [s.to_json() for s in self.short],
            "buildable_alone": sum(1 for r in readable if r.buildable),
            "most": self.most.to_json() if self.most is not None else None,
            "notes": list(self.notes + self.collection.notes),
        }


def _without_decks(card: dict[str, Json]) -> dict[str, Json]:
    """A card of one deck's shortfall: the contending decks belong to the decks together."""
    card.pop("decks", None)
    return card


def deck_paths(args: Sequence[str | Path], collection: str | Path) -> list[str]:
    """The DECK arguments with each folder replaced by its deck files (by name; the collection
    file itself, hidden files, backups and catalog overlays left out)."""
    paths: list[str] = []
    for arg in args:
        folder = Path(arg)
        if str(arg) != STDIN and folder.is_dir():
            skip = [Path(collection)] if str(collection) != STDIN else []
            files = folder_files(folder, skip)
            if not files:
                raise UsageError(f"{arg}: holds no deck file")
            paths += [str(f) for f in files]
        else:
            paths.append(str(arg))
    return paths


def owned_decks(
    decks: Sequence[str | Path],
    collection: str | Path,
    *,
    most: bool = False,
    context: Context = NO_CONTEXT,
) -> OwnedReport:
    """Read the collection and the decks (a folder: every deck file in it), and answer (see
    the module). A deck that cannot be read is a row with its error (exit 2), the others are
    still answered."""
    if not decks:
        raise UsageError("name at least one deck or folder")
    if sum(1 for d in decks if str(d) == STDIN) + (str(collection) == STDIN) > 1:
        raise UsageError("standard input (-) can be read once: name the other files")
    paths = deck_paths(decks, collection)
    opened: list[LoadedDeck | DeckcheckError] = []
    for path in paths:
        try:
            opened.append(load_deck(path, context))
        except DeckcheckError as exc:
            opened.append(exc)
    # The overlays the decks name (their catalog: lines) know the cards they add: the
    # collection is read with them too, the caller's --catalog last.
    theirs = [p for d in opened if isinstance(d, LoadedDeck) for p in d.source.catalogs]
    overlays = (*dict.fromkeys(theirs), *context.overlays)
    held = read_collection(collection, Context(overlays))
    rows: list[DeckRow] = []
    needs: list[Needs] = []
    for path, loaded in zip(paths, opened, strict=True):
        if not isinstance(loaded, LoadedDeck):
            rows.append(DeckRow(path, error=loaded))
            continue
        need = needed_copies(loaded)
        needs.append(need)
        missing = tuple(
            CardShort(key[0], key[1], need.names[key], key[2], n, held.of(key))
            for key, n in need.copies.items()
            if n > held.of(key)
        )
        rows.append(DeckRow(path, loaded.game.id, sum(need.copies.values()), missing))
    readable = [r for r in rows if r.error is None]
    together: Counter[Key] = Counter()
    users: dict[Key, list[tuple[str, int]]] = {}
    names: dict[Key, str] = {}
    for row, need in zip(readable, needs, strict=True):
        for key, n in need.copies.items():
            together[key] += n
            users.setdefault(key, []).append((row.deck, n))
            names.setdefault(key, need.names[key])
    short = tuple(
        sorted(
            (
                CardShort(key[0], key[1], names[key], key[2], n, held.of(key), tuple(users[key]))
                for key, n in together.items()
                if n > held.of(key)
            ),
            key=lambda c: (-c.short, c.name.casefold(), c.game, c.id),
        )
    )
    largest = None
    if most and readable:
        from deckcheck.solve.buildable import TIE_RULE, largest_buildable

        found = largest_buildable([n.copies for n in needs], held.copies)
        taken = set(found.decks)
        largest = Most(
            tuple(readable[i].deck for i in found.decks),
            tuple(r.deck for i, r in enumerate(readable) if i not in taken),
            found.proven,
            "the number of decks built at once",
            TIE_RULE,
        )
        flags = iter(i in taken for i in range(len(readable)))
        rows = [r if r.error is not None else _with_most(r, next(flags)) for r in rows]
    games = {r.game for r in rows if r.game is not None}
    notes = [
        f"product {p.name} ({p.game}): {p.note}"
        for p in held.products
        if p.note and p.game in games
    ]
    return OwnedReport(held, tuple(rows), short, largest, tuple(dict.fromkeys(notes)))


def _with_most(row: DeckRow, taken: bool) -> DeckRow:
    return DeckRow(row.deck, row.game, row.cards, row.missing, taken, row.error)


__all__ = ["CardShort", "DeckRow", "Most", "OwnedReport", "deck_paths", "owned_decks"]


@frozen
class OwnedRequest:
    """Whether ``collection`` (a deck file, or a folder of them) builds all ``decks`` (files,
    or folders of deck files) at once, opened in ``context``; ``most``: the largest set too."""

    decks: tuple[str | Path, ...]
    collection: str | Path
    most: bool = False
    context: Context = NO_CONTEXT


def run(request: OwnedRequest) -> OwnedReport:
    """The answer of ``request`` (:func:`owned_decks`)."""
    r = request
    return owned_decks(r.decks, r.collection, most=r.most, context=r.context)
