"""Catalogs and game definitions read afresh, as a new process reads them: through the cache.

Imported like conftest's helpers (``from afresh import forget``). In the test process,
:func:`forget` makes the next read of each game go through the cache again; in a forked child
(:mod:`process_helpers`), :func:`afresh` does so before the command, so that the child reads
and writes cache entries as a real start of ``deckcheck`` would, without an interpreter's start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from process_helpers import deckcheck

from deckcheck.games.registry import all_games
from deckcheck.games.stccg import lackey
from deckcheck.games.stccg import names as stccg_names


def forget() -> None:
    """Every game's catalog, definition and name table forgotten: read anew on next use."""
    for game in all_games().values():
        game._catalog = None
        game.__dict__.pop("spec", None)  # read afresh, through the cache
    lackey.name_table.cache_clear()
    stccg_names._table.cache_clear()


def afresh(args: Sequence[str | Path]) -> Callable[[], object]:
    """What a forked child runs for ``deckcheck ARGS`` with every catalog read afresh."""
    command = deckcheck(args)

    def run() -> object:
        forget()
        return command()

    return run
