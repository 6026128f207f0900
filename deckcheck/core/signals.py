"""Holding the signals that stop a run (Ctrl-C, SIGTERM, SIGHUP) across a few steps that must
not be cut in the middle: publishing a file."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOPPING: frozenset[int] = frozenset(
    {signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])}
)
"""The signals that ask a run to stop."""


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold the stopping signals until the block ends; one that came meanwhile is delivered
    then. Child processes started inside inherit the hold and must :func:`release` it. A no-op
    where the system cannot hold signals or outside the main thread."""
    if not hasattr(signal, "pthread_sigmask") or (
        threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def release() -> None:
    """Let the stopping signals through again (in a child process started under :func:`held`,
    once it has set its own handlers)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
