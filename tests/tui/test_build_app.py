"""``deckcheck build``: the deck builder driven headless (Textual's pilot), checked against the
commands that answer the same questions: the standing against ``validate``, the odds against
``odds``, the playtest hand against ``hand`` with the same seed, the saved file against
``new`` + ``add``. (The session and the deal without the screen: ``tests/builder``.)"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from build_pilot import check_columns, drive, odds_shown, rows
from conftest import EXAMPLES, run_cli

from deckcheck import api
from deckcheck.builder.playtest import new_deck_text
from deckcheck.catalog.model import Card
from deckcheck.commands.build import BuildSession

# Textual and the screen are imported by each test as it runs (see build_pilot).
if TYPE_CHECKING:
    from deckcheck.tui.app import BuildApp


async def search(pilot: object, text: str) -> None:
    """``/``, the search typed in one go (a key at a time costs a frame each), Down into the
    results (Enter in the box would add the first)."""
    await pilot.press("slash")  # type: ignore[attr-defined]
    pilot.app.query_one("#search").value = text  # type: ignore[attr-defined]
    await pilot.press("down")  # type: ignore[attr-defined]


def found(app: BuildApp) -> tuple[Card, ...]:
    """The cards the search lists."""
    from deckcheck.tui.panes import CardsPane

    return app.query_one(CardsPane).found


def check_standing(app: BuildApp, path: Path) -> None:
    """The Standing pane's report is ``validate``'s on the same text."""
    probe = path.with_name("probe" + path.suffix)
    probe.write_text(app.session.text, encoding="utf-8")
    expected = api.validate([probe]).outcomes[0].report
    shown = app.last_standing
    assert shown is not None and expected is not None
    assert shown.report.status == expected.status
    assert [(v.code, v.message) for v in shown.report.violations] == [
        (v.code, v.message) for v in expected.violations
    ]
    assert [r.code for r in shown.rules] == list(expected.rules_checked)
    assert shown.report.legal_under == expected.legal_under


def test_dorn_party_built_from_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Search, add five heroes (legal), a sixth (illegal), remove it, undo, redo, save, and the
    file is byte for byte what ``new`` and five ``add`` make."""
    from deckcheck.tui.app import BuildApp
    from deckcheck.tui.panes import DeckPane

    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "party.txt"
    app = BuildApp(BuildSession(deck, new_text=new_deck_text(deck, "dorn", None)), seed=1)
    heroes = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor"]

    async def steps(p: object) -> None:
        check_standing(app, deck)
        await search(p, "type:hero")
        assert [c.name for c in found(app)][:5] == heroes
        for n in range(5):
            await p.press("enter", "down")  # type: ignore[attr-defined]
            check_standing(app, deck)
            assert app.session.opened.loaded.deck.size == n + 1
        assert app.last_standing and app.last_standing.report.status == "legal"
        await p.press("enter")  # type: ignore[attr-defined]  # a sixth hero: illegal
        check_standing(app, deck)
        assert app.last_standing.report.status == "illegal"
        # the deck's cursor on the sixth hero's line (the last), then one copy fewer
        await p.press("2")  # type: ignore[attr-defined]
        table = app.query_one(DeckPane).table
        table.move_cursor(row=table.row_count - 1)
        await p.press("minus")  # type: ignore[attr-defined]
        check_standing(app, deck)
        assert app.last_standing.report.status == "legal"
        await p.press("u")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 6
        await p.press("ctrl+r")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 5
        assert not deck.exists()  # nothing written before the first save
        await p.press("s")  # type: ignore[attr-defined]
        assert not app.session.dirty
        await p.press("q")  # type: ignore[attr-defined]

    drive(app, (80, 24), steps)
    by_cli = tmp_path / "cli.txt"
    api.new("dorn", by_cli)
    for hero in heroes:
        api.add(by_cli, hero)
    assert deck.read_bytes() == by_cli.read_bytes()
    assert api.validate([deck]).exit_code == 0


