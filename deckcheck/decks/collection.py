"""A player's collection: copies by card, read from deck files, for ``owned`` and ``--collection``.

A collection file is a deck file of any format deckcheck reads (a Lackey or text list works);
a collection may also be a folder of such files, their copies added together. A file that
names its game (``game:``) holds that game's cards only; one that names none may mix games:
each line counts for the game whose catalog knows it (a file that one game knows whole is that
game's). A line ``N product: NAME`` adds N copies of a product whose contents the game's data
names (``[products.NAME]`` in its ``game.toml``).

Copies are keyed by physical card: the game, the card id and the printing variant its line
names (a Lackey ``Name *VP`` re-issue is a card of its own, not the card ``Name``); the face a
line names is the same card.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from deckcheck.catalog.deck import DeckEntry
from deckcheck.catalog.load import read_document
from deckcheck.catalog.model import Catalog
from deckcheck.core.errors import InputFileError, UnresolvedLine, UsageError
from deckcheck.core.inputs import STDIN, source_label
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.model import DeckLine, DeckSource
from deckcheck.decks.parse import read_deck
from deckcheck.decks.resolve import Headings, Resolved, resolve_line
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import all_games, get_game

Key = tuple[str, str, str]
"""A physical card: (game id, card id, printing variant; "" for the card as such)."""

PRODUCT_LINE = re.compile(r"^\s*product\s*:\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)
"""A collection line naming a whole product (``2 product: starter``)."""

MAX_FOLDER_FILES = 1000
"""Files read from one folder (a collection's or a folder of decks): more is surely no folder
of decks."""

_SKIPPED_SUFFIXES = (".bak", "~", ".html", ".htm", ".pdf", ".png", ".jpg", ".jpeg", ".gif")


def variant_of(fields: Mapping[str, Any] | None) -> str:
    """The printing variant a line's own card fields make (a ``*VP`` re-issue's legality tags):
    "" for the card as such, else the fields as canonical text (two lines of one variant
    agree)."""
    if not fields:
        return ""
    return json.dumps(dict(fields), sort_keys=True, ensure_ascii=False, default=str)


def line_texts(source: DeckSource) -> dict[int, str]:
    """Each card line's name as written, by line number (how a variant is shown)."""
    return {line.line: line.name for line in source.lines if line.line is not None}


@frozen
class Needs:
    """The physical copies a deck needs, by card (every zone: a copy in the seed deck and one
    in the draw deck are two copies; side zones too, they are cards on the table), and how
    each card is named."""

    copies: Mapping[Key, int]
    names: Mapping[Key, str]


def needed_copies(loaded: LoadedDeck) -> Needs:
    """What it takes to build ``loaded`` from a collection: each physical card's copies."""
    written = line_texts(loaded.source)
    copies: Counter[Key] = Counter()
    names: dict[Key, str] = {}
    for entry in loaded.deck.all_entries():
        variant = variant_of(entry.fields)
        key = (loaded.game.id, entry.card.id, variant)
        copies[key] += entry.count
        if key not in names:
            spelled = written.get(entry.line) if entry.line is not None else None
            names[key] = spelled if variant and spelled else entry.card.name
    return Needs(dict(copies), names)


@frozen
class ProductHeld:
    """A product a collection lists whole: its game, name, and how many."""

    game: str
    name: str
    copies: int
    note: str = ""


@frozen
class Collection:
    """A collection's copies by physical card (:data:`Key`), the names to show them by, the
    products it lists, and what the reader noticed."""

    label: str
    copies: Mapping[Key, int]
    names: Mapping[Key, str]
    products: tuple[ProductHeld, ...] = ()
    notes: tuple[str, ...] = ()

    def of(self, key: Key) -> int:
        """Copies of one physical card."""
        return self.copies.get(key, 0)

    def by_id(self, game: str) -> dict[str, int]:
        """A game's copies by card id, every printing variant of a card together (what the
        solver's caps take)."""
        counts: Counter[str] = Counter()
        for (g, card_id, _), n in self.copies.items():
            if g == game:
                counts[card_id] += n
        return dict(counts)

    @property
    def size(self) -> int:
        """Copies in all."""
        return sum(self.copies.values())

    def to_json(self) -> dict[str, Any]:
        """``{"collection", "cards", "products"}``: where it was read and what it holds."""
        return {
            "collection": self.label,
            "cards": self.size,
            "products": [
                {"game": p.game, "product": p.name, "copies": p.copies} for p in self.products
            ],
        }


