"""The in-place editors (``add``, ``remove``, ``fix --write``) and the writers (``new``,
``export -o``, ``fix -o``) as a busy or hostile user meets them: concurrent edits are never
lost, a symbolic link stays a link, a read-only or another user's file is refused and a
rewritten one keeps its owner and mode, the result is checked before it is written, a Markdown
export is refused, every file ``new`` writes reads back, a name ending in ``/`` is a folder,
long lines and numbers of thousands of digits are one-line errors, control characters never
reach the screen raw, and a killed run's temporary files are cleaned up. Everything through
the command line."""

from __future__ import annotations

import json
import os
import pty
import signal
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, WATCHDOG, invoke, run_cli
from process_helpers import deckcheck, exchange, finish, spawn

from deckcheck.core.errors import DeckcheckError

KLINGON = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
SIX_HEROES = EXAMPLES / "dorn" / "illegal-six-heroes.txt"
TERRA = EXAMPLES / "ren-dhark" / "terra-custom.txt"
HEROES = ["Kaerdrak", "Choros", "Almanor", "Ragnar", "Eleanor", "Gor", "Guelin", "Riel"]
MONSTERS = ["Giant Rat", "Zombie", "Ghost", "Mummy"]
NOBODY = 65534


def _deck(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _fails_cleanly(args: list[str | Path], *words: str) -> str:
    """Exit 2 with one line on standard error naming ``words``; that line."""
    result = run_cli(args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _children(commands: list[list[str]], cwd: Path) -> list[tuple[int, str]]:
    """Run the commands at the same time, each in a process of its own, and return their exit
    codes and standard errors; a hang fails the test (never a speed limit).

    Each process is forked from this one, where deckcheck is already imported, and runs the
    command line there: the edits race as separate processes with their own open files and
    locks, as ``deckcheck`` started twice would, without an interpreter start and the
    imports for each.
    """
    children = []
    for number, command in enumerate(commands):
        errors = cwd / f"child-{number}.stderr"
        pid = os.fork()
        if pid == 0:  # the child: run the command, leave its report, never return to pytest
            code = 70
            try:
                os.chdir(cwd)
                result = invoke(command)
                code = result.exit_code
                errors.write_text(f"{result.stderr}{result.exception!r}", encoding="utf-8")
            finally:
                os._exit(code)
        children.append((pid, errors, command))
    deadline = time.monotonic() + WATCHDOG
    codes: dict[int, int] = {}
    while len(codes) < len(children):
        for pid, _, _ in children:
            if pid not in codes:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    codes[pid] = os.waitstatus_to_exitcode(status)
        if len(codes) < len(children):
            if time.monotonic() > deadline:
                hung = [" ".join(c) for pid, _, c in children if pid not in codes]
                for pid, _, _ in children:
                    if pid not in codes:
                        os.kill(pid, signal.SIGKILL)
                        os.waitpid(pid, 0)
                pytest.fail(f"deckcheck {hung[0]} hung")
            time.sleep(0.01)
    finished = []
    for pid, errors, _ in children:
        finished.append((codes[pid], errors.read_text(encoding="utf-8") if errors.exists() else ""))
        errors.unlink(missing_ok=True)
    return finished


# --- 1. concurrent edits ----------------------------------------------------------------------


def test_concurrent_edits_are_never_lost(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "game: dorn\nname: busy\n")
    # The catalog loaded here, before the fork: the children race on the edit, not on loading.
    assert run_cli(["validate", deck]).exit_code in (0, 1)
    # Eight adds of different cards at once, then four removes and four adds at once.
    for commands in (
        [["add", deck.name, hero] for hero in HEROES],
        [["remove", deck.name, hero] for hero in HEROES[:4]]
        + [["add", deck.name, monster] for monster in MONSTERS],
    ):
        for code, errors in _children(commands, tmp_path):
            assert code == 0, errors
    lines = deck.read_text(encoding="utf-8").splitlines()
    cards = sorted(line.split(" ", 1)[1] for line in lines if line[:1].isdigit())
    assert cards == sorted(HEROES[4:] + MONSTERS), lines
    assert not list(tmp_path.glob(".deckcheck-*"))  # no temporary file left behind


# --- 2. symbolic links --------------------------------------------------------------------------


def test_a_linked_deck_is_edited_through_its_link(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "real.txt"
    target.write_bytes(KLINGON.read_bytes())
    link = tmp_path / "link.txt"
    link.symlink_to(os.path.relpath(target, tmp_path))
    assert run_cli(["add", link, "Gowron", "2"]).exit_code == 0
    assert run_cli(["remove", link, "Gowron"]).exit_code == 0
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert "2 Gowron" in target.read_text(encoding="utf-8")
    assert not list(tmp_path.glob(".deckcheck-*")) and not list(elsewhere.glob(".deckcheck-*"))


def test_fix_write_and_forced_export_write_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real" / "party.txt"
    target.parent.mkdir()
    target.write_bytes(SIX_HEROES.read_bytes())
    link = tmp_path / "party.txt"
    link.symlink_to(target)
    assert run_cli(["fix", link, "--write"]).exit_code == 0
    assert link.is_symlink()
    assert run_cli(["validate", target]).exit_code == 0  # the real deck was fixed
    out = tmp_path / "out.txt"
    other = tmp_path / "real" / "exported.txt"
    other.write_text("old\n", encoding="utf-8")
    out.symlink_to(other)
    assert run_cli(["export", link, "--to", "text", "-o", out, "--force"]).exit_code == 0
    assert out.is_symlink() and other.read_text(encoding="utf-8").startswith("game: dorn")


def test_a_dangling_link_fifo_or_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    _fails_cleanly(["add", tmp_path / "dangling.txt", "Gowron"], "no such file")
    os.mkfifo(tmp_path / "pipe.txt")
    _fails_cleanly(["add", tmp_path / "pipe.txt", "Gowron"], "not a regular file")
    _fails_cleanly(["remove", tmp_path, "Gowron"], "directory")


def test_build_saves_through_the_same_writer(tmp_path: Path) -> None:
    """The deck builder's save: a link stays a link, an add made meanwhile is noticed (never
    overwritten), a read-only deck is refused."""
    from deckcheck.commands.build import BuildSession, SaveConflict

    real = tmp_path / "real.txt"
    real.write_text("game: dorn\nKaerdrak\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    session = BuildSession(link)
    catalog = session.opened.loaded.catalog
    gor, riel = catalog.by_id("hero/gor"), catalog.by_id("hero/riel")
    assert gor is not None and riel is not None
    session.add(gor)
    session.save()
    assert link.is_symlink() and "Gor" in real.read_text(encoding="utf-8")
    session.add(riel)
    assert run_cli(["add", link, "Choros"]).exit_code == 0  # meanwhile, elsewhere
    with pytest.raises(SaveConflict):
        session.save()
    assert "Choros" in real.read_text(encoding="utf-8")
    real.chmod(0o444)
    with pytest.raises(DeckcheckError, match="read-only"):
        session.save(overwrite=True)


# --- 3. the result is checked before it is written ------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("cap.txt", "game: stccg-1e\n1 Gowron\n"),
        ("cap.json", '{"game": "stccg-1e", "cards": [{"count": 1, "name": "Gowron"}]}\n'),
        ("cap.toml", 'game = "stccg-1e"\n[cards]\nGowron = 1\n'),
    ],
)
def test_an_edit_beyond_the_count_limit_leaves_the_file_untouched(
    tmp_path: Path, name: str, text: str
) -> None:
    deck = _deck(tmp_path, text, name)
    before = deck.read_bytes()
    _fails_cleanly(["add", deck, "Gowron", "10000"], "10001", "unchanged")
    assert deck.read_bytes() == before
    assert run_cli(["add", deck, "Gowron", "9999"]).exit_code == 0  # up to the limit: fine


# --- 4. read-only and other users' files ------------------------------------------------------


def test_a_read_only_deck_is_refused_by_every_editor(tmp_path: Path) -> None:
    deck = tmp_path / "party.txt"
    deck.write_bytes(SIX_HEROES.read_bytes())
    deck.chmod(0o444)
    before = deck.read_bytes()
    editors: list[list[str | Path]] = [
        ["add", deck, "Gor"],
        ["remove", deck, "Choros"],
        ["fix", deck, "--write"],
    ]
    for args in editors:
        _fails_cleanly(args, "read-only")
    _fails_cleanly(["new", "dorn", "-o", deck, "--force"], "read-only")
    _fails_cleanly(["export", KLINGON, "--to", "text", "-o", deck, "--force"], "read-only")
    assert deck.read_bytes() == before and (deck.stat().st_mode & 0o777) == 0o444
    assert not (tmp_path / "party.txt.bak").exists()


def test_optimize_write_goes_through_the_same_writer(tmp_path: Path) -> None:
    for source in (TERRA, *TERRA.parent.glob("*.toml")):  # the overlays the deck names
        (tmp_path / source.name).write_bytes(source.read_bytes())
    deck = tmp_path / TERRA.name
    link = tmp_path / "link.txt"
    link.symlink_to(deck.name)
    deck.chmod(0o444)
    args: list[str | Path] = ["optimize", link, "type:ship>=2", "--turn", "2", "--changes", "1"]
    args.append("--write")
    _fails_cleanly(args, "read-only")
    assert deck.read_bytes() == TERRA.read_bytes()
    deck.chmod(0o640)
    assert run_cli(args).exit_code == 0
    assert link.is_symlink() and deck.read_bytes() != TERRA.read_bytes()
    assert deck.stat().st_mode & 0o777 == 0o640


def test_a_rewrite_keeps_the_mode_and_owner(tmp_path: Path) -> None:
    deck = tmp_path / "party.txt"
    deck.write_bytes(SIX_HEROES.read_bytes())
    deck.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(deck, NOBODY, NOBODY)  # the superuser edits someone's deck: it stays theirs
    owner = (deck.stat().st_uid, deck.stat().st_gid)
    assert run_cli(["add", deck, "Gor"]).exit_code == 0
    assert run_cli(["fix", deck, "--write"]).exit_code == 0  # keeps party.txt.bak
    for path in (deck, tmp_path / "party.txt.bak"):
        found = path.stat()
        assert ((found.st_uid, found.st_gid), found.st_mode & 0o7777) == (owner, 0o640)


def test_another_users_deck_is_never_taken_over(tmp_path: Path) -> None:
    """With privileges dropped (the suite may run as root): the caller may not write the
    file, or may write it but a rewrite would make it theirs; either way it is refused."""
    if os.geteuid() != 0:
        pytest.skip("making another user's file needs root")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    for name, mode in (("theirs.txt", 0o644), ("open.txt", 0o666), ("warm.txt", 0o644)):
        (shared / name).write_bytes(SIX_HEROES.read_bytes())
        (shared / name).chmod(mode)
    # Once as root, so that every module the command needs is imported before the fork: the
    # child runs as nobody, who may not read the interpreter's own folder.
    assert run_cli(["add", shared / "warm.txt", "Gor"]).exit_code == 0
    codes = [_as_nobody(["add", name, "Gor"], shared) for name in ("theirs.txt", "open.txt")]
    err = (shared / "stderr").read_text(encoding="utf-8")
    assert codes == [2, 2], err
    assert "theirs.txt: is read-only" in err and "open.txt: belongs to another user" in err
    for name in ("theirs.txt", "open.txt"):
        assert (shared / name).read_bytes() == SIX_HEROES.read_bytes()
        assert (shared / name).stat().st_uid == 0


def _as_nobody(args: list[str], cwd: Path) -> int:
    """The exit code of ``deckcheck ARGS`` run in a forked child as user nobody, in ``cwd``
    (entered before the privileges are dropped); its standard error is appended to
    ``cwd/stderr``."""
    log = os.open(cwd / "stderr", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test run
        code = 70
        try:
            os.dup2(log, 2)
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            os.chdir(cwd)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            from deckcheck.cli.app import app_for

            app_for(args)(args=args, prog_name="deckcheck")
            code = 0
        except SystemExit as end:
            code = end.code if isinstance(end.code, int) else 1
        except BaseException as exc:  # reported through the exit code and standard error
            os.write(2, repr(exc).encode())
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(log)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


# --- 5. Markdown ---------------------------------------------------------------------------------


def test_a_markdown_export_is_refused_by_add_and_kept_markdown_by_fix(tmp_path: Path) -> None:
    table = tmp_path / "party.md"
    assert (
        run_cli(
            ["export", SIX_HEROES, "--to", "markdown", "-o", table, "--allow-illegal"]
        ).exit_code
        == 0
    )
    before = table.read_bytes()
    _fails_cleanly(["add", table, "Gor"], "Markdown")
    _fails_cleanly(["remove", table, "Vargen"], "Markdown")
    assert table.read_bytes() == before
    assert run_cli(["fix", table, "--write"]).exit_code == 0
    assert table.read_text(encoding="utf-8").count("|") > 10  # still a table
    assert run_cli(["validate", table]).exit_code == 0


# --- 6. every file new writes reads back and takes add ------------------------------------------


@pytest.mark.parametrize("suffix", [".txt", ".toml", ".json", ".dek", ".md"])
def test_every_new_deck_reads_back_and_takes_add(tmp_path: Path, suffix: str) -> None:
    deck = tmp_path / f"n{suffix}"
    assert run_cli(["new", "stccg-1e", "-o", deck]).exit_code == 0
    assert run_cli(["validate", deck]).exit_code == 1  # empty: illegal, but read
    for args in (["add", deck, "Gowron"], ["add", deck, "Worf", "2"], ["remove", deck, "Gowron"]):
        assert run_cli(args).exit_code == 0, (args, deck.read_text(encoding="utf-8"))
    found = json.loads(run_cli(["validate", deck, "--json"]).stdout)
    assert (found["game"], found["card_count"]) == ("stccg-1e", 2)


def test_a_new_line_names_a_card_that_shares_its_name_by_id(tmp_path: Path) -> None:
    """Ren Dhark's two "Černá garda" (I/7, I/8): a TOML key with the name would read as
    neither, so the line added names the id (as text decks do)."""
    deck = tmp_path / "r.toml"
    assert run_cli(["new", "ren-dhark", "-o", deck]).exit_code == 0
    assert run_cli(["add", deck, "I/8"]).exit_code == 0
    assert '"I/8" = 1' in deck.read_text(encoding="utf-8")
    assert run_cli(["remove", deck, "I/8"]).exit_code == 0


def test_new_refuses_a_name_it_would_not_read_back(tmp_path: Path) -> None:
    _fails_cleanly(["new", "stccg-1e", "-o", tmp_path / "n.csv"], "read back")
    assert not (tmp_path / "n.csv").exists()


# --- 7. a name ending in / ---------------------------------------------------------------------


def test_a_trailing_slash_names_a_folder(tmp_path: Path) -> None:
    deck = tmp_path / "party.txt"
    deck.write_bytes(SIX_HEROES.read_bytes())
    slashed = str(tmp_path / "x.html") + "/"
    _fails_cleanly(["export", deck, "--to", "html", "-o", slashed, "--allow-illegal"], "folder")
    _fails_cleanly(["new", "dorn", "-o", str(tmp_path / "n.txt") + "/"], "folder")
    _fails_cleanly(["fix", deck, "-o", str(tmp_path / "f.txt") + "/"], "folder")
    _fails_cleanly(["add", str(deck) + "/", "Gor"], "folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["party.txt"]
    assert deck.read_bytes() == SIX_HEROES.read_bytes()


# --- 9. long lines and long numbers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("comment.txt", "# " + "x" * 200_000 + "\ngame: dorn\nKaerdrak\n"),
        (
            "one-line.json",
            json.dumps(
                {"game": "dorn", "name": "y" * 200_000, "cards": [{"count": 1, "name": "Kaerdrak"}]}
            ),
        ),
        ("wide.csv", "count,name,game,note\n1,Kaerdrak,dorn," + "z" * 200_000 + "\n"),
        (
            "wide.md",
            "| Count | Card |" + " x |" * 50_000 + "\n|---|---|\n| 1 | Kaerdrak |\n",
        ),
    ],
)
def test_a_line_longer_than_the_csv_field_limit_is_read(
    tmp_path: Path, name: str, text: str
) -> None:
    deck = _deck(tmp_path, text, name)
    result = run_cli(["validate", deck, "--json"])
    assert result.exit_code == 1, result.output  # read: one hero, where the party needs five
    assert json.loads(result.stdout)["card_count"] == 1


DIGITS = "9" * 5000


@pytest.mark.parametrize(
    "args",
    [
        ["odds", str(KLINGON), f"type:ship>={DIGITS}"],
        ["validate", str(KLINGON), "--set", f"missions={DIGITS}"],
    ],
    ids=["odds", "set"],
)
def test_a_number_of_thousands_of_digits_on_the_command_line(args: list[str]) -> None:
    assert len(_fails_cleanly(list(args))) < 300


def test_a_count_argument_of_thousands_of_digits_or_not_ascii(tmp_path: Path) -> None:
    deck = _deck(tmp_path, "game: dorn\nKaerdrak\n")
    assert "10,000" in _fails_cleanly(["add", deck, "Gor", DIGITS])
    _fails_cleanly(["add", deck, "Gor", "\u00b2"])  # a digit to Python, no count
    _fails_cleanly(["odds", KLINGON, "type:ship>=1", "--redraws", "\u00b2"], "--redraws")
    assert deck.read_text(encoding="utf-8") == "game: dorn\nKaerdrak\n"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("big.json", '{"game": "dorn", "cards": [{"count": ' + DIGITS + ', "name": "Gor"}]}'),
        ("big.toml", 'game = "dorn"\n[cards]\nGor = ' + DIGITS + "\n"),
        ("big.txt", "game: dorn\n" + DIGITS + " Gor\n"),
    ],
)
def test_a_count_of_thousands_of_digits_in_a_deck(tmp_path: Path, name: str, text: str) -> None:
    deck = _deck(tmp_path, text, name)
    assert len(_fails_cleanly(["validate", deck])) < 300
    assert len(_fails_cleanly(["add", deck, "Kaerdrak"])) < 300
    assert deck.read_text(encoding="utf-8") == text


