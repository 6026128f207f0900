"""``deckcheck build``: the deck builder driven headless (Textual's pilot), and its session.

The app answers from the library, so every pane is checked against the command that answers
the same question: the standing against ``validate``, the odds against ``odds``, the playtest
hand against ``hand`` with the same seed, the saved file against ``new`` + ``add``.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES

from deckcheck import api
from deckcheck.builder.playtest import deal, new_deck_text
from deckcheck.commands.build import BuildSession, SaveConflict
from deckcheck.tui.app import BuildApp
from deckcheck.tui.dialogs import Confirm
from deckcheck.tui.panes import CardsPane, PlaytestPane


def drive(app: BuildApp, size: tuple[int, int], steps: Callable[..., Awaitable[None]]) -> None:
    """Run ``app`` headless at ``size`` and play ``steps(pilot)`` on it."""

    app.animation_level = "none"  # a key waits for animations: none to wait for

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await steps(pilot)

    asyncio.run(run())


async def settle(pilot: object) -> None:
    """Wait until the screen has caught up, odds in the background included."""
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    for _ in range(200):
        if not app.odds_pending:
            break
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


async def search(pilot: object, text: str) -> None:
    """``/``, the search typed in one go (a key at a time costs a frame each), Down into the
    results (Enter in the box would add the first)."""
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.press("slash")  # type: ignore[attr-defined]
    app.query_one("#search").value = text
    await pilot.press("down")  # type: ignore[attr-defined]


def found(app: BuildApp) -> tuple[object, ...]:
    """The cards the search lists."""
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
    monkeypatch.chdir(tmp_path)
    deck = tmp_path / "party.txt"
    app = BuildApp(BuildSession(deck, new_text=new_deck_text(deck, "dorn", None)), seed=1)
    heroes = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor"]

    async def steps(pilot: object) -> None:
        p = pilot
        check_standing(app, deck)
        await search(p, "type:hero")
        assert [c.name for c in found(app)][:5] == heroes
        for n in range(5):
            await p.press("enter", "down")  # type: ignore[attr-defined]
            await settle(p)
            check_standing(app, deck)
            assert app.session.opened.loaded.deck.size == n + 1
        assert app.last_standing and app.last_standing.report.status == "legal"
        await p.press("enter")  # type: ignore[attr-defined]  # a sixth hero: illegal
        await settle(p)
        check_standing(app, deck)
        assert app.last_standing.report.status == "illegal"
        # the deck's cursor on the sixth hero's line, then one copy fewer
        app.query_one("#deck").focus()
        await p.press(*["down"] * 8, "minus")  # type: ignore[attr-defined]
        await settle(p)
        check_standing(app, deck)
        assert app.last_standing.report.status == "legal"
        await p.press("u")  # type: ignore[attr-defined]
        await settle(p)
        assert app.session.opened.loaded.deck.size == 6
        await p.press("ctrl+r")  # type: ignore[attr-defined]
        await settle(p)
        assert app.session.opened.loaded.deck.size == 5
        assert not deck.exists()  # nothing written before the first save
        await p.press("s")  # type: ignore[attr-defined]
        await settle(p)
        assert not app.session.dirty
        await p.press("q")  # type: ignore[attr-defined]

    drive(app, (100, 30), steps)
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
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    deck = tmp_path / "stack.txt"
    api.new("the-drake", deck, variant="custom")
    deck.write_bytes(deck.read_bytes().replace(b"\n", b"\r\n"))
    app = BuildApp(BuildSession(deck), seed=1)

    async def steps(p: object) -> None:
        await search(p, "Drake")
        assert found(app)[0].name == "Drake"
        assert "Drake" in str(app.query_one("#details").render())
        for name in ("Drake", "Clubman"):
            await search(p, name)
            await p.press("enter")  # type: ignore[attr-defined]
            await settle(p)
            check_standing(app, deck)
        await search(p, "Monk")  # by mouse: a click on the highlighted row adds it
        await p.click("#results", offset=(3, 1))  # type: ignore[attr-defined]
        await settle(p)
        check_standing(app, deck)
        assert app.last_standing and app.last_standing.report.status == "legal"
        with pytest.raises(Exception) as odds_error:
            api.odds(str(deck), ["name:Drake>=1"])
        assert app.odds_view is not None
        assert app.odds_view.message in str(odds_error.value)
        await p.press("ctrl+s")  # type: ignore[attr-defined]
        await settle(p)
        # a change made elsewhere: saving asks, and reload takes it
        deck.write_bytes(deck.read_bytes() + b"Archer\r\n")
        await p.press("minus", "s")  # type: ignore[attr-defined]
        await settle(p)
        await p.press("r")  # type: ignore[attr-defined]  # Reload
        await settle(p)
        assert app.session.opened.loaded.deck.size == 4
        assert not app.session.dirty

    drive(app, (80, 24), steps)
    data = deck.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")  # line ends kept
    assert b"# deckcheck add / remove edit this file" in data
    assert api.validate([deck]).exit_code == 0


def test_ren_dhark_odds_and_playtest_equal_the_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit the odds by turn are ``odds --by-turn``'s (and without the mulligan),
    the playtest hand is ``hand --seed``'s, a redraw by hand follows the rule."""
    monkeypatch.chdir(tmp_path)
    for name in ("terra-custom.txt", "resource-points.toml"):
        shutil.copy(EXAMPLES / "ren-dhark" / name, tmp_path / name)
    deck = tmp_path / "terra-custom.txt"
    seed = 4  # its first hand holds one ship: the rule offers a redraw

    async def steps(p: object) -> None:
        await search(p, "Antisféra")
        await p.press("minus")  # type: ignore[attr-defined]
        await settle(p)
        check_standing(app, deck)
        probe = tmp_path / "probe.txt"
        probe.write_text(app.session.text, encoding="utf-8")
        expected = api.odds(str(probe), ["type:ship>=2"], by_turn=6)
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
        await settle(p)
        assert app.last_playtest.redraws == 1
        assert [c.id for c in app.last_playtest.kept] == [c.id for c in hand.kept]
        await p.press("m", "d")  # type: ignore[attr-defined]  # no second redraw; a turn
        await settle(p)
        assert app.last_playtest.redraws == 1 and len(app.last_playtest.turns) == 1
        await search(p, "colr:blue")
        await settle(p)
        assert "did you mean" in str(app.query_one("#message").render())  # no crash
        app.query_one("#conditions").value = "type:ship>=>2"
        app.query_one("#conditions").focus()
        await p.press("enter")  # type: ignore[attr-defined]
        await settle(p)
        assert app.odds_view is not None and app.odds_view.message  # said in the pane
        assert app.focused is app.query_one("#odds-view")  # Enter left the box
        app.query_one("#conditions").value = ""  # empty: the game's example again
        app.query_one("#conditions").focus()
        await p.press("enter")  # type: ignore[attr-defined]
        app.query_one("#results").focus()
        await p.press("h")  # type: ignore[attr-defined]  # a new hand, hand's with its seed
        await settle(p)
        shown_seed = app.query_one(PlaytestPane).seed
        again = api.hand(str(probe), ["type:ship>=2"], seed=shown_seed).hands[0]
        assert app.last_playtest is not None
        assert [c.id for c in app.last_playtest.kept] == [c.id for c in again.kept]
        await p.press("q")  # type: ignore[attr-defined]  # unsaved: asks first
        await settle(p)
        assert isinstance(app.screen, Confirm)
        await p.press("escape")  # type: ignore[attr-defined]
        await settle(p)
        assert not isinstance(app.screen, Confirm) and app.session.dirty

    # a relative path, as a user types it: the title shows it, the same in every checkout
    app = BuildApp(BuildSession(deck.name), seed=seed)
    drive(app, (80, 24), steps)


