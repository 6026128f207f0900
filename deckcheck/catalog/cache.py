"""The catalog cache: a game's bundled catalog, built once, kept ready to use, never trusted.

Building STCCG's 4,155 cards from TOML takes most of a second; the cache keeps the built
catalog (each card as checked data, plus the lookups by id and folded name) so that a warm
start reads one file and makes only the cards a command asks for.

One file per catalog, ``<game>.catalog.json`` in the user's cache folder
(``$DECKCHECK_CACHE``, else ``$XDG_CACHE_HOME/deckcheck``, else ``~/.cache/deckcheck``; with
neither ``HOME`` nor ``XDG_CACHE_HOME`` set, or ``DECKCHECK_CACHE=off``, there is no cache). Its
first line is an envelope: format, the hash of the source files the catalog was built from,
the hash and length of the rest of the file, and the card count. Then one line of lookups and
one line per card.

Nothing in the file is believed until checked: the file must be a regular file of the user's
own, of a sane size (opened without following links and without blocking, then checked with
``fstat`` before a byte is read), the envelope must match the sources and the payload, the card
count must match the ``[[cards]]`` tables of the sources, the lookups must have the right
shape, and each card goes through the same checks as a card read from the TOML (and must agree
with the lookups) when it is first made. On any doubt the entry is ignored, the catalog is
built from the TOML, and the entry is rewritten atomically; the only message is a debug note
(logger ``deckcheck.cache``) naming the file. A card found wrong after others were made
switches the whole catalog over to the TOML build. The cache is an optimisation only: a
command's output and exit code are the same with it on, off, cold or warm.

It protects against damage, stale entries and odd files, not against someone who can write
the user's files and forges consistent hashes (they could change the installed catalog too).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, overload

from deckcheck import __version__
from deckcheck.catalog.load import (
    build_catalog,
    bundled_card_problems,
    card_from_mapping,
    parse_document,
)
from deckcheck.catalog.model import Card, CardIndex, Cards, Catalog, FieldSpec
from deckcheck.core.text import fold

CACHE_FORMAT = 2
OFF = frozenset({"0", "off", "false", "no", "none"})
"""``DECKCHECK_CACHE`` values that switch the cache off (any case)."""
ON = frozenset({"1", "on", "true", "yes"})
"""``DECKCHECK_CACHE`` values that mean the default folder."""

STALE_TEMP_SECONDS = 600
"""A temporary file older than this was left by a killed writer and is removed."""

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


def entry_path(folder: Path, game: str) -> Path:
    """The cache file of one game's bundled catalog."""
    return folder / f"{re.sub(r'[^A-Za-z0-9_-]', '_', game)}.catalog.json"


def load_bundled(
    game: str,
    name: str,
    fields: Mapping[str, FieldSpec],
    files: Sequence[tuple[str, bytes]],
    also: Sequence[bytes] = (),
) -> Catalog:
    """A game's bundled catalog from its card files ((label, bytes) in order), through the
    cache. ``also`` are further inputs the catalog depends on (the game definition)."""
    folder = cache_dir()

    def build() -> Catalog:
        return _build(game, name, fields, files)

    if folder is None:
        return build()
    path = entry_path(folder, game)
    sources = _sources_hash(game, files, also)
    limit = 4 * sum(len(data) for _, data in files) + (1 << 20)
    cards_in_sources = sum(_count_tables(data) for _, data in files)
    labels = tuple(label for label, _ in files)

    def rebuild() -> Catalog:
        catalog = build()
        _store(folder, path, game, sources, catalog, cards_in_sources)
        return catalog

    try:
        lines = _read_entry(path, limit)
        cached = _open_entry(lines, game, sources, cards_in_sources, fields, rebuild, path)
    except FileNotFoundError:
        _note(path, "no entry yet; building the catalog from its TOML")
        return rebuild()
    except Exception as exc:  # whatever is wrong with the entry, the TOML decides
        _note(path, f"ignored ({_reason(exc)}); building the catalog from its TOML")
        return rebuild()
    return Catalog(game, name, cached, dict(fields), labels)


