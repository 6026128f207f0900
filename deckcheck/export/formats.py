"""Deck formats. Each writer is a pure function of the loaded deck; text, TOML, JSON (and each
game's own formats such as Lackey) read back to the same deck."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import tomli_w

from deckcheck.catalog.model import Card
from deckcheck.core.errors import UsageError
from deckcheck.core.text import suggest
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import lookup, pick
from deckcheck.games.base import Exported, Exporter

Writer = Callable[[LoadedDeck, Path | None], "str | Exported"]


def reference(card: Card, loaded: LoadedDeck, face: str | None = None) -> str:
    """How to write a card so that it resolves back to itself: its name, else its id (the
    other face of a two-sided card: the game's name for that face, where it has one)."""
    if face and loaded.game.face_name is not None:
        named = loaded.game.face_name(card, face)
        if named:
            return named
    found = lookup(card.name, loaded.catalog, loaded.game)
    same = bool(found.cards) and not found.refused and not found.face
    return card.name if same and pick(found.cards, loaded.game) is card else card.id


def lines(loaded: LoadedDeck) -> list[tuple[Card, int]]:
    """(card, count) of the counted deck in deck order; copies merged unless the game's order
    matters (stacks)."""
    if loaded.game.spec.ordered:
        return [(e.card, e.count) for e in loaded.deck]
    counts = loaded.deck.counts()
    cards = loaded.deck.cards()
    return [(cards[i], n) for i, n in counts.items()]


ZonedLines = list[tuple[str | None, list[tuple[Card, str | None, int]]]]


def zoned_lines(loaded: LoadedDeck) -> ZonedLines:
    """(zone, [(card, face, copies)]) in the game's zone order, side zones included; zone None
    for the cards written without a header (the first zone, or a game without zones)."""
    if loaded.game.spec.ordered or not loaded.game.zones:
        return [(None, [(c, None, n) for c, n in lines(loaded)])]
    first = loaded.game.zones[0].name
    by_zone = loaded.deck.zoned(lambda e: None if e.zone in (None, first) else e.zone)
    order = [None, *(z.name for z in loaded.game.zones[1:])]
    known = [(zone, by_zone[zone]) for zone in order if zone in by_zone]
    return known + [(z, items) for z, items in by_zone.items() if z not in order]


def overlay_paths(loaded: LoadedDeck, out_path: Path | None) -> list[str]:
    """The deck's overlay files, relative to where the export is written: on standard output,
    relative to the current folder, where ``> file`` puts it (a file people share must not
    carry the writer's absolute paths)."""
    base = (out_path.parent if out_path is not None else Path.cwd()).resolve()
    return [
        os.path.relpath(Path(p).resolve(), base)
        for p in loaded.catalog.sources[1:]
        if Path(p).exists()
    ]


def _headers(loaded: LoadedDeck) -> dict[str, str]:
    data = {"game": loaded.game.id, "variant": loaded.variant.name}
    if loaded.deck.name:
        data["name"] = loaded.deck.name
    return data


def categories(loaded: LoadedDeck) -> dict[str, list[str]]:
    """The deck's own categories as written (name → members), for the formats that hold them."""
    return {c.name: list(c.members) for c in loaded.source.categories}


KEEP_CATEGORIES = frozenset({"text", "toml", "json"})
"""The formats that write a deck's categories back (the others say they left them out)."""


def write_text(loaded: LoadedDeck, out_path: Path | None) -> Exported:
    """deckcheck's own text format, grouped by type under comments (order kept for stacks);
    each zone of the deck under its own header; the deck's categories as ``category:`` lines."""
    out = [f"{k}: {v}" for k, v in _headers(loaded).items()]
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        out.append("catalog: " + ", ".join(catalogs))
    notes = []
    for name, listed in categories(loaded).items():
        if any(";" in m for m in listed):  # the text format separates members with ";"
            notes.append(f"category {name} is not written: a member holds ';'")
        else:
            out.append(f"category: {name} = {'; '.join(listed)}")
    if loaded.game.spec.ordered:
        out.append("")
        out += [f"{n} {reference(c, loaded)}" for c, n in lines(loaded)]
        return Exported("\n".join(out) + "\n", tuple(notes))
    for zone, items in zoned_lines(loaded):
        if zone is not None:
            out += ["", f"{zone}:"]
        groups: dict[str, list[tuple[Card, str | None, int]]] = {}
        for card, face, n in items:
            groups.setdefault(card.type_label, []).append((card, face, n))
        for kind, members in groups.items():
            out += ["", f"# {kind} ({sum(n for _, _, n in members)})"]
            out += [f"{n} {reference(c, loaded, f)}" for c, f, n in members]
    return Exported("\n".join(out) + "\n", tuple(notes))


def write_toml(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A TOML deck: ``[cards]``, a ``[zones.NAME]`` table for each further zone, and the
    deck's ``[categories]``."""
    data: dict[str, object] = dict(_headers(loaded))
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        data["catalog"] = catalogs
    if loaded.source.categories:
        data["categories"] = categories(loaded)
    if loaded.game.spec.ordered:
        cards: dict[str, int] = {}
        previous = None
        for card, n in lines(loaded):
            key = reference(card, loaded)
            if key in cards and key != previous:
                # A table cannot keep an order in which a card recurs apart: list every copy.
                data["sequence"] = [reference(c, loaded) for c in loaded.deck.sequence()]
                return tomli_w.dumps(data)
            cards[key] = cards.get(key, 0) + n
            previous = key
        data["cards"] = cards
        return tomli_w.dumps(data)
    zones: dict[str, dict[str, int]] = {}
    for zone, items in zoned_lines(loaded):
        table: dict[str, int] = {}
        for card, face, n in items:
            key = reference(card, loaded, face)
            table[key] = table.get(key, 0) + n
        if zone is None:
            data["cards"] = table
        else:
            zones[zone] = table
    data.setdefault("cards", {})
    if zones:
        data["zones"] = zones
    return tomli_w.dumps(data)


def write_json(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A JSON deck: headers and a list of cards with count, id, name and type (and the zone
    and face where the deck has them), and the deck's ``categories``."""
    data: dict[str, object] = dict(_headers(loaded))
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        data["catalog"] = catalogs
    if loaded.source.categories:
        data["categories"] = categories(loaded)
    cards: list[dict[str, object]] = []
    for zone, items in zoned_lines(loaded):
        for card, face, n in items:
            item: dict[str, object] = {
                "count": n,
                "id": card.id,
                "name": card.name,
                "type": card.type_label,
            }
            if zone is not None:
                item["zone"] = zone
            if face:
                item["face"] = face
                item["name"] = reference(card, loaded, face)
            cards.append(item)
    data["cards"] = cards
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _key_fields(loaded: LoadedDeck) -> list[str]:
    specs = loaded.game.field_specs
    present = {k for e in loaded.deck for k in e.card.fields}
    return [f for f, s in specs.items() if f != "type" and s.kind != "data" and f in present]


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return "; ".join(map(str, value))
    return str(value)


def _rows(loaded: LoadedDeck) -> list[tuple[str | None, Card, str | None, int]]:
    """(zone, card, face, copies) in the order the text export writes them."""
    return [(zone, c, f, n) for zone, items in zoned_lines(loaded) for c, f, n in items]


def write_csv(loaded: LoadedDeck, out_path: Path | None) -> str:
    """One row per card: the game, the variant, (the overlays, the zone,) count, id, name, type
    and the game's fields, for spreadsheets; read back by its heading row (the id column, else
    the name)."""
    fields = _key_fields(loaded)
    rows = _rows(loaded)
    zoned = any(zone is not None for zone, *_ in rows)
    # The overlays the deck was checked with (its own cards may live there): a column, so the
    # file stays one table for a spreadsheet.
    catalogs = "; ".join(overlay_paths(loaded, out_path))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "game",
            "variant",
            *(["catalog"] if catalogs else []),
            *(["zone"] if zoned else []),
            *("count", "id", "name", "type"),
            *fields,
        ]
    )
    for zone, card, face, n in rows:
        writer.writerow(
            [
                loaded.game.id,
                loaded.variant.name,
                *([catalogs] if catalogs else []),
                *([zone or ""] if zoned else []),
                n,
                reference(card, loaded, face) if face else card.id,
                card.name,
                card.type_label,
                *(_cell(card.get(f)) for f in fields),
            ]
        )
    return buffer.getvalue()


def _md(text: object) -> str:
    return _cell(text).replace("|", "\\|")


def write_markdown(loaded: LoadedDeck, out_path: Path | None) -> str:
    """Tables to paste into a forum post, one section per card type (``### Ship (15)``),
    headed by the deck's header lines; the columns are the game's listing fields. Read back
    by each table's heading row (the id column, else the card's name)."""
    title = loaded.deck.name or Path(loaded.deck.label).stem
    listed = list(loaded.game.spec.list_fields)
    present = set(_key_fields(loaded))
    # The game's own listing columns (affiliation, set, rarity), not every field it has
    # (release, premiere): a forum post wants what a reader compares.
    fields = [f for f in listed if f in present][:4] if listed else _key_fields(loaded)[:4]
    rows = _rows(loaded)
    zoned = any(zone is not None for zone, *_ in rows)
    headers = [f"{k}: {v}" for k, v in _headers(loaded).items()]
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        headers.append("catalog: " + ", ".join(catalogs))
    out = [
        f"## {_md(title)} ({loaded.game.name}, {loaded.deck.size} cards)",
        "",
        # Two trailing spaces: a line break in Markdown, so the headers stay one per line.
        *(f"{line}  " for line in headers),
    ]
    sections: dict[str, list[tuple[str | None, Card, str | None, int]]] = {}
    for row in rows:
        sections.setdefault(row[1].type_label, []).append(row)
    for kind, members in sections.items():
        out += [
            "",
            f"### {_md(kind)} ({sum(n for *_, n in members)})",
            "",
            "| Count | Card | Id |"
            + (" Zone |" if zoned else "")
            + "".join(f" {f.replace('_', ' ').title()} |" for f in fields),
            "|---:|---|---|" + ("---|" if zoned else "") + "---|" * len(fields),
        ]
        for zone, card, face, n in members:
            ref = reference(card, loaded, face) if face else card.id
            out.append(
                f"| {n} | {_md(card.name)} | {_md(ref)} |"
                + (f" {_md(zone or '')} |" if zoned else "")
                + "".join(f" {_md(card.get(f))} |" for f in fields)
            )
    return "\n".join(out) + "\n"


def write_html(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A self-contained deck sheet (list, legality, charts, odds curve) to share or print."""
    from deckcheck.export.html import write_html as sheet

    return sheet(loaded, out_path)


BUILT_IN: dict[str, Writer] = {
    "text": write_text,
    "toml": write_toml,
    "json": write_json,
    "csv": write_csv,
    "markdown": write_markdown,
    "html": write_html,
}
READABLE = frozenset({"text", "toml", "json", "csv", "markdown"})


FORMAT_ALIASES = {"md": "markdown", "txt": "text", "htm": "html", "dek": "lackey"}
"""Other names people use for a format (any case): ``--to md`` is markdown."""


def formats_for(loaded: LoadedDeck) -> dict[str, Writer]:
    """Every format this deck can be exported to: the built-in ones and the game's own."""
    formats = dict(BUILT_IN)
    for name, exporter in loaded.game.exporters.items():
        formats[name] = _game_writer(exporter)
    return formats


def _game_writer(exporter: Exporter) -> Writer:
    def write(loaded: LoadedDeck, out_path: Path | None) -> str | Exported:
        return exporter(loaded.deck, out_path)

    return write


def render(loaded: LoadedDeck, fmt: str, out_path: Path | None = None) -> str:
    """The deck in ``fmt``; an unknown format is a usage error listing the known ones."""
    return render_with_notes(loaded, fmt, out_path).text


def render_with_notes(loaded: LoadedDeck, fmt: str, out_path: Path | None = None) -> Exported:
    """The deck in ``fmt`` with notes on what the format could not hold."""
    formats = formats_for(loaded)
    name = fmt.strip().lower()
    if name not in formats:  # a game's own format wins over an alias (stccg-1e's "dek")
        name = FORMAT_ALIASES.get(name, name)
    if name not in formats:
        hint = suggest(name, list(formats), limit=1)
        raise UsageError(
            f"unknown format {fmt!r} for {loaded.game.id}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + "; formats: "
            + ", ".join(formats)
        )
    written = formats[name](loaded, out_path)
    exported = written if isinstance(written, Exported) else Exported(written)
    if loaded.source.categories and name not in KEEP_CATEGORIES:
        left = ", ".join(c.name for c in loaded.source.categories)
        note = f"the deck's categories ({left}) are not written: {name} has no place for them"
        exported = Exported(exported.text, (*exported.notes, note))
    return exported
