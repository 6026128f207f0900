"""Hostile input through every command: one clear message naming the file (and line), exit 2,
fast, never a traceback, never a hang.

The corpus lives in ``tests/nasty/`` (regenerate with ``python tests/make_nasty.py``); every
file of it has its expected outcome in :data:`DECKS` or :data:`OVERLAYS` below. Large inputs
(50 MB, 10,000 lines) are made in ``tmp_path``.

Known library bugs are kept as ``xfail(strict=True)`` tests whose reason starts with ``BUG:``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from deckcheck.cli.app import app

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
NASTY = TESTS / "nasty"
EXAMPLES = REPO / "examples"
RD_DECK = EXAMPLES / "ren-dhark" / "blue-starter.txt"
RD_CUSTOM = EXAMPLES / "ren-dhark" / "terra-custom.txt"
PC_DECK = EXAMPLES / "planetary-conquerors" / "legal-50.txt"
DORN_DECK = EXAMPLES / "dorn" / "four-heroes.txt"

FAST = 2.0
"""Seconds an in-process rejection may take (the issue: "within a second or two")."""
SUBPROCESS_LIMIT = 5.0
"""Seconds a whole ``python -m deckcheck`` run may take (start-up included; CI headroom)."""
SUBPROCESS_TIMEOUT = 10.0
WORKS = (0, 1, 3)

runner = CliRunner()


@pytest.fixture(autouse=True, scope="module")
def _build_the_click_command_once() -> Iterator[None]:
    """typer's CliRunner rebuilds the click command on every invoke (~13 ms, most of a run);
    build it once for this module's hundreds of runs."""
    original = typer.testing._get_command
    built = typer.main.get_command(app)

    def cached(target: typer.Typer) -> object:
        return built if target is app else original(target)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", cached)
        yield


# --- the bugs found (see the module docstring) ---------------------------------------------
# Fixed: BUG_MARKUP_CRASH (kept for the record)
BUG_MARKUP_CRASH: str | None = None
# Fixed: BUG_MARKUP_EATS (kept for the record)
BUG_MARKUP_EATS: str | None = None
# Fixed: BUG_UNKNOWN_GAME (kept for the record)
BUG_UNKNOWN_GAME: str | None = None
# Fixed: BUG_UNKNOWN_VARIANT (kept for the record)
BUG_UNKNOWN_VARIANT: str | None = None
# Fixed: BUG_NUL_NO_LINE (kept for the record)
BUG_NUL_NO_LINE: str | None = None
# Fixed: BUG_HEADER_NO_LINE (kept for the record)
BUG_HEADER_NO_LINE: str | None = None
# Fixed: BUG_TYPE_NOT_TEXT (kept for the record)
BUG_TYPE_NOT_TEXT: str | None = None
# Fixed: BUG_FIFO_HANG (kept for the record)
BUG_FIFO_HANG: str | None = None
# Fixed: BUG_LONG_NAME (kept for the record)
BUG_LONG_NAME: str | None = None
# Fixed: BUG_MANY_UNKNOWN (kept for the record)
BUG_MANY_UNKNOWN: str | None = None
# Fixed: BUG_NEGATIVE_SEED (kept for the record)
BUG_NEGATIVE_SEED: str | None = None
# Fixed: BUG_BY_TURN_ZERO (kept for the record)
BUG_BY_TURN_ZERO: str | None = None
# Fixed: BUG_NAME_SELECTOR (kept for the record)
BUG_NAME_SELECTOR: str | None = None
# Fixed: BUG_EXPORT_SPECIAL (kept for the record)
BUG_EXPORT_SPECIAL: str | None = None


# --- helpers ---------------------------------------------------------------------------------


def squash(text: str) -> str:
    """``text`` without any whitespace: rich wraps long messages at the terminal width."""
    return "".join(text.split())


@dataclass(frozen=True)
class Outcome:
    """What one run printed and returned."""

    code: int
    stdout: str
    stderr: str
    crash: BaseException | None
    seconds: float

    @property
    def text(self) -> str:
        return self.stdout + "\n" + self.stderr


def cli(args: Sequence[str | Path], stdin: bytes | None = None) -> Outcome:
    """Run ``deckcheck ARGS`` in process (typer's CliRunner)."""
    start = time.perf_counter()
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    seconds = time.perf_counter() - start
    crash = result.exception
    if isinstance(crash, SystemExit):
        crash = None
    return Outcome(result.exit_code, result.stdout, result.stderr, crash, seconds)


def _start(args: Sequence[str | Path], stdin: bytes | None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *(str(a) for a in args)],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def _finish(
    proc: subprocess.Popen[bytes], start: float, stdin: bytes | None, timeout: float
) -> Outcome | None:
    """The outcome of a started run, or None when it outlived ``timeout`` (it is killed)."""
    try:
        left = max(0.0, start + timeout - time.perf_counter())
        stdout, stderr = proc.communicate(stdin, timeout=left)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    return Outcome(
        proc.returncode,
        stdout.decode("utf-8", "replace"),
        stderr.decode("utf-8", "replace"),
        None,
        time.perf_counter() - start,
    )