class _Doubt(Exception):
    """Why a cache entry is not used."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _note(path: Path, message: str) -> None:
    """A debug note about the cache (never more: the cache is only an optimisation)."""
    import logging  # only when there is something to say: start-up time

    logging.getLogger("deckcheck.cache").debug("catalog cache %s: %s", path, message)


def _build(
    game: str, name: str, fields: Mapping[str, FieldSpec], files: Sequence[tuple[str, bytes]]
) -> Catalog:
    docs = [parse_document(data.decode("utf-8"), label) for label, data in files]
    return build_catalog(game, name, fields, docs)


def _sources_hash(game: str, files: Sequence[tuple[str, bytes]], also: Sequence[bytes]) -> str:
    digest = hashlib.sha256(f"{CACHE_FORMAT}\0{__version__}\0{game}\0".encode())
    for label, data in files:
        digest.update(f"{os.path.basename(label)}\0{len(data)}\0".encode())
        digest.update(data)
    for data in also:
        digest.update(f"\0{len(data)}\0".encode())
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


@cache
def _validators() -> tuple[Any, Any, Any]:
    """The pydantic validators of the envelope, of a card table and of a list of them (built
    on first use, from core schemas: evaluating annotations costs more than reading an entry)."""
    from pydantic_core import SchemaValidator
    from pydantic_core import core_schema as cs

    text, number = cs.str_schema(strict=True), cs.int_schema(strict=True, ge=0)
    envelope = cs.typed_dict_schema(
        {
            "format": cs.typed_dict_field(cs.literal_schema([CACHE_FORMAT])),
            "version": cs.typed_dict_field(text),
            "catalog": cs.typed_dict_field(text),
            "sources": cs.typed_dict_field(text),
            "payload": cs.typed_dict_field(text),
            "bytes": cs.typed_dict_field(number),
            "cards": cs.typed_dict_field(number),
        },
        extra_behavior="forbid",
        strict=True,
    )
    # A card's values are any JSON; the checks shared with the TOML judge them.
    card = cs.dict_schema(text, cs.any_schema(), strict=True)
    cards = cs.list_schema(card, strict=True)
    return SchemaValidator(envelope), SchemaValidator(card), SchemaValidator(cards)


def _lookups_validator(count: int) -> Any:
    """The validator of the lookups line of an entry holding ``count`` cards."""
    from pydantic_core import SchemaValidator
    from pydantic_core import core_schema as cs

    text = cs.str_schema(strict=True)
    texts = cs.list_schema(text, min_length=count, max_length=count, strict=True)
    position = cs.int_schema(strict=True, ge=0, lt=count)
    return SchemaValidator(
        cs.typed_dict_schema(
            {
                "ids": cs.typed_dict_field(texts),
                "folded_ids": cs.typed_dict_field(texts),
                "names": cs.typed_dict_field(
                    cs.dict_schema(text, cs.list_schema(position, min_length=1), strict=True)
                ),
            },
            extra_behavior="forbid",
            strict=True,
        )
    )


def _open_entry(
    lines: list[bytes],
    game: str,
    sources: str,
    cards_in_sources: int,
    fields: Mapping[str, FieldSpec],
    rebuild: Callable[[], Catalog],
    path: Path,
) -> _CachedCards:
    """The cached cards of an entry, after checking everything but the cards themselves."""
    if len(lines) < 2:
        raise _Doubt("has no payload")
    envelope = _validators()[0].validate_json(lines[0])
    if envelope["version"] != __version__:
        raise _Doubt(f"was written by deckcheck {envelope['version']}")
    if envelope["catalog"] != game or envelope["sources"] != sources:
        raise _Doubt("was built from other source files")
    payload = b"\n".join(lines[1:])
    if envelope["bytes"] != len(payload):
        raise _Doubt("is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != envelope["payload"]:
        raise _Doubt("its content does not match its hash")
    count = envelope["cards"]
    if count != cards_in_sources or len(lines) != count + 2:
        raise _Doubt(f"holds {count} cards where the source files have {cards_in_sources}")
    # Every id and folded id of every card; positions inside the catalog.
    lookups = _lookups_validator(count).validate_json(lines[1])
    ids, folded_ids, names = lookups["ids"], lookups["folded_ids"], lookups["names"]
    index = CardIndex(
        {card_id: i for i, card_id in enumerate(ids)},
        {key: i for i, key in enumerate(folded_ids)},
        names,
    )
    return _CachedCards(lines[2:], index, ids, folded_ids, fields, rebuild, path)


class _CachedCards(Cards):
    """The cards of a cache entry, each made (and checked) when first asked for.

    A card that fails its checks makes the whole catalog switch to the TOML build.
    """

    def __init__(
        self,
        texts: list[bytes],
        index: CardIndex,
        ids: list[str],
        folded_ids: list[str],
        fields: Mapping[str, FieldSpec],
        rebuild: Callable[[], Catalog],
        path: Path,
    ) -> None:
        super().__init__()
        self._texts: list[bytes] | None = texts
        self._made: list[Card | None] = [None] * len(texts)
        self._index = index
        self._ids = ids
        self._folded_ids = folded_ids
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
            card = self._make(position, _validators()[1].validate_json(self._texts[position]))
        except (_Doubt, ValueError) as exc:
            self._fall_back(exc)
            return self._cards[position]
        self._made[position] = card
        return card

    def __iter__(self) -> Iterator[Card]:
        # One card at a time: a search that stops at its first match (a selector checking
        # that some card has a value) makes only the cards it looks at.
        for position in range(len(self)):
            yield self[position]

    def lookups(self) -> CardIndex:
        """The lookups read from the entry (or the TOML build's, after a fall-back)."""
        if self._index is None:
            self._index = CardIndex.of(self._cards)
        return self._index

    def by_id(self, card_id: str) -> Card | None:
        """See :meth:`Cards.by_id`; a fall-back during the lookup repeats it on the TOML build."""
        cached = self._texts is not None
        found = super().by_id(card_id)
        return super().by_id(card_id) if cached and self._texts is None else found

    def by_folded_name(self, key: str) -> list[Card]:
        """See :meth:`Cards.by_folded_name`; a fall-back during the lookup repeats it."""
        cached = self._texts is not None
        found = super().by_folded_name(key)
        return super().by_folded_name(key) if cached and self._texts is None else found

    def _make(self, position: int, raw: dict[str, Any]) -> Card:
        """A card from its cached table: the TOML's checks, then agreement with the lookups."""
        problems = bundled_card_problems(raw, self._fields)
        if problems:
            raise _Doubt(f"card {position + 1}: {problems[0][1]}")
        card = card_from_mapping(raw, position, self._fields)
        if card.id != self._ids[position] or fold(card.id) != self._folded_ids[position]:
            raise _Doubt(f"card {position + 1} is not the card its lookups name")
        names = self.lookups().by_name
        if any(position not in names.get(fold(s), ()) for s in (card.name, *card.aliases)):
            raise _Doubt(f"card {position + 1}'s names are missing from its lookups")
        return card

    def _fall_back(self, exc: BaseException) -> None:
        """Use the TOML build from now on (and rewrite the entry)."""
        _note(self._path, f"ignored ({_reason(exc)}); building the catalog from its TOML")
        self._cards = tuple(self._rebuild().cards)
        self._texts = None
        self._made = []
        self._index = None


# --- writing ---------------------------------------------------------------------------------


def _payload(catalog: Catalog) -> bytes:
    cards = list(catalog.cards)
    index = CardIndex.of(cards)
    lookups = {
        "ids": [card.id for card in cards],
        "folded_ids": [fold(card.id) for card in cards],
        "names": index.by_name,
    }
    dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
    lines = [dump(lookups), *(dump(card.as_dict()) for card in cards)]
    return "\n".join(lines).encode("utf-8")


def _store(
    folder: Path, path: Path, game: str, sources: str, catalog: Catalog, cards_in_sources: int
) -> None:
    """Write the entry atomically (never a half-written file, even when interrupted)."""
    if len(catalog) != cards_in_sources:
        _note(path, "not written: the card count cannot be checked against the sources")
        return
    try:
        payload = _payload(catalog)
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold (a TOML date)
        _note(path, f"not written: {exc}")
        return
    envelope = {
        "format": CACHE_FORMAT,
        "version": __version__,
        "catalog": game,
        "sources": sources,
        "payload": hashlib.sha256(payload).hexdigest(),
        "bytes": len(payload),
        "cards": len(catalog),
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

    with _signals_held():
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP while a temporary file exists; they act right after."""
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    held = {getattr(signal, n) for n in names if hasattr(signal, n)}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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