def test_stccg_deck_built_from_nothing_in_the_session(tmp_path: Path) -> None:
    """A 60-card STCCG deck built card by card from ``new``'s file (the session the app
    drives, without the screen): legal at the end, standing and odds as the commands say."""
    deck = tmp_path / "fed.txt"
    example = api.validate([EXAMPLES / "stccg-1e" / "legal-federation.txt"]).outcomes[0]
    assert example.report is not None
    session = BuildSession(deck, new_text=new_deck_text(deck, "stccg-1e", None))
    source = BuildSession(EXAMPLES / "stccg-1e" / "legal-federation.txt")
    for line in source.deck_lines():
        session.add(line.card, line.count)
    assert session.standing().report.status == "legal"
    shown = [row.progress.text for row in session.standing().rules]
    assert shown[:2] == ["60/60 cards", "6/6 missions"]
    session.undo()
    assert session.standing().report.status == "illegal"
    # a deck its variant refuses and another accepts says so, as validate does
    other = BuildSession(EXAMPLES / "stccg-1e" / "illegal-size.txt").standing()
    assert other.hints == (api.validate([other.report.deck]).outcomes[0].report.legal_under_hint,)
    assert other.hints[0].startswith("legal under advanced")
    session.redo()
    session.save()
    assert api.validate([deck]).exit_code == 0
    odds = session.odds(["type:personnel>=3"])
    expected = api.odds(str(deck), ["type:personnel>=3"], by_turn=6)
    assert [t[2] for t in odds.turns] == [r.probability for r in expected.by_turn]
    assert session.odds(["type:personnel>>3"]).message  # a message, never a crash


def test_planetary_conquerors_playtest_plays_the_optimal_return() -> None:
    """A return-cards mulligan: the hand is ``hand``'s, and the advice line names the same
    choice the policy made, with the exact chance kept and after the return."""
    deck = EXAMPLES / "planetary-conquerors" / "legal-50.txt"
    session = BuildSession(deck)
    for seed in (1, 3):
        shown = deal(session.opened.loaded, seed, ["type:warrior>=2"], None, 1)
        hand = api.hand(str(deck), ["type:warrior>=2"], seed=seed).hands[0]
        assert [c.id for c in shown.kept] == [c.id for c in hand.kept]
        returned = hand.decisions[0].startswith("returned")
        assert shown.advice.startswith("optimal: return 3" if returned else "optimal: keep")
        assert len(shown.turns) == 1 and len(shown.turns[0]) == 2  # two draws a turn


def test_saving_never_loses_a_change_made_elsewhere(tmp_path: Path) -> None:
    """A file changed, made or removed on disk since it was read: saving refuses (nothing
    written) until told to overwrite; reload takes the disk's and undo brings the edit back."""
    deck = tmp_path / "party.txt"
    session = BuildSession(deck, new_text=new_deck_text(deck, "dorn", None))
    hero = session.opened.loaded.catalog.by_id("hero/gor")
    assert hero is not None
    session.add(hero)
    deck.write_text("game: dorn\nRagnar\n", encoding="utf-8")  # made meanwhile
    with pytest.raises(SaveConflict, match="was made on disk"):
        session.save()
    assert deck.read_text(encoding="utf-8") == "game: dorn\nRagnar\n"
    session.reload()
    assert [line.card.name for line in session.deck_lines()] == ["Ragnar"]
    session.undo()  # the edit comes back, on the text it was made on
    assert [line.card.name for line in session.deck_lines()] == ["Gor"]
    session.save(overwrite=True)
    assert api.validate([deck]).outcomes[0].report.card_count == 1  # type: ignore[union-attr]
    deck.unlink()
    with pytest.raises(SaveConflict, match="was removed"):
        session.save()
