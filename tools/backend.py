"""deckcheck's build backend (PEP 517, PEP 660): its wheel, its editable install and its source
archive, made from ``pyproject.toml`` with the standard library alone.

pip builds a project in an environment of its own holding the backend's requirements: for a
general backend (hatchling and its five packages, then ``editables``) that means two more pip
runs in every new venv, about a fifth of ``make venv``. This backend needs nothing
(``requires = []``), so pip runs none. It knows one layout: the package ``deckcheck/`` with
every file under it, the ``catalogs`` link followed (a wheel holds no links), and the
``[project]`` table's static fields.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "deckcheck"
# The date every file of a wheel carries (reproducible builds, as hatchling does).
STAMP = (2020, 2, 2, 0, 0, 0)


def _project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)


def _dist(project: dict[str, Any]) -> str:
    """``name-version`` as file names spell it."""
    meta = project["project"]
    return f"{meta['name'].replace('-', '_')}-{meta['version']}"


def _with_extra(requirement: str, extra: str) -> str:
    name, _, marker = requirement.partition(";")
    condition = f'extra == "{extra}"'
    return (
        f"{name.strip()} ; ({marker.strip()}) and {condition}"
        if marker
        else (f"{name.strip()} ; {condition}")
    )


def _metadata(project: dict[str, Any]) -> str:
    """The core metadata (version 2.4) of the ``[project]`` table."""
    meta = project["project"]
    lines = [
        "Metadata-Version: 2.4",
        f"Name: {meta['name']}",
        f"Version: {meta['version']}",
        f"Summary: {meta['description']}",
        f"Requires-Python: {meta['requires-python']}",
        "Description-Content-Type: text/markdown",
        f"License-Expression: {meta['license']}",
    ]
    lines += [f"License-File: {name}" for name in _license_files(project)]
    lines += [f"Requires-Dist: {requirement}" for requirement in meta.get("dependencies", ())]
    extras = meta.get("optional-dependencies", {})
    for extra in sorted(extras):
        lines += [f"Requires-Dist: {_with_extra(r, extra)}" for r in extras[extra]]
    lines += [f"Provides-Extra: {extra}" for extra in sorted(extras)]
    readme = (ROOT / str(meta["readme"])).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _entry_points(project: dict[str, Any]) -> str:
    meta = project["project"]
    groups = {"console_scripts": meta.get("scripts", {}), **meta.get("entry-points", {})}
    text = ""
    for group, entries in groups.items():
        if entries:
            text += f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()) + "\n"
    return text


#: Files no installed package needs that an editor, a merge or Python leaves beside the sources.
_LEFT_BEHIND = (".pyc", ".pyo", "~", ".swp", ".swo", ".orig", ".rej", ".bak", ".tmp")


def shipped(name: str) -> bool:
    """Whether a file or folder of this name under the package goes into the wheel: not
    bytecode, not a hidden file (an editor's lock or swap file, ``.DS_Store``), not what an
    editor or a merge leaves behind."""
    return name != "__pycache__" and not name.startswith(".") and not name.endswith(_LEFT_BEHIND)


def _package_files() -> Iterator[tuple[str, Path]]:
    """Every file of the package (links to folders followed), as (name in the wheel, path)."""
    for folder, dirs, files in os.walk(ROOT / PACKAGE, followlinks=True):
        dirs[:] = sorted(d for d in dirs if shipped(d))
        for name in sorted(files):
            if shipped(name):
                path = Path(folder) / name
                yield path.relative_to(ROOT).as_posix(), path


def _license_files(project: dict[str, Any]) -> list[str]:
    """The ``[project]`` table's license files (paths from the project's root)."""
    return list(project["project"].get("license-files", ()))


def _wheel(wheel_directory: str, files: list[tuple[str, bytes]]) -> str:
    """A wheel of ``files`` (name, content) and the project's metadata; its file name."""
    project = _project()
    dist = _dist(project)
    info = f"{dist}.dist-info"
    files = [
        *files,
        *(
            (f"{info}/licenses/{name}", (ROOT / name).read_bytes())
            for name in _license_files(project)
        ),
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/entry_points.txt", _entry_points(project).encode()),
        (
            f"{info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: deckcheck tools/backend.py\n"
            b"Root-Is-Purelib: true\nTag: py3-none-any\n",
        ),
    ]
    record = io.StringIO()
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.write(f"{name},sha256={digest},{len(data)}\n")
    record.write(f"{info}/RECORD,,\n")
    files.append((f"{info}/RECORD", record.getvalue().encode()))
    filename = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            entry = zipfile.ZipInfo(name, STAMP)
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return filename


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """The wheel: the package's files and its metadata."""
    return _wheel(wheel_directory, [(name, path.read_bytes()) for name, path in _package_files()])


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """The editable wheel: a ``.pth`` file that puts this checkout on ``sys.path``."""
    return _wheel(wheel_directory, [(f"_{PACKAGE}.pth", f"{ROOT}\n".encode())])


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """The source archive: the files named in ``[tool.deckcheck.sdist]``, ``pyproject.toml``
    and the metadata (``PKG-INFO``)."""
    project = _project()
    dist = _dist(project)
    filename = f"{dist}.tar.gz"

    def clean(entry: tarfile.TarInfo) -> tarfile.TarInfo | None:
        if "__pycache__" in entry.name.split("/") or entry.name.endswith(".pyc"):
            return None
        entry.uid = entry.gid = 0
        entry.uname = entry.gname = ""
        return entry

    with tarfile.open(Path(sdist_directory) / filename, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        names = ["pyproject.toml", *_license_files(project), *project["tool"]["deckcheck"]["sdist"]]
        for name in names:
            tar.add(ROOT / name, f"{dist}/{name}", filter=clean)
        info = tarfile.TarInfo(f"{dist}/PKG-INFO")
        data = _metadata(project).encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return filename
