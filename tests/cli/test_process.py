"""The run as a process: signals, closed or full standard streams, escape
codes from deck content on a real terminal screen. Everything goes through child processes:
forked from this one (:mod:`process_helpers`: the real entry point with real descriptors),
and started anew where the interpreter's start is part of the case (signals from the start
on; the closed and full output of one command); waits are bounded by the watchdog, never
asserted on."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO, WATCHDOG
from process_helpers import CLOSED, deckcheck, exchange, finish, run_forked, spawn

RD = EXAMPLES / "ren-dhark/terra-custom.txt"
RD_ILLEGAL = EXAMPLES / "ren-dhark/illegal-mixed.txt"
PC_80 = EXAMPLES / "planetary-conquerors/legal-80.txt"
LINUX = sys.platform.startswith("linux")
DECKCHECK = [sys.executable, "-m", "deckcheck"]


def _env(*, cache: bool = True) -> dict[str, str]:
    """The child's environment. With ``cache``, the run's own catalog cache (inherited): a
    child that lists the games or reads STCCG then starts from it, not from the TOML."""
    return {
        **os.environ,
        "PYTHONIOENCODING": "utf-8",
        **({} if cache else {"DECKCHECK_CACHE": "off"}),
    }


def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (a watchdog, not a measurement)."""
    deadline = time.monotonic() + WATCHDOG
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.02)


def _guard_installed(pid: int) -> bool:
    """deckcheck has taken over SIGTERM (its guard is in place: past the interpreter's start)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=WATCHDOG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("deckcheck did not stop (or something kept its output open)")
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


# ------------------------------------------------------------------------------ signals


STOPS = [
    (signal.SIGINT, 130, "Ctrl-C"),
    (signal.SIGTERM, 143, "SIGTERM"),
    (signal.SIGHUP, 129, "SIGHUP"),
]


@pytest.mark.skipif(not LINUX, reason="reads /proc")
@pytest.mark.parametrize(("signum", "code", "name"), STOPS, ids=[s[2] for s in STOPS])
def test_a_signal_mid_run_is_one_line_and_its_code(
    tmp_path: Path, signum: int, code: int, name: str
) -> None:
    """Stopped while it waits for the deck on standard input: one line, the code, and the
    export it was asked for leaves nothing behind."""
    target = tmp_path / "out.toml"
    proc = subprocess.Popen(
        [*DECKCHECK, "export", "-", "--to", "toml", "-o", target],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(cache=False),
    )
    assert proc.stdin is not None
    proc.stdin.write(b"game: ren-dhark\n2 POINT OF\n")
    proc.stdin.flush()
    _until(lambda: _guard_installed(proc.pid), "deckcheck to start")
    os.kill(proc.pid, signum)
    returned, out, err = _finish(proc)
    assert returned == code, err
    assert err.strip().splitlines() == [f"deckcheck: stopped by {name}"]
    assert out == ""
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------ streams


def _shell(command: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        env={**_env(), "DECKCHECK": " ".join(DECKCHECK)},
        cwd=REPO,
        timeout=WATCHDOG,
    )


STARTED = "games"
"""The command whose output cannot be written through a real start of ``python -m deckcheck``
(the interpreter itself makes a closed descriptor a ``None`` stream); the others fork."""


@pytest.mark.parametrize(
    "args",
    [
        f"validate {RD} --json",
        f"validate {RD}",
        "cards stccg-1e",
        f"odds {RD} 'type:ship>=2' --json",
        f"export {RD} --to toml",
        STARTED,
    ],
)
@pytest.mark.parametrize("redirect", [">/dev/full", ">&-"])
def test_output_that_cannot_be_written(args: str, redirect: str) -> None:
    if redirect == ">/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    if args == STARTED:
        started = _shell(f"$DECKCHECK {args} {redirect}")
        code, err = started.returncode, started.stderr.decode()
    else:
        full = os.open("/dev/full", os.O_WRONLY) if redirect == ">/dev/full" else CLOSED
        try:
            forked = run_forked(shlex.split(args), streams={1: full})
        finally:
            if full != CLOSED:
                os.close(full)
        code, err = forked.code, forked.stderr
    assert code == 4, err
    assert len(err.strip().splitlines()) == 1 and "cannot write standard output" in err, err


def test_a_reader_that_leaves_early_is_silent() -> None:
    """``deckcheck cards stccg-1e | head -n 1``: the reader closes the pipe after a line.
    Standard output buffered, as by default: unbuffered (``PYTHONUNBUFFERED``), Python takes a
    write cut short by the reader's leaving as done, and the run never sees the closed pipe."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    pid = spawn(
        deckcheck(["cards", "stccg-1e"]),
        {0: null, 1: out_w, 2: err_w},
        parent_ends=(out_r, err_r),
        env={k: v for k, v in _env().items() if k != "PYTHONUNBUFFERED"},
    )
    for fd in (null, out_w, err_w):
        os.close(fd)
    what = "deckcheck cards stccg-1e | head -n 1"
    out, err = exchange(
        pid, what, [out_r, err_r], enough=lambda fd, got: fd == out_r and b"\n" in got
    )
    finish(pid, what)
    assert err == b""
    assert out.decode().strip()


