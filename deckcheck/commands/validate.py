"""``validate``: every rule of each deck's variant, all findings reported together."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.errors import DeckcheckError
from deckcheck.decks.load import load_deck, owned_copies
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.decks.verdict import Outcome, Validation, judge, validate_partly
from deckcheck.games.context import NO_CONTEXT, Context


def validate_paths(
    paths: Sequence[str | Path], context: Context = NO_CONTEXT, *, owned: str | Path | None = None
) -> Validation:
    """Validate several deck files, each opened in ``context``; a broken file does not stop the
    others. With ``owned`` (a deck file listing a collection), each deck's outcome lists the
    copies the collection lacks to build it (an unreadable collection is an input error of that
    deck)."""
    outcomes = []
    collections: dict[str, dict[str, int]] = {}  # by game: read once
    for path in paths:
        try:
            loaded = load_deck(path, context)
            if owned is not None and loaded.game.id not in collections:
                collections[loaded.game.id] = owned_copies(owned, loaded.game, context)
            outcomes.append(judge(str(path), loaded, collections.get(loaded.game.id)))
        except PartlyResolvedError as exc:
            outcomes.append(Outcome(str(path), report=validate_partly(exc), error=exc))
        except DeckcheckError as exc:
            outcomes.append(Outcome(str(path), error=exc))
    return Validation(tuple(outcomes))
