"""``catalog check``: every problem of an overlay file, with lines."""

from __future__ import annotations

from pathlib import Path

from deckcheck.catalog.load import Problem, check_overlay, read_document
from deckcheck.core.result import BAD_INPUT, OK, Json
from deckcheck.core.values import frozen
from deckcheck.games.registry import all_games, get_game


@frozen
class CatalogCheck:
    """The outcome of checking one overlay file."""

    label: str
    game: str | None
    problems: tuple[Problem, ...]
    changed: int
    added: int
    unfilled: int = 0  # entries naming a card and setting nothing (a template not filled in)

    @property
    def ok(self) -> bool:
        """No problems."""
        return not self.problems

    @property
    def exit_code(self) -> int:
        """0 when the file is sound, else 2 (it cannot be used as a catalog)."""
        return OK if self.ok else BAD_INPUT

    def to_json(self) -> dict[str, Json]:
        """``{"file", "game", "ok", "problems": [{"message", "line"}], "changed", "added"}``."""
        return {
            "file": self.label,
            "game": self.game,
            "ok": self.ok,
            "problems": [{"message": p.message, "line": p.line} for p in self.problems],
            "changed": self.changed,
            "added": self.added,
            "unfilled": self.unfilled,
        }


@frozen
class CheckRequest:
    """The overlay file (or ``-``) to check."""

    file: str | Path


def run(request: CheckRequest) -> CatalogCheck:
    """Every problem of the request's overlay file (:func:`check_catalog_file`)."""
    return check_catalog_file(request.file)


def check_catalog_file(path: str | Path) -> CatalogCheck:
    """Check an overlay against its game's bundled catalog; problems are collected, not raised."""
    doc = read_document(path)
    if doc.game is None:
        return CatalogCheck(doc.label, None, doc.problems, 0, 0)
    if doc.game not in all_games():
        known = ", ".join(all_games())
        problem = Problem(f"unknown game {doc.game!r} (known: {known})", 1)
        return CatalogCheck(doc.label, doc.game, (*doc.problems, problem), 0, 0)
    base = get_game(doc.game).bundled_catalog()
    problems = check_overlay(base, doc)
    matched = [
        raw
        for raw in doc.cards
        if (isinstance(raw.get("id"), str) and base.by_id(raw["id"]))
        or (
            raw.get("id") is None and isinstance(raw.get("name"), str) and base.by_name(raw["name"])
        )
    ]
    # An entry that only names its card (every value still commented out) changes nothing.
    unfilled = sum(1 for raw in matched if not set(raw) - {"id", "name"})
    changed = len(matched) - unfilled
    return CatalogCheck(
        doc.label, doc.game, tuple(problems), changed, len(doc.cards) - len(matched), unfilled
    )
