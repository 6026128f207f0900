"""The documentation runs: every ``deckcheck …`` line of a ``sh`` block in README.md and
docs/*.md, and every ``python`` block, from a checkout, with its exit code checked.

A block runs in a scratch folder where ``examples/`` and ``tests/`` of the checkout are at hand
(so commands use the paths a reader of a checkout would), one command after the other, so a
file one command writes (``-o terra.json``, ``> my-points.toml``) is there for the next. A
command is expected to exit 0 unless its comment says otherwise: ``# exit 1: illegal``.
Shell syntax beyond ``< file`` and ``> file`` (pipes, ``&&``, variables) runs in ``sh``.
Blocks in other languages (``text``, ``toml``, ``json``) are shown, not run.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, WATCHDOG, run_cli

DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SHELLS = {"sh", "shell", "bash", "console"}
AT_HAND = ("examples", "tests")
_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
_EXIT = re.compile(r"\bexit (\d+)\b")
_SHELL_ONLY = {"|", "||", "&&", "&", ";", ">>", "2>", "$(", "`"}


@dataclass(frozen=True)
class Block:
    """One fenced code block: its document, first line number, language and text."""

    document: Path
    line: int
    language: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(REPO)}:{self.line}"


def blocks(language: set[str]) -> list[Block]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            if match.group(1) in language:
                line = text.count("\n", 0, match.start()) + 2
                found.append(Block(document, line, match.group(1), match.group(2)))
    return found


def commands(block: Block) -> Iterator[tuple[int, str, int]]:
    """(line number, command, expected exit code) of each ``deckcheck`` line of a block."""
    pending = ""
    for offset, raw in enumerate(block.text.splitlines()):
        line = pending + raw.strip().removeprefix("$ ")
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line.startswith(("deckcheck ", "python -m deckcheck ")) and line != "deckcheck":
            continue
        command, _, comment = line.partition(" # ")
        expected = _EXIT.search(comment)
        yield block.line + offset, command.strip(), int(expected.group(1)) if expected else 0


def _scratch(tmp_path: Path) -> Path:
    for name in AT_HAND:
        (tmp_path / name).symlink_to(REPO / name, target_is_directory=True)
    return tmp_path


def _tokens(command: str) -> list[str] | None:
    """The words of a command as the shell splits them, or None where it needs a shell."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>()`$")
    lexer.whitespace_split = True
    words = list(lexer)
    if any(w in _SHELL_ONLY or w.startswith(("$", "`")) for w in words):
        return None
    return words


Files = frozenset[tuple[str, bytes]]

_RAN: dict[tuple[str, Files], tuple[int, str]] = {}
"""What documented commands that changed no file answered, by command and the scratch files it
may read: the same line on the same files answers the same (``deckcheck fix`` of an STCCG deck,
shown in README.md and in docs/commands.md, is solved once)."""


def _own_files() -> Files:
    """The files in the current (scratch) folder, with their bytes, but those at hand."""
    found = set()
    for folder, folders, files in os.walk("."):
        if folder == ".":
            folders[:] = [name for name in folders if name not in AT_HAND]
        for name in files:
            path = Path(folder, name)
            found.add((path.as_posix(), path.read_bytes()))
    return frozenset(found)


def _reads_only_what_is_at_hand(command: str) -> bool:
    """Whether every path ``command`` names lies in the checkout's folders at hand (a deck of
    ``examples/`` names its overlays beside it): then no scratch file can change its answer."""
    words = _tokens(command)
    if words is None:
        return False
    # A glob names the files it matches, wherever they are: treated as a path.
    named = [
        w
        for w in words[1:]
        if not w.startswith("-") and ("/" in w or os.path.lexists(w) or set(w) & set("*?["))
    ]
    return all(w.split("/")[0] in AT_HAND for w in named)


def run_command(command: str) -> tuple[int, str]:
    """Run one documented command in the current folder, or give the answer it gave on the
    same files where it changed none."""
    before = _own_files()
    key = (command, frozenset() if _reads_only_what_is_at_hand(command) else before)
    if key not in _RAN:
        answer = _run_command(command)
        if _own_files() != before:
            return answer  # it wrote a file: it runs again wherever it is shown
        _RAN[key] = answer
    return _RAN[key]


def _run_command(command: str) -> tuple[int, str]:
    """Run one documented command in the current folder: in process where the shell would
    only split words, expand globs and redirect a file; else through ``sh``."""
    words = _tokens(command)
    if words is None:
        env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        }
        done = subprocess.run(
            command, shell=True, capture_output=True, text=True, env=env, timeout=WATCHDOG
        )
        return done.returncode, done.stdout + done.stderr
    stdin: bytes | None = None
    stdout_to: str | None = None
    args: list[str] = []
    it = iter(words[3:] if words[0] == "python" else words[1:])
    for word in it:
        if word == "<":
            stdin = Path(next(it)).read_bytes()
        elif word == ">":
            stdout_to = next(it)
        elif any(ch in word for ch in "*?[") and glob.glob(word):
            args.extend(sorted(glob.glob(word)))
        else:
            args.append(word)
    result = run_cli(args, stdin)
    if stdout_to is not None:
        Path(stdout_to).write_text(result.stdout, encoding="utf-8")
    return result.exit_code, result.stdout + result.stderr


SHELL_BLOCKS = [b for b in blocks(SHELLS) if any(commands(b))]


def test_the_documents_show_commands() -> None:
    # A layout change that hid every block from this test would make it pass vacuously.
    assert len(SHELL_BLOCKS) >= 10
    assert sum(len(list(commands(b))) for b in SHELL_BLOCKS) >= 40


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=lambda b: b.id)
def test_documented_commands_run(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_scratch(tmp_path))
    for line, command, expected in commands(block):
        code, output = run_command(command)
        assert code == expected, (
            f"{block.document.name}:{line}: `{command}` exited {code}, "
            f"the document says {expected}\n{output}"
        )
        assert "Traceback" not in output


@pytest.mark.parametrize("block", blocks({"python"}), ids=lambda b: b.id)
def test_documented_python_runs(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_scratch(tmp_path))
    expected = _EXIT.search(block.text)
    try:
        exec(compile(block.text, block.id, "exec"), {"__name__": "__docs__"})
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0
    assert code == (int(expected.group(1)) if expected else 0)
