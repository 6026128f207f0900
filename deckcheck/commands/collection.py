"""``collection add`` / ``collection remove``: copies of a card added to or taken from a
collection file, in place.

The edit is made as ``add`` and ``remove`` make theirs: the file's format, comments, order and
line ends kept (:mod:`deckcheck.inplace.edit`), the result read back before it is written,
and written under the file's lock, atomically (:mod:`deckcheck.inplace.atomic`). A collection
that mixes games is edited among the lines of the card's game; the others stay as they are.
"""

from __future__ import annotations

from pathlib import Path

from deckcheck.catalog.model import Card
from deckcheck.catalog.names import NameMatch
from deckcheck.core.errors import DeckFormatError, UsageError
from deckcheck.core.inputs import STDIN, source_label
from deckcheck.core.result import OK, Json
from deckcheck.core.values import frozen
from deckcheck.decks.collection import PRODUCT_LINE, variant_of
from deckcheck.decks.counts import MAX_COPIES_PER_LINE
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.model import DeckSource
from deckcheck.decks.resolve import lookup, pick, resolve_line
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import all_games, get_game
from deckcheck.inplace.atomic import editing
from deckcheck.inplace.edit import (
    checked_edit,
    encoded_as_before,
    labelled_edit,
    load_editable,
    parse_editable,
)
from deckcheck.inplace.rewrite import Change, decode_keeping, recount, split_lines


@frozen
class CollectionEdit:
    """A collection file edited: the card (and the printing variant, as written), the copies
    added (negative: removed), and that printing's copies on the file's lines now."""

    path: Path
    game: str
    card: Card
    delta: int
    copies: int
    variant: str = ""  # a printing of its own, as written (``Seven of Nine *VP``)

    @property
    def exit_code(self) -> int:
        """0: the edit was made."""
        return OK

    def to_json(self) -> dict[str, Json]:
        """``{"collection", "game", "card", "name", "variant", "delta", "copies"}``."""
        return {
            "collection": str(self.path),
            "game": self.game,
            "card": self.card.id,
            "name": self.card.name,
            "variant": self.variant or None,
            "delta": self.delta,
            "copies": self.copies,
        }


def edit_collection(
    path: str | Path,
    card: str,
    count: int = 1,
    *,
    remove: bool = False,
    context: Context = NO_CONTEXT,
) -> CollectionEdit:
    """Add (``remove``: take out) ``count`` copies of ``card`` in the collection file; the
    card's game is the file's (``game:``), else the context's, else the one game whose catalog
    knows the card. A printing variant (``Name *VP``, a card of its own) is edited on its own
    lines, in a text or Lackey file; a product line is edited in a text editor."""
    if str(path) == STDIN:
        raise UsageError("collection add and remove edit a file, not standard input")
    if not 1 <= count <= MAX_COPIES_PER_LINE:
        raise UsageError(f"the number of copies is 1 to {MAX_COPIES_PER_LINE:,}, not {count}")
    if PRODUCT_LINE.match(card):
        raise UsageError("a product line is edited in a text editor ('2 product: starter')")
    target = Path(path)
    label = source_label(path)
    with editing(path) as held:
        text, encoded = decode_keeping(held.data, label)
        source = parse_editable(text, label, target)
        game = _game(source.game or context.game, card)
        scoped = Context(context.overlays, game.id)
        loaded, _ = load_editable(source, scoped)
        match = lookup(card.strip(), loaded.catalog, loaded.game)
        if match.fields and match.cards and not match.refused:
            the_card, variant = match.cards[0], variant_of(match.fields)
        else:
            the_card, variant = _card(card, match, loaded), ""
        delta = -count if remove else count
        if variant or _has_variants(source, loaded, the_card):
            # a printing of its own, or a card beside its own printings: edited line by line
            # among the lines of that printing only
            new_text, copies = _variant_edit(
                text, source, loaded, card.strip(), the_card, variant, delta
            )
            held.replace(encoded_as_before(encoded, new_text, label))
            shown = card.strip() if variant else ""
            return CollectionEdit(target, game.id, the_card, delta, copies, shown)
        change = Change(the_card, delta, None)
        new_text = labelled_edit(text, source, loaded, [change], label)
        after, _ = checked_edit(new_text, label, target, loaded, [change], scoped)
        held.replace(encoded_as_before(encoded, new_text, label))
    entries = after.deck.all_entries()
    copies = sum(e.count for e in entries if e.card.id == the_card.id and not e.fields)
    return CollectionEdit(target, game.id, the_card, change.delta, copies)


