#!/usr/bin/env python3
"""Build ``catalogs/stccg-1e/cards.toml`` from the community card database (facts only), and
beside it ``lackey-names.tsv``, the Lackey plugin's card names joined to the catalog's ids.

Usage::

    python3 tools/build_stccg_catalog.py [CARDS_CSV] [-o OUTPUT] [--names LACKEY_CSV]

``CARDS_CSV`` defaults to ``<repo>/../shared/data/stccg-1e/cards.csv``, ``OUTPUT`` to
``<repo>/catalogs/stccg-1e/cards.toml``, ``LACKEY_CSV`` to ``lackey-names.csv`` beside the cards
CSV; the name table is written beside ``OUTPUT``. Standard library only. The output is
deterministic: the same CSVs always give byte-identical files (cards in CSV order, fixed key
order, LF line ends, no timestamps).

The name table (see :func:`build_names`) keeps names and ids only: the plugin's card name, the
blueprint id, ``back`` for the other face of a two-sided card, the plugin's image id and set
code (what a Lackey ``.dek`` file writes), and nothing else. The first row of a card is the
name deckcheck writes when it exports to Lackey.

Why an own TOML writer and not ``tomli_w``: tomli_w's layout differs between its versions (1.0
writes short arrays inline, 1.1+ spreads every array over several lines, and an array of tables
may come out as inline tables when every table is short), and the project only requires
``tomli-w>=1.0``. A committed file that must be reproduced byte for byte on any machine needs a
writer whose layout never changes, so this script writes its small TOML subset (strings, ints,
booleans, flat arrays of strings) itself and then proves the result by reading it back with
``tomllib`` and comparing it with the data (the build fails on any difference).

Column by column (the CSV header is
``Name,Set,Release,Set id,Blueprint ID,Info,Property,Uniqueness,Type,Mission/ Dilemma Type,
Affil,Class,Int/Rng,Cun/Wpn,Str/Shd,Points,Region,Quadrant,Span,Icons,Staff,
Characteristics/ Keywords,Requires,Persona,Command,Reports,Names``):

- ``Blueprint ID`` -> ``id`` (unique, e.g. ``101_204``).
- ``Name`` -> ``name``, kept as the CSV spells it; only whitespace is collapsed and the text
  NFC-normalised. Later printings carry the set in parentheses (``Data (First Contact)``); that
  is the database's disambiguation and is kept, so every name is unique.
- ``Release`` -> ``release`` (the code) and ``set`` (a readable set name from the table below,
  else from a ``(Set Name)`` suffix used in that release, else the code). ``premiere = true``
  only for ``Release == premiere``.
- ``Set`` is not a set but a list of format/legality tags joined by ``_``
  (``Trad_Modern_Open_Warp``, ``Virtual_b02_...``, ``ban``) -> ``legal`` (a list, in CSV
  order): ``Trad`` printed by Decipher, ``Virtual`` a Continuing Committee virtual card,
  ``Modern``/``Open``/``Warp`` legal in that format, ``b00``-``b06`` block formats, ``ban``
  legal nowhere. The STCCG formats' card pools are these tags. ``Set id`` is the numeric
  form of the release and the prefix of the id: not copied.
- ``Info`` -> ``rarity``: the collector number is stripped (``57 R+`` -> ``R+``); a few cells
  were mangled by a spreadsheet into clock times (``2:00 PM`` = ``2 P``) and are read that way.
- ``Property`` is the TV series / film a card comes from (TNG, DS9, ...), not a rarity:
  not copied.
- ``Uniqueness``: ``univ`` -> ``universal = true``. ``enig`` (7 cards) has no meaning in the
  Premiere rules: not copied.
- ``Type`` -> ``type``; ``Facility`` with Class ``Outpost`` becomes ``Outpost``; a slash type
  (``Interrupt/Event``) becomes a list.
- ``Mission/ Dilemma Type`` -> ``mission_location``: ``[P]`` planet, ``[S]`` space, ``[S/P]``
  and ``[S][P]`` both (missions, dilemmas, and the mission-like Time Location / Q Mission cards).
- ``Affil`` -> ``affiliation`` (list): full names split on ``/`` and icon codes (``[FED]``...)
  mapped to names; ``Neutral`` and ``[NON]`` become ``Non-Aligned``. Cells that hold mission
  text (``Any Away Team may attempt mission.``) are game text and dropped; only recognised
  affiliation names/icons are kept, in order of appearance, without repeats.
- ``Class`` -> ``class`` (ship class, facility class, personnel classification such as
  OFFICER; the eight ``Mission II`` cards with a printed outpost also carry ``Outpost``).
- ``Int/Rng``, ``Cun/Wpn``, ``Str/Shd`` -> for Personnel ``integrity``, ``cunning``,
  ``strength``; for Ships ``range``, ``weapons``, ``shields``; for Facilities ``weapons``,
  ``shields``. Only plain integers are written (``8+X``, ``6+8`` of dual personnel, ``NO``
  are omitted). The columns of tactics, dilemmas and missions mean other things: not copied.
- ``Points`` -> ``points`` when a plain integer (``30*``, ``X``, ``+/-5`` omitted).
- ``Span`` -> ``span`` when a plain integer; ``Quadrant`` -> ``quadrant``; ``Region`` ->
  ``region`` (short location facts of missions).
- ``Staff`` -> ``staffing`` and ``Icons`` -> ``icons``: the bracketed codes only, brackets
  stripped, in CSV order (``[Cmd][Stf][Stf]`` -> ``["Cmd", "Stf", "Stf"]``). Free text in those
  cells (``Empathy x2``) and the angle/round markup (``<Fed>``, ``(Y>``) are dropped.
- ``Characteristics/ Keywords`` -> ``keywords``: the ``;``-separated tokens, dropping anything
  sentence-like (over 40 characters, sentence punctuation, or more than six words).
- ``Requires``, ``Persona``, ``Command``, ``Reports``, ``Names`` are relations printed in game
  text or lore: not copied. No card text, lore or mission text is ever copied.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CSV = REPO.parent / "shared" / "data" / "stccg-1e" / "cards.csv"
DEFAULT_OUT = REPO / "catalogs" / "stccg-1e" / "cards.toml"
NAMES_FILE = "lackey-names.tsv"

HEADER_COMMENT = """\
# Star Trek CCG First Edition: every 1E card of every set (Premiere = release "premiere").
# GENERATED by tools/build_stccg_catalog.py from the community card database
# (trekcc-ops/gemp-stccg, GPL-3.0): facts only (ids, names, types, sets, rarities, affiliations,
# icons, numbers, keywords); no card text, lore or mission text. Do not edit by hand: re-run
# the script. Later printings carry the set in the name ("Data (First Contact)").
"""

CATALOG_TABLE: dict[str, str] = {
    "game": "stccg-1e",
    "name": "Star Trek CCG First Edition (all 1E sets)",
    "source": "built by tools/build_stccg_catalog.py from the community card database (facts only)",
}

# Release code -> readable set name.
SET_NAMES: dict[str, str] = {
    "armade": "Armada Promo",
    "premiere": "Premiere",
    "au": "Alternate Universe",
    "qc": "Q-Continuum",
    "2pg": "Introductory 2-Player Game",
    "faj": "The Fajo Collection",
    "fc": "First Contact",
    "awayteam": "Away Team Pack",
    "otsd": "Official Tournament Sealed Deck",
    "ds9": "Deep Space Nine",
    "sdII": "Starter Deck II",
    "efc": "Enhanced First Contact",
    "dom": "The Dominion",
    "bog": "Blaze of Glory",
    "roa": "Rules of Acquisition",
    "2anth": "Second Anthology",
    "twt": "The Trouble with Tribbles",
    "ep": "Enhanced Premiere",
    "mm": "Mirror, Mirror",
    "voy": "Voyager",
    "borg": "The Borg",
    "ha": "Holodeck Adventures",
    "tmp": "The Motion Pictures",
    "agt": "All Good Things",
    "enterprise": "Enterprise Collection",
    "VP": "Virtual Promos",
    "coc": "Chain of Command",
    "lfl": "Life From Lifelessness",
    "HF": "Homefront",
    "SaS": "Straight and Steady",
    "SoG": "Shades of Gray",
    "HF2": "Homefront II",
    "RiF": "Resistance is Futile",
    "TNG": "The Next Generation",
    "HF3": "Homefront III",
    "ENGAGE": "Engage",
    "tstl": "The Sky's the Limit",
    "HF4": "Homefront IV",
    "Emissary": "Emissary",
    "WPEmissary": "Warp Pack: Emissary",
    "Maquis": "The Maquis",
    "20th": "20th Anniversary",
    "tgq": "The Gamma Quadrant",
    "HF6": "Homefront VI",
    "crossover": "Crossover",
    "lookinggla": "Through the Looking Glass",
    "50": "50th Anniversary",
    "terran": "Terran Empire",
    "brokenbow": "Broken Bow",
    "PreWarp": "Pre-Warp Pack",
    "llap": "Live Long and Prosper",
    "wp2017": "Warp Pack",
    "coldfront": "Cold Front",
    "metamorpho": "Metamorphosis",
    "comingofag": "Coming of Age",
    "gift": "The Gift",
    "equilibriu": "Equilibrium",
    "Cage": "The Cage",
    "qwho": "Q Who",
    "tnz": "The Neutral Zone",
    "plw": "A Private Little War",
    "dow": "Dogs of War",
    "ttne": "The Trial Never Ends",
    "SSttR": "Second Star to the Right",
    "PL": "Paradise Lost",
    "NEM": "Nemesis",
    "SotL": "Ships of the Line",
    "SFL": "Showdown: Four Lights",
    "Ls": "Lifesigns",
    "AUT": "Alternate Universe Twilight",
    "Previews": "Previews",
    "previews": "Previews",
}

# Affiliation icon codes and names (Neutral is the old name of Non-Aligned).
AFFILIATION_CODES: dict[str, str] = {
    "FED": "Federation",
    "KLI": "Klingon",
    "ROM": "Romulan",
    "NON": "Non-Aligned",
    "NA": "Non-Aligned",
    "CAR": "Cardassian",
    "BAJ": "Bajoran",
    "DOM": "Dominion",
    "FER": "Ferengi",
    "BOR": "Borg",
    "STA": "Starfleet",
    "VUL": "Vulcan",
    "KAZ": "Kazon",
    "VID": "Vidiian",
    "HIR": "Hirogen",
    "XIN": "Xindi",
}
AFFILIATION_NAMES: dict[str, str] = {
    name.casefold(): name for name in sorted(set(AFFILIATION_CODES.values()))
}
AFFILIATION_NAMES["neutral"] = "Non-Aligned"
AFFILIATION_NAMES["non-aligned"] = "Non-Aligned"

MISSION_LOCATIONS: dict[str, str] = {
    "[P]": "planet",
    "[S]": "space",
    "[S/P]": "both",
    "[P/S]": "both",
    "[S][P]": "both",
    "[P][S]": "both",
}

# (Int/Rng, Cun/Wpn, Str/Shd) key names by card type; None = column not copied.
ATTRIBUTE_KEYS: dict[str, tuple[str | None, str | None, str | None]] = {
    "Personnel": ("integrity", "cunning", "strength"),
    "Ship": ("range", "weapons", "shields"),
    "Facility": (None, "weapons", "shields"),
    "Outpost": (None, "weapons", "shields"),
}

KEY_ORDER: tuple[str, ...] = (
    "id",
    "name",
    "type",
    "set",
    "release",
    "legal",
    "premiere",
    "rarity",
    "universal",
    "affiliation",
    "mission_location",
    "quadrant",
    "region",
    "class",
    "span",
    "points",
    "integrity",
    "cunning",
    "strength",
    "range",
    "weapons",
    "shields",
    "staffing",
    "icons",
    "keywords",
)

_INT = re.compile(r"[+-]?\d+")
_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
_CLOCK = re.compile(r"(\d{1,2}):00\s*([AP])M", re.IGNORECASE)
_SENTENCE = re.compile(r"[!?;:,]|\.\s*$")


def clean(text: str) -> str:
    """Return ``text`` NFC-normalised with its whitespace collapsed and stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())  # split(): re's \s, stripped


