"""The catalog cache: a game's bundled catalog, name table and definition, built once and kept
ready to use.

Building STCCG's 4,155 cards from TOML takes most of a second, and reading its name table of
5,549 other spellings (folding and squashing each) tens of milliseconds; a warm start should
cost no more than a small game's. So the cache keeps, per game:

* ``<game>.catalog.json``: the built catalog, each card as data, with its lookups (by id,
  folded id and folded name) and an index of the values of each field (each folded value with
  one card holding it, so that a selector such as ``type:Dilemma`` is known to name something
  without making every card to find out);
* ``<game>.names.json``: a name table's rows with their lookups by folded and squashed name;
* ``<game>.spec.json``: the game's definition (its ``game.toml``) as validated, which spares a
  start parsing the TOML and building the definition's validators.

The files live in the user's cache folder (``$DECKCHECK_CACHE``, else
``$XDG_CACHE_HOME/deckcheck``, else ``~/.cache/deckcheck``; with neither ``HOME`` nor
``XDG_CACHE_HOME`` set, or ``DECKCHECK_CACHE=off``, there is no cache). A file's first line is
an envelope: format, deckcheck's version, the game, the kind of entry, the hash of the source
files it was built from, the hash and length of the rest of the file, and the number of cards
or rows. Then two lines of lookups (for a catalog, the second is the value index), and one line
per card or row. JSON, not pickle or marshal: unpickling runs whatever code the file names,
and marshal is documented as unsafe on malicious data; JSON gives nothing but plain values.

An entry is used only if it is a regular file of the user's own, of a sane size (opened
without following links and without blocking, then checked with ``fstat`` before a byte is
read), and its envelope matches the sources' hash and the payload's hash and length. Then its
content is checked whole, once, as it is read: as many cards or rows as the sources have, each
card passing the checks of a card read from the TOML, each row a list of texts, the lookups
exactly those of the cards or rows, each value index entry naming a card that holds the value.
After that nothing is checked again, and nothing switches to the sources in the middle of a
run: a card or row is decoded when first asked for, from a line already checked.

The whole check decodes and checks every card and row and derives their lookups: about a
sixth of a second for STCCG, as long as the rest of a warm start (a check of the shape alone,
by one pydantic-core validation of the cards, still takes a tenth of a warm start). So an entry
this code wrote, or checked whole and rewrote, carries a stamp: the microseconds of its
modification time are derived from its payload's hash. An entry that carries the stamp of its
own (verified) hash has been written by nothing else since, and is believed without the whole
check; one copied, restored or changed by anything else has the time of that writing, and is
checked whole (and, if sound, stamped). The count of cards or rows in the sources, a function
of their (verified) hash, is compared then too: counting a name table's rows costs more than
reading its entry.

On any doubt the entry is ignored, built from the sources, and rewritten atomically; the only
message is a debug note (logger ``deckcheck.cache``) naming the file. The cache is an
optimisation only: a command's output and exit code are the same with it on, off, cold or warm.

This guards against damage (the payload's hash), stale entries (the sources' hash), odd files,
and content of the wrong shape or whose lookups disagree with its cards. Not against someone
who can write the user's files and forges consistent hashes and stamps (they could change the
installed catalog too): such a forgery can at most make deckcheck read other card data or stop
with an error, never run code.
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

LOOKUP_LINES = 2
"""Lines of lookups after the envelope, before the cards or rows, in a catalog's or a name
table's entry (a definition's entry is one line, without lookups)."""

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

    def open_entry(lines: list[bytes], stamped: bool) -> Catalog:
        made = None if stamped else _checked_cards(lines, fields)
        return Catalog(game, name, _open_cards(lines, fields, made), dict(fields), labels)

    return _through_cache(
        game,
        CATALOG,
        [*files, *(("", data) for data in also)],
        lambda: sum(_count_tables(data) for _, data in files),
        build,
        open_entry,
        lambda catalog: _catalog_lines(catalog, fields),
    )


def load_name_table(game: str, label: str, data: bytes) -> NameTable:
    """A game's name table (tab-separated text, see :func:`read_name_table`) through the
    cache. Raises ``ValueError`` when the table cannot be read."""

    def open_entry(lines: list[bytes], stamped: bool) -> NameTable:
        made = None if stamped else _checked_rows(lines)
        return _CachedNames(lines[LOOKUP_LINES:], _Positions(_json(lines[0])), lines[1], made)

    return _through_cache(
        game,
        NAMES,
        [(label, data)],
        lambda: name_table_size(data.decode("utf-8")),
        lambda: read_name_table(data.decode("utf-8")),
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
    into the definition. ``made`` is the entry's check inside the envelope, on every read (it
    is cheap): it must check the value's whole shape and raise ``ValueError`` on any doubt."""
    return _through_cache(
        game,
        SPEC,
        [("game.toml", data)],
        lambda: 1,
        build,
        lambda lines, stamped: made(_json(lines[0])),
        lambda built: [_dump(plain(built))],
    )