def test_drake_stack_saved_in_place_keeps_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A custom Drake stack from an empty file: the tile shows, the odds pane says what
    ``odds`` says, saving keeps comments and CRLF line ends, a change on disk is noticed and
    reloaded."""
    from textual.widgets import Input

    from deckcheck.tui.app import BuildApp
    from deckcheck.tui.dialogs import Confirm
    from deckcheck.tui.panes import CardsPane

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    deck = tmp_path / "stack.txt"
    api.new("the-drake", deck, variant="custom")
    deck.write_bytes(deck.read_bytes().replace(b"\n", b"\r\n"))
    app = BuildApp(BuildSession(deck), seed=1)

    async def steps(p: object) -> None:
        await p.press("slash")  # type: ignore[attr-defined]
        box = app.query_one("#search", Input)
        for name in ("Drake", "Clubman"):  # typed, then one Enter in the box adds the first
            box.value = name
            await p.press("enter")  # type: ignore[attr-defined]
            card = app.query_one(CardsPane).found[0]
            assert card.name == name and app.session.opened.loaded.deck.counts()[card.id] == 1
            art = app.session.opened.loaded.game.card_art
            tile = art(card) if art else None
            details = str(app.query_one("#details").render())
            assert name in details and tile and tile.splitlines()[1] in details  # the tile
            check_standing(app, deck)
        box.value = "Monk"  # by mouse: a click on a row adds it
        await p.pause()  # type: ignore[attr-defined]  # the search answered
        await p.click("#results", offset=(3, 1))  # type: ignore[attr-defined]
        check_standing(app, deck)
        assert app.last_standing and app.last_standing.report.status == "legal"
        with pytest.raises(Exception) as odds_error:
            api.odds(str(deck), ["name:Drake>=1"])
        await odds_shown(p)
        assert app.odds_view is not None
        assert app.odds_view.message in str(odds_error.value)
        await p.press("ctrl+s")  # type: ignore[attr-defined]
        # a change made elsewhere: saving asks, and reload takes it
        deck.write_bytes(deck.read_bytes() + b"Archer\r\n")
        await p.press("minus", "s")  # type: ignore[attr-defined]
        assert isinstance(app.screen, Confirm)
        await p.press("r")  # type: ignore[attr-defined]  # Reload
        assert app.session.opened.loaded.deck.size == 4
        assert not app.session.dirty

    drive(app, (80, 24), steps)
    data = deck.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")  # line ends kept
    assert b"# deckcheck add / remove edit this file" in data
    assert api.validate([deck]).exit_code == 0


def test_ren_dhark_keys_sizes_names_odds_and_playtest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One run through the screen: shared names carry their id and colour in every pane; the
    columns read whole at 120, 100 and 80; at 60x15 a message, and no edit; one Enter adds;
    each pane by key; Esc leaves a box. After an edit the odds by turn are ``odds
    --by-turn``'s (and without the mulligan), the playtest hand is ``hand --seed``'s, a redraw
    by hand follows the rule; a bad search or condition is said, never a crash; quitting with
    changes asks first."""
    from deckcheck.tui.app import BuildApp
    from deckcheck.tui.dialogs import Confirm
    from deckcheck.tui.panes import DeckPane, KeyLine, PlaytestPane

    monkeypatch.chdir(tmp_path)
    for name in ("terra-custom.txt", "resource-points.toml"):
        (tmp_path / name).write_bytes((EXAMPLES / "ren-dhark" / name).read_bytes())
    deck = tmp_path / "terra-custom.txt"
    seed = 4  # its first hand holds one ship: the rule offers a redraw
    # a relative path, as a user types it: the title shows it, the same in every checkout
    app = BuildApp(BuildSession(deck.name), seed=seed)

    async def steps(p: object) -> None:
        assert any(r.startswith("Černá garda (I/7, blue)") for r in rows(app.query_one("#results")))
        shown = rows(app.query_one(DeckPane).table)
        assert any("Vesmírný sbor (I/9" in r for r in shown)
        assert any("Vesmírný sbor (I/10" in r for r in shown)
        assert app.query_one(PlaytestPane).names == app.name_of
        assert app.last_playtest is not None
        for card in app.last_playtest.kept:
            if card.name == "Vesmírný sbor":
                assert any(f"({card.id}, blue)" in r for r in rows(app.query_one("#hand")))
        check_columns(app)
        await p.resize_terminal(100, 30)  # type: ignore[attr-defined]
        check_columns(app)
        await p.resize_terminal(60, 15)  # type: ignore[attr-defined]
        assert app.too_small
        notice = app.query_one("#too-small")
        assert notice.display and not app.query_one("#columns").display
        assert "needs at least 80x24; now 60x15" in str(notice.render())
        await p.press("plus", "u")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 33 and not app.session.dirty
        await p.resize_terminal(80, 24)  # type: ignore[attr-defined]
        assert not app.too_small and app.query_one("#columns").display
        check_columns(app)

        # one Enter adds; the pane keys; Esc leaves a box
        await p.press("slash")  # type: ignore[attr-defined]
        app.query_one("#search").value = "Antisféra"
        await p.press("enter")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 34  # one Enter added it
        assert app.focused is app.query_one("#search")  # ready for the next card
        await p.press("down")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#results")
        for key, widget in [("2", "#deck"), ("3", "#standing"), ("4", "#odds-view")]:
            await p.press(key)  # type: ignore[attr-defined]
            assert app.focused is app.query_one(widget), key
        await p.press("5")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#hand")
        assert app.query_one("#side").active == "playtest-tab"  # type: ignore[attr-defined]
        await p.press("1")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#results")
        keys = {k for k, b in app.active_bindings.items() if b.binding.show}
        assert {"1", "slash", "enter"} <= keys  # the footer names the pane keys and Enter
        footer = str(app.query_one(KeyLine).render())
        assert "1-5 Panes" in footer and "⏎ Add" in footer and len(footer) <= 80
        await p.press("4", "enter")  # type: ignore[attr-defined]  # Enter on the chart: edit
        assert app.focused is app.query_one("#conditions")
        assert "esc Leave" in str(app.query_one(KeyLine).render())
        await p.press("escape")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#odds-view")
        app.query_one("#search").focus()
        await p.press("escape")  # type: ignore[attr-defined]
        assert app.focused is app.query_one("#results")

        # one copy fewer (the deck as it was): odds, playtest and standing as the commands say
        await p.press("minus")  # type: ignore[attr-defined]
        assert app.session.opened.loaded.deck.size == 33
        check_standing(app, deck)
        probe = tmp_path / "probe.txt"
        probe.write_text(app.session.text, encoding="utf-8")
        expected = api.odds(str(probe), ["type:ship>=2"], by_turn=6)
        await odds_shown(p)
        assert app.odds_view is not None
        assert [round(t[2], 12) for t in app.odds_view.turns] == [
            round(r.probability, 12) for r in expected.by_turn
        ]
        assert [round(p, 12) for p in app.odds_view.without] == [
            round(r.probability_without_mulligan, 12) for r in expected.by_turn
        ]
        hand = api.hand(str(probe), ["type:ship>=2"], seed=seed).hands[0]
        assert app.last_playtest is not None
        assert [c.id for c in app.last_playtest.kept] == [c.id for c in hand.kept]
        assert app.last_playtest.advice.startswith("optimal: redraw")
        await p.press("m")  # type: ignore[attr-defined]
        assert app.last_playtest.redraws == 1
        assert [c.id for c in app.last_playtest.kept] == [c.id for c in hand.kept]
        await p.press("m", "d")  # type: ignore[attr-defined]  # no second redraw; a turn
        assert app.last_playtest.redraws == 1 and len(app.last_playtest.turns) == 1
        await search(p, "colr:blue")
        assert "did you mean" in str(app.query_one("#message").render())  # no crash
        app.query_one("#conditions").value = "type:ship>=>2"
        app.query_one("#conditions").focus()
        await p.press("enter")  # type: ignore[attr-defined]
        await odds_shown(p)
        assert app.odds_view is not None and app.odds_view.message  # said in the pane
        assert app.focused is app.query_one("#odds-view")  # Enter left the box
        app.query_one("#conditions").value = ""  # empty: the game's example again
        app.query_one("#conditions").focus()
        await p.press("enter", "1", "h")  # type: ignore[attr-defined]  # a new hand's seed
        shown_seed = app.query_one(PlaytestPane).seed
        again = api.hand(str(probe), ["type:ship>=2"], seed=shown_seed).hands[0]
        assert app.last_playtest is not None
        assert [c.id for c in app.last_playtest.kept] == [c.id for c in again.kept]
        await p.press("q")  # type: ignore[attr-defined]  # unsaved: asks first
        assert isinstance(app.screen, Confirm)
        await p.press("escape")  # type: ignore[attr-defined]
        assert not isinstance(app.screen, Confirm) and app.session.dirty

    drive(app, (120, 40), steps)
    shown = run_cli(["build", "--help"]).output
    assert "1 cards" in shown and "5 playtest" in shown and "Esc" in shown
