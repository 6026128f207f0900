"""``deckcheck build``: a full-screen deck builder (Textual, imported only by this command).

:mod:`deckcheck.commands.build` holds the deck being built (its file's text, undo and redo)
and answers the standing and odds from the library; :mod:`deckcheck.builder` deals the
playtest hand and searches the cards; :mod:`deckcheck.tui.app` is the screen, a widget per
pane in :mod:`deckcheck.tui.panes`, its CSS in ``build.tcss``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from deckcheck.core.errors import UsageError


def run_build(
    deck: str | Path,
    *,
    game: str | None = None,
    variant: str | None = None,
    catalogs: Sequence[str | Path] = (),
    seed: int | None = None,
    mouse: bool = True,
) -> int:
    """Open ``deck`` (a file that may not exist yet: then ``game`` says which game's deck it
    starts, written as ``new`` would on the first save) and run the builder until it quits."""
    from deckcheck.builder.playtest import new_deck_text
    from deckcheck.commands.build import BuildSession
    from deckcheck.games.context import make_context

    start = None if Path(deck).exists() or game is None else new_deck_text(deck, game, variant)
    session = BuildSession(deck, context=make_context(catalogs, game, variant), new_text=start)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("build is a full-screen terminal app: run it in a terminal")
    from deckcheck.tui.app import BuildApp

    BuildApp(session, seed=seed).run(mouse=mouse)
    return 0
