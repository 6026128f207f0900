"""Put uv's program into a venv's ``bin`` folder from the package index, without pip.

``make`` installs with uv (see the Makefile). pip can fetch uv, but it judges every one of the
6,000 files of uv's index page against some thousand platform tags in Python, about two seconds
of CPU (docs/performance.md, "Installing"). Here only the newest release's wheel for this
machine is taken: Linux with glibc on x86-64 or ARM64, a wheel ``manylinux_2_N`` with N no newer
than this glibc. The wheel's SHA-256 is checked against the index's. Anything else (another
system, an index configured for pip or uv, no network, no such wheel) exits with 1 and prints
why: the Makefile then asks pip.

Usage: ``python3 tools/get_uv.py VENV_BIN``
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import re
import stat
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

INDEX = "https://pypi.org/simple/uv/"
JSON = "application/vnd.pypi.simple.v1+json"
MACHINES = {"x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
TIMEOUT = 30.0
# An index chosen for pip or uv is theirs to use: this script only knows PyPI's.
INDEX_SETTINGS = (
    "PIP_INDEX_URL",
    "PIP_NO_INDEX",
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "UV_INDEX",
    "UV_OFFLINE",
)
WHEEL = re.compile(r"uv-(\d+(?:\.\d+)*)-py3-none-(.+)\.whl")


class NotHere(Exception):
    """This machine or index is not one this script handles: pip's turn."""


def _glibc_minor() -> int:
    """The minor version of this glibc 2.x (Linux only)."""
    if sys.platform != "linux":
        raise NotHere(f"not Linux ({sys.platform})")
    name, _, version = (os.confstr("CS_GNU_LIBC_VERSION") or "").partition(" ")
    major, _, minor = version.partition(".")
    if name != "glibc" or major != "2" or not minor.isdigit():
        raise NotHere(f"not glibc 2 ({name} {version})")
    return int(minor)


def _machine() -> str:
    machine = MACHINES.get(platform.machine())
    if machine is None or sys.maxsize <= 2**32:
        raise NotHere(f"no 64-bit x86 or ARM ({platform.machine()})")
    return machine


def _fits(tags: str, machine: str, glibc: int) -> bool:
    """Whether a wheel's platform tags (dot-separated) include one this machine runs."""
    for tag in tags.split("."):
        found = re.fullmatch(r"manylinux_2_(\d+)_(\w+)", tag)
        if found and found[2] == machine and int(found[1]) <= glibc:
            return True
    return False


def choose(files: list[dict[str, object]], machine: str, glibc: int) -> dict[str, object]:
    """The wheel of the newest final release that this machine runs."""
    best: tuple[tuple[int, ...], dict[str, object]] | None = None
    for entry in files:
        found = WHEEL.fullmatch(str(entry.get("filename", "")))
        if not found or entry.get("yanked") or not _fits(found[2], machine, glibc):
            continue
        version = tuple(int(part) for part in found[1].split("."))
        if best is None or version > best[0]:
            best = (version, entry)
    if best is None:
        raise NotHere(f"no uv wheel for manylinux 2.{glibc} {machine}")
    return best[1]


def _get(url: str, accept: str | None = None) -> tuple[bytes, str]:
    headers = {"Accept": accept} if accept else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=TIMEOUT) as r:
        return r.read(), r.headers.get("Content-Type", "")


def install(bin_folder: Path) -> Path:
    """Fetch, check and unpack uv's program into ``bin_folder``; its path."""
    configured = [name for name in INDEX_SETTINGS if os.environ.get(name)]
    if configured:
        raise NotHere(f"an index of its own is configured ({', '.join(configured)})")
    machine, glibc = _machine(), _glibc_minor()
    page, kind = _get(INDEX, JSON)
    if not kind.startswith(JSON):
        raise NotHere(f"the index answered {kind or 'without a type'}")
    entry = choose(json.loads(page)["files"], machine, glibc)
    wheel, _ = _get(urllib.parse.urljoin(INDEX, str(entry["url"])))
    expected = dict(entry.get("hashes") or {}).get("sha256")  # type: ignore[call-overload]
    if not expected or hashlib.sha256(wheel).hexdigest() != expected:
        raise NotHere(f"{entry['filename']}: its SHA-256 is not the index's")
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        member = next(
            (n for n in archive.namelist() if re.fullmatch(r"uv-[^/]+\.data/scripts/uv", n)), None
        )
        if member is None:
            raise NotHere(f"{entry['filename']} holds no uv program")
        program = archive.read(member)
    target = bin_folder / "uv"
    partial = bin_folder / ".uv.partial"
    partial.write_bytes(program)
    partial.chmod(partial.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    partial.replace(target)
    return target


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        install(Path(argv[0]))
    except (NotHere, OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        print(f"uv not fetched directly: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
