"""The catalog cache: a game's bundled catalog and name table, built once, kept ready to use,
never trusted.

Building STCCG's 4,155 cards from TOML takes most of a second, and reading its name table of
9,500 other spellings (folding and squashing each) tens of milliseconds; a warm start should
cost no more than a small game's. So the cache keeps, per game:

* ``<game>.catalog.json``: the built catalog, each card as checked data, with its lookups (by
  id, folded id and folded name) and an index of the values of each field (each folded value
  with one card holding it, so that a selector such as ``type:Dilemma`` is known to name
  something without making every card to find out);
* ``<game>.names.json``: a name table's rows with their lookups by folded and squashed name;
* ``<game>.spec.json``: the game's definition (its ``game.toml``) as validated, which spares a
  start parsing the TOML and building the definition's validators; each value is checked
  against the definition's annotations when read.

Both are made only as far as a command asks: a warm start reads the file, checks it, decodes
the lookups and makes (and checks) only the cards and rows a command touches.

The files live in the user's cache folder (``$DECKCHECK_CACHE``, else
``$XDG_CACHE_HOME/deckcheck``, else ``~/.cache/deckcheck``; with neither ``HOME`` nor
``XDG_CACHE_HOME`` set, or ``DECKCHECK_CACHE=off``, there is no cache). A file's first line is
an envelope: format, deckcheck's version, the game, the kind of entry, the hash of the source
files it was built from (the TOML and game definition, or the name table), the hash and length
of the rest of the file, and the number of cards or rows. Then one line of lookups and one
line per card or row.

Why JSON and not pickle or marshal: unpickling runs whatever code the file names, and marshal
is documented as unsafe on malicious data (it can crash the interpreter), so either would turn
a forged cache file into code execution or a crash. JSON read by pydantic-core's strict
validators produces nothing but plain values of the checked shape, and is fast enough: one
line of lookups per entry (a few milliseconds), and a card or row is decoded only when it is
made. Keying the file to its sources by hash keeps it from being stale, not from being forged.

Nothing in a file is believed until checked: it must be a regular file of the user's own, of a
sane size (opened without following links and without blocking, then checked with ``fstat``
before a byte is read), the envelope must match the sources and the payload, the count must
match the sources (the ``[[cards]]`` tables, the table's rows), the lookups must have the right
shape (the ids at once; a spelling's positions when it is looked up, which must lie inside
the entry), and each card or row goes through the same checks as one read from the sources,
and must agree with the lookups it was found by, when it is first made. A value index entry is
believed only once the card it names is made and holds the value (an absent value is
confirmed by looking at every card). On any doubt the entry is ignored, built
from the sources, and rewritten atomically; the only message is a debug note (logger
``deckcheck.cache``) naming the file. A card or row found wrong after others were made switches
the whole catalog or table over to the source build. The cache is an optimisation only: a
command's output and exit code are the same with it on, off, cold or warm.

It protects against damage, stale entries and odd files, not against someone who can write
the user's files and forges consistent hashes (they could change the installed catalog too);
such a forgery can at most make deckcheck read other card data, never run code.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, overload

from deckcheck import __version__
from deckcheck.catalog.load import (
    build_catalog,
    bundled_card_problems,
    card_from_mapping,
    parse_document,
)
from deckcheck.catalog.model import Card, CardIndex, Cards, Catalog, FieldSpec
from deckcheck.catalog.names import NameRow, NameTable, name_keys, name_table_size, read_name_table
from deckcheck.catalog.selectors import value_keys
from deckcheck.core.signals import held
from deckcheck.core.text import fold, squash

CACHE_FORMAT = 3
OFF = frozenset({"0", "off", "false", "no", "none"})
"""``DECKCHECK_CACHE`` values that switch the cache off (any case)."""
ON = frozenset({"1", "on", "true", "yes"})
"""``DECKCHECK_CACHE`` values that mean the default folder."""

CATALOG = "catalog"
NAMES = "names"
SPEC = "spec"
"""The kinds of entry: a game's bundled catalog, a game's name table, a game's definition."""

STALE_TEMP_SECONDS = 600
"""A temporary file older than this was left by a killed writer and is removed."""

T = TypeVar("T")

_LEGACY = re.compile(r"^catalog-1-[0-9a-f]{40}\.json$")
_CARDS_TABLE = b"\n[[cards]]"


