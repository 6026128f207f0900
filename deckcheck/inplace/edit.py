"""A deck file changed in place, in its own format: the lines of the cards that change are
rewritten (:mod:`deckcheck.inplace.rewrite` makes the new bytes), a new line spelled as the
game's export writes the card; the result is read back and checked before it is written, and
written under the file's lock, atomically (:mod:`deckcheck.inplace.atomic`). ``add``, ``remove``
and ``fix --write`` share it; ``fix`` and ``optimize`` put their answer where asked
(:class:`AnswerTarget`: ``--write`` or ``-o``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError, DeckFormatError, UsageError
from deckcheck.core.inputs import source_label
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report
from deckcheck.decks.counts import MAX_COPIES_PER_LINE
from deckcheck.decks.load import LoadedDeck, resolve_source
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import parse_deck
from deckcheck.decks.resolve import PartlyResolvedError, resolve_line, telling_apart
from deckcheck.decks.verdict import validate_loaded
from deckcheck.export.formats import formats_for, reference, render, render_with_notes
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.inplace.atomic import editing, read_now, write_atomically
from deckcheck.inplace.rewrite import (
    EDITABLE,
    Change,
    Encoded,
    Held,
    decode_keeping,
    dek_card_line,
    edit_dek,
    edit_json,
    edit_text,
    edit_toml,
)


def apply_changes(
    path: str | Path,
    changes: Sequence[Change],
    context: Context = NO_CONTEXT,
) -> None:
    """Make several changes to a deck file in place at once (format, encoding, comments, order
    and line ends kept), the file locked, the result checked before it is written, and
    written atomically (:mod:`deckcheck.inplace.atomic`). For callers that already know the
    cards."""
    with editing(path) as held:
        held.replace(rewritten(held.data, path, changes, context))


@frozen
class Written:
    """Where a computed deck went: its text, the file written (None: the text only, for
    standard output), and the old file's backup when the deck itself was replaced."""

    text: str
    written_to: str | None = None
    backup: str | None = None


@frozen
class AnswerTarget:
    """Where ``fix`` and ``optimize`` put their answer: ``write`` replaces the deck file (the
    old one kept as ``DECK.bak``), ``output`` writes a file (``-``: the text only; ``force``
    replaces an existing file); neither: the answer stays in the result."""

    write: bool = False
    output: str | Path | None = None
    force: bool = False

    def read_deck(self, deck: str) -> bytes | None:
        """Refuse what cannot be done before anything is computed; with ``write``, the deck's
        bytes now: the answer replaces the file only if it still holds them."""
        if self.write and self.output is not None:
            raise UsageError("give --write or -o FILE, not both")
        if self.write and deck == "-":
            raise UsageError("--write needs a deck file, not standard input (use -o FILE)")
        return read_now(deck) if self.write else None

    def put(
        self,
        deck: str,
        read_before: bytes | None,
        loaded: LoadedDeck,
        answer: Deck,
        changes: Sequence[tuple[Card, int, str | None]],
        context: Context = NO_CONTEXT,
    ) -> Written | None:
        """Write ``answer`` (the deck computed from ``loaded``, which ``changes`` make: each
        card's copies added or removed) where asked (:func:`replace_with_answer` for
        ``write``); None when it goes nowhere."""
        if self.write:
            text, saved = replace_with_answer(deck, read_before, loaded, answer, changes, context)
            return Written(text, str(deck), str(saved))
        if self.output is None:
            return None
        kept = self._edited_copy(deck, loaded, changes, context)
        if str(self.output) == "-":
            return Written(kept if kept is not None else answer_text(loaded, answer, None))
        text = kept if kept is not None else answer_text(loaded, answer, Path(self.output))
        write_atomically(self.output, text, force=self.force)
        return Written(text, str(self.output))

    def _edited_copy(
        self,
        deck: str,
        loaded: LoadedDeck,
        changes: Sequence[tuple[Card, int, str | None]],
        context: Context,
    ) -> str | None:
        """The deck file's own text with the changes made (its comments, the limits ``new``
        wrote, a card's name beside its id kept), for ``-o`` in the deck's own format and
        folder (its ``catalog:`` paths are relative to that folder); None: written anew."""
        if deck == "-" or self.output is None:
            return None
        source = Path(deck)
        if str(self.output) != "-":
            target = Path(self.output)
            if target.suffix.lower() != source.suffix.lower():
                return None
            moved = source.resolve().parent != target.resolve().parent
            if moved and loaded.source.catalogs:
                return None
        try:
            data = read_now(deck)
        except DeckcheckError:
            return None
        if data is None:
            return None
        edited = _in_place(data, deck, loaded, changes, context)
        if edited is None:
            return None
        try:
            return decode_keeping(edited, source_label(deck))[0]
        except DeckcheckError:
            return None