def as_int(text: str) -> int | None:
    """Return the cell as an int when it is a plain integer, else None."""
    text = text.strip()
    return int(text) if _INT.fullmatch(text) else None


def set_name(release: str, fallback_names: Mapping[str, str]) -> str:
    """Return a readable set name for a release code."""
    if release in SET_NAMES:
        return SET_NAMES[release]
    if release in fallback_names:
        return fallback_names[release]
    return release


def rarity(info: str) -> str | None:
    """Return the rarity code of an ``Info`` cell (``"57 R+"`` -> ``"R+"``), None if none."""
    info = clean(info)
    clock = _CLOCK.fullmatch(info)
    if clock:  # a spreadsheet turned "2 P" into "2:00 PM"
        return clock.group(2).upper()
    parts = info.split(" ")
    if parts and _INT.fullmatch(parts[0]):
        parts = parts[1:]
    code = " ".join(parts)
    return code or None


def card_types(csv_type: str, csv_class: str) -> str | list[str]:
    """Return the catalog type: ``Outpost`` for outpost facilities, a list for slash types."""
    csv_type = clean(csv_type)
    if csv_type == "Facility" and clean(csv_class).casefold() == "outpost":
        return "Outpost"
    if "/" in csv_type:
        return [part.strip() for part in csv_type.split("/") if part.strip()]
    return csv_type


