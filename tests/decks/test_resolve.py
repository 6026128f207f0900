"""Name resolution: folding, ids, ambiguous names, unknown lines, game detection."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.core.errors import UnknownCardsError, UsageError
from deckcheck.decks.load import LoadedDeck, resolve_source
from deckcheck.decks.parse import parse_deck
from deckcheck.games.context import make_context
from deckcheck.games.registry import all_games


def load(text: str, label: str = "deck.txt", **kwargs: object) -> LoadedDeck:
    return resolve_source(parse_deck(text, label), make_context(**kwargs))  # type: ignore[arg-type]


def ids(loaded: LoadedDeck) -> list[tuple[str, int]]:
    return [(e.card.id, e.count) for e in loaded.deck]


def unknown(text: str, **kwargs: object) -> UnknownCardsError:
    with pytest.raises(UnknownCardsError) as info:
        load(text, **kwargs)
    return info.value


# --------------------------------------------------------------------------------------------
# spellings


@pytest.mark.parametrize(
    ("spelling", "card_id"),
    [
        ("BLÜCHER", "I/26"),
        ("BLUCHER", "I/26"),
        ("blücher", "I/26"),
        ("Blucher", "I/26"),
        ("POINT OF", "I/25"),
        ("point of", "I/25"),
        ("POINT    OF", "I/25"),
        ("POINT\u00a0OF", "I/25"),
        ("Omer Giray", "I/4"),
        ("ÖMER GIRAY", "I/4"),
        ("křižník G’Loornů", "I/56"),  # curly apostrophe
        ("křižník G'Loornů", "I/56"),
        ("KRIZNIK G`LOORNU", "I/56"),
        ("I/25", "I/25"),
        ("i/25", "I/25"),
        ("I/67", "I/67"),
    ],
)
def test_spellings_resolve(spelling: str, card_id: str) -> None:
    loaded = load(f"game: ren-dhark\n2 {spelling}\n")
    assert ids(loaded) == [(card_id, 2)]
    assert loaded.deck.entries[0].line == 2


def test_ids_work_in_every_count_form() -> None:
    loaded = load("game: ren-dhark\n2x I/25\ni/26 x2\n3\tI/13\nI/14\n")
    assert ids(loaded) == [("I/25", 2), ("I/26", 2), ("I/13", 3), ("I/14", 1)]


def test_ids_work_in_toml_and_json() -> None:
    toml = resolve_source(
        parse_deck('game = "ren-dhark"\n[cards]\n"i/25" = 2\nNOGK = 1\n', "d.toml", Path("d.toml"))
    )
    assert ids(toml) == [("I/25", 2), ("I/16", 1)]
    js = load('{"game": "ren-dhark", "cards": [{"id": "i/26", "count": 2}, {"name": "blucher"}]}')
    assert ids(js) == [("I/26", 2), ("I/26", 1)]
    assert js.deck.counts()["I/26"] == 3


def test_zero_count_line_is_dropped() -> None:
    loaded = load("game: ren-dhark\n0 NOGK\nRIOBE\n")
    assert ids(loaded) == [("I/14", 1)]


# --------------------------------------------------------------------------------------------
# ambiguous and unknown names


def test_shared_name_of_different_cards_is_ambiguous() -> None:
    error = unknown("game: ren-dhark\nNOGK\n2 Vojáci\n")
    assert len(error.unresolved) == 1
    line = error.unresolved[0]
    assert line.reason == "ambiguous name"
    assert line.line == 3
    assert line.text == "Vojáci"
    joined = " ".join(line.candidates)
    for card_id in ("I/12", "I/43", "I/44"):
        assert card_id in joined
    assert len(line.candidates) == 3
    assert "I/12" in str(error)
    assert "deck.txt:3" in str(error)


def test_ambiguous_name_resolved_by_id() -> None:
    loaded = load("game: ren-dhark\nI/12\nI/43\n")
    assert [e.card.name for e in loaded.deck] == ["Vojáci", "Vojáci"]


def test_shared_name_is_ambiguous_where_copies_count_by_number() -> None:
    # Ren Dhark counts copies by card number, so its game.toml makes every shared name
    # ambiguous (identity_fields = ["id"]): I/7 and I/8 are both "Černá garda".
    with pytest.raises(UnknownCardsError) as err:
        load("game: ren-dhark\n2 Černá garda\n")
    assert err.value.unresolved[0].reason == "ambiguous name"
    assert any(c.startswith("I/8") for c in err.value.unresolved[0].candidates)


def test_shared_name_of_cards_differing_in_points_is_ambiguous(tmp_path: Path) -> None:
    overlay = tmp_path / "points.toml"
    overlay.write_text(
        '[catalog]\ngame = "ren-dhark"\n[[cards]]\nid = "I/7"\nresource_points = 3\n'
        '[[cards]]\nid = "I/8"\nresource_points = 5\n',
        encoding="utf-8",
    )
    error = unknown("game: ren-dhark\n2 Černá garda\n", catalogs=[overlay])
    assert error.unresolved[0].reason == "ambiguous name"


def test_every_unknown_line_reported_together() -> None:
    text = "game: ren-dhark\nPOINT OFF\nNOGK\nfoo bar baz qux\n2 Ren Dhak\nxyz/99\n"
    error = unknown(text)
    assert [(u.line, u.text, u.reason) for u in error.unresolved] == [
        (2, "POINT OFF", "unknown card"),
        (4, "foo bar baz qux", "unknown card"),
        (5, "Ren Dhak", "unknown card"),
        (6, "xyz/99", "unknown card"),
    ]
    by_line = {u.line: u for u in error.unresolved}
    assert by_line[2].suggestions[0] == "POINT OF"
    assert by_line[5].suggestions[0] == "Ren Dhark"
    assert all(len(u.suggestions) <= 3 for u in error.unresolved)
    message = str(error)
    assert "4 deck lines" in message
    for number in (2, 4, 5, 6):
        assert f"deck.txt:{number}:" in message
    assert "did you mean: POINT OF" in message
    assert error.source is None


def test_suggestions_are_capped_at_three() -> None:
    error = unknown("game: stccg-1e\nRule of Acquistion\n")
    assert 1 <= len(error.unresolved[0].suggestions) <= 3


def test_unknown_lines_in_toml_have_line_numbers() -> None:
    source = parse_deck(
        'game = "ren-dhark"\n[cards]\nNOGK = 1\n"NOPE" = 2\n', "d.toml", Path("d.toml")
    )
    with pytest.raises(UnknownCardsError) as info:
        resolve_source(source)
    assert [(u.line, u.text) for u in info.value.unresolved] == [(4, "NOPE")]
    assert "d.toml:4" in str(info.value)


# --------------------------------------------------------------------------------------------
# a number that is part of the name


def test_leading_number_that_is_part_of_the_name() -> None:
    loaded = load(
        "game: stccg-1e\n1,000 Tribbles - Bonus\n2 1,000 Tribbles - Bonus\n"
        "10 and 01\n1st Rule of Acquisition\n"
    )
    got = [(e.card.name, e.count) for e in loaded.deck]
    assert got == [
        ("1,000 Tribbles - Bonus", 1),
        ("1,000 Tribbles - Bonus", 2),
        ("10 and 01", 1),
        ("1st Rule of Acquisition", 1),
    ]


# --------------------------------------------------------------------------------------------
# game detection


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("BLÜCHER\n2 POINT OF\n", "ren-dhark"),
        ("I/25\nI/67\n", "ren-dhark"),
        ("Drake\nClubman\nMnich\n", "the-drake"),
        ("Kaerdrak\nChoros\n", "dorn"),
        ("Gold Miner\nCollector of Cosmium\n", "planetary-conquerors"),
    ],
)
def test_game_detected_from_cards(text: str, game: str) -> None:
    assert load(text).game.id == game


def test_no_game_knows_the_cards() -> None:
    with pytest.raises(UsageError) as info:
        load("BLÜCHER\nDefinitely No Such Card\n")
    text = str(info.value)
    assert "deck.txt" in text
    for game_id in all_games():
        assert game_id in text
    assert "ren-dhark (1 unknown)" in text


def test_several_games_know_the_cards() -> None:
    with pytest.raises(UsageError) as info:
        load("Archer\n")
    assert "stccg-1e" in str(info.value)
    assert "the-drake" in str(info.value)


def test_game_option_used_when_deck_names_none() -> None:
    assert load("Archer\n", game="the-drake").game.id == "the-drake"


def test_game_header_and_option_disagree() -> None:
    with pytest.raises(UsageError) as info:
        load("game: ren-dhark\nNOGK\n", game="dorn")
    assert "ren-dhark" in str(info.value)
    assert "dorn" in str(info.value)


def test_unknown_game_header() -> None:
    with pytest.raises(UsageError) as info:
        load("game: ren-dark\nNOGK\n")
    assert "ren-dhark" in str(info.value)  # lists the known games


def test_detection_uses_overlays(tmp_path: Path) -> None:
    overlay = tmp_path / "set.toml"
    overlay.write_text(
        '[catalog]\ngame = "planetary-conquerors"\n'
        '[[cards]]\nname = "Zork Blaster"\ntype = "warrior"\nrarity = 1\n',
        encoding="utf-8",
    )
    loaded = load("Zork Blaster\nGold Miner\n", catalogs=[overlay])
    assert loaded.game.id == "planetary-conquerors"
    assert [e.card.name for e in loaded.deck] == ["Zork Blaster", "Gold Miner"]