NOWHERE = AnswerTarget()
"""The answer stays in the result: nothing is written."""


def replace_with_answer(
    deck: str | Path,
    read_before: bytes | None,
    loaded: LoadedDeck,
    answer: Deck,
    changes: Sequence[tuple[Card, int, str | None]],
    context: Context = NO_CONTEXT,
) -> tuple[str, Path]:
    """``--write`` of a computed answer (``fix``, ``optimize``): under the deck's lock, refuse
    a deck that no longer holds ``read_before`` (the bytes the answer was computed from),
    keep ``DECK.bak``, and replace the deck with the answer, edited in place where its format
    allows (``changes``: each card's copies added or removed in a zone), else written anew in its
    format. The text written and the backup's path."""
    path = Path(deck)
    with editing(deck) as held:
        held.unchanged_since(read_before)
        saved = held.backup()
        data = _in_place(held.data, deck, loaded, changes, context)
        if data is None:
            data = answer_text(loaded, answer, path).encode("utf-8")
        held.replace(data)
    return data.decode("utf-8", errors="replace"), saved


def _in_place(
    data: bytes,
    deck: str | Path,
    loaded: LoadedDeck,
    changes: Sequence[tuple[Card, int, str | None]],
    context: Context,
) -> bytes | None:
    """The changes made line by line (comments, order and format kept) where the format can
    be edited so and the order of the cards does not matter (a Drake stack may be reordered:
    it is written anew); None: write it anew."""
    if loaded.game.spec.ordered:
        return None
    try:
        return rewritten(
            data,
            deck,
            [Change(card, delta, zone) for card, delta, zone in changes if delta],
            Context(context.overlays, loaded.game.id, loaded.variant.name),
        )
    except DeckcheckError:
        return None  # a format the editor does not write (CSV, Markdown, gemp)


def answer_text(loaded: LoadedDeck, answer: Deck, out_path: Path | None) -> str:
    """A computed deck in the loaded deck's own format (a Markdown table stays one; a format
    deckcheck does not write becomes text)."""
    as_loaded = replace(loaded, deck=answer)
    available = formats_for(as_loaded)
    fmt = loaded.source.format if loaded.source.format in available else "text"
    if is_markdown(loaded.source) and "markdown" in available:
        fmt = "markdown"
    text = render(as_loaded, fmt, out_path)
    if fmt == "lackey" and loaded.source.headers and not text.lstrip().startswith("<"):
        # A Lackey-style text file that named its game and format in header lines keeps them:
        # read back, the answer is judged as the deck was (Lackey's own files have none).
        end = "\r\n" if "\r\n" in text else "\n"
        text = "".join(f"{k}: {v}{end}" for k, v in loaded.source.headers.items()) + text
    return text


def rewritten(
    data: bytes,
    path: str | Path,
    changes: Sequence[Change],
    context: Context = NO_CONTEXT,
) -> bytes:
    """The bytes of the deck file ``path`` (now ``data``) with ``changes`` made in place,
    checked to read back with exactly those changes; a format that cannot be edited so is a
    :class:`DeckcheckError` and nothing is written."""
    label = source_label(path)
    text, encoded = decode_keeping(data, label)
    source = parse_editable(text, label, Path(path))
    loaded, _ = load_editable(source, context)
    new_text = labelled_edit(text, source, loaded, changes, label)
    checked_edit(new_text, label, Path(path), loaded, changes, context)
    return encoded_as_before(encoded, new_text, label)


def labelled_edit(
    text: str, source: DeckSource, loaded: LoadedDeck, changes: Sequence[Change], label: str
) -> str:
    """:func:`edited_text`, its errors naming the file."""
    try:
        return edited_text(text, source, loaded, changes)
    except DeckFormatError as exc:
        raise DeckFormatError(exc.message, source=label, line=exc.line) from None


def encoded_as_before(encoded: Encoded, text: str, label: str) -> bytes:
    """The edited text in the file's own encoding; a character it cannot hold is refused."""
    try:
        return encoded.encode(text)
    except UnicodeEncodeError as exc:
        raise DeckFormatError(
            f"not edited: {exc.object[exc.start : exc.end]!r} cannot be written in the file's "
            f"encoding ({encoded.codec}); re-save it as UTF-8 (the file is unchanged)",
            source=label,
        ) from None