def affiliations(cell: str) -> list[str]:
    """Return the affiliations of an ``Affil`` cell, in order, without repeats.

    A cell is icon codes (``[FED][KLI]``), names split by ``/`` (``Bajoran/Federation``) or both
    (``Klingon[FED][KLI]``). A cell holding anything else is mission text: nothing is kept.
    """
    found: list[str] = []
    for piece in re.split(r"(\[[^\[\]]*\]|/)", cell):
        piece = clean(piece)
        if not piece or piece == "/":
            continue
        if piece.startswith("["):
            name = AFFILIATION_CODES.get(piece[1:-1].strip().upper())
        else:
            name = AFFILIATION_NAMES.get(piece.casefold())
        if name is None:
            return []
        if name not in found:
            found.append(name)
    return found


def legality_tags(cell: str) -> list[str]:
    """Return the format/legality tags of a ``Set`` cell (``Trad_Modern`` -> ``["Trad",
    "Modern"]``), in order, without repeats."""
    return list(dict.fromkeys(tag for tag in (clean(t) for t in cell.split("_")) if tag))


def codes(cell: str) -> list[str]:
    """Return the bracketed codes of an icon cell, brackets stripped, in order."""
    return [clean(code) for code in _BRACKETED.findall(cell) if clean(code)]


