"""A deck file changed in place, in its own format: the lines of the cards that change are
rewritten (:mod:`deckcheck.decks.rewrite` makes the new bytes), a new line spelled as the
game's export writes the card; the file is written atomically. ``add``, ``remove`` and
``fix --write`` share it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckFormatError, UsageError
from deckcheck.core.inputs import read_bytes, source_label
from deckcheck.core.violations import Report
from deckcheck.decks.load import LoadedDeck, resolve_source
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import parse_deck
from deckcheck.decks.resolve import PartlyResolvedError, resolve_line, telling_apart
from deckcheck.decks.rewrite import (
    EDITABLE,
    Change,
    Held,
    decode_keeping,
    dek_card_line,
    edit_dek,
    edit_json,
    edit_text,
    edit_toml,
)
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.formats import reference, render_with_notes
from deckcheck.export.write import write_atomically
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context


def apply_changes(
    path: str | Path,
    changes: Sequence[Change],
    context: Context = NO_CONTEXT,
) -> None:
    """Make several changes to a deck file in place at once (as ``add`` makes one:
    format, encoding, comments, order and line ends kept; written atomically). For callers
    that already know the cards (``fix --write``)."""
    target = Path(path)
    label = source_label(path)
    text, encoded = decode_keeping(read_bytes(target), label)
    source = parse_editable(text, label, target)
    loaded, _ = load_editable(source, context)
    try:
        new_text = edited_text(text, source, loaded, changes)
    except DeckFormatError as exc:
        raise DeckFormatError(exc.message, source=label, line=exc.line) from None
    write_atomically(target, encoded.encode(new_text), force=True)


def parse_editable(text: str, label: str, path: Path) -> DeckSource:
    """The deck file's text parsed, in a format deckcheck edits in place (else a usage error)."""
    source = parse_deck(text.replace("\r\n", "\n").replace("\r", "\n"), label, path)
    if source.format not in EDITABLE:
        raise UsageError(
            f"deckcheck edits text, Lackey, .dek, TOML and JSON decks; {label} is {source.format}"
            ": export it to one of those first (deckcheck export DECK --to text -o FILE)"
        )
    if source.format == "toml" and re.search(r"^\s*sequence\s*=", text, re.M):
        raise UsageError(
            f"{label} lists a stack in order (sequence = [...]); edit its order in a text editor"
        )
    return source


def load_editable(source: DeckSource, context: Context) -> tuple[LoadedDeck, Report]:
    """The deck and its report; a deck with unknown lines is edited too (its report is the
    verdict on the rest)."""
    try:
        loaded = resolve_source(source, context)
    except PartlyResolvedError as exc:
        if exc.loaded is None:
            raise
        loaded = exc.loaded
        return loaded, replace(validate_loaded(loaded), unknown_lines=len(exc.unresolved))
    return loaded, validate_loaded(loaded)


def placed_zone(
    text: str, source: DeckSource, loaded: LoadedDeck, card: Card, count: int
) -> str | None:
    """The zone a new card's copies go to: where the game's export would put it when the
    file names zones (a mission under ``Missions:``), else None (its line without a header,
    or beside the card's own line)."""
    if not _writes_zones(text, source, loaded.game):
        return None
    return _placed_zone(loaded, card, count)


def _writes_zones(text: str, source: DeckSource, game: Game) -> bool:
    """Whether the file names zones (a zone header, a superzone, a zones table): then a new
    card goes where the game puts it; otherwise its lines stay without headers."""
    if source.format == "dek":
        return True
    if source.format == "toml":
        return re.search(r"^\s*\[\s*zones\s*\.", text, re.M) is not None
    if source.format == "json":
        return any(line.section for line in source.lines)
    headers = {re.sub(r"[\W_]+", "", z.name).casefold() for z in game.zones}
    return any(
        re.sub(r"[\W_]+", "", line.strip()[:-1]).casefold() in headers
        for line in text.splitlines()
        if line.strip().endswith(":")
    )


def _placed_zone(loaded: LoadedDeck, card: Card, count: int) -> str | None:
    """Where the game's export would put a card new to the deck (a mission under
    ``Missions:``); None where the game has no say or the card is already in the deck."""
    place = loaded.game.place
    if place is None:
        return None
    if any(e.card.id == card.id for e in loaded.deck.all_entries()):
        return None  # the copies join the card's own line
    deck = loaded.deck
    placed = place(replace(deck, entries=(*deck.entries, DeckEntry(card, count))))
    return next((e.zone for e in reversed(placed.entries) if e.card.id == card.id), None)


def _held(source: DeckSource, loaded: LoadedDeck) -> list[Held]:
    """Every card line of the file as it resolved (numbered by element in a JSON deck)."""
    held = []
    for n, line in enumerate(source.lines, start=1):
        found = resolve_line(line, loaded.catalog, loaded.game)
        zone = loaded.game.zone(line.section) if line.section is not None else None
        held.append(
            Held(
                found.card.id if found.card else None,
                found.count,
                line.line if line.line is not None else n,
                zone.name if zone else None,
                found.card.type_label if found.card else "",
                found.face,
            )
        )
    return held


def edited_text(
    text: str, source: DeckSource, loaded: LoadedDeck, changes: Sequence[Change]
) -> str:
    """The file's new text with ``changes`` made, in its own format."""
    zones = [z.name for z in loaded.game.zones]
    held = _held(source, loaded)
    if source.format in ("text", "lackey"):
        lackey = source.format == "lackey"
        return edit_text(text, held, changes, zones, _speller(loaded, lackey), lackey)
    if source.format == "toml":
        return edit_toml(text, held, changes, zones)
    if source.format == "json":
        return edit_json(text, held, changes, zones)
    names = {
        (line.section, line.name): h.card_id
        for line, h in zip(source.lines, held, strict=True)
        if h.card_id is not None
    }
    return edit_dek(text, held, names, changes, zones, lambda c: _dek_line(loaded, c))


def _one_card(loaded: LoadedDeck, card: Card) -> LoadedDeck:
    deck = Deck("new", loaded.game.id, loaded.variant.name, (DeckEntry(card, 1),))
    return replace(loaded, deck=deck)


def _speller(loaded: LoadedDeck, lackey: bool) -> Callable[[Card], str]:
    """How a new line names a card: in a Lackey file the plugin's name (as the game's Lackey
    export writes it), elsewhere the name that reads back to the card (else its id)."""

    def spell(card: Card) -> str:
        if lackey and "lackey" in loaded.game.exporters:
            written = render_with_notes(_one_card(loaded, card), "lackey").text
            line = next((ln for ln in written.splitlines() if "\t" in ln), "")
            if line:
                return line.split("\t", 1)[1]
        written = reference(card, loaded)
        if written != card.name and not lackey:
            # An id alone ("1 I/43") tells a reader nothing: its name follows as a comment,
            # with what tells it from the cards of the same name.
            apart = telling_apart(loaded.catalog.by_name(card.name) or [card]).get(card.id)
            return f"{written}  # {card.name}" + (f" ({apart})" if apart else "")
        return written

    return spell


def _dek_line(loaded: LoadedDeck, card: Card) -> str:
    """A card's ``<card>`` element as the game's ``.dek`` export writes it."""
    if "dek" in loaded.game.exporters:
        written = render_with_notes(_one_card(loaded, card), "dek").text
        found = re.search(r"<card>.*?</card>", written, re.S)
        if found:
            return found.group()
    return dek_card_line(card.name, card.id, "")