def cache_dir() -> Path | None:
    """Where cached catalogs live, or None when there is no cache.

    ``DECKCHECK_CACHE`` is off/false/0/no/none (no cache), on/true/1/yes (the default folder)
    or a folder; otherwise ``$XDG_CACHE_HOME/deckcheck`` (an absolute path, as the XDG
    specification requires), else ``$HOME/.cache/deckcheck``; None when neither is set.
    """
    configured = os.environ.get("DECKCHECK_CACHE", "").strip()
    if configured.lower() in OFF:
        return None
    if configured and configured.lower() not in ON:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "deckcheck"
    home = os.environ.get("HOME", "")
    if home and os.path.isabs(home):
        return Path(home) / ".cache" / "deckcheck"
    return None


def entry_path(folder: Path, game: str, kind: str = CATALOG) -> Path:
    """The cache file of one game's bundled catalog (or of its name table: ``kind=NAMES``)."""
    return folder / f"{re.sub(r'[^A-Za-z0-9_-]', '_', game)}.{kind}.json"


def load_bundled(
    game: str,
    name: str,
    fields: Mapping[str, FieldSpec],
    files: Sequence[tuple[str, bytes]],
    also: Sequence[bytes] = (),
) -> Catalog:
    """A game's bundled catalog from its card files ((label, bytes) in order), through the
    cache. ``also`` are further inputs the catalog depends on (the game definition)."""

    def build() -> Catalog:
        docs = [parse_document(data.decode("utf-8"), label) for label, data in files]
        return build_catalog(game, name, fields, docs)

    labels = tuple(label for label, _ in files)

    def open_entry(lines: list[bytes], rebuild: Callable[[], Catalog], path: Path) -> Catalog:
        cards = _open_cards(lines, fields, rebuild, path)
        return Catalog(game, name, cards, dict(fields), labels)

    return _through_cache(
        game,
        CATALOG,
        [*files, *(("", data) for data in also)],
        sum(_count_tables(data) for _, data in files),
        build,
        open_entry,
        lambda catalog: _catalog_lines(catalog, fields),
    )


def load_name_table(game: str, label: str, data: bytes) -> NameTable:
    """A game's name table (tab-separated text, see :func:`read_name_table`) through the
    cache. Raises ``ValueError`` when the table cannot be read."""
    text = data.decode("utf-8")

    def open_entry(lines: list[bytes], rebuild: Callable[[], NameTable], path: Path) -> NameTable:
        return _open_names(lines, rebuild, path)

    return _through_cache(
        game,
        NAMES,
        [(label, data)],
        name_table_size(text),
        lambda: read_name_table(text),
        open_entry,
        _name_lines,
    )


def load_definition(
    game: str,
    data: bytes,
    build: Callable[[], T],
    made: Callable[[Any], T],
    plain: Callable[[T], Any],
) -> T:
    """A game's definition (its ``game.toml``, ``data``) as ``build()`` makes it, through the
    cache: the entry holds ``plain(built)`` as one line of JSON, and ``made`` turns that back
    into the definition. ``made`` is the entry's only check inside the envelope: it must check
    the value's whole shape and raise ``ValueError`` on any doubt."""

    def open_entry(lines: list[bytes], rebuild: Callable[[], T], path: Path) -> T:
        return made(_json(lines[1]))

    return _through_cache(
        game,
        SPEC,
        [("game.toml", data)],
        1,
        build,
        open_entry,
        lambda built: [_dump(plain(built))],
    )


def _through_cache(
    game: str,
    kind: str,
    files: Sequence[tuple[str, bytes]],
    count: int,
    build: Callable[[], T],
    open_entry: Callable[[list[bytes], Callable[[], T], Path], T],
    lines_of: Callable[[T], list[bytes]],
) -> T:
    """``build()``, or the entry that holds what it builds, checked by ``open_entry``; an
    entry that is missing or in doubt is rebuilt and rewritten (``lines_of`` the built value)."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = entry_path(folder, game, kind)
    sources = _sources_hash(game, kind, files)
    limit = 4 * sum(len(data) for _, data in files) + (1 << 20)

    def rebuild() -> T:
        built = build()
        _store(folder, path, game, kind, sources, count, lambda: lines_of(built))
        return built

    try:
        lines = _read_entry(path, limit)
        _check_envelope(lines, game, kind, sources, count)
        return open_entry(lines, rebuild, path)
    except FileNotFoundError:
        _note(path, "no entry yet; building it from its sources")
        return rebuild()
    except Exception as exc:  # whatever is wrong with the entry, the sources decide
        _note(path, f"ignored ({_reason(exc)}); building it from its sources")
        return rebuild()


class _Doubt(ValueError):
    """Why a cache entry is not used."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _note(path: Path, message: str) -> None:
    """A debug note about the cache (never more: the cache is only an optimisation)."""
    import logging  # only when there is something to say: start-up time

    logging.getLogger("deckcheck.cache").debug("catalog cache %s: %s", path, message)


