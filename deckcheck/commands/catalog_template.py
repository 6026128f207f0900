"""``catalog template``: a commented overlay file a user fills in."""

from __future__ import annotations

from collections.abc import Sequence

from deckcheck.catalog.model import Card, Catalog
from deckcheck.core.errors import UsageError
from deckcheck.core.result import OK, Json
from deckcheck.core.text import suggest
from deckcheck.core.values import frozen
from deckcheck.games.base import Game
from deckcheck.games.registry import get_game


@frozen
class CatalogTemplate:
    """A commented overlay file to fill in (TOML text)."""

    game: str
    fields: tuple[str, ...]
    text: str

    exit_code = OK

    def to_json(self) -> dict[str, Json]:
        """``{"game", "fields", "text"}``."""
        return {"game": self.game, "fields": list(self.fields), "text": self.text}


@frozen
class TemplateRequest:
    """The template of ``game``'s bundled catalog; with ``fields``, every card lacking them."""

    game: str
    fields: tuple[str, ...] = ()


def run(request: TemplateRequest) -> CatalogTemplate:
    """The overlay template of a game's bundled catalog (see :func:`render_template`)."""
    game = get_game(request.game)
    fields = request.fields
    return CatalogTemplate(game.id, fields, render_template(game, game.bundled_catalog(), fields))


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _example(kind: str, game: Game) -> str:
    spec = game.field_specs.get(kind)
    if spec is None:
        return "0"
    if spec.kind == "int":
        return str(spec.minimum if spec.minimum is not None and spec.minimum > 0 else 0)
    if spec.kind == "bool":
        return "false"
    if spec.values:
        return _toml_string(spec.values[0])
    return '""'


def render_template(game: Game, catalog: Catalog, fields: Sequence[str] = ()) -> str:
    """A valid TOML overlay: with ``fields``, one entry per card lacking them (commented lines
    to fill in); without, a guide to every field and a commented example of a new card."""
    unknown = [f for f in fields if f not in game.field_specs]
    if unknown:
        hint = suggest(unknown[0], list(game.field_specs), limit=1)
        raise UsageError(
            f"{game.id} cards have no field {unknown[0]!r}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + f"; fields: {', '.join(game.field_specs)}"
        )
    out = [
        f"# deckcheck catalog overlay for {game.name} ({game.id}).",
        "# Fill in the values, then use it with:  deckcheck validate DECK --catalog THIS_FILE",
        "# (or name it in a deck file: `catalog: THIS_FILE`). Check it with:",
        "#   deckcheck catalog check THIS_FILE",
        "#",
        "# Fields a card may have:",
    ]
    for name, spec in game.field_specs.items():
        allowed = f" one of {', '.join(spec.values)}" if spec.values else ""
        bounds = ""
        if spec.minimum is not None or spec.maximum is not None:
            bounds = f" ({spec.minimum if spec.minimum is not None else ''}…"
            bounds += f"{spec.maximum if spec.maximum is not None else ''})"
        never = f"; not on {', '.join(spec.not_for_types)}" if spec.not_for_types else ""
        out.append(
            f"#   {name}: {spec.kind}{allowed}{bounds}{never}"
            + (f" — {spec.description}" if spec.description else "")
        )
    out += ["", "[catalog]", f"game = {_toml_string(game.id)}", 'name = "My cards"', ""]
    if fields:
        out.append(f"# Every card without {', '.join(fields)}: remove the '#' and write the value.")
        for card in catalog:
            lacking = [f for f in fields if card.get(f) is None and not _excluded(game, f, card)]
            if not lacking:
                continue
            out += [
                "",
                "[[cards]]",
                f"id = {_toml_string(card.id)}  # {card.name} ({card.type_label})",
            ]
            out += [f"# {f} = {_example(f, game)}" for f in lacking]
    else:
        out += [
            "# Change a bundled card: give its id and the fields to set.",
            "# [[cards]]",
            f"# id = {_toml_string(catalog.cards[0].id if len(catalog) else 'ID')}",
            "",
            "# Add a new card: give at least a name and a type.",
            "# [[cards]]",
            '# name = "My new card"',
        ]
        out += [f"# {name} = {_example(name, game)}" for name in game.field_specs]
    return "\n".join(out) + "\n"


def _excluded(game: Game, field_name: str, card: Card) -> bool:
    spec = game.field_specs[field_name]
    asked = game.spec.fields[field_name].asked_for_types if field_name in game.spec.fields else []
    if asked and not any(card.has_type(t) for t in asked):
        return True
    return any(card.has_type(t) for t in spec.not_for_types)