def folder_files(folder: Path, skip: Iterable[Path] = ()) -> list[Path]:
    """The files of a folder that may be decks (or collection files), by name: not hidden,
    not a backup (``.bak``, ``~``), an HTML sheet or a picture, not a catalog overlay (a TOML
    file with a ``[catalog]`` table), not one of ``skip``; sub-folders are not entered."""
    skipped = {p.resolve() for p in skip}
    found = []
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        raise InputFileError(f"cannot be read: {exc.strerror or exc}", source=str(folder)) from None
    for path in entries:
        name = path.name
        if name.startswith(".") or name.lower().endswith(_SKIPPED_SUFFIXES):
            continue
        if not path.is_file() or path.resolve() in skipped or _is_overlay(path):
            continue
        found.append(path)
        if len(found) > MAX_FOLDER_FILES:
            raise InputFileError(
                f"holds more than {MAX_FOLDER_FILES:,} files; name the decks instead",
                source=str(folder),
            )
    return found


def _is_overlay(path: Path) -> bool:
    """A catalog overlay (``[catalog]`` table), which lays cards over a catalog: no deck."""
    if path.suffix.lower() != ".toml":
        return False
    try:
        head = path.read_bytes()[:65536].decode("utf-8", "replace")
    except OSError:
        return False
    return re.search(r"^\s*\[catalog\]\s*$", head, re.MULTILINE) is not None


def read_collection(path: str | Path, context: Context = NO_CONTEXT) -> Collection:
    """The collection in a file (or ``-``), or in every file of a folder (see the module).

    Every line that names no card, or cards of several games, is reported together (exit 2);
    the file's own ``catalog:`` overlays and the context's apply, each to its game."""
    label = source_label(path)
    where = Path(path)
    if str(path) != STDIN and where.is_dir():
        files = folder_files(where)
        if not files:
            raise InputFileError("holds no collection file", source=label)
        sources = [read_deck(f) for f in files]
    else:
        sources = [read_deck(path)]
    copies: Counter[Key] = Counter()
    names: dict[Key, str] = {}
    products: list[ProductHeld] = []
    notes: list[str] = []
    for source in sources:
        _read_source(source, context, copies, names, products, notes)
    return Collection(label, dict(copies), names, tuple(products), tuple(notes))


def _declared(source: DeckSource, context: Context) -> Game | None:
    """The game the collection file names (its ``game:`` line, TOML key or program), or the
    context's; None: each line tells."""
    named = source.game or context.game
    if named:
        try:
            return get_game(named.strip())
        except UsageError as exc:
            raise UsageError(exc.message, source=source.label, details=exc.details) from None
    if source.game_hint:
        try:
            return get_game(source.game_hint)
        except UsageError:
            return None
    return None


def _catalog(game: Game, source: DeckSource, context: Context) -> Catalog:
    """The game's catalog with the overlays (the file's own, then the context's) for it."""
    overlays = [*source.catalogs, *context.overlays]
    mine = [p for p in overlays if read_document(p).game == game.id]
    return game.catalog(mine)