def _through_cache(
    game: str,
    kind: str,
    files: Sequence[tuple[str, bytes]],
    count: Callable[[], int],
    build: Callable[[], T],
    open_entry: Callable[[list[bytes], bool], T],
    lines_of: Callable[[T], list[bytes]],
) -> T:
    """``build()``, or what the entry that holds it gives ``open_entry(payload lines,
    stamped)``, which must check the content whole unless ``stamped`` and raise on any doubt;
    an entry that is missing or in doubt is rebuilt and rewritten (``lines_of`` the built
    value), one checked whole is rewritten as it is, with the stamp. ``count()`` is the
    number of cards or rows in the sources."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = entry_path(folder, game, kind)
    sources = _sources_hash(game, kind, files)
    limit = 4 * sum(len(data) for _, data in files) + (1 << 20)
    try:
        data, mtime_ns = _read_entry(path, limit)
        lines, digest = _payload(data, game, kind, sources)
        stamped = mtime_ns // 1000 % 1_000_000 == _stamp(digest)
        # The count is a function of the sources, whose hash matched: a stamped entry holds
        # theirs. Counting a name table's rows costs more than reading its entry.
        if not stamped and len(lines) != _lookup_lines(kind) + count():
            raise _Doubt(f"holds {len(lines) - _lookup_lines(kind)} entries, not {count()}")
        value = open_entry(lines, stamped)
    except FileNotFoundError:
        _note(path, "no entry yet; building it from its sources")
    except Exception as exc:  # whatever is wrong with the entry, the sources decide
        _note(path, f"ignored ({_reason(exc)}); building it from its sources")
    else:
        if not stamped:  # checked whole: the next start need not check it again
            _write(folder, path, data, digest)
        return value
    built = build()
    _store(folder, path, game, kind, sources, count(), lambda: lines_of(built))
    return built


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


def _envelope(
    game: str, kind: str, sources: str, count: int, payload: bytes | memoryview
) -> dict[str, Any]:
    """The first line of an entry holding ``payload``."""
    return {
        "format": CACHE_FORMAT,
        "version": __version__,
        "catalog": game,
        "kind": kind,
        "sources": sources,
        "payload": hashlib.sha256(payload).hexdigest(),
        "bytes": len(payload),
        "count": count,
    }


def _stamp(digest: str) -> int:
    """The microseconds within its second of the modification time of an entry this code wrote
    (or checked whole): derived from the payload's hash, so that a file written by anything else
    (which gets the time of that writing) is all but certain not to carry it."""
    return int(digest[:12], 16) % 1_000_000


# --- reading ---------------------------------------------------------------------------------


def _read_entry(path: Path, limit: int) -> tuple[bytes, int]:
    """The bytes and modification time (ns) of a cache file, read only if it is a regular file
    of ours within ``limit``."""
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
        left = info.st_size + 1  # one byte more: a file that grew meanwhile is seen to
        while left > 0:
            chunk = os.read(fd, left)  # all at once, as a rule: no copy to join the parts
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) != info.st_size:
        raise _Doubt("changed while it was read")
    return data, info.st_mtime_ns


def _payload(data: bytes, game: str, kind: str, sources: str) -> tuple[list[bytes], str]:
    """The lines after the envelope and their hash, when the envelope is the one this code
    writes for these sources and this payload, with as many lines as it says."""
    start = data.find(b"\n") + 1
    if not start:
        raise _Doubt("has no payload")
    envelope = json.loads(data[: start - 1])
    if not isinstance(envelope, dict) or type(envelope.get("count")) is not int:
        raise _Doubt("its envelope is not of the right shape")
    expected = _envelope(game, kind, sources, envelope["count"], memoryview(data)[start:])
    if envelope != expected:
        differ = [k for k in expected if envelope.get(k) != expected[k]]
        raise _Doubt(f"its envelope differs in {', '.join(differ) or 'its keys'}")
    lines = data.split(b"\n")[1:]
    if len(lines) != _lookup_lines(kind) + envelope["count"]:
        raise _Doubt(f"holds {len(lines) - _lookup_lines(kind)} lines, not {envelope['count']}")
    return lines, expected["payload"]


def _lookup_lines(kind: str) -> int:
    return 0 if kind == SPEC else LOOKUP_LINES


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


class _Positions(Mapping[str, Sequence[int]]):
    """Spelling -> positions as an entry keeps them: one position as a number, several as a
    list (which spares thousands of one-element lists)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Mapping[str, int | list[int]]) -> None:
        self._raw = raw

    def __getitem__(self, key: str) -> Sequence[int]:
        value = self._raw[key]
        return (value,) if isinstance(value, int) else value

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _compact(positions: Mapping[str, Sequence[int]]) -> dict[str, int | list[int]]:
    """Positions as :class:`_Positions` reads them."""
    return {k: v[0] if len(v) == 1 else list(v) for k, v in positions.items()}


