"""Meta-test: every registered game ships legal and illegal example decks, and every example
deck loads without input errors and has the status its file name promises."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from deckcheck.commands.catalog_check import check_catalog_file
from deckcheck.core.violations import Report, Severity, Status
from deckcheck.decks.load import load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.games.registry import all_games

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def is_catalog(path: Path) -> bool:
    """A catalog overlay (a TOML file with a [catalog] table), not a deck."""
    if path.suffix.lower() != ".toml":
        return False
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return isinstance(data.get("catalog"), dict)


def example_files() -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return sorted(p for p in EXAMPLES.glob("*/*") if p.is_file() and not p.name.startswith("."))


def deck_files(folder: Path | None = None) -> list[Path]:
    if folder is None:
        files = example_files()
    else:
        files = sorted(p for p in folder.iterdir() if p.is_file())
    return [p for p in files if not is_catalog(p) and not p.name.startswith(".")]


def catalog_files() -> list[Path]:
    return [p for p in example_files() if is_catalog(p)]


# Showcase decks whose names do not say their status.
NAMED_LEGAL = {
    "ren-dhark/terra-custom",
    "ren-dhark/blue-starter",
    "ren-dhark/red-starter",
    "dorn/four-heroes",
    "dorn/first-game-party",
    "the-drake/standard-stack",
    "the-drake/custom-stack",
}


def expected_status(path: Path) -> Status | None:
    """What the file name promises ('illegal' is checked before 'legal')."""
    if f"{path.parent.name}/{path.stem}" in NAMED_LEGAL:
        return Status.LEGAL
    name = path.stem.lower()
    for word, status in (
        ("illegal", Status.ILLEGAL),
        ("unverified", Status.UNVERIFIED),
        ("legal", Status.LEGAL),
        ("warning", Status.LEGAL),
    ):
        if word in name:
            return status
    return None


def validate(path: Path) -> Report:
    return validate_loaded(load_deck(path))


def _rel(path: Path) -> str:
    return str(path.relative_to(EXAMPLES))


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_has_legal_and_illegal_examples(game_id: str) -> None:
    folder = EXAMPLES / game_id
    assert folder.is_dir(), f"no example folder {folder}"
    statuses = {validate(p).status for p in deck_files(folder)}
    assert Status.LEGAL in statuses, f"{game_id}: no legal example deck"
    assert Status.ILLEGAL in statuses, f"{game_id}: no illegal example deck"


def test_every_example_folder_is_a_game() -> None:
    folders = {p.name for p in EXAMPLES.iterdir() if p.is_dir()}
    assert folders <= set(all_games())
    assert folders


@pytest.mark.parametrize("path", deck_files(), ids=_rel)
def test_example_deck_loads_and_has_its_promised_status(path: Path) -> None:
    loaded = load_deck(path)  # any input error (DeckcheckError) fails the test
    assert loaded.game.id == path.parent.name
    assert loaded.deck.size > 0
    report = validate_loaded(loaded)
    want = expected_status(path)
    assert want is not None, f"{path.name}: name the file legal/illegal/… or list it above"
    if want is not None:
        assert report.status is want, [(v.code, v.severity, v.message) for v in report.violations]
    if want is Status.ILLEGAL:
        assert any(v.severity is Severity.ERROR for v in report.violations)
    if "warning" in path.stem.lower():
        assert any(v.severity is Severity.WARNING for v in report.violations)


@pytest.mark.parametrize("path", catalog_files(), ids=_rel)
def test_example_catalogs_check_clean(path: Path) -> None:
    result = check_catalog_file(path)
    assert result.ok, result.problems
    assert result.game == path.parent.name