def _read_source(
    source: DeckSource,
    context: Context,
    copies: Counter[Key],
    names: dict[Key, str],
    products: list[ProductHeld],
    notes: list[str],
) -> None:
    declared = _declared(source, context)
    games = [declared] if declared is not None else list(all_games().values())
    catalogs = {g.id: _catalog(g, source, context) for g in games}
    product_lines = [line for line in source.lines if PRODUCT_LINE.match(line.name)]
    card_lines = [line for line in source.lines if line not in product_lines]
    found: dict[str, list[Resolved]] = {
        g.id: [resolve_line(line, catalogs[g.id], g) for line in card_lines] for g in games
    }
    unresolved: list[UnresolvedLine] = []
    candidates = list(games)  # a product may be any of them (the cards may narrow the rest)
    if declared is None:
        whole = [g for g in games if all(r.card is not None for r in found[g.id])]
        if len(whole) == 1 and card_lines:
            games = whole  # one game knows every line: the file is that game's
    for index, line in enumerate(card_lines):
        knowing = [(g, found[g.id][index]) for g in games if found[g.id][index].card is not None]
        if len(knowing) == 1:
            game, resolved = knowing[0]
            _count(line, resolved, game, copies, names)
            continue
        if knowing:
            unresolved.append(
                UnresolvedLine(
                    source.label,
                    line.line,
                    line.name,
                    reason="cards of several games are named",
                    candidates=tuple(f"{g.id}: {r.card.id}" for g, r in knowing if r.card),
                    hint="write the id, or keep each game's cards in a file with a 'game:' line",
                )
            )
            continue
        heading = declared is not None and Headings(
            declared, catalogs[declared.id]
        ).reads_as_heading(line)
        if line.doubt is not None or heading:
            notes.append(f"{source.label}:{line.line}: left out {line.text!r}: it names no card")
            continue
        unresolved.append(_unknown(source, line, games, catalogs, found, index))
    for line in product_lines:
        match = PRODUCT_LINE.match(line.name)
        assert match is not None
        try:
            held = _product(match.group("name"), line.count, candidates, catalogs)
        except UsageError as exc:
            unresolved.append(
                UnresolvedLine(source.label, line.line, line.text, reason=exc.message)
            )
            continue
        game, product = held
        products.append(ProductHeld(game.id, product[0], line.count, product[1].note))
        catalog = catalogs[game.id]
        for card_id, n in product[1].cards.items():
            card = catalog.by_id(card_id)
            key = (game.id, card_id, "")
            copies[key] += n * line.count
            names.setdefault(key, card.name if card is not None else card_id)
    if unresolved:
        n = len(unresolved)
        raise InputFileError(
            f"{n} collection line{'' if n == 1 else 's'} name{'s' if n == 1 else ''} no single "
            + (f"card of {declared.id}" if declared is not None else "card of one game"),
            source=source.label,
            details=[u.describe() for u in unresolved[:100]]
            + ([f"… and {n - 100} more"] if n > 100 else []),
        )


def _count(
    line: DeckLine, resolved: Resolved, game: Game, copies: Counter[Key], names: dict[Key, str]
) -> None:
    card = resolved.card
    assert card is not None
    variant = variant_of(resolved.fields)
    key = (game.id, card.id, variant)
    copies[key] += resolved.count
    names.setdefault(key, line.name if variant else card.name)


def _unknown(
    source: DeckSource,
    line: DeckLine,
    games: Sequence[Game],
    catalogs: Mapping[str, Catalog],
    found: Mapping[str, list[Resolved]],
    index: int,
) -> UnresolvedLine:
    """A line no game's card: with the candidates a game found (an ambiguous name), else the
    nearest names."""
    for game in games:
        resolved = found[game.id][index]
        if resolved.candidates:
            return UnresolvedLine(
                source.label,
                line.line,
                line.name,
                reason=resolved.refused or "ambiguous name",
                candidates=tuple(f"{c.id} ({c.name})" for c in resolved.candidates[:8]),
            )
    suggestions: list[str] = []
    for game in games:
        suggestions += catalogs[game.id].suggest_name(line.name)
    return UnresolvedLine(source.label, line.line, line.name, suggestions=tuple(suggestions[:3]))


def _product(
    name: str, copies: int, games: Sequence[Game], catalogs: Mapping[str, Catalog]
) -> tuple[Game, tuple[str, Any]]:
    """The game and (name, product) a product line names; UsageError naming the products."""
    wanted = " ".join(name.casefold().split())
    hits = [
        (g, (product_name, product))
        for g in games
        for product_name, product in g.spec.products.items()
        if wanted == product_name.casefold() or wanted in (a.casefold() for a in product.aliases)
    ]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UsageError(
            f"product {name!r} is a product of several games ("
            + ", ".join(g.id for g, _ in hits)
            + "): put it in a file with a 'game:' line"
        )
    known = [f"{g.id}: {', '.join(g.spec.products)}" for g in games if g.spec.products]
    without = [g.id for g in games if not g.spec.products]
    listing = "; ".join(known) or "none"
    if without:
        listing += f" ({', '.join(without)}: none, list the cards)"
    raise UsageError(f"no product {name!r}; products: {listing}")


