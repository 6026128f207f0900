"""The builder half: ``new`` writes a deck to fill in, ``add``/``remove`` edit a deck in place
keeping its format byte for byte apart from the edited lines, and never lose the file."""

from __future__ import annotations

import difflib
import json
import os
import signal
from pathlib import Path

import pytest
from conftest import invoke
from process_helpers import call_forked

from deckcheck.commands.deckfile import edit_deck, find_card, new_deck
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import load_deck
from deckcheck.decks.parse import read_deck
from deckcheck.export.formats import render
from deckcheck.inplace.edit import apply_changes
from deckcheck.inplace.rewrite import Change

REPO = Path(__file__).resolve().parents[2]
KLINGON = REPO / "examples" / "stccg-1e" / "legal-klingon.txt"
LACKEY = REPO / "examples" / "stccg-1e" / "legal-klingon-lackey.txt"
TERRA = REPO / "examples" / "ren-dhark" / "terra-custom.txt"


def _copy(source: Path, tmp_path: Path, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    target.write_bytes(source.read_bytes())
    for overlay in source.parent.glob("*.toml"):  # the overlays a deck names travel along
        (tmp_path / overlay.name).write_bytes(overlay.read_bytes())
    return target


def _changed(before: bytes, after: bytes) -> list[str]:
    """The diff lines (with their ends) between two versions of a file."""
    old = before.decode("utf-8").splitlines(keepends=True)
    new = after.decode("utf-8").splitlines(keepends=True)
    return [
        line
        for line in difflib.unified_diff(old, new, n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _exported(tmp_path: Path, fmt: str, name: str, deck: Path = KLINGON) -> Path:
    loaded = load_deck(deck)
    target = tmp_path / name
    target.write_text(render(loaded, fmt, target), encoding="utf-8", newline="")
    return target


# --- add / remove, one format at a time -------------------------------------------------------


def test_text_count_changes_on_its_own_line(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    before = deck.read_bytes()
    result = edit_deck(deck, "Gowron", 2)
    assert _changed(before, deck.read_bytes()) == ["-1 Gowron\n", "+3 Gowron\n"]
    assert result.copies == 3
    assert result.standing.startswith("62/60 cards · 6/6 missions · 22/≤31 seed cards")
    assert result.standing.endswith(" · 1 finding")
    assert [v.code for v in result.brought] == ["stccg.size"]
    result = edit_deck(deck, "Gowron", 2, remove=True)
    assert deck.read_bytes() == before  # back to the byte
    assert result.standing.startswith("60/60 cards · 6/6 missions")
    assert result.standing.endswith(" · 0 findings")
    assert [v.code for v in result.cleared] == ["stccg.size"]


def test_text_new_card_goes_after_its_type_and_comments_stay(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    before = deck.read_bytes()
    edit_deck(deck, "Worf", 1)
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert _changed(before, deck.read_bytes()) == ["+1 Worf\n"]
    personnel = [i for i, ln in enumerate(lines) if ln.startswith("# Personnel")]
    assert lines.index("1 Worf") > personnel[0]
    edit_deck(deck, "Worf", 1, remove=True)
    assert deck.read_bytes() == before  # the line goes at 0 copies


def test_lackey_text_keeps_crlf_tabs_and_zones(tmp_path: Path) -> None:
    deck = _copy(LACKEY, tmp_path)
    before = deck.read_bytes()
    edit_deck(deck, "Gowron", 1)
    assert _changed(before, deck.read_bytes()) == ["-1\tGowron\r\n", "+2\tGowron\r\n"]
    edit_deck(deck, "Worf", 2, zone="QsTent")
    text = deck.read_bytes().decode("utf-8")
    assert text.endswith("QsTent:\r\n2\tWorf\r\n")
    assert "\n" not in text.replace("\r\n", "")
    loaded = load_deck(deck)
    assert loaded.deck.side_zones() == {"QsTent": 2} and loaded.deck.size == 61


def test_lackey_new_mission_goes_under_missions(tmp_path: Path) -> None:
    deck = _copy(LACKEY, tmp_path)
    before = deck.read_bytes()
    result = edit_deck(deck, "Espionage Mission", 1)
    assert result.zone == "Missions"
    text = deck.read_bytes().decode("utf-8")
    missions = text.split("Missions:\r\n")[1].split("Seed+Dil:")[0]
    assert "\tEspionage Mission\r\n" in missions
    assert len(_changed(before, deck.read_bytes())) == 1


def test_dek_copies_and_removes_card_elements(tmp_path: Path) -> None:
    deck = _exported(tmp_path, "dek", "deck.dek")
    before = deck.read_bytes()
    element = next(ln for ln in before.decode().split("\r\n") if ">Gowron<" in ln) + "\r\n"
    edit_deck(deck, "Gowron", 2)
    assert _changed(before, deck.read_bytes()) == ["+" + element] * 2
    edit_deck(deck, "Gowron", 3, remove=True)
    assert _changed(before, deck.read_bytes()) == ["-" + element]
    edit_deck(deck, "Worf", 1, zone="Aside")
    loaded = load_deck(deck)
    assert loaded.deck.side_zones() == {"Aside": 1} and loaded.source.format == "dek"


def test_toml_key_rewritten_added_and_removed(tmp_path: Path) -> None:
    deck = _exported(tmp_path, "toml", "deck.toml", TERRA)
    before = deck.read_bytes()
    edit_deck(deck, "POINT OF", 1, remove=True)
    assert _changed(before, deck.read_bytes()) == ['-"POINT OF" = 2\n', '+"POINT OF" = 1\n']
    edit_deck(deck, "POINT OF", 1, remove=True)
    assert _changed(before, deck.read_bytes()) == ['-"POINT OF" = 2\n']
    edit_deck(deck, "GSAL", 1)
    assert '+"GSAL" = 1\n' in _changed(before, deck.read_bytes())
    assert load_deck(deck).deck.counts().get("I/25") is None


def test_json_element_rewritten_added_and_removed(tmp_path: Path) -> None:
    deck = _exported(tmp_path, "json", "deck.json", TERRA)
    before = deck.read_bytes()
    edit_deck(deck, "POINT OF", 1)
    assert _changed(before, deck.read_bytes()) == ['-      "count": 2,\n', '+      "count": 3,\n']
    edit_deck(deck, "POINT OF", 3, remove=True)
    gone = _changed(before, deck.read_bytes())
    assert all(line.startswith("-") for line in gone) and '-      "name": "POINT OF",\n' in gone
    edit_deck(deck, "GSAL", 2)
    data = json.loads(deck.read_text(encoding="utf-8"))
    assert {"count": 2, "id": "I/53", "name": "GSAL", "type": "ship"} in data["cards"]
    assert load_deck(deck).deck.counts()["I/53"] == 2


@pytest.mark.parametrize(
    ("codec", "bom"),
    [("utf-8-sig", b"\xef\xbb\xbf"), ("utf-16", b"\xff\xfe"), ("cp1250", b"")],
)
def test_encoding_and_byte_order_mark_are_kept(tmp_path: Path, codec: str, bom: bytes) -> None:
    text = "game: ren-dhark\r\nname: Žluťoučký kůň, šťastný\r\n# ěščř\r\n2 POINT OF\r\n1 NOGK\r\n"
    deck = tmp_path / "deck.txt"
    deck.write_bytes(text.encode(codec))
    edit_deck(deck, "NOGK", 1)
    data = deck.read_bytes()
    assert data.startswith(bom)
    assert data.decode(codec) == text.replace("1 NOGK", "2 NOGK")


def test_a_file_without_a_final_line_end(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("game: ren-dhark\n2 POINT OF", encoding="utf-8")
    edit_deck(deck, "POINT OF", 1, remove=True)
    assert deck.read_text(encoding="utf-8") == "game: ren-dhark\n1 POINT OF"
    edit_deck(deck, "NOGK", 1)
    assert deck.read_text(encoding="utf-8") == "game: ren-dhark\n1 POINT OF\n1 NOGK"


# --- the card and the zone are read as validation reads them ---------------------------------


def test_card_is_read_like_a_deck_line(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    assert edit_deck(deck, "KURAK", 1).card.id == edit_deck(deck, "101_277", 1).card.id
    with pytest.raises(UsageError) as info:
        edit_deck(deck, "Gowrron", 1)
    assert "Gowron" in str(info.value)
    with pytest.raises(UsageError, match="give the id"):
        edit_deck(deck, "Worf *TNG", 1)


def test_zone_errors(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    with pytest.raises(UsageError, match="zones: Deck, Missions"):
        edit_deck(deck, "Gowron", 1, zone="Sideboard")
    terra = _copy(TERRA, tmp_path)
    with pytest.raises(UsageError, match="no zones"):
        edit_deck(terra, "NOGK", 1, zone="Missions")


def test_removing_more_than_held_changes_nothing(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    before = deck.read_bytes()
    with pytest.raises(UsageError, match="holds 1 Gowron"):
        edit_deck(deck, "Gowron", 2, remove=True)
    with pytest.raises(UsageError, match="holds no Worf"):
        edit_deck(deck, "Worf", 1, remove=True)
    assert deck.read_bytes() == before


def test_a_card_in_two_zones_needs_the_zone(tmp_path: Path) -> None:
    deck = _copy(LACKEY, tmp_path)
    edit_deck(deck, "Gowron", 1, zone="QsTent")
    with pytest.raises(UsageError, match="--zone"):
        edit_deck(deck, "Gowron", 1, remove=True)
    edit_deck(deck, "Gowron", 1, remove=True, zone="QsTent")
    assert load_deck(deck).deck.side_zones() == {}


def test_formats_not_edited_say_what_to_do(tmp_path: Path) -> None:
    deck = _exported(tmp_path, "gemp", "deck.gemp")
    with pytest.raises(UsageError, match="export it"):
        edit_deck(deck, "Gowron", 1)


# --- the command line -----------------------------------------------------------------------


def test_add_and_remove_commands(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    result = invoke(["add", str(deck), "Gowron", "2"])
    assert result.exit_code == 0, result.output
    assert "added 2 Gowron" in result.stdout
    assert "standing: 62/60 cards · 6/6 missions · " in result.stdout
    assert "stccg.size" in result.stdout
    data = json.loads(invoke(["remove", str(deck), "Gowron", "2", "--json"]).stdout)
    assert data["standing"].startswith("60/60 cards · 6/6 missions · ")
    assert data["cleared"][0]["code"] == "stccg.size"
    bad = invoke(["add", str(deck), "Gowrron"])
    assert bad.exit_code == 2 and "did you mean" in bad.stderr


def test_new_writes_a_deck_to_fill_in(tmp_path: Path) -> None:
    target = tmp_path / "mine.txt"
    result = invoke(["new", "stccg-1e", "-o", str(target)])
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert "game: stccg-1e\nvariant: standard\n" in text
    assert "\nMissions:\n" in text and "\nSeed+Dil:\n" in text
    assert "#   60 cards (stccg.size)\n#   6 missions (stccg.missions)\n" in text
    again = invoke(["new", "stccg-1e", "-o", str(target)])
    assert again.exit_code == 2 and "--force" in again.stderr
    edit_deck(target, "Explore Black Cluster", 1)
    assert load_deck(target).deck.entries[0].zone == "Missions"


@pytest.mark.parametrize(
    "game", ["ren-dhark", "stccg-1e", "planetary-conquerors", "dorn", "the-drake"]
)
@pytest.mark.parametrize("suffix", [".txt", ".toml", ".json"])
def test_new_deck_of_every_game_reads_back(tmp_path: Path, game: str, suffix: str) -> None:
    target = tmp_path / f"deck{suffix}"
    new_deck(game, target)
    source = read_deck(target)
    assert source.game == game and source.lines == ()


def test_new_starter_is_the_starter(tmp_path: Path) -> None:
    target = tmp_path / "red.txt"
    made = new_deck("ren-dhark", target, variant="starter", starter="red")
    assert made.cards == 34
    result = invoke(["validate", str(target)])
    assert result.exit_code == 0, result.output
    with pytest.raises(UsageError, match="starters: blue, red"):
        new_deck("ren-dhark", tmp_path / "x.txt", variant="starter", starter="green")


# --- never a lost file ----------------------------------------------------------------------


@pytest.mark.parametrize("step", ["replace", "fsync"])
def test_killed_between_write_and_rename_the_file_is_whole(tmp_path: Path, step: str) -> None:
    deck = _copy(KLINGON, tmp_path)
    before = deck.read_bytes()

    def killed_at_the_step() -> None:
        """In a forked child (its own copy of every module): the process is killed where the
        writer calls ``os.<step>``, its temporary file written and the deck not yet replaced."""
        import deckcheck.inplace.atomic as write

        def die(*_args: object, **_kwargs: object) -> None:
            os.kill(os.getpid(), signal.SIGKILL)

        setattr(write.os, step, die)
        edit_deck(deck, "Gowron", 5)

    done = call_forked(killed_at_the_step, f"edit_deck killed at os.{step}")
    assert done.code == -signal.SIGKILL, done.stderr
    assert deck.read_bytes() == before  # the old file, whole
    assert load_deck(deck).deck.size == 60


def test_several_changes_at_once_for_fix_write(tmp_path: Path) -> None:
    deck = _copy(KLINGON, tmp_path)
    loaded = load_deck(deck)
    gowron, worf = find_card("Gowron", loaded), find_card("Worf", loaded)
    before = deck.read_bytes()
    apply_changes(deck, [Change(gowron, -1), Change(worf, 2)])
    assert sorted(_changed(before, deck.read_bytes())) == ["+2 Worf\n", "-1 Gowron\n"]