def _game(named: str | None, card: str) -> Game:
    if named:
        return get_game(named.strip())
    knowing = [g for g in all_games().values() if lookup(card.strip(), g.catalog(()), g).cards]
    if len(knowing) == 1:
        return knowing[0]
    if not knowing:
        raise UsageError(f"no game has a card named {card!r}")
    games = ", ".join(g.id for g in knowing)
    raise UsageError(f"{card!r} names cards of several games ({games}); name one with --game")


def _variant_lines(
    source: DeckSource, loaded: LoadedDeck, card: Card, variant: str
) -> list[tuple[int, int]]:
    """(0-based line, copies) of each line naming this printing variant of ``card``."""
    found = []
    for line in source.lines:
        resolved = resolve_line(line, loaded.catalog, loaded.game)
        same = resolved.card is not None and resolved.card.id == card.id
        if same and variant_of(resolved.fields) == variant and line.line is not None:
            found.append((line.line - 1, resolved.count))
    return found


def _has_variants(source: DeckSource, loaded: LoadedDeck, card: Card) -> bool:
    """Whether a line of the file names a printing variant of ``card``."""
    return any(
        r.card is not None and r.card.id == card.id and r.fields
        for r in (resolve_line(line, loaded.catalog, loaded.game) for line in source.lines)
    )


def _variant_edit(
    text: str,
    source: DeckSource,
    loaded: LoadedDeck,
    spelling: str,
    card: Card,
    variant: str,
    delta: int,
) -> tuple[str, int]:
    """The file with ``delta`` copies of a printing variant added on its own lines (the first;
    a removal takes from the last first; a new line at the end, spelt as given), checked as it
    reads back; and the variant's copies now."""
    if source.format not in ("text", "lackey"):
        raise UsageError(
            f"{spelling!r} is a printing of its own: deckcheck edits its lines in a text or "
            f"Lackey file; edit this {source.format} file in a text editor"
        )
    lackey = source.format == "lackey"
    lines = split_lines(text)
    mine = _variant_lines(source, loaded, card, variant)
    held = sum(n for _, n in mine)
    if held + delta < 0:
        raise UsageError(f"the collection holds {held} {spelling}; cannot remove {-delta}")
    if delta > 0 and mine:
        index, n = mine[0]
        lines[index] = (recount(lines[index][0], n + delta, lackey), lines[index][1])
    elif delta > 0:
        end = next((e for _, e in lines if e), "\n")
        if lines and lines[-1][0] == "" and not lines[-1][1]:
            lines.pop()
        if lines and not lines[-1][1]:
            lines[-1] = (lines[-1][0], end)
        lines.append((f"{delta}{chr(9) if lackey else ' '}{spelling}", end))
    else:
        left = -delta
        for index, n in reversed(mine):
            take = min(left, n)
            left -= take
            if take:
                lines[index] = (recount(lines[index][0], n - take, lackey) if n > take else "", "")
    new_text = "".join(line + end for line, end in lines)
    after = parse_editable(new_text, source.label, source.path or Path(source.label))
    back, _ = load_editable(after, Context(variant=loaded.variant.name, game=loaded.game.id))
    now = sum(n for _, n in _variant_lines(after, back, card, variant))
    if now != held + delta:
        raise DeckFormatError(
            "not edited: deckcheck cannot edit this file's lines so that they read back as "
            "meant (the file is unchanged); edit it in a text editor",
            source=source.label,
        )
    return new_text, now


def _card(text: str, match: NameMatch, loaded: LoadedDeck) -> Card:
    """The card ``text`` names in the collection's game (``match``: what it may mean), read as
    a deck line is."""
    card = pick(match.cards, loaded.game) if match.cards and not match.refused else None
    if card is not None:
        return card
    if match.cards:
        listed = ", ".join(f"{c.id} ({c.name})" for c in match.cards[:8])
        why = match.refused or "it names several cards"
        raise UsageError(f"{text!r}: {why}; give the id: {listed}")
    hints = loaded.catalog.suggest_name(text)
    raise UsageError(
        f"no {loaded.game.id} card is named {text!r}",
        details=[f"did you mean: {', '.join(hints)}?"] if hints else [],
    )


@frozen
class CollectionRequest:
    """``count`` copies of ``card`` added to (``remove``: taken out of) the collection file
    ``collection``, the card's game the file's, else the context's, else the one that knows
    it."""

    collection: str | Path
    card: str
    count: int = 1
    remove: bool = False
    context: Context = NO_CONTEXT


def run(request: CollectionRequest) -> CollectionEdit:
    """The edit of ``request`` (:func:`edit_collection`)."""
    r = request
    return edit_collection(r.collection, r.card, r.count, remove=r.remove, context=r.context)
