"""``deckcheck legality``: a deck under every variant of its game (every game), and the
one-line hint of ``validate`` when a deck fails its variant but passes another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck import api
from deckcheck.games.registry import all_games

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# one deck per game, and the status it has under its own variant
DECKS = {
    "ren-dhark": ("ren-dhark/terra-custom.txt", "legal"),
    "stccg-1e": ("stccg-1e/legal-klingon-lackey.txt", "legal"),
    "planetary-conquerors": ("planetary-conquerors/legal-50.txt", "legal"),
    "dorn": ("dorn/four-heroes.txt", "legal"),
    "the-drake": ("the-drake/custom-stack.txt", "legal"),
}


def test_every_game_has_a_deck_here() -> None:
    assert set(DECKS) == set(all_games())


@pytest.mark.parametrize("game", sorted(DECKS))
def test_one_row_per_variant_of_every_game(game: str) -> None:
    deck, own_status = DECKS[game]
    result = invoke(["legality", str(EXAMPLES / deck), "--json"])
    data = json.loads(result.stdout)
    assert set(data) >= {"deck", "game", "variants"} and data["game"] == game
    assert [row["variant"] for row in data["variants"]] == list(all_games()[game].variants)
    for row in data["variants"]:
        assert set(row) == {"variant", "status", "codes"}
        assert row["status"] in ("legal", "illegal", "unverified")
        assert (row["status"] == "legal") == (not row["codes"]) or row["status"] == "unverified"
    own = next(r for r in data["variants"] if r["variant"] == data["variant"])
    assert own["status"] == own_status
    assert result.exit_code == 0


def test_a_lackey_deck_is_legal_under_modern_and_open_only() -> None:
    result = api.legality(str(EXAMPLES / "stccg-1e" / "illegal-size.txt"))
    rows = {r.variant: r for r in result.variants}
    assert rows["standard"].status == "illegal" and "stccg.size" in rows["standard"].codes
    assert rows["warp-speed"].codes  # 6 missions where Warp Speed takes 3


def test_validate_says_which_other_variant_a_failing_deck_passes(tmp_path: Path) -> None:
    deck = EXAMPLES / "stccg-1e" / "legal-modern-federation.txt"
    text = deck.read_text(encoding="utf-8").replace("format: modern", "format: standard")
    path = tmp_path / "d.txt"
    path.write_text(text + "1 Tox Uthat\n", encoding="utf-8")
    result = invoke(["validate", str(path), "--json"])
    data = json.loads(result.stdout)
    assert data["status"] == "illegal"
    assert data["legal_under"] == ["advanced", "open", "traditional"]
    shown = invoke(["validate", str(path)])
    assert "legal under advanced, open, traditional: --format advanced" in shown.output
    # a legal deck gets no hint
    data = json.loads(invoke(["validate", str(deck), "--json"]).stdout)
    assert "legal_under" not in data


def test_legality_reads_standard_input_once_for_every_variant() -> None:
    text = (EXAMPLES / "dorn" / "four-heroes.txt").read_text(encoding="utf-8")
    result = invoke(["legality", "-", "--json"], stdin=text)
    data = json.loads(result.stdout)
    assert len(data["variants"]) == len(all_games()["dorn"].variants)
