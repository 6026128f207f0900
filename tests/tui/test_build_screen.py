"""``deckcheck build``'s screen driven by keys (Textual's pilot), asserted on the widgets'
state: one Enter adds, a key per pane, Esc leaves a box, the size message below 80x24,
readable columns at 80/100/120, ids beside shared names, the standing's marks, a return-3
chosen by hand, the odds job finishing exactly at the pending edge."""

from __future__ import annotations

import ast
import asyncio
import importlib.resources
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck import api
from deckcheck.builder.playtest import deal
from deckcheck.commands.build import BuildSession
from deckcheck.tui import app as app_module
from deckcheck.tui.app import BuildApp
from deckcheck.tui.panes import NAME_MIN, CardsPane, DeckPane, OddsPane, PlaytestPane

RD = EXAMPLES / "ren-dhark" / "terra-custom.txt"
STCCG = EXAMPLES / "stccg-1e" / "legal-federation.txt"
PC = EXAMPLES / "planetary-conquerors" / "legal-50.txt"


def drive(deck: Path, size: tuple[int, int], steps: Callable[..., Awaitable[None]]) -> BuildApp:
    """Run the builder on ``deck`` headless at ``size`` and play ``steps(pilot, app)``."""
    app = BuildApp(BuildSession(deck), seed=1)
    app.animation_level = "none"

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await steps(pilot, app)

    asyncio.run(run())
    return app


def copy_rd(tmp_path: Path) -> Path:
    """The Ren Dhark example and its overlay, copied (a test never writes in the checkout)."""
    for name in ("terra-custom.txt", "resource-points.toml"):
        (tmp_path / name).write_bytes((RD.parent / name).read_bytes())
    return tmp_path / "terra-custom.txt"


async def focus_on(pilot: object, app: BuildApp, widget: str) -> bool:
    """Whether ``widget`` takes the keys within a few frames (a tab is shown first)."""
    for _ in range(50):
        if app.focused is app.query_one(widget):
            return True
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    return False


def rows(table: object) -> list[str]:
    """A table's rows as the cells' plain text."""
    return [
        " | ".join(str(getattr(c, "plain", c)) for c in table.get_row_at(i))  # type: ignore[attr-defined]
        for i in range(table.row_count)  # type: ignore[attr-defined]
    ]


def test_one_enter_adds_and_every_pane_has_a_key(tmp_path: Path) -> None:
    deck = copy_rd(tmp_path)

    async def steps(p: object, app: BuildApp) -> None:
        await p.press("slash")  # type: ignore[attr-defined]
        app.query_one("#search").value = "Antisféra"  # type: ignore[attr-defined]
        await p.press("enter")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 34  # one Enter added it
        assert app.focused is app.query_one("#search")  # ready for the next card
        await p.press("down")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#results")
        for key, widget in [("2", "#deck"), ("3", "#standing"), ("4", "#odds-view")]:
            await p.press(key)  # type: ignore[attr-defined]
            assert await focus_on(p, app, widget), key
        await p.press("5")  # type: ignore[attr-defined]
        assert await focus_on(p, app, "#hand")
        await p.press("1")  # type: ignore[attr-defined]
        assert await focus_on(p, app, "#results")
        # the conditions box: Enter computes and leaves it, Esc leaves it too
        app.query_one("#conditions").focus()
        await p.press("escape")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#odds-view")
        app.query_one("#search").focus()
        await p.press("escape")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#results")
        keys = {k for k, b in app.active_bindings.items() if b.binding.show}  # type: ignore[attr-defined]
        assert {"1", "slash", "enter"} <= keys  # the footer names the pane keys and Enter

    drive(deck, (100, 30), steps)
    shown = run_cli(["build", "--help"]).output
    assert "1 cards" in shown and "5 playtest" in shown and "Esc" in shown


def test_too_small_a_screen_says_so_and_takes_no_edit(tmp_path: Path) -> None:
    deck = copy_rd(tmp_path)

    async def steps(p: object, app: BuildApp) -> None:
        assert app.too_small
        notice = app.query_one("#too-small")
        assert notice.display and not app.query_one("#columns").display
        assert "needs at least 80x24; now 60x15" in str(notice.render())
        await p.press("plus", "u")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 33 and not app.session.dirty

    drive(deck, (60, 15), steps)


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize("deck", [RD, STCCG])
def test_columns_are_readable_at_every_width(deck: Path, width: int) -> None:
    """The type column shows whole labels or is not there; a cut name ends in an ellipsis."""

    async def steps(p: object, app: BuildApp) -> None:
        await p.pause()  # type: ignore[attr-defined]
        pane = app.query_one(CardsPane)
        table = pane.table
        columns = list(table.columns.values())
        longest = max(len(c.type_label) for c in pane.found)
        if len(columns) == 2:
            assert columns[1].width >= longest
        assert columns[0].width >= NAME_MIN
        for i, card in enumerate(pane.found):
            cell = str(table.get_row_at(i)[0])
            name = app.name_of(card)
            assert cell == name or (cell.endswith("…") and name.startswith(cell[:-1]))
        for row in rows(app.query_one(DeckPane).table):
            assert (
                len(row.split(" | ")[1])
                <= app.query_one(DeckPane)
                .table.columns[list(app.query_one(DeckPane).table.columns)[1]]
                .width
            )

    if width >= 100:
        drive(deck, (width, 30), steps)  # at 100 and more the type fits
    else:
        drive(deck, (width, 24), steps)


