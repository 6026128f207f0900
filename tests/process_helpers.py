"""deckcheck run as a process of its own without starting an interpreter: forked.

The test process has deckcheck imported already; a child forked from it sets up its standard
descriptors and streams as an interpreter's start makes them (a descriptor closed before the
run is a ``None`` stream; the encoding, error handler and buffering come from the
environment), makes deckcheck's consoles anew on first use, and runs the real entry point
(:func:`deckcheck.cli.main.main`) with its own open files, signals and exit code. What it costs
is the command, not the interpreter's start and the imports (half a second of CPU each). Tests
about the start itself (what it imports, ``python -m``, the installed script, signals during
it) start a real interpreter instead (:func:`conftest.run_module`).

Helpers are plain functions, imported like conftest's (``from process_helpers import
run_forked``); a test using them is marked ``process`` (they fork).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import io
import locale
import logging
import os
import selectors
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
from conftest import REPO, WATCHDOG, Finished

CLOSED = -1
"""A descriptor the child starts with closed (``>&-``, ``<&-``)."""

_NAMES = {0: "<stdin>", 1: "<stdout>", 2: "<stderr>"}


def _stdio_settings(env: Mapping[str, str], fd: int) -> tuple[str, str]:
    """The encoding and error handler an interpreter gives standard stream ``fd`` in ``env``
    (``PYTHONIOENCODING``, else the locale's, as CPython's configuration reads them)."""
    encoding, _, errors = env.get("PYTHONIOENCODING", "").partition(":")
    if not encoding:
        encoding = "utf-8" if sys.flags.utf8_mode else locale.getencoding()
    if not errors:
        if fd == 2:
            errors = "backslashreplace"
        elif sys.flags.utf8_mode or locale.setlocale(locale.LC_CTYPE) in (
            "C",
            "POSIX",
            "C.UTF-8",
            "C.utf8",
            "UTF-8",
        ):
            errors = "surrogateescape"
        else:
            errors = "strict"
    return encoding, errors


def _stdio(fd: int, env: Mapping[str, str]) -> IO[Any] | None:
    """Standard stream ``fd`` as an interpreter's start makes it: ``None`` if the descriptor
    is not open; stdin buffered, stdout and stderr unbuffered under ``PYTHONUNBUFFERED``,
    line-buffered on a terminal (stderr always)."""
    try:
        os.fstat(fd)
    except OSError:
        return None
    writing = fd != 0
    buffered = not (writing and env.get("PYTHONUNBUFFERED"))
    raw = io.FileIO(fd, "wb" if writing else "rb", closefd=False)
    raw.name = _NAMES[fd]  # type: ignore[misc]
    binary: Any = raw
    if buffered:
        binary = io.BufferedWriter(raw) if writing else io.BufferedReader(raw)
    encoding, errors = _stdio_settings(env, fd)
    stream = io.TextIOWrapper(
        binary,
        encoding=encoding,
        errors=errors,
        newline="\n",
        line_buffering=buffered and (raw.isatty() or fd == 2),
        write_through=not buffered,
    )
    stream.mode = "w" if writing else "r"  # type: ignore[misc]
    return stream


def _exit_code(end: SystemExit) -> int:
    """The exit status an interpreter gives ``sys.exit(end.code)`` (anything but an int or
    None is printed and is 1)."""
    if end.code is None:
        return 0
    if isinstance(end.code, int):
        return end.code & 0xFF
    with contextlib.suppress(Exception):
        print(end.code, file=sys.stderr)
    return 1


def _flushed_at_exit(code: int) -> int:
    """Flush the standard streams as an interpreter's exit does: output that cannot be
    flushed is reported as ignored and the status becomes 120."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except Exception:
            if stream is sys.stdout:
                with contextlib.suppress(Exception):
                    sys.stderr.write("Exception ignored on flushing sys.stdout:\n")
                    traceback.print_exc()
                code = 120
    return code


def _child(
    run: Callable[[], object],
    fds: Mapping[int, int],
    parent_ends: Iterable[int],
    env: Mapping[str, str],
    cwd: Path,
) -> None:
    """In the forked child: descriptors, environment, folder and streams of a new process,
    then ``run()``; never returns into the test run."""
    code = 70
    try:
        # The test process's objects are not the child's to collect: set aside, the collector
        # never walks them (nor copies every page of the test process to do so).
        gc.freeze()
        for target, fd in fds.items():
            if fd == CLOSED:
                with contextlib.suppress(OSError):
                    os.close(target)
            elif fd != target:
                os.dup2(fd, target)
        for fd in {*fds.values(), *parent_ends} - {CLOSED, 0, 1, 2}:
            with contextlib.suppress(OSError):
                os.close(fd)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        streams: list[Any] = [_stdio(fd, env) for fd in (0, 1, 2)]
        sys.stdin, sys.stdout, sys.stderr = streams
        sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]
        _fresh_reporting()
        from deckcheck.cli import render

        render.out = render.err = None  # made on first use, in this process's setting
        try:
            run()
            code = 0
        except SystemExit as end:
            code = _exit_code(end)
        except BaseException:
            with contextlib.suppress(Exception):
                traceback.print_exc()
            code = 1
        code = _flushed_at_exit(code)
    finally:
        os._exit(code)


def _fresh_reporting() -> None:
    """Warnings and log records as a new interpreter reports them, on the child's stderr: the
    test process's pytest records both (its warning recorder, its log-capturing handlers),
    and a child that inherited that would swallow a warning the test expects never to see."""
    warnings.resetwarnings()
    # A new interpreter's default filters (no -W options, no PYTHONWARNINGS).
    warnings.simplefilter("ignore", ResourceWarning)
    warnings.simplefilter("ignore", ImportWarning)
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")

    def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
        with contextlib.suppress(Exception):
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = show
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)