# --- 10. control characters --------------------------------------------------------------------

HOSTILE_NAME = "Evil\x1b]0;owned\x07\x1b[31m\x9b2J\u202eeman"


def test_json_escapes_every_control_and_bidi_character(tmp_path: Path) -> None:
    deck = _deck(tmp_path, f"game: dorn\nname: {HOSTILE_NAME}\nKaerdrak\n")
    result = run_cli(["validate", deck, "--json"])
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in result.stdout
    assert "\\u009b" in result.stdout and "\\u202e" in result.stdout
    assert json.loads(result.stdout)["name"] == HOSTILE_NAME  # exact once read


def _on_terminal(args: list[str], cwd: Path) -> bytes:
    """What ``deckcheck ARGS`` writes to standard output when it is a terminal (run in a
    forked child whose standard output is a pseudo-terminal)."""
    leader, follower = pty.openpty()
    null = os.open(os.devnull, os.O_RDWR)
    pid = spawn(deckcheck(args), {0: null, 1: follower, 2: null}, parent_ends=[leader], cwd=cwd)
    os.close(follower)
    os.close(null)
    what = " ".join(["deckcheck", *args])
    [out] = exchange(pid, what, [leader])  # read until the terminal closes: the child is done
    finish(pid, what)
    return out


def test_text_on_a_terminal_shows_control_characters_written_out(tmp_path: Path) -> None:
    deck = _deck(tmp_path, f"game: dorn\nname: {HOSTILE_NAME}\nKaerdrak\n")
    shown = _on_terminal(["export", "deck.txt", "--to", "text", "--allow-illegal"], tmp_path)
    assert b"Kaerdrak" in shown and b"\\x1b" in shown
    assert b"\x1b" not in shown and b"\x07" not in shown and "\u202e".encode() not in shown
    shown = _on_terminal(["fix", "deck.txt", "-o", "-"], tmp_path)
    assert b"Kaerdrak" in shown and b"\x1b]0;" not in shown and "\x9b".encode() not in shown
    piped = run_cli(["export", deck, "--to", "text", "--allow-illegal"])
    assert HOSTILE_NAME in piped.stdout  # a pipe or file gets the exact text


