"""What the builder's screen tests share: a headless run of the app, a table's rows as text,
the check that every column reads whole.

Textual is imported by the tests as they run, not by their modules: it takes most of a second
of CPU, which every xdist worker would pay at collection, whether or not it drives the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.tui.app import BuildApp


def drive(app: BuildApp, size: tuple[int, int], steps: Callable[..., Awaitable[None]]) -> None:
    """Run ``app`` headless at ``size`` and play ``steps(pilot)`` on it."""
    app.animation_level = "none"  # a key waits for animations: none to wait for

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await steps(pilot)

    asyncio.run(run())


async def odds_shown(pilot: object) -> None:
    """Wait for the odds of the last edit: the background job done, its message handled."""
    await pilot.app.workers.wait_for_complete()  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


def rows(table: object) -> list[str]:
    """A table's rows as the cells' plain text."""
    return [
        " | ".join(str(getattr(c, "plain", c)) for c in table.get_row_at(i))  # type: ignore[attr-defined]
        for i in range(table.row_count)  # type: ignore[attr-defined]
    ]


def check_columns(app: BuildApp) -> None:
    """The type column shows whole labels or is not there; a cut name ends in an ellipsis;
    no deck row is wider than its column."""
    from deckcheck.tui.panes import NAME_MIN, CardsPane, DeckPane

    pane = app.query_one(CardsPane)
    columns = list(pane.table.columns.values())
    if len(columns) == 2:
        assert columns[1].width >= max(len(c.type_label) for c in pane.found)
    assert columns[0].width >= NAME_MIN
    for i, card in enumerate(pane.found):
        cell = str(pane.table.get_row_at(i)[0])
        name = app.name_of(card)
        assert cell == name or (cell.endswith("…") and name.startswith(cell[:-1])), cell
    deck = app.query_one(DeckPane).table
    width = list(deck.columns.values())[1].width
    assert all(len(row.split(" | ")[1]) <= width for row in rows(deck))