@functools.cache
def _warmed() -> None:
    """What every child would otherwise load anew, loaded once in the test process (as its
    in-process tests load it): the games' definitions and bundled catalogs, and rich."""
    import rich.console  # noqa: F401

    from deckcheck.games.registry import all_games

    for game in all_games().values():
        game.bundled_catalog()


def spawn(
    run: Callable[[], object],
    fds: Mapping[int, int],
    *,
    parent_ends: Iterable[int] = (),
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
) -> int:
    """Fork a child that runs ``run()`` with its descriptors 0, 1 and 2 taken from ``fds``
    (:data:`CLOSED`: closed) and exits with its status; return its process id. The child
    closes ``parent_ends`` (the test's ends of its pipes), so that a reader's end going away
    is seen by the child as a closed pipe."""
    environment = dict(os.environ if env is None else env)
    _warmed()
    pid = os.fork()
    if pid == 0:
        _child(run, fds, parent_ends, environment, cwd)
    return pid


def deckcheck(args: Sequence[str | Path]) -> Callable[[], object]:
    """What a forked child runs for ``python -m deckcheck ARGS``: the entry point with
    ``sys.argv`` set."""

    def run() -> None:
        import deckcheck
        from deckcheck.cli.main import main

        sys.argv = [str(Path(deckcheck.__file__).with_name("__main__.py")), *map(str, args)]
        main()

    return run


def finish(pid: int, what: str) -> int:
    """The exit status of child ``pid`` (negative: the signal that ended it); a child still
    running after :data:`WATCHDOG` seconds is killed and fails the test as a hang."""
    deadline = time.monotonic() + WATCHDOG
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"{what[:200]} hung (still running after {WATCHDOG:.0f} s)")
        time.sleep(0.005)


def exchange(
    pid: int,
    what: str,
    readers: Sequence[int],
    writer: int | None = None,
    data: bytes = b"",
    *,
    enough: Callable[[int, bytes], bool] | None = None,
) -> list[bytes]:
    """Write ``data`` to ``writer`` (then close it) and read ``readers`` to their end, at
    once, under the watchdog; what each reader gave. ``enough(fd, read so far)`` true closes
    that reader early (a reader that leaves). Every descriptor given is closed."""
    got = {fd: b"" for fd in readers}
    deadline = time.monotonic() + WATCHDOG
    with selectors.DefaultSelector() as selector:
        for fd in readers:
            selector.register(fd, selectors.EVENT_READ)
        if writer is not None:
            if data:
                os.set_blocking(writer, False)
                selector.register(writer, selectors.EVENT_WRITE)
            else:
                os.close(writer)
        try:
            while selector.get_map():
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    pytest.fail(f"{what[:200]} hung (its output still open after {WATCHDOG:.0f} s)")
                for key, _ in selector.select(timeout=1.0):
                    fd = key.fd
                    if fd == writer:
                        try:
                            data = data[os.write(fd, data[:65536]) :]
                        except BrokenPipeError:
                            data = b""
                        if not data:
                            selector.unregister(fd)
                            os.close(fd)
                        continue
                    try:
                        chunk = os.read(fd, 65536)
                    except OSError as exc:  # a terminal's leader reads EIO once the child is gone
                        if exc.errno != errno.EIO:
                            raise
                        chunk = b""
                    got[fd] += chunk
                    if not chunk or (enough is not None and enough(fd, got[fd])):
                        selector.unregister(fd)
                        os.close(fd)
        finally:
            for key in list(selector.get_map().values()):
                with contextlib.suppress(OSError):
                    os.close(key.fd)
    return [got[fd] for fd in readers]


def run_forked(
    args: Sequence[str | Path],
    stdin: bytes | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
    streams: Mapping[int, int] | None = None,
) -> Finished:
    """``python -m deckcheck ARGS`` run in a forked child (see the module's docstring), as
    :func:`conftest.run_module` runs it: standard output and error captured (UTF-8 unless
    ``env`` says otherwise), standard input ``stdin`` or empty. ``streams`` gives the child
    descriptors of the test's instead (``{1: a descriptor of /dev/full}``; :data:`CLOSED`: none
    at all); what is not captured reads as empty."""
    what = " ".join(map(str, ["deckcheck", *args]))
    return call_forked(deckcheck(args), what, stdin, env=env, cwd=cwd, streams=streams)


def call_forked(
    run: Callable[[], object],
    what: str,
    stdin: bytes | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
    streams: Mapping[int, int] | None = None,
) -> Finished:
    """``run()`` in a forked child set up as :func:`run_forked` sets it up (``what`` names it
    in a failure); its exit status (negative: the signal that ended it) and what it wrote."""
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    given = dict(streams or {})
    fds: dict[int, int] = {}
    captured: dict[int, int] = {}  # stream -> the test's end of its pipe
    theirs: list[int] = []  # the child's ends, closed here once it has them
    for fd in (1, 2):
        if fd not in given:
            captured[fd], fds[fd] = os.pipe()
            theirs.append(fds[fd])
    ours = list(captured.values())
    writer = None
    if 0 not in given:
        if stdin:
            read, writer = os.pipe()
            ours.append(writer)
        else:
            read = os.open(os.devnull, os.O_RDONLY)
        fds[0] = read
        theirs.append(read)
    pid = spawn(run, {**fds, **given}, parent_ends=ours, env=environment, cwd=cwd)
    for fd in theirs:
        os.close(fd)
    readers = list(captured.values())
    got = dict(zip(readers, exchange(pid, what, readers, writer, stdin or b""), strict=True))
    code = finish(pid, what)
    out, err = (got.get(captured.get(fd, CLOSED), b"") for fd in (1, 2))
    return Finished(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