def test_closed_standard_input_is_an_input_error() -> None:
    done = run_forked(["validate", "-"], streams={0: CLOSED})
    assert done.code == 2
    assert done.stderr.strip() == "error: <stdin>: standard input is closed"


def test_messages_to_a_pipe_are_not_wrapped(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 60) / ("y" * 60)
    deep.mkdir(parents=True)
    missing = deep / "missing-deck.txt"
    done = run_forked(["validate", missing])
    assert done.code == 2
    assert f"{missing}: no such file" in done.stderr.splitlines()[0]


# ------------------------------------------------------------------------------ files


def test_export_to_a_name_as_long_as_the_system_allows(tmp_path: Path) -> None:
    name = "d" * (255 - len(".toml")) + ".toml"
    done = run_forked(["export", RD, "--to", "toml", "-o", tmp_path / name])
    assert done.code == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_repeated_key_in_a_json_deck_is_reported(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text('{"game": "ren-dhark",\n "cards": [{"count": 2, "id": "I/25",\n "count": 1}]}')
    done = run_forked(["validate", deck])
    assert done.code == 2
    assert f"{deck}:3: key 'count' is given twice" in done.stderr


# ------------------------------------------------------------------------------ terminal


def _screen(raw: bytes) -> str:
    pyte = pytest.importorskip("pyte")
    screen = pyte.Screen(120, 60)
    stream = pyte.ByteStream(screen)
    stream.feed(raw.replace(b"\n", b"\r\n"))
    return "\n".join(screen.display)


def test_escape_codes_in_a_deck_cannot_fake_the_verdict(tmp_path: Path) -> None:
    lines = RD_ILLEGAL.read_text(encoding="utf-8").splitlines()
    body = [ln for ln in lines if not ln.startswith(("catalog:", "name:"))]
    deck = tmp_path / "x\x1b[2Jdeck\u202e.txt"
    deck.write_text("\n".join(["name: \x1b[1A\x1b[2K\x1b[32mLEGAL", *body]) + "\n")
    done = run_forked(["validate", deck], env={"COLUMNS": "120", "FORCE_COLOR": "1"})
    assert done.code == 1
    screen = _screen(done.stdout.encode())
    assert "ILLEGAL" in screen
    assert "\\x1b[1A" in screen and "\\u202e" in screen
    data = run_forked(["validate", deck, "--json"]).stdout
    assert json.loads(data)["name"] == "\x1b[1A\x1b[2K\x1b[32mLEGAL"  # JSON stays exact


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # __del__'s
@pytest.mark.parametrize("where", ["wrapped", "dropped"])
def test_a_stop_that_python_wraps_or_drops_still_ends_the_run(
    where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stop raised where Python wraps it (``__set_name__``: a RuntimeError) or drops it
    (``__del__``: printed as ignored) still ends the run with its code and its line."""
    import sys

    from deckcheck.cli import process

    class Wrapped:
        def __set_name__(self, owner: type, name: str) -> None:
            process._stop(signal.SIGTERM, None)

    class Dropped:
        def __del__(self) -> None:
            process._stop(signal.SIGTERM, None)

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    stdout = sys.stdout
    try:
        with pytest.raises(SystemExit) as ended, process.guarded_process():
            if where == "wrapped":
                type("Owner", (), {"field": Wrapped()})
            else:
                Dropped()
        assert ended.value.code == 143
        assert capsys.readouterr().err.strip().splitlines()[-1] == "deckcheck: stopped by SIGTERM"
    finally:
        sys.stdout = stdout
        process._received.clear()
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


_STOP_IN_A_CALLBACK = """
import gc, weakref
from deckcheck.cli.process import _stop, guarded_process

class Held:
    pass

with guarded_process():
    held = Held()
    # a stop signal handled inside a weak-reference callback, as during an import's module lock
    ref = weakref.ref(held, lambda _: _stop(15, None))
    del held
    gc.collect()
    print("went on")
"""


def test_a_stop_python_cannot_raise_in_a_callback_is_one_line_not_a_traceback() -> None:
    """A signal that lands in a weak-reference callback (the import system's module locks use
    them) cannot be raised there: the run still ends with its one line and code, and Python's
    "Exception ignored" report with its traceback is not printed."""
    proc = subprocess.run(
        [sys.executable, "-c", _STOP_IN_A_CALLBACK],
        capture_output=True,
        text=True,
        env=_env(cache=False),
        timeout=WATCHDOG,
        check=False,
    )
    assert proc.returncode == 143, proc.stderr
    assert proc.stderr.strip().splitlines() == ["deckcheck: stopped by SIGTERM"]
    assert proc.stdout == "went on\n"