# --- a catalog's entry -----------------------------------------------------------------------
#
# Line 1: {"ids": [each card's id], "folded_ids": [...], "names": {folded name: positions}}
# Line 2: the value index, {field: {folded value: position of a card holding it}}, decoded
#         when a selector first asks whether a value exists.
# Then one card table per line, in catalog order.


def _checked_cards(lines: list[bytes], fields: Mapping[str, FieldSpec]) -> list[Card | None]:
    """Every card of an entry, made after the entry's whole check: each card passes the checks
    of a card read from the TOML, the lookups are those of the cards, and each value index
    entry names a card holding the value (a value the index lacks is looked for card by card,
    so the index need not be complete). Raises ``_Doubt``, or whatever decoding raises."""
    cards: list[Card] = []
    for position, line in enumerate(lines[LOOKUP_LINES:]):
        raw = _json(line)
        if not isinstance(raw, dict) or bundled_card_problems(raw, fields):
            raise _Doubt(f"card {position + 1} is not a card of this game")
        cards.append(card_from_mapping(raw, position, fields))
    if _json(lines[0]) != _lookups(cards):
        raise _Doubt("its lookups are not those of its cards")
    values = _json(lines[1])
    if not isinstance(values, dict) or set(values) != {"type", *fields}:
        raise _Doubt("its value index is not of the right shape")
    for field, witnesses in values.items():
        if not isinstance(witnesses, dict) or not all(
            type(p) is int and 0 <= p < len(cards) and key in value_keys(cards[p].get(field))
            for key, p in witnesses.items()
        ):
            raise _Doubt(f"its value index gives {field} values no card holds")
    return list(cards)


def _open_cards(
    lines: list[bytes], fields: Mapping[str, FieldSpec], made: list[Card | None] | None
) -> _CachedCards:
    """The cards of a checked (or stamped) entry, with its lookups."""
    lookups = _json(lines[0])
    positions = range(len(lines) - LOOKUP_LINES)
    index = CardIndex(
        dict(zip(lookups["ids"], positions, strict=True)),
        dict(zip(lookups["folded_ids"], positions, strict=True)),
        _Positions(lookups["names"]),
    )
    return _CachedCards(lines[LOOKUP_LINES:], index, lines[1], fields, made)


class _CachedCards(Cards):
    """The cards of a cache entry, each made when first asked for (``made``: those made
    already), from a line checked with the whole entry or stamped as written by this code."""

    def __init__(
        self,
        texts: list[bytes],
        index: CardIndex,
        values: bytes,
        fields: Mapping[str, FieldSpec],
        made: list[Card | None] | None = None,
    ) -> None:
        super().__init__()
        self._texts = texts
        self._made: list[Card | None] = made or [None] * len(texts)
        self._index = index
        self._values_line = values
        self._values: dict[str, dict[str, int]] | None = None
        self._fields = fields

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, position: int) -> Card: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Card]: ...

    def __getitem__(self, position: int | slice) -> Card | Sequence[Card]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        card = self._made[position]
        if card is None:
            position %= len(self._made)
            raw = json.loads(self._texts[position])
            card = self._made[position] = card_from_mapping(raw, position, self._fields)
        return card

    def __iter__(self) -> Iterator[Card]:
        # One card at a time: a search that stops at its first match makes only the cards it
        # looks at.
        for position in range(len(self)):
            yield self[position]

    def any_card(self, predicate: Callable[[Card], bool], field: str, keys: Iterable[str]) -> bool:
        """See :meth:`Cards.any_card`: the value index names a card to look at; only a value
        the index does not know is searched for card by card."""
        if self._values is None:
            self._values = _json(self._values_line)
        witnesses = self._values.get(field, {})
        for key in sorted(keys):
            position = witnesses.get(key)
            if position is not None and predicate(self[position]):
                return True
        return any(predicate(card) for card in self)


def _lookups(cards: Sequence[Card]) -> dict[str, Any]:
    """A catalog entry's first line: what :func:`_open_cards` makes the lookups of."""
    return {
        "ids": [card.id for card in cards],
        "folded_ids": [fold(card.id) for card in cards],
        "names": _compact(CardIndex.of(cards).by_name),
    }


