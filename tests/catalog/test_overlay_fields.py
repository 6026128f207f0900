"""Overlays as a newcomer writes them: a list field given as one text, a missing overlay named
in a deck's header, and the overlay paths an export to standard output writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from deckcheck.catalog.load import apply_overlay, check_overlay, parse_document
from deckcheck.games.registry import all_games

STCCG_DECK = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
RD_DECK = EXAMPLES / "ren-dhark" / "illegal-mixed.txt"


def _list_fields() -> list[tuple[str, str]]:
    return sorted(
        (game.id, name)
        for game in all_games().values()
        for name, spec in game.field_specs.items()
        if spec.kind == "list"
    )


@pytest.mark.parametrize(("game_id", "field"), _list_fields())
def test_every_list_field_given_as_one_text_is_a_one_element_list(game_id: str, field: str) -> None:
    game = all_games()[game_id]
    spec = game.field_specs[field]
    value = spec.values[0] if spec.values else "Klingon"
    lines = ["[catalog]", f'game = "{game_id}"', "", "[[cards]]", 'name = "My New Card"']
    if field != "type":
        lines.append('type = "Thing"')
    lines.append(f'{field} = "{value}"')
    doc = parse_document("\n".join(lines) + "\n", "mine.toml")
    base = game.bundled_catalog()
    assert check_overlay(base, doc) == []
    card = apply_overlay(base, doc).by_name("My New Card")[0]
    assert card.get(field) == [value]


def test_affiliation_as_text_is_one_affiliation_not_letters(tmp_path: Path) -> None:
    overlay = tmp_path / "my.toml"
    overlay.write_text(
        '[catalog]\ngame = "stccg-1e"\n\n[[cards]]\nname = "My Ship"\ntype = "Ship"\n'
        'affiliation = "Klingon"\nkeywords = "Tractor Beam"\nicons = "AU"\n',
        encoding="utf-8",
    )
    assert run_cli(["catalog", "check", overlay]).exit_code == 0
    deck = tmp_path / "deck.txt"
    deck.write_text(
        "catalog: my.toml\n" + STCCG_DECK.read_text(encoding="utf-8") + "1 My Ship\n",
        encoding="utf-8",
    )
    result = run_cli(["validate", "--json", deck])
    report = json.loads(result.stdout)
    codes = [v["code"] for v in report["violations"]]
    assert codes == ["stccg.size"]  # 61 cards; the Klingon Outpost covers My Ship
    assert "or g or" not in result.stdout
    cards = json.loads(
        run_cli(["cards", "stccg-1e", "My Ship", "--json", "--catalog", overlay]).stdout
    )
    assert cards[0]["affiliation"] == ["Klingon"]
    assert cards[0]["keywords"] == ["Tractor Beam"] and cards[0]["icons"] == ["AU"]


# --- a missing overlay named by the deck -----------------------------------------------------


def test_missing_overlay_in_a_text_header_names_the_deck_and_line(tmp_path: Path) -> None:
    deck = tmp_path / "terra-copy.txt"
    text = RD_DECK.read_text(encoding="utf-8").replace("resource-points.toml", "missing.toml")
    deck.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("catalog:"))
    result = run_cli(["validate", deck])
    assert result.exit_code == 2
    assert f"{deck}:{line}: catalog overlay 'missing.toml': no such file" in result.stderr
    assert str(tmp_path / "missing.toml") in result.stderr


def test_missing_overlay_in_a_toml_deck_names_the_deck_and_line(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('game = "ren-dhark"\ncatalog = ["sub/nope.toml"]\n[cards]\n"I/25" = 1\n')
    result = run_cli(["validate", deck])
    assert result.exit_code == 2
    assert f"{deck}:2: catalog overlay 'sub/nope.toml': no such file" in result.stderr


def test_overlay_that_is_a_folder_names_the_deck(tmp_path: Path) -> None:
    (tmp_path / "set.toml").mkdir()
    deck = tmp_path / "deck.txt"
    deck.write_text("game: ren-dhark\ncatalog: set.toml\n1 I/25\n", encoding="utf-8")
    result = run_cli(["validate", deck])
    assert result.exit_code == 2
    assert f"{deck}:2: catalog overlay 'set.toml': is a directory" in result.stderr


# --- export to standard output ---------------------------------------------------------------


def test_export_to_stdout_writes_overlays_relative_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(["export", RD_DECK, "--to", "text", "-o", "-", "--allow-illegal"])
    assert result.exit_code in (0, 1)
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("catalog:"))
    written = line.split(":", 1)[1].strip()
    assert not Path(written).is_absolute() and str(tmp_path) not in result.stdout
    saved = tmp_path / "shared.txt"
    saved.write_text(result.stdout, encoding="utf-8")
    assert run_cli(["validate", saved]).exit_code == run_cli(["validate", RD_DECK]).exit_code
