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

An entry is trusted when its hash is verified, as mypy's, ruff's and pytest's caches are: it is
a regular file of the user's own, of a sane size (opened without following links and without
blocking, then checked with ``fstat`` before a byte is read), and its envelope matches the
sources' hash and the payload's hash, length and number of lines. A card or row is decoded when
first asked for. Anything else is ignored, built from the sources and rewritten atomically; the
only message is a debug note (logger ``deckcheck.cache``) naming the file. The cache is an
optimisation only: a command's output and exit code are the same with it on, off, cold or warm.

What this guards against: damage and truncation (the payload's hash and length), stale entries
(the sources' hash, which covers deckcheck's version), odd files (links, pipes, devices, huge
files) and other users' files. What it does not: someone who can already write the user's
files, who can forge an entry with matching hashes as easily as edit the installed catalogs.
Such an entry is believed; being JSON, it can make deckcheck read other card data or stop with
an error, never run code.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from deckcheck import __version__
from deckcheck.catalog.entries import (
    LOOKUP_LINES,
    catalog_lines,
    dump,
    json_line,
    name_lines,
    open_cards,
    open_names,
)
from deckcheck.catalog.load import build_catalog, parse_document
from deckcheck.catalog.model import Catalog, FieldSpec
from deckcheck.catalog.names import NameTable, read_name_table
from deckcheck.core.signals import held

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

    def open_entry(lines: list[bytes]) -> Catalog:
        return Catalog(game, name, open_cards(lines, fields), dict(fields), labels)

    return _through_cache(
        game,
        CATALOG,
        [*files, *(("", data) for data in also)],
        build,
        open_entry,
        lambda catalog: catalog_lines(catalog, fields),
    )


def load_name_table(game: str, label: str, data: bytes) -> NameTable:
    """A game's name table (tab-separated text, see :func:`read_name_table`) through the
    cache. Raises ``ValueError`` when the table cannot be read."""

    return _through_cache(
        game,
        NAMES,
        [(label, data)],
        lambda: read_name_table(data.decode("utf-8")),
        open_names,
        name_lines,
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
    into the definition (raising ``ValueError`` if it cannot: the entry is then rebuilt)."""
    return _through_cache(
        game,
        SPEC,
        [("game.toml", data)],
        build,
        lambda lines: made(json_line(lines[0])),
        lambda built: [dump(plain(built))],
    )


def _through_cache(
    game: str,
    kind: str,
    files: Sequence[tuple[str, bytes]],
    build: Callable[[], T],
    open_entry: Callable[[list[bytes]], T],
    lines_of: Callable[[T], list[bytes]],
) -> T:
    """What the entry of ``files`` gives ``open_entry(payload lines)`` once its hashes are
    verified, else ``build()``, then written as an entry of ``lines_of(built)``."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = entry_path(folder, game, kind)
    sources = _sources_hash(game, kind, files)
    limit = 4 * sum(len(data) for _, data in files) + (1 << 20)
    try:
        return open_entry(_payload(_read_entry(path, limit), game, kind, sources))
    except FileNotFoundError:
        _note(path, "no entry yet; building it from its sources")
    except Exception as exc:  # whatever is wrong with the entry, the sources decide
        _note(path, f"ignored ({_reason(exc)}); building it from its sources")
    built = build()
    _store(folder, path, game, kind, sources, lambda: lines_of(built))
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


# --- reading ---------------------------------------------------------------------------------


def _read_entry(path: Path, limit: int) -> bytes:
    """The bytes of a cache file, read only if it is a regular file of ours within ``limit``."""
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
    return data


def _payload(data: bytes, game: str, kind: str, sources: str) -> list[bytes]:
    """The lines after the envelope, when the envelope is the one this code writes for these
    sources and this payload, with as many lines as it says."""
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
    return lines


def _lookup_lines(kind: str) -> int:
    return 0 if kind == SPEC else LOOKUP_LINES


# --- writing ---------------------------------------------------------------------------------


def _store(
    folder: Path,
    path: Path,
    game: str,
    kind: str,
    sources: str,
    lines_of: Callable[[], list[bytes]],
) -> None:
    """Write the entry of a built value (its payload lines ``lines_of()``)."""
    try:
        lines = lines_of()
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold (a TOML date)
        _note(path, f"not written: {exc}")
        return
    payload = b"\n".join(lines)
    envelope = _envelope(game, kind, sources, len(lines) - _lookup_lines(kind), payload)
    _write(folder, path, dump(envelope) + b"\n" + payload)


def _write(folder: Path, path: Path, data: bytes) -> None:
    """Write an entry atomically (never a half-written file, even when interrupted) into a
    folder of the user's own."""
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