# --- 11. a killed run's temporary files ---------------------------------------------------------


def test_the_next_edit_removes_stale_temporary_files(tmp_path: Path) -> None:
    deck = tmp_path / "party.txt"
    deck.write_bytes(SIX_HEROES.read_bytes())
    stale, fresh = tmp_path / ".deckcheck-abcd1234.tmp", tmp_path / ".deckcheck-fresh123.tmp"
    other = tmp_path / ".deckcheck-not-ours.tmp"
    for path in (stale, fresh, other):
        path.write_text("half a deck", encoding="utf-8")
    old = time.time() - 120
    for path in (stale, other):
        os.utime(path, (old, old))
    assert run_cli(["add", deck, "Gor"]).exit_code == 0
    assert not stale.exists()
    assert fresh.exists() and other.exists()  # a minute old at least, and of our own pattern


def test_an_editor_refuses_a_deck_the_reader_refuses(tmp_path: Path) -> None:
    """A NUL byte makes a deck unreadable to `validate`; `add` and `remove` refuse it the
    same way (exit 2) and leave its bytes as they were."""
    deck = tmp_path / "nul.txt"
    data = b"game: dorn\n1 Gor\x00\n1 Riel\n"
    deck.write_bytes(data)
    for args in (["add", deck, "Ragnar"], ["remove", deck, "Riel"], ["validate", deck]):
        result = run_cli(args)
        assert result.exit_code == 2 and "NUL" in result.stderr, (args, result.stderr)
    assert deck.read_bytes() == data


def test_new_refuses_standard_output_as_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(["new", "dorn", "-o", "-"])
    assert result.exit_code == 2 and "file name" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_fix_reads_its_keep_names_even_on_a_legal_deck() -> None:
    result = run_cli(["fix", EXAMPLES / "dorn" / "first-game-party.txt", "--keep", "Nobodyx"])
    assert result.exit_code == 2 and "--keep 'Nobodyx'" in result.stderr
