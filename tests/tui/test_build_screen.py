"""``deckcheck build``'s screen driven by keys (Textual's pilot), asserted on the widgets'
state (no rendered text is scraped): the standing's marks and readable columns at 80/100/120
(STCCG), a return-3 chosen by hand and the odds job finishing exactly at the pending edge
(Planetary Conquerors), the app built the Textual way. One app run per deck: each test walks
the screen through its states in turn. (Keys, sizes and shared names: Ren Dhark's test in
``test_build_app``.)"""

from __future__ import annotations

import ast
import importlib.resources
import threading
from pathlib import Path

import pytest
from build_pilot import check_columns, drive, odds_shown, rows
from conftest import EXAMPLES

from deckcheck.commands.build import BuildSession

# Textual and the screen are imported by each test as it runs (see build_pilot).

PC = EXAMPLES / "planetary-conquerors" / "legal-50.txt"


def test_stccg_standing_marks_and_columns(tmp_path: Path) -> None:
    """A warning shows ``!``, rules that count show their count, a zone the rules do not
    count is marked; the type column reads whole (or goes) at 80, 100 and 120."""
    from deckcheck.tui.app import BuildApp
    from deckcheck.tui.panes import DeckPane

    deck = tmp_path / "side.txt"
    warned = EXAMPLES / "stccg-1e" / "warning-outpost-mission.txt"
    deck.write_text(warned.read_text(encoding="utf-8") + "\nSide:\nTricorder\n", "utf-8")
    app = BuildApp(BuildSession(deck), seed=1)

    async def steps(p: object) -> None:
        text = str(app.query_one("#standing-text").render())
        assert "! outpost-mission" in text
        assert "/60 cards" in text and "≤30 seed cards" in text
        check_columns(app)
        for size in [(100, 30), (120, 40)]:
            await p.resize_terminal(*size)  # type: ignore[attr-defined]
            check_columns(app)
        assert any("Side (not counted)" in r for r in rows(app.query_one(DeckPane).table))

    drive(app, (80, 24), steps)


def test_a_return_3_chosen_card_by_card_and_odds_at_the_pending_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``m`` opens the return; Enter marks three cards; ``m`` returns them, and the pane says
    the chance after the player's return beside the optimal one. Then an edit whose odds job
    ends the moment the pane marks the odds pending: both land, no error."""
    from deckcheck.tui.app import BuildApp
    from deckcheck.tui.panes import OddsPane, PlaytestPane

    edge = threading.Event()
    real = OddsPane.mark_pending

    def mark_pending(self: OddsPane) -> None:
        real(self)
        edge.set()

    monkeypatch.setattr(OddsPane, "mark_pending", mark_pending)
    app = BuildApp(BuildSession(PC), seed=1)

    async def steps(p: object) -> None:
        app.conditions = ("type:warrior>=2",)
        pane = app.query_one(PlaytestPane)
        pane.new_hand(3)
        await p.press("m")  # type: ignore[attr-defined]
        assert pane.view is not None and pane.view.to_return == 3
        assert "choose 3 to return" in str(app.query_one("#playtest-head").render())
        app.query_one("#hand").focus()
        marked = 0
        while marked < 3:
            await p.press("down")  # type: ignore[attr-defined]
            if pane.under_cursor is not None:
                await p.press("enter")  # type: ignore[attr-defined]
                marked += 1
        assert len(pane.marked) == 3
        await p.press("m")  # type: ignore[attr-defined]
        assert pane.view is not None and pane.view.manual
        assert pane.view.decisions[0].startswith("returned by you")
        assert "after your return" in pane.view.advice

        session = app.session
        odds = session.odds

        def at_the_edge(*args: object, **kwargs: object) -> object:
            edge.wait(5)
            return odds(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(session, "odds", at_the_edge)
        await odds_shown(p)
        edge.clear()
        app.edit(app.session.deck_lines()[-1].card, 1, None)
        await odds_shown(p)
        assert edge.is_set() and not app.odds_pending
        assert app.odds_view is not None and not app.odds_view.message

    drive(app, (80, 24), steps)


def test_the_screen_is_built_the_textual_way() -> None:
    """CSS in a file shipped in the package; no waiting on futures; the app class short."""
    from deckcheck.tui import app as app_module

    assert importlib.resources.files("deckcheck.tui").joinpath("build.tcss").is_file()
    tui = Path(app_module.__file__).parent
    for source in tui.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "concurrent.futures" not in text and "future.result" not in text, source
    tree = ast.parse(Path(app_module.__file__).read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "BuildApp"]
    assert (cls.end_lineno or 0) - cls.lineno + 1 <= 250