def run_subprocess(
    args: Sequence[str | Path], stdin: bytes | None = None, timeout: float = SUBPROCESS_TIMEOUT
) -> Outcome:
    """Run ``python -m deckcheck ARGS``; a timeout is a failed test (a hang), not an error."""
    start = time.perf_counter()
    out = _finish(_start(args, stdin), start, stdin, timeout)
    if out is None:
        pytest.fail(f"deckcheck {' '.join(map(str, args))[:200]} hung (> {timeout} s)")
    return out


def _timed_run(args: Sequence[str | Path], stdin: bytes | None, timeout: float) -> Outcome | None:
    start = time.perf_counter()
    return _finish(_start(args, stdin), start, stdin, timeout)


def run_in_parallel(
    runs: dict[str, tuple[list[str | Path], bytes | None]], timeout: float, workers: int
) -> dict[str, Outcome | None]:
    """Several ``python -m deckcheck`` runs, ``workers`` at a time, each timed on its own;
    None marks a run that outlived ``timeout`` (a hang)."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {
            key: pool.submit(_timed_run, args, stdin, timeout)
            for key, (args, stdin) in runs.items()
        }
        return {key: future.result() for key, future in futures.items()}


def assert_clean(out: Outcome, limit: float = FAST) -> None:
    """No crash, no traceback, no 'internal error', quick."""
    assert out.crash is None, f"crashed with {out.crash!r}\n{out.text}"
    assert "Traceback" not in out.text, out.text
    assert "internal error" not in out.text.lower(), out.text
    assert out.seconds < limit, f"took {out.seconds:.2f} s"


def assert_rejects(
    out: Outcome,
    *,
    names: str | Path | None = None,
    lines: Sequence[int] = (),
    says: Sequence[str] = (),
    code: int = 2,
    limit: float = FAST,
) -> None:
    """A clean rejection: exit ``code`` (2), one message on standard error naming ``names``,
    each of ``lines`` (as ``file:LINE`` or ``line LINE``) and each of ``says``."""
    assert_clean(out, limit)
    assert out.code == code, f"exit {out.code}, expected {code}\n{out.text}"
    flat = squash(out.stderr)  # the message is for people: standard error (stdout may be JSON)
    if names is not None:
        assert squash(str(names)) in flat, f"message does not name {names}\n{out.text}"
    for line in lines:
        where = re.escape(squash(str(names))) + f":{line}(?!\\d)" if names else f":{line}(?!\\d)"
        assert re.search(where, flat) or re.search(f"line{line}(?!\\d)", flat), (
            f"message does not give line {line}\n{out.text}"
        )
    for word in says:
        assert squash(word).lower() in flat.lower(), f"message lacks {word!r}\n{out.text}"
    assert out.stderr.count("error:") <= 1, f"more than one message\n{out.text}"


def xfail_if(bug: str | None) -> list[pytest.MarkDecorator]:
    return [pytest.mark.xfail(reason=bug, strict=True)] if bug else []


# --- the corpus and what each file must do --------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """The outcome for one corpus file.

    ``works``: a valid deck (validate exits 3: no resource points; other commands 0).
    ``names``: the file the message must name (default: the corpus file itself).
    ``bug`` applies to the commands in ``bug_in`` (all when None).
    """

    works: bool = False
    lines: tuple[int, ...] = ()
    says: tuple[str, ...] = ()
    names: str | None = None
    bug: str | None = None
    bug_in: frozenset[str] | None = None
    game: str = "ren-dhark"
    check_code: int = 2

    def bug_for(self, command: str) -> str | None:
        if self.bug and (self.bug_in is None or command in self.bug_in):
            return self.bug
        return None


DECKS: dict[str, Expect] = {
    "random-bytes.bin": Expect(says=("binary",)),
    "empty.txt": Expect(says=("no cards",)),
    "bom-only.txt": Expect(says=("no cards",)),
    "utf16le-bom.txt": Expect(works=True),
    "utf16be-bom.txt": Expect(works=True),
    "utf8-bom-crlf.txt": Expect(works=True),
    "mixed-line-ends.txt": Expect(works=True),
    "deck with spaces – Žluťoučký kůň ✓.txt": Expect(works=True),
    "utf16le-nobom.txt": Expect(says=("UTF-16",)),
    "cp1250-czech.txt": Expect(lines=(1,), says=("Windows-1250",)),
    "latin1.txt": Expect(lines=(1,), says=("UTF-8",)),
    "nul-bytes.txt": Expect(lines=(4,), says=("NUL",), bug=BUG_NUL_NO_LINE),
    "toml-game-int.toml": Expect(lines=(1,), says=("game",)),
    "toml-count-string.toml": Expect(lines=(5,), says=("POINT OF", "two")),
    "toml-count-float.toml": Expect(lines=(5,), says=("POINT OF", "1.5")),
    "toml-count-bool.toml": Expect(lines=(5,), says=("POINT OF",)),
    "toml-count-huge.toml": Expect(lines=(5,), says=("1000000000000",)),
    "toml-count-negative.toml": Expect(lines=(5,), says=("negative",)),
    "toml-cards-array.toml": Expect(says=("[cards]",), bug=BUG_MARKUP_EATS),
    "toml-syntax.toml": Expect(lines=(3,), says=("TOML",)),
    "toml-deep.toml": Expect(says=("nested",)),
    "toml-nosuchgame.toml": Expect(lines=(1,), says=("nosuchgame",), bug=BUG_UNKNOWN_GAME),
    "toml-catalog-int.toml": Expect(lines=(2,), says=("catalog",)),
    "json-garbage.json": Expect(lines=(5,), says=("JSON",)),
    "json-deep.json": Expect(says=("nested",)),
    "json-count-huge.json": Expect(says=("1000000000000",)),
    "count-huge.txt": Expect(lines=(4,), says=("1000000000000",)),
    "count-negative.txt": Expect(lines=(4,), says=("negative",)),
    "count-hex.txt": Expect(lines=(4,)),
    "count-exp.txt": Expect(lines=(4,), says=("1e3",)),
    "count-only.txt": Expect(lines=(4,)),
    "count-x-only.txt": Expect(lines=(4,), says=("2x",)),
    "count-suffix-huge.txt": Expect(lines=(4,), says=("99999999999999999999",)),
    "long-line.txt": Expect(says=("game",)),
    "unknown-card.txt": Expect(lines=(4, 5), says=("POINT OFF", "Ren Dharkk")),
    "deck-nosuchgame.txt": Expect(lines=(2,), says=("nosuchgame",), bug=BUG_UNKNOWN_GAME),
    "deck-nosuchvariant.txt": Expect(lines=(3,), says=("nosuchvariant",), bug=BUG_UNKNOWN_VARIANT),
    "deck-catalog-missing.txt": Expect(names="no-such-overlay.toml", says=("no such file",)),
    "deck-catalog-dir.txt": Expect(names=str(NASTY), says=("directory",)),
    "deck-catalog-binary.txt": Expect(names="random-bytes.bin", says=("binary",)),
    "deck-missions-banana.txt": Expect(lines=(2,), says=("banana",), bug=BUG_HEADER_NO_LINE),
    "markup-line.txt": Expect(lines=(3,), says=("[/]",), bug=BUG_MARKUP_CRASH),
    "markup [bold] name.txt": Expect(lines=(3,), says=("No Such Card",), bug=BUG_MARKUP_EATS),
}

_NOT_CHECK = frozenset({"validate", "cards", "odds", "hand", "simulate", "export", "diff"})
OVERLAYS: dict[str, Expect] = {
    "ovl-misspelt-field.toml": Expect(lines=(7,), says=("resource_point", "resource_points")),
    "ovl-no-type.toml": Expect(lines=(9,), says=("Typeless", "type")),
    "ovl-negative.toml": Expect(lines=(7,), says=("resource_points", "-3")),
    "ovl-type-int.toml": Expect(lines=(7,), says=("type",), bug=BUG_TYPE_NOT_TEXT),
    "ovl-pc-rarity7.toml": Expect(lines=(8,), says=("rarity", "7"), game="planetary-conquerors"),
    "ovl-pc-trap-cost.toml": Expect(
        lines=(9,), says=("trap", "cost_gold"), game="planetary-conquerors"
    ),
    "ovl-nosuchgame.toml": Expect(lines=(1,), says=("nosuchgame",)),
    "ovl-no-catalog.toml": Expect(
        lines=(1,), says=("[catalog]",), bug=BUG_MARKUP_EATS, bug_in=_NOT_CHECK
    ),
    "ovl-cards-not-array.toml": Expect(says=("[[cards]]",), bug=BUG_MARKUP_EATS, bug_in=_NOT_CHECK),
    "ovl-syntax.toml": Expect(lines=(7,), says=("TOML",)),
    # A valid planetary-conquerors overlay: fine on its own, wrong over a Ren Dhark deck.
    "ovl-wrong-game.toml": Expect(lines=(1,), says=("planetary-conquerors",), check_code=0),
}

DeckArgs = Callable[[Path], list[str | Path]]
DECK_COMMANDS: dict[str, DeckArgs] = {
    "validate": lambda f: ["validate", f],
    "validate-json": lambda f: ["validate", f, "--json"],
    "odds": lambda f: ["odds", f, "type:ship>=1"],
    "hand": lambda f: ["hand", f, "--seed", "1"],
    "simulate": lambda f: ["simulate", f, "type:ship>=1", "--trials", "200", "--seed", "1"],
    "export": lambda f: ["export", f, "--to", "json"],
    "diff": lambda f: ["diff", f, RD_DECK],
    "diff-second": lambda f: ["diff", RD_DECK, f],
}

_OVERLAY_DECK = {"ren-dhark": RD_DECK, "planetary-conquerors": PC_DECK}
_OVERLAY_CONDITION = {"ren-dhark": "type:ship>=1", "planetary-conquerors": "type:warrior>=1"}
OverlayArgs = Callable[[Path, str], list[str | Path]]
OVERLAY_COMMANDS: dict[str, OverlayArgs] = {
    "catalog-check": lambda f, g: ["catalog", "check", f],
    "validate": lambda f, g: ["validate", _OVERLAY_DECK[g], "--catalog", f],
    "cards": lambda f, g: ["cards", g, "--catalog", f],
    "odds": lambda f, g: ["odds", _OVERLAY_DECK[g], _OVERLAY_CONDITION[g], "--catalog", f],
    "hand": lambda f, g: ["hand", _OVERLAY_DECK[g], "--seed", "1", "--catalog", f],
    "simulate": lambda f, g: [
        "simulate",
        _OVERLAY_DECK[g],
        _OVERLAY_CONDITION[g],
        "--trials",
        "200",
        "--seed",
        "1",
        "--catalog",
        f,
    ],
    "export": lambda f, g: ["export", _OVERLAY_DECK[g], "--to", "json", "--catalog", f],
    "diff": lambda f, g: ["diff", _OVERLAY_DECK[g], _OVERLAY_DECK[g], "--catalog", f],
}


def _deck_cases() -> list[object]:
    return [
        pytest.param(name, command, marks=xfail_if(expect.bug_for(command)), id=f"{command}-{name}")
        for name, expect in DECKS.items()
        for command in DECK_COMMANDS
    ]


def _overlay_cases() -> list[object]:
    return [
        pytest.param(name, command, marks=xfail_if(expect.bug_for(command)), id=f"{command}-{name}")
        for name, expect in OVERLAYS.items()
        for command in OVERLAY_COMMANDS
    ]


def _load_make_nasty() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_nasty", TESTS / "make_nasty.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the corpus itself ---------------------------------------------------------------------


def test_corpus_is_up_to_date_small_and_fully_expected() -> None:
    make_nasty = _load_make_nasty()
    assert make_nasty.differs(NASTY) == [], "run: python tests/make_nasty.py"
    files = [p for p in NASTY.iterdir() if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 200_000
    assert {p.name for p in files} == set(DECKS) | set(OVERLAYS)


# --- every command over every corpus file ---------------------------------------------------


@pytest.mark.parametrize(("name", "command"), _deck_cases())
def test_deck_file(name: str, command: str) -> None:
    expect = DECKS[name]
    path = NASTY / name
    out = cli(DECK_COMMANDS[command](path))
    if command == "validate-json":
        json.loads(out.stdout)  # --json: standard output holds only the JSON, even on errors
    if expect.works:
        assert_clean(out)
        wanted = (3,) if command.startswith("validate") else (0,)
        assert out.code in wanted, f"exit {out.code}\n{out.text}"
        return
    names = NASTY / expect.names if expect.names else path
    assert_rejects(out, names=names, lines=expect.lines, says=expect.says)


@pytest.mark.parametrize(("name", "command"), _overlay_cases())
def test_overlay_file(name: str, command: str) -> None:
    expect = OVERLAYS[name]
    path = NASTY / name
    out = cli(OVERLAY_COMMANDS[command](path, expect.game))
    if command == "catalog-check" and expect.check_code == 0:
        assert_clean(out)
        assert out.code == 0, out.text
        return
    assert_rejects(out, names=path, lines=expect.lines, says=expect.says)


_AS_OVERLAY_BUGS = {"markup [bold] name.txt": BUG_MARKUP_EATS}


@pytest.mark.parametrize(
    ("name", "command"),
    [
        pytest.param(
            name, command, marks=xfail_if(_AS_OVERLAY_BUGS.get(name)), id=f"{command}-{name}"
        )
        for name in DECKS
        for command in ("catalog-check", "cards")
    ],
)
def test_deck_file_given_as_a_catalog(name: str, command: str) -> None:
    """A user passing a deck where a catalog overlay belongs gets exit 2, not a crash."""
    path = NASTY / name
    out = cli(OVERLAY_COMMANDS[command](path, "ren-dhark"))
    assert_rejects(out, names=path)


# --- paths that are not files ---------------------------------------------------------------

_PATH_COMMANDS: dict[str, DeckArgs] = {
    **DECK_COMMANDS,
    "catalog-check": lambda f: ["catalog", "check", f],
    "cards-catalog": lambda f: ["cards", "ren-dhark", "--catalog", f],
    "validate-catalog": lambda f: ["validate", RD_DECK, "--catalog", f],
}


@pytest.mark.parametrize("command", list(_PATH_COMMANDS))
def test_missing_path(tmp_path: Path, command: str) -> None:
    path = tmp_path / "no such deck.txt"
    assert_rejects(cli(_PATH_COMMANDS[command](path)), names=path, says=("no such file",))


@pytest.mark.parametrize("command", list(_PATH_COMMANDS))
def test_directory(tmp_path: Path, command: str) -> None:
    path = tmp_path / "a folder"
    path.mkdir()
    assert_rejects(cli(_PATH_COMMANDS[command](path)), names=path, says=("directory",))


@pytest.mark.parametrize("command", ["validate", "catalog-check", "validate-catalog"])
def test_file_name_too_long(tmp_path: Path, command: str) -> None:
    path = tmp_path / ("a" * 300 + ".txt")
    assert_rejects(cli(_PATH_COMMANDS[command](path)), names=path)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("game: ren-dhark\n2 POINT OF\n", encoding="utf-8")
    path.chmod(0)
    try:
        assert_rejects(cli(["validate", path]), names=path)
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


Hangs = dict[str, tuple[Path, Outcome | None]]


@pytest.fixture(scope="module")
def possible_hangs(tmp_path_factory: pytest.TempPathFactory) -> Hangs:
    """The runs that hang or crawl today, started together (one wait for all of them)."""
    folder = tmp_path_factory.mktemp("hangs")
    inputs: dict[str, Path] = {}
    if hasattr(os, "mkfifo"):
        inputs["fifo"] = folder / "deck.fifo"
        os.mkfifo(inputs["fifo"])
    for game in ("ren-dhark", "stccg-1e"):
        inputs[f"many-{game}"] = _many_unknown(folder / f"many {game}.txt", f"game: {game}\n")
    # All at once: the suite waits for their common time limit once, not once per case.
    results = run_in_parallel(
        {key: (["validate", path], None) for key, path in inputs.items()},
        SUBPROCESS_LIMIT,
        workers=len(inputs),
    )
    return {key: (inputs[key], results[key]) for key in inputs}


def _hang_free(runs: Hangs, key: str) -> tuple[Path, Outcome]:
    if key not in runs:
        pytest.skip("needs named pipes")
    path, out = runs[key]
    if out is None:
        pytest.fail(f"deckcheck validate {path} hung (> {SUBPROCESS_LIMIT} s)")
    return path, out


def test_named_pipe_does_not_hang(possible_hangs: Hangs) -> None:
    fifo, out = _hang_free(possible_hangs, "fifo")
    assert_rejects(out, names=fifo, limit=SUBPROCESS_LIMIT)


def test_several_decks_worst_code_wins_and_good_deck_still_reported() -> None:
    out = cli(["validate", RD_DECK, NASTY / "random-bytes.bin"])
    assert_clean(out)
    assert out.code == 2
    assert squash(str(RD_DECK)) in squash(out.text)
    assert squash(str(NASTY / "random-bytes.bin")) in squash(out.text)


# --- standard input -------------------------------------------------------------------------

_GARBAGE = (NASTY / "random-bytes.bin").read_bytes()[:512]


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "-"],
        ["odds", "-", "type:ship>=1"],
        ["hand", "-"],
        ["simulate", "-", "type:ship>=1", "--trials", "100"],
        ["export", "-", "--to", "json"],
        ["catalog", "check", "-"],
    ],
    ids=lambda a: a[0] if a[0] != "catalog" else "catalog-check",
)
@pytest.mark.parametrize(
    "data",
    [_GARBAGE, b"", b"\x00" * 64, "game: ren-dhark\nčeský balíček\n".encode("cp1250")],
    ids=["random", "empty", "nuls", "cp1250"],
)
def test_stdin_garbage(args: list[str], data: bytes) -> None:
    assert_rejects(cli(args, stdin=data), names="<stdin>")


def test_stdin_utf16_deck_works() -> None:
    data = (NASTY / "utf16le-bom.txt").read_bytes()
    out = cli(["validate", "-"], stdin=data)
    assert_clean(out)
    assert out.code == 3, out.text


def test_stdin_too_large_is_rejected_fast() -> None:
    out = cli(["validate", "-"], stdin=b"2 POINT OF\n" * 600_000)  # 6.6 MB
    assert_rejects(out, names="<stdin>", says=("bytes",))


# --- large files ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fifty_mb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "fifty-mb.txt"
    line = b"2 POINT OF\n"
    with path.open("wb") as handle:
        handle.write(b"game: ren-dhark\n")
        handle.write(line * (50 * 1024 * 1024 // len(line)))
    return path


@pytest.mark.parametrize("command", ["validate", "odds", "export", "diff"])
def test_fifty_mb_file_is_rejected_fast(fifty_mb: Path, command: str) -> None:
    out = cli(DECK_COMMANDS[command](fifty_mb))
    assert_rejects(out, names=fifty_mb, says=("bytes",), limit=FAST)


def test_fifty_mb_file_as_catalog_is_rejected_fast(fifty_mb: Path) -> None:
    assert_rejects(cli(["catalog", "check", fifty_mb]), names=fifty_mb, limit=FAST)
    assert_rejects(cli(["validate", RD_DECK, "--catalog", fifty_mb]), names=fifty_mb)


def test_fifty_mb_file_subprocess(fifty_mb: Path) -> None:
    out = run_subprocess(["validate", fifty_mb])
    assert_rejects(out, names=fifty_mb, limit=SUBPROCESS_LIMIT)


def _many_unknown(path: Path, header: str) -> Path:
    lines = "".join(f"{i % 4 + 1} Nonexistent card number {i:05d}\n" for i in range(10_000))
    path.write_text(header + lines, encoding="utf-8")
    return path


def test_ten_thousand_unknown_lines_without_game(tmp_path: Path) -> None:
    deck = _many_unknown(tmp_path / "many.txt", "")
    out = run_subprocess(["validate", deck], timeout=SUBPROCESS_LIMIT)
    assert_rejects(out, names=deck, limit=SUBPROCESS_LIMIT)


@pytest.mark.parametrize("game", ["ren-dhark", "stccg-1e"])
def test_ten_thousand_unknown_lines_are_rejected_fast(possible_hangs: Hangs, game: str) -> None:
    deck, out = _hang_free(possible_hangs, f"many-{game}")
    assert_rejects(out, names=deck, lines=(2, 10_001), limit=SUBPROCESS_LIMIT)


@pytest.mark.parametrize("game", ["ren-dhark", "stccg-1e"])
def test_hundred_kb_card_name_with_a_game(tmp_path: Path, game: str) -> None:
    deck = tmp_path / "long.txt"
    deck.write_bytes(f"game: {game}\n".encode() + (NASTY / "long-line.txt").read_bytes())
    out = run_subprocess(["validate", deck])
    assert_rejects(out, names=deck, lines=(3,), limit=SUBPROCESS_LIMIT)


# --- conditions and options -------------------------------------------------------------------

CONDITIONS: list[tuple[str, str, str | None]] = [
    ("type:ship>=banana", "banana", None),
    (">=2", ">=2", None),
    ("type:ship>=-1", "-1", None),
    ("type:ship>=99999999999", "99999999999", None),
    ("type:nonexistent>=1", "nonexistent", None),
    ("unknownfield:x>=1", "unknownfield", None),
    ("", "condition", None),
    ("type:ship", "type:ship", None),
    ("type:ship=>2", "ship", None),
    ("id:NOPE>=1", "NOPE", None),
    ('"">=1', "selector", None),
    ("type:ship>=1\x00", "type:ship", None),
    ("name:zzz>=1", "zzz", BUG_NAME_SELECTOR),
    ("[/]>=1", "[/]", BUG_MARKUP_CRASH),
]


@pytest.mark.parametrize("command", ["odds", "simulate", "hand"])
@pytest.mark.parametrize(
    ("condition", "says"),
    [pytest.param(c, s, marks=xfail_if(b), id=repr(c)) for c, s, b in CONDITIONS],
)
def test_bad_condition(command: str, condition: str, says: str) -> None:
    args: list[str | Path] = [command, RD_CUSTOM, condition]
    if command == "simulate":
        args += ["--trials", "100"]
    assert_rejects(cli(args), says=(says,))


OPTIONS: list[tuple[list[str], str, str | None]] = [
    (["odds", "--seen", "-1"], "--seen", None),
    (["odds", "--seen", "1000"], "1000", None),
    (["odds", "--seen", str(10**12)], str(10**12), None),
    (["odds", "--turn", "0"], "--turn", None),
    (["odds", "--turn", "-3"], "--turn", None),
    (["odds", "--turn", str(10**30)], "cards seen", None),
    (["odds", "--seen", "8", "--turn", "2"], "--seen", None),
    (["odds", "--redraws", "banana"], "banana", None),
    (["odds", "--redraws", "-1"], "-1", None),
    (["odds", "--redraws", str(10**12)], str(10**12), None),
    (["odds", "--mulligan", "maybe"], "maybe", None),
    (["odds", "--by-turn", str(10**12)], "--by-turn", None),
    (["odds", "--by-turn", "0"], "--by-turn", BUG_BY_TURN_ZERO),
    (["simulate", "--trials", "0"], "--trials", None),
    (["simulate", "--trials", str(10**12)], "--trials", None),
    (["simulate", "--trials", "-5"], "--trials", None),
    (["simulate", "--trials", "100", "--mulligan", "maybe"], "maybe", None),
    (["simulate", "--trials", "100", "--redraws", "banana"], "banana", None),
    (["simulate", "--trials", "100", "--turn", "0"], "--turn", None),
    (["simulate", "--trials", "100", "--seed", "-1"], "--seed", BUG_NEGATIVE_SEED),
    (["hand", "--count", "0"], "--count", None),
    (["hand", "--count", str(10**12)], "--count", None),
    (["hand", "--mulligan", "maybe"], "maybe", None),
    (["validate", "--variant", "nosuchvariant"], "nosuchvariant", None),
    (["validate", "--game", "dorn"], "dorn", None),
    (["validate", "--missions", "-1"], "missions", None),
    (["export", "--to", "nosuchformat"], "nosuchformat", None),
    (["export", "--to", "[/]"], "[/]", BUG_MARKUP_CRASH),
]


@pytest.mark.parametrize(
    ("argv", "says"),
    [pytest.param(a, s, marks=xfail_if(b), id=" ".join(a)) for a, s, b in OPTIONS],
)
def test_bad_option(argv: list[str], says: str) -> None:
    command, *options = argv
    args: list[str | Path] = [command, RD_CUSTOM]
    if command in ("odds", "simulate"):
        args.append("type:ship>=1")
    assert_rejects(cli([*args, *options]), says=(says,))


GAME_FIELD_PILE: list[tuple[list[str | Path], str, str | None]] = [
    (["cards", "nosuchgame"], "nosuchgame", None),
    (["cards", "nosuchgame", "x", "--catalog", NASTY / "ovl-no-type.toml"], "nosuchgame", None),
    (["catalog", "template", "nosuchgame"], "nosuchgame", None),
    (["catalog", "template", "ren-dhark", "--field", "nosuchfield"], "nosuchfield", None),
    (["catalog", "template", "ren-dhark", "--field", "[/]"], "[/]", BUG_MARKUP_CRASH),
    (["odds", "dorn:nosuchpile", "type:hero>=1"], "nosuchpile", None),
    (["odds", "nosuchgame:pile", "x>=1"], "nosuchgame:pile", None),
    (["odds", "dorn:rituals", "type:ritual>=1", "--turn", "2"], "--seen", None),
]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        pytest.param(a, s, marks=xfail_if(b), id=" ".join(Path(str(x)).name for x in a))
        for a, s, b in GAME_FIELD_PILE
    ],
)
def test_bad_game_field_or_pile(args: list[str | Path], says: str) -> None:
    assert_rejects(cli(args), says=(says,))


def test_cards_search_that_matches_nothing_is_not_an_error() -> None:
    for search in ("type:", ":", "type:zzz", "\x00", "x" * 10_000, "[/]"):
        out = cli(["cards", "ren-dhark", search])
        assert_clean(out)
        assert out.code == 0, out.text
        if search == "[/]":
            assert "'[/]'" in out.text  # echoed as typed, not read as markup


def test_games_still_work() -> None:
    out = cli(["games", "--json"])
    assert_clean(out)
    assert out.code == 0
    assert {g["id"] for g in json.loads(out.stdout)} >= {"ren-dhark", "planetary-conquerors"}


# --- export destinations ------------------------------------------------------------------------


def test_export_to_a_directory(tmp_path: Path) -> None:
    out = cli(["export", RD_CUSTOM, "--to", "json", "-o", tmp_path])
    assert_rejects(out, names=tmp_path, says=("directory",))


def test_export_never_overwrites_without_force(tmp_path: Path) -> None:
    target = tmp_path / "existing.json"
    target.write_text("precious\n", encoding="utf-8")
    out = cli(["export", RD_CUSTOM, "--to", "json", "-o", target])
    assert_rejects(out, names=target, says=("--force",))
    assert target.read_text(encoding="utf-8") == "precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["existing.json"]  # no temporary left over


def test_export_with_force_replaces(tmp_path: Path) -> None:
    target = tmp_path / "existing.json"
    target.write_text("precious\n", encoding="utf-8")
    out = cli(["export", RD_CUSTOM, "--to", "json", "-o", target, "--force"])
    assert_clean(out)
    assert out.code == 0, out.text
    assert json.loads(target.read_text(encoding="utf-8"))


@pytest.mark.parametrize("where", ["missing/dir/out.json", "file.txt/out.json"])
def test_export_into_a_missing_directory(tmp_path: Path, where: str) -> None:
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    target = tmp_path / where
    out = cli(["export", RD_CUSTOM, "--to", "json", "-o", target])
    assert_rejects(out, names=target)
    assert not target.exists()


def test_export_of_a_bad_deck_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    out = cli(["export", NASTY / "cp1250-czech.txt", "--to", "json", "-o", target])
    assert_rejects(out, names=NASTY / "cp1250-czech.txt", says=("Windows-1250",))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_export_force_onto_a_named_pipe_keeps_it_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    out = run_subprocess(
        ["export", RD_CUSTOM, "--to", "json", "-o", fifo, "--force"], timeout=SUBPROCESS_LIMIT
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the named pipe was replaced by a regular file"
    assert_rejects(out, names=fifo, limit=SUBPROCESS_LIMIT)


# --- diff -----------------------------------------------------------------------------------------


def test_diff_of_two_games() -> None:
    out = cli(["diff", RD_CUSTOM, DORN_DECK])
    assert_rejects(out, names=RD_CUSTOM, says=(str(DORN_DECK), "ren-dhark", "dorn"))


# --- the same through a real process ----------------------------------------------------------

SUBPROCESS_CASES: list[tuple[list[str | Path], int, Path | str | None, tuple[int, ...]]] = [
    (["validate", NASTY / "random-bytes.bin"], 2, NASTY / "random-bytes.bin", ()),
    (["validate", NASTY / "cp1250-czech.txt"], 2, NASTY / "cp1250-czech.txt", (1,)),
    (["validate", NASTY / "utf16le-bom.txt"], 3, None, ()),
    (["validate", NASTY / "deck with spaces – Žluťoučký kůň ✓.txt"], 3, None, ()),
    (["validate", NASTY / "toml-syntax.toml"], 2, NASTY / "toml-syntax.toml", (3,)),
    (["validate", NASTY / "json-deep.json"], 2, NASTY / "json-deep.json", ()),
    (["odds", NASTY / "unknown-card.txt", "type:ship>=1"], 2, NASTY / "unknown-card.txt", (4, 5)),
    (["odds", RD_CUSTOM, "type:ship>=banana"], 2, None, ()),
    (["simulate", RD_CUSTOM, "type:ship>=1", "--trials", str(10**12)], 2, None, ()),
    (
        ["catalog", "check", NASTY / "ovl-misspelt-field.toml"],
        2,
        NASTY / "ovl-misspelt-field.toml",
        (7,),
    ),
    (
        ["validate", RD_DECK, "--catalog", NASTY / "ovl-no-type.toml"],
        2,
        NASTY / "ovl-no-type.toml",
        (9,),
    ),
    (["validate", "/nonexistent/deck.txt"], 2, "/nonexistent/deck.txt", ()),
    (["validate", NASTY], 2, NASTY, ()),
    (["cards", "nosuchgame"], 2, None, ()),
]


_STDIN_CASE: list[str | Path] = ["validate", "-"]
_SUBPROCESS_IDS = [" ".join(Path(str(a)).name for a in c[0]) for c in SUBPROCESS_CASES]


@pytest.fixture(scope="module")
def subprocess_results() -> dict[str, Outcome | None]:
    """Every subprocess case, run two at a time (each is mostly interpreter start-up)."""
    runs: dict[str, tuple[list[str | Path], bytes | None]] = {
        key: (case[0], None) for key, case in zip(_SUBPROCESS_IDS, SUBPROCESS_CASES, strict=True)
    }
    runs["stdin"] = (_STDIN_CASE, _GARBAGE)
    return run_in_parallel(runs, SUBPROCESS_TIMEOUT, workers=2)


def _result(results: dict[str, Outcome | None], key: str) -> Outcome:
    out = results[key]
    if out is None:
        pytest.fail(f"{key} hung (> {SUBPROCESS_TIMEOUT} s)")
    return out


@pytest.mark.parametrize("key", _SUBPROCESS_IDS)
def test_subprocess(subprocess_results: dict[str, Outcome | None], key: str) -> None:
    _, code, names, lines = SUBPROCESS_CASES[_SUBPROCESS_IDS.index(key)]
    out = _result(subprocess_results, key)
    if code in WORKS:
        assert_clean(out, limit=SUBPROCESS_LIMIT)
        assert out.code == code, out.text
    else:
        assert_rejects(out, names=names, lines=lines, limit=SUBPROCESS_LIMIT)


def test_subprocess_stdin_garbage(subprocess_results: dict[str, Outcome | None]) -> None:
    assert_rejects(_result(subprocess_results, "stdin"), names="<stdin>", limit=SUBPROCESS_LIMIT)


def test_subprocess_markup_in_a_deck_line() -> None:
    out = run_subprocess(["validate", NASTY / "markup-line.txt"])
    assert_rejects(out, names=NASTY / "markup-line.txt", lines=(3,), limit=SUBPROCESS_LIMIT)


def test_subprocess_overlay_type_not_text() -> None:
    out = run_subprocess(["catalog", "check", NASTY / "ovl-type-int.toml"])
    assert_rejects(out, names=NASTY / "ovl-type-int.toml", lines=(7,), limit=SUBPROCESS_LIMIT)
