"""What happens around a command as a process: signals, closed or failing standard streams.

Every way a run can end early ends in one line on standard error and a documented exit code,
never a traceback: Ctrl-C 130, SIGTERM 143, SIGHUP 129; standard output that cannot be written
(a full disk, a closed stream) :data:`OUTPUT_FAILED`; a reader that went away (``| head``)
ends the run silently with 141, as it would any Unix tool.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType
from typing import IO, Any

OUTPUT_FAILED = 4
"""Exit code when standard output cannot be written (disk full, stream closed)."""
BROKEN_PIPE = 128 + 13
"""Exit code when the reader of standard output went away (``deckcheck cards … | head``)."""

_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
if hasattr(signal, "SIGHUP"):
    _NAMES[signal.SIGHUP] = "SIGHUP"


class Stopped(BaseException):
    """A signal asked the run to stop. A BaseException, like KeyboardInterrupt, so that no
    ``except Exception`` swallows it while ``finally`` blocks still clean up on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class OutputFailed(Exception):
    """Standard output could not be written."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Output:
    """Standard output (text, or its ``buffer``) whose write failures are
    :class:`OutputFailed`, told apart from any other OSError; ``None`` stands for a stream
    closed before the run (``>&-``)."""

    def __init__(self, stream: IO[Any] | None) -> None:
        self._stream = stream

    def _checked(self) -> IO[Any]:
        if self._stream is None:
            raise OutputFailed(OSError(errno.EBADF, "standard output is closed"))
        return self._stream

    def write(self, data: Any) -> int:
        try:
            return self._checked().write(data)
        except OSError as exc:
            raise OutputFailed(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return  # nothing can be waiting: every write to a closed stream failed
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def buffer(self) -> _Output:
        return _Output(getattr(self._stream, "buffer", None))

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


_received: list[int] = []
"""The stop signals received in this run, first first."""


def _stop(signum: int, frame: FrameType | None) -> None:
    """Turn a stop signal into :class:`Stopped`. Where Python drops or wraps what a handler
    raises (a weak-reference callback, a ``__set_name__``), the signal is still on record and
    ends the run the same way (:func:`guarded_process`)."""
    _received.append(signum)
    raise Stopped(signum)


def _unraisable(unraisable: Any) -> None:
    """``sys.unraisablehook`` during the run: a :class:`Stopped` that Python could not raise
    (the signal came inside a weak-reference callback, such as the import system's module
    locks) is on record and ends the run with its one line, so it is not printed as an
    ignored exception with its traceback; anything else goes to Python's own hook."""
    if isinstance(unraisable.exc_value, Stopped):
        return
    sys.__unraisablehook__(unraisable)


def _occupy_closed_descriptors() -> None:
    """A descriptor closed before the run (``<&-``, ``>&-``) would be taken by the next file
    opened, and output meant for the terminal would land in it: fill it with /dev/null."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


@contextlib.contextmanager
def guarded_process() -> Iterator[None]:
    """Run the command line inside: signals become :class:`Stopped`, standard output failures
    :class:`OutputFailed`, and each ends the process with its one line and code."""
    stdout_closed = sys.stdout is None
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    _occupy_closed_descriptors()
    sys.stdout = _Output(None if stdout_closed else sys.stdout)  # type: ignore[assignment]
    # Stop signals wait while the handlers are set (a signal between two of them raised past
    # the guard); they are delivered inside the try, where they end in the one line.
    held = hasattr(signal, "pthread_sigmask")
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, set(_NAMES))
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _unraisable
    try:
        # Ctrl-C too: Python 3.11 remembers a KeyboardInterrupt raised inside code run by
        # exec() (a dataclass being created during an import) as unhandled, even once caught,
        # and kills the process with SIGINT at exit instead of exiting with 130.
        for signum in _NAMES:
            signal.signal(signum, _stop)
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, set(_NAMES))
        yield
        sys.stdout.flush()  # buffered output fails here, not in the interpreter's shutdown
    except SystemExit as exc:
        with contextlib.suppress(OutputFailed):
            sys.stdout.flush()
        if _received:  # a stop that Python dropped on its way up: the run ends as it asked
            sys.exit(ending(Stopped(_received[0])))
        raise exc from None
    except (KeyboardInterrupt, Stopped, OutputFailed) as exc:
        sys.exit(ending(exc))
    except BaseException:
        if not _received:
            raise
        sys.exit(ending(Stopped(_received[0])))  # a stop that Python wrapped on its way up
    else:
        if _received:
            sys.exit(ending(Stopped(_received[0])))
    finally:
        sys.unraisablehook = previous_hook
        # The interpreter's shutdown is not the command's: a late signal just ends it.
        for signum in _NAMES:
            if signal.getsignal(signum) is _stop:
                signal.signal(signum, signal.SIG_DFL)


def ending(exc: KeyboardInterrupt | Stopped | OutputFailed) -> int:
    """Say why the run stopped (one line, nothing for a closed pipe) and give its exit code."""
    if isinstance(exc, OutputFailed):
        if exc.error.errno == errno.EPIPE:
            _silence_stdout()
            return BROKEN_PIPE
        _silence_stdout()
        _say(f"cannot write standard output: {exc.error.strerror or exc.error}")
        return OUTPUT_FAILED
    signum = exc.signum if isinstance(exc, Stopped) else signal.SIGINT
    _received.clear()  # said once
    for other in _NAMES:  # the way out must not be interrupted in turn
        signal.signal(other, signal.SIG_IGN)
    _say(f"stopped by {_NAMES.get(signum, f'signal {signum}')}")
    return 128 + signum


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"deckcheck: {line}\n")
        sys.stderr.flush()


def _silence_stdout() -> None:
    """Output that cannot be written is dropped, so that the interpreter's last flush does not
    print "Exception ignored" after our line."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    sys.stdout = _Output(open(os.devnull, "w"))  # type: ignore[assignment]  # noqa: SIM115