def test_shared_names_show_their_id_and_colour_in_every_pane() -> None:
    async def steps(p: object, app: BuildApp) -> None:
        results = rows(app.query_one(CardsPane).table)
        assert any(r.startswith("Černá garda (I/7, blue)") for r in results)
        deck = rows(app.query_one(DeckPane).table)
        assert any("Vesmírný sbor (I/9" in r for r in deck)
        assert any("Vesmírný sbor (I/10" in r for r in deck)
        playtest = app.query_one(PlaytestPane)
        assert app.last_playtest is not None
        for card in app.last_playtest.kept:
            if card.name == "Vesmírný sbor":
                assert any(f"({card.id}, blue)" in r for r in rows(app.query_one("#hand")))
        assert playtest.names == app.name_of

    drive(RD, (120, 40), steps)


def test_standing_says_what_the_cli_says() -> None:
    """A warning shows ``!``; every rule that counts shows its count; an Aside is marked."""
    warned = EXAMPLES / "stccg-1e" / "warning-outpost-mission.txt"

    async def steps(p: object, app: BuildApp) -> None:
        text = str(app.query_one("#standing-text").render())
        assert "! outpost-mission" in text
        assert "/60 cards" in text and "≤30 seed cards" in text

    drive(warned, (120, 40), steps)
    modern = BuildSession(EXAMPLES / "stccg-1e" / "legal-modern-federation.txt").standing()
    texts = [r.progress.text for r in modern.rules]
    assert "16/≤30 seed cards" in texts and "38/30+ draw cards" in texts
    assert "1/1+ reporting facility" in texts


def test_a_zone_the_rules_do_not_count_is_marked(tmp_path: Path) -> None:
    deck = tmp_path / "side.txt"
    text = STCCG.read_text(encoding="utf-8")
    deck.write_text(text + "\nSide:\nTricorder\n", encoding="utf-8")

    async def steps(p: object, app: BuildApp) -> None:
        assert any("(not counted)" in r for r in rows(app.query_one(DeckPane).table))

    session = BuildSession(deck)
    if not any(not z.counted and z.name == "Side" for z in session.opened.loaded.game.spec.zones):
        pytest.skip("the game has no side zone by that name")
    drive(deck, (120, 40), steps)


def test_a_return_3_chosen_card_by_card() -> None:
    """``m`` opens the return; Enter marks three cards; ``m`` returns them. Returning the
    cards the optimal policy names deals exactly ``hand``'s hand (the same random stream)."""
    conditions = ["type:warrior>=2"]
    loaded = BuildSession(PC).opened.loaded
    seed = next(s for s in range(1, 40) if deal(loaded, s, conditions, 0, 0).best_return)
    first = deal(loaded, seed, conditions, 0, 0)
    assert first.to_return == 3 and len(first.best_return) == 3
    assert first.mulligan == "return-3 mulligan"
    assert "optimal: return 3" in first.advice and "after it" in first.advice
    by_hand = deal(loaded, seed, conditions, 0, 0, first.best_return)
    expected = api.hand(str(PC), conditions, seed=seed).hands[0]
    assert [c.id for c in by_hand.kept] == [c.id for c in expected.kept]
    assert by_hand.decisions[0].startswith("returned by you")

    async def steps(p: object, app: BuildApp) -> None:
        app.conditions = tuple(conditions)
        pane = app.query_one(PlaytestPane)
        pane.new_hand(seed)
        await p.press("m")  # type: ignore[attr-defined]
        assert pane.view is not None and pane.view.to_return == 3
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

    drive(PC, (100, 30), steps)


def test_the_odds_job_ending_exactly_at_the_pending_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The job ends the moment the pane marks the odds pending: both land, no error."""
    edge = threading.Event()
    real = OddsPane.mark_pending

    def mark_pending(self: OddsPane) -> None:
        real(self)
        edge.set()

    monkeypatch.setattr(OddsPane, "mark_pending", mark_pending)

    async def steps(p: object, app: BuildApp) -> None:
        session = app.session
        odds = session.odds

        def at_the_edge(*args: object, **kwargs: object) -> object:
            edge.wait(5)
            return odds(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(session, "odds", at_the_edge)
        edge.clear()
        app.edit(app.session.deck_lines()[-1].card, 1, None)
        for _ in range(200):
            await p.pause(0.01)  # type: ignore[attr-defined]
            if not app.odds_pending:
                break
        assert edge.is_set() and not app.odds_pending
        assert app.odds_view is not None and not app.odds_view.message

    drive(RD, (100, 30), steps)


def test_the_screen_is_built_the_textual_way() -> None:
    """CSS in a file shipped in the package; no waiting on futures; the app class short."""
    assert importlib.resources.files("deckcheck.tui").joinpath("build.tcss").is_file()
    tui = Path(app_module.__file__).parent
    for source in tui.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "concurrent.futures" not in text and "future.result" not in text, source
    tree = ast.parse(Path(app_module.__file__).read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "BuildApp"]
    assert (cls.end_lineno or 0) - cls.lineno + 1 <= 250