def checked_edit(
    new_text: str,
    label: str,
    path: Path,
    loaded: LoadedDeck,
    changes: Sequence[Change],
    context: Context,
) -> tuple[LoadedDeck, Report]:
    """The edited deck as it will read back, checked before a byte is written: it must read,
    and hold every card as before but for the changes (else nothing is written)."""
    try:
        after_loaded, after = load_editable(parse_editable(new_text, label, path), context)
    except DeckcheckError as exc:
        raise DeckFormatError(
            f"not edited: the edit would make it unreadable ({exc.message}); the file is unchanged",
            source=label,
            line=exc.line,
        ) from None
    expected = _totals(loaded)
    for change in changes:
        expected[change.card.id] += change.delta
    if +expected != +_totals(after_loaded):
        raise DeckFormatError(
            "not edited: deckcheck cannot edit this file's lines so that they read back as "
            "meant (the file is unchanged); edit it in a text editor",
            source=label,
        )
    return after_loaded, after


def _totals(loaded: LoadedDeck) -> Counter[str]:
    """Every card's copies in the file, in every zone."""
    totals: Counter[str] = Counter()
    for entry in loaded.deck.all_entries():
        totals[entry.card.id] += entry.count
    return totals


def is_markdown(source: DeckSource) -> bool:
    """Whether a text deck's cards are rows of a Markdown table (``export --to markdown``):
    its lines are table rows, which the text editor does not write."""
    return source.format == "text" and any(line.text.startswith("|") for line in source.lines)


def parse_editable(text: str, label: str, path: Path) -> DeckSource:
    """The deck ``text`` parsed for an edit in place (any line ends read as ``\\n``); a format
    deckcheck does not write back (a Markdown table, a TOML stack in order) is refused."""
    source = parse_deck(text.replace("\r\n", "\n").replace("\r", "\n"), label, path)
    if source.format not in EDITABLE:
        raise UsageError(
            f"deckcheck edits text, Lackey, .dek, TOML and JSON decks; {label} is {source.format}"
            ": export it to one of those first (deckcheck export DECK --to text -o FILE)"
        )
    if is_markdown(source):
        raise UsageError(
            f"{label} holds a Markdown table; deckcheck edits text, Lackey, .dek, TOML and JSON "
            "decks: export it to one of those first (deckcheck export DECK --to text -o FILE)"
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
    """``text`` with ``changes`` made by the editor of its format (text and Lackey, TOML,
    JSON, .dek), every other line as it was."""
    zones = [z.name for z in loaded.game.zones]
    held = _held(source, loaded)
    if source.format in ("text", "lackey"):
        lackey = source.format == "lackey"
        return edit_text(text, held, changes, zones, _speller(loaded, lackey), lackey)
    if source.format == "toml":
        return edit_toml(text, held, changes, zones, lambda card: reference(card, loaded))
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


@frozen
class OpenedText:
    """A deck file's text read as ``add`` reads it: parsed, resolved (a deck with unknown
    lines too) and validated."""

    text: str
    source: DeckSource
    loaded: LoadedDeck
    report: Report


def open_text(
    text: str,
    label: str,
    path: Path,
    context: Context = NO_CONTEXT,
) -> OpenedText:
    """A deck file's decoded text, opened in memory (``path``: where it lives, for the
    overlays its header names and for messages)."""
    source = parse_editable(text, label, path)
    loaded, report = load_editable(source, context)
    return OpenedText(text, source, loaded, report)


def change_text(
    opened: OpenedText, card: Card, delta: int, zone: str | None = None
) -> tuple[str, Change]:
    """The text with ``delta`` copies of ``card`` added (negative: removed) by ``add``'s
    rewriter, and the change as made (its zone: ``zone``, else where the game places a new
    card)."""
    if delta == 0 or abs(delta) > MAX_COPIES_PER_LINE:
        raise UsageError(f"the number of copies is 1 to {MAX_COPIES_PER_LINE:,}, not {abs(delta)}")
    loaded, source, text = opened.loaded, opened.source, opened.text
    if zone is None and delta > 0:
        zone = placed_zone(text, source, loaded, card, delta)
    change = Change(card, delta, zone)
    return labelled_edit(text, source, loaded, [change], source.label), change
