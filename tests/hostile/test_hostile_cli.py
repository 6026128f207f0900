"""Hostile input through every command: one clear message naming the file (and line), exit 2,
never a traceback, never a hang, and bounded work.

The corpus lives in ``tests/hostile/nasty/`` (regenerate with
``python tests/hostile/make_nasty.py``); every file of it has its expected outcome in
:data:`DECKS` or :data:`OVERLAYS` below. Large inputs
(50 MB, 10,000 lines) are made in ``tmp_path``. No test here times anything: work is bounded by
counting it, and child processes (forked from this one: the real entry point with real
descriptors) run under the suite's watchdog (a hang fails the test).
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, TESTS, load_script, run_cli
from conftest import Finished as Outcome
from process_helpers import run_forked

from deckcheck.core.text import Suggester
from deckcheck.decks import resolve
from deckcheck.games.registry import all_games

NASTY = TESTS / "hostile" / "nasty"
RD_DECK = EXAMPLES / "ren-dhark" / "blue-starter.txt"
RD_CUSTOM = EXAMPLES / "ren-dhark" / "terra-custom.txt"
PC_DECK = EXAMPLES / "planetary-conquerors" / "legal-50.txt"
DORN_DECK = EXAMPLES / "dorn" / "four-heroes.txt"
WORKS = (0, 1, 3)


# --- helpers ---------------------------------------------------------------------------------


def squash(text: str) -> str:
    """``text`` without any whitespace: rich wraps long messages at the terminal width."""
    return "".join(text.split())


def cli(args: Sequence[str | Path], stdin: bytes | None = None) -> Outcome:
    """Run ``deckcheck ARGS`` in process (no traceback, no exception but SystemExit)."""
    result = run_cli(args, stdin)
    return Outcome(result.exit_code, result.stdout, result.stderr)


def run_subprocess(args: Sequence[str | Path], stdin: bytes | None = None) -> Outcome:
    """Run ``deckcheck ARGS`` as a process of its own, forked from this one (the entry point,
    standard streams and exit code of a real run, without an interpreter's start), under the
    watchdog (a hang fails the test)."""
    return run_forked(args, stdin)


def assert_clean(out: Outcome) -> None:
    """No traceback, no 'internal error'."""
    assert "Traceback" not in out.text, out.text
    assert "internal error" not in out.text.lower(), out.text


def assert_rejects(
    out: Outcome,
    *,
    names: str | Path | None = None,
    lines: Sequence[int] = (),
    says: Sequence[str] = (),
    code: int = 2,
) -> None:
    """A clean rejection: exit ``code`` (2), one message on standard error naming ``names``,
    each of ``lines`` (as ``file:LINE`` or ``line LINE``) and each of ``says``."""
    assert_clean(out)
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


# --- the corpus and what each file must do --------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """The outcome for one corpus file.

    ``works``: a valid deck (validate exits 3: no resource points; other commands 0).
    ``names``: the file the message must name (default: the corpus file itself).
    """

    works: bool = False
    lines: tuple[int, ...] = ()
    says: tuple[str, ...] = ()
    names: str | None = None
    game: str = "ren-dhark"
    check_code: int = 2


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
    "cp1250-czech.txt": Expect(works=True),  # read as Windows-1250, with a note saying so
    "latin1.txt": Expect(lines=(1,), says=("UTF-8",)),
    "nul-bytes.txt": Expect(lines=(4,), says=("NUL",)),
    "toml-game-int.toml": Expect(lines=(1,), says=("game",)),
    "toml-count-string.toml": Expect(lines=(5,), says=("POINT OF", "two")),
    "toml-count-float.toml": Expect(lines=(5,), says=("POINT OF", "1.5")),
    "toml-count-bool.toml": Expect(lines=(5,), says=("POINT OF",)),
    "toml-count-huge.toml": Expect(lines=(5,), says=("1000000000000",)),
    "toml-count-negative.toml": Expect(lines=(5,), says=("negative",)),
    "toml-cards-array.toml": Expect(says=("[cards]",)),
    "toml-syntax.toml": Expect(lines=(3,), says=("TOML",)),
    "toml-deep.toml": Expect(says=("nested",)),
    "toml-nosuchgame.toml": Expect(lines=(1,), says=("nosuchgame",)),
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
    "deck-nosuchgame.txt": Expect(lines=(2,), says=("nosuchgame",)),
    "deck-nosuchvariant.txt": Expect(lines=(3,), says=("nosuchvariant",)),
    "deck-catalog-missing.txt": Expect(names="no-such-overlay.toml", says=("no such file",)),
    "deck-catalog-dir.txt": Expect(names=str(NASTY), says=("directory",)),
    "deck-catalog-binary.txt": Expect(names="random-bytes.bin", says=("binary",)),
    "deck-missions-banana.txt": Expect(lines=(2,), says=("banana",)),
    "markup-line.txt": Expect(lines=(3,), says=("[/]",)),
    "markup [bold] name.txt": Expect(lines=(3,), says=("No Such Card",)),
}

OVERLAYS: dict[str, Expect] = {
    "ovl-misspelt-field.toml": Expect(lines=(7,), says=("resource_point", "resource_points")),
    "ovl-no-type.toml": Expect(lines=(9,), says=("Typeless", "type")),
    "ovl-negative.toml": Expect(lines=(7,), says=("resource_points", "-3")),
    "ovl-type-int.toml": Expect(lines=(7,), says=("type",)),
    "ovl-pc-rarity7.toml": Expect(lines=(8,), says=("rarity", "7"), game="planetary-conquerors"),
    "ovl-pc-trap-cost.toml": Expect(
        lines=(9,), says=("trap", "cost_gold"), game="planetary-conquerors"
    ),
    "ovl-nosuchgame.toml": Expect(lines=(1,), says=("nosuchgame",)),
    "ovl-no-catalog.toml": Expect(lines=(1,), says=("[catalog]",)),
    "ovl-cards-not-array.toml": Expect(says=("[[cards]]",)),
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


def _cases(names: Iterable[str], commands: Iterable[str]) -> list[object]:
    return [
        pytest.param(name, command, id=f"{command}-{name}")
        for name in names
        for command in commands
    ]


# --- the corpus itself ---------------------------------------------------------------------


def test_corpus_is_up_to_date_small_and_fully_expected() -> None:
    make_nasty = load_script("make_nasty", TESTS / "hostile" / "make_nasty.py")
    assert make_nasty.differs(NASTY) == [], "run: python tests/hostile/make_nasty.py"
    files = [p for p in NASTY.iterdir() if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 200_000
    assert {p.name for p in files} == set(DECKS) | set(OVERLAYS)


# --- every command over every corpus file ---------------------------------------------------


@pytest.mark.parametrize(("name", "command"), _cases(DECKS, DECK_COMMANDS))
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


@pytest.mark.parametrize(("name", "command"), _cases(OVERLAYS, OVERLAY_COMMANDS))
def test_overlay_file(name: str, command: str) -> None:
    expect = OVERLAYS[name]
    path = NASTY / name
    out = cli(OVERLAY_COMMANDS[command](path, expect.game))
    if command == "catalog-check" and expect.check_code == 0:
        assert_clean(out)
        assert out.code == 0, out.text
        return
    assert_rejects(out, names=path, lines=expect.lines, says=expect.says)


@pytest.mark.parametrize(
    ("name", "command"),
    _cases(DECKS, ("catalog-check", "cards")),
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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "deck.fifo"
    os.mkfifo(fifo)
    assert_rejects(run_subprocess(["validate", fifo]), names=fifo)


def test_several_decks_worst_code_wins_and_good_deck_still_reported() -> None:
    out = cli(["validate", RD_DECK, NASTY / "random-bytes.bin"])
    assert_clean(out)
    assert out.code == 2
    # The panel shortens a long path from the left, keeping the file name: wherever the
    # checkout lives, the names (and their folders, as far as they fit) are in view.
    assert "ren-dhark/blue-starter.txt" in out.text
    assert "random-bytes.bin" in out.text


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
    assert_rejects(out, names=fifty_mb, says=("bytes",))


def test_fifty_mb_file_as_catalog_is_rejected_fast(fifty_mb: Path) -> None:
    assert_rejects(cli(["catalog", "check", fifty_mb]), names=fifty_mb)
    assert_rejects(cli(["validate", RD_DECK, "--catalog", fifty_mb]), names=fifty_mb)


def test_fifty_mb_file_subprocess(fifty_mb: Path) -> None:
    assert_rejects(run_subprocess(["validate", fifty_mb]), names=fifty_mb)


def _many_unknown(path: Path, header: str) -> Path:
    lines = "".join(f"{i % 4 + 1} Nonexistent card number {i:05d}\n" for i in range(10_000))
    path.write_text(header + lines, encoding="utf-8")
    return path


@dataclass
class Work:
    """How often deck resolution looked a spelling up and computed suggestions, and how many
    catalog spellings those suggestions compared."""

    lookups: int = 0
    suggestions: int = 0
    compared: int = 0


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Work:
    """Count the lookups and suggestion searches of deck resolution."""
    counted = Work()
    lookup, suggest = resolve.lookup, Suggester.__call__

    def counting_lookup(*args: Any) -> Any:
        counted.lookups += 1
        return lookup(*args)

    def counting_suggest(self: Suggester, *args: Any, **kwargs: Any) -> list[str]:
        counted.suggestions += 1
        counted.compared += len(self)
        return suggest(self, *args, **kwargs)

    monkeypatch.setattr(resolve, "lookup", counting_lookup)
    # on the class: a catalog builds its suggester once and keeps it (Catalog.suggest_name)
    monkeypatch.setattr(Suggester, "__call__", counting_suggest)
    return counted


# Each listed line is looked up at most twice (its name, then the whole line as a name).
_PER_LINE = 2
_LISTED = resolve.MAX_REPORTED_LINES


@pytest.mark.parametrize("game", ["ren-dhark", "stccg-1e"])
def test_ten_thousand_unknown_lines_cost_a_hundred_lookups(
    tmp_path: Path, game: str, work: Work
) -> None:
    """A junk deck is refused after the lines it lists: the rest are counted, not looked up."""
    deck = _many_unknown(tmp_path / f"many {game}.txt", f"game: {game}\n")
    out = cli(["validate", deck])
    assert_rejects(out, names=deck, lines=(2, _LISTED + 1, 10_001), says=("9,900 more",))
    assert work.lookups <= _PER_LINE * _LISTED
    assert work.compared <= resolve.SUGGESTION_BUDGET
    if game == "ren-dhark":  # a small catalog: every listed line has its suggestions
        assert work.suggestions == _LISTED


def test_ten_thousand_unknown_lines_without_game(tmp_path: Path, work: Work) -> None:
    """Finding the game stops at each game's first hundred unknown lines too."""
    deck = _many_unknown(tmp_path / "many.txt", "")
    out = cli(["validate", deck])
    assert_rejects(out, names=deck, says=("no game",))
    assert work.suggestions == 0
    assert work.lookups <= _PER_LINE * _LISTED * len(all_games())


def test_ten_thousand_unknown_lines_through_a_process(tmp_path: Path) -> None:
    deck = _many_unknown(tmp_path / "many.txt", "game: stccg-1e\n")
    assert_rejects(run_subprocess(["validate", deck]), names=deck, lines=(2, 10_001))


@pytest.mark.parametrize("game", ["ren-dhark", "stccg-1e"])
def test_hundred_kb_card_name_with_a_game(tmp_path: Path, game: str) -> None:
    deck = tmp_path / "long.txt"
    deck.write_bytes(f"game: {game}\n".encode() + (NASTY / "long-line.txt").read_bytes())
    assert_rejects(cli(["validate", deck]), names=deck, lines=(3,))


# --- conditions and options -------------------------------------------------------------------

CONDITIONS: list[tuple[str, str]] = [
    ("type:ship>=banana", "banana"),
    (">=2", ">=2"),
    ("type:ship>=-1", "-1"),
    ("type:ship>=99999999999", "99999999999"),
    ("type:nonexistent>=1", "nonexistent"),
    ("unknownfield:x>=1", "unknownfield"),
    ("", "condition"),
    ("type:ship", "type:ship"),
    ("type:ship=>2", "ship"),
    ("id:NOPE>=1", "NOPE"),
    ('"">=1', "selector"),
    ("type:ship>=1\x00", "type:ship"),
    ("name:zzz>=1", "zzz"),
    ("[/]>=1", "[/]"),
]


@pytest.mark.parametrize("command", ["odds", "simulate", "hand"])
@pytest.mark.parametrize(
    ("condition", "says"),
    [pytest.param(c, s, id=repr(c)) for c, s in CONDITIONS],
)
def test_bad_condition(command: str, condition: str, says: str) -> None:
    args: list[str | Path] = [command, RD_CUSTOM, condition]
    if command == "simulate":
        args += ["--trials", "100"]
    assert_rejects(cli(args), says=(says,))


OPTIONS: list[tuple[list[str], str]] = [
    (["odds", "--seen", "-1"], "--seen"),
    (["odds", "--seen", "1000"], "1000"),
    (["odds", "--seen", str(10**12)], str(10**12)),
    (["odds", "--turn", "0"], "--turn"),
    (["odds", "--turn", "-3"], "--turn"),
    (["odds", "--turn", str(10**30)], "cards seen"),
    (["odds", "--seen", "8", "--turn", "2"], "--seen"),
    (["odds", "--redraws", "banana"], "banana"),
    (["odds", "--redraws", "-1"], "-1"),
    (["odds", "--redraws", str(10**12)], str(10**12)),
    (["odds", "--mulligan", "maybe"], "maybe"),
    (["odds", "--by-turn", str(10**12)], "--by-turn"),
    (["odds", "--by-turn", "0"], "--by-turn"),
    (["simulate", "--trials", "0"], "--trials"),
    (["simulate", "--trials", str(10**12)], "--trials"),
    (["simulate", "--trials", "-5"], "--trials"),
    (["simulate", "--trials", "100", "--mulligan", "maybe"], "maybe"),
    (["simulate", "--trials", "100", "--redraws", "banana"], "banana"),
    (["simulate", "--trials", "100", "--turn", "0"], "--turn"),
    (["simulate", "--trials", "100", "--seed", "-1"], "--seed"),
    (["hand", "--count", "0"], "--count"),
    (["hand", "--count", str(10**12)], "--count"),
    (["hand", "--mulligan", "maybe"], "maybe"),
    (["validate", "--variant", "nosuchvariant"], "nosuchvariant"),
    (["validate", "--game", "dorn"], "dorn"),
    (["validate", "--missions", "-1"], "missions"),
    (["export", "--to", "nosuchformat"], "nosuchformat"),
    (["export", "--to", "[/]"], "[/]"),
]


@pytest.mark.parametrize(
    ("argv", "says"),
    [pytest.param(a, s, id=" ".join(a)) for a, s in OPTIONS],
)
def test_bad_option(argv: list[str], says: str) -> None:
    command, *options = argv
    args: list[str | Path] = [command, RD_CUSTOM]
    if command in ("odds", "simulate"):
        args.append("type:ship>=1")
    assert_rejects(cli([*args, *options]), says=(says,))


GAME_FIELD_PILE: list[tuple[list[str | Path], str]] = [
    (["cards", "nosuchgame"], "nosuchgame"),
    (["cards", "nosuchgame", "x", "--catalog", NASTY / "ovl-no-type.toml"], "nosuchgame"),
    (["catalog", "template", "nosuchgame"], "nosuchgame"),
    (["catalog", "template", "ren-dhark", "--field", "nosuchfield"], "nosuchfield"),
    (["catalog", "template", "ren-dhark", "--field", "[/]"], "[/]"),
    (["odds", "dorn:nosuchpile", "type:hero>=1"], "nosuchpile"),
    (["odds", "nosuchgame:pile", "x>=1"], "nosuchgame:pile"),
    (["odds", "dorn:rituals", "type:ritual>=1", "--turn", "2"], "--seen"),
]


@pytest.mark.parametrize(
    ("args", "says"),
    [pytest.param(a, s, id=" ".join(Path(str(x)).name for x in a)) for a, s in GAME_FIELD_PILE],
)
def test_bad_game_field_or_pile(args: list[str | Path], says: str) -> None:
    assert_rejects(cli(args), says=(says,))


def test_cards_search_that_matches_nothing_is_not_an_error() -> None:
    for search in (":", "\x00", "x" * 10_000, "[/]"):
        out = cli(["cards", "ren-dhark", search])
        assert_clean(out)
        assert out.code == 0, out.text
        if search == "[/]":
            assert "'[/]'" in out.text  # echoed as typed, not read as markup


def test_cards_field_value_reads_like_a_condition() -> None:
    """field:value in ``cards`` is refused with the messages ``odds`` gives it."""
    for search, says in (
        ("type:", "values: action, person"),
        ("type:zzz", "no ren-dhark card has type 'zzz'"),
        ("colr:red", "did you mean colour:red?"),
    ):
        out = cli(["cards", "ren-dhark", search])
        assert_clean(out)
        assert out.code == 2, out.text
        assert says in out.stderr
        odds = cli(["odds", RD_CUSTOM, f"{search}>=1"])
        assert odds.code == 2 and odds.stderr == out.stderr


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
    out = cli(["export", NASTY / "latin1.txt", "--to", "json", "-o", target])
    assert_rejects(out, names=NASTY / "latin1.txt", says=("UTF-8",))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_export_force_onto_a_named_pipe_keeps_it_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    out = run_subprocess(["export", RD_CUSTOM, "--to", "json", "-o", fifo, "--force"])
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the named pipe was replaced by a regular file"
    assert_rejects(out, names=fifo)


# --- diff -----------------------------------------------------------------------------------------


def test_diff_of_two_games() -> None:
    out = cli(["diff", RD_CUSTOM, DORN_DECK])
    assert_rejects(out, names=RD_CUSTOM, says=(str(DORN_DECK), "ren-dhark", "dorn"))


# --- the same through a real process ----------------------------------------------------------

# One case per way input reaches a real process (a file, its name, a condition, an overlay):
# the in-process tests above cover the rest; a child process costs its command again.
SUBPROCESS_CASES: list[tuple[list[str | Path], int, Path | str | None, tuple[int, ...]]] = [
    (["validate", NASTY / "random-bytes.bin"], 2, NASTY / "random-bytes.bin", ()),
    (["validate", NASTY / "latin1.txt"], 2, NASTY / "latin1.txt", (1,)),
    (["validate", NASTY / "deck with spaces – Žluťoučký kůň ✓.txt"], 3, None, ()),
    (["odds", NASTY / "unknown-card.txt", "type:ship>=1"], 2, NASTY / "unknown-card.txt", (4, 5)),
    (
        ["catalog", "check", NASTY / "ovl-misspelt-field.toml"],
        2,
        NASTY / "ovl-misspelt-field.toml",
        (7,),
    ),
    (["validate", "/nonexistent/deck.txt"], 2, "/nonexistent/deck.txt", ()),
]


_SUBPROCESS_IDS = [" ".join(Path(str(a)).name for a in c[0]) for c in SUBPROCESS_CASES]


@pytest.mark.parametrize(("args", "code", "names", "lines"), SUBPROCESS_CASES, ids=_SUBPROCESS_IDS)
def test_subprocess(
    args: list[str | Path], code: int, names: Path | str | None, lines: tuple[int, ...]
) -> None:
    out = run_subprocess(args)
    if code in WORKS:
        assert_clean(out)
        assert out.code == code, out.text
    else:
        assert_rejects(out, names=names, lines=lines)


def test_subprocess_stdin_garbage() -> None:
    assert_rejects(run_subprocess(["validate", "-"], _GARBAGE), names="<stdin>")


def test_subprocess_markup_in_a_deck_line() -> None:
    out = run_subprocess(["validate", NASTY / "markup-line.txt"])
    assert_rejects(out, names=NASTY / "markup-line.txt", lines=(3,))