def keywords(cell: str) -> list[str]:
    """Return the short keyword tokens of a ``Characteristics/ Keywords`` cell."""
    result: list[str] = []
    for token in cell.split(";"):
        token = clean(token)
        if not token or len(token) > 40 or _SENTENCE.search(token) or token.count(" ") > 5:
            continue
        if token not in result:
            result.append(token)
    return result


def build_card(row: Mapping[str, str], fallback_names: Mapping[str, str]) -> dict[str, Any]:
    """Turn one CSV row into one catalog card (facts only, keys in ``KEY_ORDER``)."""
    card: dict[str, Any] = {}
    release = clean(row["Release"])
    ctype = card_types(row["Type"], row["Class"])
    card["id"] = clean(row["Blueprint ID"])
    card["name"] = clean(row["Name"])
    card["type"] = ctype
    card["set"] = set_name(release, fallback_names)
    card["release"] = release
    tags = legality_tags(row["Set"])
    if tags:
        card["legal"] = tags
    if release == "premiere":
        card["premiere"] = True
    code = rarity(row["Info"])
    if code:
        card["rarity"] = code
    if clean(row["Uniqueness"]) == "univ":
        card["universal"] = True
    affil = affiliations(row["Affil"])
    if affil:
        card["affiliation"] = affil
    location = MISSION_LOCATIONS.get(clean(row["Mission/ Dilemma Type"]).replace(" ", ""))
    if location:
        card["mission_location"] = location
    for column, key in (("Quadrant", "quadrant"), ("Region", "region")):
        value = clean(row[column])
        if value:
            card[key] = value
    klass = clean(row["Class"])
    if klass:
        card["class"] = klass
    for column, key in (("Span", "span"), ("Points", "points")):
        number = as_int(row[column])
        if number is not None:
            card[key] = number
    attribute_keys = ATTRIBUTE_KEYS.get(ctype if isinstance(ctype, str) else "", (None,) * 3)
    for column, key in zip(("Int/Rng", "Cun/Wpn", "Str/Shd"), attribute_keys, strict=True):
        number = as_int(row[column])
        if key and number is not None:
            card[key] = number
    for column, key in (("Staff", "staffing"), ("Icons", "icons")):
        values = codes(row[column])
        if values:
            card[key] = values
    words = keywords(row["Characteristics/ Keywords"])
    if words:
        card["keywords"] = words
    unknown = set(card) - set(KEY_ORDER)
    if unknown:
        raise AssertionError(f"keys missing from KEY_ORDER: {sorted(unknown)}")
    return {key: card[key] for key in KEY_ORDER if key in card}