def _sources_hash(game: str, kind: str, files: Sequence[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256(f"{CACHE_FORMAT}\0{__version__}\0{game}\0{kind}\0".encode())
    for label, data in files:
        digest.update(f"{os.path.basename(label)}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _count_tables(data: bytes) -> int:
    """``[[cards]]`` tables at the start of a line: one per card of a bundled catalog."""
    return data.count(_CARDS_TABLE) + data.startswith(_CARDS_TABLE[1:])


# --- reading ---------------------------------------------------------------------------------


def _read_entry(path: Path, limit: int) -> list[bytes]:
    """The lines of a cache file, read only if it is a regular file of ours within ``limit``."""
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise _Doubt(f"cannot be opened as a plain file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Doubt("is not a regular file")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise _Doubt("belongs to another user")
        if info.st_size > limit:
            raise _Doubt(f"is {info.st_size:,} bytes, more than a cache of this catalog can be")
        chunks: list[bytes] = []
        left = info.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) != info.st_size:
        raise _Doubt("changed while it was read")
    return data.split(b"\n")


LOOKUP_LINES = 2
"""Lines of lookups after the envelope, before the cards or rows, in a catalog's or a name
table's entry (a definition's entry is one line, without lookups)."""


def _lookup_lines(kind: str) -> int:
    return 0 if kind == SPEC else LOOKUP_LINES


@cache
def _validators() -> tuple[Any, Any, Any]:
    """The pydantic validators of the envelope, of a card table and of a name row (built on
    first use, from core schemas: evaluating annotations costs more than reading an entry)."""
    from pydantic_core import SchemaValidator
    from pydantic_core import core_schema as cs

    text, number = cs.str_schema(strict=True), cs.int_schema(strict=True, ge=0)
    envelope = cs.typed_dict_schema(
        {
            "format": cs.typed_dict_field(cs.literal_schema([CACHE_FORMAT])),
            "version": cs.typed_dict_field(text),
            "catalog": cs.typed_dict_field(text),
            "kind": cs.typed_dict_field(text),
            "sources": cs.typed_dict_field(text),
            "payload": cs.typed_dict_field(text),
            "bytes": cs.typed_dict_field(number),
            "count": cs.typed_dict_field(number),
        },
        extra_behavior="forbid",
        strict=True,
    )
    # A card's values are any JSON; the checks shared with the TOML judge them.
    card = cs.dict_schema(text, cs.any_schema(), strict=True)
    row = cs.list_schema(text, min_length=3, strict=True)
    return SchemaValidator(envelope), SchemaValidator(card), SchemaValidator(row)


@cache
def _lookup_validators(count: int) -> dict[str, Any]:
    """Validators of the lookups of an entry holding ``count`` cards or rows: ``ids`` (a text
    per card) and ``witnesses`` (a field to a position per value)."""
    from pydantic_core import SchemaValidator
    from pydantic_core import core_schema as cs

    text = cs.str_schema(strict=True)
    texts = cs.list_schema(text, min_length=count, max_length=count, strict=True)
    position = cs.int_schema(strict=True, ge=0, lt=count)
    witnesses = cs.dict_schema(text, cs.dict_schema(text, position, strict=True), strict=True)
    return {"ids": SchemaValidator(texts), "witnesses": SchemaValidator(witnesses)}


def _json(line: bytes) -> Any:
    """One line of JSON, decoded while the garbage collector waits: thousands of fresh
    containers that cannot form cycles would otherwise set off a collection of everything the
    program has made so far."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return json.loads(line)
    finally:
        if paused:
            gc.enable()


def _decoded(line: bytes, validator: Any) -> Any:
    """One line of JSON, of the shape ``validator`` checks (strictly). Decoding with the
    standard library and then validating the Python values is several times faster than
    pydantic's own JSON reading for big objects."""
    return validator.validate_python(_json(line), strict=True)


def _object(line: bytes, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """One line holding a JSON object (with exactly ``keys``, when given)."""
    value = _json(line)
    if not isinstance(value, dict) or (keys is not None and set(value) != keys):
        raise _Doubt("its lookups are not of the right shape")
    return value


class _Positions(Mapping[str, Sequence[int]]):
    """Spelling -> positions as an entry keeps them (one position as a number, several as a
    list, which spares thousands of one-element lists), each checked when it is read: a
    value that is not positions inside the entry raises ``_Doubt``."""

    __slots__ = ("_count", "_raw")

    def __init__(self, raw: dict[str, Any], count: int) -> None:
        self._raw = raw
        self._count = count

    def __getitem__(self, key: str) -> Sequence[int]:
        value = self._raw[key]
        count = self._count
        if type(value) is int and 0 <= value < count:
            return (value,)
        if type(value) is list and value and all(type(p) is int and 0 <= p < count for p in value):
            return value
        raise _Doubt(f"its lookups give {key!r} no position inside the entry")

    def get(self, key: str, default: Any = None) -> Any:
        """See :meth:`dict.get` (the value checked)."""
        return self[key] if key in self._raw else default

    def __contains__(self, key: object) -> bool:
        return key in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _compact(positions: Mapping[str, Sequence[int]]) -> dict[str, int | list[int]]:
    """Positions as :class:`_Positions` reads them."""
    return {k: v[0] if len(v) == 1 else list(v) for k, v in positions.items()}


def _check_envelope(lines: list[bytes], game: str, kind: str, sources: str, count: int) -> None:
    """That an entry was written for these sources, whole, with ``count`` cards or rows."""
    lookups = _lookup_lines(kind)
    if len(lines) < 1 + lookups:
        raise _Doubt("has no payload")
    envelope = _validators()[0].validate_json(lines[0])
    if envelope["version"] != __version__:
        raise _Doubt(f"was written by deckcheck {envelope['version']}")
    if envelope["catalog"] != game or envelope["kind"] != kind or envelope["sources"] != sources:
        raise _Doubt("was built from other source files")
    payload = b"\n".join(lines[1:])
    if envelope["bytes"] != len(payload):
        raise _Doubt("is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != envelope["payload"]:
        raise _Doubt("its content does not match its hash")
    if envelope["count"] != count or len(lines) != 1 + lookups + count:
        raise _Doubt(f"holds {envelope['count']} entries where the sources have {count}")


# --- a catalog's entry -----------------------------------------------------------------------
#
# Line 1: {"ids": [each card's id], "folded_ids": [...], "names": {folded name: [positions]}}
# Line 2: the value index, {field: {folded value: position of a card holding it}}, read when a
#         selector first asks whether a value exists.
# Then one card table per line, in catalog order.


def _open_cards(
    lines: list[bytes],
    fields: Mapping[str, FieldSpec],
    rebuild: Callable[[], Catalog],
    path: Path,
) -> _CachedCards:
    """The cached cards of a checked entry, after checking its lookups."""
    count = len(lines) - 1 - LOOKUP_LINES
    lookups = _object(lines[1], frozenset({"ids", "folded_ids", "names"}))
    valid, names = _lookup_validators(count)["ids"], lookups["names"]
    if not isinstance(names, dict):
        raise _Doubt("its lookups by name are not of the right shape")
    positions = range(count)
    # Later cards win an id, as in CardIndex.of: so does dict() over pairs in catalog order.
    index = CardIndex(
        dict(zip(valid.validate_python(lookups["ids"], strict=True), positions, strict=True)),
        dict(
            zip(valid.validate_python(lookups["folded_ids"], strict=True), positions, strict=True)
        ),
        _Positions(names, count),
    )
    return _CachedCards(lines[1 + LOOKUP_LINES :], index, lines[2], fields, rebuild, path)


class _CachedCards(Cards):
    """The cards of a cache entry, each made (and checked) when first asked for.

    A card that fails its checks, or a lookup that names a card that does not answer to it,
    makes the whole catalog switch to the TOML build.
    """

    def __init__(
        self,
        texts: list[bytes],
        index: CardIndex,
        values: bytes,
        fields: Mapping[str, FieldSpec],
        rebuild: Callable[[], Catalog],
        path: Path,
    ) -> None:
        super().__init__()
        self._texts: list[bytes] | None = texts
        self._made: list[Card | None] = [None] * len(texts)
        self._index = index
        self._values_line = values
        self._values: dict[str, dict[str, int]] | None = None
        self._fields = fields
        self._rebuild = rebuild
        self._path = path

    def __len__(self) -> int:
        return len(self._made) if self._texts is not None else len(self._cards)

    @overload
    def __getitem__(self, position: int) -> Card: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Card]: ...

    def __getitem__(self, position: int | slice) -> Card | Sequence[Card]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        if self._texts is None:
            return self._cards[position]
        made = self._made[position]
        if made is not None:
            return made
        if position < 0:
            position += len(self._made)
        try:
            raw = _validators()[1].validate_python(json.loads(self._texts[position]), strict=True)
            card = self._make(position, raw)
        except Exception as exc:  # whatever the reason (nested too deeply too): the sources
            self._fall_back(exc)
            return self._cards[position]
        self._made[position] = card
        return card

    def __iter__(self) -> Iterator[Card]:
        # One card at a time: a search that stops at its first match makes only the cards it
        # looks at.
        for position in range(len(self)):
            yield self[position]

    def lookups(self) -> CardIndex:
        """The lookups read from the entry (or the TOML build's, after a fall-back)."""
        if self._index is None:
            self._index = CardIndex.of(self._cards)
        return self._index

    def by_id(self, card_id: str) -> Card | None:
        """See :meth:`Cards.by_id`; the card found must have that id (else the lookups are
        wrong and the TOML build answers)."""
        if self._texts is not None and self._index is not None:
            position = self._index.by_id.get(card_id)
            folded = fold(card_id)
            if position is None:
                position = self._index.by_folded_id.get(folded)
            if position is None:
                return None
            card = self[position]
            if self._texts is not None:
                if card.id == card_id or fold(card.id) == folded:
                    return card
                self._fall_back(_Doubt(f"its lookups give {card.id} the id {card_id}"))
        return super().by_id(card_id)

    def by_folded_name(self, key: str) -> list[Card]:
        """See :meth:`Cards.by_folded_name`; every card found must have that name (else the
        lookups are wrong and the TOML build answers)."""
        cached = self._texts is not None
        try:
            found = super().by_folded_name(key)
        except _Doubt as exc:
            self._fall_back(exc)
            return super().by_folded_name(key)
        if cached and self._texts is not None:
            for card in found:
                if key not in {fold(s) for s in (card.name, *card.aliases)}:
                    self._fall_back(_Doubt(f"its lookups give {card.id} a name it has not"))
                    break
        return super().by_folded_name(key) if cached and self._texts is None else found

    def by_squashed_name(self, key: str) -> list[Card]:
        """See :meth:`Cards.by_squashed_name`; lookups found wrong meanwhile make the TOML
        build answer."""
        cached = self._texts is not None
        try:
            found = super().by_squashed_name(key)
        except _Doubt as exc:
            self._fall_back(exc)
            return super().by_squashed_name(key)
        return super().by_squashed_name(key) if cached and self._texts is None else found

    def any_card(self, predicate: Callable[[Card], bool], field: str, keys: Iterable[str]) -> bool:
        """See :meth:`Cards.any_card`: the value index names a card to look at; only a value
        the index does not know is searched for card by card (to be sure it is absent)."""
        if self._texts is not None and self._values is None:
            try:
                self._values = _decoded(
                    self._values_line, _lookup_validators(len(self))["witnesses"]
                )
            except Exception as exc:  # whatever the reason: the sources
                self._fall_back(exc)
        if self._texts is not None and self._values is not None:
            witnesses = self._values.get(field, {})
            for key in sorted(keys):
                position = witnesses.get(key)
                if position is None:
                    continue
                card = self[position]
                if self._texts is None:  # the card was wrong: the TOML build answers
                    break
                if predicate(card) and key in value_keys(card.get(field)):
                    return True
                self._fall_back(_Doubt(f"its value index wrongly gives {card.id} {field} {key}"))
                break
        return any(predicate(card) for card in self)

    def _make(self, position: int, raw: dict[str, Any]) -> Card:
        """A card from its cached table: the TOML's checks, then presence in the lookups."""
        problems = bundled_card_problems(raw, self._fields)
        if problems:
            raise _Doubt(f"card {position + 1}: {problems[0][1]}")
        card = card_from_mapping(raw, position, self._fields)
        index = self.lookups()
        if card.id not in index.by_id or fold(card.id) not in index.by_folded_id:
            raise _Doubt(f"card {position + 1}'s id is missing from its lookups")
        names = index.by_name
        if any(position not in names.get(fold(s), ()) for s in (card.name, *card.aliases)):
            raise _Doubt(f"card {position + 1}'s names are missing from its lookups")
        return card

    def _fall_back(self, exc: BaseException) -> None:
        """Use the TOML build from now on (and rewrite the entry)."""
        _note(self._path, f"ignored ({_reason(exc)}); building it from its sources")
        self._cards = tuple(self._rebuild().cards)
        self._texts = None
        self._made = []
        self._index = None
        self._squashed = None


def _catalog_lines(catalog: Catalog, fields: Mapping[str, FieldSpec]) -> list[bytes]:
    cards = list(catalog.cards)
    index = CardIndex.of(cards)
    lookups = {
        "ids": [card.id for card in cards],
        "folded_ids": [fold(card.id) for card in cards],
        "names": _compact(index.by_name),
    }
    return [_dump(lookups), _dump(value_index(cards, fields)), *(_dump(c.as_dict()) for c in cards)]


def value_index(cards: Sequence[Card], fields: Iterable[str]) -> dict[str, dict[str, int]]:
    """Field -> each key of :func:`value_keys` of some card's ``card.get(field)`` -> the
    position of the first card that has it (``type`` and every field in ``fields``)."""
    values: dict[str, dict[str, int]] = {field: {} for field in ("type", *fields)}
    special = [f for f in values if f in ("type", "name", "id")]
    plain = set(values) - set(special)
    lacking = set(plain)  # fields no card seen so far lacks: card.get() is None there
    keys_of: dict[tuple[type, Any], frozenset[str]] = {}

    def add(witnesses: dict[str, int], value: Any, position: int) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                add(witnesses, item, position)
            return
        if isinstance(value, str | int | float | None):  # the usual, hashable values
            memo = (type(value), value)
            keys = keys_of.get(memo)
            if keys is None:
                keys = keys_of[memo] = value_keys(value)
        else:
            keys = value_keys(value)
        for key in keys:
            witnesses.setdefault(key, position)

    for position, card in enumerate(cards):
        for field in special:
            add(values[field], card.get(field), position)
        for field, value in card.fields.items():
            if field in plain:
                add(values[field], value, position)
        if lacking:
            for field in [f for f in lacking if f not in card.fields]:
                add(values[field], None, position)
                lacking.discard(field)
    return values


def _dump(value: Any) -> bytes:
    """One line of JSON (a value JSON cannot hold, such as a TOML date, raises ``TypeError``)."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
    return encode(value).encode("utf-8")


# --- a name table's entry --------------------------------------------------------------------
#
# Line 1: {folded name: [positions]}; line 2: {squashed name: [positions]}, read on the first
# search with punctuation ignored. Then one row per line: [name, card id, face, extra...].


def _open_names(lines: list[bytes], rebuild: Callable[[], NameTable], path: Path) -> _CachedNames:
    """The cached name table of a checked entry, after checking its lookups by folded name."""
    count = len(lines) - 1 - LOOKUP_LINES
    by_fold = _Positions(_object(lines[1]), count)
    return _CachedNames(lines[1 + LOOKUP_LINES :], by_fold, lines[2], rebuild, path)


class _CachedNames(NameTable):
    """The rows of a cached name table, each made (and checked) when first asked for.

    A row that fails its checks, or a lookup that gives a row a name it has not, makes the
    whole table switch to the one read from its text.
    """

    def __init__(
        self,
        texts: list[bytes],
        by_fold: _Positions,
        by_squash: bytes,
        rebuild: Callable[[], NameTable],
        path: Path,
    ) -> None:
        super().__init__()
        self._texts: list[bytes] | None = texts
        self._made: list[NameRow | None] = [None] * len(texts)
        self._cached_fold = by_fold
        self._squash_line = by_squash
        self._cached_squash: _Positions | None = None
        self._rebuild = rebuild
        self._path = path

    @property
    def rows(self) -> tuple[NameRow, ...]:
        """Every row (each made and checked)."""
        if self._texts is not None:
            made = tuple(self._row(p) for p in range(len(self._made)))
            if self._texts is not None:
                return made
        return self._rows

    def __len__(self) -> int:
        return len(self._made) if self._texts is not None else len(self._rows)

    def find(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find`."""
        found = self._found(self._cached_fold, fold(spelling), fold)
        return super().find(spelling) if found is None else found

    def find_squashed(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find_squashed`."""
        found = self._found(self._squashed(), squash(spelling), squash)
        return super().find_squashed(spelling) if found is None else found

    def _squashed(self) -> _Positions | None:
        if self._texts is not None and self._cached_squash is None:
            try:
                self._cached_squash = _Positions(_object(self._squash_line), len(self._made))
            except Exception as exc:  # whatever the reason: the sources
                self._fall_back(exc)
        return self._cached_squash

    def _found(
        self, lookups: _Positions | None, key: str, keyed: Callable[[str], str]
    ) -> list[NameRow] | None:
        """The rows ``lookups`` give for ``key``, each checked to have that key; None once the
        table is the one read from its text."""
        if self._texts is None or lookups is None:
            return None
        try:
            positions = lookups.get(key, ())
        except _Doubt as exc:
            self._fall_back(exc)
            return None
        rows = [self._row(p) for p in positions]
        if self._texts is not None and any(keyed(row.name) != key for row in rows):
            self._fall_back(_Doubt("its lookups give a row a name it has not"))
        return rows if self._texts is not None else None

    def _row(self, position: int) -> NameRow:
        if self._texts is None:  # fell back meanwhile
            return self._rows[position]
        made = self._made[position]
        if made is not None:
            return made
        try:
            cells = _validators()[2].validate_python(json.loads(self._texts[position]), strict=True)
            if position not in self._cached_fold.get(fold(cells[0]), ()):
                raise _Doubt(f"row {position + 1}'s name is missing from its lookups")
        except Exception as exc:  # whatever the reason (nested too deeply too): the sources
            self._fall_back(exc)
            return self._rows[position]
        row = NameRow(cells[0], cells[1], cells[2], tuple(cells[3:]))
        self._made[position] = row
        return row

    def _fall_back(self, exc: BaseException) -> None:
        """Use the table read from its text from now on (and rewrite the entry)."""
        _note(self._path, f"ignored ({_reason(exc)}); building it from its sources")
        self._rows = self._rebuild().rows
        self._texts = None
        self._made = []
        self._cached_squash = None


def _name_lines(table: NameTable) -> list[bytes]:
    rows = table.rows
    by_fold, by_squash = name_keys(row.name for row in rows)
    lines = [_dump(_compact(by_fold)), _dump(_compact(by_squash))]
    lines += [_dump([row.name, row.card_id, row.face, *row.extra]) for row in rows]
    return lines


# --- writing ---------------------------------------------------------------------------------


def _store(
    folder: Path,
    path: Path,
    game: str,
    kind: str,
    sources: str,
    count: int,
    lines_of: Callable[[], list[bytes]],
) -> None:
    """Write the entry atomically (never a half-written file, even when interrupted)."""
    try:
        lines = lines_of()
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold (a TOML date)
        _note(path, f"not written: {exc}")
        return
    if len(lines) - _lookup_lines(kind) != count:
        _note(path, "not written: the count cannot be checked against the sources")
        return
    payload = b"\n".join(lines)
    envelope = {
        "format": CACHE_FORMAT,
        "version": __version__,
        "catalog": game,
        "kind": kind,
        "sources": sources,
        "payload": hashlib.sha256(payload).hexdigest(),
        "bytes": len(payload),
        "count": count,
    }
    data = json.dumps(envelope, separators=(",", ":")).encode() + b"\n" + payload
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(folder)
        if not stat.S_ISDIR(info.st_mode) or (
            hasattr(os, "geteuid") and info.st_uid != os.geteuid()
        ):
            _note(path, "not written: the folder is not a folder of this user's")
            return
        _write_atomically(folder, path, data)
    except OSError as exc:
        _note(path, f"not written: {exc.strerror or exc}")
        return
    _prune(folder, path)


def _write_atomically(folder: Path, path: Path, data: bytes) -> None:
    import tempfile

    with held():  # Ctrl-C, SIGTERM and SIGHUP act right after the temporary file is gone
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


def _prune(folder: Path, path: Path) -> None:
    """Remove entries of the old format and temporary files left by killed writers."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            old_temp = entry.name.startswith(f".{path.name}.") and entry.name.endswith(".tmp")
            if _LEGACY.match(entry.name) or old_temp:
                with contextlib.suppress(OSError):
                    if not old_temp or now - entry.stat().st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(entry.path)
