"""``collection add`` / ``collection remove``: copies of a card added to or taken from a
collection file, in place.

The edit is made as ``add`` and ``remove`` make theirs: the file's format, comments, order and
line ends kept (:mod:`deckcheck.export.inplace`), the result read back before it is written,
and written under the file's lock, atomically (:mod:`deckcheck.export.write`). A collection
that mixes games is edited among the lines of the card's game; the others stay as they are.
"""

from __future__ import annotations

from pathlib import Path

from deckcheck.catalog.model import Card
from deckcheck.core.errors import UsageError
from deckcheck.core.inputs import STDIN, source_label
from deckcheck.core.result import OK, Json
from deckcheck.core.values import frozen
from deckcheck.decks.collection import PRODUCT_LINE
from deckcheck.decks.counts import MAX_COPIES_PER_LINE
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import lookup, pick
from deckcheck.decks.rewrite import Change, decode_keeping
from deckcheck.export.inplace import (
    checked_edit,
    encoded_as_before,
    labelled_edit,
    load_editable,
    parse_editable,
)
from deckcheck.export.write import editing
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import all_games, get_game


@frozen
class CollectionEdit:
    """A collection file edited: the card, the copies added (negative: removed), its copies
    in the file now."""

    path: Path
    game: str
    card: Card
    delta: int
    copies: int

    @property
    def exit_code(self) -> int:
        """0: the edit was made."""
        return OK

    def to_json(self) -> dict[str, Json]:
        """``{"collection", "game", "card", "name", "delta", "copies"}``."""
        return {
            "collection": str(self.path),
            "game": self.game,
            "card": self.card.id,
            "name": self.card.name,
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
    knows the card. A printing variant (``Name *VP``) or a product line is edited in a text
    editor."""
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
        the_card = _card(card, loaded)
        change = Change(the_card, -count if remove else count, None)
        new_text = labelled_edit(text, source, loaded, [change], label)
        after, _ = checked_edit(new_text, label, target, loaded, [change], scoped)
        held.replace(encoded_as_before(encoded, new_text, label))
    copies = sum(e.count for e in after.deck.all_entries() if e.card.id == the_card.id)
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


def _card(text: str, loaded: LoadedDeck) -> Card:
    """The card ``text`` names in the collection's game, read as a deck line is."""
    match = lookup(text.strip(), loaded.catalog, loaded.game)
    if match.fields:
        raise UsageError(
            f"{text!r} is a printing of its own ({match.note or 'a variant'}); edit its line in a "
            "text editor"
        )
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
