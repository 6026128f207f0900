"""``tools/build_stccg_catalog.py`` run in process, and its build from the shared card list made
once per test process for the tests that compare what it writes with what is shipped (the
catalog, the Lackey name table): the build reads four thousand cards and checks its own TOML,
the same work for each of them.

Helpers are plain functions, imported like conftest's (``from stccg_build import built``).
"""

from __future__ import annotations

import contextlib
import functools
import io
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO, load_script

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
    it), made once per test process in a folder of its own, which its users only read."""
    key = csv.resolve()
    if key not in _BUILT:
        folder = factory.mktemp("stccg-build")
        _BUILT[key] = (run_script(key, "-o", folder / "cards.toml"), folder)
    return _BUILT[key]
