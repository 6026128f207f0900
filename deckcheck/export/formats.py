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

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import lookup, pick

Writer = Callable[[LoadedDeck, Path | None], str]


def reference(card: Card, loaded: LoadedDeck) -> str:
    """How to write a card so that it resolves back to itself: its name, else its id."""
    found = lookup(card.name, loaded.catalog, loaded.game)
    return card.name if found and pick(found, loaded.game) is card else card.id


def lines(loaded: LoadedDeck) -> list[tuple[Card, int]]:
    """(card, count) in deck order; copies merged unless the game's order matters (stacks)."""
    if loaded.game.spec.ordered:
        return [(e.card, e.count) for e in loaded.deck]
    counts = loaded.deck.counts()
    cards = loaded.deck.cards()
    return [(cards[i], n) for i, n in counts.items()]


def overlay_paths(loaded: LoadedDeck, out_path: Path | None) -> list[str]:
    """The deck's overlay files, relative to where the export is written; absolute on standard
    output, since the reader's deck file may end up anywhere."""
    if out_path is None:
        return [str(Path(p).resolve()) for p in loaded.catalog.sources[1:] if Path(p).exists()]
    base = out_path.parent.resolve()
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


def write_text(loaded: LoadedDeck, out_path: Path | None) -> str:
    """deckcheck's own text format, grouped by type under comments (order kept for stacks)."""
    out = [f"{k}: {v}" for k, v in _headers(loaded).items()]
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        out.append("catalog: " + ", ".join(catalogs))
    entries = lines(loaded)
    if loaded.game.spec.ordered:
        out.append("")
        out += [f"{n} {reference(c, loaded)}" for c, n in entries]
    else:
        groups: dict[str, list[tuple[Card, int]]] = {}
        for card, n in entries:
            groups.setdefault(card.type_label, []).append((card, n))
        for kind, members in groups.items():
            out += ["", f"# {kind} ({sum(n for _, n in members)})"]
            out += [f"{n} {reference(c, loaded)}" for c, n in members]
    return "\n".join(out) + "\n"


def write_toml(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A TOML deck."""
    data: dict[str, object] = dict(_headers(loaded))
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        data["catalog"] = catalogs
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


def write_json(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A JSON deck: headers and a list of cards with count, id, name and type."""
    data: dict[str, object] = dict(_headers(loaded))
    catalogs = overlay_paths(loaded, out_path)
    if catalogs:
        data["catalog"] = catalogs
    data["cards"] = [
        {"count": n, "id": c.id, "name": c.name, "type": c.type_label} for c, n in lines(loaded)
    ]
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


def write_csv(loaded: LoadedDeck, out_path: Path | None) -> str:
    """One row per card: count, id, name, type and the game's fields, for spreadsheets."""
    fields = _key_fields(loaded)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["count", "id", "name", "type", *fields])
    for card, n in lines(loaded):
        writer.writerow(
            [n, card.id, card.name, card.type_label, *(_cell(card.get(f)) for f in fields)]
        )
    return buffer.getvalue()


def _md(text: object) -> str:
    return _cell(text).replace("|", "\\|")


def write_markdown(loaded: LoadedDeck, out_path: Path | None) -> str:
    """A table to paste into a forum post, with a heading line and totals by type."""
    title = loaded.deck.name or Path(loaded.deck.label).stem
    fields = _key_fields(loaded)[:4]
    out = [
        f"## {_md(title)}",
        "",
        f"{loaded.game.name} · variant {loaded.variant.name} · {loaded.deck.size} cards",
        "",
        "| Count | Card | Type |" + "".join(f" {f.replace('_', ' ').title()} |" for f in fields),
        "|---:|---|---|" + "---|" * len(fields),
    ]
    for card, n in lines(loaded):
        out.append(
            f"| {n} | {_md(card.name)} | {_md(card.type_label)} |"
            + "".join(f" {_md(card.get(f))} |" for f in fields)
        )
    return "\n".join(out) + "\n"


BUILT_IN: dict[str, Writer] = {
    "text": write_text,
    "toml": write_toml,
    "json": write_json,
    "csv": write_csv,
    "markdown": write_markdown,
}
READABLE = frozenset({"text", "toml", "json"})


def formats_for(loaded: LoadedDeck) -> dict[str, Writer]:
    """Every format this deck can be exported to: the built-in ones and the game's own."""
    formats = dict(BUILT_IN)
    for name, exporter in loaded.game.exporters.items():
        formats[name] = _game_writer(exporter)
    return formats


def _game_writer(exporter: Callable[[Deck], str]) -> Writer:
    def write(loaded: LoadedDeck, _out_path: Path | None) -> str:
        return exporter(loaded.deck)

    return write


def render(loaded: LoadedDeck, fmt: str, out_path: Path | None = None) -> str:
    """The deck in ``fmt``; an unknown format is a usage error listing the known ones."""
    formats = formats_for(loaded)
    if fmt not in formats:
        raise UsageError(
            f"unknown format {fmt!r} for {loaded.game.id}; formats: " + ", ".join(formats)
        )
    return formats[fmt](loaded, out_path)
