"""Shared helpers for the benchmark scripts (not timed tests: run them by hand or `make bench`)."""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def machine() -> str:
    """One line describing the machine and interpreter."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}; {os.cpu_count()} cores; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def wall_times(argv: Sequence[str], runs: int) -> list[float]:
    """Wall-clock seconds of ``runs`` runs of a command (output discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=REPO
        )
        times.append(time.perf_counter() - start)
    return times


def cpu_times(argv: Sequence[str], runs: int) -> list[float]:
    """CPU seconds (user + system) of ``runs`` runs of a command: steadier than wall time on
    a machine shared with other work, and what start-up costs."""
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=REPO
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return times


@contextlib.contextmanager
def installed_run(bytecode: bool = True) -> Iterator[str]:
    """Child processes run as an installed deckcheck does, in a private folder (yielded): a
    catalog cache of their own (warmed by the first run), and their modules' bytecode.

    An installed package keeps compiled bytecode; a checkout under ``PYTHONDONTWRITEBYTECODE``
    would compile every module from source on every run, which measures the compiler rather
    than deckcheck. The children write and read bytecode under a private
    ``PYTHONPYCACHEPREFIX`` in the folder; ``bytecode=False`` keeps the environment's habit.
    """
    before = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as folder:
        os.environ["XDG_CACHE_HOME"] = folder
        os.environ.pop("DECKCHECK_CACHE", None)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "bytecode")
        if not bytecode:
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # installed packages keep their own
            del os.environ["PYTHONPYCACHEPREFIX"]
        try:
            yield folder
        finally:  # the benchmark's own environment, as it was
            os.environ.clear()
            os.environ.update(before)


def summary(times: Sequence[float]) -> str:
    """Median and minimum in milliseconds."""
    return f"median {1000 * statistics.median(times):7.1f} ms, min {1000 * min(times):7.1f} ms"


def python() -> str:
    """The interpreter running the benchmark (the project's venv when run via make)."""
    return sys.executable


def deckcheck() -> list[str]:
    """The command users run: the installed ``deckcheck`` script beside the interpreter, or
    ``python -m deckcheck`` where there is none (which also pays for runpy, about 3 ms)."""
    script = Path(sys.executable).with_name("deckcheck")
    return [str(script)] if script.is_file() else [python(), "-m", "deckcheck"]
