"""``tools/get_uv.py``, which puts uv's program into a new venv for ``make``: which wheel it
takes from the index's list, and when it leaves the work to pip (no network in these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, load_script

GET_UV = load_script("deckcheck_get_uv", REPO / "tools" / "get_uv.py")


def _file(name: str, *, yanked: bool | str = False) -> dict[str, object]:
    return {
        "filename": name,
        "url": f"../files/{name}",
        "hashes": {"sha256": "0"},
        "yanked": yanked,
    }


FILES = [
    _file("uv-0.9.10-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
    _file("uv-0.10.2-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
    _file("uv-0.10.2-py3-none-manylinux_2_28_aarch64.whl"),
    _file("uv-0.10.2-py3-none-musllinux_1_1_x86_64.whl"),
    _file("uv-0.10.2-py3-none-macosx_11_0_arm64.whl"),
    _file("uv-0.10.2.tar.gz"),
    _file("uv-0.11.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", yanked="broken"),
    _file("uv-0.12.0rc1-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
    _file("uv-0.12.1-py3-none-manylinux_2_39_x86_64.whl"),
]


def test_the_newest_final_release_this_machine_runs() -> None:
    """Numbers compared as numbers (0.10 after 0.9); not yanked, not a pre-release, not for a
    glibc newer than this one, not for another machine or C library."""
    chosen = GET_UV.choose(FILES, "x86_64", 17)
    assert chosen["filename"] == FILES[1]["filename"]
    assert GET_UV.choose(FILES, "x86_64", 39)["filename"] == FILES[-1]["filename"]
    assert GET_UV.choose(FILES, "aarch64", 31)["filename"] == FILES[2]["filename"]


@pytest.mark.parametrize(("machine", "glibc"), [("aarch64", 27), ("x86_64", 16)])
def test_no_wheel_for_this_machine_is_left_to_pip(machine: str, glibc: int) -> None:
    with pytest.raises(GET_UV.NotHere):
        GET_UV.choose(FILES, machine, glibc)


@pytest.mark.parametrize("setting", ["PIP_INDEX_URL", "UV_INDEX_URL", "UV_DEFAULT_INDEX"])
def test_an_index_configured_for_pip_or_uv_is_left_to_them(
    setting: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Refused before anything is asked of the network, and nothing is written."""
    monkeypatch.setenv(setting, "https://mirror.example/simple")
    assert GET_UV.main([str(tmp_path)]) == 1
    assert list(tmp_path.iterdir()) == []