def _catalog_lines(catalog: Catalog, fields: Mapping[str, FieldSpec]) -> list[bytes]:
    cards = list(catalog.cards)
    return [
        _dump(_lookups(cards)),
        _dump(value_index(cards, fields)),
        *(_dump(card.as_dict()) for card in cards),
    ]


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
# Line 1: {folded name: positions}; line 2: {squashed name: positions}, decoded on the first
# search with punctuation ignored. Then one row per line: [name, card id, face, extra...].


def _checked_rows(lines: list[bytes]) -> list[NameRow | None]:
    """Every row of an entry, made after the entry's whole check: each row is a list of at
    least three texts, and both lookups are those of the rows. Raises ``_Doubt``, or whatever
    decoding raises."""
    rows: list[NameRow] = []
    for position, line in enumerate(lines[LOOKUP_LINES:]):
        cells = _json(line)
        if not (isinstance(cells, list) and len(cells) >= 3 and all(type(c) is str for c in cells)):
            raise _Doubt(f"row {position + 1} is not a row of texts")
        rows.append(NameRow(cells[0], cells[1], cells[2], tuple(cells[3:])))
    if [_json(line) for line in lines[:LOOKUP_LINES]] != _name_lookups(rows):
        raise _Doubt("its lookups are not those of its rows")
    return list(rows)


class _CachedNames(NameTable):
    """The rows of a cached name table, each made when first asked for (``made``: those made
    already), from a line checked with the whole entry or stamped as written by this code."""

    def __init__(
        self,
        texts: list[bytes],
        by_fold: _Positions,
        by_squash: bytes,
        made: list[NameRow | None] | None = None,
    ) -> None:
        super().__init__()
        self._texts = texts
        self._made: list[NameRow | None] = made or [None] * len(texts)
        self._cached_fold = by_fold
        self._squash_line = by_squash
        self._cached_squash: _Positions | None = None

    @property
    def rows(self) -> tuple[NameRow, ...]:
        """Every row (each made)."""
        return tuple(self._row(p) for p in range(len(self._made)))

    def __len__(self) -> int:
        return len(self._made)

    def find(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find`."""
        return [self._row(p) for p in self._cached_fold.get(fold(spelling), ())]

    def find_squashed(self, spelling: str) -> list[NameRow]:
        """See :meth:`NameTable.find_squashed`."""
        if self._cached_squash is None:
            self._cached_squash = _Positions(_json(self._squash_line))
        return [self._row(p) for p in self._cached_squash.get(squash(spelling), ())]

    def _row(self, position: int) -> NameRow:
        row = self._made[position]
        if row is None:
            cells = json.loads(self._texts[position])
            row = self._made[position] = NameRow(cells[0], cells[1], cells[2], tuple(cells[3:]))
        return row


def _name_lookups(rows: Sequence[NameRow]) -> list[dict[str, int | list[int]]]:
    """A name table entry's two lines of lookups, by folded and by squashed name."""
    return [_compact(keys) for keys in name_keys(row.name for row in rows)]


def _name_lines(table: NameTable) -> list[bytes]:
    rows = table.rows
    lines = [_dump(lookups) for lookups in _name_lookups(rows)]
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
    """Write the entry of a built value (its payload lines ``lines_of()``)."""
    try:
        lines = lines_of()
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold (a TOML date)
        _note(path, f"not written: {exc}")
        return
    if len(lines) != _lookup_lines(kind) + count:
        _note(path, "not written: the count cannot be checked against the sources")
        return
    payload = b"\n".join(lines)
    envelope = _envelope(game, kind, sources, count, payload)
    _write(folder, path, _dump(envelope) + b"\n" + payload, envelope["payload"])


def _write(folder: Path, path: Path, data: bytes, digest: str) -> None:
    """Write an entry atomically (never a half-written file, even when interrupted), stamped
    with its payload's hash ``digest``, into a folder of the user's own."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.stat(folder)
        if not stat.S_ISDIR(info.st_mode) or (
            hasattr(os, "geteuid") and info.st_uid != os.geteuid()
        ):
            _note(path, "not written: the folder is not a folder of this user's")
            return
        _write_atomically(folder, path, data, digest)
    except OSError as exc:
        _note(path, f"not written: {exc.strerror or exc}")
        return
    _prune(folder, path)


def _write_atomically(folder: Path, path: Path, data: bytes, digest: str) -> None:
    import tempfile

    # The last whole second (never a time to come), with the stamp as its microseconds.
    mtime = (time.time_ns() // 1_000_000_000 - 1) * 1_000_000_000 + _stamp(digest) * 1000
    with held():  # Ctrl-C, SIGTERM and SIGHUP act right after the temporary file is gone
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.utime(temp, ns=(mtime, mtime))
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
