"""Loading catalogs: a game's bundled TOML, and overlays laid over it.

An overlay entry that names an existing card (by id, or by name when it gives no id) sets or
replaces the fields it gives; any other entry is a new card and needs a name and a type.
Every problem in an overlay is collected, so ``catalog check`` can report them all at once.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from deckcheck.catalog.model import CORE_FIELDS, Card, Catalog, FieldSpec
from deckcheck.core.errors import CatalogError, UsageError
from deckcheck.core.inputs import read_text, source_label
from deckcheck.core.text import fold, slug, suggest
from deckcheck.core.tomlfile import key_line, parse_toml, table_lines
from deckcheck.core.values import Recent, frozen

MAX_OVERLAYS = 32
"""Catalog overlays one command lays over a game's catalog (header and ``--catalog`` together):
each is read and checked against the whole catalog, and no one keeps 32 card sets apart."""


def too_many_overlays(count: int) -> str | None:
    """Why ``count`` catalog overlays are refused, or None when they are not."""
    if count <= MAX_OVERLAYS:
        return None
    return (
        f"names {count:,} catalog overlays; deckcheck lays at most {MAX_OVERLAYS} over a "
        "catalog (is one named again and again?)"
    )


@frozen
class Problem:
    """One thing wrong in a catalog file, with its line where known."""

    message: str
    line: int | None = None

    def describe(self, label: str) -> str:
        """``file:line: message``."""
        return f"{label}:{self.line}: {self.message}" if self.line else f"{label}: {self.message}"


@frozen
class CatalogDocument:
    """A parsed catalog or overlay file: its header table and its raw card tables."""

    label: str
    text: str
    game: str | None
    name: str
    cards: tuple[Mapping[str, Any], ...]
    problems: tuple[Problem, ...]


def card_from_mapping(
    data: Mapping[str, Any], order: int, fields: Mapping[str, FieldSpec] | None = None
) -> Card:
    """A :class:`Card` from a checked card table. A list field of the game (``type``,
    ``aliases`` and every field of kind ``list``) given as one text is a one-element list:
    ``affiliation = "Klingon"`` means ``["Klingon"]``, never the letters of Klingon."""
    raw_type = data.get("type", ())
    types = (raw_type,) if isinstance(raw_type, str) else tuple(raw_type)
    raw_aliases = data.get("aliases", ())
    aliases = (raw_aliases,) if isinstance(raw_aliases, str) else tuple(raw_aliases)
    rest = {
        k: [v] if isinstance(v, str) and _is_list(fields, k) else v
        for k, v in data.items()
        if k not in ("id", "name", "type", "aliases")
    }
    card_id = str(data.get("id") or slug(str(data["name"])))
    return Card(card_id, str(data["name"]), types, MappingProxyType(rest), aliases, order)


def _is_list(fields: Mapping[str, FieldSpec] | None, name: str) -> bool:
    spec = fields.get(name) if fields else None
    return spec is not None and spec.kind == "list"


def parse_document(text: str, label: str, data: dict[str, Any] | None = None) -> CatalogDocument:
    """Parse catalog TOML into a document; structural problems are collected, not raised.

    ``data`` is the already parsed TOML, when the caller has it (from the catalog cache).
    """
    if data is None:
        data = parse_toml(text, label, CatalogError)
    problems: list[Problem] = []
    header = data.get("catalog")
    game: str | None = None
    name = ""
    if not isinstance(header, dict):
        problems.append(Problem('missing the [catalog] table with game = "…"', 1))
    else:
        game_value = header.get("game")
        if isinstance(game_value, str) and game_value.strip():
            game = game_value.strip()
        else:
            problems.append(Problem('[catalog] needs game = "<game id>"', 1))
        name = str(header.get("name", ""))
    for key in data:
        if key not in ("catalog", "cards"):
            problems.append(
                Problem(f"unknown top-level key {key!r} (expected [catalog], [[cards]])")
            )
    raw_cards = data.get("cards", [])
    if not isinstance(raw_cards, list):
        problems.append(Problem("cards must be an array of tables: [[cards]]"))
        raw_cards = []
    cards: list[Mapping[str, Any]] = []
    starts: list[int] | None = None  # line numbers only when a problem needs one
    for index, raw in enumerate(raw_cards):
        if not isinstance(raw, dict):
            starts = table_lines(text, "cards") if starts is None else starts
            line = starts[index] if index < len(starts) else None
            problems.append(Problem("each entry of cards must be a table", line))
            continue
        cards.append(raw)
    return CatalogDocument(label, text, game, name, tuple(cards), tuple(problems))


def read_document(path: str | Path) -> CatalogDocument:
    """Read and parse a catalog file (or ``-``)."""
    return parse_document(read_text(path), source_label(path))


def check_overlay(base: Catalog, doc: CatalogDocument) -> list[Problem]:
    """Every problem of ``doc`` as an overlay on ``base`` (empty list: it applies cleanly).

    The entries are checked first and their problems located in the file afterwards, in one
    pass over its text (a clean overlay is never scanned for lines)."""
    return _examine(base, doc)[0]


def _examine(
    base: Catalog, doc: CatalogDocument
) -> tuple[list[Problem], list[tuple[Card | None, Mapping[str, Any]]]]:
    """Every problem of ``doc`` as an overlay on ``base``, and each entry with the card it
    changes (None: a new card)."""
    if doc.game is not None and doc.game != base.game:
        # Every field would be "unknown" too: the one real problem is the game.
        return [Problem(f"is a catalog for {doc.game!r}, not for {base.game!r}", 1)], []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    found: list[tuple[int, *_Finding]] = []
    entries: list[tuple[Card | None, Mapping[str, Any]]] = []
    for index, raw in enumerate(doc.cards):
        existing, findings = _check_entry(base, raw, index, seen_ids, seen_names)
        found.extend((index, *finding) for finding in findings)
        entries.append((existing, raw))
    return [*doc.problems, *_locate(doc, found)], entries


_Finding = tuple[str | None, str | tuple[str, str], int | None]
"""What is wrong with one overlay entry: the key it is written at (None: the entry itself),
the message, and the entry it duplicates (the message is then the text before and after that
entry's line, which is known once the file is read for lines)."""


def _check_entry(
    base: Catalog,
    raw: Mapping[str, Any],
    index: int,
    seen_ids: dict[str, int],
    seen_names: dict[str, int],
) -> tuple[Card | None, list[_Finding]]:
    """The card an overlay entry changes (None: it adds one, or is too broken to tell) and
    what is wrong with it."""
    found: list[_Finding] = []
    label = f"card {index + 1}"
    card_id, name = raw.get("id"), raw.get("name")
    if card_id is not None and not (isinstance(card_id, str) and card_id.strip()):
        found.append(("id", f"{label}: id must be a non-empty text", None))
        card_id = None
    if name is not None and not (isinstance(name, str) and name.strip()):
        found.append(("name", f"{label}: name must be a non-empty text", None))
        name = None
    if card_id is None and name is None:
        found.append(
            (None, f"{label}: needs an id (to change a card) or a name (to add one)", None)
        )
        return None, found
    label = f"card {card_id or name!r}"
    existing = _existing(base, card_id, name)
    if isinstance(existing, str):
        found.append(("name", f"{label}: {existing}", None))
        return None, found
    # The id the entry will have: a new card without an id gets one made of its name.
    key = existing.id if existing else (card_id or slug(name or ""))
    if key in seen_ids:
        found.append(
            (
                None,
                (f"{label}: duplicate of the entry on line ", f" (both are card {key!r})"),
                seen_ids[key],
            )
        )
    seen_ids[key] = index
    if name is not None:
        folded = fold(name)
        if folded in seen_names and (existing is None or existing.id not in seen_ids):
            found.append(
                ("name", (f"{label}: duplicate name (also on line ", ")"), seen_names[folded])
            )
        if existing is None and base.by_name(name):
            taken = ", ".join(c.id for c in base.by_name(name))
            taken_by = f"the name is already used by {taken}; give that id to change it"
            found.append(("name", f"{label}: {taken_by}", None))
        seen_names[folded] = index
    if existing is None and "type" not in raw:
        found.append((None, f"{label}: a new card needs a type", None))
    if existing is None and name is None:
        found.append(("id", f"{label}: no card has id {card_id!r}; a new card needs a name", None))
    for field_name, value in raw.items():
        if field_name in ("id", "name"):
            continue
        why = field_problem(base.fields, field_name, value)
        if why:
            found.append((field_name, f"{label}: {why}", None))
    merged = dict(existing.as_dict()) if existing else {}
    merged.update(raw)
    types_value = merged.get("type", ())
    if isinstance(types_value, str):
        types = [types_value]
    elif isinstance(types_value, list):
        types = [t for t in types_value if isinstance(t, str)]
    else:  # a wrong kind is reported by the field check above
        types = []
    folded_types = {fold(t) for t in types}
    for field_name in raw:
        spec = base.fields.get(field_name)
        if spec and folded_types & {fold(t) for t in spec.not_for_types}:
            found.append(
                (field_name, f"{label}: a {'/'.join(types)} card has no {field_name}", None)
            )
    return existing, found


_CORE_SPECS = {
    "type": FieldSpec("type", "list"),
    "aliases": FieldSpec("aliases", "list"),
    "note": FieldSpec("note", "text"),
}


def field_problem(fields: Mapping[str, FieldSpec], field_name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the card field ``field_name`` (unknown field, wrong kind or
    value), or None when it can. ``id`` and ``name`` are checked by the caller."""
    spec = fields.get(field_name) or _CORE_SPECS.get(field_name)
    if spec is None:
        known = sorted(set(fields) | CORE_FIELDS)
        hint = suggest(field_name, known, limit=1)
        extra = f" (did you mean {hint[0]!r}?)" if hint else ""
        return f"unknown field {field_name!r}{extra}"
    return spec.check(value)


def bundled_card_problems(
    raw: Mapping[str, Any], fields: Mapping[str, FieldSpec]
) -> list[tuple[str | None, str]]:
    """(field, message) for everything that keeps a card table of a bundled catalog from being
        a card: a name, and only fields the game defines, with values of their kind (a bundled
    card may leave its type unknown). Cards from
        the TOML and from the catalog cache both go through this."""
    problems: list[tuple[str | None, str]] = []
    name, card_id = raw.get("name"), raw.get("id")
    if not (isinstance(name, str) and name.strip()):
        problems.append(("name", "needs a name (a non-empty text)"))
    if "id" in raw and not (isinstance(card_id, str) and card_id.strip()):
        problems.append(("id", "id must be a non-empty text"))
    for field_name, value in raw.items():
        if field_name not in ("id", "name"):
            why = field_problem(fields, field_name, value)
            if why:
                problems.append((field_name, why))
    return problems


def _existing(base: Catalog, card_id: Any, name: Any) -> Card | str | None:
    """The card an overlay entry changes, None for a new card, or a text saying why neither."""
    if isinstance(card_id, str):
        return base.by_id(card_id)
    matches = base.by_name(name)
    if len(matches) > 1:
        ids = ", ".join(c.id for c in matches)
        return f"the name matches several cards ({ids}); give the id of the one to change"
    return matches[0] if matches else None


def lay_overlays(base: Catalog, paths: Sequence[str | Path]) -> Catalog:
    """``base`` with the overlay files at ``paths`` read and laid over it, in order (more than
    deckcheck lays over a catalog is a usage error, refused before any is read)."""
    refused = too_many_overlays(len(paths))
    if refused:
        raise UsageError(f"the command {refused}")
    for doc in [_overlay_document(path) for path in paths]:  # a file that cannot be read: first
        base = _LAID.answer(None, (base, doc), functools.partial(apply_overlay, base, doc))
    return base


_DOCUMENTS: Recent[CatalogDocument] = Recent(8)
"""Overlay files parsed before, by label and text."""
_LAID: Recent[Catalog] = Recent(8)
"""Overlays laid before, by base catalog and document: a deck read again (the builder reads it
after every edit) is given its catalog without its overlays parsed and laid again."""


def _overlay_document(path: str | Path) -> CatalogDocument:
    """The overlay file at ``path``, read now, parsed once per text."""
    label, text = source_label(path), read_text(path)
    return _DOCUMENTS.answer((label, text), (), lambda: parse_document(text, label))


def apply_overlay(base: Catalog, doc: CatalogDocument) -> Catalog:
    """``base`` with ``doc`` laid over it; any problem raises one :class:`CatalogError`."""
    problems, entries = _examine(base, doc)
    if problems:
        raise CatalogError(
            f"catalog overlay has {len(problems)} problem{'s' if len(problems) != 1 else ''}",
            source=doc.label,
            details=[p.describe(doc.label) for p in problems],
        )
    cards = {card.id: card for card in base.cards}
    order = len(cards)
    for existing, raw in entries:
        if existing is not None:
            merged = dict(cards[existing.id].as_dict())
            merged.update(raw)
            cards[existing.id] = card_from_mapping(merged, existing.order, base.fields)
        else:
            new = card_from_mapping(raw, order, base.fields)
            order += 1
            cards[new.id] = new
    return Catalog(
        base.game, base.name, tuple(cards.values()), base.fields, (*base.sources, doc.label)
    )


def build_catalog(
    game: str, name: str, fields: Mapping[str, FieldSpec], docs: Sequence[CatalogDocument]
) -> Catalog:
    """A catalog from bundled documents; a card that is not one (see
    :func:`bundled_card_problems`) makes the bundled catalog broken, with every problem listed."""
    cards: list[Card] = []
    for doc in docs:
        if doc.problems:
            raise CatalogError(
                "bundled catalog is broken",
                source=doc.label,
                details=[p.describe(doc.label) for p in doc.problems],
            )
        broken: list[tuple[int, str | None, str]] = []
        for index, raw in enumerate(doc.cards):
            problems = bundled_card_problems(raw, fields)
            if problems:
                broken.extend((index, key, message) for key, message in problems)
            elif not broken:
                cards.append(card_from_mapping(raw, len(cards), fields))
        if broken:
            located = _locate(
                doc, [(i, key, f"card {i + 1}: {message}", None) for i, key, message in broken[:20]]
            )
            more = [f"… and {len(broken) - 20} more"] if len(broken) > 20 else []
            raise CatalogError(
                "bundled catalog is broken",
                source=doc.label,
                details=[*(p.describe(doc.label) for p in located), *more],
            )
    return Catalog(
        game, name, tuple(cards), MappingProxyType(dict(fields)), tuple(d.label for d in docs)
    )


def _locate(doc: CatalogDocument, found: Sequence[tuple[int, *_Finding]]) -> list[Problem]:
    """Each finding (entry index, key, message, entry it duplicates) as a problem at its line:
    the key's line in the entry's table, else the table's header line."""
    if not found:
        return []
    starts = table_lines(doc.text, "cards")

    def start(index: int | None) -> int | None:
        return starts[index] if index is not None and index < len(starts) else None

    def text(message: str | tuple[str, str], other: int | None) -> str:
        return (
            message if isinstance(message, str) else f"{message[0]}{start(other) or 0}{message[1]}"
        )

    return [
        Problem(
            text(message, other), key_line(doc.text, start(index), key) if key else start(index)
        )
        for index, key, message, other in found
    ]
