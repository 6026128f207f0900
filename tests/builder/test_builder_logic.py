"""The deck builder's answers below its screen (:mod:`deckcheck.builder`,
:class:`~deckcheck.commands.build.BuildSession`), checked without the app against the commands
that answer the same questions: the session's standing and odds against ``validate`` and
``odds``, the playtest deal and its mulligan against ``hand`` with the same seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES

from deckcheck import api
from deckcheck.builder.playtest import (
    by_type,
    deal,
    mulligan_name,
    new_deck_text,
    search_example,
    shown_name,
)
from deckcheck.commands.build import BuildSession, SaveConflict

PC = EXAMPLES / "planetary-conquerors" / "legal-50.txt"
RD = EXAMPLES / "ren-dhark" / "terra-custom.txt"


def test_stccg_deck_built_from_nothing_in_the_session(tmp_path: Path) -> None:
    """A 60-card STCCG deck built card by card from ``new``'s file: legal at the end,
    standing and odds as the commands say."""
    deck = tmp_path / "fed.txt"
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


def test_modern_standing_counts_every_rule_that_counts() -> None:
    """The standing's progress texts, as the CLI's progress line: counts, the reporting rule
    in words."""
    modern = BuildSession(EXAMPLES / "stccg-1e" / "legal-modern-federation.txt").standing()
    texts = [r.progress.text for r in modern.rules]
    assert "16/≤30 seed cards" in texts and "38/30+ draw cards" in texts
    assert "1/1+ reporting facility" in texts


def test_planetary_conquerors_playtest_plays_the_optimal_return() -> None:
    """A return-cards mulligan: the hand is ``hand``'s, and the advice line names the same
    choice the policy made, with the exact chance kept and after the return."""
    session = BuildSession(PC)
    for seed in (1, 3):
        shown = deal(session.opened.loaded, seed, ["type:warrior>=2"], None, 1)
        hand = api.hand(str(PC), ["type:warrior>=2"], seed=seed).hands[0]
        assert [c.id for c in shown.kept] == [c.id for c in hand.kept]
        returned = hand.decisions[0].startswith("returned")
        assert shown.advice.startswith("optimal: return 3" if returned else "optimal: keep")
        assert len(shown.turns) == 1 and len(shown.turns[0]) == 2  # two draws a turn


def test_a_return_chosen_by_hand_deals_what_hand_deals() -> None:
    """Returning, by hand, the cards the optimal policy names deals exactly ``hand``'s hand
    (the same random stream); a return of the wrong size is refused."""
    conditions = ["type:warrior>=2"]
    loaded = BuildSession(PC).opened.loaded
    seed = next(s for s in range(1, 40) if deal(loaded, s, conditions, 0, 0).best_return)
    first = deal(loaded, seed, conditions, 0, 0)
    assert first.to_return == 3 and len(first.best_return) == 3
    assert first.mulligan == "return-3 mulligan" and not first.manual
    assert "optimal: return 3" in first.advice and "after it" in first.advice
    by_hand = deal(loaded, seed, conditions, 0, 0, first.best_return)
    expected = api.hand(str(PC), conditions, seed=seed).hands[0]
    assert [c.id for c in by_hand.kept] == [c.id for c in expected.kept]
    assert by_hand.decisions[0].startswith("returned by you") and by_hand.manual
    assert by_hand.to_return == 0  # returned: nothing more to choose
    with pytest.raises(Exception, match="exactly 3 cards"):
        deal(loaded, seed, conditions, 0, 0, first.best_return[:2])


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


def test_names_mulligans_placeholders_and_groups() -> None:
    """A shared name carries its id and colour; each game's mulligan is named; the search
    example is a field the game's cards have; a hand groups by type, the largest first."""
    loaded = BuildSession(RD).opened.loaded
    catalog, spec = loaded.catalog, loaded.game.spec
    guards = [c for c in catalog if c.name == "Černá garda"]
    assert len(guards) == 2
    assert {shown_name(c, catalog, spec) for c in guards} == {
        f"Černá garda ({c.id}, {c.get('colour')})" for c in guards
    }
    ren = next(c for c in catalog if c.name == "Ren Dhark")
    assert shown_name(ren, catalog, spec) == "Ren Dhark"
    assert mulligan_name(spec.mulligan) == "redraw mulligan (once)"
    assert mulligan_name(None) == "no mulligan"
    assert mulligan_name(BuildSession(PC).opened.loaded.game.spec.mulligan) == "return-3 mulligan"
    field, _, value = search_example(catalog, spec).partition(":")
    assert any(c.get(field) == value or value in (c.get(field) or ()) for c in catalog)
    assert field != "cost"  # neither Ren Dhark nor STCCG has one
    cards = [ren, guards[0], guards[1]]
    assert by_type(cards) == [("unit", [(1, guards[0]), (2, guards[1])]), ("person", [(0, ren)])]
