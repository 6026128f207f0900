"""A cache of parsed bundled catalogs: tomllib is pure Python and a 4,000-card catalog takes
most of a second to parse, while its JSON copy loads in milliseconds.

The cache is keyed by the file's content hash, lives in the user's cache folder
(``$DECKCHECK_CACHE``, else ``$XDG_CACHE_HOME/deckcheck``, else ``~/.cache/deckcheck``) and is
purely an optimisation: any failure to read or write it falls back to parsing the TOML.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from deckcheck.core.errors import CatalogError
from deckcheck.core.tomlfile import parse_toml

CACHE_FORMAT = "1"
SMALL_FILE = 64 * 1024  # smaller catalogs parse faster than a cache lookup is worth


def cache_dir() -> Path | None:
    """Where cached catalogs live, or None when caching is switched off (DECKCHECK_CACHE=off)."""
    configured = os.environ.get("DECKCHECK_CACHE")
    if configured:
        return None if configured.lower() in ("0", "off", "no") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "deckcheck"


def load_catalog_toml(raw: bytes, label: str) -> tuple[str, dict[str, Any]]:
    """(text, parsed data) of a bundled catalog file, through the cache when it is large."""
    text = raw.decode("utf-8")
    folder = cache_dir() if len(raw) >= SMALL_FILE else None
    if folder is None:
        return text, parse_toml(text, label, CatalogError)
    key = hashlib.sha256(raw).hexdigest()[:40]
    path = folder / f"catalog-{CACHE_FORMAT}-{key}.json"
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return text, data
    data = parse_toml(text, label, CatalogError)
    with contextlib.suppress(OSError, TypeError, ValueError):
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".catalog-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return text, data