__all__ = [
    "Caps",
    "Collection",
    "Key",
    "Needs",
    "ProductHeld",
    "deck_caps",
    "folder_files",
    "needed_copies",
    "read_collection",
    "reserved_caps",
    "variant_of",
]


@frozen
class Caps:
    """What one deck may take from a collection while other decks keep theirs: each card's
    cap (card id -> copies: the collection's, every printing together, less the reserved
    decks' counted and side copies), and notes (a card the reserved decks alone need more of
    than the collection holds)."""

    caps: Mapping[str, int]
    notes: tuple[str, ...] = ()


def reserved_caps(
    collection: Collection,
    game: str,
    reserved: Sequence[LoadedDeck],
    side: Sequence[DeckEntry] = (),
) -> Caps:
    """The caps a deck of ``game`` gets from ``collection`` beside the ``reserved`` decks
    (``--collection FILE --reserve DECK...``) and its own ``side`` zones' copies (which the
    solver leaves as they are); a reserved deck of another game takes nothing of this one."""
    caps = collection.by_id(game)
    names: dict[str, str] = {e.card.id: e.card.name for e in side}
    notes: list[str] = []
    for entry in side:
        caps[entry.card.id] = caps.get(entry.card.id, 0) - entry.count
    for deck in reserved:
        if deck.game.id != game:
            notes.append(f"{deck.deck.label} is a {deck.game.id} deck: it reserves no {game} card")
            continue
        for (_, card_id, _), n in needed_copies(deck).copies.items():
            caps[card_id] = caps.get(card_id, 0) - n
        names.update({e.card.id: e.card.name for e in deck.deck.all_entries()})
    for card_id, n in caps.items():
        if n < 0:
            notes.append(
                f"the reserved decks and this deck's side zones need {-n} more "
                f"{names.get(card_id, card_id)} ({card_id}) than the collection holds: none is "
                "left for this deck"
            )
    return Caps({i: max(0, n) for i, n in caps.items()}, tuple(notes))


def owned_copies(path: str | Path, game: Game, context: Context) -> dict[str, int]:
    """``--owned FILE``: the copies of ``game``'s cards a collection holds, by card id (read as
    ``owned`` and ``--collection`` read it: a deck list, several games, products), with the
    context's overlays."""
    return read_collection(path, Context(context.overlays)).by_id(game.id)


def deck_caps(
    loaded: LoadedDeck,
    context: Context,
    *,
    owned: str | Path | None = None,
    collection: str | Path | None = None,
    reserve: Sequence[str | Path] = (),
) -> Caps | None:
    """The solver's caps for ``fix`` and ``optimize`` of ``loaded``: ``--owned FILE`` (a card's
    copies within what the deck holds or the file lists), or ``--collection FILE`` with
    ``--reserve DECK...`` (files or folders: within what the collection holds beside the
    reserved decks; the deck's own copies come out of the collection too); None: no caps."""
    from deckcheck.decks.load import deck_or_owned, load_deck

    if reserve and collection is None:
        raise UsageError("--reserve needs --collection FILE: the decks reserve copies of it")
    if owned is not None and collection is not None:
        raise UsageError("give --owned or --collection, not both")
    if owned is not None:
        return Caps(deck_or_owned(loaded, owned_copies(owned, loaded.game, context)))
    if collection is None:
        return None
    # the deck's own overlays know the cards it adds; the caller's come last
    held = read_collection(collection, Context((*loaded.source.catalogs, *context.overlays)))
    mine = loaded.source.path.resolve() if loaded.source.path is not None else None
    decks = []
    for arg in reserve:
        folder = Path(arg)
        if str(arg) != STDIN and folder.is_dir():
            skip = [p for p in (Path(collection), mine) if p is not None and str(p) != STDIN]
            decks += [load_deck(f, Context(context.overlays)) for f in folder_files(folder, skip)]
        else:
            if mine is not None and str(arg) != STDIN and folder.resolve() == mine:
                raise UsageError(f"--reserve {arg}: that is the deck itself")
            decks.append(load_deck(arg, Context(context.overlays)))
    return reserved_caps(held, loaded.game.id, decks, loaded.deck.side)
