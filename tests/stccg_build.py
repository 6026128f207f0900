"""``tools/build_stccg_catalog.py`` run in process, and its build from the shared card list made
once per test run for the tests that compare what it writes with what is shipped (the catalog,
the Lackey name table): the build reads four thousand cards and checks its own TOML, the same
work for each of them, and for each xdist worker that runs one of them (the run's folder,
``conftest.RUN_CACHE``, holds it for the others).

Helpers are plain functions, imported like conftest's (``from stccg_build import built``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO, RUN_CACHE, load_script

SCRIPT = REPO / "tools" / "build_stccg_catalog.py"


@dataclass(frozen=True)
class Ran:
    """The script's exit code and what it wrote to standard error."""

    code: int
    stderr: str


@functools.cache
def _script() -> ModuleType:
    return load_script("build_stccg_catalog", SCRIPT)


def run_script(*args: str | Path) -> Ran:
    """``python tools/build_stccg_catalog.py ARGS``, run in process."""
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors):
        code = _script().main([str(arg) for arg in args])
    return Ran(code, errors.getvalue())


_BUILT: dict[Path, tuple[Ran, Path]] = {}


def built(csv: Path, factory: pytest.TempPathFactory) -> tuple[Ran, Path]:
    """The script's run on ``csv`` with ``-o FOLDER/cards.toml`` (the name table goes beside
    it), made once per test run in a folder of its own, which its users only read: the first
    worker to ask builds it (the others wait on a lock, then read its result); a folder without
    a lock (no ``fcntl``) or outside a run is made per process, in ``factory``'s folder."""
    key = csv.resolve()
    if key not in _BUILT:
        _BUILT[key] = _shared(key) or _build(key, factory.mktemp("stccg-build"))
    return _BUILT[key]


def _build(csv: Path, folder: Path) -> tuple[Ran, Path]:
    return run_script(csv, "-o", folder / "cards.toml"), folder


def _shared(csv: Path) -> tuple[Ran, Path] | None:
    """The build of ``csv`` in the run's folder, made there by the first to ask."""
    try:
        import fcntl
    except ImportError:
        return None
    run = os.environ.get(RUN_CACHE)
    if not run or not os.path.isdir(run):
        return None
    name = hashlib.sha256(str(csv).encode()).hexdigest()[:16]
    folder = Path(run) / f".stccg-build-{name}"
    with open(Path(run) / f".stccg-build-{name}.lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not (folder / "ran.json").exists():
            temp = Path(tempfile.mkdtemp(dir=run, prefix=f".stccg-build-{name}-"))
            ran, _ = _build(csv, temp)
            (temp / "ran.json").write_text(json.dumps([ran.code, ran.stderr]), encoding="utf-8")
            os.replace(temp, folder)  # whole or not at all: its readers never see a part
    code, stderr = json.loads((folder / "ran.json").read_text(encoding="utf-8"))
    return Ran(code, stderr), folder
