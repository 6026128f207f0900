"""``deckcheck build``: a full-screen deck builder (Textual, imported only by this command).

:mod:`deckcheck.commands.build` holds the deck being built (its file's text, undo and redo)
and answers the standing and odds from the library; :mod:`deckcheck.builder` deals the
playtest hand and searches the cards; :mod:`deckcheck.tui.app` is the screen, a widget per
pane in :mod:`deckcheck.tui.panes`, its CSS in ``build.tcss``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from deckcheck.core.errors import UsageError
from deckcheck.games.context import NO_CONTEXT, Context


def run_build(
    deck: str | Path,
    context: Context = NO_CONTEXT,
    *,
    seed: int | None = None,
    mouse: bool = True,
) -> int:
    """Open ``deck`` (a file that may not exist yet: then the context's game says which game's
    deck it starts, written as ``new`` would on the first save) in ``context`` and run the
    builder until it quits."""
    from deckcheck.builder.playtest import new_deck_text
    from deckcheck.commands.build import BuildSession

    game, variant = context.game, context.variant
    start = None if Path(deck).exists() or game is None else new_deck_text(deck, game, variant)
    session = BuildSession(deck, context=context, new_text=start)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("build is a full-screen terminal app: run it in a terminal")
    from deckcheck.tui.app import BuildApp

    BuildApp(session, seed=seed).run(mouse=mouse)
    return 0