def read_rows(path: Path) -> list[dict[str, str]]:
    """Read the card database CSV (UTF-8, with or without BOM)."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def parenthesised_set_names(rows: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """Return release -> the ``(Set Name)`` suffix most used by that release's card names."""
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        match = re.search(r"\(([^()]+)\)\s*$", row["Name"])
        if match:
            per_release = counts.setdefault(clean(row["Release"]), {})
            label = clean(match.group(1))
            per_release[label] = per_release.get(label, 0) + 1
    return {
        release: sorted(labels.items(), key=lambda item: (-item[1], item[0]))[0][0]
        for release, labels in counts.items()
    }


def build_catalog(rows: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    """Return the whole catalog document for the CSV rows."""
    fallback = parenthesised_set_names(rows)
    cards = [build_card(row, fallback) for row in rows]
    ids = [card["id"] for card in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate Blueprint IDs in the CSV")
    return {"catalog": dict(CATALOG_TABLE), "cards": cards}


NAMES_HEADER = """\
# Lackey plugin card names -> catalog ids (Star Trek CCG First Edition). GENERATED by
# tools/build_stccg_catalog.py from the plugin's Physical and Virtual card tables as joined to
# the blueprint ids (names and ids only, no card text). Do not edit by hand: re-run the script.
# Columns: the plugin's name; the blueprint id; "back" when the name is the other face of a
# two-sided card; the plugin's image id and set code (a .dek file's <name id=…> and <set>);
# the plugin's legality tags of that row (as the catalog's "legal": a virtual re-issue
# "Name *VP" has its own).
# A card's first row is the name an export writes; rows are sorted by id. Rows without an id
# (at the end) are plugin cards the catalog does not hold.
"""
NAMES_COLUMNS = ("name", "id", "face", "image", "set", "tags")
_BACK = re.compile(r"\s*\(back\)\s*$", re.IGNORECASE)


def _name_key(text: str) -> str:
    return clean(text).casefold()


def build_names(
    name_rows: Sequence[Mapping[str, str]], cards: Sequence[Mapping[str, Any]]
) -> list[tuple[str, str, str, str, str, str]]:
    """Return the name table rows ``(name, id, face, image, set, tags)``, sorted by id.

    A name the plugin gives only to cards without a blueprint id (a virtual alternate such as
    ``Kira**``, a Second Edition image) is listed last with an empty id: a card the catalog
    does not hold, never to be matched to a look-alike. Per card, the export name comes first:
    the name equal to the catalog's, else one of the card's own release, else a name without
    a ``2E`` or ``*`` mark, physical table before virtual, reference sheets last, then the
    plugin's order. The other face of a two-sided card is also listed without its ``(back)``
    mark (``Deep Space 9``), unless that name belongs to another card.
    """
    by_id = {card["id"]: card for card in cards}
    taken: dict[str, tuple[str, str]] = {
        _name_key(card["name"]): (card["id"], "") for card in cards
    }
    chosen: dict[tuple[str, str, str], tuple[tuple[object, ...], tuple[str, ...]]] = {}
    # a row's legality tags, as the catalog's (one token list joined by "_")
    for index, row in enumerate(name_rows):
        name = clean(row["lackey_name"])
        card_id = clean(row["blueprint_id"]) or clean(row["other_face_of"])
        if not name or card_id not in by_id:
            continue
        face = "" if clean(row["blueprint_id"]) else "back"
        card = by_id[card_id]
        release = clean(row["release"])
        image = clean(row["image_file"]).split(",")[0]
        rank = (
            face != "" or _name_key(name) != _name_key(card["name"]),
            release.casefold() != str(card.get("release", "")).casefold(),
            " 2E" in name or "*" in name,
            clean(row["table"]) != "physical",
            release.casefold() in ("ref", "referee"),
            index,
        )
        key = (card_id, face, name)
        if key not in chosen or rank < chosen[key][0]:
            tags = "_".join(legality_tags(row.get("set_tags", "")))
            chosen[key] = (rank, (name, card_id, face, image, release, tags))
        taken.setdefault(_name_key(name), (card_id, face))
    rows = sorted(chosen.values(), key=lambda item: (item[1][1], item[1][2], item[0]))
    table = [row for _, row in rows]
    extra = []
    for name, card_id, face, image, release, tags in table:
        bare = _BACK.sub("", name)
        if face == "back" and bare != name and _name_key(bare) not in taken:
            taken[_name_key(bare)] = (card_id, face)
            extra.append((bare, card_id, face, image, release, tags))
    unknown: dict[str, tuple[str, str, str, str, str, str]] = {}
    for row in name_rows:
        name = clean(row["lackey_name"])
        has_id = clean(row["blueprint_id"]) or clean(row["other_face_of"])
        if name and not has_id and _name_key(name) not in taken:
            image = clean(row["image_file"]).split(",")[0]
            tags = "_".join(legality_tags(row.get("set_tags", "")))
            unknown.setdefault(_name_key(name), (name, "", "", image, clean(row["release"]), tags))
    table.extend(extra)
    table.extend(sorted(unknown.values()))
    # A stable sort: each card's export name stays its first row.
    table.sort(key=lambda row: (row[1] == "", row[1], row[2]))
    return table


def render_names(table: Sequence[tuple[str, ...]]) -> str:
    """Return the name table as tab-separated text (LF line ends)."""
    lines = [NAMES_HEADER.rstrip("\n"), "\t".join(NAMES_COLUMNS)]
    for row in table:
        if any("\t" in cell or "\n" in cell for cell in row):
            raise ValueError(f"a tab or newline in a name table cell: {row!r}")
        lines.append("\t".join(row))
    return "\n".join(lines) + "\n"


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


_ESCAPED = str.maketrans(
    {
        **{code: f"\\u{code:04x}" for code in (*range(0x20), 0x7F)},
        **{ord(char): escape for char, escape in _ESCAPES.items()},
    }
)
"""Each character a basic string escapes: by its short escape, else (a control) by its code."""


def toml_string(text: str) -> str:
    """Return ``text`` as a TOML basic string."""
    return '"' + text.translate(_ESCAPED) + '"'


def toml_value(value: object) -> str:
    """Return a TOML literal for a string, int, bool or flat list of those."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML here")


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_table(values: Mapping[str, object]) -> list[str]:
    """Return the ``key = value`` lines of one table."""
    lines = []
    for key, value in values.items():
        if not _BARE_KEY.fullmatch(key):
            raise ValueError(f"not a bare key: {key!r}")
        lines.append(f"{key} = {toml_value(value)}")
    return lines


def render(catalog: Mapping[str, Any]) -> str:
    """Return the catalog as TOML text (LF line ends, one blank line between tables)."""
    parts = [HEADER_COMMENT, "[catalog]", *toml_table(catalog["catalog"])]
    for card in catalog["cards"]:
        parts.extend(["", "[[cards]]", *toml_table(card)])
    text = "\n".join(parts) + "\n"
    if tomllib.loads(text) != catalog:
        raise AssertionError("the written TOML does not read back as the data")
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """Build the catalog and its name table; return the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "csv",
        nargs="?",
        type=Path,
        default=DEFAULT_CSV,
        help=f"the cards CSV (default: {DEFAULT_CSV})",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=DEFAULT_OUT,
        help=f"where to write the TOML (default: {DEFAULT_OUT}); the name table goes beside it",
    )
    parser.add_argument(
        "--names",
        type=Path,
        default=None,
        help="the Lackey names CSV (default: lackey-names.csv beside the cards CSV)",
    )
    args = parser.parse_args(argv)
    names_csv = args.names or args.csv.parent / "lackey-names.csv"
    for source in (args.csv, names_csv):
        if not source.is_file():
            print(f"build_stccg_catalog: cannot read {source}", file=sys.stderr)
            return 2
    catalog = build_catalog(read_rows(args.csv))
    text = render(catalog)
    names = build_names(read_rows(names_csv), catalog["cards"])
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(text.encode("utf-8"))
    names_out = args.output.parent / NAMES_FILE
    names_out.write_bytes(render_names(names).encode("utf-8"))
    print(
        f"wrote {len(catalog['cards'])} cards to {args.output} and {len(names)} names to "
        f"{names_out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
