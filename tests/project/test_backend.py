"""The project's build backend (``tools/backend.py``): what pip installs from it.

The wheel must hold every file of the package, the bundled catalogs (behind the
``deckcheck/catalogs`` link) and the terminal app's stylesheet included, with the metadata and
entry points of ``pyproject.toml``; an editable install puts the checkout on ``sys.path``.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

from conftest import REPO, load_script

BACKEND = load_script("deckcheck_backend", REPO / "tools" / "backend.py")
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_pyproject_names_this_backend_and_needs_nothing_installed() -> None:
    system = PROJECT["build-system"]
    assert system == {"requires": [], "build-backend": "backend", "backend-path": ["tools"]}


def test_the_wheel_holds_the_package_catalogs_and_stylesheet_with_a_true_record(
    tmp_path: Path,
) -> None:
    name = BACKEND.build_wheel(str(tmp_path))
    assert name == "deckcheck-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name) as wheel:
        names = set(wheel.namelist())
        package = {
            path.relative_to(REPO).as_posix()
            for path in (REPO / "deckcheck").rglob("*")
            if path.is_file()
            and all(BACKEND.shipped(part) for part in path.relative_to(REPO).parts)
        }
        catalogs = {
            "deckcheck/" + path.relative_to(REPO).as_posix()
            for path in (REPO / "catalogs").rglob("*")
            if path.is_file() and all(BACKEND.shipped(part) for part in path.parts)
        }
        assert "deckcheck/catalogs/stccg-1e/cards.toml" in catalogs
        assert "deckcheck/tui/build.tcss" in package
        info = "deckcheck-0.1.0.dist-info"
        meta = {
            f"{info}/{n}"
            for n in ("METADATA", "entry_points.txt", "WHEEL", "RECORD", "licenses/LICENSE")
        }
        assert names == package | catalogs | meta
        rows = list(csv.reader(io.StringIO(wheel.read(f"{info}/RECORD").decode())))
        assert {row[0] for row in rows} == names
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                continue
            data = wheel.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert (digest, size) == (f"sha256={expected.decode()}", str(len(data))), path
        assert wheel.read(f"{info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()
        metadata = Parser().parsestr(wheel.read(f"{info}/METADATA").decode())
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
    project = PROJECT["project"]
    assert metadata["Name"] == project["name"] and metadata["Version"] == project["version"]
    assert metadata["Requires-Python"] == project["requires-python"]
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    requires = metadata.get_all("Requires-Dist")
    assert requires[: len(project["dependencies"])] == project["dependencies"]
    assert 'pytest>=8.4 ; extra == "test"' in requires
    assert sorted(metadata.get_all("Provides-Extra")) == sorted(project["optional-dependencies"])
    assert metadata.get_payload() == (REPO / "README.md").read_text(encoding="utf-8")
    assert "[console_scripts]\ndeckcheck = deckcheck.cli.main:main\n" in entry_points
    for game, target in project["entry-points"]["deckcheck.games"].items():
        assert f"{game} = {target}\n" in entry_points


def test_the_editable_wheel_puts_the_checkout_on_the_path(tmp_path: Path) -> None:
    name = BACKEND.build_editable(str(tmp_path))
    with zipfile.ZipFile(tmp_path / name) as wheel:
        assert wheel.read("_deckcheck.pth").decode() == f"{REPO}\n"
        assert "deckcheck-0.1.0.dist-info/entry_points.txt" in wheel.namelist()
        assert not any(n.startswith("deckcheck/") for n in wheel.namelist())


def test_what_editors_merges_and_python_leave_beside_the_sources_is_not_shipped() -> None:
    for name in ("cards.toml", "build.tcss", "values.py", "py.typed", "a.b.tsv"):
        assert BACKEND.shipped(name), name
    for name in (
        "__pycache__",
        "values.cpython-311.pyc",
        ".values.py.swp",
        "values.py~",
        "values.py.orig",
        "values.py.rej",
        ".DS_Store",
        ".#values.py",
        "x.bak",
    ):
        assert not BACKEND.shipped(name), name
